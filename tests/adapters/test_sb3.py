"""The Stable-Baselines3 bridge over the vector environment: the ``VecEnv`` interface MaskablePPO uses, its
autoreset as Stable-Baselines3 deals, and the masks it asks for (issue 28). The bridge works without
Stable-Baselines3 installed; with it, it is one of its ``VecEnv`` classes."""

from __future__ import annotations

import numpy as np
import pytest

from fly_rules import batch
from fly_rules.adapters.gymnasium import batch_env
from fly_rules.adapters.sb3 import BatchVecEnv


def test_the_vec_env_interface() -> None:
    """``reset``, ``step`` (``step_async`` then ``step_wait``), the masks through ``env_method``, the
    attributes Stable-Baselines3 reads, seeding."""
    envs = BatchVecEnv.make("dreyfus", num_envs=16)
    assert envs.observation_space.shape == (709,)
    assert getattr(envs.action_space, "n", None) == 53
    envs.seed(3)
    first = envs.reset()
    assert first.shape == (16, 709)
    envs.seed(3)
    assert np.array_equal(envs.reset(), first)
    masks = envs.env_method("action_masks")
    assert len(masks) == 16
    assert np.array_equal(np.stack(masks), envs.action_masks())
    assert envs.env_method("action_masks", indices=[2, 5])[1].shape == (53,)
    assert envs.get_attr("render_mode") == [None] * 16
    assert envs.get_attr("num_envs", indices=3) == [16]
    assert envs.has_attr("action_masks")
    assert not envs.has_attr("no_such_thing")
    with pytest.raises(AttributeError):
        envs.get_attr("no_such_thing")
    envs.set_attr("illegal_reward", -2.0)
    assert envs.env.illegal_reward == -2.0
    assert envs.env_method("action_masks", indices=0)[0].dtype == bool
    assert envs.env_method("reset", seed=1)[0][0]["observation"].shape == (16, 709)  # once, for every game
    assert envs.env_is_wrapped(object) == [False] * 16
    assert envs.get_images() == [None] * 16
    envs.render()  # draws nothing
    envs.close()


def test_a_finished_game_is_dealt_anew_in_the_same_step() -> None:
    """A game that ends reports ``done``, its last observation in ``infos[i]["terminal_observation"]`` and
    the learning seat's result in ``infos[i]["result"]``; the observation returned is the new game's, so
    the seat is to move in every game after every step, and the results add up the rewards."""
    envs = BatchVecEnv.make("fly", num_envs=32, players=3, opponents="rule-of-thumb")
    observations = envs.reset()
    sums, ended = np.zeros(32), 0
    for _ in range(40):
        rule_of_thumb = envs.env.engine.rule_of_thumb(envs.env.state)
        observations, rewards, dones, infos = envs.step(rule_of_thumb)
        assert rewards.dtype == np.float32
        assert observations.shape == (32, 450)
        assert envs.action_masks().any(axis=1).all()
        sums += rewards
        for game in np.flatnonzero(dones):
            assert infos[game]["result"] == pytest.approx(sums[game])
            terminal = infos[game]["terminal_observation"]
            assert isinstance(terminal, np.ndarray)
            assert terminal.shape == (450,)
            assert not infos[game]["TimeLimit.truncated"]
            assert batch.to_scalar(envs.env.state, int(game)).deal.completed == ()
            sums[game], ended = 0.0, ended + 1
        assert all(info == {} for game, info in enumerate(infos) if not dones[game])
    assert ended > 32


def test_the_bridge_needs_same_step_autoreset() -> None:
    """Stable-Baselines3 deals a finished game anew in the same step: a ``NEXT_STEP`` environment is refused."""
    with pytest.raises(ValueError, match="SAME_STEP"):
        BatchVecEnv(batch_env(4, "fly"))
