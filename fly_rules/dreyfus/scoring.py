"""Scoring a deal against par four, revokes and late purchase records [DRF-7.1] [DRF-10.1] [DRF-10.2].

Implements DRF §7 (scoring) and the scoring side of DRF §10 of ``specs/dreyfus.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fly_rules.dreyfus.rules import DreyfusRules

__all__ = ["end_of_deal", "purchase_record", "scores_below"]


def scores_below(tricks_now: int, revoked: bool, rules: DreyfusRules) -> bool:
    """Whether taking a trick that brings a player to ``tricks_now`` writes one point below:
    it is beyond par and he has not revoked this deal [DRF-7.1] [DRF-7.2] [DRF-10.1]."""
    return tricks_now > rules.par_tricks and not revoked


def end_of_deal(
    upper: Sequence[int], lower: Sequence[int], taken: Sequence[int], revokes: Sequence[int], rules: DreyfusRules
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


def purchase_record(bought: int, recorded_before_lead: bool, rules: DreyfusRules) -> int:
    """What a player writes above for buying ``bought`` cards: the count, plus the penalty
    if he had not recorded it when the opening lead was made [DRF-4.5] [DRF-10.2].

    >>> purchase_record(2, False, DreyfusRules()), purchase_record(0, False, DreyfusRules())
    (5, 0)
    """
    if bought and not recorded_before_lead:
        return bought + rules.forgot_record_penalty
    return bought
