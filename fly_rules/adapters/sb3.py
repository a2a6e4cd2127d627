"""The batch engine's vector environment as a Stable-Baselines3 ``VecEnv``, so that sb3-contrib's
``MaskablePPO`` trains on thousands of games at once, the other seats played inside the engine.

Needs the ``gymnasium`` extra; with ``stable-baselines3`` installed, :class:`BatchVecEnv` is one of its
``VecEnv`` classes (without it, the same class, usable and tested on its own):

>>> from fly_rules.adapters.sb3 import BatchVecEnv
>>> envs = BatchVecEnv.make("fly", num_envs=64, players=4, opponents="rule-of-thumb")
>>> observations = envs.reset()
>>> observations.shape, envs.action_masks().shape, envs.num_envs
((64, 564), (64, 90), 64)

- **Observations** are the ``"observation"`` floats of :mod:`fly_rules.adapters.gymnasium` (a ``Box``,
  for an ``MlpPolicy``); the legal actions come from :meth:`BatchVecEnv.action_masks`, which
  ``MaskablePPO`` calls (through ``env_method("action_masks")``).
- A finished game is dealt anew in the step that ends it, as Stable-Baselines3 expects: its ``done`` is
  true, the observation returned is the new game's, and ``infos[i]`` holds ``"terminal_observation"``
  and the learning seat's ``"result"``. Wrap it in ``VecMonitor`` for episode statistics.
- Self-play: give ``opponents=`` an :class:`~fly_rules.adapters.gymnasium.OpponentPool` and add frozen
  snapshots of the model to it with :func:`frozen_policy` (or :func:`snapshot_callback` while learning).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from fly_rules._numbers import check_count
from fly_rules.adapters.gymnasium import BatchSeatEnv, OpponentPool, Policy, batch_env
from fly_rules.batch._bits import Array
from fly_rules.errors import FlyRulesError, shown

if TYPE_CHECKING:
    _VecEnv = object
else:
    try:
        from stable_baselines3.common.vec_env import VecEnv as _VecEnv
    except ImportError:  # pragma: no cover - depends on the environment: the bridge works without it
        _VecEnv = object

__all__ = ["BatchVecEnv", "frozen_policy", "snapshot_callback"]


class BatchVecEnv(_VecEnv):
    """A :class:`~fly_rules.adapters.gymnasium.BatchSeatEnv` (in ``SAME_STEP`` autoreset) seen as a
    Stable-Baselines3 ``VecEnv``. Make one with :meth:`make`.

    Raises:
        ValueError: an environment that does not deal finished games anew in the same step.
    """

    def __init__(self, env: BatchSeatEnv) -> None:
        if env.metadata["autoreset_mode"] is not AutoresetMode.SAME_STEP:
            raise ValueError("Stable-Baselines3 deals a finished game anew in the same step: autoreset_mode=SAME_STEP")
        self.env = env
        """The vector environment."""
        self.num_envs = env.num_envs
        seat_space = env.single_observation_space
        assert isinstance(seat_space, spaces.Dict)
        self.observation_space = seat_space["observation"]
        self.action_space = env.single_action_space
        self.render_mode = None
        self.metadata: dict[str, Any] = {"render_modes": []}
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._seeds: list[int | None] = [None] * self.num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._actions: npt.ArrayLike | None = None

    @classmethod
    def make(cls, game: str = "fly", num_envs: int = 1024, **kwargs: Any) -> BatchVecEnv:
        """The bridge over :func:`~fly_rules.adapters.gymnasium.batch_env` of ``game``, in ``SAME_STEP``
        autoreset, with ``kwargs`` (players, seat, opponents, rules options…)."""
        return cls(batch_env(num_envs, game, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs))

    def reset(self) -> Array:
        """Deal every game anew (from the seed given to :meth:`seed`, if any); the observations."""
        observation, _ = self.env.reset(seed=self._seeds[0])
        self._seeds = [None] * self.num_envs
        found: Array = observation["observation"]
        return found

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Keep the learning seats' actions for :meth:`step_wait`."""
        self._actions = actions  # checked by the environment's step, with a message of its own

    def step_wait(self) -> tuple[Array, Array, Array, list[dict[str, object]]]:
        """Step every game: observations, rewards, dones and one info dict per game."""
        observation, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, object]] = [{} for _ in range(self.num_envs)]
        for game in np.flatnonzero(dones):
            infos[game] = {
                "terminal_observation": info["final_obs"][game]["observation"],
                "result": float(info["final_info"]["result"][game]),
                "TimeLimit.truncated": bool(truncated[game]),
            }
        return observation["observation"], rewards.astype(np.float32), dones, infos

    def step(self, actions: npt.ArrayLike) -> tuple[Array, Array, Array, list[dict[str, object]]]:
        """:meth:`step_async` then :meth:`step_wait`."""
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> Array:
        """``bool[num_envs, actions]``: the learning seat's legal actions in every game."""
        return self.env.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the next :meth:`reset` (one seed draws every game's cards).

        Raises:
            FlyRulesError: ``seed`` is not None or a whole number >= 0.
        """
        first = None if seed is None else check_count(seed, "seed")
        self._seeds = [None if first is None else first + k for k in range(self.num_envs)]
        return self._seeds

    def close(self) -> None:
        """Nothing to release."""

    def _indices(self, indices: object) -> list[int]:
        """The games ``indices`` names (None: every game; one index; or a sequence of them), each checked."""
        if indices is None:
            return list(range(self.num_envs))
        many = isinstance(indices, Sequence | np.ndarray) and not isinstance(indices, str | bytes)
        games: list[int] = []
        for game in list(indices) if isinstance(indices, Sequence | np.ndarray) and many else [indices]:
            if isinstance(game, bool) or not isinstance(game, int | np.integer) or not 0 <= game < self.num_envs:
                raise FlyRulesError(
                    f"indices must be None, a game's index (0 to {self.num_envs - 1}) or a sequence of them,"
                    f" not {shown(indices)}"
                )
            games.append(int(game))
        return games

    def get_attr(self, attr_name: str, indices: object = None) -> list[Any]:  # Any: as sb3's VecEnv
        """The vector environment's attribute ``attr_name``, once per game asked for.

        Raises:
            AttributeError: it has no such attribute.
        """
        value = self.render_mode if attr_name == "render_mode" else getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: object, indices: object = None) -> None:
        """Set an attribute of the vector environment (shared by every game)."""
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: object, indices: object = None, **method_kwargs: object
    ) -> list[Any]:  # Any: as sb3's VecEnv, what the method answers
        """Call ``method_name``: ``action_masks`` gives each game's mask; any other method of the vector
        environment is called once, its answer given for every game asked for.

        Raises:
            AttributeError: the environment has no such method.
        """
        games = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[game] for game in games]
        answer = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [answer for _ in games]

    def env_is_wrapped(self, wrapper_class: type, indices: object = None) -> list[bool]:
        """No game is wrapped in a Gymnasium wrapper."""
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether ``get_attr(attr_name)`` answers (``action_masks``, what MaskablePPO looks for, does)."""
        return attr_name in ("action_masks", "render_mode") or hasattr(self.env, attr_name)

    def get_images(self) -> Sequence[None]:
        """No images: the vector environment draws nothing."""
        return [None] * self.num_envs

    def render(self, mode: str | None = None) -> None:
        """Nothing to draw."""


def frozen_policy(model: Any, *, deterministic: bool = False) -> Policy:  # pragma: no cover - needs PyTorch
    """A frozen copy of ``model``'s policy (a Stable-Baselines3 or sb3-contrib model) as a batched policy
    for an :class:`~fly_rules.adapters.gymnasium.OpponentPool`: it plays from the observations it is
    given, within the masks, and no longer changes as the model learns.

    Raises:
        TypeError: ``model`` has no policy to copy.
    """
    if not hasattr(model, "policy"):
        raise TypeError(f"frozen_policy takes a Stable-Baselines3 model, not {shown(model)}")
    # rebuilt from its constructor's arguments and weights, as Stable-Baselines3 saves and loads a policy: a deep
    # copy fails after a training step, whose last action distribution still holds tensors of the autograd graph
    live = model.policy
    policy = type(live)(**live._get_constructor_parameters()).to(live.device)
    policy.load_state_dict(live.state_dict())
    policy.set_training_mode(False)

    def play(observations: Any, masks: Any) -> Any:
        ids, _ = policy.predict(observations, deterministic=deterministic, action_masks=masks)
        return ids

    return play


def snapshot_callback(pool: OpponentPool, every: int) -> object:  # pragma: no cover - needs Stable-Baselines3
    """A Stable-Baselines3 callback that adds a :func:`frozen_policy` of the model being trained to
    ``pool`` every ``every`` steps (for self-play against the learner's past selves).

    Raises:
        ValueError: ``every`` is not a positive whole number.
    """
    from stable_baselines3.common.callbacks import BaseCallback  # type: ignore[import-not-found]  # noqa: PLC0415

    if type(every) is not int or every < 1:
        raise ValueError(f"every must be a whole number >= 1, not {shown(every)}")

    class _Snapshots(BaseCallback):  # type: ignore[misc]  # an untyped library's class
        def __init__(self) -> None:
            super().__init__()
            self.last = 0

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= every:
                pool.add(frozen_policy(self.model))
                self.last = self.num_timesteps
            return True

    return _Snapshots()
