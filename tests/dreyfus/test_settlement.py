"""Section 9 of specs/dreyfus.md: settlement, with the research note's worked example (§5)."""

from __future__ import annotations

import pytest

from fly_rules import RuleViolation
from fly_rules.dreyfus import DreyfusRules, new_match, settle

from .positions import worked_example_played


def test_drf_9_1_worked_example_section_5() -> None:
    """DRF-9.1: in the note's §5 example B pays 17 and C pays 12; A, who reached ten, receives 29."""
    s = worked_example_played()
    assert s.bought == (2, 0, 3)
    assert s.tricks_taken == (6, 3, 3)
    assert (s.upper, s.lower, s.winner) == ((8, 10, 9), (10, 3, 7), 0)
    assert settle(DreyfusRules(), s.upper, s.lower, s.winner) == (29, -17, -12)


def test_drf_9_1_worked_example_other_readings() -> None:
    """DRF-9.1: net of the winner's upper B pays 9 and C 4; pairwise, B also pays C 1."""
    s = worked_example_played()
    assert settle(DreyfusRules(settlement="net_of_winner_upper"), s.upper, s.lower, 0) == (13, -9, -4)
    assert settle(DreyfusRules(settlement="pairwise"), s.upper, s.lower, 0) == (13, -10, -3)


def test_drf_9_1_edge_8_shortfall_floored_at_zero() -> None:
    """DRF-9.1 (edge case 8): a loser also on ten or more below pays no shortfall (a negative one if unfloored)."""
    assert settle(DreyfusRules(), (0, 5, 2), (11, 12, 0), 0) == (17, -5, -12)
    assert settle(DreyfusRules(shortfall_floor_zero=False), (0, 5, 2), (11, 12, 0), 0) == (15, -3, -12)


def test_drf_9_1_settlement_of_a_played_match_is_zero_sum() -> None:
    """DRF-9.1: a played match pays the winner what the losers pay; asking before the end is refused."""
    m = new_match(DreyfusRules(), seed=21, dealer=0)
    m = m.apply(m.legal_actions()[0])
    with pytest.raises(RuleViolation, match="^DRF-9.1: the match is not over; nobody pays yet$") as caught:
        m.result_lines()
    assert caught.value.offending == 0  # the deals played so far
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    pay = m.settlement()
    assert m.result_lines() == {"upper": m.upper, "lower": m.lower, "settlement": pay}
    assert sum(pay) == 0
    assert pay[m.winner] > 0  # type: ignore[index]


def test_drf_9_2_the_winners_own_upper_does_not_count() -> None:
    """DRF-9.2: under the default settlement changing the winner's upper record changes nothing."""
    rules = DreyfusRules()
    assert settle(rules, (8, 10, 9), (10, 3, 7), 0) == settle(rules, (80, 10, 9), (10, 3, 7), 0)
    assert settle(DreyfusRules(settlement="pairwise"), (8, 10, 9), (10, 3, 7), 0) != settle(
        DreyfusRules(settlement="pairwise"), (80, 10, 9), (10, 3, 7), 0
    )
