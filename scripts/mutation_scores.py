"""Print the mutation score of each mutated module from mutmut's results (``mutants/**/*.py.meta``).

Score = detected / (mutants - equivalent): a mutant is detected when a test failed (killed) or ran out
of time; the equivalent mutants are those named in ``tests/mutation/equivalent.md`` (one per line,
in backquotes, with the reason). Surviving mutants that are not listed there are printed by name.
Exits 1 if a module scores below ``--target`` (default 95), or if ``equivalent.md`` names a mutant that
its module no longer has (an edit renumbered the mutants, so the entry now excuses nothing or the
wrong change): such stale entries are printed and must be corrected.

Usage: python scripts/mutation_scores.py [--target 95] [--survivors] [--diff]
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import sys
from pathlib import Path

DETECTED = {1, 3, 36, -24, 24, 152, 255}  # mutmut's exit codes for killed and timeout
EQUIVALENT = Path("tests/mutation/equivalent.md")


def equivalent_names() -> set[str]:
    """The mutant names listed as equivalent, with a reason, in tests/mutation/equivalent.md."""
    if not EQUIVALENT.exists():
        return set()
    return set(re.findall(r"^- `([\w.ǁ]+__mutmut_\d+)`", EQUIVALENT.read_text(encoding="utf-8"), re.MULTILINE))


def mutant_diffs(module_source: str, names: list[str]) -> dict[str, list[str]]:
    """The changed lines of each named mutant: its function in mutmut's copy against the original."""
    functions = {
        node.name: ast.get_source_segment(module_source, node) or ""
        for node in ast.walk(ast.parse(module_source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    diffs = {}
    for name in names:
        function = name.rsplit(".", 1)[-1] if "ǁ" not in name else "xǁ" + name.split(".xǁ", 1)[1]
        original = functions.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", "").splitlines()[1:]
        mutant = functions.get(function, "").splitlines()[1:]
        diffs[name] = [
            line.strip()
            for line in difflib.unified_diff(original, mutant, lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("---", "+++"))
        ]
    return diffs


def main() -> int:
    """Print one line per module and the survivors; return 1 if a module is under the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=95.0)
    parser.add_argument("--survivors", action="store_true", help="list every undetected mutant")
    parser.add_argument("--diff", action="store_true", help="with --survivors, show each one's changed lines")
    args = parser.parse_args()
    equivalent = equivalent_names()
    failing = False
    known: set[str] = set()
    ran_modules: set[str] = set()
    print(f"{'module':34} {'mutants':>7} {'equiv':>5} {'killed':>6} {'survived':>8} {'score':>7}")
    for meta in sorted(Path("mutants").glob("fly_rules/**/*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        known.update(codes)
        tried = {name: code for name, code in codes.items() if code is not None}
        if not tried:
            continue
        equiv = {name for name in tried if name in equivalent}
        detected = {name for name, code in tried.items() if code in DETECTED}
        survivors = sorted(set(tried) - detected - equiv)
        counted = len(tried) - len(equiv)
        score = 100.0 * len(detected - equiv) / counted if counted else 100.0
        module = str(meta.relative_to("mutants"))[: -len(".meta")]
        ran_modules.add(module.removesuffix(".py").replace("/", "."))
        untried = len(codes) - len(tried)
        note = f"  ({untried} not run)" if untried else ""
        print(f"{module:34} {len(tried):7} {len(equiv):5} {len(detected):6} {len(survivors):8} {score:6.1f}%{note}")
        if args.survivors:
            diffs = mutant_diffs(meta.with_suffix("").read_text(encoding="utf-8"), survivors) if args.diff else {}
            for name in survivors:
                print(f"    survived: {name} (exit {tried[name]})")
                for line in diffs.get(name, []):
                    print(f"        {line[:160]}")
        failing = failing or score < args.target
    stale = sorted(name for name in equivalent - known if _module_of(name) in ran_modules)
    for name in stale:
        print(f"stale entry in {EQUIVALENT}: {name} is not a mutant of its module")
    return 1 if failing or stale else 0


def _module_of(name: str) -> str:
    """``fly_rules.fly.play`` for ``fly_rules.fly.play.x_f__mutmut_3`` or ``...play.xǁCǁm__mutmut_3``."""
    return name.split(".xǁ", 1)[0] if ".xǁ" in name else name.rsplit(".", 1)[0]


if __name__ == "__main__":
    sys.exit(main())
