"""Each game's one action space, and the shared bot driver that answers for the position it is given."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.adapters import dreyfus_game, fly_game
from fly_rules.adapters.encoding import (
    STAND,
    BotDriver,
    action_ids,
    action_space,
    engine_action,
    legal_ids,
    observation_layout,
    observation_size,
)
from fly_rules.cards import CardSet
from fly_rules.notation.games import new_game


def _marked_positions(rules: dreyfus.DreyfusRules, seeds: range) -> list[tuple[Any, int]]:
    """Dreyfus exchange positions of seeded matches with every legal prefix of marks the seat could have made."""
    positions = []
    for seed in seeds:
        deal = new_game(rules, seed=seed).deal
        rng = random.Random(seed)
        marked = 0
        for _ in range(3):
            marks = [i for i in legal_ids(deal, marked) if i < STAND]
            if not marks:
                break
            marked |= 1 << rng.choice(marks)
            positions.append((deal, marked))
    return positions


@pytest.mark.parametrize("name", ["random", "rule-of-thumb", "monte-carlo"])
def test_drf_4_3_the_driver_answers_any_marks_with_a_legal_id(name: str) -> None:
    """DRF-4.3: asked about marks it did not make (random ones, its own plan being for another deal or for
    other marks), the driver's id is legal there; a bot that would rather keep its hand exchanges just
    the marked cards (``STAND``)."""
    rules = dreyfus.DreyfusRules()
    driver = BotDriver(name, rules, seed=1)
    positions = _marked_positions(rules, range(12))
    assert len(positions) > 12
    for deal, marked in positions:
        assert driver.next_id(deal, marked) in legal_ids(deal, marked), (deal, CardSet(marked))


def test_drf_4_3_a_plan_is_kept_only_for_its_own_deal_and_marks() -> None:
    """DRF-4.3: the driver gives a planned exchange mark by mark; asked about another deal in between, it
    answers for that deal, and its next answer about the first deal is still the plan's."""
    rules = dreyfus.DreyfusRules()
    first = dreyfus.new_match(rules, seed=4, dealer=0).deal
    other = dreyfus.new_match(rules, seed=9, dealer=0).deal
    driver = BotDriver("rule-of-thumb", rules)
    marked = 0
    ids = []
    for _ in range(13):  # at most twelve marks, then STAND
        step = driver.next_id(first, marked)
        assert driver.next_id(other, 0) in legal_ids(other, 0)
        if step == STAND:
            break
        ids.append(step)
        marked |= 1 << step
    assert step == STAND
    assert ids
    assert driver.next_id(first, 0) == ids[0]


@pytest.mark.parametrize("seed", range(8))
def test_fly_4_2_every_legal_action_has_one_id_and_back(seed: int) -> None:
    """FLY-4.2, FLY-4.3, FLY-3.3: in Fly every legal action is one id (an exchange too), distinct, and the
    id means that action again; the ids fit in the 90 of the space."""
    rules = fly.FlyRules(players=4, turnup_use="dealer_swap")
    match = fly.new_match(rules, seed=seed)
    rng = random.Random(seed)
    space = action_space("fly")
    while not match.is_over:
        deal = match.deal
        ids = legal_ids(deal)
        assert len(ids) == len(set(ids)) == len(deal.legal_actions())
        assert all(0 <= i < space.size for i in ids)
        for action in deal.legal_actions():
            (only,) = action_ids(deal, action)
            assert engine_action(deal, 0, only).action == action
        match = match.apply(rng.choice(deal.legal_actions()))


def test_the_spaces_and_layouts_each_game_defines() -> None:
    """The space sizes are the games' own constants; ``52`` is the stand in both; every observation layout
    adds up to the observation size."""
    assert action_space("fly").size == fly_game.NUM_ACTIONS == 90
    assert action_space("dreyfus").size == dreyfus_game.NUM_ACTIONS == 53
    assert fly_game.STAND == dreyfus_game.STAND == STAND == 52
    for rules in (fly.FlyRules(players=3), fly.FlyRules(players=7), dreyfus.DreyfusRules()):
        parts = observation_layout(rules)
        assert sum(p.width * (rules.players if p.per_seat else 1) for p in parts) == observation_size(rules)
    with pytest.raises(ValueError, match="not an action id of Fly"):
        fly_game.ACTIONS.action_of(0, 90)
    with pytest.raises(ValueError, match="past the hand"):
        fly_game.ACTIONS.action_of(CardSet.parse("7C 8C").mask, fly_game.EXCHANGE - 1 + 0b100)
    with pytest.raises(ValueError, match="past the hand"):
        fly_game.ACTIONS.action_of(CardSet.parse("7C 8C").mask, fly_game.SWAP + 4)
    with pytest.raises(ValueError, match="no Fly action id"):
        fly_game.ACTIONS.id_of(CardSet.parse("7C 8C").mask, fly.Exchange("9C"))
