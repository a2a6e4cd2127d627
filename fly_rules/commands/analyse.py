"""``fly-rules analyse``: a saved game gone through decision by decision (:mod:`fly_rules.analysis`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.analysis import Analysis, Review, analyse_history
from fly_rules.commands.common import CommandError, seat_of, seconds_argument, whole_number_argument
from fly_rules.commands.files import read
from fly_rules.narration import action_shown
from fly_rules.notation.games import action_text
from fly_rules.notation.history import load_history

__all__ = ["add", "run"]


def add(sub: Any) -> None:
    """Add ``analyse`` to the ``fly-rules`` parser's subparsers ``sub``."""
    analyse = sub.add_parser(
        "analyse",
        help="go through a saved game: each decision beside the best, with every card open and as the expert sees it",
    )
    analyse.add_argument("file", type=Path, help="the history file (TOML), as play --save writes it")
    analyse.add_argument("--seat", default=None, help="only this seat's decisions (default: every seat's)")
    analyse.add_argument("--no-expert", action="store_true", help="only the open analysis (faster)")
    analyse.add_argument(
        "--samples", type=whole_number_argument, default=None, help="the expert's guesses per decision (at least 1)"
    )
    analyse.add_argument(
        "--max-seconds",
        type=seconds_argument,
        default=None,
        help="stop after this many seconds with the decisions finished (default: no bound)",
    )
    analyse.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyse.set_defaults(run=run)


def _cell(action: Any) -> str:
    return "-" if action is None else action_shown(action)


def _line(review: Review) -> str:
    played = review.open_values[review.played]
    best = review.open_values[review.open_best]
    expert = "" if review.expert_best is None else f"; expert: {_cell(review.expert_best)}"
    cost = f"  costs {review.cost}" if review.cost else ""
    return (
        f"   {review.step + 1:>3}. seat {review.seat} {_cell(review.played):<12} ({played:+d})"
        f"   best open: {_cell(review.open_best)} ({best:+d}){expert}{cost}"
    )


def _data(analysis: Analysis) -> dict[str, Any]:
    def values(found: dict[Any, float]) -> dict[str, float]:
        return {action_text(action): value for action, value in found.items()}

    return {
        "decisions": [
            {
                "deal": r.deal_number + 1,
                "step": r.step + 1,
                "seat": r.seat,
                "phase": r.phase.value,
                "played": action_text(r.played),
                "open_best": action_text(r.open_best),
                "open_values": values(dict(r.open_values)),
                "expert_best": None if r.expert_best is None else action_text(r.expert_best),
                "expert_values": values(r.expert_values),
                "cost": r.cost,
            }
            for r in analysis.reviews
        ],
        "loss": {str(seat): analysis.loss(seat) for seat in analysis.seats},
        "stopped": analysis.stopped,
    }


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Analyse the history in ``args.file`` and print each decision, then each seat's loss."""
    text = read(args.file, regular_only=True, done="read")
    final = load_history(text)
    title = registry.game_of(final).title
    seat = None if args.seat is None else seat_of(args.seat, final.rules.players)
    if args.samples is not None and args.samples < 1:
        raise CommandError(f"--samples must be at least 1 (the expert's guesses per decision), not {args.samples}")

    def progress(count: int) -> None:
        print(f"\r  {count} decisions analysed", end="", file=sys.stderr, flush=True)

    analysis = analyse_history(
        text,
        seat=seat,
        expert=not args.no_expert,
        samples=args.samples,
        progress=progress,
        max_seconds=args.max_seconds,
    )
    print(file=sys.stderr)
    if analysis.stopped:
        done = len(analysis.reviews)
        print(f"fly-rules: stopped at --max-seconds {args.max_seconds:g} after {done} decisions", file=sys.stderr)
    if args.json:
        print(json.dumps(_data(analysis), indent=2, ensure_ascii=False), file=out)
        return 0
    stopped = " (stopped at --max-seconds)" if analysis.stopped else ""
    print(f"{title} history {args.file}: {len(analysis.reviews)} decisions analysed{stopped}", file=out)
    print("   (in brackets: the seat's gain in the game's score to the end of the deal, every card open)", file=out)
    number = None
    for review in analysis.reviews:
        if review.deal_number != number:
            number = review.deal_number
            print(f"== Deal {number + 1}", file=out)
        print(_line(review), file=out)
    for each in analysis.seats:
        print(f"seat {each} gave away {analysis.loss(each)} in all against the best open play", file=out)
    return 0
