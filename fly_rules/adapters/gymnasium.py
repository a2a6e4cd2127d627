"""Fly and Dreyfus as Gymnasium environments: one learning seat, the library's bots in the others.

Needs the ``gymnasium`` extra (``pip install 'fly_rules[gymnasium]'``). Importing this module
registers one environment per game of :mod:`fly_rules.registry` with Gymnasium:

>>> import gymnasium
>>> import fly_rules.adapters.gymnasium
>>> env = gymnasium.make("fly_rules/Fly-v0", players=4, seat=0, opponents="rule-of-thumb")
>>> observation, info = env.reset(seed=7)
>>> sorted(observation), observation["action_mask"].shape, int(info["action_mask"].sum())
(['action_mask', 'observation'], (158,), 7)

- ``"fly_rules/Fly-v0"`` and ``"fly_rules/Dreyfus-v0"`` (:func:`seat_env`): a match of the game, seen
  and played by one seat (``seat``, default 0); the other seats are played by the library's bots
  (``opponents``: ``"random"``, ``"rule-of-thumb"`` or ``"monte-carlo"``, one name for every other
  seat or one per other seat in seat order), each answering for the position it is given. Rules:
  ``players`` (Fly, 3–7, default 4), ``preset``, any rules option by name, or ``rules``; ``max_deals``
  deals per episode (default 1).
- **Observations** and **actions** are those of the PettingZoo environment
  (:mod:`fly_rules.adapters.pettingzoo`, built on :mod:`fly_rules.adapters.encoding`): a dict of
  ``"observation"`` (float32, from the seat's view only) and ``"action_mask"`` (int8, 1 on each legal
  id), and ``Discrete`` action ids (an exchange is marked card by card, then ``52`` exchanges). The
  mask is also ``info["action_mask"]`` and :meth:`SeatEnv.action_masks` (what sb3-contrib's
  ``MaskablePPO`` calls).
- **Reward**: the seat's score change since its last decision, the bots' moves included (Fly: its
  record going down; Dreyfus: points below minus points above), so an episode's rewards add up to the
  seat's result. **Terminated** when the match is over; never truncated (``gymnasium.make``'s
  ``max_episode_steps`` truncates if wanted).
- An **illegal action** ends the episode with reward ``illegal_reward`` (default ``-1``, as
  PettingZoo's classic games do) and ``info["illegal_action"] = True``; with ``illegal_reward=None``
  it raises ``ValueError`` instead.
- ``reset(seed=s)`` seeds the match and the bots, so the same seed and actions replay the same
  episode; ``render_mode`` is the PettingZoo environment's (``"ansi"``, ``"human"``, ``"rgb_array"``).

``"fly_rules/FlyVector-v0"`` and ``"fly_rules/DreyfusVector-v0"`` (:func:`batch_env`, through
``gymnasium.make_vec``) are vector environments on the batch engine (:mod:`fly_rules.batch`):
``num_envs`` single deals, one learning seat in each, all stepped in one call. Their other seats play
random legal actions drawn by the engine (the bots decide one game at a time), their actions are the
batch engine's ids, and a finished deal is dealt anew in the same step (``AutoresetMode.SAME_STEP``),
so the learning seat is to move in every deal after every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import numpy as np

try:
    import gymnasium
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("fly_rules.adapters.gymnasium needs Gymnasium: pip install 'fly_rules[gymnasium]'") from error

from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from fly_rules import registry
from fly_rules.adapters.encoding import OBSERVATION_HIGH, BotDriver
from fly_rules.adapters.pettingzoo import CardGameEnv, rules_from_options

__all__ = ["BatchSeatEnv", "SeatEnv", "batch_env", "seat_env"]

_SEED_RANGE: Final = 2**63

_Observation = dict[str, Any]
_Info = dict[str, Any]


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
            raise ValueError(f"seat must be one of 0 to {len(agents) - 1}, not {seat!r}")
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
        self._play_bots()  # nothing is scored before every seat has declared
        self._over = False
        return self._observe()

    def step(self, action: int) -> tuple[_Observation, SupportsFloat, bool, bool, _Info]:
        """The learning seat takes ``action``, then the bots move until it is to move again or the match
        is over.

        Raises:
            RuntimeError: no episode is under way (call :meth:`reset`).
            ValueError: an illegal action, when ``illegal_reward`` is None.
        """
        if self._over:
            raise RuntimeError("no episode is under way: call reset()")
        action = int(action)
        if not (0 <= action < self._actions and self.game.observe(self.agent)["action_mask"][action]):
            if self.illegal_reward is None:
                raise ValueError(f"action {action} is not legal for {self.agent} now")
            self._over = True
            observation, info = self._observe()
            return observation, float(self.illegal_reward), True, False, {**info, "illegal_action": True}
        self.game.step(action)
        reward = self.game.rewards[self.agent] + self._play_bots()
        self._over = self.game.match.is_over
        observation, info = self._observe()
        return observation, reward, self._over, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions of the learning seat now, as booleans (all false once the episode is over)."""
        mask: np.ndarray[Any, np.dtype[np.bool_]] = self.game.observe(self.agent)["action_mask"].astype(bool)
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
    rules: Any = None,
    preset: str = "default",
    max_deals: int = 1,
    render_mode: str | None = None,
    illegal_reward: float | None = -1.0,
    **options: Any,
) -> SeatEnv:
    """One seat of ``game`` (a name of :mod:`fly_rules.registry`: ``"fly"``, ``"dreyfus"``) against the
    bots: what ``gymnasium.make`` builds for ``"fly_rules/Fly-v0"`` and ``"fly_rules/Dreyfus-v0"``.

    The rules are ``rules``, or those of ``preset`` for ``players`` (Fly's table size, default 4;
    Dreyfus is for 3) with ``options`` (any option of the game's rules, by name).

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
    described = registry.get(game)
    name = _env_id(described)
    if rules is None:
        rules = rules_from_options(described.make_rules(preset, players, {}), name, options)
    elif players is not None or preset != "default" or options:
        raise ValueError(f"{name}: give either rules or players, preset and rules options, not both")
    elif registry.game_of(rules) is not described:
        raise ValueError(f"{name}: the rules are of {rules.game!r}, not {game!r}")
    table = CardGameEnv(rules, max_deals=max_deals, render_mode=render_mode)
    return SeatEnv(table, seat=seat, opponents=opponents, illegal_reward=illegal_reward)


class BatchSeatEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` deals of the batch engine (:mod:`fly_rules.batch`), one learning seat in each, stepped
    in one call; make one with :func:`batch_env` or ``gymnasium.make_vec("fly_rules/FlyVector-v0", …)``.

    Raises:
        ValueError: a bad seat, or ``opponents`` other than ``"random"``.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, engine: Any, *, seat: int = 0, opponents: str = "random") -> None:
        if type(seat) is not int or not 0 <= seat < engine.num_players:
            raise ValueError(f"seat must be one of 0 to {engine.num_players - 1}, not {seat!r}")
        if opponents != "random":
            raise ValueError(
                f"opponents={opponents!r}: the batch engine's other seats play its own random legal actions "
                "(the bots decide one game at a time); use opponents='random', or fly_rules/Fly-v0 for bots"
            )
        self.engine = engine
        """The batch engine, ``num_envs`` games at once."""
        self.seat = seat
        """The learning seat, the same in every game."""
        self.num_envs = engine.batch_size
        actions = engine.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH, (engine.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {**self.metadata, "name": f"fly_rules/{engine.game}-batch"}
        self.state: Any = None
        """The batch's state (:class:`fly_rules.batch.BatchState`); None before :meth:`reset`."""
        self._fresh: Any = None
        self._taken = 0
        self._returns = np.zeros(self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[_Observation, _Info]:
        """Deal every game anew from ``seed`` (or from the generator's next draws); the other seats move
        first where they are to, so the learning seat is to move in every game."""
        super().reset(seed=seed)
        self.state = self.engine.init(self._next_seed())
        self._fresh, self._taken = None, 0
        self._returns = np.zeros(self.num_envs)
        self._play_others()  # nothing is scored before every seat has declared
        return self._observe()

    def step(self, actions: Any) -> tuple[_Observation, Any, Any, Any, _Info]:
        """The learning seat of every game takes its action, then the other seats move until it is to
        move again or the deal is over; finished deals are dealt anew at once (``SAME_STEP``), their
        last observation in ``info["final_obs"]`` and the seat's result (its rewards' sum over the deal)
        in ``info["final_info"][i]["result"]``.

        Raises:
            RuleViolation: an action outside a game's mask, naming the game's index and the rule;
                nothing changes.
        """
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        self.engine.step(state, np.asarray(actions))
        rewards = state.rewards[:, self.seat].astype(np.float64)
        rewards += self._play_others()
        self._returns += rewards
        terminated = state.terminated.copy()
        infos: _Info = {}
        done = np.flatnonzero(terminated)
        if len(done):
            final_obs = np.empty(self.num_envs, object)
            for game in done:  # the seat's last observation: nothing left to decide
                final_obs[game] = {
                    "observation": np.zeros(self.engine.observation_size, np.float32),
                    "action_mask": np.zeros(self.engine.num_actions, np.int8),
                }
            final_info = np.empty(self.num_envs, object)
            final_info[done] = [{"result": float(self._returns[game])} for game in done]
            self._returns[done] = 0.0
            infos = {
                "final_obs": final_obs,
                "_final_obs": terminated,
                "final_info": final_info,
                "_final_info": terminated,
            }
            self._deal_anew(done)
            self._play_others()
        observation, info = self._observe()
        return observation, rewards, terminated, np.zeros(self.num_envs, bool), {**info, **infos}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """``bool[num_envs, actions]``: the learning seat's legal actions in every game."""
        mask: np.ndarray[Any, np.dtype[np.bool_]] = self.state.legal_action_mask.copy()
        return mask

    def _next_seed(self) -> int:
        return int(self.np_random.integers(_SEED_RANGE))

    def _observe(self) -> tuple[_Observation, _Info]:
        mask = self.state.legal_action_mask.astype(np.int8)
        return {"observation": self.state.observation.copy(), "action_mask": mask}, {"action_mask": mask.copy()}

    def _play_others(self) -> Any:
        """The other seats move, each game its random legal action, until the learning seat is to move
        or the deal is over in every game; the learning seat's rewards."""
        state, rewards = self.state, np.zeros(self.num_envs)
        while True:
            others = ~state.terminated & (state.current_player != self.seat)
            if not others.any():
                return rewards
            _step_only(self.engine, state, self.engine.sample_legal(state, self.np_random), others)
            rewards += np.where(others, state.rewards[:, self.seat], 0.0)

    def _deal_anew(self, games: Any) -> None:
        """Put fresh deals in place of the finished ``games``, taken from a batch dealt ahead (one deal
        each: a batch of single deals keeps nothing of a game but its rows)."""
        if self._fresh is None or self._taken + len(games) > self.num_envs:
            self._fresh, self._taken = self.engine.init(self._next_seed()), 0
        rows = np.arange(self._taken, self._taken + len(games))
        self._taken += len(games)
        for name, array in self.state.arrays().items():
            if array.shape[:1] == (self.num_envs,):
                array[games] = getattr(self._fresh, name)[rows]
        self.state.changed()


def _step_only(engine: Any, state: Any, actions: Any, games: Any) -> None:
    """Step the ``games`` (a boolean mask) of ``state`` alone: the engine leaves a game that is over as it
    is, so the others are marked over for the step."""
    over = state.terminated.copy()
    state.terminated |= ~games
    try:
        engine.step(state, actions)
    finally:
        state.terminated[:] = np.where(games, state.terminated, over)


def batch_env(
    game: str = "fly",
    num_envs: int = 1024,
    players: int | None = None,
    seat: int = 0,
    opponents: str = "random",
    *,
    rules: Any = None,
    preset: str | None = None,
    **options: Any,
) -> BatchSeatEnv:
    """``num_envs`` deals of ``game`` on the batch engine, one learning seat in each: what
    ``gymnasium.make_vec`` builds for ``"fly_rules/FlyVector-v0"``. The rules are those of
    :func:`fly_rules.batch.make`.

    Raises:
        ValueError: a bad seat, ``opponents`` other than ``"random"``, or a ``match`` option.
        InvalidRules: an unknown game, preset or option value, or one the batch engine does not play.
    """
    from fly_rules import batch  # noqa: PLC0415 - the batch extra, only when asked for

    if "match" in options:
        raise ValueError("the vector environment plays single deals: it takes no match option")
    engine = batch.make(game, num_envs, players=players, preset=preset, rules=rules, **options)
    return BatchSeatEnv(engine, seat=seat, opponents=opponents)


def _env_id(game: registry.Game[Any, Any, Any], kind: str = "") -> str:
    """The Gymnasium id of one seat of ``game``: ``fly_rules/Fly-v0`` (``kind="Vector"``: ``FlyVector-v0``)."""
    return f"fly_rules/{game.title}{kind}-v0"


def _register() -> None:
    """Register the environments of every game of the registry, once (importing again changes nothing)."""
    for game in registry.games():
        described = registry.get(game)
        if _env_id(described) not in gymnasium.registry:
            gymnasium.register(_env_id(described), entry_point=seat_env, kwargs={"game": game})
            gymnasium.register(_env_id(described, "Vector"), vector_entry_point=batch_env, kwargs={"game": game})


_register()
