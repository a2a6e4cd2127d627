"""The Gymnasium vector environment on the batch engine: one id per game with both entry points, the two
autoreset modes as Gymnasium's own vector environments have them, its wrappers, opponents played inside
the engine, and every game the scalar engine's game (issue 28)."""

from __future__ import annotations

import json
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import FlattenObservation, RecordEpisodeStatistics

import fly_rules.adapters.gymnasium
from fly_rules import batch, registry
from fly_rules.adapters.encoding import STAND, BotDriver, engine_action, observation_size
from fly_rules.adapters.gymnasium import BatchSeatEnv, OpponentPool, batch_env
from fly_rules.errors import RuleViolation
from fly_rules.notation import dump_history, load_history


def random_actions(observation: dict[str, Any], rng: np.random.Generator) -> Any:
    """One random legal action per game, from the batched masks (0 where nothing is legal)."""
    mask = observation["action_mask"].astype(bool)
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize(("env_id", "size"), [("fly_rules/Fly-v0", 564), ("fly_rules/Dreyfus-v0", 709)])
def test_one_id_both_entry_points_and_the_same_defaults(env_id: str, size: int) -> None:
    """One id per game has both entry points as ``"module:attr"`` strings, so its spec is plain data
    (``to_json`` and back); ``make`` and ``make_vec(…, "vector_entry_point")`` give the single and the
    vector environment with the same defaults: the same table, spaces and opponents."""
    spec = gymnasium.spec(env_id)
    assert spec.entry_point == "fly_rules.adapters.gymnasium:seat_env"
    assert spec.vector_entry_point == "fly_rules.adapters.gymnasium:batch_env"
    assert gymnasium.envs.registration.EnvSpec.from_json(spec.to_json()) == spec
    single: Any = gymnasium.make(env_id)
    envs: Any = gymnasium.make_vec(env_id, num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(envs, BatchSeatEnv)
    assert envs.spec is not None
    assert json.loads(envs.spec.to_json())["kwargs"]["num_envs"] == 8
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.engine.rules == single.unwrapped.game.rules
    assert envs.engine.observation_size == size == observation_size(envs.engine.rules)
    assert envs.pool.policies == ["rule-of-thumb"]
    assert set(single.unwrapped.drivers) == set(range(1, envs.engine.num_players))
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


@pytest.mark.parametrize(("game", "players"), [("fly", 4), ("dreyfus", None)])
def test_fly_8_2_drf_7_2_next_step_autoreset(game: str, players: int | None) -> None:
    """FLY-8.2, DRF-7.2 under ``NEXT_STEP``: the step that ends a game returns ``terminated``, the seat's
    last observation of it (nothing legal) and its result in ``info["result"]``; the next step deals it
    anew (reward 0, its action ignored); a game's rewards add up to the scalar engine's score change of
    the learning seat, every game the scalar match of its seed, the opponents' moves included."""
    envs = batch_env(24, game, players, seat=1)
    rng = np.random.default_rng(1)
    observation, _ = envs.reset(seed=9)
    sums = np.zeros(24)
    ended = 0
    just_ended = np.zeros(24, bool)
    for _ in range(80):
        scalars = [batch.to_scalar(envs.state, i) for i in range(24)]
        observation, rewards, terminated, truncated, info = envs.step(random_actions(observation, rng))
        assert not truncated.any()
        assert (rewards[just_ended] == 0).all()
        assert not terminated[just_ended].any()
        sums[just_ended] = 0.0
        sums += rewards
        for row in np.flatnonzero(terminated):
            assert info["_result"][row]
            assert info["result"][row] == pytest.approx(sums[row])
            finished = batch.to_scalar(envs.state, int(row))
            assert finished.is_over
            assert sums[row] == pytest.approx(finished.scores[1] - scalars[row].scores[1] + _so_far(scalars[row], 1))
            assert not observation["action_mask"][row].any()
            assert np.array_equal(observation["observation"][row], envs.engine.observe(envs.state, 1)[row])
            ended += 1
        live = ~terminated
        assert (envs.state.current_player[live] == 1).all()
        just_ended = terminated
    assert ended > 24


def _so_far(scalar: Any, seat: int) -> float:
    """The seat's score change in the match so far (the rewards already paid before this step)."""
    start = 0 if scalar.game == "dreyfus" else -scalar.rules.start_record
    return float(scalar.scores[seat] - start)


def test_fly_8_2_same_step_autoreset_gives_final_obs_and_final_info() -> None:
    """FLY-8.2 under ``SAME_STEP``: a game that ends is dealt anew in the same step; its last observation is
    ``info["final_obs"][i]`` (the learning seat's real view of the finished game) and its info
    ``info["final_info"]``, a dict of arrays with ``_``-masks, as Gymnasium's own vector environments give."""
    envs = batch_env(16, "fly", 3, seat=0, autoreset_mode="same_step", opponents="random")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    rng = np.random.default_rng(2)
    observation, _ = envs.reset(seed=4)
    sums, ended = np.zeros(16), 0
    for _ in range(60):
        observation, rewards, terminated, _, info = envs.step(random_actions(observation, rng))
        sums += rewards
        assert observation["action_mask"].any(axis=1).all()  # the seat is to move in every game, new ones too
        for row in np.flatnonzero(terminated):
            final = info["final_obs"][row]
            assert info["_final_obs"][row]
            assert info["_final_info"][row]
            assert not final["action_mask"].any()
            assert final["observation"][52 * 2 :].any()  # the tricks of the finished deal, not zeros
            assert info["final_info"]["_result"][row]
            assert info["final_info"]["result"][row] == pytest.approx(sums[row])
            fresh = batch.to_scalar(envs.state, int(row))
            assert fresh.to_move == 0
            assert fresh.deal.completed == ()
            assert not fresh.is_over
            sums[row], ended = 0.0, ended + 1
    assert ended > 16


def test_vector_wrappers_work() -> None:
    """Gymnasium's vector wrappers take the environment: ``FlattenObservation`` (which needs ``NEXT_STEP``)
    and ``RecordEpisodeStatistics``, whose episode returns are the games' results."""
    envs: Any = RecordEpisodeStatistics(FlattenObservation(batch_env(8, "dreyfus")))
    rng = np.random.default_rng(3)
    observation, _ = envs.reset(seed=1)
    size = envs.unwrapped.engine.observation_size
    assert observation.shape == (8, size + 53)
    episodes = 0
    for _ in range(120):
        mask = observation[:, size:].astype(bool)
        observation, _, _terminated, _, info = envs.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
        if "episode" in info:
            done = info["_episode"]
            assert np.allclose(info["episode"]["r"][done], info["result"][done])
            episodes += int(done.sum())
    assert episodes > 8


def test_the_seed_fixes_every_game_and_every_game_can_be_saved() -> None:
    """The same seed and actions replay the same games, new deals included; another seed differs; every
    game is the scalar engine's match of its seed, so its history saves and loads back."""

    def run(seed: int) -> tuple[list[Any], Any]:
        envs = batch_env(8, "fly", 3)
        rng = np.random.default_rng(0)
        observation, _ = envs.reset(seed=seed)
        seen = [observation["observation"]]
        for _ in range(20):
            observation, *_ = envs.step(random_actions(observation, rng))
            seen.append(observation["observation"])
        return seen, envs

    (first, envs), (again, _), (other, _) = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])
    for i in range(8):
        game = batch.to_scalar(envs.state, i)
        assert load_history(dump_history(game)) == game


