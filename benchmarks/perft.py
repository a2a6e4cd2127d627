"""Perft of Fly and Dreyfus: count the legal action sequences from fixed positions, check the counts
published in ``specs/conformance/perft.json``, and report nodes per second.

Usage:
    python benchmarks/perft.py                  # check every published depth, print nodes/s
    python benchmarks/perft.py --max-nodes 20000 --only fly-3-start
    python benchmarks/perft.py --write --budget 60   # recompute the table: each position as deep as
                                                     # the next depth is expected to finish in 60 s

As in chess, perft(d) is the number of distinct legal action sequences of length d from the position,
a sequence that ends the deal early not continued; the counts are split by the kind of the last action
(plays; declarations: stand, fold, exchange, swap-trump) and how many of the sequences end the deal.
The positions are each game's and player count's seeded deal (seed 1, dealer 0) as dealt ("start")
and after every player stood ("play"), for Fly with 3 to 7 players and the mouche_1718 preset, and
for Dreyfus under each preset.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fly_rules import dreyfus, fly  # noqa: E402
from fly_rules.conformance.answers import replay, rules_of  # noqa: E402
from fly_rules.conformance.perft import perft  # noqa: E402
from fly_rules.conformance.vectors import PERFT, kit_dir  # noqa: E402
from fly_rules.notation import position_of  # noqa: E402

SETUPS: list[tuple[str, str, dict[str, Any]]] = [
    *((f"fly-{n}", "fly", {"players": n}) for n in range(3, 8)),
    ("fly-4-mouche_1718", "fly", {"players": 4, "preset": "mouche_1718"}),
    ("fly-6-mouche_1718", "fly", {"players": 6, "preset": "mouche_1718"}),
    ("dreyfus", "dreyfus", {}),
    *((f"dreyfus-{p}", "dreyfus", {"preset": p}) for p in ("shram", "whist_honours", "table")),
]
"""Each published position's name, game and rules (the positions are dealt from them)."""


def positions() -> list[dict[str, Any]]:
    """The published positions: each setup's seeded deal, as dealt and once every player stood."""
    found = []
    for name, game, spec in SETUPS:
        rules: Any = rules_of(game, spec)
        package: Any = fly if game == "fly" else dreyfus
        dealt = package.new_match(rules, seed=1, dealer=0).deal
        position = position_of(dealt, moves=())
        stands = ["stand"] * rules.players
        for stage, moves in (("start", []), ("play", stands)):
            found.append({"id": f"{name}-{stage}", "game": game, "rules": spec, "position": position, "moves": moves})
    return found


def count(entry: dict[str, Any], depth: int) -> tuple[dict[str, int], float]:
    """The perft counts of ``entry`` at ``depth`` and the seconds they took."""
    state = replay(
        {"game": entry["game"], "rules": entry["rules"], "position": entry["position"], "moves": entry["moves"]}
    )
    assert not isinstance(state, dict), state
    started = time.perf_counter()
    counts = perft(state[0], depth)
    return counts, time.perf_counter() - started


def write(budget: float) -> list[dict[str, Any]]:
    """Every position's counts, each depth while the next is expected to take under ``budget`` seconds."""
    table = []
    for entry in positions():
        depths: list[dict[str, int]] = []
        depth, last, seconds = 1, 1, 0.0
        while True:
            counts, seconds = count(entry, depth)
            if counts["nodes"] == 0:  # past the end of every line of play
                break
            depths.append({"depth": depth, **counts})
            print(f"{entry['id']:28} depth {depth:2} {counts['nodes']:>12,} nodes {seconds:8.2f} s", flush=True)
            growth = counts["nodes"] / max(last, 1)
            if seconds * max(growth, 1.0) > budget:
                break
            depth, last = depth + 1, counts["nodes"]
        table.append({**entry, "depths": depths})
    return table


