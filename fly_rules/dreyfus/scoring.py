"""Scoring a deal against par four, revokes and late purchase records [DRF-7.1] [DRF-10.1] [DRF-10.2].

Implements DRF §7 (scoring) and the scoring side of DRF §10 of ``specs/dreyfus.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from fly_rules._options import check_rules
from fly_rules.dreyfus.deal import set_seat
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.errors import FlyRulesError, shown

__all__ = ["Score", "buy", "end_of_deal", "purchase_record", "revoke", "score_deal", "scores_below", "take_trick"]

_Triple = tuple[int, int, int]


class Score(NamedTuple):
    """The running score of a deal: tricks, both records, revokes, and who reached the target [DRF-7.1]."""

    tricks_taken: tuple[int, int, int]
    """Tricks taken by each seat this deal."""
    upper: tuple[int, int, int]
    """Upper records, including this deal so far [DRF-4.5]."""
    lower: tuple[int, int, int]
    """Lower records, including this deal's overtricks so far [DRF-7.2]."""
    revokes: tuple[int, int, int]
    """Revokes by each seat this deal (penalty mode only) [DRF-10.1]."""
    reached: tuple[int, ...]
    """Seats whose lower record reached the target this deal, in order [DRF-8.2]."""


def buy(score: Score, seat: int, count: int) -> Score:
    """Write ``count`` bought cards above for ``seat`` as they are taken [DRF-4.5]."""
    taken, upper, lower, revokes, reached = score
    return Score(taken, set_seat(upper, seat, upper[seat] + count), lower, revokes, reached)


def revoke(rules: DreyfusRules, score: Score, seat: int) -> Score:
    """Record a revoke by ``seat``: on his first he loses this deal's overtricks already written
    below and any claim to have reached the target [DRF-10.1]."""
    taken, upper, lower, revokes, reached = score
    if not revokes[seat]:
        lower = set_seat(lower, seat, lower[seat] - max(0, taken[seat] - rules.par_tricks))
        reached = tuple(s for s in reached if s != seat)
    return Score(taken, upper, lower, set_seat(revokes, seat, revokes[seat] + 1), reached)


def take_trick(rules: DreyfusRules, score: Score, taker: int) -> Score:
    """Credit a trick to ``taker``; an overtrick is written below at once, and a lower record
    reaching the target is noted in order [DRF-7.2] [DRF-8.2]."""
    taken, upper, lower, revokes, reached = score
    count = taken[taker] + 1
    taken = set_seat(taken, taker, count)
    if scores_below(rules, count, revokes[taker] > 0):
        now = lower[taker] + 1
        lower = set_seat(lower, taker, now)
        if now >= rules.target_lower and taker not in reached:
            reached = (*reached, taker)
    return Score(taken, upper, lower, revokes, reached)


def score_deal(rules: DreyfusRules, score: Score) -> Score:
    """The score once the twelfth trick is taken (see :func:`end_of_deal`) [DRF-7.3] [DRF-10.1]."""
    upper, lower = end_of_deal(rules, score.upper, score.lower, score.tricks_taken, score.revokes)
    return score._replace(upper=upper, lower=lower)


def scores_below(rules: DreyfusRules, tricks_now: int, revoked: bool) -> bool:
    """Whether taking a trick that brings a player to ``tricks_now`` writes one point below:
    it is beyond par and he has not revoked this deal [DRF-7.1] [DRF-7.2] [DRF-10.1]."""
    return tricks_now > rules.par_tricks and not revoked


def end_of_deal(
    rules: DreyfusRules, upper: Sequence[int], lower: Sequence[int], taken: Sequence[int], revokes: Sequence[int]
) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The records once the twelfth trick is taken: undertricks above, and the revoke
    penalty instead of the trick score [DRF-7.3] [DRF-10.1].

    ``lower`` already holds the overtricks written trick by trick (DRF-7.2), none for
    a revoker.
    """
    par = rules.par_tricks
    new_upper = list(upper)
    for seat in range(3):
        short = max(0, par - taken[seat])
        if revokes[seat]:
            times = revokes[seat] if rules.revoke_penalty_per == "occurrence" else 1
            new_upper[seat] += rules.revoke_upper_penalty * times + (short if rules.revoke_adds_undertricks else 0)
        else:
            new_upper[seat] += short
    return (new_upper[0], new_upper[1], new_upper[2]), (lower[0], lower[1], lower[2])


def purchase_record(rules: DreyfusRules, bought: object, recorded_before_lead: object) -> int:
    """What a player writes above for buying ``bought`` cards: the count, plus the penalty
    if he had not recorded it when the opening lead was made [DRF-4.5] [DRF-10.2].

    >>> purchase_record(DreyfusRules(), 2, False), purchase_record(DreyfusRules(), 0, False)
    (5, 0)

    Raises:
        TypeError: ``rules`` is not a :class:`DreyfusRules` (the rules come first).
        FlyRulesError: ``bought`` is not a whole number from 0 to 12, or ``recorded_before_lead`` not True or False.
    """
    check_rules(rules, DreyfusRules)
    if type(bought) is not int or not 0 <= bought <= 12:
        raise FlyRulesError(f"bought must be a whole number from 0 to 12, not {shown(bought)}")
    if type(recorded_before_lead) is not bool:
        raise FlyRulesError(f"recorded_before_lead must be True or False, not {shown(recorded_before_lead)}")
    if bought and not recorded_before_lead:
        return bought + rules.forgot_record_penalty
    return bought
