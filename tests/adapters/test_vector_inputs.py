"""Bad input to the vector environment and the Stable-Baselines3 bridge: each is refused with a message naming
what was wrong (they raised NumPy's and Gymnasium's errors, or Python's from inside the bridge), and NumPy's
integers count like ints wherever a count or seed is read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fly_rules import batch
from fly_rules.adapters.gymnasium import batch_env
from fly_rules.adapters.sb3 import BatchVecEnv
from fly_rules.errors import FlyRulesError


@pytest.mark.parametrize("actions", [[[1, 2], [3], [4], [5]], [[1], 2, 3, 4], ["a", "b", "c", "d"], [1, 2]])
def test_a_ragged_or_odd_action_list_is_refused_by_the_env_and_the_bridge(actions: Any) -> None:
    """One integer id per game: a ragged list is refused like any other shape, and nothing moves."""
    env = batch_env(4, "fly", players=3)
    env.reset(seed=1)
    before = env.action_masks().copy()
    with pytest.raises(TypeError, match="actions must be 4 integer ids"):
        env.step(actions)
    assert np.array_equal(env.action_masks(), before)
    bridge = BatchVecEnv.make("fly", num_envs=4, players=3)
    bridge.reset()
    with pytest.raises(TypeError, match="actions must be 4 integer ids"):
        bridge.step(actions)


@pytest.mark.parametrize("seed", ["x", -1, 1.5, True, {1: 2}])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    """``reset(seed=…)`` and the bridge's ``seed(…)`` take None or a whole number >= 0."""
    env = batch_env(4, "fly", players=3)
    with pytest.raises(FlyRulesError, match="seed must be a whole number >= 0"):
        env.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(FlyRulesError, match="seed must be a whole number >= 0"):
        BatchVecEnv.make("fly", num_envs=4, players=3).seed(seed)  # type: ignore[arg-type]


def test_numpy_seeds_and_sizes_count_like_ints() -> None:
    """``np.int64`` is a batch size, a number of environments and a seed, as it is elsewhere: the same games."""
    assert batch.make("fly", np.int64(3)).batch_size == 3  # type: ignore[arg-type]
    env = batch_env(np.int64(4), "fly", players=3)  # type: ignore[arg-type]
    assert env.num_envs == 4
    first, _ = env.reset(seed=np.int64(7))  # type: ignore[arg-type]
    again, _ = env.reset(seed=7)
    assert np.array_equal(first["observation"], again["observation"])
    bridge = BatchVecEnv.make("fly", num_envs=np.int64(4), players=3)  # type: ignore[arg-type]
    assert bridge.seed(np.int64(5)) == [5, 6, 7, 8]  # type: ignore[arg-type]


@pytest.mark.parametrize("indices", [1.5, 4, -1, [0, "a"], "0", True])
def test_indices_that_name_no_game_are_refused(indices: object) -> None:
    """``get_attr``, ``env_method`` and ``env_is_wrapped`` take None, a game's index or a sequence of them."""
    bridge = BatchVecEnv.make("fly", num_envs=4, players=3)
    bridge.reset()
    for call in (
        lambda: bridge.get_attr("num_envs", indices=indices),
        lambda: bridge.env_method("action_masks", indices=indices),
        lambda: bridge.env_is_wrapped(object, indices=indices),
    ):
        with pytest.raises(FlyRulesError, match=r"indices must be None, a game's index \(0 to 3\)"):
            call()
    assert bridge.get_attr("num_envs", indices=np.array([1, 3])) == [4, 4]


def test_info_has_the_vector_form_of_its_action_mask() -> None:
    """Gymnasium's vector info gives each key ``k`` a bool per game ``_k``: ``_action_mask`` is beside
    ``action_mask``, true for every game, after reset and after a step, in both autoreset modes."""
    for mode in ("next_step", "same_step"):
        env = batch_env(4, "fly", players=3, autoreset_mode=mode)
        observation, info = env.reset(seed=2)
        assert np.array_equal(info["_action_mask"], np.ones(4, bool))
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        _, _, _, _, info = env.step(np.argmax(observation["action_mask"], axis=1))
        assert np.array_equal(info["_action_mask"], np.ones(4, bool))


def test_reset_takes_one_seed_per_game_as_gymnasium_s_vector_form() -> None:
    """``reset(seed=[…])``, one seed or None per game: the same list deals the same games, another list (the same
    seeds at other places) others; a list of the wrong length or with a bad seed is refused."""
    env = batch_env(4, "fly", players=3)
    first, _ = env.reset(seed=[1, None, 2, 3])
    again, _ = env.reset(seed=[1, None, 2, 3])
    other, _ = env.reset(seed=[None, 1, 2, 3])
    assert np.array_equal(first["observation"], again["observation"])
    assert not np.array_equal(first["observation"], other["observation"])
    with pytest.raises(FlyRulesError, match="a list of seeds has one per game, 4, not 2"):
        env.reset(seed=[1, 2])
    with pytest.raises(FlyRulesError, match="seed must be a whole number >= 0"):
        env.reset(seed=[1, -2, 3, 4])


def test_reset_mask_deals_anew_only_the_games_it_marks() -> None:
    """``options={"reset_mask": mask}`` deals anew the marked games and keeps the others as they were (it was
    ignored without a word); a mask that is not one bool per game, one before the first reset, one with a seed,
    or another option is refused."""
    env = batch_env(4, "fly", players=3)
    with pytest.raises(FlyRulesError, match="after a first reset"):
        env.reset(options={"reset_mask": np.ones(4, bool)})
    before, _ = env.reset(seed=5)
    after, _ = env.reset(options={"reset_mask": np.array([False, True, False, False])})
    same = [np.array_equal(before["observation"][k], after["observation"][k]) for k in range(4)]
    assert same == [True, False, True, True]
    bad: list[tuple[Any, Any]] = [
        ({"reset_mask": [1, 0, 0, 0]}, None),
        ({"x": 1}, None),
        ({"reset_mask": np.ones(4, bool)}, 1),
    ]
    for options, seed in bad:
        with pytest.raises(FlyRulesError, match="reset_mask|the only option"):
            env.reset(seed=seed, options=options)


def test_next_step_autoreset_s_zero_mask_rows_are_the_finished_games() -> None:
    """NEXT_STEP: the rows of ``action_mask`` that are all zero are exactly the games that have just ended (what
    the class's text warns a ``-inf`` masking policy of); every other row has a legal action."""
    env = batch_env(8, "fly", players=3, max_deals=1)
    observation, _ = env.reset(seed=3)
    seen_end = False
    for _ in range(60):
        observation, _, terminated, truncated, _ = env.step(np.argmax(observation["action_mask"], axis=1))
        empty = observation["action_mask"].sum(axis=1) == 0
        assert np.array_equal(empty, terminated | truncated)
        seen_end |= bool(empty.any())
    assert seen_end
