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

from typing import TypeAlias

import attrs

from fly_rules.cards import Card, CardSet

__all__ = ["Action", "Exchange", "Fold", "Play", "Stand"]


def _to_card(value: Card | str) -> Card:
    return Card.parse(value) if isinstance(value, str) else value


def _to_card_set(value: CardSet | str | object) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)
    return CardSet.of(value)  # type: ignore[arg-type]


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
