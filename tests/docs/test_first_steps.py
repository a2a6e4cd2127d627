"""The first steps as written: the shell blocks the README and the docs' quick start mark with ``first-steps:
run`` run verbatim, in order, in a copy of the checkout with a fresh virtual environment (the network is needed,
as for any ``pip install``); the docs' install blocks, marked ``first-steps: as-readme``, are the README's lines."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKED = re.compile(
    r"^(?:<!-- first-steps: (run|as-readme) -->|% first-steps: (run|as-readme))\n```sh\n(.*?)^```",
    re.MULTILINE | re.DOTALL,
)
PAGES = ("README.md", "docs/index.md")


def blocks(page: str, mark: str = "run") -> list[str]:
    """The shell blocks of ``page`` marked ``first-steps: run`` (or ``as-readme``: the README's own lines), in order."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [block for html, myst, block in MARKED.findall(text) if (html or myst) == mark]


def commands(block: str) -> list[str]:
    """The command lines of a shell block, without their comments and spacing."""
    return [" ".join(line.partition("  #")[0].split()) for line in block.splitlines() if line.strip()]


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


def _outside_any_venv() -> dict[str, str]:
    """The environment with no virtual environment on ``PATH`` or named: a fresh shell's."""
    path = [p for p in os.environ["PATH"].split(os.pathsep) if not (Path(p) / "activate").exists()]
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(path)
    return env


def test_the_marked_blocks_are_the_install_and_quick_start() -> None:
    """Each page marks its install and quick start blocks: a venv made, the package installed from the
    checkout and from a wheel found by a glob, the command run through the venv's own path."""
    for page in PAGES:
        text = "\n".join(blocks(page) + blocks(page, "as-readme"))
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


def test_the_docs_install_lines_are_the_readme_s_which_run_verbatim() -> None:
    """The docs' install blocks are marked ``as-readme``: each is the README's run lines in their order (comments
    aside), so running the README's blocks runs them; the docs' quick start still runs on its own."""
    readme = [line for block in blocks("README.md") for line in commands(block)]
    same = blocks("docs/index.md", "as-readme")
    assert len(same) == 2
    for block in same:
        lines = commands(block)
        start = readme.index(lines[0])
        assert readme[start : start + len(lines)] == lines, lines
    assert blocks("docs/index.md")  # the quick start


@pytest.fixture(scope="module")
def first_steps(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A copy of the checkout in which every marked block has run with bash (errexit, pipefail), in order,
    from a PATH with no virtual environment, and what they printed (the docs section's test goes on in the
    same copy, with the venv the Install section made)."""
    root = tmp_path_factory.mktemp("first-steps")
    _copy(root)
    env = _outside_any_venv()
    told = ""
    for page in PAGES:
        for block in blocks(page):
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", block],
                cwd=root,
                env=env,
                input="quit\n",
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert done.returncode == 0, f"{page}:\n{block}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            told += done.stdout
    return root, told


def test_the_readme_and_docs_first_steps_run_verbatim(first_steps: tuple[Path, str]) -> None:
    """Every marked block runs with bash (errexit, pipefail) in a copy of the checkout, from a PATH with no
    virtual environment: the demo plays a match, ``play`` stops on ``quit`` (saving the game ``replay``
    then tells), ``simulate``, ``show``, ``rules`` and ``conform`` run, the wheel's command cites FLY-8.3
    with its sources, which the wheel ships."""
    _, told = first_steps
    assert "== Match over" in told
    assert "per bot" in told  # simulate's table
    assert "game stopped and saved to game.toml" in told
    assert "legal actions of seat 2 (5):" in told
    assert re.search(r"^vectors: \d+ passed, 0 failed(, \d+ skipped)?$", told, flags=re.MULTILINE)
    assert "game stopped; not saved" in told
    assert "FLY-8.3" in told
    assert "A♠ bonus" in told
    seeds = re.findall(r"^\(seeds/ is the folder of the source documents: (.*)\)$", told, flags=re.MULTILINE)
    wheel = [folder for folder in seeds if "_seeds" in folder]  # the wheel's own copy of the cited documents
    assert wheel, seeds
    assert len(wheel) < len(seeds)  # the editable install's rules cite the checkout's seeds/
    assert (Path(wheel[0]) / "000_6577f99cc57481c5.txt").is_file()


DOCS_SITE = re.compile(r"^<!-- docs-site: run -->\n```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_readme_docs_section_builds_a_site_whose_table_starts_a_match(first_steps: tuple[Path, str]) -> None:
    """The README's "Build and open the docs" lines run in order in the copy of the checkout the first
    steps ran in (with the venv its Install section made): they install, assemble the live engine and
    build the site; its last line serves the site (on a free port instead of 8000, which may be taken),
    and a match starts on ``play.html`` in chromium, the table showing three seats and the reader's legal
    moves."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = DOCS_SITE.findall(readme)
    *lines, serve = [line for line in block.splitlines() if line.strip()]
    assert any("scripts/web-assets" in line for line in lines)  # the live engine, or no table
    command, _, _ = serve.partition("#")
    # bound to this machine: http.server's default serves the site to the whole network
    assert command.split() == ["python3", "-m", "http.server", "-b", "127.0.0.1", "-d", "docs/_build/html", "8000"]
    root, _ = first_steps
    env = _outside_any_venv()
    script = "\n".join(lines)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "live engine assembled" in done.stdout
    assert (root / "docs/_build/html/_static/live/pyodide/pyodide-lock.json").is_file()
    port = _free_port()
    served = subprocess.Popen(
        [*command.split()[:-1], str(port)],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.2)
        started = subprocess.run(
            ["node", str(root / "tests/web/start_match.mjs"), f"http://127.0.0.1:{port}"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        served.terminate()
        served.wait(timeout=30)
    assert started.returncode == 0, started.stdout + started.stderr
    assert re.search(r"^table: your-turn; seats 3; legal s f x", started.stdout, flags=re.MULTILINE), started.stdout
    assert "your turn" in started.stdout
