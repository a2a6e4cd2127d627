"""Bots at the table, away from the event loop [TBL-7.1]: a worker process chooses from a seat's view alone.

The worker is given what the seat may see (its view and legal actions) and nothing else, never the state or
the seed, and answers the action's text (REC-3.2). Each worker keeps the bots it has made, one per name and
rules, so an expert's tables are built once.
"""

from __future__ import annotations

import multiprocessing
import random
import secrets
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from fly_rules.actions import Action
from fly_rules.bots import make_bot
from fly_rules.engine.protocols import Rules, SeatView
from fly_rules.notation.games import action_text

__all__ = ["bot_pool", "choose"]

_made: dict[tuple[str, Any], Any] = {}


def choose(bot: str, rules: Rules, view: SeatView, legal: Sequence[Action], seed: int) -> str:
    """The text of the action the bot ``bot`` chooses from ``view`` among ``legal``, its randomness from ``seed``."""
    player = _made.get((bot, rules))
    if player is None:
        player = _made[bot, rules] = make_bot(bot, rules)
    return action_text(player.choose(view, legal, random.Random(seed)))


def new_seed() -> int:
    """A bot's random seed: from the secure source, as every random value of the server is."""
    return secrets.randbits(64)


def bot_pool(workers: int) -> Executor:
    """The worker processes the bots run in (spawned: the server's threads and sockets are not copied)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
