"""Build the compiled wheel: the pure wheel with the engine's hot modules compiled by mypyc (issue 51).

Usage::

    python scripts/build_compiled.py [--out dist-compiled] [--keep]

The default build (``python -m build``) stays the pure ``py3-none-any`` wheel that Pyodide installs; this
script is the opt-in. It builds that pure wheel (hatchling, as a release does), unpacks it, compiles the
modules of :data:`COMPILED` in place with mypyc (``mypyc.build.mypycify``, the mypy of the running
Python; gcc), and packs the result again as a wheel for this interpreter and platform: the same files,
metadata and entry points, plus one extension module per compiled module and mypyc's shared library.
The ``.py`` sources stay beside them (Python imports the extension first). ``scripts/test_compiled``
installs it in a fresh venv and runs the differential and conformance tests and the kit against it.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMPILED = (
    "fly_rules/_choices.py",
    "fly_rules/tricks.py",
    "fly_rules/engine/shuffle.py",
    "fly_rules/fly/deal.py",
    "fly_rules/fly/exchange.py",
    "fly_rules/fly/play.py",
    "fly_rules/fly/scoring.py",
    "fly_rules/fly/state.py",
    "fly_rules/dreyfus/deal.py",
    "fly_rules/dreyfus/exchange.py",
    "fly_rules/dreyfus/play.py",
    "fly_rules/dreyfus/scoring.py",
    "fly_rules/dreyfus/state.py",
    "fly_rules/fly/solving.py",
    "fly_rules/dreyfus/solving.py",
    "fly_rules/solve/search.py",
)
"""The modules mypyc compiles: the scalar engine's hot path of random play (``python -m cProfile
benchmarks/bench.py``), each game's search kernel and the searches of the exact solver. Everything else stays
interpreted."""

_SETUP = """
from mypyc.build import mypycify
from setuptools import setup

setup(name="fly_rules_compiled", ext_modules=mypycify({modules!r}, opt_level="3"),
      script_args=["build_ext", "--inplace"])
"""


def run(command: list[str], cwd: Path, log: Path) -> None:
    """Run ``command`` in ``cwd``, its output into ``log``; on failure print the log's end and stop."""
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode:
        sys.exit(f"{' '.join(command[:4])} failed ({done.returncode}):\n" + log.read_text()[-6000:])


def platform_tag() -> str:
    """This interpreter's most specific wheel tag, e.g. ``cp311-cp311-linux_x86_64``."""
    from packaging.tags import sys_tags  # noqa: PLC0415 - packaging comes with build

    return str(next(iter(sys_tags())))


def record_line(root: Path, path: Path) -> str:
    """The RECORD line of one file: its path, sha256 (urlsafe base64, unpadded) and size."""
    data = path.read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path.relative_to(root).as_posix()},sha256={digest},{len(data)}"


def pack(stage: Path, out: Path, tag: str) -> Path:
    """Write the staged tree as a wheel for ``tag``: WHEEL retagged, RECORD rewritten."""
    (info,) = stage.glob("*.dist-info")
    name, version = info.name.removesuffix(".dist-info").split("-")
    wheel = info / "WHEEL"
    lines = [line for line in wheel.read_text().splitlines() if not line.startswith(("Tag:", "Root-Is-Purelib:"))]
    wheel.write_text("\n".join([*lines, "Root-Is-Purelib: false", f"Tag: {tag}"]) + "\n")
    files = sorted(p for p in stage.rglob("*") if p.is_file() and p.name != "RECORD")
    record = info / "RECORD"
    record.write_text("\n".join([*(record_line(stage, p) for p in files), f"{info.name}/RECORD,,"]) + "\n")
    target = out / f"{name}-{version}-{tag}.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in [*files, record]:
            archive.write(path, path.relative_to(stage).as_posix())
    return target


def main() -> int:
    """Build the pure wheel, compile the hot modules in it, pack the compiled wheel into ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "dist-compiled", help="folder for the compiled wheel")
    parser.add_argument("--keep", action="store_true", help="keep the build folder (its path is printed)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="fly-compiled-"))
    try:
        run([sys.executable, "-m", "build", "--wheel", "--outdir", str(work / "pure"), str(ROOT)], work, work / "b.log")
        (pure,) = (work / "pure").glob("*.whl")
        stage = work / "stage"
        with zipfile.ZipFile(pure) as archive:
            archive.extractall(stage)
        (stage / "setup.py").write_text(_SETUP.format(modules=list(COMPILED)))
        run([sys.executable, "setup.py"], stage, work / "mypyc.log")
        for leftover in ("setup.py", "build"):
            path = stage / leftover
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        built = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*.so"))
        if len(built) < len(COMPILED):
            sys.exit(f"mypyc built {len(built)} extension modules for {len(COMPILED)} modules: {built}")
        args.out.mkdir(parents=True, exist_ok=True)
        wheel = pack(stage, args.out, platform_tag())
        print(f"{wheel} ({len(built)} extension modules)")
    finally:
        if args.keep:
            print(f"build folder kept: {work}")
        else:
            shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
