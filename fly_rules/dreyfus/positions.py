"""Explicit positions: a deal set up card by card instead of shuffled from a seed [DRF-2.4] [DRF-4.1].

A worked example, a puzzle or a bug report needs a chosen deal; :func:`new_deal` checks it once
(DRF-2.4, DRF-1.2, DRF-8.1) and gives the deal at eldest's exchange turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fly_rules._deal_tools import card_list, seat_values
from fly_rules._numbers import check_seat
from fly_rules._options import MAX_COUNT, check_rules
from fly_rules.cards import Card, CardSet, Suit
from fly_rules.dreyfus.deal import DealTable, check_position
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.state import DreyfusDeal, start_deal
from fly_rules.errors import RuleViolation, shown

__all__ = ["new_deal"]

_Triple = tuple[int, int, int]
_MAX_RECORD = 10**100  # records from here up cannot be written in a history [REC-1.5]


def _mask_of(cards: object, what: str) -> int:
    if isinstance(cards, CardSet):
        return cards.mask
    items = card_list(cards, what)
    mask = 0
    for card in items:
        if mask & card.bit:
            raise RuleViolation("DRF-2.4", f"{card} appears twice in {what}", card)
        mask |= card.bit
    return mask


def _triple(values: Sequence[int], name: str) -> _Triple:
    given = seat_values(values, name)
    if len(given) != 3 or any(type(v) is not int or not 0 <= v < _MAX_RECORD for v in given):
        raise RuleViolation(
            "DRF-2.4",
            f"{name} records must be three whole numbers >= 0 of at most 100 digits, not {shown(values)}",
            values,
        )
    first, second, third = (v for v in given if isinstance(v, int))  # every one, checked above
    return (first, second, third)


def _contract(contract: Suit | str | None) -> Suit | None:
    if contract is None or isinstance(contract, Suit):
        return contract
    if not isinstance(contract, str):
        raise TypeError(f"contract: expected a suit, its letter, NT or None, got {shown(contract)}")
    return None if contract == "NT" else Suit.parse(contract)


def new_deal(
    rules: DreyfusRules,
    hands: Sequence[CardSet | str | Iterable[Card | str]],
    talon: Sequence[Card | str] | str,
    contract: Suit | str | None,
    dealer: int,
    upper: Sequence[int] = (0, 0, 0),
    lower: Sequence[int] = (0, 0, 0),
    *,
    deal_number: int = 0,
) -> DreyfusDeal:
    """A deal from given hands and talon (``talon[0]`` is the top), ready for the exchange [DRF-2.4] [DRF-4.1].

    Args:
        rules: the rules in force.
        hands: the three hands by seat, twelve cards each.
        talon: the twelve talon cards, top first.
        contract: the trump suit (a Suit or its letter), or None (or ``"NT"``) for no trump.
        dealer: the dealer's seat.
        upper: upper records before the deal.
        lower: lower records before the deal; each below the target.
        deal_number: the deal's number in its match (for views).

    Raises:
        RuleViolation: DRF-2.4 or DRF-1.2 for an irregular deal; DRF-8.1 if a lower
            record has already reached the target (the match is over).
        RuleViolation: DRF-2.1 for a dealer who is not a seat; DRF-2.4 for records that are not three
            whole numbers >= 0 of at most 100 digits, or a deal number that is not 0 to 999,999.
        InvalidNotation: for unreadable card or contract text.
        TypeError: ``rules`` is not a :class:`DreyfusRules`, a card is not a card or its text, or ``hands``,
            ``upper`` or ``lower`` is not a sequence (one entry per seat).
    """
    check_rules(rules, DreyfusRules)
    check_seat(dealer, 3, "DRF-2.1", "the dealer")
    if type(deal_number) is not int or not 0 <= deal_number < MAX_COUNT:
        detail = f"deal_number must be a whole number from 0 to {MAX_COUNT - 1}, not {shown(deal_number)}"
        raise RuleViolation("DRF-2.4", detail, deal_number)
    masks = tuple(_mask_of(hand, f"hand {seat}") for seat, hand in enumerate(seat_values(hands, "hands")))
    talon_cards = tuple(c.index for c in card_list(talon, "talon"))
    check_position(masks, talon_cards)
    up = _triple(upper, "upper")
    low = _triple(lower, "lower")
    for seat in range(3):
        if low[seat] >= rules.target_lower:
            raise RuleViolation("DRF-8.1", f"seat {seat} has already reached {rules.target_lower} below", low)
    table = DealTable(rules, deal_number, dealer, _contract(contract), (masks[0], masks[1], masks[2]), talon_cards)
    return start_deal(table, up, low)
