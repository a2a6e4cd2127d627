"""A whole match: deal after deal until a lower record reaches ten [DRF-8.1] [DRF-8.4].

Implements the match side of DRF-2.1, DRF-3.3 and DRF §8 of ``specs/dreyfus.md``:
the dealer passes, the contract cycle steps once per deal, each deal is a
seeded shuffle (:func:`fly_rules.engine.shuffled`), and the match ends after
the deal in which the winner is found.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from fly_rules.cards import DECK_48, Suit
from fly_rules.dreyfus.deal import DealTable, contract_of, deal_indices, draw_first_dealer, next_dealer
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.settlement import settle
from fly_rules.dreyfus.state import DreyfusDeal, DreyfusView, start_deal
from fly_rules.engine import MatchBase, shuffled_indices
from fly_rules.errors import RuleViolation

__all__ = ["DreyfusMatch", "new_match"]

_Triple = tuple[int, int, int]


class _MatchFields(NamedTuple):
    rules: DreyfusRules
    """The rules in force."""
    seed: int | str
    """The seed every deal's shuffle derives from."""
    first_dealer: int
    """Who dealt the first deal [DRF-2.1]."""
    deal: DreyfusDeal
    """The deal in progress (the last deal once the match is over)."""
    previous_deal: DreyfusDeal | None
    """The deal played out before the current one, or None during the first."""
    deals_played: int
    """Deals played out so far."""
    is_over: bool
    """Whether the match has ended [DRF-8.1] [DRF-8.3]."""
    history: tuple[Any, ...] | None
    """The actions of the deals before the current one, newest first, as nested pairs
    (the current deal keeps its own)."""


class DreyfusMatch(MatchBase[DreyfusDeal, DreyfusView], _MatchFields):
    """A match of Dreyfus in progress [DRF-8.1]; build one with :func:`new_match`.

    Immutable like its deals (a named tuple underneath); equal when the positions are. Its
    fields are those of every game's match (:data:`fly_rules.engine.match.MATCH_FIELDS`): ``rules``,
    ``seed``, ``first_dealer``, ``deal`` (the deal in progress, or the last once the match is over),
    ``previous_deal`` (the deal played out before it, or None), ``deals_played``, ``is_over`` and
    ``history`` (the finished deals' actions, newest first).
    """

    __slots__ = ()
    over_rule: ClassVar[str] = "DRF-1.4"
    rules_class: ClassVar[type[Any]] = DreyfusRules
    dealer_rule: ClassVar[str] = "DRF-2.1"
    draw_dealer = staticmethod(draw_first_dealer)

    @staticmethod
    def first_deal(rules: DreyfusRules, seed: int | str, dealer: int) -> DreyfusDeal:
        """The first deal: every record at zero, the cycle at its start [DRF-8.4]."""
        return _deal_from_seed(rules, seed, 0, dealer, (0, 0, 0), (0, 0, 0))

    @property
    def upper(self) -> _Triple:
        """Upper records, including the deal in progress [DRF-4.5] [DRF-7.3]."""
        return self.deal.upper

    @property
    def lower(self) -> _Triple:
        """Lower records, including the deal in progress [DRF-7.2]."""
        return self.deal.lower

    @property
    def contract(self) -> Suit | None:
        """The current deal's trump suit [DRF-3.1]."""
        return self.deal.contract

    def next_deal(self, deal: DreyfusDeal, number: int) -> DreyfusDeal:
        """The deal after ``deal``: the next dealer, the next contract of the cycle, the records carried
        [DRF-2.1] [DRF-3.3]."""
        return _deal_from_seed(
            self.rules, self.seed, number, next_dealer(self.rules, deal.dealer), deal.upper, deal.lower
        )

    def settlement(self) -> _Triple:
        """Payments per seat once the match is over: the winner's gain positive, each
        loser's payment negative; all zero without a winner [DRF-9.1] [DRF-8.3].

        Raises:
            RuleViolation: DRF-9.1 while the match is still being played.
        """
        if not self.is_over:
            raise RuleViolation("DRF-9.1", "the match is not over; nobody pays yet", self.deals_played)
        return settle(self.rules, self.upper, self.lower, self.winner)

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The upper and lower records and the settlement, as a history states them [REC-4.1] [DRF-9.1]."""
        return {"upper": self.upper, "lower": self.lower, "settlement": self.settlement()}

    def __repr__(self) -> str:
        return (
            f"<Dreyfus match seed={self.seed!r}, {self.deals_played} deals played, over={self.is_over}: {self.deal!r}>"
        )


def _deal_from_seed(
    rules: DreyfusRules, seed: int | str, number: int, dealer: int, upper: _Triple, lower: _Triple
) -> DreyfusDeal:
    """Deal number ``number`` of the match: seeded shuffle, packets, its contract [DRF-2.2] [DRF-3.3]."""
    hands, talon = deal_indices(rules, shuffled_indices(DECK_48, seed, number), dealer)
    return start_deal(DealTable(rules, number, dealer, contract_of(rules, number), hands, talon), upper, lower)


def new_match(rules: DreyfusRules, *, seed: int | str, dealer: int | None = None) -> DreyfusMatch:
    """A new match: every record at zero, the cycle at its start, the first deal dealt
    from ``seed`` by ``dealer`` (by lot if None) [DRF-8.4] [DRF-2.1].

    Raises:
        TypeError: ``rules`` is not a :class:`DreyfusRules`, or ``seed`` is not an int or a str.
        RuleViolation: DRF-2.1 for a dealer who is not a seat; REC-1.5 for a seed of more than 100 digits.

    >>> m = new_match(DreyfusRules(), seed=7, dealer=0)
    >>> m.to_move, m.contract, m.upper, len(m.view(1).hand)
    (1, <Suit.SPADES: 3>, (0, 0, 0), 12)
    """
    return DreyfusMatch.begin(rules, seed, dealer)
