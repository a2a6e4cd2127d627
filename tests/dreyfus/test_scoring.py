"""Section 7 of specs/dreyfus.md: par four, overtricks below, undertricks above."""

from __future__ import annotations

from fly_rules.dreyfus import DreyfusRules
from fly_rules.dreyfus.scoring import end_of_deal, scores_below

from .helpers import deal, play_out, stand_all
from .positions import worked_example, worked_example_played


def test_drf_7_1_four_tricks_write_nothing() -> None:
    """DRF-7.1: a player with exactly four tricks writes nothing either way."""
    rules = DreyfusRules()
    assert end_of_deal(rules, (1, 2, 3), (4, 5, 6), (4, 4, 4), (0, 0, 0)) == ((1, 2, 3), (4, 5, 6))
    assert not scores_below(rules, 4, False)
    assert scores_below(rules, 5, False)
    assert end_of_deal(DreyfusRules(par_tricks=3), (0, 0, 0), (0, 0, 0), (3, 4, 5), (0, 0, 0))[0] == (0, 0, 0)


def test_drf_7_2_each_overtrick_is_written_below_as_it_is_taken() -> None:
    """DRF-7.2: the fifth trick adds one below at once, before the deal ends."""
    s = stand_all(deal())
    lowers = []
    while not s.is_over:
        s = s.apply(s.legal_actions()[0])
        if not s.trick:
            lowers.append(s.lower[0])
    assert lowers[:6] == [0, 0, 0, 0, 1, 2]


def test_drf_7_3_undertricks_above_at_the_end_of_the_deal() -> None:
    """DRF-7.3: three tricks add one above, written only when the deal ends."""
    s = worked_example_played(upto=35)
    assert s.upper == (8, 9, 8)
    s = worked_example_played()
    assert s.tricks_taken == (6, 3, 3)
    assert s.upper == (8, 10, 9)
    assert s.lower == (10, 3, 7)


def test_drf_7_3_edge_9_zero_tricks_four_above_twelve_tricks_eight_below() -> None:
    """DRF-7.3 (edge case 9): twelve tricks score eight below, no cap; no trick scores four above."""
    s = play_out(stand_all(deal()))
    assert s.tricks_taken == (12, 0, 0)
    assert s.lower == (8, 0, 0)
    assert s.upper == (0, 4, 4)


def test_drf_7_3_points_below_equal_points_above_for_tricks() -> None:
    """DRF-7.3: without a revoke, the points written below in a deal equal those written above for tricks."""
    before = worked_example()
    after = worked_example_played()
    below = sum(after.lower) - sum(before.lower)
    above = sum(after.upper) - sum(before.upper)
    assert below == above == 2
