"""``fly-rules demo``: one match between bots, told as it goes: each deal's trumps and hands, the
declarations, every trick, the records after each deal, and the winner (for Dreyfus, the settlement)."""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.bots import make_bot
from fly_rules.commands.common import (
    bot_names,
    bots_help,
    game_argument,
    players_argument,
    presets_help,
    whole_number_argument,
)
from fly_rules.narration import Chooser, narrate
from fly_rules.notation.games import make_rules, new_game

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo`` to the ``fly-rules`` parser's subparsers ``sub``."""
    demo = sub.add_parser("demo", help="play one match between bots and print it")
    game_argument(demo)
    players_argument(demo)
    demo.add_argument("--preset", default="default", help=presets_help())
    demo.add_argument(
        "--seed", type=whole_number_argument, default=1, help="seed of the shuffles and the players (default 1)"
    )
    demo.add_argument(
        "--max-deals", type=whole_number_argument, default=100, help="stop after this many deals (default 100)"
    )
    demo.add_argument(
        "--bots", default="rule-of-thumb,random", help=bots_help("bots by seat (default rule-of-thumb,random)")
    )
    demo.set_defaults(run=run)


def _bot_choice(names: str, rules: Any, players: int, rng: random.Random) -> tuple[str, Chooser]:
    """A chooser that lets the bot of each seat (names by seat, the last repeating) pick from its view."""
    by_seat = bot_names(names, players)
    bots = [make_bot(name, rules) for name in by_seat]

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        seat = state.to_move
        return bots[seat].choose(state.view(seat), legal, rng)

    return ", ".join(f"seat {s}: {name}" for s, name in enumerate(by_seat)), choose


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play and tell the match; ``--players`` outside the game's range is refused by its rule [DRF-1.1]."""
    rng = random.Random(args.seed)
    game = registry.get(args.game)
    rules = make_rules(args.game, players=args.players, preset=args.preset, max_deals=args.max_deals)
    match = new_game(rules, seed=args.seed)
    who, choose = _bot_choice(args.bots, rules, rules.players, rng)
    print(f"{game.title}, {rules.players} players, preset {args.preset!r}, seed {args.seed}; {who}", file=out)
    narrate(match, choose, out)
    return 0
