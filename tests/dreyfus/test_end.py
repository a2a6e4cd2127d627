"""Section 8 of specs/dreyfus.md: the end of the match and the winner."""

from __future__ import annotations

import pytest

from fly_rules import RuleViolation, Suit
from fly_rules.dreyfus import DreyfusRules, new_match

from .helpers import deal, layout
from .positions import two_reach, worked_example_played


def test_drf_8_1_the_match_ends_but_the_deal_is_played_out() -> None:
    """DRF-8.1: once seat 0 reaches ten below the winner is known, yet the deal goes on to its twelfth trick."""
    decided = next(k for k in range(0, 37, 3) if two_reach(upto=k).winner is not None)
    before, s = two_reach(upto=decided - 3), two_reach(upto=decided)
    assert before.lower[0] == 9
    assert s.lower[0] == 10
    assert s.winner == 0
    assert decided < 36
    assert not s.is_over
    assert len(s.legal_actions()) > 0
    assert worked_example_played().is_over


def test_drf_8_1_a_match_ends_after_the_deal_where_ten_is_reached() -> None:
    """DRF-8.1: a played match ends with some lower record at ten or more and all twelve tricks played."""
    m = new_match(DreyfusRules(), seed=4, dealer=0)
    while not m.is_over:
        m = m.apply(m.legal_actions()[-1])
    assert max(m.lower) >= 10
    assert m.winner is not None
    assert m.lower[m.winner] >= 10
    assert sum(m.deal.tricks_taken) == 12
    assert m.to_move is None
    assert m.legal_actions() == ()


def test_drf_8_1_a_deal_cannot_start_after_the_target_is_reached() -> None:
    """DRF-8.1: a deal whose lower records already hold ten is refused: that match is over."""
    from fly_rules.dreyfus import new_deal

    hands, talon = layout()
    with pytest.raises(RuleViolation, match=r"^DRF-8.1: seat 1 has already reached 10 below$") as caught:
        new_deal(DreyfusRules(), hands, talon, Suit.SPADES, 0, lower=(3, 10, 0))
    assert caught.value.offending == (3, 10, 0)
    assert deal(lower=(0, 10, 0), rules=DreyfusRules(target_lower=11)).lower == (0, 10, 0)


def test_drf_8_2_edge_7_the_first_to_reach_ten_wins() -> None:
    """DRF-8.2 (edge case 7): seat 0 reaches ten first; seat 1 reaching eleven later does not change the winner."""
    s = two_reach()
    assert s.reached == (0, 1)
    assert s.lower == (10, 11, 0)
    assert s.winner == 0


def test_drf_8_2_highest_lower_option_decides_at_the_end() -> None:
    """DRF-8.2: under "highest_lower" nobody wins until the deal ends, then the highest lower record wins."""
    rules = DreyfusRules(winner_rule="highest_lower")
    assert two_reach(rules, upto=35).winner is None
    assert two_reach(rules).winner == 1


def test_drf_8_3_max_deals_caps_a_match_without_a_winner() -> None:
    """DRF-8.3: with a cap of one deal the match stops after it with no winner, and nobody pays."""
    m = new_match(DreyfusRules(max_deals=1), seed=8, dealer=2)
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    assert m.deals_played == 1
    assert m.winner is None
    assert m.settlement() == (0, 0, 0)
    assert m.previous_deal is None  # the one deal played is the match's last deal, not a previous one
    two = new_match(DreyfusRules(max_deals=2), seed=8, dealer=2)
    while not two.is_over:
        two = two.apply(two.legal_actions()[0])
    assert two.deals_played == 2
    assert two.previous_deal is not None
    assert two.previous_deal.deal_number == 0
    assert (two.deal.deal_number, two.deal.is_over) == (1, True)


def test_drf_8_4_a_new_match_starts_from_zero_at_spades() -> None:
    """DRF-8.4: a new match has every record at zero, no deal played and spades trump."""
    m = new_match(DreyfusRules(), seed="x", dealer=1)
    assert (m.upper, m.lower, m.deals_played, m.contract) == ((0, 0, 0), (0, 0, 0), 0, Suit.SPADES)
    assert m.previous_deal is None
    assert m.tricks_taken == (0, 0, 0)
    assert "seed='x'" in repr(m)
