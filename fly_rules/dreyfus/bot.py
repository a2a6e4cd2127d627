"""Dreyfus's rule-of-thumb bot (:class:`fly_rules.bots.RuleOfThumbBot` plays it for a Dreyfus view): buy
the low plain фоски, then win each trick as cheaply as possible. A few lines of card sense, no search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fly_rules.actions import Exchange, Stand
from fly_rules.cards import CardSet, Rank
from fly_rules.dreyfus.state import DreyfusView
from fly_rules.engine import Phase
from fly_rules.tricks import cheapest_winner

__all__ = ["DreyfusRuleOfThumbBot"]


class DreyfusRuleOfThumbBot:
    """The rule-of-thumb player of Dreyfus: buy low plain фоски, then win cheaply."""

    name = "rule-of-thumb"
    """The bot's name in tables."""

    def __init__(self, highest_discard: Rank = Rank.NINE) -> None:
        self.highest_discard = highest_discard

    def choose(self, view: DreyfusView, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Buy in the exchange; play to win cheaply."""
        trump = view.contract
        if view.phase is Phase.PLAY:
            return cheapest_winner(legal_actions, [c for _, c in view.trick], trump)
        wanted = sorted(
            (c for c in view.hand if c.suit != trump and c.rank <= self.highest_discard),
            key=lambda c: c.rank,
        )[: view.talon_left]
        while wanted:
            action = Exchange(CardSet.of(wanted))
            if action in legal_actions:
                return action
            wanted.pop()
        return Stand()
