"""Settlement at the end of a match [DRF-9.1] [DRF-9.2].

Implements DRF §9 of ``specs/dreyfus.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fly_rules._numbers import check_seat
from fly_rules._options import check_rules
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.errors import FlyRulesError, shown

__all__ = ["settle"]


def settle(rules: DreyfusRules, upper: Sequence[int], lower: Sequence[int], winner: int | None) -> tuple[int, int, int]:
    """Net payments per seat (received positive, paid negative); zero-sum [DRF-9.1] [DRF-9.2] [DRF-8.3].

    >>> settle(DreyfusRules(), (8, 10, 9), (10, 3, 7), 0)
    (29, -17, -12)
    >>> settle(DreyfusRules(settlement="pairwise"), (8, 10, 9), (10, 3, 7), 0)
    (13, -10, -3)

    Raises:
        TypeError: ``rules`` is not a :class:`DreyfusRules`.
        FlyRulesError: ``upper`` or ``lower`` is not three whole numbers.
        RuleViolation: DRF-9.1, ``winner`` is not None or a seat.
    """
    check_rules(rules, DreyfusRules)
    for name, records in (("upper", upper), ("lower", lower)):
        if not isinstance(records, Sequence) or len(records) != 3 or any(type(each) is not int for each in records):
            raise FlyRulesError(f"{name} must be three whole numbers (one record per seat), not {shown(records)}")
    if winner is not None:
        check_seat(winner, 3, "DRF-9.1", "the winner")
    net = [0, 0, 0]
    if winner is None:
        return (0, 0, 0)
    target = rules.target_lower
    for seat in range(3):
        if seat == winner:
            continue
        shortfall = target - lower[seat]
        if rules.shortfall_floor_zero:
            shortfall = max(0, shortfall)
        if rules.settlement == "gross":
            pays = upper[seat] + shortfall
        elif rules.settlement == "net_of_winner_upper":
            pays = upper[seat] - upper[winner] + shortfall
        else:
            pays = shortfall
        net[seat] -= pays
        net[winner] += pays
    if rules.settlement == "pairwise":
        for a in range(3):
            for b in range(a + 1, 3):
                diff = upper[a] - upper[b]  # the higher upper record pays the difference
                net[a] -= diff
                net[b] += diff
    return (net[0], net[1], net[2])
