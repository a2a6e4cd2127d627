"""Random matches and deals of both games, for the round-trip tests."""

from __future__ import annotations

import random
from typing import Any

from fly_rules import dreyfus, fly


def random_fly_match(seed: int, steps: int, players: int = 4, preset: str = "default") -> fly.FlyMatch:
    """A Fly match after up to ``steps`` random actions."""
    rng = random.Random(seed)
    match = fly.new_match(fly.FlyRules.preset(preset, players=players), seed=seed, max_deals=3)
    for _ in range(steps):
        if match.is_over:
            break
        legal = match.legal_actions()
        match = match.apply(legal[rng.randrange(len(legal))])
    return match


def random_dreyfus_match(seed: int, steps: int, **options: Any) -> tuple[dreyfus.DreyfusMatch, list[Any]]:
    """A Dreyfus match after up to ``steps`` random actions, and those actions."""
    rng = random.Random(seed)
    rules = dreyfus.DreyfusRules(max_deals=2, **options)
    match = dreyfus.new_match(rules, seed=seed)
    taken: list[Any] = []
    for _ in range(steps):
        if match.is_over:
            break
        legal = match.legal_actions()
        action = legal[rng.randrange(min(len(legal), 40))]
        taken.append(action)
        match = match.apply(action)
    return match, taken
