"""One action space per game: a policy's ids mean the same action in the OpenSpiel game, the PettingZoo
environment, both Gymnasium environments and the batch engine (issue 28)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import fly_rules.adapters.openspiel  # noqa: F401 - registers python_fly and python_dreyfus
from fly_rules import batch, dreyfus, fly
from fly_rules.adapters.encoding import action_space, action_text, adapter_part, engine_action
from fly_rules.adapters.gymnasium import SeatEnv, batch_env
from fly_rules.adapters.pettingzoo import CardGameEnv


def _dealt(kind: Any, deal: Any) -> list[int]:
    """The chance outcomes that deal ``deal``'s hands (and Fly's trump card) in OpenSpiel's order."""
    left = [[card.index for card in hand] for hand in deal.hands]
    outcomes = []
    for index in range(kind.to_deal):
        seat = kind.receiver(index)
        outcomes.append(deal.trump_card.index if seat is None else left[seat].pop(0))
    return outcomes


def _undrawn(deal: Any) -> tuple[int, ...]:
    """The cards an exchange draws from now, top first: Fly's stock, Dreyfus's talon left."""
    if deal.game == "fly":
        stock: tuple[int, ...] = deal.exchanges.stock_indices
        return stock
    talon: tuple[int, ...] = deal.table.talon[12 - deal.talon_left :]
    return talon


@pytest.mark.parametrize(
    ("rules", "params"),
    [
        (fly.FlyRules(players=4, turnup_use="dealer_swap", max_deals=1), {"players": 4, "turnup_use": "dealer_swap"}),
        (fly.FlyRules(players=3, max_exchange=3, max_deals=1), {"players": 3, "max_exchange": 3}),
        (dreyfus.DreyfusRules(max_deals=1), {}),
        (dreyfus.DreyfusRules(exchange_mode="incremental", max_deals=1), {"exchange_mode": "incremental"}),
    ],
    ids=["fly-4-swap", "fly-3", "dreyfus", "dreyfus-incremental"],
)
@pytest.mark.parametrize("seed", range(3))
def test_a_policys_ids_mean_the_same_action_everywhere(rules: Any, params: dict[str, Any], seed: int) -> None:
    """The same deal is played in lockstep by a random policy through the PettingZoo environment, the
    OpenSpiel game (its chance outcomes the same cards), the batch engine and the Gymnasium single
    environment of the seat to move: at every decision the legal ids are the same in all four, each id
    reads as the same action, and after it the hands are the same [FLY-4.3] [DRF-4.3]."""
    game = rules.game
    zoo = CardGameEnv(rules)
    zoo.reset(seed=seed)
    seats = [SeatEnv(zoo, seat=s, opponents="random") for s in range(rules.players)]
    state = batch.from_scalar([zoo.match])
    engine = state.engine
    spiel = pyspiel.load_game(f"python_{game}", {**params, "dealer": zoo.match.deal.dealer})
    node = spiel.new_initial_state()
    kind = adapter_part(game, "OPEN_SPIEL").kind(spiel.rules, {"dealer": zoo.match.deal.dealer, "deal_number": 0})
    for card in _dealt(kind, zoo.match.deal):
        node.apply_action(card)
    size = action_space(game).size
    vector = batch_env(1, game, rules=rules)
    assert spiel.num_distinct_actions() == engine.num_actions == size
    spaces: list[Any] = [zoo.action_space("player_0"), seats[0].action_space, vector.single_action_space]
    assert [space.n for space in spaces] == [size] * 3
    rng = random.Random(seed)
    decisions = 0
    while not zoo.match.is_over:
        seat = zoo.match.to_move
        legal = list(np.flatnonzero(zoo.observe(f"player_{seat}")["action_mask"]))
        assert node.current_player() == seat
        assert node.legal_actions() == legal
        assert list(np.flatnonzero(state.legal_action_mask[0])) == legal
        assert list(np.flatnonzero(seats[seat].action_masks())) == legal
        assert not any(seats[other].action_masks().any() for other in range(rules.players) if other != seat)
        action = int(rng.choice(legal))
        deal, marked = zoo.match.deal, zoo.marked
        meaning = engine_action(deal, marked, action)
        assert node.action_to_string(seat, action) == action_text(deal, marked, action)
        assert engine.action_to_scalar(state, 0, action) == (None if meaning.kind == "mark" else meaning.action)
        undrawn = _undrawn(deal)
        zoo.step(action)
        state = engine.step(state, np.array([action]))
        node.apply_action(action)
        for card in undrawn:
            if not node.is_chance_node():
                break
            node.apply_action(card)
        assert node.deal.hand_masks == zoo.match.deal.hand_masks
        assert tuple(int(h) for h in state.hands[0]) == zoo.match.deal.hand_masks
        decisions += 1
    assert node.is_terminal()
    assert state.terminated[0]
    assert batch.to_scalar(state, 0) == zoo.match
    assert decisions > 10
