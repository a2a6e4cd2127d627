"""fly_rules: the reference rules of the card games Fly (Муха) and Dreyfus (Дрейфус).

A citable specification in ``specs/`` and an immutable engine that implements it.

>>> from fly_rules import Card, CardSet
>>> Card.parse("A♠") in CardSet.parse("AS KH 7C")
True
"""

# First of all, before any module is read from disk: Ctrl-C while the program (``fly-rules …`` or ``python -m
# fly_rules …``) is still importing is one line and exit code 130, not a traceback; ``fly_rules.cli.main`` then puts
# its own handler in place. No ``from __future__`` (importing it is itself a window), and no module of the package
# (reading one was the window): ``_signal``, ``os`` and ``sys`` are the interpreter's own, already loaded.
import _signal  # type: ignore[import-not-found]
import os as _os
import sys as _sys


def _is_the_program(argv: list[str]) -> bool:
    """Whether the command line ``argv`` (``sys.orig_argv``) runs ``fly-rules`` or ``python -m fly_rules``."""
    if "-m" in argv:
        at = argv.index("-m")
        return argv[at + 1 : at + 2] == ["fly_rules"]
    return len(argv) > 1 and _os.path.basename(argv[1]) == "fly-rules"


def _interrupted(_number: int, _frame: object) -> None:  # pragma: no cover - runs only in a starting program
    """Ctrl-C before the command began: one line, exit code 130 (nothing to save or clean up yet)."""
    _os.write(2, b"\nfly-rules: interrupted\n")
    _os._exit(130)


def _answer_ctrl_c() -> None:
    """Answer Ctrl-C with one line and exit code 130 until the command's own handler is in place; never for a
    program that merely imports the library."""
    if _is_the_program(_sys.orig_argv) and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _interrupted)


_answer_ctrl_c()  # on import: before the package's other imports, which take most of the program's start-up
from fly_rules.actions import Action, Exchange, Fold, Play, Stand  # noqa: E402
from fly_rules.cards import (  # noqa: E402
    ACE_BELOW_JACK,
    ACE_HIGH,
    DECK_32,
    DECK_36,
    DECK_48,
    DECK_52,
    Card,
    CardSet,
    Rank,
    RankOrder,
    Suit,
    deck_of_size,
)
from fly_rules.errors import FlyRulesError, InvalidNotation, InvalidRules, RuleViolation  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "ACE_BELOW_JACK",
    "ACE_HIGH",
    "DECK_32",
    "DECK_36",
    "DECK_48",
    "DECK_52",
    "Action",
    "Card",
    "CardSet",
    "Exchange",
    "FlyRulesError",
    "Fold",
    "InvalidNotation",
    "InvalidRules",
    "Play",
    "Rank",
    "RankOrder",
    "RuleViolation",
    "Stand",
    "Suit",
    "__version__",
    "deck_of_size",
]
