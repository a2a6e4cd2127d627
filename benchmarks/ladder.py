"""The ladder: every bot against the others on paired deals with rotated seats, rated with openskill.

Usage: python benchmarks/ladder.py [--game fly|dreyfus] [--players N] [--deals 200] [--bots random,...]
       [--workers 2] [--seed ladder] [--out docs/_static/ladder]

Each deal is dealt once and played once for every rotation of the bots round the table (with four bots at
four seats: four times, each bot in each seat, on the same cards). Every play is one game for the rating: the
bots are ranked by their seat's score change over the deal (equal changes share a rank) and rated by openskill's
Plackett-Luce model, a maintained Bayesian rating of many-player games (the family of TrueSkill); a bot's
rating is its ``ordinal``, mu - 3 sigma, the value it is 99.7% sure to exceed. Beside it the table gives each
bot's mean score change a deal with its 95% interval. Where a table has fewer seats than there are bots (Dreyfus:
three), each deal seats a different choice of them, in turn.

It writes ``OUT.md`` (the table, which the docs include), ``OUT.json`` and ``OUT.png`` (the ratings with
their uncertainty, drawn with matplotlib). It needs the ``bench`` extra (openskill, matplotlib) and, for
OpenSpiel's information-set MCTS (``ismcts`` in ``--bots``), the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _command import command_line

from fly_rules import registry
from fly_rules.bots import BOTS
from fly_rules.bots.paired import mean_interval, play_table

try:  # OpenSpiel's information-set MCTS, where the openspiel extra is installed
    from ismcts_bot import IsmctsBot

    BOTS.setdefault("ismcts", IsmctsBot)
except ImportError:  # pragma: no cover - only without the extra
    pass

DEFAULT_BOTS = "random,rule-of-thumb,monte-carlo,expert,learned" + (",ismcts" if "ismcts" in BOTS else "")


def lineups(bots: list[str], seats: int, index: int) -> list[tuple[str, ...]]:
    """The lineups of deal ``index``: a choice of ``seats`` bots (in turn, when there are more bots than seats)
    and each of its rotations round the table."""
    choices = list(itertools.combinations(bots, seats)) if len(bots) > seats else [tuple(bots)]
    chosen = choices[index % len(choices)]
    return [chosen[k:] + chosen[:k] for k in range(seats)]


def play_deals(rules: Any, bots: list[str], seed: str, indices: range) -> list[dict[str, Any]]:
    """Every lineup of each deal of ``indices`` (one worker's share): the score change of each bot."""
    out = []
    for index in indices:
        for lineup in lineups(bots, rules.players, index):
            changes = play_table(rules, lineup, seed, index)[0]
            out.append({"deal": index, "lineup": list(lineup), "changes": changes})
    return out


def rate(bots: list[str], games: list[dict[str, Any]]) -> dict[str, Any]:
    """Each bot's openskill rating after every game, in order."""
    from openskill.models import PlackettLuce  # noqa: PLC0415 - the bench extra, only here

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in bots}
    for game in games:
        seated = game["lineup"]
        scores = [float(change) for change in game["changes"]]
        teams = [[ratings[name]] for name in seated]
        updated = model.rate(teams, scores=scores)
        for name, [rating] in zip(seated, updated, strict=True):
            ratings[name] = rating
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for name, r in ratings.items()}


def summary(bots: list[str], games: list[dict[str, Any]]) -> dict[str, Any]:
    """The ratings and each bot's mean score change a deal with its 95% interval."""
    ratings = rate(bots, games)
    rows = []
    for name in bots:
        changes = [c for g in games for bot, c in zip(g["lineup"], g["changes"], strict=True) if bot == name]
        mean, low, high = mean_interval(changes)
        rows.append({"bot": name, **ratings[name], "plays": len(changes), "mean": mean, "ci95": [low, high]})
    rows.sort(key=lambda row: -row["ordinal"])
    return {"rows": rows}


def write(out: Path, title: str, report: dict[str, Any]) -> None:
    """``OUT.md``, ``OUT.json`` and ``OUT.png``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "| bot | rating (mu - 3 sigma) | mu | sigma | score change a deal | 95% interval | plays |",
        "| --- | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for row in report["rows"]:
        low, high = row["ci95"]
        lines.append(
            f"| {row['bot']} | {row['ordinal']:.1f} | {row['mu']:.1f} | {row['sigma']:.2f} | {row['mean']:+.2f} "
            f"| [{low:+.2f}, {high:+.2f}] | {row['plays']:,} |"
        )
    command = command_line("ladder.py", list(report["argv"]))
    plays = sum(row["plays"] for row in report["rows"]) // report["players"]
    lines += [
        "",
        f"`{command}`: {report['deals']} deals of {report['players']}-player {report['game'].title()}, "
        f"each played once for every rotation of its seats ({plays:,} plays).",
    ]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    import matplotlib  # noqa: PLC0415 - the bench extra, only here

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    rows = report["rows"][::-1]
    figure, axes = plt.subplots(figsize=(6.4, 0.6 + 0.55 * len(rows)))
    axes.errorbar(
        [row["mu"] for row in rows],
        range(len(rows)),
        xerr=[3 * row["sigma"] for row in rows],
        fmt="o",
        capsize=4,
        color="#2f6f4f",
    )
    axes.set_yticks(range(len(rows)), [row["bot"] for row in rows])
    axes.set_xlabel("openskill rating: mu, with 3 sigma either side")
    axes.set_title(title, fontsize=10)
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(out.with_suffix(".png"), dpi=120)
    plt.close(figure)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play the ladder, rate it, write the files and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fly")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bots", default=DEFAULT_BOTS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--out", type=Path, default=None, help="default: docs/_static/ladder-GAME")
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    rules = game.make_rules("default", args.players, {})
    bots = [name for name in args.bots.split(",") if name]
    started = time.time()
    size = max(1, -(-args.deals // (args.workers * 8)))
    pieces = [range(i, min(args.deals, i + size)) for i in range(0, args.deals, size)]
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(play_deals, *zip(*[(rules, bots, args.seed, p) for p in pieces], strict=True)):
            games.extend(part)
            print(f"\r  {len(games)} plays", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    report = {
        "argv": argv if argv is not None else sys.argv[1:],
        "game": args.game,
        "players": rules.players,
        "deals": args.deals,
        "seed": args.seed,
        **summary(bots, games),
        "wall_seconds": time.time() - started,
    }
    title = f"{game.title}, {rules.players} players: {args.deals} deals, every rotation of the seats"
    out = args.out or Path("docs/_static") / f"ladder-{args.game}"
    write(out, title, report)
    print(out.with_suffix(".md").read_text(), end="")
    print(f"({report['wall_seconds']:.0f} s wall, {args.workers} workers; written to {out}.md/.json/.png)")
    return report


if __name__ == "__main__":
    main()
