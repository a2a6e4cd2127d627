"""What the subcommands share: their errors, the game and bot options, seeds and seats read as the
command line gives them."""

from __future__ import annotations

import argparse
from typing import Any

from fly_rules import registry
from fly_rules._numbers import MAX_DIGITS, is_whole_number
from fly_rules.bots import BOTS
from fly_rules.errors import FlyRulesError
from fly_rules.notation.games import make_rules

__all__ = [
    "CommandError",
    "InputEnded",
    "Stopped",
    "bot_names",
    "bots_help",
    "game_argument",
    "game_options",
    "outcome",
    "players_argument",
    "players_of",
    "presets_help",
    "rules_of",
    "seat_of",
    "seconds_argument",
    "seed_of",
    "whole_number_argument",
]


class CommandError(FlyRulesError):
    """Input a command cannot use: a missing file, an unknown bot, input that ran out."""


class InputEnded(CommandError):
    """Standard input ran out while ``play`` was waiting for a move."""


class Stopped(KeyboardInterrupt):
    """The command was stopped from outside: Ctrl-C, SIGTERM, SIGHUP (the terminal closed) or its
    output closing (a broken pipe). ``main`` prints ``why`` and ``note`` on one line of standard
    error and exits with ``code`` (128 and the signal's number, as a shell reports it)."""

    def __init__(self, why: str = "interrupted", code: int = 130, note: str = "") -> None:
        super().__init__(why)
        self.why = why
        self.code = code
        self.note = note


def whole_number_argument(text: str) -> int:
    """An ``argparse`` type: a whole number in the ASCII digits 0-9 (``-`` first allowed), at most
    100 digits [REC-1.5]; ``int`` would take ``٣`` for 3 and fail on ``²`` or 5,000 digits."""
    if not is_whole_number(text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number in the digits 0-9 (at most {MAX_DIGITS})")
    return int(text)


def seconds_argument(text: str) -> float:
    """An ``argparse`` type: a number of seconds above 0 and at most a day."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:20]!r}") from None
    if not 0 < seconds <= 86_400:
        raise argparse.ArgumentTypeError(f"seconds must be above 0 and at most a day (86400), not {text[:20]}")
    return seconds


def presets_help() -> str:
    """The help of ``--preset``: every game's presets by name, so that ``--help`` lists them."""
    games = "; ".join(f"{game.title}: {', '.join(game.presets)}" for game in map(registry.get, registry.games()))
    return f"rules preset ({games}; default 'default')"


def game_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--game``: one of the registered games."""
    parser.add_argument("--game", choices=registry.games(), default="fly", help="which game (default fly)")


def players_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--players``, its help saying each game's table sizes and default (``Fly: 3 to 7 players (default 4)``)."""
    sizes = []
    for name in registry.games():
        game = registry.get(name)
        low, high = game.seats
        seats = f"{low}" if low == high else f"{low} to {high} players (default {game.default_players})"
        sizes.append(f"{game.title}: {seats}")
    parser.add_argument("--players", type=whole_number_argument, default=None, help="; ".join(sizes))


def game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--game``, ``--players``, ``--preset``, ``--seed`` and ``--max-deals``."""
    game_argument(parser)
    players_argument(parser)
    parser.add_argument("--preset", default="default", help=presets_help())
    parser.add_argument("--seed", default="1", help="seed of the shuffles and the bots (default 1)")
    parser.add_argument(
        "--max-deals",
        type=whole_number_argument,
        default=100,
        help="stop a match after this many deals (default 100)",
    )


def seed_of(text: str) -> int | str:
    """A seed: a whole number in ASCII digits, else the text itself; either at most 100 characters
    [REC-1.5]. Text that only looks like a number (``²``, ``٣``) is refused rather than read two ways."""
    if is_whole_number(text):
        return int(text)
    if len(text) > MAX_DIGITS:
        raise CommandError(f"--seed has {len(text)} characters; at most {MAX_DIGITS}")
    if any(char.isdigit() for char in text) and not text.isascii():
        raise CommandError(f"--seed {text!r}: write numbers with the digits 0-9")
    return text


def seat_of(text: str, players: int) -> int:
    """The seat ``--seat`` names: ASCII digits only [REC-1.5], and a seat at the table; refused with one
    line and exit 1 like every other bad value (argparse's type errors would exit 2 with its usage text)."""
    if not is_whole_number(text) or not 0 <= int(text) < players:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CommandError(f"--seat must be a seat 0 to {players - 1} in the digits 0-9, not {shown!r}")
    return int(text)


def rules_of(args: argparse.Namespace) -> Any:
    """The rules the options ``--game``, ``--players``, ``--preset`` and ``--max-deals`` give."""
    return make_rules(args.game, players=args.players, preset=args.preset, max_deals=args.max_deals)


def players_of(rules: Any) -> int:
    """The number of players of ``rules``."""
    return int(rules.players)


def bot_names(text: str, seats: int) -> list[str]:
    """The bot of each of ``seats`` seats, from ``--bots``: names separated by commas, the last repeating.

    Raises:
        CommandError: for an unknown bot, no bot at all, or more bots than seats.
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in BOTS:
            raise CommandError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    if not names or len(names) > seats:
        raise CommandError(f"--bots names {len(names)} bots for {seats} seats: give 1 to {seats}, the last repeats")
    return names + [names[-1]] * (seats - len(names))


def bots_help(whose: str) -> str:
    """The help of a ``--bots`` option: ``whose`` bots, and every bot by name."""
    return f"{whose}, comma-separated, the last repeating: {', '.join(BOTS)}"


def outcome(state: Any) -> str:
    """How a game stands, in a few words: in progress, no winner, or who wins."""
    if not state.is_over:
        return "in progress"
    return "no winner" if state.winner is None else f"seat {state.winner} wins"
