"""Rule-of-thumb bots: a few lines of card sense per game, no search.

Fly: fold a hand with no trump and no ace, exchange the low plain cards, take the trump card
when it is worth it, and win each trick as cheaply as possible. Dreyfus: buy the low plain
фоски, and win cheaply.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fly_rules import registry
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.bots.base import cheapest_winner, strength
from fly_rules.cards import ACE_HIGH, Card, CardSet, Rank, RankOrder, Suit
from fly_rules.engine import Phase

if TYPE_CHECKING:
    from fly_rules.dreyfus import DreyfusView
    from fly_rules.fly import FlyView

__all__ = ["DreyfusRuleOfThumbBot", "FlyRuleOfThumbBot", "RuleOfThumbBot"]


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
            return min(swaps, key=lambda a: strength(a.card, trump, self.order))
        can_fold = any(isinstance(a, Fold) for a in legal_actions)
        if not good and can_fold:
            return Fold()
        weak = CardSet.of(c for c in hand if not self._good(c, trump))
        if weak:
            exchanges = [a for a in legal_actions if isinstance(a, Exchange) and a.cards <= weak]
            if exchanges:
                return max(exchanges, key=lambda a: (len(a.cards), -sum(self.order.strength[c.rank] for c in a.cards)))
        return Stand()


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


class RuleOfThumbBot:
    """The rule-of-thumb bot of whichever game its view belongs to."""

    name = "rule-of-thumb"
    """The bot's name in tables."""

    def __init__(self, order: RankOrder = ACE_HIGH) -> None:
        self.order = order
        self._policies: dict[str, Any] = {}  # each game's bot, made when its first view comes

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The game's rule-of-thumb choice."""
        policy = self._policies.get(view.game)
        if policy is None:
            policy = self._policies[view.game] = registry.game_of(view).rule_of_thumb(self.order)
        return policy.choose(view, legal_actions, rng)
