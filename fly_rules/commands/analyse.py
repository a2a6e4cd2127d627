"""``fly-rules analyse``: a saved game gone through decision by decision (:mod:`fly_rules.analysis`)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.analysis import Analysis, Review, Unreached, analyse_history, estimate_text, verdict
from fly_rules.commands.common import CommandError, seat_of, seconds_argument, whole_number_argument
from fly_rules.commands.files import read
from fly_rules.narration import action_shown
from fly_rules.notation.games import action_text
from fly_rules.notation.history import load_history
from fly_rules.registry import wrapped_lines

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``analyse`` to the ``fly-rules`` parser's subparsers ``sub``."""
    analyse = sub.add_parser(
        "analyse",
        help="go through a saved game: each decision beside the hint's best on the seat's view, and every card open",
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
        help="stop after this many seconds with the decisions finished, the cheapest graded first, and name those"
        " not reached (default: no bound)",
    )
    analyse.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyse.set_defaults(run=run)


def _cell(action: Any) -> str:
    return "-" if action is None else action_shown(action)


_INDENT = " " * 7


def _wrapped(line: str) -> list[str]:
    """``line`` in lines of at most 80 columns, the later ones under the decision's text."""
    return wrapped_lines(line, "", _INDENT + "  ") or [line]


def _lines(review: Review) -> list[str]:
    """A decision in three lines: where it was made and what was played, then the two columns, each its best
    action and the values of the best and the action played: the seat's view (the expert, the hint's choice, with
    its 95% intervals) and the open cards (hindsight)."""
    head = verdict(review).partition(";")[0].removesuffix(", the hint's choice")
    lines = _wrapped(f"  {review.step + 1:>3}. seat {review.seat}, {head}")
    if review.expert_best is not None:
        values, intervals, unit = review.expert_values, review.expert_intervals, review.expert_unit

        def shown(action: Any) -> str:
            if action not in values:
                return "not weighed"
            return estimate_text(values[action], intervals.get(action), unit)

        lead = review.expert_cost
        gave = "" if not lead else f"; gives {lead * 100:.0f}%" if unit == "match" else f"; gives {lead:.1f}"
        played = "" if review.played == review.expert_best else f", played {shown(review.played)}"
        best = f"{_cell(review.expert_best)} {shown(review.expert_best)}"
        if not values:
            best, played, gave = f"{_cell(review.expert_best)} (no guess solved within the expert's budget)", "", ""
        lines += _wrapped(f"{_INDENT}seat's view: {best}{played}{gave}")
    if review.open_values:
        values_open, open_best = review.open_values, review.open_best
        played = "" if review.played == open_best else f", played {values_open[review.played]:+d}"
        cost = f"; cost {review.cost}" if review.cost else ""
        lines += _wrapped(f"{_INDENT}open cards:  {_cell(open_best)} {values_open[open_best]:+d}{played}{cost}")
    else:
        lines.append(f"{_INDENT}open cards:  not solved")
    return lines


def _not_reached(found: Unreached) -> list[str]:
    """A decision the bound left ungraded, in its place: where it was made and what was played."""
    where = "the exchange" if found.trick is None else f"trick {found.trick}"
    return _wrapped(f"  {found.step + 1:>3}. seat {found.seat}, {where}: {action_shown(found.played)} (not reached)")


def _data(analysis: Analysis) -> dict[str, Any]:
    def values(found: dict[Any, float]) -> dict[str, float]:
        return {action_text(action): value for action, value in found.items()}

    def bounds(interval: tuple[float, float] | None) -> list[float | None] | None:
        return None if interval is None else [bound if math.isfinite(bound) else None for bound in interval]

    return {
        "decisions": [
            {
                "deal": r.deal_number + 1,
                "step": r.step + 1,
                "seat": r.seat,
                "phase": r.phase.value,
                "played": action_text(r.played),
                "open_best": None if r.open_best is None else action_text(r.open_best),
                "open_values": values(dict(r.open_values)),
                "expert_best": None if r.expert_best is None else action_text(r.expert_best),
                "expert_values": values(r.expert_values),
                "cost": r.cost,
                "best": None if r.best is None else action_text(r.best),
                "expert_intervals": {action_text(a): bounds(i) for a, i in r.expert_intervals.items()},
                "expert_guesses": r.expert_guesses,
                "expert_unit": r.expert_unit,
                "expert_cost": r.expert_cost,
                "expert_cost_interval": bounds(r.expert_cost_interval),
                "trick": r.trick,
                "table": [[seat, str(card)] for seat, card in r.table],
                "rules": list(r.rules),
                "verdict": verdict(r),
            }
            for r in analysis.reviews
        ],
        "loss": {str(seat): analysis.loss(seat) for seat in analysis.seats},
        "expert_loss": {str(seat): analysis.expert_loss(seat) for seat in analysis.seats},
        "stopped": analysis.stopped,
        "unreached": [
            {"deal": u.deal_number + 1, "step": u.step + 1, "seat": u.seat, "played": action_text(u.played)}
            for u in analysis.unreached
        ],
    }


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Analyse the history in ``args.file`` and print each decision, then each seat's loss."""
    started = time.monotonic()  # --max-seconds counts the reading of the history too
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
        max_seconds=None if args.max_seconds is None else max(args.max_seconds - (time.monotonic() - started), 1e-6),
    )
    print(file=sys.stderr)
    left = len(analysis.unreached)
    if analysis.stopped:
        done = len(analysis.reviews)
        print(
            f"fly-rules: stopped at --max-seconds {args.max_seconds:g} after {done} decisions (the cheapest first);"
            f" {left} not reached",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(_data(analysis), indent=2, ensure_ascii=False), file=out)
        return 0
    stopped = f" (stopped at --max-seconds {args.max_seconds:g}, {left} not reached)" if analysis.stopped else ""
    for line in _wrapped(f"{title} history {args.file}: {len(analysis.reviews)} decisions analysed{stopped}"):
        print(line, file=out)
    print(_LEGEND, file=out)
    number = None
    every: list[Review | Unreached] = [*analysis.reviews, *analysis.unreached]
    for found in sorted(every, key=lambda each: (each.deal_number, each.step)):
        if found.deal_number != number:
            number = found.deal_number
            print(f"== Deal {number + 1}", file=out)
        print("\n".join(_lines(found) if isinstance(found, Review) else _not_reached(found)), file=out)
    expert = not args.no_expert
    for each in analysis.seats:
        fair = f"{_amount(analysis, each)} by the seat's view, " if expert else ""
        print(f"seat {each} gave away {fair}{analysis.loss(each)} with every card open", file=out)
    return 0


_LEGEND = """\
   seat's view: the best action on what the seat could know (the expert, as the
     hint gives it), its value and the value of the action played, each a mean
     over the expert's guessed deals ±95%; points are the seat's gain to the end
     of the deal, a % its chance of winning the match
   open cards: the best with every card open, the stock's order too, which no
     player can know (hindsight), and what the action played cost by it"""


def _amount(analysis: Analysis, seat: int) -> str:
    """A seat's loss by the expert's estimates, in its unit."""
    units = {review.expert_unit for review in analysis.reviews if review.seat == seat}
    loss = analysis.expert_loss(seat)
    return f"{loss * 100:.0f}% of a match" if units == {"match"} else f"{loss:.1f}"
