"""The batch's observations are the adapters' encoding of the scalar engine's view, for any seat, seats
absolute or counted from the observer (issues 24 and 28)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fly_rules import batch
from fly_rules.adapters.encoding import OBSERVATION_HIGH, observation_size, write_observation


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("fly", {"players": 4}),
        ("fly", {"players": 6, "turnup_use": "dealer_swap", "declaration_mode": "fold_round_then_exchange"}),
        ("fly", {"players": 5, "direction": "anticlockwise"}),
        ("dreyfus", {}),
        ("dreyfus", {"reveal_discards": True, "reveal_leftover_talon": True, "exchange_mode": "incremental"}),
    ],
)
def test_observation_is_the_encoding_of_every_seat(game: str, options: dict[str, Any]) -> None:
    """After every step, ``observe(state, seat)`` of each game is what ``write_observation`` makes of that
    seat's view (with, in Dreyfus, the cards it has marked when it is to move), absolute and relative;
    ``state.observation`` is the seat to move's [FLY-5.1] [DRF-11.1]."""
    env = batch.make(game, 6, match=True, max_deals=2, **options)
    assert env.observation_size == observation_size(env.rules) == env.observation_shape[0]
    state = env.init(21)
    rng = np.random.default_rng(4)
    steps = 0
    while not state.terminated.all():
        for seat in range(env.num_players):
            for relative in (False, True):
                observed = env.observe(state, seat, relative=relative)
                for i in range(env.batch_size):
                    if state.terminated[i]:
                        continue
                    view = batch.to_scalar(state, i).view(seat)
                    marked = int(state.marked[i]) if game == "dreyfus" and state.current_player[i] == seat else 0
                    expected = np.zeros(env.observation_size, np.float32)
                    write_observation(view, marked, env.rules, expected, relative=relative)
                    assert np.array_equal(observed[i], expected), (i, seat, relative, steps)
        movers = np.maximum(state.current_player, 0)
        assert np.array_equal(state.observation, env.observe(state, movers))
        state = env.step(state, env.sample_legal(state, rng))
        steps += 1
    assert steps > 20


def test_observe_refuses_a_seat_off_the_table() -> None:
    """``observe`` takes a seat, or one seat per game."""
    env = batch.make("fly", 2, players=3)
    state = env.init(1)
    for player in (3, -1, np.array([0, 1, 2]), 1.5, True):
        with pytest.raises(ValueError, match="player must be a seat 0 to 2"):
            env.observe(state, player)


def test_a_record_past_the_observation_s_bound_is_seen_at_the_bound() -> None:
    """Every observation float lies in ``[0, OBSERVATION_HIGH]``: a Dreyfus upper record of 1,000 (target 10) is
    seen as 10 and one of 50 as 5, and nothing else of the observation changes."""
    env = batch.make("dreyfus", 2)
    state = env.init(3)
    before = env.observe(state, 0)
    state.upper[:, 1] = (1000, 50)
    after = env.observe(state, 0)
    changed = np.nonzero(after != before)
    assert changed[0].tolist() == [0, 1]
    assert changed[1][0] == changed[1][1]
    assert after[changed].tolist() == [OBSERVATION_HIGH, 5.0]
    assert after.max() == OBSERVATION_HIGH


@pytest.mark.parametrize("game", ["fly", "dreyfus"])
def test_observing_some_games_gives_their_rows_of_observing_all(game: str) -> None:
    """``observe(state, seat, games=mask)`` is the rows of the chosen games of ``observe(state, seat)``."""
    env = batch.make(game, 5)
    state = env.step(env.init(8), env.rule_of_thumb(env.init(8)))
    chosen = np.array([True, False, True, True, False])
    for relative in (False, True):
        every = env.observe(state, 1, relative=relative)
        some = env.observe(state, 1, relative=relative, games=chosen)
        assert some.shape == (3, env.observation_size)
        assert np.array_equal(some, every[chosen])


@pytest.mark.parametrize(("game", "floats"), [("fly", {"declared", "rewards"}), ("dreyfus", {"rewards"})])
def test_only_rewards_and_declarations_are_kept_as_floats(game: str, floats: set[str]) -> None:
    """Cards, seats, counts and records are kept as whole numbers (an index must be one); only the rewards and
    Fly's declarations, which the observation reads, are floats (``float32``)."""
    state = batch.make(game, 2).init(1)
    kinds = {name: array.dtype for name, array in state.arrays().items()}
    assert {name for name, dtype in kinds.items() if dtype.kind == "f"} == floats
    assert {str(kinds[name]) for name in floats} == {"float32"}
