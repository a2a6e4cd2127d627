"""Worked cases found by mutation testing (issue 13): the rule IDs of refused plays (the overtrump duty
is an option of DRF-6.3, so its refusals cite DRF-6.3 and name the overtrump duty), the first lead by
the first buyer counting round past seat 2, and a revoker below par."""

from __future__ import annotations

from typing import Literal

import pytest

from fly_rules import CardSet, RuleViolation, Suit
from fly_rules.dreyfus import DreyfusRules, Exchange, Play, Stand
from fly_rules.engine import Phase

from .helpers import deal, play_out, run, stand_all

# Seat 2 holds 3♥ and A♥ and no spade; seat 0 leads 5♠ and seat 1 ruffs with 4♥.
ABLE = (("3D", "AH"), ("4D", "3H"))


@pytest.mark.parametrize(
    ("trump_duty", "card", "rule", "duty"),
    [
        ("overtrump", "3H", "DRF-6.3", "must beat the highest trump in the trick"),
        ("overtrump", "5D", "DRF-6.3", "must play a trump when void in the suit led"),
        ("overtrump_or_free", "3H", "DRF-6.3", "must beat the highest trump in the trick"),
        ("overtrump_or_free", "5D", "DRF-6.3", "must beat the highest trump in the trick"),
    ],
)
def test_drf_6_3_overtrump_refusal_cites_drf_6_3_and_names_the_overtrump_duty(
    trump_duty: str, card: str, rule: str, duty: str
) -> None:
    """DRF-6.3: under the overtrump duty a low trump (or, with ``overtrump_or_free``, a plain card) is
    refused as a breach of DRF-6.3's overtrump duty, not of DRF-6.4 (which only forbids a duty to head)."""
    s = run(stand_all(deal(*ABLE, contract=Suit.HEARTS, rules=DreyfusRules(trump_duty=trump_duty))), "5S", "4H")
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play(card))
    assert caught.value.rule == rule
    assert str(caught.value) == f"{rule}: {duty} (5S led, {card} played)"


@pytest.mark.parametrize(
    ("dealer", "buyer", "leader"),
    [(0, 0, 0), (0, 2, 2), (1, 1, 1), (1, 0, 0), (2, 1, 1), (2, 2, 2)],
)
def test_drf_5_1_first_actual_buyer_counts_round_from_eldest(dealer: int, buyer: int, leader: int) -> None:
    """DRF-5.1 (``first_lead="first_actual_buyer"``): when only ``buyer`` buys, he leads, counting in
    turn from eldest round past seat 2 (dealer 0: eldest 1, then 2, then 0)."""
    s = deal(dealer=dealer, rules=DreyfusRules(first_lead="first_actual_buyer"))
    while s.phase is Phase.EXCHANGE:
        seat = s.to_move
        assert seat is not None
        lowest = min(s.hands[seat])  # a фоска: every hand of the base layout starts with its three
        s = s.apply(Exchange(CardSet.of([lowest])) if seat == buyer else Stand())
    assert s.bought[buyer] == 1
    assert s.to_move == leader


@pytest.mark.parametrize(("adds", "upper"), [(True, 14), (False, 10)])
def test_drf_10_1_revoker_below_par_adds_his_undertricks(adds: bool, upper: int) -> None:
    """DRF-10.1: seat 1 revokes (5♥ on the 5♠ lead while holding A♠) and takes no trick; with
    ``revoke_adds_undertricks`` he writes the 10 penalty and his 4 undertricks above, else only 10."""
    rules = DreyfusRules(revoke_mode="penalize", revoke_adds_undertricks=adds)
    s = play_out(run(stand_all(deal(("AS", "3H"), contract=Suit.DIAMONDS, rules=rules)), "5S", "5H", "3D"))
    assert s.revokes == (0, 1, 0)
    assert s.tricks_taken == (0, 0, 12)
    assert s.upper == (4, upper, 0)
    assert s.lower == (0, 0, 8)


def test_drf_6_1_and_6_2_refusals_say_what_is_wrong_and_carry_the_card() -> None:
    """DRF-6.1, DRF-6.2: a card not held, and a card breaking the duty to follow, are refused with the
    rule, a message saying why, and the card played."""
    s = run(stand_all(deal(("3D", "3H"), contract=Suit.HEARTS)), "5S")
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play("3C"))
    assert str(caught.value) == "DRF-6.1: the card is not in the player's hand"
    assert caught.value.offending in (Play("3C"), CardSet.parse("3C").lowest())
    s = run(stand_all(deal(("AS", "3H"))), "5S")
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play("4H"))
    assert str(caught.value) == "DRF-6.2: must follow suit (5S led, 4H played)"
    assert caught.value.offending in (Play("4H"), CardSet.parse("4H").lowest())


@pytest.mark.parametrize(("per", "upper"), [("deal", 15), ("occurrence", 25)])
def test_drf_10_1_revoke_penalty_once_a_deal_or_per_revoke_on_top_of_the_record(
    per: Literal["deal", "occurrence"], upper: int
) -> None:
    """DRF-10.1: seat 1, already on 5 above, revokes twice (hearts on spade leads while holding A♠
    and K♠) and ends above par: he writes 10 once a deal, or 10 for each revoke, on top of his 5."""
    rules = DreyfusRules(revoke_mode="penalize", revoke_penalty_per=per)
    s = stand_all(deal(("AS", "3H"), ("KS", "4H"), contract=Suit.CLUBS, rules=rules, upper=(0, 5, 0)))
    s = play_out(run(s, "5S", "5H", "3D", "6S", "6H", "4D"))
    assert s.revokes == (0, 2, 0)
    assert s.tricks_taken[1] >= 4
    assert s.upper[1] == upper
