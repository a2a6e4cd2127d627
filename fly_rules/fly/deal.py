"""The deal: who deals, how the cards go round, the trump card and the stock
[FLY-2.1] [FLY-3.1] [FLY-3.2] [FLY-3.3] [FLY-3.4].
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fly_rules.cards import Card
from fly_rules.fly.rules import FlyRules

__all__ = ["deal_cards", "draw_first_dealer", "refill_order", "seats_from"]


def seats_from(rules: FlyRules, seat: int) -> tuple[int, ...]:
    """Every seat once, starting at ``seat`` and going left [FLY-1.2]."""
    order = [seat]
    for _ in range(rules.players - 1):
        order.append(rules.left_of(order[-1]))
    return tuple(order)


def draw_first_dealer(rules: FlyRules, seed: int | str) -> int:
    """The first dealer, drawn by lot from the match's seed [FLY-2.1]."""
    return random.Random(f"fly_rules:{seed}:first-dealer").randrange(rules.players)


def deal_cards(rules: FlyRules, order: Sequence[Card], dealer: int) -> tuple[tuple[int, ...], Card, tuple[int, ...]]:
    """Deal a shuffled pack [FLY-3.1]: packets in turn from the dealer's left
    until each hand holds five; the next card is the trump card [FLY-3.2]; the
    rest is the stock, its top first [FLY-3.4].

    Returns the hands as masks, the trump card, and the stock as card indices.
    """
    hands = [0] * rules.players
    seats = seats_from(rules, rules.left_of(dealer))
    position = 0
    for packet in rules.packet_rounds:
        for seat in seats:
            for card in order[position : position + packet]:
                hands[seat] |= 1 << card.index
            position += packet
    trump_card = order[position]
    stock = tuple(card.index for card in order[position + 1 :])
    return tuple(hands), trump_card, stock


def refill_order(pool: int, seed: int | str | None, deal_number: int, refill: int) -> tuple[int, ...]:
    """The order in which a pool of cards (folded hands or discards) becomes the
    new stock when the stock runs short [FLY-4.5]: shuffled from the match's seed,
    or in canonical order for an explicit position without a seed."""
    cards = [i for i in range(52) if pool >> i & 1]
    if seed is not None:
        random.Random(f"fly_rules:{seed}:{deal_number}:refill:{refill}").shuffle(cards)
    return tuple(cards)
