"""The batch engines' fixed tables, each built by asking the scalar engine's own rule functions over a
small domain, so that the batch restates none of the rules they hold.

- who receives each card of the pack: the scalar deal (:func:`fly_rules.fly.deal.deal_indices`,
  :func:`fly_rules.dreyfus.deal.deal_indices`) of the pack ``0, 1, 2, …``, for every dealer;
- the next seat still in the deal: :func:`fly_rules.fly.play.next_active` for every set of active seats;
- each card's power in a trick: :func:`fly_rules.fly.play.winning_position` and
  :func:`fly_rules.dreyfus.play.trick_taker` asked which of two cards takes a trick after a lead
  (:func:`trick_powers`);
- the suit a card counts in when led and the cards that beat it within that suit: Fly's
  :func:`fly_rules.fly.play.playable_mask` (the cards a hand of every other card may play to it) and
  the powers above; Dreyfus's :func:`fly_rules.tricks.beaten_by_mask`.

Each table is built once per set of options (cached) and shared by every batch of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

import numpy as np

from fly_rules.batch._bits import NO_CARD, Array
from fly_rules.cards import ACE_HIGH, ALL_CARDS
from fly_rules.dreyfus import deal as dreyfus_deal
from fly_rules.dreyfus.play import trick_taker
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.fly import deal as fly_deal
from fly_rules.fly.play import next_active, playable_mask, winning_position
from fly_rules.fly.rules import FlyRules
from fly_rules.tricks import beaten_by_mask

__all__ = [
    "DreyfusTables",
    "FlyTables",
    "dreyfus_tables",
    "fly_tables",
    "trick_powers",
]

_EVERY: Final = (1 << 52) - 1
_I = np.int64
_NO_TRUMP: Final = 4


def trick_powers(winner: Callable[[tuple[int, ...]], int], lead: int) -> list[int]:
    """Each card's power in a trick led by ``lead``, as the rule function ``winner`` (the position of the
    card that takes a trick) ranks them: 1 for the lead, above it the cards that can take the trick from
    it, each above those it beats, and 0 for the others; the card of highest power takes a trick.

    >>> from fly_rules.tricks import trick_winner
    >>> powers = trick_powers(lambda cards: trick_winner(cards, 2, ACE_HIGH), lead=0)  # 2♣ led, ♥ trumps
    >>> powers[12] > powers[1] > powers[0] == 1, powers[26] > powers[12], powers[13]
    (True, True, 0)
    """

    def below(a: int, b: int) -> int:  # a sorts before b when b takes the trick from a
        return -1 if winner((lead, a, b)) == 2 else 1

    above = [card for card in range(52) if card != lead and winner((lead, card)) == 1]
    above.sort(key=functools.cmp_to_key(below))
    powers = [0] * 52
    powers[lead] = 1
    for place, card in enumerate(above):
        powers[card] = 2 + place
    return powers


class FlyTables:
    """Fly's tables for one set of rules (see the module's introduction)."""

    def __init__(self, rules: FlyRules) -> None:
        n = rules.players
        pack = list(range(rules.deck_size))
        receivers = np.zeros((n, n, 5), _I)
        for dealer in range(n):
            hands, trump_at, stock_at = fly_deal.deal_indices(rules, pack, dealer)
            for seat, positions in enumerate(hands):
                receivers[dealer, seat] = [p for p in range(52) if positions >> p & 1]
        self.receivers: Array = receivers
        """``[dealer, seat, j]``: the pack position of seat's ``j``-th card [FLY-3.1]."""
        self.trump_at: int = trump_at
        """The pack position of the trump card [FLY-3.2]."""
        self.stock_at: tuple[int, ...] = stock_at
        """The pack positions of the stock, its top first [FLY-3.4]."""
        table = fly_deal.DealTable(rules, 0, ALL_CARDS[0])
        nexts = np.full((1 << n, n), -1, _I)
        for active_bits in range(1, 1 << n):
            active = tuple(bool(active_bits >> seat & 1) for seat in range(n))
            nexts[active_bits] = [next_active(table, active, seat) for seat in range(n)]
        self.next_active: Array = nexts
        """``[active seats as bits, seat]``: the next active seat to the left, -1 if none [FLY-6.2]."""
        suit = np.full((4, 53), 4, _I)
        power = np.full((32, 53), -1, _I)
        for trump in range(4):
            table = fly_deal.DealTable(rules, 0, ALL_CARDS[trump * 13])
            for card in range(52):
                legal = playable_mask(table, _EVERY & ~(1 << card) & ~(1 << 51), (card,))
                suit[trump, card] = ((legal & -legal).bit_length() - 1) // 13  # a hand of every other card can follow
            for led in range(4):
                for ace_led in range(2):
                    if ace_led and led != trump:
                        continue
                    lead = trump * 13 + 12 if ace_led else led * 13
                    powers = trick_powers(functools.partial(winning_position, table), lead)
                    power[trump * 8 + led * 2 + ace_led, :52] = powers
        self.suit: Array = suit
        """``[trump, card]``: the suit the card counts in when led and for the duties (the A♠ is a trump
        when it is the top trump [FLY-7.1]); 4 for no card."""
        self.power: Array = power
        """``[trump * 8 + suit led * 2 + trump ace led, card]``: the card's power in the trick (the highest
        takes it) [FLY-6.6] [FLY-7.3] [FLY-7.4]; -1 for no card."""
        masks = np.zeros((4, 5), np.uint64)
        beaten = np.zeros((4, 53), np.uint64)
        for trump in range(4):
            for card in range(52):
                masks[trump, suit[trump, card]] |= np.uint64(1 << card)
            for card in range(52):
                row = power[trump * 8 + suit[trump, card] * 2]
                higher = [o for o in range(52) if suit[trump, o] == suit[trump, card] and row[o] > row[card]]
                beaten[trump, card] = np.uint64(sum(1 << o for o in higher))
        self.suit_mask: Array = masks
        """``[trump, suit]``: the cards counting in the suit."""
        self.beaten: Array = beaten
        """``[trump, card]``: the cards of its suit that beat the card when it leads [FLY-6.3] [FLY-6.4]."""


