"""Random matches and deals of both games, for the round-trip tests."""

from __future__ import annotations

import random
from typing import Any

from fly_rules import dreyfus, fly


def random_fly_match(seed: int, steps: int, players: int = 4, preset: str = "default") -> fly.FlyMatch:
    """A Fly match after up to ``steps`` random actions."""
    rng = random.Random(seed)
    match = fly.new_match(fly.FlyRules.preset(preset, players=players, max_deals=3), seed=seed)
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


def fly_start(stock: str = "7D", third: str = "7S 8S 9C TC JC") -> dict[str, Any]:
    """The keyword arguments of a small explicit three-player Fly deal (hearts trump)."""
    return {"hands": ["AS KH 7C 8D 9S", "AH QH JH TH 9H", third], "trump_card": "8H", "stock": stock, "dealer": 0}


def fly_start_deal(**changes: str) -> tuple[dict[str, Any], fly.FlyDeal]:
    """:func:`fly_start` and the deal it makes."""
    start = fly_start(**changes)
    return start, fly.new_deal(fly.FlyRules(players=3), **start)
