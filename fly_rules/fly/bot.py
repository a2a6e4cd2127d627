"""Fly's rule-of-thumb bot (:class:`fly_rules.bots.RuleOfThumbBot` plays it for a Fly view): fold a hand
with no trump and no ace, exchange the low plain cards, take the trump card when it is worth it, and win
each trick as cheaply as possible. A few lines of card sense, no search.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import ACE_HIGH, Card, CardSet, Rank, RankOrder, Suit
from fly_rules.engine import Phase
from fly_rules.fly.state import FlyView
from fly_rules.tricks import card_strength, cheapest_winner

__all__ = ["FlyRuleOfThumbBot"]

_ACE_OF_SPADES = 1 << 51


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
        # the stand, fold and trump card swaps come before the exchanges (legal_actions' order): the many
        # exchanges are not made one by one
        offered = list(itertools.takewhile(lambda a: not isinstance(a, Exchange), legal_actions))
        swaps = [a for a in offered if hasattr(a, "card") and not isinstance(a, Play)]  # the trump card
        if swaps and self.order.strength[view.trump_card.rank] >= self.order.strength[Rank.TEN]:
            return min(swaps, key=lambda a: card_strength(a.card, trump, self.order))
        can_fold = any(isinstance(a, Fold) for a in offered)
        if not good and can_fold:
            return Fold()
        weak = [c for c in hand if not self._good(c, trump)]
        if weak:
            exchange = self._exchange(weak, legal_actions)
            if exchange is not None:
                return exchange
        return Stand()

    def _exchange(self, weak: list[Card], legal_actions: Sequence[Any]) -> Exchange | None:
        """The legal exchange of the most ``weak`` cards, then of the weakest (the least sum of ranks), the first
        in ``legal_actions`` among equals; None if no exchange of them is legal. Only the exchanges of the weak
        cards are tried, largest first, not every exchange offered."""
        strength = self.order.strength
        for size in range(len(weak), 0, -1):
            found = [
                (-sum(strength[card.rank] for card in cards), -legal_actions.index(action), action)
                for cards in itertools.combinations(weak, size)
                if (action := Exchange(CardSet.of(cards))) in legal_actions
            ]
            if found:
                return max(found, key=lambda entry: entry[:2])[2]
        return None
