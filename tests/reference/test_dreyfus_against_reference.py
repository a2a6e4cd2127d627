"""The Dreyfus engine against the naive reference model (tests/reference/dreyfus_reference.py) on random matches.

At every step of random trajectories under random options, the seat to move, the legal actions,
both records, the tricks (the current one and those completed) and the match's end agree.
"""

from __future__ import annotations

import random

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules.dreyfus import DreyfusRules, new_match, purchase_record
from tests.dreyfus.strategies import OPTIONS, rules_options
from tests.reference.dreyfus_reference import RefMatch


def compare_match(rules: DreyfusRules, seed: int, dealer: int | None, choice_seed: int) -> int:
    """Play one random match on both models, comparing after every action; return the actions taken."""
    rng = random.Random(choice_seed)
    engine = new_match(rules, seed=seed, dealer=dealer)
    ref = RefMatch(rules, seed, dealer)
    steps = 0
    while True:
        assert engine.to_move == ref.to_move
        assert engine.upper == tuple(ref.upper)
        assert engine.lower == tuple(ref.lower)
        assert engine.tricks_taken == tuple(ref.taken)
        assert engine.trick == tuple(ref.trick)
        assert engine.deal.tricks == tuple(ref.completed)
        assert engine.is_over == ref.over
        assert engine.deals_played == ref.deals_played
        assert engine.contract == ref.trump
        assert engine.deal.bought == tuple(ref.bought)
        for seat in range(3):  # DRF-10.2: a purchase recorded late, for manual score-keeping
            assert purchase_record(rules, engine.deal.bought[seat], False) == ref.purchase_record(seat)
        if engine.is_over:
            assert engine.winner == ref.winner
            assert engine.settlement() == tuple(ref.settlement())
            return steps
        assert engine.winner == ref.current_winner(False)
        mine = engine.legal_actions()
        theirs = ref.legal()
        assert len(mine) == len(theirs)
        assert set(mine) == set(theirs)
        action = theirs[rng.randrange(len(theirs))]
        engine = engine.apply(action)
        ref.apply(action)
        steps += 1


@settings(max_examples=40)
@given(rules_options(max_deals=6), st.integers(0, 10**6), st.sampled_from([None, 0, 1, 2]), st.integers(0, 10**6))
def test_drf_6_2_engine_agrees_with_the_reference_model(
    rules: DreyfusRules, seed: int, dealer: int | None, choice_seed: int
) -> None:
    """DRF-6.2: on random matches under random options, legal actions, records, winner and payments all agree."""
    compare_match(rules, seed, dealer, choice_seed)


def test_drf_8_1_default_rules_whole_matches_agree_with_the_reference() -> None:
    """DRF-8.1: a few whole matches under the default rules agree with the reference to the last payment."""
    total = sum(compare_match(DreyfusRules(max_deals=40), seed, None, seed) for seed in range(3))
    assert total > 300


def test_drf_1_1_the_cross_check_draws_every_option() -> None:
    """DRF-1.1: the random rules of the cross-check vary every option of DreyfusRules (the display-only ones
    too), so no option escapes the reference; the reference reads each one it models from the rules."""
    fields = {field.alias for field in attrs.fields(DreyfusRules) if field.init}
    assert {*OPTIONS, "max_deals"} == fields
