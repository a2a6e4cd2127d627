"""Fly's rule-of-thumb bot (:class:`fly_rules.bots.RuleOfThumbBot` plays it for a Fly view): fold a hand
with no trump and no ace, exchange the low plain cards, take the trump card when it is worth it, and win
each trick as cheaply as possible. A few lines of card sense, no search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import ACE_HIGH, Card, CardSet, Rank, RankOrder, Suit
from fly_rules.engine import Phase
from fly_rules.fly.state import FlyView
from fly_rules.tricks import card_strength, cheapest_winner

__all__ = ["FlyRuleOfThumbBot"]


class FlyRuleOfThumbBot:
    """The rule-of-thumb player of Fly.

    Args:
        order: the rank order of the rules played (``rules.rank_order``).
    """

    name = "rule-of-thumb"
    """The bot's name in tables."""

    def __init__(self, order: RankOrder = ACE_HIGH) -> None:
        self.order = order

    def _good(self, card: Card, trump: Suit) -> bool:
        """A card worth keeping: a trump, an ace or a king, the A♠."""
        return card.suit == trump or self.order.strength[card.rank] >= self.order.strength[Rank.KING]

    def choose(self, view: FlyView, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Declare by the hand's strength; play to win cheaply."""
        if view.phase is Phase.PLAY:
            return cheapest_winner(legal_actions, [c for _, c in view.trick], view.trump, self.order)
        trump = view.trump
        hand = view.hand
        good = [c for c in hand if self._good(c, trump)]
        swaps = [a for a in legal_actions if hasattr(a, "card") and not isinstance(a, Play)]  # the trump card
        if swaps and self.order.strength[view.trump_card.rank] >= self.order.strength[Rank.TEN]:
            return min(swaps, key=lambda a: card_strength(a.card, trump, self.order))
        can_fold = any(isinstance(a, Fold) for a in legal_actions)
        if not good and can_fold:
            return Fold()
        weak = CardSet.of(c for c in hand if not self._good(c, trump))
        if weak:
            exchanges = [a for a in legal_actions if isinstance(a, Exchange) and a.cards <= weak]
            if exchanges:
                return max(exchanges, key=lambda a: (len(a.cards), -sum(self.order.strength[c.rank] for c in a.cards)))
        return Stand()
