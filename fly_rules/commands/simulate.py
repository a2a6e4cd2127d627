"""``fly-rules simulate``: many matches between bots, and a table of their results."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from fly_rules.bots import Tally
from fly_rules.commands import jobs as pool
from fly_rules.commands.common import (
    CommandError,
    bot_names,
    bots_help,
    game_options,
    players_of,
    rules_of,
    seed_of,
    whole_number_argument,
)
from fly_rules.notation.games import new_game

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate`` to the ``fly-rules`` parser's subparsers ``sub``."""
    sim = sub.add_parser("simulate", help="play many matches between bots and tabulate the results")
    game_options(sim)
    sim.add_argument(
        "--bots", default="rule-of-thumb,random", help=bots_help("bots by seat (default rule-of-thumb,random)")
    )
    sim.add_argument("-n", "--matches", type=whole_number_argument, default=100, help="number of matches (default 100)")
    sim.add_argument(
        "--workers",
        type=whole_number_argument,
        default=1,
        help="processes to use (default 1); results do not change",
    )
    sim.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine's processes (--workers); ray: Ray tasks on the cluster ray.init() reaches "
        "(extra 'ray'; set RAY_ADDRESS to join one); results do not change",
    )
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    sim.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the matches and print their statistics (a table, or JSON)."""
    rules = rules_of(args)
    players = players_of(rules)
    names = bot_names(args.bots, players)
    if args.matches < 1 or args.workers < 1:
        raise CommandError("--matches and --workers must be at least 1")
    seed = seed_of(args.seed)
    max_deals = None  # already in the rules
    tally = Tally(players, tuple(names))
    jobs = ((rules, names, seed, piece, max_deals) for piece in pool.pieces(args.matches, args.workers))
    new_game(rules, seed=seed)  # bad settings refused here, before a progress bar is drawn
    progress = None if args.no_progress or args.json else _progress(args.matches)

    def take(results: list[Any]) -> None:  # the results are tallied as they come, and not kept
        for result in results:
            tally.add(result)

    try:
        pool.run_jobs(args.backend, args.workers, jobs, take, progress.advance if progress else None)
    finally:
        if progress:
            progress.stop()
    summary = tally.summary()
    summary["game"] = args.game
    summary["seed"] = seed
    if args.json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        _print_table(summary, out)
    return 0


class _Progress:
    """A rich progress bar on standard error."""

    def __init__(self, total: int) -> None:
        from rich.progress import Progress  # noqa: PLC0415 - the cli extra, only when drawing

        self.bar = Progress(transient=True, console=_console(sys.stderr))
        self.task = self.bar.add_task("matches", total=total)
        self.bar.start()

    def advance(self, count: int) -> None:
        self.bar.advance(self.task, count)

    def stop(self) -> None:
        self.bar.stop()


def _progress(total: int) -> _Progress:
    return _Progress(total)


def _console(stream: TextIO) -> Any:
    from rich.console import Console  # noqa: PLC0415 - the cli extra, only when printing

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich exits with 1 when the reader (say `head`) stops; let main() end quietly with 0 instead
            raise BrokenPipeError

    return _Console(file=stream, width=100, highlight=False)


def _pct(rate: float, ci: Sequence[float]) -> str:
    return f"{100 * rate:5.1f}%  [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _print_table(summary: dict[str, Any], out: TextIO) -> None:
    from rich.table import Table  # noqa: PLC0415 - the cli extra, only when printing

    console = _console(out)
    head = f"{summary['game']}: {summary['matches']} matches, seed {summary['seed']}, bots {', '.join(summary['bots'])}"
    console.print(head)
    bots = Table("bot", "seats held", "wins", "win rate [95% CI]", title="per bot")
    for row in summary["per_bot"]:
        bots.add_row(row["bot"], str(row["seats_held"]), str(row["wins"]), _pct(row["rate"], row["ci95"]))
    console.print(bots)
    seats = Table("seat", "wins", "win rate [95% CI]", title="per seat")
    for row in summary["seats"]:
        seats.add_row(str(row["seat"]), str(row["wins"]), _pct(row["rate"], row["ci95"]))
    console.print(seats)
    console.print(
        f"deals per match: {summary['deals_per_match']:.2f}; matches without a winner: {summary['no_winner']}"
    )
    ace = summary["ace_of_spades_holder_takes_a_trick"]
    if ace is not None:
        console.print(f"the A♠ holder takes a trick in {100 * ace:.1f}% of the deals he plays")
