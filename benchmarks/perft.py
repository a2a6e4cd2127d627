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
for Dreyfus under each preset; then positions aimed at one rule or option family each (AIMED: the A♠
privilege, the lone player, the stock running out and refilled, flushes, Dreyfus's purchase and revokes),
each with the rules it covers and why, so that a count that differs there points at that rule.

    python benchmarks/perft.py --write --new-only --budget 10   # count only the positions not yet published
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

STAGE_COVERS = {
    ("fly", "start"): ["FLY-4.1", "FLY-4.2", "FLY-4.3", "FLY-4.5", "FLY-5.2", "FLY-5.4", "FLY-5.5"],
    ("fly", "play"): ["FLY-6.2", "FLY-6.3", "FLY-6.4", "FLY-6.5", "FLY-6.6", "FLY-6.7", "FLY-7.2"],
    ("dreyfus", "start"): ["DRF-4.1", "DRF-4.2", "DRF-4.3", "DRF-4.4"],
    ("dreyfus", "play"): ["DRF-6.1", "DRF-6.2", "DRF-6.3", "DRF-6.5", "DRF-6.7"],
}
"""The rules a seeded position's counts rest on, by game and stage."""

_P7 = "2C3C4C5C6C/2D3D4D5D6D/2H3H4H5H6H/2S3S4S5S6S/7C8C9CTCJC/7D8D9DTDJD/7H8H9HTHJH"
_STOCK7 = "KCACQDKDADQHKHAH7S8S9STSJSQSKSAS"
AIMED: list[dict[str, Any]] = [
    {
        "id": "fly-ace-of-spades",
        "game": "fly",
        "rules": {"players": 3},
        "position": "fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 - 0",
        "moves": ["stand", "stand", "stand"],
        "why": "The trump ace is in the leader's hand and the A♠ holder holds a trump: the privilege to play the A♠ "
        "to a led trump ace, optional, and its winning the trick branch the tree at the first trick.",
        "covers": ["FLY-7.1", "FLY-7.2", "FLY-7.3", "FLY-7.6", "FLY-8.3"],
    },
    {
        "id": "fly-ace-of-spades-top-trump",
        "game": "fly",
        "rules": {"players": 3, "ace_of_spades_mode": "top_trump"},
        "position": "fly ace_of_spades_mode=top_trump 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H "
        "TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 - 0",
        "moves": ["stand", "stand", "stand"],
        "why": "The same deal with the A♠ a top trump that may be played to any trick (FLY-7.1's option).",
        "covers": ["FLY-7.1", "FLY-7.4"],
    },
    {
        "id": "fly-lone-player",
        "game": "fly",
        "rules": {"players": 3},
        "position": "fly - 2 8H 7C8C9CTCAH/7D8D9DKHQS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSKSAS 25,25,25 - 0",
        "moves": [],
        "why": "Nobody holds the A♠: every fold is open, so the declarations end in void deals, lone players "
        "credited with five tricks (deal ends at depth 3) and deals played out.",
        "covers": ["FLY-5.1", "FLY-5.4", "FLY-5.5", "FLY-4.2"],
    },
    {
        "id": "fly-stock-runs-out",
        "game": "fly",
        "rules": {"players": 7},
        "position": f"fly - 6 QC {_P7} {_STOCK7} 25,25,25,25,25,25,25 - 0",
        "moves": ["exchange 2C 3C 4C 5C 6C", "exchange 2D 3D 4D 5D 6D", "exchange 2H 3H 4H 5H 6H"],
        "why": "Seven players, three exchanges of five: one card is left in the stock, so the players after may "
        "exchange one card at most, then none.",
        "covers": ["FLY-4.5", "FLY-4.3", "FLY-3.3"],
    },
    {
        "id": "fly-stock-refilled",
        "game": "fly",
        "rules": {"players": 7, "stock_exhaustion": "reshuffle_discards"},
        "position": f"fly stock_exhaustion=reshuffle_discards 6 QC {_P7} {_STOCK7} 25,25,25,25,25,25,25 - 0",
        "moves": ["exchange 2C 3C 4C 5C 6C", "exchange 2D 3D 4D 5D 6D", "exchange 2H 3H 4H 5H 6H"],
        "why": "The same with the discards refilling the stock: the players after may exchange up to five, the "
        "refill in canonical order (an explicit deal).",
        "covers": ["FLY-4.5", "REC-6.6"],
    },
    {
        "id": "fly-flush",
        "game": "fly",
        "rules": {"players": 3, "flush_wins": True},
        "position": "fly flush_wins=true 2 9D 7C8C9CTCJC/7H8HTHJHQH/7S8S9STSJS 7D8D 25,25,25 - 0",
        "moves": [],
        "why": "Three flushes, one in trumps: every line in which their holders play ends at the start of play, "
        "the trump flush winning.",
        "covers": ["FLY-12.1"],
    },
    {
        "id": "dreyfus-purchase",
        "game": "dreyfus",
        "rules": {},
        "position": "dreyfus - 0 S 3C4C7C9CAC4D7DKD6H7HAH7S/5C6C8CTCKC3D9DADQH5S6SJS/JCTDJDQD4H8HTHJH3S8S9SAS "
        "QC5DKH3HQSTS9H6D8D4SKS5H 0,0,0/0,0,0 - 1 0",
        "moves": [],
        "why": "Eldest holds eight фоски and the next player six: once eight are bought the next may buy at "
        "most four, and when the talon runs out the dealer's turn is skipped.",
        "covers": ["DRF-4.1", "DRF-4.2", "DRF-4.3", "DRF-4.4", "DRF-4.5"],
    },
]
"""Positions aimed at one rule or option family each."""


def positions() -> list[dict[str, Any]]:
    """The published positions: each setup's seeded deal, as dealt and once every player stood, then AIMED."""
    found = []
    for name, game, spec in SETUPS:
        rules: Any = rules_of(game, spec)
        package: Any = fly if game == "fly" else dreyfus
        dealt = package.new_match(rules, seed=1, dealer=0).deal
        position = position_of(dealt, moves=())
        stands = ["stand"] * rules.players
        for stage, moves in (("start", []), ("play", stands)):
            entry = {"id": f"{name}-{stage}", "game": game, "rules": spec, "position": position, "moves": moves}
            covers = STAGE_COVERS[game, stage] + (["DRF-10.1"] if spec.get("preset") == "table" else [])
            when = "as dealt" if stage == "start" else "once every player stood"
            entry |= {"why": f"The seeded deal of {name} {when}.", "covers": covers}
            found.append(entry)
    return found + AIMED


def count(entry: dict[str, Any], depth: int) -> tuple[dict[str, int], float]:
    """The perft counts of ``entry`` at ``depth`` and the seconds they took."""
    state = replay(
        {"game": entry["game"], "rules": entry["rules"], "position": entry["position"], "moves": entry["moves"]}
    )
    assert not isinstance(state, dict), state
    started = time.perf_counter()
    counts = perft(state[0], depth)
    return counts, time.perf_counter() - started


def write(budget: float, published: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every position's counts, each depth while the next is expected to take under ``budget`` seconds; with
    ``published``, the depths of a position already there are kept, not counted again."""
    kept = {entry["id"]: entry["depths"] for entry in published or ()}
    table = []
    for entry in positions():
        if entry["id"] in kept:
            table.append({**entry, "depths": kept[entry["id"]]})
            continue
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
        lines += ["", f"{entry['why']} Covers {', '.join(entry['covers'])}."]
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
    parser.add_argument("--new-only", action="store_true", help="with --write, keep the published positions' depths")
    args = parser.parse_args(argv)
    path = kit_dir() / PERFT
    if args.write:
        published = json.loads(path.read_text(encoding="utf-8"))["positions"] if args.new_only else None
        table = write(args.budget, published)
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