def test_an_action_outside_the_mask_ends_its_game_or_is_refused() -> None:
    """An illegal action ends its game with ``illegal_reward`` and ``info["illegal_action"]``, the others
    playing on; with ``illegal_reward=None`` it raises ``RuleViolation`` naming the game, and nothing changes."""
    envs = batch_env(4, "fly", 3)
    observation, _ = envs.reset(seed=2)
    actions = random_actions(observation, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(observation["action_mask"][2] == 0)[0])
    _, rewards, terminated, _, info = envs.step(actions)
    assert terminated[2]
    assert rewards[2] == -1.0
    assert info["illegal_action"][2]
    assert info["result"][2] == -1.0
    assert not info["illegal_action"][[0, 1, 3]].any()
    strict = batch_env(4, "fly", 3, illegal_reward=None)
    observation, _ = strict.reset(seed=2)
    kept = strict.state.copy()
    with pytest.raises(RuleViolation, match="game 2"):
        strict.step(actions)
    assert all(np.array_equal(v, kept.arrays()[k]) for k, v in strict.state.arrays().items() if v.dtype != object)


@pytest.mark.parametrize(("game", "players"), [("fly", 4), ("dreyfus", None)])
def test_rule_of_thumb_opponents_play_inside_the_engine(game: str, players: int | None) -> None:
    """The default opponents are the rule of thumb, computed for every game at once: with the learner
    playing the rule of thumb too, each finished game is the scalar match of its seed played by the
    library's rule-of-thumb bot in every seat."""
    envs = batch_env(16, game, players, seat=2)
    envs.reset(seed=3)
    compared = 0
    for _ in range(40):
        _, _, terminated, _, _ = envs.step(envs.engine.rule_of_thumb(envs.state))
        for row in np.flatnonzero(terminated):
            played = batch.to_scalar(envs.state, int(row))
            scalar: Any = registry.get(game).new_match(played.rules, seed=played.seed, dealer=played.first_dealer)
            drivers = [BotDriver("rule-of-thumb", played.rules) for _ in range(envs.engine.num_players)]
            marked = 0
            while not scalar.is_over:
                meaning = engine_action(scalar.deal, marked, drivers[scalar.to_move].next_id(scalar.deal, marked))
                marked = meaning.cards if meaning.kind == "mark" else 0
                scalar = scalar if meaning.kind == "mark" else scalar.apply(meaning.action)
            assert played == scalar
            compared += 1
    assert compared >= 16


