"""Regression tests for the source audit of issue 23: each reproducer named after the rule it checks,
through the public API only (positions built with ``fly.new_deal``)."""

from __future__ import annotations

import pytest

from fly_rules import Card, CardSet, RuleViolation, fly
from tests.fly.test_fly_edge_cases import assert_refused, plays, position, stand_all

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
    """FLY-6.1 (``FlyDeal.leader``): None until the play begins, then the eldest hand, left of the dealer."""
    d = position(TIE_HANDS, "9H", dealer=1)
    assert d.phase is fly.Phase.EXCHANGE
    assert d.leader is None
    d = stand_all(d)
    assert (d.phase, d.leader, d.to_move) == (fly.Phase.PLAY, 2, 2)


# Hearts trump (turn-up 9H); seat 0 leads 9C, seat 1 holds the KC but may trump.
REVOKE_HANDS = ("9C 7D 8D 9D TD", "KC 8H 7S 8S 9S", "7C 8C TC JC QC")


def test_fly_11_1_adjudication_lists_only_lawful_cards_but_accepts_a_revoke() -> None:
    """FLY-11.1 (Decision: revokes are not among the legal actions): under ``revoke_mode="penalize"``
    seat 1's legal actions are his club alone; his trump is accepted as a revoke all the same, costs
    the remise at once, and the trick goes to the best lawful card (FLY-11.2)."""
    d = stand_all(position(REVOKE_HANDS, "9H", revoke_mode="penalize"))
    d = d.apply(fly.Play(Card.parse("9C")))
    assert d.legal_actions() == plays("KC")
    d = d.apply(fly.Play(Card.parse("8H")))
    assert d.records == (25, 30, 25)
    d = d.apply(fly.Play(Card.parse("QC")))
    assert d.tricks_taken == (0, 0, 1)


def test_fly_4_6_two_round_declarations_exchange_then_a_stand_only_confirmation() -> None:
    """FLY-4.6 (Decision) with FLY-4.1: under ``may_fold_after_exchange`` and the two-round declarations a
    player who exchanged in the exchange round is asked once more, and may only stand; a fold is refused
    under FLY-4.6, and his Stand passes the turn on."""
    d = position(REVOKE_HANDS, "9H", declaration_mode="fold_round_then_exchange", may_fold_after_exchange=True).apply(
        fly.Stand()
    )
    d = d.apply(fly.Stand()).apply(fly.Stand())  # the fold round: everyone plays
    assert d.to_move == 0
    d = d.apply(fly.Exchange(CardSet.parse("7D 8D")))
    assert d.to_move == 0
    assert d.legal_actions() == (fly.Stand(),)
    assert_refused(d, fly.Fold(), "FLY-4.6")
    d = d.apply(fly.Stand())
    assert d.to_move == 1
    assert fly.Fold() not in d.legal_actions()
    # The same exchange in the combined mode is followed by a real choice.
    c = position(REVOKE_HANDS, "9H", may_fold_after_exchange=True).apply(fly.Exchange(CardSet.parse("7D 8D")))
    assert (c.to_move, tuple(c.legal_actions())) == (0, (fly.Stand(), fly.Fold()))


@pytest.mark.parametrize(
    ("mode", "tricks"),
    [("top_trump", (5, 0, 0)), ("led_trump_ace", (0, 0, 5)), ("none", (0, 0, 5))],
)
def test_fly_12_1_fly_7_1_top_trump_ace_of_spades_counts_as_a_trump_for_the_flush(
    mode: str, tricks: tuple[int, int, int]
) -> None:
    """FLY-12.1 (Decision) with FLY-7.1: under ``top_trump`` four trumps and the A♠ are a flush in trumps and
    win before seat 2's plain club flush; in the other modes the A♠ is a spade there, no flush."""
    hands = ("AS 7H 8H TH JH", "7D 8D 9D TD 7S", "7C 8C 9C TC JC")
    d = stand_all(position(hands, "9H", flush_wins=True, ace_of_spades_mode=mode))
    assert d.is_over
    assert d.tricks_taken == tricks


@pytest.mark.parametrize(("mode", "flush"), [("top_trump", False), ("led_trump_ace", True)])
def test_fly_12_1_top_trump_ace_of_spades_is_no_spade_for_a_flush(mode: str, flush: bool) -> None:
    """FLY-12.1 (Decision): under ``top_trump`` (hearts trump) the A♠ with four other spades is not a flush; in
    the default mode it is one."""
    hands = ("AS KS QS JS TS", "7D 8D 9D TD 7H", "7C 8C 9C 8H JC")
    d = stand_all(position(hands, "9H", flush_wins=True, ace_of_spades_mode=mode))
    assert d.is_over is flush
    assert d.tricks_taken == ((5, 0, 0) if flush else (0, 0, 0))


@pytest.mark.parametrize(("ace_bonus", "record", "over"), [(5, 0, True), (0, 25, False)])
def test_fly_9_3_fly_8_2_exemption_when_the_trick_alone_overshoots(ace_bonus: int, record: int, over: bool) -> None:
    """FLY-9.3 with FLY-8.2: ``trick_value=2``, the A♠ holder on 1 takes his first trick: the trick alone
    overshoots, and with the bonus he still lands on 0 and wins; with no bonus (``ace_bonus=0``) it is an
    ordinary overshoot and the record goes back to the start (FLY-9.2)."""
    hands = ("AH AS 7C 8C 9C", "7H 7D 8D 9D TD", "8H JC QC KC AC")
    d = stand_all(position(hands, "9H", records=(1, 1, 25), trick_value=2, ace_bonus=ace_bonus))
    for token in ("AH", "7H", "8H"):
        d = d.apply(fly.Play(Card.parse(token)))
    assert d.records[0] == record
    assert d.is_over is over


def test_fly_2_1_rec_1_5_a_first_dealer_drawn_by_lot_from_a_seed_too_long() -> None:
    """FLY-2.1 with REC-1.5: a match whose first dealer is drawn by lot from a seed of 5,000 digits is
    refused as the seed's fault (REC-1.5), before the lot turns the seed into text (which Python refuses
    beyond 4,300 digits with a ValueError of its own)."""
    with pytest.raises(RuleViolation) as caught:
        fly.new_match(fly.FlyRules(), seed=10**5000)
    assert caught.value.rule == "REC-1.5"
