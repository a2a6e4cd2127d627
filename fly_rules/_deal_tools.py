"""Dealing helpers shared by the games: packets dealt round a table.

>>> deal_in_packets(list(range(8)), receivers=2, packet=2)
([0, 1, 4, 5], [2, 3, 6, 7])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["deal_in_packets"]

_T = TypeVar("_T")


def deal_in_packets(cards: Sequence[_T], *, receivers: int, packet: int) -> tuple[list[_T], ...]:
    """Deal ``cards`` in order, ``packet`` at a time, to ``receivers`` hands in turn, round after
    round, until the cards run out; hand ``r`` gets the ``r``-th packet of each round."""
    hands: tuple[list[_T], ...] = tuple([] for _ in range(receivers))
    for start in range(0, len(cards), packet):
        hands[(start // packet) % receivers].extend(cards[start : start + packet])
    return hands
