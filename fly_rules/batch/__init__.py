"""Thousands of games stepped at once, on NumPy arrays: the batch engines of Fly and Dreyfus.

Install the ``batch`` extra (``pip install 'fly_rules[batch]'``): the core needs only attrs. The
interface is the one reinforcement-learning users know from pgx:

>>> import numpy as np
>>> from fly_rules import batch
>>> env = batch.make("fly", batch_size=4, players=5)
>>> state = env.init(seed=7)
>>> state.current_player.shape, state.legal_action_mask.shape, state.rewards.shape
((4,), (4, 90), (4, 5))
>>> rng = np.random.default_rng(0)
>>> while not state.terminated.all():
...     state = env.step(state, env.sample_legal(state, rng))
>>> deal = batch.to_scalar(state, 0)              # game 0 as the scalar engine's deal
>>> deal.is_over, deal.records == tuple(state.records[0])
(True, True)

Each game is played exactly as the scalar engine plays it (``tests/batch`` steps thousands of
random games of both and compares them after every action); each deal comes from the batch's
own seeded generator, game ``i``'s deals from the seed and ``i`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fly_rules import registry
from fly_rules.batch._dreyfus import DreyfusBatch
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._fly import FlyBatch
from fly_rules.batch._state import BatchState
from fly_rules.errors import InvalidRules

__all__ = ["BatchEngine", "BatchState", "DreyfusBatch", "FlyBatch", "from_scalar", "make", "to_scalar"]

for _class in (BatchEngine, BatchState, DreyfusBatch, FlyBatch):
    _class.__module__ = __name__  # documented and cited where users import them from


def make(
    game: str,
    batch_size: int = 1024,
    *,
    players: int | None = None,
    preset: str | None = None,
    match: bool = False,
    rules: Any = None,
    **options: Any,
) -> BatchEngine:
    """A batch engine of ``game`` (``"fly"`` or ``"dreyfus"``) for ``batch_size`` games at once.

    The rules are ``rules`` if given, else the game's rules built from ``preset`` (a named
    profile) and ``options`` (any option of :class:`~fly_rules.fly.FlyRules` or
    :class:`~fly_rules.dreyfus.DreyfusRules`); ``players`` is the table size (if not given, the
    middle of the game's range: 5 for Fly, 3 for Dreyfus). The game's batch engine is the one its
    descriptor names (its ``batch``, :class:`fly_rules.registry.Game`). ``match=True`` plays whole matches
    (deal after deal until the match ends); otherwise each game is one deal.

    Raises:
        InvalidRules: an unknown game, an option out of range, or one the batch engine does not play, by name.
        ValueError: a game the batch engine does not play.
    """
    described = registry.get(game)
    if described.batch is None:
        playable = ", ".join(name for name in registry.games() if registry.get(name).batch is not None)
        raise ValueError(f"the batch engine does not play {game!r} (it plays: {playable})")
    if rules is None:
        low, high = described.seats
        rules = described.make_rules(preset or "default", (low + high) // 2 if players is None else players, options)
    elif preset is not None or options or players not in (None, rules.players):
        raise InvalidRules("rules", "give either rules or players, preset and options, not both")
    if getattr(rules, "game", None) != game:
        raise InvalidRules(
            "rules", f"{described.title} needs {described.rules_class.__name__}, not {type(rules).__name__}"
        )
    engine: BatchEngine = described.batch(rules, batch_size, match=match)
    return engine


def to_scalar(state: BatchState, game: int) -> Any:
    """Game ``game`` of the batch as the scalar engine's match (a match batch) or deal: the same
    cards, records and actions, so it answers every question of the scalar API."""
    if not 0 <= game < state.batch_size:
        raise IndexError(f"game {game} is not in a batch of {state.batch_size}")
    return state._engine.to_scalar(state, game)


def from_scalar(states: Sequence[Any], *, seed: int = 0, match: bool | None = None) -> BatchState:
    """A batch whose game ``i`` starts at ``states[i]``: scalar deals or matches of one game under
    one set of rules, each at the start of its deal. A batch of matches when they are matches
    (or ``match``); their later deals come from the batch's generator seeded with ``seed``.

    Raises:
        ValueError: no states, mixed games or rules, or a deal already begun.
    """
    if not states:
        raise ValueError("from_scalar needs at least one state")
    first = states[0]
    is_match = hasattr(first, "previous_deal") and hasattr(first, "first_dealer") if match is None else match
    engine = make(first.game, len(states), rules=first.rules, match=is_match)
    return engine.from_scalar(states, seed=seed)
