"""The first steps as written: the shell blocks the README and the docs' install and quick start mark
with ``first-steps: run`` run verbatim, in order, in a copy of the checkout with a fresh virtual
environment (the network is needed, as for any ``pip install``)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKED = re.compile(r"^(?:<!-- first-steps: run -->|% first-steps: run)\n```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
PAGES = ("README.md", "docs/index.md")


def blocks(page: str) -> list[str]:
    """The marked shell blocks of ``page``, in order."""
    return MARKED.findall((ROOT / page).read_text(encoding="utf-8"))


def _copy(target: Path) -> None:
    """The checkout's files (tracked, and new ones git does not ignore) copied to ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def test_the_marked_blocks_are_the_install_and_quick_start() -> None:
    """Each page marks its install and quick start blocks: a venv made, the package installed from the
    checkout and from a wheel found by a glob, the command run through the venv's own path."""
    for page in PAGES:
        text = "\n".join(blocks(page))
        assert "python3 -m venv .venv\n" in text, page
        assert "pip install -e '.[cli]'" in text, page
        assert '"$(ls dist/fly_rules-*.whl)[cli]"' in text, page
        assert ".venv/bin/fly-rules demo" in text, page
        assert "<version>" not in text, page
        assert not re.search(r"^fly-rules ", text, flags=re.MULTILINE), page  # never a bare command
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.index("bash scripts/demo") < readme.index("bash scripts/test") < readme.index("## Install")
    assert "scripts/check-package" in readme
    assert "## Build and open the docs" in readme


def test_the_readme_and_docs_first_steps_run_verbatim(tmp_path: Path) -> None:
    """Every marked block runs with bash (errexit, pipefail) in a copy of the checkout, from a PATH with no
    virtual environment: the demo plays a match, ``play`` stops on ``quit`` (saving the game ``replay``
    then tells), ``simulate``, ``show``, ``rules`` and ``conform`` run, the wheel's command cites FLY-8.3
    with its sources, which the wheel ships."""
    _copy(tmp_path)
    path = [p for p in os.environ["PATH"].split(os.pathsep) if not (Path(p) / "activate").exists()]
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(path)
    told = ""
    for page in PAGES:
        for block in blocks(page):
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", block],
                cwd=tmp_path,
                env=env,
                input="quit\n",
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert done.returncode == 0, f"{page}:\n{block}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            told += done.stdout
    assert "== Match over" in told
    assert "per bot" in told  # simulate's table
    assert "game stopped and saved to game.toml" in told
    assert "legal actions of seat 2 (5):" in told
    assert re.search(r"^vectors: \d+ passed, 0 failed$", told, flags=re.MULTILINE)
    assert "game stopped; not saved" in told
    assert "FLY-8.3" in told
    assert "A♠ bonus" in told
    seeds = re.findall(r"^\(seeds/ is the folder of the source documents: (.*)\)$", told, flags=re.MULTILINE)
    assert seeds
    assert "_seeds" in seeds[-1]  # the wheel's own copy of the cited documents, not the checkout's
    assert (Path(seeds[-1]) / "000_6577f99cc57481c5.txt").is_file()
