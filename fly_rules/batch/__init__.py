"""Thousands of games stepped at once, on NumPy arrays: the batch engines of Fly and Dreyfus.

Install the ``batch`` extra (``pip install 'fly_rules[batch]'``): the core needs only attrs. The
interface and its semantics are pgx's: ``step`` returns a new state (``step_in_place`` is the fast
path that writes into the one it is given), ``observe(state, player)`` any seat's view, and the
engine's ``id``, ``version``, ``num_players``, ``num_actions`` and ``observation_shape``:

>>> import numpy as np
>>> from fly_rules import batch
>>> env = batch.make("fly", batch_size=4, players=5)
>>> state = env.init(seed=7)
>>> state.current_player.shape, state.legal_action_mask.shape, state.rewards.shape
((4,), (4, 90), (4, 5))
>>> rng = np.random.default_rng(0)
>>> while not state.terminated.all():
...     state = env.step(state, env.sample_legal(state, rng))
>>> game = batch.to_scalar(state, 0)              # game 0 as the scalar engine's match of one deal
>>> game.is_over, game.records == tuple(state.records[0]), game.seed
(True, True, 'batch:7:0')

Each game is a match of the scalar engine, dealt as it deals (its seed, shuffle and first dealer):
``to_scalar`` replays it and ``fly_rules.notation.dump_history`` saves it. ``tests/batch`` steps
thousands of random games of both and the scalar engine side by side, comparing them after every
action. The action ids are each game's one action space (:mod:`fly_rules.engine.encoding`), the ids
of every adapter; ``engine.rule_of_thumb(state)`` gives the library's rule-of-thumb bot's id for
every game at once, so it can play the other seats at batch speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from fly_rules import registry
from fly_rules.batch._dreyfus import DreyfusBatch
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._fly import FlyBatch
from fly_rules.batch._state import BatchState, Field
from fly_rules.engine.protocols import GameState, Rules
from fly_rules.errors import InvalidRules, shown

__all__ = ["BatchEngine", "BatchState", "DreyfusBatch", "Field", "FlyBatch", "from_scalar", "make", "to_scalar"]

for _class in (BatchEngine, BatchState, DreyfusBatch, Field, FlyBatch):
    _class.__module__ = __name__  # documented and cited where users import them from


def make(
    game: str,
    batch_size: int = 1024,
    *,
    players: int | None = None,
    preset: str | None = None,
    match: bool = False,
    rules: Rules | None = None,
    **options: object,
) -> BatchEngine:
    """A batch engine of ``game`` (``"fly"`` or ``"dreyfus"``) for ``batch_size`` games at once.

    The rules are ``rules`` if given, else the game's rules built from ``preset`` (a named
    profile) and ``options`` (any option of :class:`~fly_rules.fly.FlyRules` or
    :class:`~fly_rules.dreyfus.DreyfusRules`); ``players`` is the table size (if not given, the
    game's default, as its descriptor's ``make_rules`` has it: 4 for Fly, 3 for Dreyfus). The game's
    batch engine is the one its descriptor names (its ``batch``, :class:`fly_rules.registry.Game`).
    ``match=True`` plays whole matches (deal after deal until the match ends); otherwise each game is
    one deal (the match stopped after its first deal).

    Raises:
        InvalidRules: an unknown game, option or preset, an option out of range, or one the batch
            engine does not play, by name.
        TypeError: ``rules`` that is not a rules object of the game.
        ValueError: a game the batch engine does not play; ``rules`` given with ``players``, ``preset``
            or options.
    """
    described = registry.get(game)
    if described.batch is None:
        playable = ", ".join(name for name in registry.games() if registry.get(name).batch is not None)
        raise ValueError(f"the batch engine does not play {game!r} (it plays: {playable})")
    if rules is None:
        rules_class = described.rules_class
        known = {field.name for field in attrs.fields(rules_class)} if attrs.has(rules_class) else set()
        for name in options:
            if name not in known:
                raise InvalidRules(name, f"is not an option of {described.rules_class.__name__}")
        rules = described.make_rules(preset or "default", players, options)
    elif preset is not None or options or players not in (None, getattr(rules, "players", None)):
        raise ValueError("give either rules or players, preset and options, not both")
    if not isinstance(rules, described.rules_class):
        raise TypeError(f"{described.title} needs {described.rules_class.__name__}, not {shown(rules)}")
    engine: BatchEngine = described.batch(rules, batch_size, match=match)
    return engine


def to_scalar(state: BatchState, game: int | np.integer[Any]) -> Any:
    """Game ``game`` of the batch as the scalar engine's state: its match (of one deal, in a batch of
    single deals), every action replayed, so it answers every question of the scalar API and
    ``dump_history`` saves it (see :meth:`BatchEngine.to_scalar`).

    Raises:
        TypeError: ``state`` is not a batch's state, or ``game`` not an int.
        IndexError: ``game`` is not in the batch.
    """
    if not isinstance(state, BatchState):
        raise TypeError(f"to_scalar takes a batch's state, not {shown(state)}")
    return state.engine.to_scalar(state, game)


def from_scalar(states: Sequence[GameState]) -> BatchState:
    """A batch whose game ``i`` starts at ``states[i]``: scalar matches, or lone deals, of one game under
    one set of rules, each at the start of its deal. A batch of matches goes on with the deals each
    match's own seed deals; a batch of deals plays each deal once.

    Raises:
        TypeError: ``states`` is not a sequence of scalar deals or matches.
        ValueError: no states, matches mixed with deals, other games or rules, or a deal already begun.
    """
    if isinstance(states, str) or not isinstance(states, Sequence):
        raise TypeError(f"from_scalar takes a sequence of scalar deals or matches, not {shown(states)}")
    if not states:
        raise ValueError("from_scalar needs at least one state")
    for i, scalar in enumerate(states):
        try:
            registry.game_of(scalar)
        except TypeError:
            raise TypeError(f"state {i} is not a scalar deal or match: {shown(scalar)}") from None
        if not hasattr(scalar, "deal") and not hasattr(scalar, "hand_masks"):
            raise TypeError(f"state {i} is not a scalar deal or match: {shown(scalar)}")
    is_match = hasattr(states[0], "first_dealer")
    if any(hasattr(scalar, "first_dealer") != is_match for scalar in states):
        raise ValueError("from_scalar takes matches or deals, not both")
    engine = make(states[0].game, len(states), rules=states[0].rules, match=is_match)
    return engine.from_scalar(states)
