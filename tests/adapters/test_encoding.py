"""The shared encoding's bot driver answers for the position it is given, never from a stale plan."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.adapters.encoding import MARK, STAND, BotDriver, legal_ids
from fly_rules.cards import CardSet
from fly_rules.notation.games import new_game


def _marked_positions(rules: fly.FlyRules | dreyfus.DreyfusRules, seeds: range) -> list[tuple[Any, int]]:
    """Exchange positions of seeded matches with every legal prefix of marks the seat could have made."""
    positions = []
    for seed in seeds:
        deal = new_game(rules, seed=seed).deal
        rng = random.Random(seed)
        marked = 0
        for _ in range(3):
            marks = [i for i in legal_ids(deal, marked) if i >= MARK]
            if not marks:
                break
            marked |= 1 << (rng.choice(marks) - MARK)
            positions.append((deal, marked))
    return positions


@pytest.mark.parametrize("name", ["random", "rule-of-thumb", "monte-carlo"])
@pytest.mark.parametrize("rules", [fly.FlyRules(players=5), dreyfus.DreyfusRules()], ids=["fly", "dreyfus"])
def test_fly_4_3_drf_4_3_the_driver_answers_any_marks_with_a_legal_id(
    name: str, rules: fly.FlyRules | dreyfus.DreyfusRules
) -> None:
    """FLY-4.3, DRF-4.3: asked about marks it did not make (random ones, its own plan being for another
    deal or for other marks), the driver's id is legal there; a bot that would rather keep its hand
    exchanges just the marked cards (``STAND``)."""
    driver = BotDriver(name, rules, seed=1)
    positions = _marked_positions(rules, range(12))
    assert len(positions) > 12
    for deal, marked in positions:
        assert driver.next_id(deal, marked) in legal_ids(deal, marked), (deal, CardSet(marked))


def test_fly_4_3_a_plan_is_kept_only_for_its_own_deal_and_marks() -> None:
    """FLY-4.3: the driver gives a planned exchange mark by mark; asked about another deal in between,
    it answers for that deal, and its next answer about the first deal is still the plan's."""
    rules = fly.FlyRules(players=3)
    first = fly.new_match(rules, seed=4).deal
    other = fly.new_match(rules, seed=9).deal
    driver = BotDriver("rule-of-thumb", rules)
    marked = 0
    ids = []
    for _ in range(6):  # at most five marks, then STAND
        step = driver.next_id(first, marked)
        assert driver.next_id(other, 0) in legal_ids(other, 0)
        if step == STAND:
            break
        ids.append(step)
        marked |= 1 << (step - MARK)
    assert step == STAND
    assert ids
    assert driver.next_id(first, 0) == ids[0]
