"""Fixed positions with scripted play for the named tests (found once by search, then frozen here)."""

from __future__ import annotations

from fly_rules.cards import Suit
from fly_rules.dreyfus import DreyfusDeal, DreyfusRules, Exchange, Stand, new_deal

from .helpers import run

WORKED_HANDS = [
    "3C 6C KC 3D 5D KD AH 7S 9S TS JS QS",
    "5C 7C 8C 4D 9D TD QD 3H 5H 6H 8H JH",
    "AC 8D JD AD 4H 7H TH KH 3S 4S KS AS",
]
WORKED_TALON = "9H JC 4C 6S QC 8S 7D 9C 5S QH TC 6D"
WORKED_PLAYS_TEXT = (
    "AH 6H TH 3D QD AD KS TS JH 5C 4C JC QS 3H 4S 5H KH 9H JD 5D 4D AS 7S 8H 9D AC KD JS 8C 6S KC 7C QC 9S TD 3S"
)
WORKED_PLAYS = tuple(WORKED_PLAYS_TEXT.split())


def worked_example(rules: DreyfusRules | None = None) -> DreyfusDeal:
    """The research note's §5 deal before the play: hearts trump, A (seat 0) 6 up 8 below, B 9/3,
    C 5/7; the dealer is C, A buys 2, B stands, C buys 3."""
    d = new_deal(rules or DreyfusRules(), WORKED_HANDS, WORKED_TALON, Suit.HEARTS, 2, (6, 9, 5), (8, 3, 7))
    return d.apply(Exchange("3C 6C")).apply(Stand()).apply(Exchange("8D 4H 7H"))


def worked_example_played(rules: DreyfusRules | None = None, upto: int = 36) -> DreyfusDeal:
    """The §5 deal with the first ``upto`` cards of its scripted play."""
    return run(worked_example(rules), *WORKED_PLAYS[:upto])


TWO_REACH_HANDS = [
    "5C JC QC 5D 6D JD 3H QH AH 4S 6S AS",
    "6C KC 4D TD KD AD 5H 7H 8H 3S TS JS",
    "3C 4C 7C 8C 7D 4H 6H TH JH KH 9S KS",
]
TWO_REACH_TALON = "7S 3D 9H 5S 9D 8S 8D TC QD 9C QS AC"
TWO_REACH_PLAYS_TEXT = (
    "5C 6C 3C KC 7C JC 8H 6H QH 3H 7H 4H 3S KS AS 4S TS 9S 4D 7D JD 6S JS 8C 4C QC KD AH 5H JH 6D TD TH AD KH 5D"
)
TWO_REACH_PLAYS = tuple(TWO_REACH_PLAYS_TEXT.split())


def two_reach(rules: DreyfusRules | None = None, upto: int = 36) -> DreyfusDeal:
    """Clubs trump, seats 0 and 1 at 9 below; seat 0 reaches 10 first (5 tricks), seat 1 ends on 11 (6 tricks)."""
    d = new_deal(rules or DreyfusRules(), TWO_REACH_HANDS, TWO_REACH_TALON, Suit.CLUBS, 2, (0, 0, 0), (9, 9, 0))
    d = d.apply(Stand()).apply(Stand()).apply(Stand())
    return run(d, *TWO_REACH_PLAYS[:upto])
