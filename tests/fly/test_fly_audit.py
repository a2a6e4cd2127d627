"""Regression tests for the source audit of issue 23: each reproducer named after the rule it checks,
through the public API only (positions built with ``fly.new_deal``)."""

from __future__ import annotations

from fly_rules import Card, fly
from tests.fly.test_fly_edge_cases import plays, position, stand_all

# The audit's reproducer: records (3, 25, 2), dealer 2; seat 2 takes the first trick and reaches 0,
# seat 0 takes the fourth and fifth and reaches 0 later.
TIE_HANDS = ("7C 7D KS AH KH", "8C 8D 8S 9S TS", "AC AD 7S JS QS")
TIE_PLAY = "7C 8C AC AD 7D 8D 7S KS 8S AH 9S JS KH TS QS"


def test_fly_10_2_fly_9_4_shared_winners_are_ranked_by_who_reached_zero_first() -> None:
    """FLY-10.2 with FLY-9.4: under ``tie_break="shared"`` the co-winners lead the standings in the
    order they reached 0 (``winners``' order), not by seat number."""
    d = stand_all(position(TIE_HANDS, "9H", records=(3, 25, 2), stop_mode="end_of_deal", tie_break="shared"))
    for token in TIE_PLAY.split():
        d = d.apply(fly.Play(Card.parse(token)))
    assert d.is_over
    assert (d.winners, d.winner, d.records) == ((2, 0), 2, (0, 30, 0))
    # A seeded match where the same happens: seat 2 reaches 0 before seat 0 in its third deal.
    rules = fly.FlyRules(players=3, start_record=2, stop_mode="end_of_deal", tie_break="shared")
    m = fly.new_match(rules, seed=0, dealer=0)
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    assert (m.winners, m.winner, m.records) == ((2, 0), 2, (0, 2, 0))
    assert m.standings() == (2, 0, 1)


def test_fly_10_2_earliest_winner_first_then_records_then_seat() -> None:
    """FLY-10.2: with ``tie_break="earliest"`` the one winner leads; equal records keep seat order."""
    rules = fly.FlyRules(players=3, start_record=2, stop_mode="end_of_deal")
    m = fly.new_match(rules, seed=0, dealer=0)
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    assert (m.winners, m.records) == ((2,), (0, 2, 0))
    assert m.standings() == (2, 0, 1)


def test_fly_6_3_fly_7_5_led_trump_ace_must_be_headed_without_the_ace_of_spades_privilege() -> None:
    """FLY-6.3, FLY-7.5, FLY-7.1, FLY-1.4: spades trump (so the A♠ is an ordinary trump, FLY-7.1) and
    ``ace_rank="below_jack"``: the A♠ led is a low trump, and with ``must_head_trick`` seat 1 must head
    it with the K♠; the 8♠ follows suit but does not head the trick."""
    d = stand_all(
        position(
            ("AS 7C 8C 9C TC", "KS 8S 7D 8D 9D", "JH 9H 8H TH QH"), "7S", ace_rank="below_jack", must_head_trick=True
        )
    )
    assert not d.table.privileged
    d = d.apply(fly.Play(Card.parse("AS")))
    assert d.legal_actions() == plays("KS")


def test_fly_6_1_no_leader_before_play() -> None:
    """FLY-6.1 (``FlyDeal.leader``): -1 until the play begins, then the eldest hand, left of the dealer."""
    d = position(TIE_HANDS, "9H", dealer=1)
    assert d.phase is fly.Phase.EXCHANGE
    assert d.leader == -1
    d = stand_all(d)
    assert (d.phase, d.leader, d.to_move) == (fly.Phase.PLAY, 2, 2)
