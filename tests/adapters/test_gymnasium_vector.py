"""The Gymnasium vector environment on the batch engine: one call steps every game, finished deals
are dealt anew in the same step (``SAME_STEP``), and each game is the scalar engine's game."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from fly_rules import batch
from fly_rules.adapters.gymnasium import BatchSeatEnv, batch_env
from fly_rules.errors import RuleViolation


def random_actions(observation: dict[str, Any], rng: np.random.Generator) -> Any:
    """One random legal action per game, from the batched masks."""
    mask = observation["action_mask"].astype(bool)
    assert mask.any(axis=1).all(), "the learning seat is to move in every game"
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize(
    ("env_id", "kwargs", "size"),
    [("fly_rules/FlyVector-v0", {"players": 5}, 730), ("fly_rules/DreyfusVector-v0", {}, 709)],
)
def test_one_step_call_advances_every_game(env_id: str, kwargs: dict[str, Any], size: int) -> None:
    """``gymnasium.make_vec`` builds the batch env of either game; one ``step`` moves the learning seat
    in all games (each game's observation of that seat changes: a mark is not yet an action of the
    scalar engine), then the others until it is to move again; the observations have the single
    environment's layout."""
    seat = 2
    envs = gymnasium.make_vec(env_id, num_envs=64, seat=seat, **kwargs)
    assert isinstance(envs, BatchSeatEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    observation, info = envs.reset(seed=4)
    assert observation["observation"].shape == (64, size)
    assert observation in envs.observation_space
    assert np.array_equal(info["action_mask"], observation["action_mask"])
    assert np.array_equal(envs.action_masks(), observation["action_mask"] == 1)
    before = observation["observation"]
    observation, rewards, terminated, truncated, info = envs.step(random_actions(observation, np.random.default_rng(0)))
    assert (observation["observation"] != before).any(axis=1).all()
    assert (envs.state.current_player == seat).all()
    assert rewards.shape == terminated.shape == truncated.shape == (64,)
    assert not truncated.any()


@pytest.mark.parametrize(("game", "players"), [("fly", 4), ("dreyfus", None)])
def test_fly_8_2_drf_7_2_finished_deals_are_dealt_anew_in_the_same_step(
    game: str, players: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FLY-8.2, DRF-7.2: a finished deal reports ``terminated``, its last observation in
    ``info["final_obs"]`` and the seat's result in ``info["final_info"]``, and the same step returns the
    first observation of a new deal; the seat's rewards over a deal add up to its score change in the
    scalar engine."""
    envs = batch_env(game, num_envs=16, players=players, seat=1)
    finished: dict[int, Any] = {}
    deal_anew = envs._deal_anew

    def spy(games: Any) -> None:
        for row in games:
            finished[int(row)] = batch.to_scalar(envs.state, int(row))
        deal_anew(games)

    monkeypatch.setattr(envs, "_deal_anew", spy)
    rng = np.random.default_rng(1)
    observation, _ = envs.reset(seed=9)
    starts = [batch.to_scalar(envs.state, row).scores[1] for row in range(16)]
    sums = np.zeros(16)
    ended = 0
    for _ in range(60):
        observation, rewards, terminated, _, info = envs.step(random_actions(observation, rng))
        sums += rewards
        for row in map(int, np.flatnonzero(terminated)):
            assert info["_final_obs"][row]
            assert info["_final_info"][row]
            assert not info["final_obs"][row]["action_mask"].any()
            assert info["final_info"][row]["result"] == pytest.approx(sums[row])
            assert sums[row] == pytest.approx(finished[row].scores[1] - starts[row])
            fresh = batch.to_scalar(envs.state, row)
            assert fresh.to_move == 1
            assert fresh.view(1).tricks == ()
            starts[row], sums[row] = fresh.scores[1], 0.0
            ended += 1
        assert "final_obs" in info or not terminated.any()
    assert ended > 16


def test_the_seed_fixes_every_game() -> None:
    """The same seed and actions replay the same games, new deals included; another seed differs."""

    def run(seed: int) -> list[Any]:
        envs = batch_env("fly", num_envs=8, players=3)
        rng = np.random.default_rng(0)
        observation, _ = envs.reset(seed=seed)
        seen = [observation["observation"]]
        for _ in range(20):
            observation, *_ = envs.step(random_actions(observation, rng))
            seen.append(observation["observation"])
        return seen

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])


def test_an_action_outside_the_mask_is_refused_and_changes_nothing() -> None:
    """An action outside a game's mask raises ``RuleViolation`` naming the game; the state is kept."""
    envs = batch_env("fly", num_envs=4, players=3)
    observation, _ = envs.reset(seed=2)
    actions = random_actions(observation, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(observation["action_mask"][2] == 0)[0])
    kept = envs.state.copy()
    with pytest.raises(RuleViolation, match="game 2"):
        envs.step(actions)
    assert all(np.array_equal(v, kept.arrays()[k]) for k, v in envs.state.arrays().items())


def test_bad_arguments_are_refused() -> None:
    """Bots cannot play in the batch (they decide one game at a time): only the batch's own random
    opponents; a seat off the table; a step before reset."""
    with pytest.raises(ValueError, match="opponents='random'"):
        batch_env("fly", num_envs=2, opponents="rule-of-thumb")
    with pytest.raises(ValueError, match="seat must be one of 0 to 2"):
        batch_env("fly", num_envs=2, players=3, seat=3)
    with pytest.raises(ValueError, match="single deals"):
        batch_env("fly", num_envs=2, match=True)
    with pytest.raises(RuntimeError, match="reset"):
        batch_env("fly", num_envs=2).step(np.zeros(2, int))
    assert gymnasium.spec("fly_rules/FlyVector-v0").vector_entry_point is batch_env
