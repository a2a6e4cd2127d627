"""The end of the match: when it ends and who wins [DRF-8.1] [DRF-8.2] [DRF-8.3].

Implements DRF §8 of ``specs/dreyfus.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fly_rules.dreyfus.rules import DreyfusRules

__all__ = ["match_ends", "winner_of"]


def winner_of(
    reached: Sequence[int], upper: Sequence[int], lower: Sequence[int], deal_over: bool, rules: DreyfusRules
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


def match_ends(winner: int | None, deals_played: int, rules: DreyfusRules) -> bool:
    """Whether the match is over once a deal has been played out: it has a winner, or the
    cap on deals is reached [DRF-8.1] [DRF-8.3]."""
    return winner is not None or (rules.max_deals is not None and deals_played >= rules.max_deals)
