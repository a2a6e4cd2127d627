"""The built documentation site, shared by the docs tests.

``scripts/test`` builds the site strictly before running pytest and points ``FLY_RULES_DOCS_HTML`` at
it; run on their own, the tests build the site themselves into a temporary folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def sphinx_build(source: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run a strict ``sphinx-build`` (nitpicky, warnings are errors) of ``source`` into ``out``."""
    command = [sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-q", "-E", *extra]
    command += ["-d", str(out / ".doctrees"), "-b", "html", str(source), str(out)]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)


@pytest.fixture(scope="session")
def built_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the built HTML site."""
    given = os.environ.get("FLY_RULES_DOCS_HTML")
    if given and (Path(given) / "index.html").is_file():
        return Path(given)
    out = tmp_path_factory.mktemp("html")
    result = sphinx_build(ROOT / "docs", out)
    assert result.returncode == 0, result.stderr
    return out
