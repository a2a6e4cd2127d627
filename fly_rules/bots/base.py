"""The bot protocol (:class:`fly_rules.engine.protocols.Bot`, re-exported) and the random bot.

A bot is anything with ``choose(view, legal_actions, rng) -> action``: it is given only what its
seat may know (``state.view(seat)``), the legal actions, and a random generator it must take all
its randomness from, so that a match between bots replays from its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from fly_rules.engine.protocols import Bot, SeatView

__all__ = ["Bot", "RandomBot"]

_A = TypeVar("_A")


class RandomBot:
    """Picks uniformly among the legal actions.

    >>> from fly_rules import fly
    >>> m = fly.new_match(fly.FlyRules(players=3), seed=1, dealer=0)
    >>> RandomBot().choose(m.view(1), m.legal_actions(), random.Random(0)) in m.legal_actions()
    True
    """

    name = "random"
    """The bot's name in tables."""

    def choose(self, view: SeatView, legal_actions: Sequence[_A], rng: random.Random) -> _A:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]
