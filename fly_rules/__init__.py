"""fly_rules: the reference rules of the card games Fly (Муха) and Dreyfus (Дрейфус).

A citable specification in ``specs/`` and an immutable engine that implements it.

>>> from fly_rules import Card, CardSet
>>> Card.parse("A♠") in CardSet.parse("AS KH 7C")
True
"""

# first, and without ``from __future__`` (importing that module takes a while): Ctrl-C while the program
# imports (see its docstring)
from fly_rules import _startup  # noqa: F401
from fly_rules.actions import Action, Exchange, Fold, Play, Stand
from fly_rules.cards import (
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
from fly_rules.errors import FlyRulesError, InvalidNotation, InvalidRules, RuleViolation

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
