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

import attrs

from fly_rules.batch._dreyfus import DreyfusBatch
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._fly import FlyBatch
from fly_rules.batch._state import BatchState
from fly_rules.dreyfus.rules import PRESETS, DreyfusRules
from fly_rules.errors import InvalidRules
from fly_rules.fly.rules import FlyRules

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
    :class:`~fly_rules.dreyfus.DreyfusRules`); ``players`` is Fly's table size (5 if not given).
    ``match=True`` plays whole matches (deal after deal until the match ends); otherwise each
    game is one deal.

    Raises:
        InvalidRules: an option out of range, or one the batch engine does not play, by name.
    """
    if game == "fly":
        if rules is None:
            seats = 5 if players is None else players
            rules = FlyRules.preset(preset, players=seats, **options) if preset else FlyRules(players=seats, **options)
        elif preset is not None or options or players not in (None, rules.players):
            raise InvalidRules("rules", "give either rules or players, preset and options, not both")
        if getattr(rules, "game", None) != "fly":
            raise InvalidRules("rules", f"Fly needs FlyRules, not {type(rules).__name__}")
        return FlyBatch(rules, batch_size, match=match)
    if game == "dreyfus":
        if players not in (None, 3):
            raise InvalidRules("players", f"DRF-1.1: Dreyfus is for 3 players, not {players!r}")
        if rules is None:
            if preset is not None and preset not in PRESETS:
                DreyfusRules.preset(preset)  # raises, naming the known presets
            base = PRESETS[preset or "default"]
            rules = attrs.evolve(base, **options) if options else base
        elif preset is not None or options:
            raise InvalidRules("rules", "give either rules or preset and options, not both")
        if getattr(rules, "game", None) != "dreyfus":
            raise InvalidRules("rules", f"Dreyfus needs DreyfusRules, not {type(rules).__name__}")
        return DreyfusBatch(rules, batch_size, match=match)
    raise ValueError(f"unknown game {game!r}: 'fly' or 'dreyfus'")


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
