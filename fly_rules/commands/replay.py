"""``fly-rules replay``: a saved history told deal by deal, or only checked."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.commands.common import outcome, players_of
from fly_rules.commands.files import read
from fly_rules.narration import narrate
from fly_rules.notation.games import game_of, new_deal, new_game, parse_action
from fly_rules.notation.history import load_history

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay`` to the ``fly-rules`` parser's subparsers ``sub``."""
    replay = sub.add_parser("replay", help="narrate a saved game history, or check it")
    replay.add_argument("file", type=Path, help="the history file (TOML)")
    replay.add_argument("--check", action="store_true", help="only check it replays and its results agree")
    replay.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Tell the history in ``args.file``, or with ``--check`` only say that it replays."""
    text = read(args.file, regular_only=True, done="read")
    final = load_history(text)
    game = game_of(final)
    if args.check:
        print(f"ok: {args.file} replays ({game}, {outcome(final)})", file=out)
        return 0
    data = tomllib.loads(text)
    rules = final.rules
    if "start" in data:
        state: Any = _fresh(final, data)
    else:
        state = new_game(rules, seed=data["seed"], dealer=data["dealer"])
    # the history has been checked by load_history: its actions replay in order
    actions = iter(
        [parse_action(entry.partition(":")[2], game) for deal in data.get("deal", []) for entry in deal["actions"]]
    )
    print(f"{registry.get(game).title} history {args.file}: {players_of(rules)} players", file=out)
    narrate(state, lambda _state, _legal: next(actions, None), out)
    return 0


def _fresh(final: Any, data: dict[str, Any]) -> Any:
    return new_deal(final.rules, **data["start"])  # a start table is new_deal's arguments [REC-2.4]
