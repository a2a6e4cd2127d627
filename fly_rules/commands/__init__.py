"""The subcommands of ``fly-rules``: ``demo``, ``play``, ``simulate``, ``replay``, ``show``, ``rules``,
``conform`` and ``engine`` (see the command-line reference in the documentation), one module each.

Each subcommand module has ``add(sub)``, which adds its parser to the subparsers and sets its ``run``,
and ``run(args, out)``, which writes the command's output to ``out`` and returns the exit code: 0 done,
1 invalid input (a one-line message on standard error, printed by :func:`fly_rules.cli.main`). A new
subcommand is a new module and its line in :data:`SUBCOMMANDS`. Progress bars and tables use the
``rich`` package and histories are written with ``tomli-w``, both from the ``cli`` extra; they are
imported only by the commands that need them.
"""

from __future__ import annotations

from typing import Any, Final

from fly_rules.commands import conform, demo, engine, play, replay, rules, show, simulate
from fly_rules.commands.common import CommandError, bot_names, whole_number_argument
from fly_rules.commands.files import write_atomically

__all__ = ["SUBCOMMANDS", "CommandError", "bot_names", "register", "whole_number_argument", "write_atomically"]

SUBCOMMANDS: Final = (demo, play, simulate, replay, show, rules, conform, engine)
"""The subcommands' modules, in the order ``fly-rules --help`` lists them."""


def register(sub: Any) -> None:
    """Add every subcommand to the ``fly-rules`` parser's subparsers ``sub``."""
    for command in SUBCOMMANDS:
        command.add(sub)
