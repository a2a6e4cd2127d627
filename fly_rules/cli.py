"""The ``fly-rules`` command: its parser and :func:`main`; the subcommands are in :mod:`fly_rules.commands`.

``fly-rules demo`` plays one match between bots and prints it as it
goes: each deal's trump card and hands, the declarations, every trick, the
records after each deal, and the winner. ``fly-rules demo --game dreyfus``
does the same for Dreyfus, ending with the settlement.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import TextIO

import fly_rules
from fly_rules.commands import register
from fly_rules.errors import FlyRulesError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fly-rules", description="Rules engine for Fly (Муха) and Dreyfus.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {fly_rules.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
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
