"""Fly (Муха): the engine of ``specs/fly.md``.

>>> from fly_rules import fly
>>> m = fly.new_match(fly.FlyRules(players=4), seed=7, dealer=0)
>>> m.legal_actions()[:2]
(Stand(), Fold())
>>> m = m.apply(fly.Stand())
>>> m.to_move
2
"""

from __future__ import annotations

from typing import Final

from fly_rules import registry
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.engine import Phase
from fly_rules.fly.bot import FlyRuleOfThumbBot
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.match import FlyMatch, new_match
from fly_rules.fly.positions import new_deal
from fly_rules.fly.present import descriptor
from fly_rules.fly.rules import DEFAULT_DECKS, DEFAULT_PLAYERS, PRESETS, RENAMED_OPTIONS, RENAMED_VALUES, FlyRules
from fly_rules.fly.state import Declared, FlyDeal, FlyView

RULES_VERSION: Final = 3
"""Bumped whenever a change to the engine changes the outcome of some game."""

registry.register(descriptor(RULES_VERSION))

__all__ = [
    "DEFAULT_DECKS",
    "DEFAULT_PLAYERS",
    "PRESETS",
    "RENAMED_OPTIONS",
    "RENAMED_VALUES",
    "RULES_VERSION",
    "Declared",
    "Exchange",
    "FlyDeal",
    "FlyMatch",
    "FlyRuleOfThumbBot",
    "FlyRules",
    "FlyView",
    "Fold",
    "Phase",
    "Play",
    "Stand",
    "SwapTrump",
    "new_deal",
    "new_match",
]
