"""FLY-10, End of match and standings (specs/fly.md §10): each test named after the rule it checks."""

from __future__ import annotations

from fly_rules import Card, fly
from tests.fly.helpers import TIE_HANDS, TIE_PLAY, assert_refused, play_first_legal, position, stand_all


def test_fly_10_1_match_over_without_winner_after_max_deals() -> None:
    """FLY-10.1, FLY-10.3: with max_deals=1 the match is over after one deal with no winner."""
    m = play_first_legal(fly.new_match(fly.FlyRules(players=3, max_deals=1), seed=4, dealer=0), 100)
    assert m.is_over
    assert m.winner is None
    assert m.to_move is None
    assert m.legal_actions() == ()
    assert_refused(m, fly.Stand(), "FLY-10.3")


def test_fly_10_1_match_plays_until_a_winner() -> None:
    """FLY-10.1, FLY-10.2: a match without a limit ends when a record reaches 0, and that player wins."""
    m = play_first_legal(fly.new_match(fly.FlyRules(players=3, start_record=5), seed=8, dealer=0), 20_000)
    assert m.is_over
    assert m.winner is not None
    assert m.records[m.winner] == 0
    assert all(r > 0 for seat, r in enumerate(m.records) if seat != m.winner)


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
