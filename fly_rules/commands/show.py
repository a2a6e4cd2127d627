"""``fly-rules show``: a position drawn as text, and as an SVG picture."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry, svg
from fly_rules.commands import files
from fly_rules.commands.common import CommandError, players_of, seat_of
from fly_rules.narration import action_shown
from fly_rules.notation.games import deal_of
from fly_rules.notation.position import parse_position

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``show`` to the ``fly-rules`` parser's subparsers ``sub``."""
    show = sub.add_parser("show", help="draw a position given in position notation")
    show.add_argument("position", help="the position, one line (see the notation reference)")
    show.add_argument("--svg", type=Path, default=None, help="also write an SVG picture of the table to this file")
    show.add_argument(
        "--seat",
        default=None,
        help="with --svg: draw the picture as this seat sees it (default: every hand)",
    )
    show.add_argument("--force", action="store_true", help="let --svg overwrite an existing file")
    show.add_argument("--legal", action="store_true", help="also list the legal actions of the seat to move")
    show.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the position as text, and with ``--svg`` write its picture."""
    if args.seat is not None and args.svg is None:
        raise CommandError("--seat chooses whose view the SVG picture shows: give --svg FILE too")
    state = parse_position(args.position)
    if args.svg is not None:
        players = players_of(deal_of(state).rules)
        if args.seat is not None:
            args.seat = seat_of(args.seat, players)
        if args.svg.exists() and not args.force:  # as play --save: an existing file is kept unless --force
            raise CommandError(f"{args.svg} exists: pass --force to overwrite it")
        files.check_target(args.svg, force=True)  # the folder, a directory in the way: before the board is printed
    print("\n".join(_board(state)), file=out)
    if args.legal:
        print("\n".join(_legal(state)), file=out)
    if args.svg is not None:
        files.write_atomically(args.svg, svg.deal_picture(deal_of(state), seat=args.seat))
        print(f"picture written to {args.svg}", file=out)
    return 0


_LISTED = 40


def _legal(state: Any) -> list[str]:
    """The legal actions of the seat to move, in card symbols; a long list (a Dreyfus purchase) cut short."""
    if state.is_over:
        return ["legal actions: none (over)"]
    legal = state.legal_actions()
    shown = [action_shown(legal[i]) for i in range(min(len(legal), _LISTED))]
    more = [f"  … {len(legal) - _LISTED} more"] if len(legal) > _LISTED else []
    return [f"legal actions of seat {state.to_move} ({len(legal)}):", *(f"  {a}" for a in shown), *more]


def _board(state: Any) -> list[str]:
    deal: Any = deal_of(state)
    lines = registry.game_of(deal).words.board(deal)
    trick = "  ".join(f"{s}:{c.symbol}" for s, c in deal.trick)
    lines.append(f"trick: {trick or '(none)'}")
    return lines
