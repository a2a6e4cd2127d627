"""The bot protocol and the random bot.

A bot is anything with ``choose(view, legal_actions, rng) -> action``: it is given only what its
seat may know (``state.view(seat)``), the legal actions, and a random generator it must take all
its randomness from, so that a match between bots replays from its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["Bot", "RandomBot"]


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
