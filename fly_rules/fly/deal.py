"""The deal: who deals, how the cards go round, the trump card and the stock, and
what stays fixed for a whole deal [FLY-2.1] [FLY-3.1] [FLY-3.2] [FLY-3.3] [FLY-3.4].
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from fly_rules.cards import ALL_CARDS, Card, RankOrder, Suit
from fly_rules.engine import check_seed
from fly_rules.fly.rules import FlyRules
from fly_rules.tricks import TrumpDuty

__all__ = [
    "ACE_OF_SPADES",
    "DealTable",
    "deal_cards",
    "deal_indices",
    "draw_first_dealer",
    "refill_order",
    "seats_from",
]

ACE_OF_SPADES = 51
"""Index of the A♠ (``Card.parse("AS").index``)."""


@attrs.frozen
class DealTable:
    """What stays fixed for a whole deal: the rules, the dealer, the trump card, and
    values derived from them once so that play need not recompute them."""

    rules: FlyRules
    """The rules options."""
    dealer: int
    """The dealer's seat."""
    trump_card: Card
    """The turned-up card; its suit is trump [FLY-3.2]."""
    seed: int | str | None = None
    """The match's seed, for refilling the stock; None for an explicit position."""
    deal_number: int = 0
    """0 for a match's first deal."""
    trump: int = attrs.field(init=False, eq=False)
    """The trump suit as a number (:class:`~fly_rules.cards.Suit` value)."""
    privileged: bool = attrs.field(init=False, eq=False)
    """Whether the ace-of-spades privilege can apply in this deal [FLY-7.1] [FLY-7.5]."""
    trump_ace: int = attrs.field(init=False, eq=False)
    """Index of the ace of trumps."""
    left: tuple[int, ...] = attrs.field(init=False, eq=False)
    """``left[s]`` is the seat to the left of ``s`` [FLY-1.2]."""
    order: RankOrder = attrs.field(init=False, eq=False)
    """The rank order [FLY-1.4]."""
    must_head: bool = attrs.field(init=False, eq=False)
    """``rules.must_head_trick`` [FLY-6.3]."""
    trump_duty: TrumpDuty = attrs.field(init=False, eq=False)
    """``rules.trump_duty`` [FLY-6.4]."""
    top_trump: bool = attrs.field(init=False, eq=False)
    """Whether the A♠ is a permanent top trump in this deal [FLY-7.1]."""

    def __attrs_post_init__(self) -> None:
        # values fixed once for the whole deal, stored through their slots (a table is made per deal)
        for store, value in zip(_STORE_DERIVED, _derived(self.rules, self.trump_card.index // 13)):  # noqa: B905
            store(self, value)


_DERIVED = ("trump", "privileged", "trump_ace", "left", "order", "must_head", "trump_duty", "top_trump")
_STORE_DERIVED: tuple[Callable[[DealTable, Any], None], ...] = tuple(
    DealTable.__dict__[name].__set__ for name in _DERIVED
)


@functools.lru_cache(maxsize=256)
def _derived(rules: FlyRules, trump: int) -> tuple[Any, ...]:
    """The values of :data:`_DERIVED` for ``rules`` and the trump suit ``trump``, computed once."""
    privileged = rules.ace_of_spades_mode != "none" and trump != Suit.SPADES
    return (
        int(trump),
        privileged,
        trump * 13 + 12,
        tuple(rules.left_of(seat) for seat in range(rules.players)),
        rules.rank_order,
        rules.must_head_trick,
        rules.trump_duty,
        privileged and rules.ace_of_spades_mode == "top_trump",
    )


def seats_from(rules: FlyRules, seat: int) -> tuple[int, ...]:
    """Every seat once, starting at ``seat`` and going left [FLY-1.2]."""
    order = [seat]
    for _ in range(rules.players - 1):
        order.append(rules.left_of(order[-1]))
    return tuple(order)


def draw_first_dealer(rules: FlyRules, seed: object) -> int:
    """The first dealer, drawn by lot from the match's seed [FLY-2.1].

    Raises:
        TypeError: ``seed`` is not an int or a str (:func:`~fly_rules.engine.check_seed`).
    """
    return random.Random(f"fly_rules:{check_seed(seed)}:first-dealer").randrange(rules.players)


@functools.lru_cache(maxsize=256)
def _receivers(rules: FlyRules, dealer: int) -> tuple[int, ...]:
    """The seat that gets each card of the pack in turn, until every hand holds five [FLY-3.1]."""
    seats = seats_from(rules, rules.left_of(dealer))
    return tuple(seat for packet in rules.packet_rounds for seat in seats for _ in range(packet))


def deal_cards(rules: FlyRules, order: Sequence[Card], dealer: int) -> tuple[tuple[int, ...], Card, tuple[int, ...]]:
    """Deal a shuffled pack [FLY-3.1]: packets in turn from the dealer's left
    until each hand holds five; the next card is the trump card [FLY-3.2]; the
    rest is the stock, its top first [FLY-3.4].

    Returns the hands as masks, the trump card, and the stock as card indices.
    """
    hands, trump, stock = deal_indices(rules, [card.index for card in order], dealer)
    return hands, ALL_CARDS[trump], stock


def deal_indices(rules: FlyRules, order: Sequence[int], dealer: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """:func:`deal_cards` for a pack of card indices; the trump card as an index too."""
    receivers = _receivers(rules, dealer)
    hands = [0] * rules.players
    position = len(receivers)
    for seat, card in zip(receivers, order):  # noqa: B905 - stops at the last receiver, as dealing does
        hands[seat] |= 1 << card
    return tuple(hands), order[position], tuple(order[position + 1 :])


def refill_order(pool: int, seed: int | str | None, deal_number: int, refill: int) -> tuple[int, ...]:
    """The order in which a pool of cards (folded hands or discards) becomes the
    new stock when the stock runs short [FLY-4.5]: shuffled from the match's seed,
    or in canonical order for an explicit position without a seed."""
    cards = [i for i in range(52) if pool >> i & 1]
    if seed is not None:
        random.Random(f"fly_rules:{seed}:{deal_number}:refill:{refill}").shuffle(cards)
    return tuple(cards)
