"""Dreyfus as a PettingZoo classic environment: ``dreyfus_v0.env()``.

>>> from fly_rules.adapters.pettingzoo import dreyfus_v0
>>> env = dreyfus_v0.env(preset="shram", exchange_mode="incremental")
>>> env.reset(seed=3)
>>> env.possible_agents, env.unwrapped.rules.exchange_mode
(['player_0', 'player_1', 'player_2'], 'incremental')
"""

from __future__ import annotations

from typing import Any

from fly_rules import dreyfus, registry
from fly_rules.adapters.pettingzoo._env import CardGameEnv, rules_from_options, wrap

__all__ = ["env", "raw_env"]


def raw_env(
    rules: dreyfus.DreyfusRules | None = None,
    *,
    num_players: int = 3,
    preset: str = "default",
    max_deals: int = 1,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    relative_seats: bool = False,
    **options: object,
) -> CardGameEnv:
    """The unwrapped environment: the rules of ``preset`` with ``options`` (any
    :class:`~fly_rules.dreyfus.DreyfusRules` option), or ``rules``. Dreyfus is for three [DRF-1.1].

    Raises:
        ValueError: ``num_players`` other than 3, or ``rules`` given together with ``preset`` or options.
        InvalidRules: an unknown preset or option value, naming it.
    """
    if num_players != 3:
        raise ValueError(f"DRF-1.1: Dreyfus is played by three players, not num_players={num_players!r}")
    if rules is None:
        rules = rules_from_options(dreyfus.DreyfusRules.preset(preset), "dreyfus_v0", options)
    elif preset != "default" or options:
        raise ValueError("dreyfus_v0: give either a DreyfusRules or preset/rules options, not both")
    else:
        registry.rules_game(rules, "dreyfus")
    return CardGameEnv(
        rules, max_deals=max_deals, max_cycles=max_cycles, render_mode=render_mode, relative_seats=relative_seats
    )


def env(**kwargs: Any) -> Any:
    """:func:`raw_env` in PettingZoo's classic wrappers (:func:`~fly_rules.adapters.pettingzoo.wrap`)."""
    return wrap(raw_env(**kwargs))
