"""The ``fly-rules`` command: ``demo`` here, and ``play``, ``simulate``, ``replay``, ``show`` and
``rules`` from :mod:`fly_rules.commands`.

``fly-rules demo`` plays one match between bots and prints it as it
goes: each deal's trump card and hands, the declarations, every trick, the
records after each deal, and the winner. ``fly-rules demo --game dreyfus``
does the same for Dreyfus, ending with the settlement.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import attrs

import fly_rules
from fly_rules import dreyfus, fly
from fly_rules.bots import make_bot
from fly_rules.commands import _bots_help, bot_names, game_argument, presets_help, register, whole_number_argument
from fly_rules.errors import FlyRulesError
from fly_rules.narration import Chooser, narrate

__all__ = ["main"]


def _bot_choice(names: str, rules: Any, players: int, rng: random.Random) -> tuple[str, Chooser]:
    """A chooser that lets the bot of each seat (names by seat, the last repeating) pick from its view."""
    by_seat = bot_names(names, players)
    bots = [make_bot(name, rules) for name in by_seat]

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        seat = state.to_move
        return bots[seat].choose(state.view(seat), legal, rng)

    return ", ".join(f"seat {s}: {name}" for s, name in enumerate(by_seat)), choose


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    rng = random.Random(args.seed)
    if args.game == "dreyfus":
        drules = dreyfus.DreyfusRules.preset(args.preset)
        drules = attrs.evolve(drules, max_deals=args.max_deals)
        dmatch = dreyfus.new_match(drules, seed=args.seed)
        who, choose = _bot_choice(args.bots, drules, 3, rng)
        print(f"Dreyfus, 3 players, preset {args.preset!r}, seed {args.seed}; {who}", file=out)
        narrate(dmatch, choose, out)
        return 0
    rules = fly.FlyRules.preset(args.preset, players=args.players, max_deals=args.max_deals)
    match = fly.new_match(rules, seed=args.seed)
    who, choose = _bot_choice(args.bots, rules, rules.players, rng)
    print(f"Fly, {rules.players} players, preset {args.preset!r}, seed {args.seed}; {who}", file=out)
    narrate(match, choose, out)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fly-rules", description="Rules engine for Fly (Муха) and Dreyfus.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {fly_rules.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play one match between bots and print it")
    game_argument(demo)
    demo.add_argument("--players", type=whole_number_argument, default=4, help="number of players, 3 to 7 (default 4)")
    demo.add_argument("--preset", default="default", help=presets_help())
    demo.add_argument(
        "--seed", type=whole_number_argument, default=1, help="seed of the shuffles and the players (default 1)"
    )
    demo.add_argument(
        "--max-deals", type=whole_number_argument, default=100, help="stop after this many deals (default 100)"
    )
    demo.add_argument(
        "--bots", default="rule-of-thumb,random", help=_bots_help("bots by seat (default rule-of-thumb,random)")
    )
    demo.set_defaults(run=_cmd_demo)
    register(sub)
    return parser


def _interrupt_once(_signal: int, _frame: object) -> None:
    """The first Ctrl-C stops the command (``KeyboardInterrupt``); any more are ignored, so that the
    command's stopping (workers ended, a game saved) is never cut short."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; returns the exit code (0 ok, 1 invalid input, 2 usage, 130 interrupted)."""
    stream = sys.stdout if out is None else out
    if argv is None:  # run as the program (not called with arguments by other code)
        signal.signal(signal.SIGINT, _interrupt_once)
    try:
        args = _parser().parse_args(argv)
        code: int = args.run(args, stream)
    except FlyRulesError as error:
        print(f"fly-rules: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: the command has stopped its workers and saved what it keeps
        print("\nfly-rules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader (say `head`) stopped listening: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
