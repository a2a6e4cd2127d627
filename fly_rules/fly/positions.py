"""Explicit positions: a deal set up card by card instead of shuffled from a seed
[FLY-3.1] [FLY-1.3] [FLY-8.1].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fly_rules.cards import Card, CardSet
from fly_rules.errors import RuleViolation
from fly_rules.fly.deal import Table
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import FlyDeal, start_deal

__all__ = ["new_deal"]


def _cards(value: Iterable[Card | str] | CardSet | str, what: str) -> list[Card]:
    """The cards listed, in the order given (a stock's order matters)."""
    if isinstance(value, str):
        return [Card.parse(token) for token in value.replace(",", " ").split()]
    if isinstance(value, CardSet):
        return list(value)
    cards = [Card.parse(c) if isinstance(c, str) else c for c in value]
    for card in cards:
        if not isinstance(card, Card):
            raise TypeError(f"{what}: expected cards, got {card!r}")
    return cards


def new_deal(
    rules: FlyRules,
    *,
    hands: Sequence[Iterable[Card | str] | CardSet | str],
    trump_card: Card | str,
    stock: Iterable[Card | str] | CardSet | str = (),
    dealer: int = 0,
    records: Sequence[int] | None = None,
) -> FlyDeal:
    """An explicit position at the start of the exchange [FLY-3.1].

    ``hands[i]`` is seat ``i``'s five cards (Cards, a CardSet, or text such as
    ``"AS KH 7C 8D 9S"``); ``stock[0]`` is the top of the stock.

    Raises:
        RuleViolation: if the position breaks a rule (hand sizes, cards outside
            the deck or dealt twice, records), naming the rule.
        InvalidNotation: for unreadable card text.

    >>> d = new_deal(FlyRules(players=3), hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
    ...              trump_card="8H", stock="7H 7D")
    >>> d.to_move, d.trump.name
    (1, 'HEARTS')
    """
    if not isinstance(rules, FlyRules):
        raise TypeError(f"rules must be FlyRules, not {rules!r}")
    n = rules.players
    if type(dealer) is not int or not 0 <= dealer < n:
        raise RuleViolation("FLY-1.2", f"the dealer must be a seat 0 to {n - 1}, not {dealer!r}", dealer)
    if isinstance(hands, str) or len(hands) != n:
        raise RuleViolation("FLY-3.1", f"{n} players need {n} hands, got {hands!r}", hands)
    seen = 0
    masks = []
    deck = rules.deck.mask
    turnup = Card.parse(trump_card) if isinstance(trump_card, str) else trump_card
    stock_cards = _cards(stock, "stock")
    for seat, hand in enumerate(hands):
        cards = _cards(hand, f"hand {seat}")
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
    start = (rules.start_record,) * n if records is None else tuple(records)
    if len(start) != n or any(type(r) is not int for r in start):
        raise RuleViolation("FLY-8.1", f"{n} players need {n} whole-number records, got {records!r}", records)
    if any(r <= 0 for r in start):
        raise RuleViolation("FLY-9.1", f"a record at or below zero has already ended the match: {start}", records)
    return start_deal(Table(rules, dealer, turnup), tuple(masks), tuple(c.index for c in stock_cards), start)
