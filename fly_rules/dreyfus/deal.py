"""The deal and the contract: dealer, packets, talon, the suit cycle [DRF-2.1] [DRF-3.1].

Implements DRF §2 (the deal) and DRF §3 (the contract) of ``specs/dreyfus.md``.
Hands are int masks over card indices (see :mod:`fly_rules.cards`); the
talon is a tuple of card indices, top first.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from fly_rules._deal_tools import deal_in_packets
from fly_rules.cards import CARD_BITS, DECK_48, Card, Suit
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.engine import shuffled
from fly_rules.errors import RuleViolation
from fly_rules.tricks import TrumpDuty

__all__ = [
    "DealTable",
    "check_position",
    "contract_of",
    "deal_cards",
    "deal_indices",
    "draw_first_dealer",
    "eldest",
    "next_dealer",
    "set_seat",
]

SEATS = 3
"""The number of players [DRF-1.1]."""
HAND_SIZE = 12
"""Cards in each hand and in the talon [DRF-2.2]."""


@attrs.frozen
class DealTable:
    """What stays fixed for a whole deal: the rules, the dealer, the contract, the cards as dealt,
    and the option values the play reads on every card, looked up once [DRF-2.2] [DRF-3.1]."""

    rules: DreyfusRules
    """The rules in force."""
    deal_number: int
    """Deals completed before this one in the match."""
    dealer: int
    """The dealer's seat."""
    contract: Suit | None
    """The trump suit, None for no trump [DRF-3.1]."""
    dealt: tuple[int, int, int]
    """Each hand as dealt, as a mask [DRF-2.2]."""
    talon: tuple[int, ...]
    """The talon as dealt, card indices, top first [DRF-2.3]."""
    trump: int | None = attrs.field(init=False, eq=False)
    """The contract as a suit number, None for no trump."""
    fosk: int = attrs.field(init=False, eq=False)
    """The cards that may be discarded under this contract, as a mask [DRF-4.2]."""
    penalize: bool = attrs.field(init=False, eq=False)
    """Whether a play breaking a duty is accepted as a revoke rather than refused [DRF-10.1]."""
    must_head: bool = attrs.field(init=False, eq=False)
    """``rules.must_head_trick`` [DRF-6.4]."""
    trump_duty: TrumpDuty = attrs.field(init=False, eq=False)
    """``rules.trump_duty`` [DRF-6.3]."""
    incremental: bool = attrs.field(init=False, eq=False)
    """Whether cards are exchanged one at a time [DRF-4.4]."""

    def __attrs_post_init__(self) -> None:
        # the option values read on every card, fixed for the deal and stored through their slots (a default
        # method per field would be registered too late in the compiled build: scripts/build_compiled.py)
        rules, contract = self.rules, self.contract
        derived = (
            None if contract is None else int(contract),
            rules.fosk_mask(contract),
            rules.revoke_mode == "penalize",
            rules.must_head_trick,
            rules.trump_duty,
            rules.exchange_mode == "incremental",
        )
        for store, value in zip(_STORE_DERIVED, derived, strict=True):
            store(self, value)


_DERIVED = ("trump", "fosk", "penalize", "must_head", "trump_duty", "incremental")
_STORE_DERIVED: tuple[Callable[[DealTable, Any], None], ...] = tuple(
    DealTable.__dict__[name].__set__ for name in _DERIVED
)


def set_seat(values: tuple[int, int, int], seat: int, value: int) -> tuple[int, int, int]:
    """``values`` (one per seat) with ``seat``'s entry replaced by ``value``."""
    if seat == 0:
        return (value, values[1], values[2])
    if seat == 1:
        return (values[0], value, values[2])
    return (values[0], values[1], value)


def eldest(dealer: int) -> int:
    """The player left of the dealer, first to receive cards and to exchange [DRF-2.2] [DRF-4.1]."""
    return (dealer + 1) % SEATS


def next_dealer(rules: DreyfusRules, dealer: int) -> int:
    """Who deals the next deal: the dealer's left neighbour by default [DRF-2.1]."""
    return (dealer + (1 if rules.dealer_rotation == "left" else -1)) % SEATS


