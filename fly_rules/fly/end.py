"""The end of a deal and of a match: who wins and who deals next [FLY-9.1] [FLY-9.4] [FLY-10.3] [FLY-2.2]
[FLY-5.4]; when the match stops is :func:`fly_rules.engine.match_stops`, shared with Dreyfus [FLY-10.1].
"""

from __future__ import annotations

from collections.abc import Sequence

from fly_rules.fly.rules import FlyRules

__all__ = ["immediate_winners", "next_dealer", "winners_at_end"]


def immediate_winners(rules: FlyRules, seat: int, record: int) -> tuple[int, ...]:
    """``(seat,)`` when its record, just written, is exactly zero and the rules stop at once; else ``()`` [FLY-9.1]."""
    return (seat,) if record == 0 and rules.stop_mode == "immediate" else ()


def winners_at_end(rules: FlyRules, records: Sequence[int], last_trick_of: Sequence[int]) -> tuple[int, ...]:
    """The winners once a deal is settled, when the rules wait for its end: every seat at
    zero, the earliest to get there first, only the earliest unless shared [FLY-9.1] [FLY-9.4]."""
    if rules.stop_mode != "end_of_deal":
        return ()
    zeros = sorted((last_trick_of[s], s) for s in range(rules.players) if records[s] == 0)
    winners = tuple(s for _, s in zeros)
    return winners[:1] if rules.tie_break == "earliest" else winners


def next_dealer(rules: FlyRules, dealer: int, redeal: bool) -> int:
    """The next deal's dealer: the same one after a redeal, else the next to the left [FLY-2.2] [FLY-5.4]."""
    return dealer if redeal else rules.left_of(dealer)
