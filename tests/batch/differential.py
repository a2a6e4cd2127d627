"""Stepping a batch and the scalar engine side by side, game by game, comparing after every action; and the
options the comparisons vary, drawn from the rules classes' own fields."""

from __future__ import annotations

import enum
import os
import random
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import numpy as np

from fly_rules import batch, registry
from fly_rules.batch import BatchEngine, BatchState

TRAJECTORIES = 10_000 if os.environ.get("CI") == "true" else 1_200
"""Random games compared per game: at least 10,000 on CI, fewer on a developer's machine."""

Check = Callable[[BatchEngine, BatchState, dict[str, list[Any]], int, Any, int], None]
"""A game's comparison: the engine, the state, its arrays as lists, the game, the scalar twin, the
mask of legal ids as an int."""


def mask_ints(state: BatchState) -> list[int]:
    """Each game's legal action mask as an int, bit ``a`` for id ``a``."""
    packed = np.packbits(state.legal_action_mask, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def twins(env: BatchEngine, seed: int | str) -> list[Any]:
    """The scalar matches the games of ``env.init(seed)`` are, made by the scalar engine alone: game ``i``
    is the match of seed ``batch:<seed>:<i>``, its first dealer drawn by lot (a batch of single deals:
    the match stopped after one deal)."""
    rules = env.rules if env.match else attrs.evolve(env.rules, max_deals=1)
    new_match = registry.get(env.game).new_match
    return [new_match(rules, seed=f"batch:{seed}:{i}") for i in range(env.batch_size)]


def run(
    env: BatchEngine,
    seed: int,
    check: Check,
    score: Callable[[Any], tuple[int, ...]],
    fields: tuple[str, ...],
    rng: np.random.Generator,
    *,
    argmax: bool = False,
) -> int:
    """Play a batch to its end with random legal actions, stepping the scalar twin of every game (made
    by the scalar engine from the game's seed, not by the batch) and comparing them after every step;
    return the number of steps."""
    state = env.init(seed)
    scalars = twins(env, seed)
    steps = 0
    while True:
        lists = {name: getattr(state, name).tolist() for name in (*fields, "current_player", "terminated")}
        masks = mask_ints(state)
        for i, scalar in enumerate(scalars):
            to_move = scalar.to_move
            assert lists["current_player"][i] == (-1 if to_move is None else to_move)
            assert lists["terminated"][i] == scalar.is_over
            check(env, state, lists, i, scalar, masks[i])
        if state.terminated.all():
            break
        if argmax:
            actions = np.argmax(rng.random((env.batch_size, env.num_actions)) * state.legal_action_mask, axis=1)
        else:
            actions = env.sample_legal(state, rng)
        live = (~state.terminated).tolist()
        moves = [env.action_to_scalar(state, i, int(actions[i])) if live[i] else None for i in range(len(scalars))]
        before = [score(s) for s in scalars]
        state = env.step(state, actions)
        steps += 1
        rewards = state.rewards.tolist()
        for i, move in enumerate(moves):
            if move is not None:
                scalars[i] = scalars[i].apply(move)
            after = score(scalars[i])
            assert rewards[i] == [float(a - b) for a, b in zip(after, before[i], strict=True)]
    assert state.truncated.sum() == 0
    for i, scalar in enumerate(scalars):
        assert batch.to_scalar(state, i) == scalar
    return steps


def option_choices(
    rules_class: type, values: Mapping[str, tuple[Any, ...]], left_out: Mapping[str, str]
) -> dict[str, tuple[Any, ...]]:
    """The values the comparisons draw for every option (field) of ``rules_class``: ``values`` where given,
    else every value of a ``Literal`` option and both of a bool. An option in ``left_out`` (with the reason)
    is not drawn.

    Raises:
        AssertionError: an option with neither (a new option nobody varies), or one drawn with a single value.
    """
    hints = typing.get_type_hints(rules_class)
    choices: dict[str, tuple[Any, ...]] = {}
    for field in attrs.fields(rules_class):
        name = field.alias
        if not field.init or name in left_out:
            continue
        drawn = values.get(name) or _all_values(hints[field.name])
        assert drawn, f"option {name} of {rules_class.__name__} is not varied: give it values in the batch tests"
        assert len(drawn) > 1, f"option {name} is drawn with one value only"
        choices[name] = drawn
    return choices


def _all_values(hint: object) -> tuple[Any, ...]:
    """Every value a ``Literal[...]``, ``bool`` or ``Literal[...] | None`` annotation allows; () otherwise."""
    if hint is bool:
        return (False, True)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return tuple(hint)
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        parts = [_all_values(arg) for arg in typing.get_args(hint) if arg is not type(None)]
        if parts and all(parts):
            return (None, *(value for part in parts for value in part))
    return ()


def random_options(rng: random.Random, choices: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """One value of each option, at random."""
    return {name: rng.choice(values) for name, values in choices.items()}
