"""FLY-9, Exact zero, overshoot, exemption (specs/fly.md §9): each test named after the rule it checks."""

from __future__ import annotations

import pytest

from fly_rules import Card, CardSet, fly
from tests.fly.helpers import (
    ACE_BONUS,
    ACE_BONUS_TRICKS,
    BASE,
    BASE_TRICKS,
    TURNED,
    TURNED_TRICKS,
    assert_refused,
    card,
    play,
    position,
    stand_all,
    trick_by_trick,
)


def test_fly_9_1_exact_zero_ends_the_match_at_once() -> None:
    """FLY-9.1, FLY-10.2, FLY-10.3: a record reaching exactly 0 wins at once; the fifth trick is never played
    and nobody pays a remise."""
    d = stand_all(position(BASE, records=(25, 1, 25)))
    states = trick_by_trick(d, BASE_TRICKS[:4])
    assert [s.records for s in states] == [(24, 1, 25), (23, 1, 25), (22, 1, 25), (22, 0, 25)]
    assert not states[2].is_over
    final = states[-1]
    assert final.is_over
    assert final.winner == 1
    assert final.tricks_taken == (3, 1, 0)
    assert final.hands[1] == CardSet.parse("KC")
    assert final.to_move is None
    assert final.legal_actions() == ()
    assert_refused(final, fly.Play(card("KC")), "FLY-10.3")
    standings = sorted((s for s in range(3) if s != final.winner), key=lambda s: final.records[s])
    assert [final.winner, *standings] == [1, 0, 2]


@pytest.mark.parametrize(("start", "after", "over"), [(3, 0, True), (6, 0, True), (7, 1, False)])
def test_fly_9_3_exemption_ace_bonus_overshoot_scores_zero(start: int, after: int, over: bool) -> None:
    """FLY-9.3, FLY-9.1, FLY-8.3: record 3, A♠ holder, first trick: 3 − 1 − 5 < 0 becomes 0 and he wins;
    from 6 he lands on 0 exactly; from 7 he stands at 1."""
    d = play(stand_all(position(ACE_BONUS, records=(start, 25, 25))), ACE_BONUS_TRICKS[0])
    assert d.records == (after, 25, 25)
    assert d.tricks_taken == (1, 0, 0)
    assert d.is_over is over
    assert d.winner == (0 if over else None)


def test_fly_9_2_overshoot_resets_in_end_of_deal_mode() -> None:
    """FLY-9.2, FLY-9.1: with stop_mode="end_of_deal" a record of 1 goes 0, then back to 25, then 24."""
    d = stand_all(position(BASE, records=(1, 25, 25), stop_mode="end_of_deal"))
    states = trick_by_trick(d, BASE_TRICKS)
    assert [s.records for s in states] == [(0, 25, 25), (25, 25, 25), (24, 25, 25), (24, 24, 25), (24, 23, 30)]
    assert not states[0].is_over
    assert states[-1].is_over
    assert states[-1].winner is None


def test_fly_9_2_overshoot_resets_with_larger_trick_value() -> None:
    """FLY-9.2, FLY-8.2: with trick_value=2 a record of 1 overshoots on its first trick and goes back to 25."""
    d = stand_all(position(BASE, records=(1, 25, 25), trick_value=2))
    states = trick_by_trick(d, BASE_TRICKS)
    assert [s.records for s in states] == [(25, 25, 25), (23, 25, 25), (21, 25, 25), (21, 23, 25), (21, 21, 30)]
    assert all(min(s.records) >= 0 for s in states)


@pytest.mark.parametrize(
    ("stop_mode", "records", "over_after"), [("end_of_deal", (0, 0, 30), 5), ("immediate", (0, 2, 25), 3)]
)
def test_fly_9_4_earliest_to_zero_wins(stop_mode: str, records: tuple[int, ...], over_after: int) -> None:
    """FLY-9.4, FLY-9.1: records (3, 2, 25); seat 0 reaches 0 with the third trick, seat 1 with the fifth:
    seat 0 wins (at once by default, at the end of the deal with stop_mode="end_of_deal")."""
    d = stand_all(position(BASE, records=(3, 2, 25), stop_mode=stop_mode, tie_break="earliest"))
    states = trick_by_trick(d, BASE_TRICKS[:over_after])
    assert [s.is_over for s in states] == [False] * (over_after - 1) + [True]
    assert states[-1].records == records
    assert states[-1].winner == 0


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


@pytest.mark.parametrize(("tie_break", "winners"), [("earliest", (2,)), ("shared", (2, 0))])
def test_fly_9_4_two_players_reach_zero_in_one_deal(tie_break: str, winners: tuple[int, ...]) -> None:
    """FLY-9.4: ``stop_mode="end_of_deal"``, records (2, 25, 3): seat 2 reaches 0 with the third trick,
    seat 0 with the fifth. The earlier (seat 2) wins although his seat number is higher; shared, both
    win, earliest first."""
    d = stand_all(position(TURNED, dealer=1, records=(2, 25, 3), stop_mode="end_of_deal", tie_break=tie_break))
    assert d.to_move == 2
    d = play(d, " ".join(TURNED_TRICKS))
    assert d.is_over
    assert d.records == (0, 30, 0)
    assert d.winner == 2
    assert d.winners == winners
