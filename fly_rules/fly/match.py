"""Matches and explicit positions: building a deal, chaining deals until a
record reaches zero, rotation of the dealer, standings [FLY-2.1] [FLY-2.2]
[FLY-10.1] [FLY-10.2] [FLY-10.3].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from fly_rules.actions import Action
from fly_rules.cards import Card, CardSet
from fly_rules.engine import MatchBase, replace, shuffled
from fly_rules.errors import InvalidRules, RuleViolation
from fly_rules.fly.deal import deal_cards, draw_first_dealer
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import Bidding, FlyDeal, FlyView, Phase, SwapTrump, Table, Tally

__all__ = ["FlyMatch", "new_deal", "new_match"]


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


def _start(
    rules: FlyRules,
    hands: Sequence[int],
    trump_card: Card,
    stock: tuple[int, ...],
    dealer: int,
    records: tuple[int, ...],
    seed: int | str | None,
    deal_number: int,
) -> FlyDeal:
    n = rules.players
    return FlyDeal(
        table=Table(rules, dealer, trump_card, seed, deal_number),
        phase=Phase.EXCHANGE,
        turn=rules.left_of(dealer),
        hand_masks=tuple(hands),
        records=records,
        bidding=Bidding(stock_indices=stock, active=(True,) * n, declared=((),) * n),
        tally=Tally(tricks_taken=(0,) * n, last_trick_of=(0,) * n),
    )


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
    return _start(rules, masks, turnup, tuple(c.index for c in stock_cards), dealer, start, None, 0)


@attrs.frozen(kw_only=True, repr=False)
class FlyMatch(MatchBase[FlyDeal, FlyView]):
    """A match of Fly: deals one after another until a record reaches zero [FLY-10.1].

    Each deal is shuffled from the match's seed and the deal's number
    (:func:`fly_rules.engine.shuffled`), so the same seed and actions always give
    the same match.
    """

    rules: FlyRules
    """The rules options."""
    seed: int | str
    """The seed every deal's shuffle derives from."""
    deal: FlyDeal
    """The deal in progress (or the last one, once the match is over)."""
    max_deals: int | None = None
    """Stop after this many deals even without a winner; None for no limit [FLY-10.1]."""
    previous_deal: FlyDeal | None = attrs.field(default=None, eq=False)
    """The deal finished just before ``deal`` began, for reporting; None at first."""
    first_dealer: int = 0
    """The dealer of the match's first deal [FLY-2.1]."""
    history: tuple[Any, ...] | None = attrs.field(default=None, eq=False)
    """The actions of the deals before the current one, newest first, as nested pairs
    (the current deal keeps its own)."""

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: a winner, or ``max_deals`` reached [FLY-10.1]."""
        return self.deal.is_over

    @property
    def winners(self) -> tuple[int, ...]:
        """Every winning seat (more than one only with ``tie_break="shared"``) [FLY-9.4]."""
        return self.deal.winners

    @property
    def records(self) -> tuple[int, ...]:
        """Every seat's record [FLY-8.1]."""
        return self.deal.records

    def standings(self) -> tuple[int, ...]:
        """Seats from best to worst: winners first, then by record, lowest first [FLY-10.2]."""
        records = self.records
        return tuple(sorted(range(len(records)), key=lambda s: (s not in self.winners, records[s], s)))

    def apply(self, action: Action | SwapTrump) -> FlyMatch:
        """The match after ``action``; starts the next deal when one ends [FLY-2.2].

        Raises:
            RuleViolation: with the ID of the rule broken; this match is unchanged.
        """
        if self.deal.is_over:
            raise RuleViolation("FLY-10.3", f"the match is over; no action is accepted ({action!r})", action)
        deal = self.deal.apply(action)
        if not deal.is_over or deal.winners:
            return replace(self, deal=deal)
        number = deal.deal_number + 1
        if self.max_deals is not None and number >= self.max_deals:
            return replace(self, deal=deal)
        dealer = deal.dealer if deal.redeal else self.rules.left_of(deal.dealer)
        history = self.history
        for done in deal.actions:
            history = (done, history)
        following = _deal_from_seed(self.rules, self.seed, number, dealer, deal.records)
        return replace(self, deal=following, previous_deal=deal, history=history)

    def __repr__(self) -> str:
        return f"<FlyMatch seed={self.seed!r} deal={self.deal_number} records={self.records} winner={self.winner}>"


def _deal_from_seed(rules: FlyRules, seed: int | str, number: int, dealer: int, records: tuple[int, ...]) -> FlyDeal:
    hands, trump_card, stock = deal_cards(rules, shuffled(rules.deck, seed, number), dealer)
    return _start(rules, hands, trump_card, stock, dealer, records, seed, number)


def new_match(rules: FlyRules, *, seed: int | str, dealer: int | None = None, max_deals: int | None = None) -> FlyMatch:
    """A new match, every deal shuffled from ``seed`` [FLY-10.1].

    ``dealer`` fixes the first dealer; None draws him by lot from the seed [FLY-2.1].

    >>> m = new_match(FlyRules(players=4), seed=7, dealer=0)
    >>> m.to_move, m.records
    (1, (25, 25, 25, 25))
    """
    if not isinstance(rules, FlyRules):
        raise TypeError(f"rules must be FlyRules, not {rules!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed must be an int or a str, not {seed!r}")
    if dealer is None:
        dealer = draw_first_dealer(rules, seed)
    elif type(dealer) is not int or not 0 <= dealer < rules.players:
        raise RuleViolation("FLY-1.2", f"the dealer must be a seat 0 to {rules.players - 1}, not {dealer!r}", dealer)
    if max_deals is not None and (type(max_deals) is not int or max_deals < 1):
        raise InvalidRules("max_deals", f"must be None or a whole number >= 1, not {max_deals!r}")
    deal = _deal_from_seed(rules, seed, 0, dealer, (rules.start_record,) * rules.players)
    return FlyMatch(rules=rules, seed=seed, deal=deal, max_deals=max_deals, first_dealer=dealer)