def test_self_play_with_an_opponent_pool_and_relative_seats() -> None:
    """Self-play: the learning seat drawn anew for each game and deal (``seat="random"``), observations
    counted from it, the other seats drawn from an :class:`OpponentPool` of frozen policies that grows as
    snapshots are added; a policy is asked only about its own seats' positions."""
    asked: list[int] = []

    def first_legal(observations: Any, masks: Any) -> Any:
        asked.append(len(observations))
        assert observations.shape[1] == 709
        assert masks.any(axis=1).all()
        own, to_move = 369 + 156 + 156 + 13 + 3, 369 + 156 + 156 + 13 + 6  # the one-hots, seats from the observer
        assert (observations[:, own] == 1).all()
        assert (observations[:, to_move] == 1).all()
        return masks.argmax(axis=1)

    pool = OpponentPool(["rule-of-thumb"], size=3)
    pool.add(first_legal)
    envs = batch_env(32, "dreyfus", seat="random", opponents=pool, relative_seats=True)
    observation, _ = envs.reset(seed=8)
    seats = set(envs.seats.tolist())
    rng = np.random.default_rng(1)
    for _ in range(40):
        assert (observation["observation"][:, 369 + 156 + 156 + 13 + 3] == 1).all()  # the learner counts as seat 0
        assert set(envs.seats.tolist()) <= {0, 1, 2}
        observation, *_ = envs.step(random_actions(observation, rng))
        seats |= set(envs.seats.tolist())
    assert seats == {0, 1, 2}
    assert asked
    for _ in range(3):
        pool.add("random")
    assert len(pool.policies) == 3
    assert pool.policies[0] == "rule-of-thumb"


def test_bad_arguments_are_refused() -> None:
    """A seat off the table, an opponent the engine cannot play, a render mode, an autoreset mode it does
    not have, actions that are not one integer per game, a step before reset."""
    with pytest.raises(ValueError, match="opponents='monte-carlo'"):
        batch_env(2, "fly", opponents="monte-carlo")
    with pytest.raises(ValueError, match="seat must be one of 0 to 2"):
        batch_env(2, "fly", 3, seat=3)
    with pytest.raises(ValueError, match="render_mode must be None"):
        batch_env(2, "fly", render_mode="ansi")
    with pytest.raises(ValueError, match="autoreset_mode must be NEXT_STEP or SAME_STEP"):
        batch_env(2, "fly", autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="autoreset_mode"):
        batch_env(2, "fly", autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="an opponent is"):
        OpponentPool(["clever"])
    with pytest.raises(RuntimeError, match="reset"):
        batch_env(2, "fly").step(np.zeros(2, int))
    envs = batch_env(2, "fly")
    envs.reset(seed=0)
    for bad in (np.full(2, 1.5), np.array([True, False]), np.zeros(3, int), [STAND]):
        with pytest.raises(TypeError, match="integer ids"):
            envs.step(bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fly_rules.adapters.gymnasium._register()
