"""The ``fly-rules`` command: its parser and :func:`main`; the subcommands are in :mod:`fly_rules.commands`.

``fly-rules demo`` plays one match between bots and prints it as it
goes: each deal's trump card and hands, the declarations, every trick, the
records after each deal, and the winner. ``fly-rules demo --game dreyfus``
does the same for Dreyfus, ending with the settlement.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Final, TextIO

import fly_rules
from fly_rules.commands import register
from fly_rules.commands.common import Stopped
from fly_rules.commands.files import STOPS
from fly_rules.errors import FlyRulesError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fly-rules", description="Rules engine for Fly (Муха) and Dreyfus.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {fly_rules.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    return parser


_WHY: Final = {
    signal.SIGINT: "interrupted",
    signal.SIGTERM: "stopped by SIGTERM",
    signal.SIGHUP: "stopped by SIGHUP (the terminal closed)",
}


def _stop_once(number: int, _frame: object) -> None:
    """The first Ctrl-C, SIGTERM or SIGHUP stops the command (:class:`Stopped`, a ``KeyboardInterrupt``);
    any more are ignored, so that the command's stopping (workers ended, a game saved) is never cut short."""
    for stop in STOPS:
        signal.signal(stop, signal.SIG_IGN)
    raise Stopped(_WHY[signal.Signals(number)], 128 + number)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; returns the exit code (0 ok, 1 invalid input, 2 usage, 130 interrupted)."""
    stream = sys.stdout if out is None else out
    try:
        if argv is None:  # run as the program (not called with arguments by other code); inside the try, so
            for stop in STOPS:  # that a stop arriving as the handlers go in is answered as any other
                signal.signal(stop, _stop_once)
        args = _parser().parse_args(argv)
        code: int = args.run(args, stream)
    except FlyRulesError as error:
        print(f"fly-rules: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:  # the command has stopped its workers and saved what it keeps
        why, code, note = (stop.why, stop.code, stop.note) if isinstance(stop, Stopped) else ("interrupted", 130, "")
        if code == _BROKEN_PIPE:
            _quiet_stdout()
        with contextlib.suppress(OSError):  # a closed terminal may take no more text
            print(f"\nfly-rules: {why}{note}", file=sys.stderr)
        return code
    except BrokenPipeError:  # the reader (say `head`) stopped listening: not an error of ours
        _quiet_stdout()
        return 0
    return code


_BROKEN_PIPE: Final = 128 + signal.SIGPIPE
"""The exit code of a command whose output closed before it was done, as a shell reports SIGPIPE."""


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that Python's last flush of it finds no closed pipe."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
