"""FLY-2, Dealer and rotation (specs/fly.md §2): each test named after the rule it checks."""

from __future__ import annotations

from typing import Literal

import pytest

from fly_rules import RuleViolation, fly
from tests.fly.helpers import play_out_first_deal


def test_fly_2_1_first_dealer_by_lot_from_the_seed() -> None:
    """FLY-2.1: without a dealer the seed draws one (the same for the same seed); dealer=k fixes it."""
    rules = fly.FlyRules(players=4)
    drawn = [fly.new_match(rules, seed=seed).dealer for seed in range(30)]
    assert drawn == [fly.new_match(rules, seed=seed).dealer for seed in range(30)]
    assert set(drawn) <= {0, 1, 2, 3}
    assert len(set(drawn)) > 1
    assert fly.new_match(rules, seed=5, dealer=2).dealer == 2
    assert fly.new_match(rules, seed=5, dealer=2).deal.dealer == 2


@pytest.mark.parametrize(("direction", "next_dealer"), [("clockwise", 1), ("anticlockwise", 3)])
def test_fly_2_2_deal_passes_to_the_left(direction: Literal["clockwise", "anticlockwise"], next_dealer: int) -> None:
    """FLY-2.2, FLY-1.2: after a deal the next is dealt by the player to the last dealer's left."""
    m = fly.new_match(fly.FlyRules(players=4, direction=direction), seed=9, dealer=0)
    first = m.deal_number
    m = play_out_first_deal(m)
    assert not m.is_over  # nobody can write off 25 in one deal
    assert m.deal_number == first + 1
    assert m.dealer == next_dealer
    assert m.deal.dealer == next_dealer
    assert m.deal.phase is fly.Phase.EXCHANGE


def test_fly_2_1_rec_1_5_a_first_dealer_drawn_by_lot_from_a_seed_too_long() -> None:
    """FLY-2.1 with REC-1.5: a match whose first dealer is drawn by lot from a seed of 5,000 digits is
    refused as the seed's fault (REC-1.5), before the lot turns the seed into text (which Python refuses
    beyond 4,300 digits with a ValueError of its own)."""
    with pytest.raises(RuleViolation) as caught:
        fly.new_match(fly.FlyRules(), seed=10**5000)
    assert caught.value.rule == "REC-1.5"
