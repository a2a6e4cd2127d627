"""Print the mutation score of each mutated module from mutmut's results (``mutants/**/*.py.meta``).

Score = detected / (mutants - equivalent): a mutant is detected when a test failed (killed) or ran out
of time; the equivalent mutants are those named in ``tests/mutation/equivalent.md`` (one per line,
in backquotes, with the reason). Surviving mutants that are not listed there are printed by name.
Each entry also records the mutant's change (a ``Change: `...``` line: its added code). An edit to a
module renumbers its mutants, so an entry can come to excuse another change than the one its reason
argues for: the script compares each entry's recorded change with the mutant of that name and exits 1
on a mismatch, on a name its module no longer has, or on an entry without its change
(``--record-changes`` writes the missing ones, never a mismatched one). It also exits 1 if a module
scores below ``--target`` (default 95).

With ``--sample FRACTION PREFIX`` it prints, instead, the names of a seeded random sample of the mutants whose names
start with PREFIX, that fraction of each module's (at least one), for a module too large to run whole: pass them
to ``scripts/mutation``; the score of the sample is then printed with its count of mutants not run.

Usage: python scripts/mutation_scores.py [--target 95] [--survivors] [--diff] [--record-changes]
       python scripts/mutation_scores.py --sample 0.1 fly_rules.batch [--seed 47]
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import random
import re
import sys
from pathlib import Path

DETECTED = {1, 3, 36, -24, 24, 152, 255}  # mutmut's exit codes for killed and timeout
EQUIVALENT = Path("tests/mutation/equivalent.md")


ENTRY = re.compile(r"^- `([\w.ǁ]+__mutmut_\d+)`.*?(?=^- `|^#|\Z)", re.MULTILINE | re.DOTALL)
CHANGE = re.compile(r"^  Change: `(.*)`$", re.MULTILINE)


def equivalent_entries() -> dict[str, str | None]:
    """The mutants listed as equivalent in tests/mutation/equivalent.md, each with its recorded change."""
    if not EQUIVALENT.exists():
        return {}
    entries: dict[str, str | None] = {}
    for entry in ENTRY.finditer(EQUIVALENT.read_text(encoding="utf-8")):
        change = CHANGE.search(entry.group(0))
        entries[entry.group(1)] = change.group(1) if change else None
    return entries


def change_of(diff: list[str]) -> str:
    """One line for a mutant's change: its added lines, or its removed ones if it only removes."""
    added = [line[1:].strip() for line in diff if line.startswith("+")]
    return " | ".join(added or [line.strip() for line in diff])


def record_changes(changes: dict[str, str]) -> None:
    """Write a ``Change:`` line into each entry of equivalent.md that has none."""
    text = EQUIVALENT.read_text(encoding="utf-8")

    def with_change(entry: re.Match[str]) -> str:
        block = entry.group(0)
        if CHANGE.search(block) or entry.group(1) not in changes:
            return block
        body = block.rstrip("\n")
        return f"{body}\n  Change: `{changes[entry.group(1)]}`\n" + block[len(body) + 1 :]

    EQUIVALENT.write_text(ENTRY.sub(with_change, text), encoding="utf-8")


def mutant_diffs(module_source: str, names: list[str]) -> dict[str, list[str]]:
    """The changed lines of each named mutant: its function in mutmut's copy against the original."""
    lines = module_source.splitlines()  # once: ast.get_source_segment splits the whole source per call
    functions = {
        node.name: "\n".join(lines[node.lineno - 1 : node.end_lineno])
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


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=95.0)
    parser.add_argument("--survivors", action="store_true", help="list every undetected mutant")
    parser.add_argument("--diff", action="store_true", help="with --survivors, show each one's changed lines")
    parser.add_argument("--record-changes", action="store_true", help="write the missing Change: lines")
    parser.add_argument("--sample", nargs=2, metavar=("FRACTION", "PREFIX"), help="print a sample's names instead")
    parser.add_argument("--seed", type=int, default=47, help="the sample's seed")
    return parser.parse_args()


def main() -> int:
    """Print one line per module and the survivors; return 1 if a module is under the target."""
    args = _arguments()
    if args.sample:
        print("\n".join(sample(float(args.sample[0]), args.sample[1], args.seed)))
        return 0
    entries = equivalent_entries()
    equivalent = set(entries)
    failing = False
    current: dict[str, str] = {}  # the change of each listed mutant whose module was mutated
    print(f"{'module':34} {'mutants':>7} {'equiv':>5} {'killed':>6} {'survived':>8} {'score':>7}")
    for meta in sorted(Path("mutants").glob("fly_rules/**/*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        module_name = str(meta.relative_to("mutants"))[: -len(".py.meta")].replace("/", ".")
        listed = [name for name in equivalent if _module_of(name) == module_name]
        source = meta.with_suffix("").read_text(encoding="utf-8") if listed else ""
        for name, diff in mutant_diffs(source, [name for name in listed if name in codes]).items():
            current[name] = change_of(diff)
        for name in listed:
            current.setdefault(name, "")  # "": no such mutant
        tried = {name: code for name, code in codes.items() if code is not None}
        if not tried:
            continue
        equiv = {name for name in tried if name in equivalent}
        detected = {name for name, code in tried.items() if code in DETECTED}
        survivors = sorted(set(tried) - detected - equiv)
        counted = len(tried) - len(equiv)
        score = 100.0 * len(detected - equiv) / counted if counted else 100.0
        module = str(meta.relative_to("mutants"))[: -len(".meta")]
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
    if args.record_changes:
        record_changes({name: change for name, change in current.items() if change})
        entries = equivalent_entries()
    stale = 0
    for name, change in sorted(current.items()):
        recorded = entries[name]
        if not change:
            print(f"stale entry in {EQUIVALENT}: {name} is not a mutant of its module")
        elif recorded is None:
            print(f"entry without its change in {EQUIVALENT}: {name} (--record-changes writes it)")
        elif recorded != change:
            print(f"stale entry in {EQUIVALENT}: {name} now changes `{change}`, the entry says `{recorded}`")
        else:
            continue
        stale += 1
    return 1 if failing or stale else 0


def sample(fraction: float, prefix: str, seed: int) -> list[str]:
    """A seeded random ``fraction`` of each module's mutants (at least one) among those named ``prefix``…."""
    names: list[str] = []
    for meta in sorted(Path("mutants").glob("fly_rules/**/*.py.meta")):
        module = sorted(
            n for n in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"] if n.startswith(prefix)
        )
        if module:
            # seeded per module, so that a module's sample is the same whatever else the prefix takes in
            rng = random.Random(f"{seed}:{meta.relative_to('mutants')}")
            names += sorted(rng.sample(module, max(1, round(fraction * len(module)))))
    return names


def _module_of(name: str) -> str:
    """``fly_rules.fly.play`` for ``fly_rules.fly.play.x_f__mutmut_3`` or ``...play.xǁCǁm__mutmut_3``."""
    return name.split(".xǁ", 1)[0] if ".xǁ" in name else name.rsplit(".", 1)[0]


if __name__ == "__main__":
    sys.exit(main())
