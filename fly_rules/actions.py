"""The actions a player can take, shared by both games.

One bot or adapter drives Fly and Dreyfus alike because both games speak these
same four actions; :mod:`fly_rules.fly` and :mod:`fly_rules.dreyfus` re-export
the ones each game uses.

>>> Play(Card.parse("AS"))
Play(card=Card.parse('AS'))
>>> Exchange("7C 8D")
Exchange(cards=CardSet.parse('7C 8D'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeAlias

import attrs

from fly_rules.cards import Card, CardSet, unchecked_card_set
from fly_rules.errors import shown

__all__ = ["Action", "Exchange", "Fold", "Play", "Stand", "exchange_of_mask"]


def _to_card(value: Card | str) -> Card:
    if isinstance(value, str):
        return Card.parse(value)
    if not isinstance(value, Card):
        raise TypeError(f"expected a Card, got {shown(value)}")
    return value


def _to_card_set(value: CardSet | str | object) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)
    if not isinstance(value, Iterable):
        raise TypeError(f"expected a CardSet, card text or cards, got {shown(value)}")
    return CardSet.of(value)


@attrs.frozen
class Play:
    """Play one card to the current trick."""

    card: Card = attrs.field(converter=_to_card, validator=attrs.validators.instance_of(Card))
    """The card played."""

    def __str__(self) -> str:
        return f"play {self.card}"


@attrs.frozen
class Exchange:
    """Discard these cards and take as many from the top of the stock (or talon)."""

    cards: CardSet = attrs.field(converter=_to_card_set)
    """The cards discarded."""

    def __str__(self) -> str:
        return f"exchange {self.cards}"


def exchange_of_mask(mask: int) -> Exchange:
    """``Exchange(CardSet(mask))`` for a mask taken from a hand, built without checking it again: an engine
    offers one for each subset of a hand, and a random player takes one at almost every declaration.

    >>> exchange_of_mask(CardSet.parse("7C 8D").mask) == Exchange("7C 8D")
    True
    """
    action = _new_object(Exchange)
    _set_cards(action, unchecked_card_set(mask))  # as the class's own __init__ stores it
    return action


_new_object = object.__new__
_set_cards: Callable[[Exchange, CardSet], None] = Exchange.__dict__["cards"].__set__


@attrs.frozen
class Stand:
    """Keep the hand as dealt and play."""

    def __str__(self) -> str:
        return "stand"


@attrs.frozen
class Fold:
    """Take no part in this deal."""

    def __str__(self) -> str:
        return "fold"


Action: TypeAlias = Play | Exchange | Stand | Fold
"""Any action of either game."""
