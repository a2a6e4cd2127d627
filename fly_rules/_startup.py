"""Ctrl-C while the ``fly-rules`` program is still importing: one line and exit code 130, not a
``KeyboardInterrupt`` traceback. Imported first thing by the package, and only when the package is
being run as the program (``fly-rules …`` or ``python -m fly_rules …``); ``fly_rules.cli.main`` then
puts its own handler in place."""

# No ``from __future__ import``: this module runs before the handler is in place, and importing
# ``__future__`` is itself a window (the annotations below need none).
# _signal is the interpreter's own module, already loaded; importing ``signal`` builds enums first (milliseconds)
import _signal  # type: ignore[import-not-found]  # CPython's own module, no stubs
import os
import sys

__all__ = ["answer_ctrl_c", "is_the_program"]


def is_the_program(argv: list[str]) -> bool:
    """Whether the command line ``argv`` (``sys.orig_argv``) runs ``fly-rules`` or ``python -m fly_rules``."""
    if "-m" in argv:
        at = argv.index("-m")
        return argv[at + 1 : at + 2] == ["fly_rules"]
    return len(argv) > 1 and os.path.basename(argv[1]) == "fly-rules"


def _interrupted(_number: int, _frame: object) -> None:  # pragma: no cover - runs only in a starting program
    os.write(2, b"\nfly-rules: interrupted\n")
    os._exit(130)  # nothing to save or clean up yet: the command has not begun


def answer_ctrl_c() -> None:
    """Answer Ctrl-C with one line and exit code 130 until the command's own handler is in place."""
    if is_the_program(sys.orig_argv) and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _interrupted)


answer_ctrl_c()  # on import: before the package's other imports, which take most of the program's start-up
