"""The PettingZoo environment class both games share, and its helpers; the public names are
re-exported by :mod:`fly_rules.adapters.pettingzoo` (a private module, so the versioned modules
import it without importing their own package)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import attrs
import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("fly_rules.adapters.pettingzoo needs PettingZoo: pip install 'fly_rules[pettingzoo]'") from error


from fly_rules import registry
from fly_rules.adapters.encoding import (
    OBSERVATION_HIGH,
    BotDriver,
    action_count,
    action_text,
    adapter_part,
    engine_action,
    legal_ids,
    observation_size,
    observation_text,
    write_observation,
)
from fly_rules.adapters.pettingzoo._picture import table_image
from fly_rules.cards import CardSet
from fly_rules.notation.games import new_game

__all__ = ["CardGameEnv", "engine_policy", "rules_from_options", "wrap"]

_SEED_RANGE: Final = 2**63


class CardGameEnv(AECEnv):  # type: ignore[misc]  # an untyped library's class
    """An AEC environment for a match of any registered game; build one for Fly or Dreyfus with
    :func:`fly_env` or :func:`dreyfus_env`, or for another game from its rules."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        rules: Any,
        *,
        max_deals: int = 1,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        relative_seats: bool = False,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        rules = attrs.evolve(rules, max_deals=max_deals)
        name, players, actions = f"{rules.game}_v0", rules.players, action_count(rules)
        self.metadata = {**self.metadata, "name": name}
        self.rules = rules
        """The rules of every match."""
        self.max_deals = max_deals
        """Deals per episode at most."""
        self.max_cycles = max_cycles
        """Steps after which an episode is truncated; None for never."""
        self.render_mode = render_mode
        self.relative_seats = bool(relative_seats)
        """Whether observations count the seats from the observer, going left (else absolute)."""
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        size = self._size = observation_size(rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, OBSERVATION_HIGH, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.match: Any = None
        """The engine match being played."""
        self.marked = 0
        """The cards the agent to move has marked for discard, as a mask."""
        self._legal: list[int] = []
        self._steps = 0

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match, shuffled from ``seed`` (or from the next seed of the last one)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            match_seed = seed
        else:
            match_seed = self._seeds.randrange(_SEED_RANGE)
        self.match = new_game(self.rules, seed=match_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.marked = 0
        self._steps = 0
        self._after_move()

    def _scores(self) -> list[int]:
        return list(self.match.scores)

    def _after_move(self) -> None:
        self._legal = legal_ids(self.match.deal, self.marked) if not self.match.is_over else []
        seat = self.match.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def _require_reset(self, what: str) -> None:
        if self.match is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before {what}")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The observation, reward, termination, truncation and info of the agent to act."""
        self._require_reset("last()")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and action mask."""
        self._require_reset("observe()")
        seat = self.possible_agents.index(agent)
        observation = np.zeros(self._size, np.float32)
        own_marks = self.marked if self.match.to_move == seat else 0
        write_observation(self.match.view(seat), own_marks, self.rules, observation, relative=self.relative_seats)
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        if self.match.to_move == seat:
            mask[self._legal] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the id ``action`` of the agent to move."""
        self._require_reset("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if action not in self._legal:
            raise ValueError(f"{action} ({action_text(self.match.deal, self.marked, action)}) is not legal now")
        before = self._scores()
        meaning = engine_action(self.match.deal, self.marked, action)
        if meaning.kind == "mark":
            self.marked = meaning.cards
        else:
            self.marked = 0
            self.match = self.match.apply(meaning.action)
        after = self._scores()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: float(after[s] - before[s]) for s, a in enumerate(self.agents)}
        self._steps += 1
        if self.match.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self._steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The table from above, every seat's hand shown: text (``"ansi"``; ``"human"`` prints it) or an
        image (``"rgb_array"``); None before :meth:`reset`."""
        if self.match is None:
            return None
        deal = self.match.deal
        hands = deal.hand_masks
        if self.render_mode == "rgb_array":
            view = self.match.view(0)
            shown, active = adapter_part(view.game, "table_shows")(view)
            table = registry.game_of(view).picture(view, {}, None)  # the records, dealer and stock of the SVG
            return table_image(
                [list(CardSet(h)) for h in hands],
                active,
                self.match.to_move,
                shown,
                view.trick,
                records=[str(r) for r in table.get("records") or ()],
                dealer=table.get("dealer"),
                stock=table.get("stock", 0),
            )
        lines = [observation_text(self.match.view(self.match.to_move or 0), self.marked)]
        lines += [f"player_{seat}: {CardSet(hand)}" for seat, hand in enumerate(hands)]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def engine_policy(env: Any, name: str = "rule-of-thumb", seed: int = 0) -> Callable[[Any, str], int]:
    """One of the library's bots (``"random"``, ``"rule-of-thumb"``, ``"monte-carlo"``) as a PettingZoo
    policy for ``env`` (wrapped or not): ``policy(observation, agent)`` gives the bot's action id for the
    agent to act; it sees only that seat's view, and answers for the state ``env`` is in (a policy made
    afresh at every step plays as well as one kept, marks and all).

    >>> from fly_rules.adapters.pettingzoo import fly_v0
    >>> env = fly_v0.env(num_players=3)
    >>> env.reset(seed=1)
    >>> policy = engine_policy(env, "rule-of-thumb")
    >>> for agent in env.agent_iter():
    ...     observation, reward, termination, truncation, info = env.last()
    ...     env.step(None if termination or truncation else policy(observation, agent))
    >>> env.unwrapped.match.is_over
    True

    Raises:
        ValueError: for an unknown bot name.
    """
    raw: CardGameEnv = env.unwrapped
    driver = BotDriver(name, raw.rules, seed)

    def policy(observation: Any, agent: str) -> int:
        if raw.agent_selection != agent:
            raise ValueError(f"{agent} is not the agent to act ({raw.agent_selection} is)")
        return driver.next_id(raw.match.deal, raw.marked)

    return policy


def rules_from_options(base: Any, name: str, options: dict[str, Any]) -> Any:
    """``base`` rules with ``options`` set; an unknown option is a ``ValueError`` naming it and ``name``."""
    unknown = set(options) - {field.name for field in attrs.fields(type(base))}
    if unknown:
        raise ValueError(f"{name}: unknown rules options {sorted(unknown)}")
    return attrs.evolve(base, **options)


def wrap(env: CardGameEnv) -> Any:
    """``env`` in the wrappers of PettingZoo's classic games: an illegal action ends the episode with
    ``-1`` for its agent, an action id out of range fails, calls before ``reset()`` fail clearly."""
    wrapped = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


# Documented, pickled and cited under the package that re-exports them, as before this module existed.
for _public in (CardGameEnv, engine_policy, rules_from_options, wrap):
    _public.__module__ = "fly_rules.adapters.pettingzoo"
