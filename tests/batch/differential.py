"""Stepping a batch and the scalar engine side by side, game by game, comparing after every action."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from fly_rules import batch
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
    """Play a batch to its end with random legal actions, stepping a scalar twin of every game and
    comparing them after every step; return the number of steps."""
    state = env.init(seed)
    scalars = [batch.to_scalar(state, i) for i in range(env.batch_size)]
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
        deal_numbers = state.deal_number.tolist()
        state = env.step(state, actions)
        steps += 1
        rewards = state.rewards.tolist()
        numbers = state.deal_number.tolist()
        for i, move in enumerate(moves):
            if move is not None:
                scalars[i] = scalars[i].apply(move)
            after = score(scalars[i])
            assert rewards[i] == [float(a - b) for a, b in zip(after, before[i], strict=True)]
            if numbers[i] != deal_numbers[i]:
                # a new deal from the batch's generator: the scalar match has shuffled its own from its seed
                assert scalars[i].deal.deal_number == numbers[i]
                assert scalars[i].dealer == state.dealer[i]
                scalars[i] = batch.to_scalar(state, i)
    assert state.truncated.sum() == 0
    for i, scalar in enumerate(scalars):
        assert batch.to_scalar(state, i) == scalar
    return steps


def random_options(rng: random.Random, choices: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """One value of each option, at random."""
    return {name: rng.choice(values) for name, values in choices.items()}
