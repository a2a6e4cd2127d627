"""Fly as a PettingZoo classic environment: ``fly_v0.env(num_players=5)``.

>>> from fly_rules.adapters.pettingzoo import fly_v0
>>> env = fly_v0.env(num_players=5, render_mode="ansi")
>>> env.reset(seed=3)
>>> env.possible_agents[-1], env.agent_selection
('player_4', 'player_3')
"""

from __future__ import annotations

from typing import Any

from fly_rules import fly, registry
from fly_rules.adapters.pettingzoo._env import CardGameEnv, rules_from_options, wrap

__all__ = ["env", "raw_env"]


def raw_env(
    rules: fly.FlyRules | None = None,
    *,
    num_players: int | None = None,
    preset: str = "default",
    max_deals: int = 1,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    relative_seats: bool = False,
    **options: object,
) -> CardGameEnv:
    """The unwrapped environment: ``num_players`` seats (the game's default,
    :data:`fly_rules.fly.rules.DEFAULT_PLAYERS`, 4) under the rules of ``preset`` with ``options`` (any
    :class:`~fly_rules.fly.FlyRules` option), or under ``rules``.

    Raises:
        ValueError: ``rules`` given together with ``num_players``, ``preset`` or rules options.
        InvalidRules: an unknown option or value, naming it (and the rule ID).
    """
    if rules is None:  # the game's one default table size when none is given, as its descriptor has it
        rules = rules_from_options(registry.get("fly").make_rules(preset, num_players, {}), "fly_v0", options)
    elif num_players is not None or preset != "default" or options:
        raise ValueError("fly_v0: give either a FlyRules or num_players/preset/rules options, not both")
    else:
        registry.rules_game(rules, "fly")
    return CardGameEnv(
        rules, max_deals=max_deals, max_cycles=max_cycles, render_mode=render_mode, relative_seats=relative_seats
    )


def env(**kwargs: Any) -> Any:
    """:func:`raw_env` in PettingZoo's classic wrappers (:func:`~fly_rules.adapters.pettingzoo.wrap`)."""
    return wrap(raw_env(**kwargs))
