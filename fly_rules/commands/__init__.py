"""The subcommands of ``fly-rules``: ``demo``, ``play``, ``simulate``, ``replay``, ``analyse``, ``show``, ``rules``,
``conform``, ``engine``, ``serve``, ``join`` and ``verify`` (see the command-line reference in the documentation), one
module each.

Each subcommand module has ``add(sub)``, which adds its parser to the subparsers and sets its ``run``,
and ``run(args, out)``, which writes the command's output to ``out`` and returns the exit code: 0 done,
1 invalid input (a one-line message on standard error, printed by :func:`fly_rules.cli.main`). A new
subcommand is a new module and its line in :data:`SUBCOMMANDS`. Progress bars and tables use the
``rich`` package and histories are written with ``tomli-w``, both from the ``cli`` extra; they are
imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
from typing import Final

from fly_rules.commands import (
    analyse,
    conform,
    demo,
    engine,
    join,
    play,
    replay,
    rules,
    serve,
    show,
    simulate,
    verify,
)
from fly_rules.commands.common import CommandError, bot_names, whole_number_argument
from fly_rules.commands.files import write_atomically

__all__ = [
    "EXAMPLES",
    "SUBCOMMANDS",
    "CommandError",
    "bot_names",
    "register",
    "whole_number_argument",
    "write_atomically",
]

SUBCOMMANDS: Final = (demo, play, simulate, replay, analyse, show, rules, conform, engine, serve, join, verify)
"""The subcommands' modules, in the order ``fly-rules --help`` lists them."""


EXAMPLES: Final = {
    "demo": (
        "fly-rules demo --players 4 --seed 1",
        "fly-rules demo --game dreyfus --preset shram --max-deals 3",
        "fly-rules demo --bots monte-carlo,random --seed 7",
    ),
    "play": (
        "fly-rules play --players 3                      # you are seat 0; type help at the prompt",
        "fly-rules play --game dreyfus --save game.toml  # saved after every deal and on quit",
        "fly-rules play --resume game.toml               # continue a saved game",
    ),
    "join": (
        "fly-rules join 'http://127.0.0.1:8000/table/ID?token=T'  # your seat, from the invite link",
        "fly-rules join http://127.0.0.1:8000/table/ID             # watch the table",
        "fly-rules join --save game.toml 'http://127.0.0.1:8000/table/ID?token=T'",
    ),
    "simulate": (
        "fly-rules simulate -n 1000 --players 4 --bots rule-of-thumb,random --workers 2",
        "fly-rules simulate -n 200 --game dreyfus --json",
    ),
    "replay": ("fly-rules replay game.toml", "fly-rules replay --check game.toml"),
    "serve": (
        "fly-rules serve                       # then open http://127.0.0.1:8000/ and make a table",
        "fly-rules serve --db club.sqlite3 --grace 60",
    ),
    "verify": ("fly-rules verify game.toml --commitment HEX --nonce NONCE  # both from the table",),
    "analyse": (
        "fly-rules analyse game.toml --seat 0     # each of seat 0's decisions beside the best one",
        "fly-rules analyse game.toml --no-expert  # only the solver with every card open (faster)",
    ),
    "show": (
        'fly-rules show --legal "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s,s,s,pAH 2"',
        'fly-rules show --svg t.svg --seat 1 --force "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1"',
    ),
    "rules": (
        "fly-rules rules FLY-7.2            # a rule: text, sources, Decision, tests",
        "fly-rules rules FLY-7              # a section",
        'fly-rules rules --search "ace of spades"',
    ),
    "conform": (
        'fly-rules conform --engine "fly-rules engine"',
        'fly-rules conform --engine "node my-fly.js" --kinds play,deal --perft-nodes 2000',
    ),
    "engine": ('echo \'{"cmd": "hello"}\' | fly-rules engine',),
}
"""Examples shown under each subcommand's ``--help``."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add every subcommand to the ``fly-rules`` parser's subparsers ``sub``, each ``--help`` ending with
    examples."""
    for command in SUBCOMMANDS:
        command.add(sub)
    for name, parser in sub.choices.items():
        parser.epilog = "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