DOCS = ROOT / "docs" / "reference" / "conformance.md"
BEGIN, END = "<!-- perft table: benchmarks/perft.py --write -->", "<!-- end of the perft table -->"


def markdown(table: list[dict[str, Any]]) -> str:
    """The perft tables as the documentation shows them: one table a position, one row a depth."""
    lines = [BEGIN, ""]
    for entry in table:
        rules = ", ".join(f"{k}={v}" for k, v in entry["rules"].items()) or "default"
        lines += [f"### `{entry['id']}`", "", f"{entry['game']} ({rules}): `{entry['position']}`"]
        if entry["moves"]:
            lines[-1] += f", after {', '.join(entry['moves'])}"
        lines += ["", "| depth | nodes | plays | declarations | deal ends |", "| ---: | ---: | ---: | ---: | ---: |"]
        lines += [
            f"| {r['depth']} | {r['nodes']:,} | {r['plays']:,} | {r['declarations']:,} | {r['deal_ends']:,} |"
            for r in entry["depths"]
        ]
        lines.append("")
    return "\n".join([*lines, END])


def write_docs(table: list[dict[str, Any]]) -> None:
    """Replace the perft tables in the documentation's kit reference."""
    text = DOCS.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    DOCS.write_text(text[:start] + markdown(table) + text[end:], encoding="utf-8")


def check(table: list[dict[str, Any]], max_nodes: int | None, only: str | None) -> int:
    """Recount every published depth (up to ``max_nodes`` nodes); print each with its speed; 1 on a mismatch."""
    failed = 0
    total_nodes, total_seconds = 0, 0.0
    for entry in table:
        if only and entry["id"] != only:
            continue
        for row in entry["depths"]:
            if max_nodes is not None and row["nodes"] > max_nodes:
                continue
            counts, seconds = count(entry, row["depth"])
            expected = {k: v for k, v in row.items() if k != "depth"}
            status = "ok" if counts == expected else f"MISMATCH, expected {expected}"
            failed += counts != expected
            visited = _visited(entry, row["depth"], table)
            total_nodes += visited
            total_seconds += seconds
            rate = visited / seconds if seconds else 0.0
            print(
                f"{entry['id']:28} depth {row['depth']:2} {counts['nodes']:>12,} nodes {seconds:8.2f} s "
                f"{rate:>10,.0f} nodes/s  {status}",
                flush=True,
            )
    if total_seconds:
        print(
            f"in all: {total_nodes:,} nodes (every depth's tree) in {total_seconds:.1f} s, "
            f"{total_nodes / total_seconds:,.0f} nodes/s"
        )
    return 1 if failed else 0


def _visited(entry: dict[str, Any], depth: int, table: list[dict[str, Any]]) -> int:
    """The nodes a perft to ``depth`` applies: the sum of the counts of every depth up to it."""
    rows = {row["depth"]: row["nodes"] for row in entry["depths"]}
    return sum(rows[d] for d in range(1, depth + 1))


def main(argv: list[str] | None = None) -> int:
    """Check (or with --write recompute) the perft table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="recompute the counts and write perft.json")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds the deepest depth may take (--write)")
    parser.add_argument("--max-nodes", type=int, default=None, help="check only depths with at most this many nodes")
    parser.add_argument("--only", default=None, help="check only the position with this id")
    parser.add_argument("--docs", action="store_true", help="only rewrite the documentation's tables from perft.json")
    args = parser.parse_args(argv)
    path = kit_dir() / PERFT
    if args.write:
        table = write(args.budget)
        document = {
            "about": "Perft of Fly and Dreyfus: distinct legal action sequences from each position, by depth "
            "(benchmarks/perft.py; specs/conformance/README.md).",
            "positions": table,
        }
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        write_docs(table)
        return 0
    table = json.loads(path.read_text(encoding="utf-8"))["positions"]
    if args.docs:
        write_docs(table)
        return 0
    return check(table, args.max_nodes, args.only)


if __name__ == "__main__":
    sys.exit(main())
