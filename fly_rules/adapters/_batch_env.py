"""The vector environment on the batch engine, one learning seat in each of thousands of games (the
``vector_entry_point`` of :mod:`fly_rules.adapters.gymnasium`, which documents and re-exports it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from fly_rules import registry
from fly_rules._numbers import check_count
from fly_rules.adapters.encoding import OBSERVATION_HIGH
from fly_rules.adapters.learned import Network, batch_ids
from fly_rules.adapters.pettingzoo import rules_from_options
from fly_rules.errors import FlyRulesError, shown

__all__ = ["BatchSeatEnv", "OpponentPool", "Policy", "batch_env", "env_id", "rules_for"]

_SEED_RANGE: Final = 2**63

_Observation = dict[str, Any]
_Info = dict[str, Any]
Policy = Callable[[Any, Any], Any]
"""A batched policy: ``policy(observations, action_masks) -> ids``, ``float32[k, size]`` and
``bool[k, actions]`` in, ``int[k]`` out (a frozen network, for instance)."""


def rules_for(
    game: str, name: str, rules: Any, players: int | None, preset: str, options: dict[str, Any]
) -> tuple[registry.Game[Any, Any, Any], Any]:
    """The descriptor of ``game`` and the rules an environment is given: ``rules``, or those of ``preset``
    for ``players`` (None: the game's default table size) with ``options``."""
    described = registry.get(game)
    if rules is None:
        rules = rules_from_options(described.make_rules(preset, players, {}), name, options)
    elif players is not None or preset != "default" or options:
        raise ValueError(f"{name}: give either rules or players, preset and rules options, not both")
    elif not isinstance(rules, described.rules_class):
        raise ValueError(f"{name}: the rules are {shown(rules)}, not rules of {game!r}")
    return described, rules


def env_id(game: registry.Game[Any, Any, Any]) -> str:
    """The Gymnasium id of one seat of ``game``: ``fly_rules/Fly-v0``."""
    return f"fly_rules/{game.title}-v0"


class OpponentPool:
    """The frozen policies the other seats of a vector environment are drawn from, for self-play: at the
    start of every deal each other seat of each game is given one of ``policies`` at random (the
    last one added with probability ``latest``, else any). Start it with the bots to beat, then
    :meth:`add` snapshots of the learner as it trains; beyond ``size`` policies the oldest snapshot
    goes (the first ``keep`` stay).

    >>> pool = OpponentPool(["rule-of-thumb", "random"], size=4)
    >>> pool.add(lambda observations, masks: masks.argmax(axis=1))
    >>> len(pool.policies)
    3

    Raises:
        ValueError: no policies, or one that is neither a batch engine bot name nor callable.
    """

    NAMES: Final = ("random", "rule-of-thumb", "learned")
    """The bots the batch engine plays for every game at once (``"learned"``: the shipped network of
    :mod:`fly_rules.adapters.learned`, the rule of thumb where none was trained for the rules)."""

    def __init__(
        self, policies: Sequence[str | Policy | Network], *, size: int = 8, latest: float = 0.5, keep: int = 1
    ) -> None:
        if not policies:
            raise ValueError("an opponent pool needs at least one policy")
        for policy in policies:
            _check_policy(policy)
        self.policies: list[str | Policy | Network] = list(policies)
        """The policies, the first ``keep`` fixed, then the snapshots, oldest first."""
        self.size = size
        """The most policies the pool holds."""
        self.latest = latest
        """How often a seat is given the newest policy."""
        self.keep = keep
        """How many of the first policies are never dropped."""

    def add(self, policy: str | Policy | Network) -> None:
        """Add a frozen ``policy`` (a snapshot of the learner: a batched policy, or a
        :class:`~fly_rules.adapters.learned.Network` copy); drop the oldest snapshot beyond ``size``."""
        _check_policy(policy)
        self.policies.append(policy)
        if len(self.policies) > self.size:
            del self.policies[min(self.keep, len(self.policies) - 1)]

    def draw(self, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray[Any, np.dtype[np.int64]]:
        """Indices of ``policies``, one per entry of ``shape``."""
        anyone = rng.integers(0, len(self.policies), size=shape)
        newest = rng.random(shape) < self.latest
        drawn: np.ndarray[Any, np.dtype[np.int64]] = np.where(newest, len(self.policies) - 1, anyone)
        return drawn


def _check_policy(policy: object) -> None:
    named = isinstance(policy, str) and policy in OpponentPool.NAMES
    if not (named or callable(policy) or isinstance(policy, Network)):
        raise ValueError(
            f"an opponent is {', '.join(map(repr, OpponentPool.NAMES))}, a batched policy "
            f"(observations, action_masks) -> ids or a learned Network, not {shown(policy)}"
        )


def _autoreset(mode: object) -> AutoresetMode:
    """``mode`` as an :class:`~gymnasium.vector.AutoresetMode`: a member, or its name or value in any case,
    with or without underscores (``"same_step"``, ``"SameStep"``), as a spec's plain-data kwargs give it."""
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        key = mode.replace("_", "").lower()
        for member in AutoresetMode:
            if key in (member.name.replace("_", "").lower(), str(member.value).lower()):
                return member
    raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {shown(mode)}")


class BatchSeatEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of the batch engine (:mod:`fly_rules.batch`), one learning seat in each, stepped
    in one call, the other seats played inside the engine for every game at once; make one with
    :func:`batch_env` or ``gymnasium.make_vec("fly_rules/Fly-v0", …, vectorization_mode="vector_entry_point")``.

    ``seat`` is the learning seat in every game, or ``"random"``: drawn anew for each game at each deal,
    so that one policy learns to play every seat (self-play, with ``relative_seats=True`` and an
    :class:`OpponentPool`). Autoreset follows ``autoreset_mode``: ``NEXT_STEP`` (Gymnasium's default:
    the step after a game ends starts the next one, its action ignored) or ``SAME_STEP`` (a finished game
    is dealt anew in the step that ends it; its last observation is in ``info["final_obs"]`` and its info
    in ``info["final_info"]``, as Gymnasium's own vector environments give them).

    Under ``NEXT_STEP`` the observation of a game that has just ended has an **all-zero** ``action_mask``
    row (no action is legal in a finished game; the next step's action for it is ignored). A policy that
    masks by setting the logits of illegal actions to ``-inf`` must not sample from such a row (it is all
    ``-inf``: NaN probabilities); sample only where ``terminated | truncated`` was false, or use ``SAME_STEP``,
    where every row returned has a legal action. ``info["action_mask"]`` repeats the mask, with
    ``info["_action_mask"]`` (true for every game), Gymnasium's vector form of an info key.

    Raises:
        ValueError: a bad seat, opponent or autoreset mode.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        engine: Any,
        *,
        seat: int | str = 0,
        opponents: str | Policy | Network | OpponentPool = "rule-of-thumb",
        illegal_reward: float | None = -1.0,
        relative_seats: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        if seat != "random" and (type(seat) is not int or not 0 <= seat < engine.num_players):
            raise ValueError(f"seat must be one of 0 to {engine.num_players - 1}, or 'random', not {shown(seat)}")
        mode = _autoreset(autoreset_mode)
        if mode is AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP: the games are dealt anew by the env")
        if isinstance(opponents, str) and opponents not in OpponentPool.NAMES:
            raise ValueError(
                f"opponents={opponents!r}: the vector environment's other seats are played inside the batch "
                f"engine: {', '.join(map(repr, OpponentPool.NAMES))}, a batched policy or an OpponentPool; "
                "for another bot use the single environment, gymnasium.make('fly_rules/Fly-v0', …)"
            )
        self.engine = engine
        """The batch engine, ``num_envs`` games at once."""
        self.seat = seat
        """The learning seat, the same in every game, or ``"random"``."""
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool([opponents])
        """The policies the other seats are drawn from (one, unless an :class:`OpponentPool` was given)."""
        self.illegal_reward = illegal_reward
        """The reward of an illegal action, which ends its game; None: raise ``RuleViolation``."""
        self.relative_seats = bool(relative_seats)
        """Whether observations count the seats from the learner's, going left."""
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
        self.metadata = {**self.metadata, "autoreset_mode": mode, "name": f"fly_rules/{engine.game}-batch"}
        self.state: Any = None
        """The batch's state (:class:`fly_rules.batch.BatchState`); None before :meth:`reset`."""
        self.seats = np.zeros(self.num_envs, np.int64)
        """The learning seat of each game."""
        self.assigned = np.zeros((self.num_envs, engine.num_players), np.int64)
        """``[game, seat]``: the index in :attr:`pool` of the policy playing that seat."""
        self._seed = 0
        self._dealt = 0
        self._returns = np.zeros(self.num_envs)
        self._finished = np.zeros(self.num_envs, bool)

    # --- Gymnasium's interface --------------------------------------------------------------------

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Observation, _Info]:
        """Deal every game anew from ``seed`` (or from the generator's next draws); the other seats move
        first where they are to, so the learning seat is to move in every game.

        ``seed`` may also be Gymnasium's vector form, one seed (or None) per game: the batch draws every game
        from one generator, so the list as a whole seeds it (the same list deals the same games).
        ``options={"reset_mask": mask}`` (a bool per game) deals anew only the games it marks, as Gymnasium's
        vector environments do, keeping the others where they are.

        Raises:
            FlyRulesError: a seed that is not a whole number >= 0 (or a list of them, one per game); a
                ``reset_mask`` that is not one bool per game, given before the first reset or with a seed; any
                other option.
        """
        reset_mask = self._reset_mask(options, seed)
        if reset_mask is not None:
            self._finished[reset_mask] = False
            self._restart(np.flatnonzero(reset_mask))
            return self._observe()
        super().reset(seed=self._one_seed(seed))
        self._seed = int(self.np_random.integers(_SEED_RANGE))
        self.state = self.engine.init(self._seed)
        self._dealt = self.num_envs
        everything = np.arange(self.num_envs)
        self._returns = np.zeros(self.num_envs)
        self._finished = np.zeros(self.num_envs, bool)
        self._seat_games(everything)
        self._play_others()  # no seat's score changes before its own first decision
        return self._observe()

    def step(self, actions: Any) -> tuple[_Observation, Any, Any, Any, _Info]:
        """The learning seat of every game takes its action, then the other seats move until it is to
        move again or the game is over; a finished game starts anew as ``autoreset_mode`` says.

        Raises:
            RuntimeError: no reset yet.
            TypeError: ``actions`` is not one integer id per game.
            RuleViolation: an action outside a game's mask when ``illegal_reward`` is None, naming the
                game's index and the rule; nothing changes.
        """
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        try:
            ids = np.asarray(actions)
        except (ValueError, TypeError):  # a ragged list: NumPy's own message says nothing of the games
            ids = np.zeros(0)
        if ids.shape != (self.num_envs,) or ids.dtype == bool or not np.issubdtype(ids.dtype, np.integer):
            raise TypeError(f"actions must be {self.num_envs} integer ids (one per game), not {shown(actions)}")
        ids = ids.astype(np.int64)
        restarting = self._finished.copy() if self._next_step else np.zeros(self.num_envs, bool)
        playing = ~restarting
        legal = (ids >= 0) & (ids < self.engine.num_actions)
        legal[legal] = state.legal_action_mask[np.flatnonzero(legal), ids[legal]]
        illegal = playing & ~legal if self.illegal_reward is not None else np.zeros(self.num_envs, bool)
        rewards = np.zeros(self.num_envs)
        moving = playing & ~illegal  # with illegal_reward None the engine refuses an illegal one, naming it
        if moving.any():
            self.engine.step_in_place(state, np.where(moving, ids, 0), games=moving)
            rewards += np.where(moving, self._rewards(), 0.0)
            rewards += self._play_others()
        if illegal.any():
            rewards[illegal] = float(self.illegal_reward)  # type: ignore[arg-type]  # NumPy's stubs: a float fills a mask
            self._returns[illegal] = 0.0
        self._returns += np.where(playing, rewards, 0.0)
        terminated = playing & (state.terminated | illegal)
        infos: _Info = {}
        if terminated.any():
            infos = {"result": np.where(terminated, self._returns, 0.0), "_result": terminated}
            if illegal.any():
                infos.update(illegal_action=illegal, _illegal_action=illegal)
        if restarting.any():
            self._restart(np.flatnonzero(restarting))
        if self._next_step:
            self._finished = terminated
            observation, info = self._observe(over=terminated)
            return observation, rewards, terminated, np.zeros(self.num_envs, bool), {**info, **infos}
        done = np.flatnonzero(terminated)
        if len(done):
            final, _ = self._observe(over=terminated)
            final_obs = np.full(self.num_envs, None, object)
            for game in done:
                final_obs[game] = {key: value[game] for key, value in final.items()}
            infos = {
                "final_obs": final_obs,
                "_final_obs": terminated,
                "final_info": dict(infos),
                "_final_info": terminated,
            }
            self._restart(done)
        observation, info = self._observe()
        return observation, rewards, terminated, np.zeros(self.num_envs, bool), {**info, **infos}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """``bool[num_envs, actions]``: the learning seat's legal actions in every game (none in a game
        that has just ended, under ``NEXT_STEP``)."""
        if self.state is None:
            raise RuntimeError("call reset() before action_masks()")
        mask: np.ndarray[Any, np.dtype[np.bool_]] = self.state.legal_action_mask.copy()
        if self._next_step:
            mask[self._finished] = False
        return mask

    # --- the games --------------------------------------------------------------------------------

    @property
    def _next_step(self) -> bool:
        return bool(self.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP)

    def _one_seed(self, seed: object) -> int | None:
        """The generator's seed: ``seed`` itself, or one drawn from a list of per-game seeds."""
        if seed is None or not isinstance(seed, Sequence | np.ndarray) or isinstance(seed, str | bytes):
            return None if seed is None else check_count(seed, "seed")
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise FlyRulesError(f"seed: a list of seeds has one per game, {self.num_envs}, not {len(seeds)}")
        given = [(game, check_count(each, "seed")) for game, each in enumerate(seeds) if each is not None]
        if not given:
            return None
        entropy = [part for pair in given for part in pair]  # the games' places too: [5, None] is not [None, 5]
        return int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0])

    def _reset_mask(self, options: object, seed: object) -> Any:
        """The ``reset_mask`` of ``options`` as a bool per game, or None (a whole reset); anything else refused."""
        if options is None:
            return None
        if not isinstance(options, dict) or set(options) - {"reset_mask"}:
            raise FlyRulesError(f"options: the only option of reset is reset_mask, not {shown(options)}")
        if "reset_mask" not in options:
            return None
        mask = np.asarray(options["reset_mask"])
        if mask.shape != (self.num_envs,) or mask.dtype != bool:
            raise FlyRulesError(
                f"reset_mask must be {self.num_envs} bools (one per game), not {shown(options['reset_mask'])}"
            )
        if self.state is None or seed is not None:
            raise FlyRulesError("reset_mask deals some games anew after a first reset, and takes no seed")
        return mask

    def _observe(self, over: Any = None) -> tuple[_Observation, _Info]:
        observation = self.engine.observe(self.state, self.seats, relative=self.relative_seats)
        mask = self.state.legal_action_mask.astype(np.int8)
        if over is not None:
            mask[over] = 0
        every = np.ones(self.num_envs, bool)
        return {"observation": observation, "action_mask": mask}, {"action_mask": mask.copy(), "_action_mask": every}

    def _rewards(self) -> Any:
        """The learning seat's reward from the engine's last step, in every game."""
        return self.state.rewards[np.arange(self.num_envs), self.seats].astype(np.float64)

    def _seat_games(self, games: Any) -> None:
        """Choose the learning seat and the other seats' policies of ``games``, at the start of a deal."""
        rng = self.np_random
        if self.seat == "random":
            self.seats[games] = rng.integers(0, self.engine.num_players, size=len(games))
        else:
            self.seats[games] = self.seat
        self.assigned[games] = self.pool.draw(rng, (len(games), self.engine.num_players))

    def _restart(self, games: Any) -> None:
        """Deal new games in place of the finished ``games``: the scalar engine's matches of the next seeds
        of this reset's sequence, so that every game the environment plays can be replayed."""
        seeds = [f"batch:{self._seed}:{self._dealt + k}" for k in range(len(games))]
        self._dealt += len(games)
        self.engine.restart(self.state, games, seeds)
        self._seat_games(games)
        self._returns[games] = 0.0
        self._play_others()  # no seat's score changes before its own first decision

    def _play_others(self) -> Any:
        """The other seats move, every game at once, each seat by its policy, until the learning seat is to
        move or the game is over in every game; the learning seat's rewards."""
        state, rewards = self.state, np.zeros(self.num_envs)
        rows = np.arange(self.num_envs)
        while True:
            others = ~state.terminated & (state.current_player != self.seats)
            if not others.any():
                return rewards
            mover = np.maximum(state.current_player, 0)
            chosen = self.assigned[rows, mover]
            actions = np.zeros(self.num_envs, np.int64)
            for index in np.unique(chosen[others]):
                games = others & (chosen == index)
                actions[games] = self._policy_ids(self.pool.policies[index], mover, games)
            self.engine.step_in_place(state, actions, games=others)
            rewards += np.where(others, self._rewards(), 0.0)

    def _policy_ids(self, policy: str | Policy | Network, mover: Any, games: Any) -> Any:
        """The ids ``policy`` plays for the seats to move in ``games``."""
        if policy == "random":
            return self.engine.sample_legal(self.state, self.np_random)[games]
        if policy == "rule-of-thumb":
            return self.engine.rule_of_thumb(self.state, games)[games]
        if policy == "learned":  # the network's own inputs: relative seats, the rule of thumb's id
            return batch_ids(None, self.engine, self.state, mover, games)
        if isinstance(policy, Network):
            return batch_ids(policy, self.engine, self.state, mover, games)
        assert callable(policy)
        observation = self.engine.observe(self.state, mover, relative=self.relative_seats, games=games)
        ids = np.asarray(policy(observation, self.state.legal_action_mask[games]), dtype=np.int64).reshape(-1)
        if ids.shape != (int(games.sum()),):
            raise ValueError(f"a policy gave {ids.shape} ids for {int(games.sum())} games")
        return ids


def batch_env(
    num_envs: int = 1024,
    game: str = "fly",
    players: int | None = None,
    seat: int | str = 0,
    opponents: str | Policy | Network | OpponentPool = "rule-of-thumb",
    *,
    rules: Any = None,
    preset: str = "default",
    max_deals: int = 1,
    render_mode: str | None = None,
    illegal_reward: float | None = -1.0,
    relative_seats: bool = False,
    autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    **options: object,
) -> BatchSeatEnv:
    """``num_envs`` games of ``game`` on the batch engine, one learning seat in each: what
    ``gymnasium.make_vec`` builds for ``"fly_rules/Fly-v0"`` and ``"fly_rules/Dreyfus-v0"`` with
    ``vectorization_mode="vector_entry_point"``. The rules keywords are those of :func:`seat_env`, with
    the same defaults; an episode is a match of ``max_deals`` deals.

    Raises:
        ValueError: a bad seat, opponent or autoreset mode, a render mode (the vector environment draws
            nothing), or ``rules`` given with ``players``, ``preset`` or options.
        InvalidRules: an unknown game, preset or option value, or one the batch engine does not play.
    """
    from fly_rules import batch  # noqa: PLC0415 - the batch extra, only when asked for

    if render_mode is not None:
        raise ValueError(f"the vector environment draws nothing: render_mode must be None, not {shown(render_mode)}")
    _described, rules = rules_for(game, env_id(registry.get(game)), rules, players, preset, options)
    rules = attrs.evolve(rules, max_deals=max_deals)  # as the single environment's table has them
    engine = batch.make(game, num_envs, rules=rules, match=max_deals != 1)
    return BatchSeatEnv(
        engine,
        seat=seat,
        opponents=opponents,
        illegal_reward=illegal_reward,
        relative_seats=relative_seats,
        autoreset_mode=autoreset_mode,
    )
