"""Matches: chaining deals until a record reaches zero or ``max_deals`` deals are
played, rotation of the dealer, standings [FLY-2.1] [FLY-2.2] [FLY-10.1]
[FLY-10.2] [FLY-10.3].
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from fly_rules.cards import ALL_CARDS
from fly_rules.engine import MatchBase, shuffled_indices
from fly_rules.fly.deal import DealTable, deal_indices, draw_first_dealer
from fly_rules.fly.end import next_dealer
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import FlyDeal, FlyView, start_deal

__all__ = ["FlyMatch", "new_match"]


class _MatchFields(NamedTuple):
    rules: FlyRules
    """The rules options."""
    seed: int | str
    """The seed every deal's shuffle derives from."""
    first_dealer: int
    """The dealer of the match's first deal [FLY-2.1]."""
    deal: FlyDeal
    """The deal in progress (or the last one, once the match is over)."""
    previous_deal: FlyDeal | None
    """The deal finished just before ``deal`` began, for reporting; None at first."""
    deals_played: int
    """Deals played out so far."""
    is_over: bool
    """Whether the match has ended: a winner, or ``rules.max_deals`` reached [FLY-10.1]."""
    history: tuple[Any, ...] | None
    """The actions of the deals before the current one, newest first, as nested pairs
    (the current deal keeps its own)."""


class FlyMatch(MatchBase[FlyDeal, FlyView], _MatchFields):
    """A match of Fly: deals one after another until a record reaches zero, or until
    ``rules.max_deals`` deals are played [FLY-10.1].

    Each deal is shuffled from the match's seed and the deal's number
    (:func:`fly_rules.engine.shuffled`), so the same seed and actions always give
    the same match. Build one with :func:`new_match`. Immutable like its deals (a
    named tuple underneath); equal when the positions are. Its fields are those of every
    game's match (:data:`fly_rules.engine.match.MATCH_FIELDS`).
    """

    __slots__ = ()
    over_rule: ClassVar[str] = "FLY-10.3"
    rules_class: ClassVar[type[Any]] = FlyRules
    dealer_rule: ClassVar[str] = "FLY-1.2"
    draw_dealer = staticmethod(draw_first_dealer)

    @staticmethod
    def first_deal(rules: FlyRules, seed: int | str, dealer: int) -> FlyDeal:
        """The first deal: every record at the start record [FLY-8.1]."""
        return _deal_from_seed(rules, seed, 0, dealer, (rules.start_record,) * rules.players)

    def next_deal(self, deal: FlyDeal, number: int) -> FlyDeal:
        """The deal after ``deal``: the next dealer (the same after a redeal), the records carried [FLY-2.2]."""
        score = deal.score
        dealer = next_dealer(self.rules, deal.table.dealer, score.redeal)
        return _deal_from_seed(self.rules, self.seed, number, dealer, score.records)

    @property
    def winners(self) -> tuple[int, ...]:
        """Every winning seat (more than one only with ``tie_break="shared"``) [FLY-9.4]."""
        return self.deal.winners

    @property
    def records(self) -> tuple[int, ...]:
        """Every seat's record [FLY-8.1]."""
        return self.deal.records

    def standings(self) -> tuple[int, ...]:
        """Seats from best to worst: the winners first, earliest to reach 0 first (as ``winners``
        lists them [FLY-9.4]), then the others by record, lowest first [FLY-10.2]."""
        records, winners = self.records, self.winners
        others = sorted((s for s in range(len(records)) if s not in winners), key=lambda s: (records[s], s))
        return winners + tuple(others)

    def __repr__(self) -> str:
        return f"<FlyMatch seed={self.seed!r} deal={self.deal_number} records={self.records} winner={self.winner}>"


def _deal_from_seed(rules: FlyRules, seed: int | str, number: int, dealer: int, records: tuple[int, ...]) -> FlyDeal:
    hands, trump, stock = deal_indices(rules, shuffled_indices(rules.deck, seed, number), dealer)
    return start_deal(DealTable(rules, dealer, ALL_CARDS[trump], seed, number), hands, stock, records)


def new_match(rules: FlyRules, *, seed: int | str, dealer: int | None = None) -> FlyMatch:
    """A new match, every deal shuffled from ``seed`` [FLY-10.1]; it stops after
    ``rules.max_deals`` deals if no one has won by then.

    ``dealer`` fixes the first dealer; None draws him by lot from the seed [FLY-2.1].

    Raises:
        TypeError: ``rules`` is not a :class:`FlyRules`, or ``seed`` is not an int or a str.
        RuleViolation: FLY-1.2 for a dealer who is not a seat; REC-1.5 for a seed of more than 100 digits.

    >>> m = new_match(FlyRules(players=4), seed=7, dealer=0)
    >>> m.to_move, m.records
    (1, (25, 25, 25, 25))
    """
    return FlyMatch.begin(rules, seed, dealer)
