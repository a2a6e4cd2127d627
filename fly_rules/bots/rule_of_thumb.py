"""The rule-of-thumb bot: a few lines of card sense per game, no search. Each game's own is beside its rules
(:class:`fly_rules.fly.FlyRuleOfThumbBot`, :class:`fly_rules.dreyfus.DreyfusRuleOfThumbBot`), named by its
descriptor's ``rule_of_thumb``; :class:`RuleOfThumbBot` plays whichever game its view is of.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fly_rules import registry
from fly_rules.actions import Action
from fly_rules.cards import ACE_HIGH, RankOrder
from fly_rules.engine.protocols import SeatView

__all__ = ["RuleOfThumbBot"]


class RuleOfThumbBot:
    """The rule-of-thumb bot of whichever game its view belongs to."""

    name = "rule-of-thumb"
    """The bot's name in tables."""

    def __init__(self, order: RankOrder = ACE_HIGH) -> None:
        self.order = order
        self._policies: dict[str, Any] = {}  # each game's bot, made when its first view comes

    def choose(self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The game's rule-of-thumb choice."""
        policy = self._policies.get(view.game)
        if policy is None:
            policy = self._policies[view.game] = registry.game_of(view).rule_of_thumb(self.order)
        return policy.choose(view, legal_actions, rng)
