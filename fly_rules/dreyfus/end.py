"""The end of the match: who wins [DRF-8.1] [DRF-8.2] [DRF-8.3] (when it ends is
:func:`fly_rules.engine.match_stops`, shared with Fly).

Implements DRF §8 of ``specs/dreyfus.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fly_rules.dreyfus.rules import DreyfusRules

__all__ = ["winner_of"]


def winner_of(
    rules: DreyfusRules, reached: Sequence[int], upper: Sequence[int], lower: Sequence[int], deal_over: bool
) -> int | None:
    """The match winner from the seats in the order they reached the target this deal:
    the first of them, or at the end of the deal the highest lower record [DRF-8.2].

    Ties under ``highest_lower`` go to the lower upper record, then to the first to reach.
    """
    if not reached:
        return None
    if rules.winner_rule == "first_to_reach":
        return reached[0]
    if not deal_over:
        return None
    return min(reached, key=lambda seat: (-lower[seat], upper[seat], reached.index(seat)))
