"""Dealing helpers shared by the games: packets dealt round a table, and the cards of an explicit position
read from what a caller gives.

>>> deal_in_packets(list(range(8)), receivers=2, packet=2)
([0, 1, 4, 5], [2, 3, 6, 7])
>>> card_list("AS, KH", "hand 0"), one_card("7C", "trump_card")
([Card.parse('AS'), Card.parse('KH')], Card.parse('7C'))
>>> one_card(None, "trump_card")
Traceback (most recent call last):
...
TypeError: trump_card: expected a card, got None
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from fly_rules.cards import Card, CardSet
from fly_rules.errors import shown

__all__ = ["card_list", "deal_in_packets", "one_card", "seat_values"]

_T = TypeVar("_T")


def deal_in_packets(cards: Sequence[_T], *, receivers: int, packet: int) -> tuple[list[_T], ...]:
    """Deal ``cards`` in order, ``packet`` at a time, to ``receivers`` hands in turn, round after
    round, until the cards run out; hand ``r`` gets the ``r``-th packet of each round."""
    hands: tuple[list[_T], ...] = tuple([] for _ in range(receivers))
    for start in range(0, len(cards), packet):
        hands[(start // packet) % receivers].extend(cards[start : start + packet])
    return hands


def one_card(value: object, what: str) -> Card:
    """``value`` as a card: a :class:`~fly_rules.cards.Card`, or its text.

    Raises:
        InvalidNotation: unreadable card text.
        TypeError: ``value`` is neither, naming ``what`` it was given as.
    """
    if isinstance(value, str):
        return Card.parse(value)
    if not isinstance(value, Card):
        raise TypeError(f"{what}: expected a card, got {shown(value)}")
    return value


def card_list(value: object, what: str) -> list[Card]:
    """The cards ``value`` lists, in its order: text (``"AS KH"``, commas allowed), a
    :class:`~fly_rules.cards.CardSet`, or an iterable of cards or their text.

    Raises:
        InvalidNotation: unreadable card text.
        TypeError: ``value`` or one of its items is not a card, naming ``what`` it was given as.
    """
    if isinstance(value, str):
        return [Card.parse(token) for token in value.replace(",", " ").split()]
    if isinstance(value, CardSet):
        return list(value)
    if not isinstance(value, Iterable):
        raise TypeError(f"{what}: expected cards, got {shown(value)}")
    return [one_card(item, what) for item in value]


def seat_values(value: object, what: str) -> tuple[object, ...]:
    """``value`` as a tuple (one entry per seat), if it is a sequence other than text.

    Raises:
        TypeError: naming ``what`` it was given as, for anything else.
    """
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"{what}: expected one value per seat, got {shown(value)}")
    return tuple(value)
