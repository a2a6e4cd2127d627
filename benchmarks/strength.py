"""How strong a bot is: paired deals with rotated seats, and whole matches, with 95% intervals.

Usage: python benchmarks/strength.py [--game fly|dreyfus] [--players N] [--bot expert]
       [--against rule-of-thumb,monte-carlo] [--others rule-of-thumb] [--deals 1000] [--matches 200]
       [--workers 2] [--seed strength] [--json FILE] [--pieces DIR]

Each of ``--deals`` deals is played once with ``--bot`` and once with each bot of ``--against`` in the same seat
(every seat, at every place from the dealer, in turn), the other seats played by ``--others``
(fly_rules.bots.paired); the table gives the mean gain a deal of ``--bot`` over each, in the game's score (Fly:
record points; Dreyfus: lower minus upper record), with its 95% interval, and the CPU seconds of ``--bot``'s
decisions (median and 95th percentile, decisions with a choice only). ``--matches`` whole matches are then played
with ``--bot`` against copies of ``--others``, the seats rotating, and its win rate given with its Wilson interval
beside the equal share.

A long run (Dreyfus's takes about two hours on two cores) can keep its work: with ``--pieces DIR`` each piece
of deals is written to ``DIR`` as soon as a worker finishes it, and a run given the same arguments takes the
pieces already there instead of playing them again, so a run cut short goes on where it stopped. A piece is
named by the game, players, seed and bots, not by the code that played it: empty ``DIR`` when a bot changes."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from _command import command_line

from fly_rules import registry
from fly_rules.bots import Tally, run_matches
from fly_rules.bots.paired import PairedDeal, mean_interval, paired_deals


def _pieces(count: int, workers: int, most: int | None = None) -> list[range]:
    size = max(1, -(-count // (workers * 8)))
    if most is not None:
        size = min(size, most)
    return [range(i, min(count, i + size)) for i in range(0, count, size)]


def _piece_file(folder: Path, key: str, piece: range) -> Path:
    return folder / f"{key}-{piece.start}-{piece.stop}.json"


def _kept_piece(path: Path) -> list[PairedDeal] | None:
    """The paired deals a finished piece wrote, or None if it is not there (or was cut off mid-write)."""
    try:
        rows = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return [PairedDeal(row["index"], row["seat"], row["changes"], row["seconds"]) for row in rows]


def _played_piece(
    rules: Any, bots: list[str], others: str, seed: str, piece: range, path: Path | None
) -> list[PairedDeal]:
    """:func:`paired_deals` of one piece, written to ``path`` (through a temporary file) if given."""
    deals = paired_deals(rules, bots, others, seed, piece)
    if path is not None:
        rows = [{"index": d.index, "seat": d.seat, "changes": d.changes, "seconds": d.seconds} for d in deals]
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(rows))
        partial.replace(path)
    return deals


def _matches(args: argparse.Namespace, rules: Any) -> dict[str, Any]:
    """Whole matches of ``args.bot`` against copies of ``args.others``, the seats rotating: its win rate."""
    names = [args.bot] + [args.others] * (rules.players - 1)
    tally = Tally(rules.players, tuple(names))
    with ProcessPoolExecutor(args.workers) as pool:
        pieces = _pieces(args.matches, args.workers)
        jobs = [(rules, names, f"{args.seed}:matches", piece, args.max_deals) for piece in pieces]
        for part in pool.map(run_matches, *zip(*jobs, strict=True)):
            for result in part:
                tally.add(result)
    row = tally.summary()["per_bot"][0]
    low, high = row["ci95"]
    print(
        f"whole matches against {rules.players - 1} {args.others}: {args.bot} wins {100 * row['rate']:.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}] of {args.matches} (equal share {100 / rules.players:.1f}%)"
    )
    return {"matches": args.matches, "rate": row["rate"], "ci95": [low, high], "no_winner": tally.no_winner}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fly")
    parser.add_argument("--players", type=int, default=None, help="default: 4 for Fly")
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--against", default="rule-of-thumb,monte-carlo")
    parser.add_argument("--others", default="rule-of-thumb")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=0)
    parser.add_argument("--max-deals", type=int, default=200, help="a match's deal limit (default 200)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument("--md", type=Path, default=None, help="also write the table as Markdown (for the docs)")
    parser.add_argument(
        "--pieces", type=Path, default=None, help="keep each finished piece of deals here, and take those already there"
    )
    return parser


def _paired_results(args: argparse.Namespace, rules: Any, bots: list[str]) -> list[PairedDeal]:
    """The paired deals of the run, in order: played by ``args.workers`` processes, or taken from ``args.pieces``."""
    results: list[PairedDeal] = []
    pieces = _pieces(args.deals, args.workers, 25 if args.pieces else None)
    key = f"{args.game}-{rules.players}-{args.seed}-{'+'.join(bots)}-{args.others}"
    if args.pieces:
        args.pieces.mkdir(parents=True, exist_ok=True)
    paths = [_piece_file(args.pieces, key, piece) if args.pieces else None for piece in pieces]
    kept = [_kept_piece(path) if path else None for path in paths]
    for part in kept:
        results.extend(part or [])
    with ProcessPoolExecutor(args.workers) as pool:
        jobs = [
            pool.submit(_played_piece, rules, bots, args.others, args.seed, piece, path)
            for piece, path, part in zip(pieces, paths, kept, strict=True)
            if part is None
        ]
        if len(jobs) < len(pieces):
            print(f"  {len(pieces) - len(jobs)} pieces taken from {args.pieces}", file=sys.stderr)
        for done, job in enumerate(as_completed(jobs), 1):
            results.extend(job.result())
            print(f"\r  deals {len(results)}/{args.deals} ({done}/{len(jobs)} pieces)", end="", file=sys.stderr)
    print(file=sys.stderr)
    results.sort(key=lambda deal: deal.index)
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the measurement and print its table; returns it as data."""
    args = _parser().parse_args(argv)
    game = registry.get(args.game)
    rules = game.make_rules("default", args.players, {})
    baselines = [name for name in args.against.split(",") if name]
    bots = [args.bot, *baselines]
    started = time.time()
    results = _paired_results(args, rules, bots)
    seconds = [s for r in results for s in r.seconds[args.bot]]
    report: dict[str, Any] = {
        "game": args.game,
        "players": rules.players,
        "bot": args.bot,
        "others": args.others,
        "deals": len(results),
        "seed": args.seed,
        "gains": {},
        "decision_cpu_seconds": {
            "decisions": len(seconds),
            "median": statistics.median(seconds) if seconds else None,
            "p95": statistics.quantiles(seconds, n=20)[-1] if len(seconds) > 1 else None,
        },
    }
    print(f"{game.title}, {rules.players} players: {args.bot} in one seat (rotating), {args.others} in the others;")
    print(f"{len(results)} deals (seed {args.seed!r}), each played once per bot in that seat")
    print(f"{'against':<16} {'gain a deal':>12} {'95% interval':>18}")
    for baseline in baselines:
        mean, low, high = mean_interval([r.changes[args.bot] - r.changes[baseline] for r in results])
        report["gains"][baseline] = {"mean": mean, "ci95": [low, high]}
        print(f"{baseline:<16} {mean:>+12.2f} {f'[{low:+.2f}, {high:+.2f}]':>18}")
    own = statistics.fmean(r.changes[args.bot] for r in results)
    print(f"{args.bot}'s own score change a deal: {own:+.2f}")
    cpu = report["decision_cpu_seconds"]
    if seconds:
        median, p95 = 1000 * cpu["median"], 1000 * cpu["p95"]
        print(f"{args.bot}'s CPU a decision with a choice: median {median:.0f} ms, 95th percentile {p95:.0f} ms")
        print(f"({len(seconds):,} decisions with a choice)")
    if args.matches:
        report["matches"] = _matches(args, rules)
    report["wall_seconds"] = time.time() - started
    print(f"({report['wall_seconds']:.0f} s wall, {args.workers} workers)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.md:
        args.md.write_text(markdown(report, argv))
    return report


def markdown(report: dict[str, Any], argv: list[str] | None) -> str:
    """The table for the docs, with the command that made it."""
    lines = [f"| {report['bot']} against | gain a deal | 95% interval |", "| --- | ---: | --- |"]
    for baseline, gain in report["gains"].items():
        low, high = gain["ci95"]
        lines.append(f"| {baseline} | {gain['mean']:+.2f} | [{low:+.2f}, {high:+.2f}] |")
    cpu = report["decision_cpu_seconds"]
    command = command_line("strength.py", argv)
    lines += [
        "",
        f"`{command}`: {report['deals']:,} paired deals of {report['players']}-player {report['game'].title()}, "
        f"{report['others']} in the other seats; the expert's CPU a decision with a choice: median "
        f"{1000 * cpu['median']:.0f} ms, 95th percentile {1000 * cpu['p95']:.0f} ms.",
    ]
    if "matches" in report:
        match = report["matches"]
        low, high = match["ci95"]
        lines.append(
            f"Whole matches: {100 * match['rate']:.1f}% won [{100 * low:.1f}, {100 * high:.1f}] of "
            f"{match['matches']} (an equal share is {100 / report['players']:.0f}%)."
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
