"""The bot protocol, the random bot, and the card sense the other bots share.

A bot is anything with ``choose(view, legal_actions, rng) -> action``: it is given only what its
seat may know (``state.view(seat)``), the legal actions, and a random generator it must take all
its randomness from, so that a match between bots replays from its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from fly_rules.actions import Play
from fly_rules.cards import ACE_HIGH, Card, RankOrder, Suit
from fly_rules.tricks import trick_winner

__all__ = ["Bot", "RandomBot", "cheapest_winner", "strength"]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal actions from a seat's view."""

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal_actions``, chosen from ``view`` alone, with randomness from ``rng``."""


class RandomBot:
    """Picks uniformly among the legal actions.

    >>> from fly_rules import fly
    >>> m = fly.new_match(fly.FlyRules(players=3), seed=1, dealer=0)
    >>> RandomBot().choose(m.view(1), m.legal_actions(), random.Random(0)) in m.legal_actions()
    True
    """

    name = "random"
    """The bot's name in tables."""

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]


def strength(card: Card, trump: Suit | None, order: RankOrder = ACE_HIGH) -> int:
    """How strong ``card`` is in play: trumps above every plain card, then by rank.

    >>> strength(Card.parse("7H"), Suit.HEARTS) > strength(Card.parse("AS"), Suit.HEARTS)
    True
    """
    return order.strength[card.rank] + (100 if card.suit == trump else 0)


def cheapest_winner(
    plays: Sequence[Play], trick: Sequence[Card], trump: Suit | None, order: RankOrder = ACE_HIGH
) -> Play:
    """Win cheaply: the weakest play that would take the trick as it stands, else the weakest play.

    Leading, the strongest card is played (it is the likeliest to take a trick).
    """
    if not trick:
        return max(plays, key=lambda p: strength(p.card, trump, order))
    cards = [c.index for c in trick]
    winners = [p for p in plays if trick_winner([*cards, p.card.index], trump, order) == len(cards)]
    pool = winners or list(plays)
    return min(pool, key=lambda p: strength(p.card, trump, order))