class DreyfusTables:
    """Dreyfus's tables for one set of rules (see the module's introduction)."""

    def __init__(self, rules: DreyfusRules) -> None:
        pack = list(range(48))
        receivers = np.zeros((3, 3, 12), _I)
        for dealer in range(3):
            hands, talon_at = dreyfus_deal.deal_indices(rules, pack, dealer)
            for seat, positions in enumerate(hands):
                receivers[dealer, seat] = [p for p in range(52) if positions >> p & 1]
        self.receivers: Array = receivers
        """``[dealer, seat, j]``: the pack position of seat's ``j``-th card [DRF-2.2]."""
        self.talon_at: tuple[int, ...] = talon_at
        """The pack positions of the talon, its top first [DRF-2.3]."""
        power = np.full((25, 53), -1, _I)
        for trump in range(5):
            contract = None if trump == _NO_TRUMP else trump
            for led in range(4):
                powers = trick_powers(functools.partial(trick_taker, 0, trump=contract), led * 13)
                power[trump * 5 + led, :52] = powers
        self.power: Array = power
        """``[contract * 5 + suit led, card]``: the card's power in the trick (contract 4: no trump) [DRF-6.6]."""
        self.beaten: Array = np.array([beaten_by_mask(c, ACE_HIGH) for c in range(52)] + [0], np.uint64)
        """``[card]``: the cards of its suit that beat it [DRF-6.4]."""


@functools.lru_cache(maxsize=64)
def fly_tables(rules: FlyRules) -> FlyTables:
    """Fly's tables for ``rules``, built once."""
    return FlyTables(rules)


@functools.lru_cache(maxsize=64)
def dreyfus_tables(rules: DreyfusRules) -> DreyfusTables:
    """Dreyfus's tables for ``rules``, built once."""
    return DreyfusTables(rules)


assert NO_CARD == 52  # the tables' last column is "no card"