def draw_first_dealer(rules: DreyfusRules, seed: object) -> int:
    """The first dealer of a match, by lot: the seat drawing the lowest card [DRF-2.1].

    Seats 0, 1, 2 draw the first three cards of the seed's lot shuffle; the lowest
    by rank, then canonical suit order, deals.

    Raises:
        TypeError: ``seed`` is not an int or a str (:func:`~fly_rules.engine.check_seed`).
    """
    lot = shuffled(DECK_48, seed, -1)[:SEATS]
    return min(range(SEATS), key=lambda seat: (lot[seat].rank, lot[seat].suit))


def contract_of(rules: DreyfusRules, deal_number: int) -> Suit | None:
    """The trump suit (None: no trump) of deal ``deal_number`` (0 first) [DRF-3.1] [DRF-3.2] [DRF-3.3]."""
    cycle = rules.contract_cycle
    return cycle[deal_number % len(cycle)]


def deal_cards(rules: DreyfusRules, cards: Sequence[Card], dealer: int) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    """Deal the shuffled ``cards`` (first card dealt first) in packets to eldest, the next
    player, the dealer and the talon; return the hands as masks by seat and the talon,
    top first [DRF-2.2] [DRF-2.3]."""
    return deal_indices(rules, [card.index for card in cards], dealer)


@functools.cache
def _packets(packet: int) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """For each receiver in dealing order (eldest, next, dealer, talon), a getter of the cards he
    receives from the 48 dealt, in the order dealt [DRF-2.2]."""
    return tuple(operator.itemgetter(*got) for got in deal_in_packets(range(48), receivers=SEATS + 1, packet=packet))


def deal_indices(
    rules: DreyfusRules, indices: Sequence[int], dealer: int
) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    """:func:`deal_cards` for card indices: the hands as masks by seat and the talon, top first
    [DRF-2.2] [DRF-2.3]."""
    eldest_gets, next_gets, dealer_gets, talon_gets = _packets(rules.deal_packet_size)
    masks = (
        sum(map(CARD_BITS.__getitem__, eldest_gets(indices))),
        sum(map(CARD_BITS.__getitem__, next_gets(indices))),
        sum(map(CARD_BITS.__getitem__, dealer_gets(indices))),
    )
    talon = talon_gets(indices)[::-1]  # DRF-2.3: the last card dealt lies on top
    if dealer == 0:
        return (masks[2], masks[0], masks[1]), talon
    if dealer == 1:
        return (masks[1], masks[2], masks[0]), talon
    return masks, talon


def check_position(hands: Sequence[int], talon: Sequence[int]) -> None:
    """Refuse a deal whose hands and talon are not twelve cards each of the 48-card deck,
    each card once [DRF-2.4] [DRF-1.2].

    Raises:
        RuleViolation: DRF-2.4 if a hand or the talon is the wrong size or cards repeat;
            DRF-1.2 if a card is not in the 48-card deck.
    """
    if len(hands) != SEATS:
        raise RuleViolation("DRF-2.4", f"a deal has three hands, not {len(hands)}", tuple(hands))
    for seat, hand in enumerate(hands):
        if hand.bit_count() != HAND_SIZE:
            raise RuleViolation("DRF-2.4", f"hand {seat} holds {hand.bit_count()} cards, not 12", seat)
    if len(talon) != HAND_SIZE or len(set(talon)) != HAND_SIZE:
        raise RuleViolation("DRF-2.4", f"the talon holds {len(set(talon))} distinct cards, not 12", tuple(talon))
    everything = hands[0] | hands[1] | hands[2]
    for index in talon:
        everything |= 1 << index
    if everything.bit_count() != 48:
        raise RuleViolation("DRF-2.4", "a card is dealt twice", None)
    stray = everything & ~DECK_48.mask
    if stray:
        raise RuleViolation("DRF-1.2", "the twos are not in play", Card.from_index(stray.bit_length() - 1))
