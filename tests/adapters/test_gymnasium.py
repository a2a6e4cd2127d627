"""The Gymnasium adapter: one learning seat against the bots passes Gymnasium's own checker, its
rewards add up to the seat's result, and its bots answer for the position they are given."""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import fly_rules.adapters.gymnasium
from fly_rules import dreyfus, fly
from fly_rules.adapters.encoding import STAND
from fly_rules.adapters.gymnasium import SeatEnv, seat_env
from fly_rules.errors import InvalidRules

IDS = ["fly_rules/Fly-v0", "fly_rules/Dreyfus-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """gymnasium.utils.env_checker.check_env: spaces, seeding, determinism, data not reused, every
    render mode; with every warning an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(env_id).unwrapped)
    assert "player_0:" in capsys.readouterr().out  # the "human" render mode printed the table


def play(env: Any, seed: int) -> tuple[list[float], list[Any]]:
    """One episode with seeded random legal actions: the rewards and the observations."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    rewards, observations = [], [observation]
    terminated = False
    while not terminated:
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        assert np.array_equal(env.unwrapped.action_masks(), observation["action_mask"] == 1)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        rewards.append(float(reward))
        observations.append(observation)
    assert not observation["action_mask"].any()
    return rewards, observations


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("fly_rules/Fly-v0", {"players": 5, "seat": 3, "opponents": "random"}),
        ("fly_rules/Fly-v0", {"players": 3, "seat": 1, "max_deals": 4, "opponents": ["rule-of-thumb", "random"]}),
        ("fly_rules/Fly-v0", {"seat": 2, "preset": "mouche_1718", "max_exchange": 3}),
        ("fly_rules/Dreyfus-v0", {"seat": 1}),
        ("fly_rules/Dreyfus-v0", {"seat": 0, "exchange_mode": "incremental", "opponents": "random"}),
    ],
)
def test_fly_8_2_drf_7_2_rewards_add_up_to_the_seats_result(env_id: str, kwargs: dict[str, Any]) -> None:
    """FLY-8.2, DRF-7.2: each step's reward is the learning seat's score change since its last decision,
    the bots' moves included, so an episode's rewards add up to the seat's result (its score at the
    end less its score at the start); the learning seat is to move after every step until the end."""
    env = gymnasium.make(env_id, **kwargs)
    raw: SeatEnv = env.unwrapped  # type: ignore[assignment]
    for seed in range(4):
        env.reset(seed=seed)
        start = raw.game.match.scores[raw.seat]
        rewards, _ = play(env, seed)
        assert raw.game.match.is_over
        assert sum(rewards) == pytest.approx(raw.game.match.scores[raw.seat] - start)


def test_fly_2_1_the_seed_fixes_the_match_and_the_bots() -> None:
    """FLY-2.1: the same seed and actions replay the same episode, bots included (the random bot draws
    from a generator seeded by ``reset``); another seed deals other cards."""
    first = play(gymnasium.make("fly_rules/Fly-v0", players=4, opponents="random"), 11)
    again = play(gymnasium.make("fly_rules/Fly-v0", players=4, opponents="random"), 11)
    other = play(gymnasium.make("fly_rules/Fly-v0", players=4, opponents="random"), 12)
    assert first[0] == again[0]
    assert all(np.array_equal(a["observation"], b["observation"]) for a, b in zip(first[1], again[1], strict=True))
    assert not np.array_equal(first[1][0]["observation"], other[1][0]["observation"])


def test_fly_4_3_bots_exchange_for_the_position_they_are_given() -> None:
    """FLY-4.3: bots in the other seats exchange, always for the position as it is, over many episodes
    with every bot (the PettingZoo environment under them raises on any illegal id)."""
    bots = ["random", "rule-of-thumb", "random", "rule-of-thumb", "monte-carlo"]
    exchanges = 0
    for seed in range(8):
        env = seat_env("fly", players=6, seat=seed % 6, opponents=bots, illegal_reward=None)
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        declarations = env.game.match.view(env.seat).declarations
        exchanges += sum(d.kind == "exchange" for s, items in enumerate(declarations) if s != env.seat for d in items)
    assert exchanges > 0


def test_an_illegal_action_ends_the_episode_with_a_penalty_or_raises() -> None:
    """Like PettingZoo's classic games: an illegal id (or one out of range) ends the episode with
    ``illegal_reward`` and ``info["illegal_action"]``; with ``illegal_reward=None`` it raises; a step
    after the end asks for ``reset()``."""
    env = seat_env("fly", players=3)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert observation["action_mask"].any()  # the seat was still to move: nothing was played
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(STAND)
    env.reset(seed=2)
    assert env.step(10_000)[1:3] == (-1.0, True)
    strict = seat_env("dreyfus", illegal_reward=None)
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="is not legal"):
        strict.step(51)  # a play in the exchange


@pytest.mark.parametrize("action", [1.5, True, np.bool_(False), np.array([3]), np.array(2.0), "3"])
def test_an_action_that_is_not_an_integer_id_is_refused(action: Any) -> None:
    """A float, a bool, an array of more than one value or a text is no action id: ``TypeError``, naming it,
    and the episode goes on; an int, a NumPy integer or a 0-d integer array is one (as Gymnasium's own
    ``Discrete`` environments take them)."""
    env = seat_env("fly", players=3)
    _, info = env.reset(seed=3)
    with pytest.raises(TypeError, match="an action is an integer id"):
        env.step(action)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for same in (np.array(legal), np.int16(legal)):
        env.reset(seed=3)
        assert env.step(same)[2:4] == (False, False) or env.game.match.is_over


def test_bad_arguments_are_refused_by_name() -> None:
    """A seat off the table, an unknown bot or game, a list of bots of the wrong length, rules given
    twice, or a bad rules option are refused, naming what was wrong."""
    with pytest.raises(ValueError, match="seat must be one of 0 to 2"):
        seat_env("dreyfus", seat=3)
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        seat_env("fly", opponents="clever")
    with pytest.raises(ValueError, match="one for each of the 3 other seats"):
        seat_env("fly", players=4, opponents=["random", "random"])
    with pytest.raises(InvalidRules, match="unknown game 'whist'"):
        seat_env("whist")
    with pytest.raises(ValueError, match="not both"):
        seat_env("fly", rules=fly.FlyRules(players=3), players=3)
    with pytest.raises(ValueError, match="not rules of 'fly'"):
        seat_env("fly", rules=dreyfus.DreyfusRules())
    with pytest.raises(InvalidRules, match="DRF-1.1"):
        seat_env("dreyfus", players=4)
    with pytest.raises(InvalidRules, match="max_exchange"):
        seat_env("fly", max_exchange=9)
    with pytest.raises(ValueError, match=r"fly_rules/Fly-v0: unknown rules options \['trumps'\]"):
        seat_env("fly", trumps="hearts")


def test_rules_objects_and_render_modes() -> None:
    """``rules=`` takes a rules object; ``render()`` is the PettingZoo environment's picture."""
    shram = dreyfus.DreyfusRules.preset("shram")
    env = seat_env("dreyfus", rules=shram, max_deals=2, render_mode="ansi")
    env.reset(seed=5)
    assert env.game.rules == attrs.evolve(shram, max_deals=2)
    assert "player_2:" in env.render()
    picture = seat_env("fly", players=3, render_mode="rgb_array")
    picture.reset(seed=5)
    assert picture.render().shape[2] == 3


def test_registering_again_changes_nothing() -> None:
    """The ids are registered once: registering again (as a second import would) keeps the specs and
    warns of no override. (Not a reload: that would replace the module's classes under other tests.)"""
    ids = IDS
    specs = [gymnasium.spec(env_id) for env_id in ids]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fly_rules.adapters.gymnasium._register()
    assert all(gymnasium.spec(env_id) is spec for env_id, spec in zip(ids, specs, strict=True))
