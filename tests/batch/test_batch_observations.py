"""The batch's observations are the adapters' encoding of the scalar engine's view (issue 24)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fly_rules import batch
from fly_rules.adapters.encoding import observation_size, write_observation


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("fly", {"players": 4}),
        ("fly", {"players": 6, "turnup_use": "dealer_swap", "declaration_mode": "fold_round_then_exchange"}),
        ("dreyfus", {}),
        ("dreyfus", {"reveal_discards": True, "reveal_leftover_talon": True, "exchange_mode": "incremental"}),
    ],
)
def test_observation_is_the_encoding_of_the_seat_to_move(game: str, options: dict[str, Any]) -> None:
    """After every step, each game's observation is what ``write_observation`` makes of its seat to
    move's view (and, in Dreyfus, the cards it has marked) [FLY-5.1] [DRF-11.1]."""
    env = batch.make(game, 6, match=True, max_deals=2, **options)
    assert env.observation_size == observation_size(env.rules)
    state = env.init(21)
    rng = np.random.default_rng(4)
    steps = 0
    while not state.terminated.all():
        observation = state.observation
        for i in range(env.batch_size):
            seat = int(state.current_player[i])
            if seat < 0:
                continue
            view = batch.to_scalar(state, i).view(seat)
            marked = int(state.marked[i]) if game == "dreyfus" else 0
            expected = np.zeros(env.observation_size, np.float32)
            write_observation(view, marked, env.rules, expected)
            assert np.array_equal(observation[i], expected), (i, steps, np.flatnonzero(observation[i] != expected))
        state = env.step(state, env.sample_legal(state, rng))
        steps += 1
    assert steps > 20
