"""Fly and Dreyfus as Gymnasium environments: one learning seat, the library's bots in the others.

Needs the ``gymnasium`` extra (``pip install 'fly_rules[gymnasium]'``). Importing this module
registers one environment id per game of :mod:`fly_rules.registry`, with both a single environment
and a vector one on the batch engine, as Gymnasium's own ``CartPole-v1`` has:

>>> import gymnasium
>>> import fly_rules.adapters.gymnasium
>>> env = gymnasium.make("fly_rules/Fly-v0", players=4, seat=0, opponents="rule-of-thumb")
>>> observation, info = env.reset(seed=7)
>>> sorted(observation), observation["action_mask"].shape, int(info["action_mask"].sum())
(['action_mask', 'observation'], (90,), 33)
>>> envs = gymnasium.make_vec("fly_rules/Fly-v0", num_envs=256, vectorization_mode="vector_entry_point")
>>> observations, infos = envs.reset(seed=7)
>>> observations["observation"].shape, envs.metadata["autoreset_mode"].value
((256, 564), 'NextStep')

- ``"fly_rules/Fly-v0"`` and ``"fly_rules/Dreyfus-v0"``. ``gymnasium.make`` builds :func:`seat_env`: a
  match of the game seen and played by one seat (``seat``, default 0), the other seats played by the
  library's bots (``opponents``: ``"random"``, ``"rule-of-thumb"``, ``"monte-carlo"`` or any name of
  ``fly_rules.bots.BOTS``; one name for every other seat or one per other seat in seat order),
  each answering for the position it is given. ``gymnasium.make_vec(…,
  vectorization_mode="vector_entry_point")`` builds :func:`batch_env`: ``num_envs`` games of the batch
  engine (:mod:`fly_rules.batch`) stepped in one call, the other seats played inside the engine for
  every game at once (``"random"``, ``"rule-of-thumb"``, a batched policy, or an :class:`OpponentPool`
  of frozen policies for self-play).
- Both take the same rules keywords with the same defaults: ``players`` (the game's default table
  size), ``preset``, any rules option by name, or ``rules``; ``max_deals`` deals per episode (default
  1); ``seat``; ``opponents`` (default ``"rule-of-thumb"``); ``illegal_reward``; ``relative_seats``.
- **Observations** and **actions** are the game's one action space and encoding
  (:mod:`fly_rules.adapters.encoding`): a dict of ``"observation"`` (float32, from the seat's view
  only; with ``relative_seats=True`` its seats counted from the learner's, going left) and
  ``"action_mask"`` (int8, 1 on each legal id), and ``Discrete`` ids (90 for Fly, 53 for Dreyfus). The
  mask is also ``info["action_mask"]`` and ``action_masks()`` (what sb3-contrib's ``MaskablePPO`` calls).
- **Reward**: the seat's score change since its last decision, the other seats' moves included (Fly:
  its record going down; Dreyfus: points below minus points above), so an episode's rewards add up
  to the seat's result, ``info["result"]`` on its last step. **Terminated** when the match is over;
  never truncated (``max_episode_steps`` truncates if wanted).
- An **illegal action** ends the episode with reward ``illegal_reward`` (default ``-1``, as
  PettingZoo's classic games do) and ``info["illegal_action"]``; with ``illegal_reward=None`` it
  raises instead. An action that is not an integer id (a float, a bool) is refused with ``TypeError``.
- ``reset(seed=s)`` seeds the deals and the bots, so the same seed and actions replay the same episodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("fly_rules.adapters.gymnasium needs Gymnasium: pip install 'fly_rules[gymnasium]'") from error

from fly_rules import registry
from fly_rules.adapters._batch_env import BatchSeatEnv, OpponentPool, Policy, batch_env, env_id, rules_for
from fly_rules.adapters.encoding import BotDriver
from fly_rules.adapters.pettingzoo import CardGameEnv
from fly_rules.engine.protocols import Rules
from fly_rules.errors import shown

__all__ = ["BatchSeatEnv", "OpponentPool", "Policy", "SeatEnv", "batch_env", "seat_env"]

_SEED_RANGE: Final = 2**63

_Observation = dict[str, Any]
_Info = dict[str, Any]


def _action_id(action: object) -> int:
    """``action`` as an id: an int, a NumPy integer or a 0-d integer array (as Gymnasium's ``Discrete``
    takes them), never a bool or a float.

    Raises:
        TypeError: anything else.
    """
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer | np.ndarray):
        raise TypeError(f"an action is an integer id, not {shown(action)}")
    if isinstance(action, np.ndarray) and (action.shape != () or not np.issubdtype(action.dtype, np.integer)):
        raise TypeError(f"an action is an integer id (an array of shape () at most), not {shown(action)}")
    return int(action)


class SeatEnv(gymnasium.Env[_Observation, int]):
    """One seat of a match of Fly or Dreyfus, the bots playing the other seats; make one with
    :func:`seat_env` or ``gymnasium.make("fly_rules/Fly-v0", …)``.

    Raises:
        ValueError: ``seat`` not a seat of the game, an unknown bot name, or a list of ``opponents``
            whose length is not the number of other seats.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: CardGameEnv,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "rule-of-thumb",
        illegal_reward: float | None = -1.0,
    ) -> None:
        agents = game.possible_agents
        if type(seat) is not int or not 0 <= seat < len(agents):
            raise ValueError(f"seat must be one of 0 to {len(agents) - 1}, not {shown(seat)}")
        names = [opponents] * (len(agents) - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(agents) - 1:
            raise ValueError(f"opponents: one bot name, or one for each of the {len(agents) - 1} other seats")
        others = [s for s in range(len(agents)) if s != seat]
        self.game = game
        """The PettingZoo environment the seats play in."""
        self.seat = seat
        """The learning seat."""
        self.agent = agents[seat]
        """The learning seat's agent name in :attr:`game`."""
        self.drivers = {s: BotDriver(name, game.rules) for s, name in zip(others, names, strict=True)}
        """The bot playing each other seat, by seat."""
        self.illegal_reward = illegal_reward
        """The reward of an illegal action, which ends the episode; None: raise ``ValueError``."""
        self.observation_space = game.observation_space(self.agent)
        self.action_space = game.action_space(self.agent)
        self._actions = int(game.action_space(self.agent).n)
        self.render_mode = game.render_mode
        self.metadata = {**self.metadata, "name": f"fly_rules/{game.rules.game}"}
        self._over = True
        self._result = 0.0

    def _observe(self) -> tuple[_Observation, _Info]:
        observation = self.game.observe(self.agent)
        return observation, {"action_mask": observation["action_mask"].copy()}

    def _play_bots(self) -> float:
        """Let the bots move until the learning seat is to move or the match is over; the seat's reward."""
        game, reward = self.game, 0.0
        while not game.match.is_over and game.agent_selection != self.agent:
            driver = self.drivers[game.match.to_move]
            game.step(driver.next_id(game.match.deal, game.marked))
            reward += game.rewards[self.agent]
        return reward

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[_Observation, _Info]:
        """A new match, shuffled and the bots seeded from ``seed`` (or from the generator's next draws);
        the bots move first if they are to, so the learning seat is to move."""
        super().reset(seed=seed)
        for driver in self.drivers.values():
            driver.rng.seed(int(self.np_random.integers(_SEED_RANGE)))
        self.game.reset(seed=int(self.np_random.integers(_SEED_RANGE)))
        self._result = self._play_bots()  # nothing is scored before every seat has declared
        self._over = False
        return self._observe()

    def step(self, action: Any) -> tuple[_Observation, SupportsFloat, bool, bool, _Info]:
        """The learning seat takes ``action``, then the bots move until it is to move again or the match
        is over.

        Raises:
            RuntimeError: no episode is under way (call :meth:`reset`).
            TypeError: ``action`` is not an integer id.
            ValueError: an illegal action, when ``illegal_reward`` is None.
        """
        if self._over:
            raise RuntimeError("no episode is under way: call reset()")
        action = _action_id(action)
        if not (0 <= action < self._actions and self.game.observe(self.agent)["action_mask"][action]):
            if self.illegal_reward is None:
                raise ValueError(f"action {action} is not legal for {self.agent} now")
            self._over = True
            observation, info = self._observe()
            info.update(illegal_action=True, result=float(self.illegal_reward))
            return observation, float(self.illegal_reward), True, False, info
        self.game.step(action)
        reward = self.game.rewards[self.agent] + self._play_bots()
        self._result += reward
        self._over = self.game.match.is_over
        observation, info = self._observe()
        if self._over:
            info["result"] = self._result
        return observation, reward, self._over, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learning seat now, as booleans (all false once the episode is over)."""
        mask: npt.NDArray[np.bool_] = self.game.observe(self.agent)["action_mask"].astype(bool)
        return mask

    def render(self) -> Any:
        """The PettingZoo environment's picture of the table (see ``render_mode``)."""
        return self.game.render()


def seat_env(
    game: str = "fly",
    players: int | None = None,
    seat: int = 0,
    opponents: str | Sequence[str] = "rule-of-thumb",
    *,
    rules: Rules | None = None,
    preset: str = "default",
    max_deals: int = 1,
    render_mode: str | None = None,
    illegal_reward: float | None = -1.0,
    relative_seats: bool = False,
    **options: object,
) -> SeatEnv:
    """One seat of ``game`` (a name of :mod:`fly_rules.registry`: ``"fly"``, ``"dreyfus"``) against the
    bots: what ``gymnasium.make`` builds for ``"fly_rules/Fly-v0"`` and ``"fly_rules/Dreyfus-v0"``.

    The rules are ``rules``, or those of ``preset`` for ``players`` (the game's default table size when
    not given) with ``options`` (any option of the game's rules, by name).

    >>> env = seat_env("dreyfus", seat=2, opponents=["random", "rule-of-thumb"])
    >>> observation, info = env.reset(seed=1)
    >>> env.game.match.to_move, env.action_masks().sum() == info["action_mask"].sum()
    (2, np.True_)

    Raises:
        ValueError: a bad seat or bot name, an unknown rules option, or ``rules`` of another game or
            given together with ``players``, ``preset`` or options.
        InvalidRules: an unknown game, preset or option value, or a table size the game is not for,
            naming it.
    """
    _described, rules = rules_for(game, env_id(registry.get(game)), rules, players, preset, options)
    table = CardGameEnv(rules, max_deals=max_deals, render_mode=render_mode, relative_seats=relative_seats)
    return SeatEnv(table, seat=seat, opponents=opponents, illegal_reward=illegal_reward)


def _register() -> None:
    """Register the environments of every game of the registry, once (importing again changes nothing):
    the entry points as ``"module:attr"`` strings, so that a spec is plain data (``EnvSpec.to_json``)."""
    for game in registry.games():
        described = registry.get(game)
        if env_id(described) not in gymnasium.registry:
            gymnasium.register(
                env_id(described),
                entry_point=f"{__name__}:seat_env",
                vector_entry_point=f"{__name__}:batch_env" if described.batch is not None else None,
                kwargs={"game": game},
            )


_register()

# Documented, pickled and named by their entry point under this module, where users import them from.
for _public in (BatchSeatEnv, OpponentPool, batch_env):
    _public.__module__ = __name__
