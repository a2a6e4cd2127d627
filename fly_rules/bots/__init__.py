"""Bots: players for simulations, tests and the ``fly-rules play`` command.

A bot is anything with ``choose(view, legal_actions, rng) -> action`` (:class:`Bot`). It sees
only its seat's view, so it cannot cheat; it takes all its randomness from ``rng``, so a match
between bots replays from its seeds.

>>> import random
>>> from fly_rules import fly
>>> from fly_rules.bots import RuleOfThumbBot
>>> m = fly.new_match(fly.FlyRules(players=3), seed=2, dealer=0)
>>> RuleOfThumbBot().choose(m.view(1), m.legal_actions(), random.Random(0)) in m.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any, Final

from fly_rules.bots.arena import BOTS, MatchResult, Tally, make_bot, play_match, run_matches, wilson_interval
from fly_rules.bots.base import Bot, RandomBot
from fly_rules.bots.expert import ExpertBot
from fly_rules.bots.monte_carlo import MonteCarloBot
from fly_rules.bots.rule_of_thumb import RuleOfThumbBot
from fly_rules.engine.protocols import Rules

__all__ = [
    "BOTS",
    "HINT_BOT",
    "Bot",
    "ExpertBot",
    "MatchResult",
    "MonteCarloBot",
    "RandomBot",
    "RuleOfThumbBot",
    "Tally",
    "hint_bot",
    "hint_rng",
    "make_bot",
    "play_match",
    "run_matches",
    "wilson_interval",
]

HINT_BOT: Final = "expert" if "expert" in BOTS else "monte-carlo"
"""The bot whose choice a player asks for as a hint (``hint`` in ``fly-rules play``, the browser table's
hint button): the strongest bot registered, the expert when it is there."""


def hint_bot(rules: Rules) -> Bot[Any]:
    """The bot that gives the hints for ``rules`` (:data:`HINT_BOT`, as it is registered): the terminal's, the
    browser table's, and the one the review of a game (:mod:`fly_rules.analysis`) grades each decision with, so
    that the review's best action is the one the hint gives."""
    return make_bot(HINT_BOT, rules)


def hint_rng(seed: object, count: int) -> random.Random:
    """The randomness of the hint at the decision after ``count`` actions of the match (or deal) with ``seed``:
    the same wherever the hint is asked (the terminal, the browser, the review), so that they agree.

    >>> hint_rng(4, 7).random() == hint_rng(4, 7).random() != hint_rng(4, 8).random()
    True
    """
    return random.Random(f"{seed}:hint:{count}")
