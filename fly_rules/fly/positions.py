"""Explicit positions: a deal set up card by card instead of shuffled from a seed
[FLY-3.1] [FLY-1.3] [FLY-8.1].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from fly_rules._deal_tools import card_list, one_card, seat_values
from fly_rules._numbers import check_seat
from fly_rules._options import MAX_COUNT, check_rules
from fly_rules.cards import Card, CardSet
from fly_rules.engine.shuffle import check_seed
from fly_rules.errors import RuleViolation, shown
from fly_rules.fly.deal import DealTable
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import FlyDeal, start_deal

__all__ = ["new_deal"]

_MAX_RECORD: Final = 10**100  # records from here up cannot be written in a history [REC-1.5]


def new_deal(
    rules: FlyRules,
    *,
    hands: Sequence[Iterable[Card | str] | CardSet | str],
    trump_card: Card | str,
    stock: Iterable[Card | str] | CardSet | str = (),
    dealer: int = 0,
    records: Sequence[int] | None = None,
    seed: int | str | None = None,
    deal_number: int = 0,
) -> FlyDeal:
    """An explicit position at the start of the exchange [FLY-3.1].

    ``hands[i]`` is seat ``i``'s five cards (Cards, a CardSet, or text such as
    ``"AS KH 7C 8D 9S"``); ``stock[0]`` is the top of the stock. ``seed`` and ``deal_number`` are the deal's
    match identity, which a position leaves out (REC-5.3): the match's seed and the deal's number in it (0 first),
    which order a refilled stock (REC-6.6); with them the deal equals the match's own. Without a seed the deal is
    an explicit one, its refills in the canonical order.

    Raises:
        RuleViolation: if the position breaks a rule (hand sizes, cards outside
            the deck or dealt twice, records), naming the rule.
        InvalidNotation: for unreadable card text.
        TypeError: ``rules`` is not a :class:`FlyRules`, a card is not a card or its text, ``hands``
            or ``records`` is not a sequence (one entry per seat), or ``seed`` is not an int or a str.

    >>> d = new_deal(FlyRules(players=3), hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
    ...              trump_card="8H", stock="7H 7D")
    >>> d.to_move, d.trump.name
    (1, 'HEARTS')
    """
    check_rules(rules, FlyRules)
    n = rules.players
    check_seat(dealer, n, "FLY-1.2", "the dealer")
    if seed is not None:
        check_seed(seed)
    if type(deal_number) is not int or not 0 <= deal_number < MAX_COUNT:
        raise RuleViolation("REC-5.3", f"deal_number must be a whole number from 0 to {MAX_COUNT - 1}", deal_number)
    given = seat_values(hands, "hands")
    if len(given) != n:
        raise RuleViolation("FLY-3.1", f"{n} players need {n} hands, got {len(given)}", hands)
    seen = 0
    masks = []
    deck = rules.deck.mask
    turnup = one_card(trump_card, "trump_card")
    stock_cards = card_list(stock, "stock")
    for seat, hand in enumerate(given):
        cards = card_list(hand, f"hand {seat}")
        if len(cards) != 5:
            raise RuleViolation("FLY-3.1", f"seat {seat} must hold 5 cards, not {len(cards)}", hand)
        mask = 0
        for card in cards:
            mask |= card.bit
        masks.append(mask)
    for card in [c for h in masks for c in CardSet(h)] + [turnup, *stock_cards]:
        if not deck & card.bit:
            raise RuleViolation("FLY-1.3", f"{card} is not in the {rules.deck_size}-card deck", card)
        if seen & card.bit:
            raise RuleViolation("FLY-1.3", f"{card} is dealt twice", card)
        seen |= card.bit
    if sum(m.bit_count() for m in masks) != 5 * n:
        raise RuleViolation("FLY-1.3", "a card is dealt twice within one hand", hands)
    start = (rules.start_record,) * n if records is None else seat_values(records, "records")
    if len(start) != n or any(type(r) is not int or not -_MAX_RECORD < r < _MAX_RECORD for r in start):
        raise RuleViolation(
            "FLY-8.1", f"{n} players need {n} whole-number records of at most 100 digits, got {shown(records)}", records
        )
    whole = tuple(r for r in start if isinstance(r, int))  # every one, checked above
    if any(r <= 0 for r in whole):
        raise RuleViolation(
            "FLY-9.1", f"a record at or below zero has already ended the match: {shown(start)}", records
        )
    table = DealTable(rules, dealer, turnup, seed, deal_number)
    return start_deal(table, tuple(masks), tuple(c.index for c in stock_cards), whole)
