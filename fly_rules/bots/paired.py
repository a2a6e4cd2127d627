"""How much better one bot plays than another: the same deals played twice, only one seat's bot changed.

Deal ``i`` of a run with seed ``s`` is the first deal of the match seeded ``"s:i"``, dealt by seat ``i % n``; the
bot under test sits at :func:`seat_under_test` (every seat in turn, and every place from the dealer: the first to
declare, the second, ..., the dealer), the other seats are played by ``others``, and every seat draws its randomness
from its own generator seeded ``"s:i:seat"``. The deal is then played again with each other bot in that seat,
everything else the same. The difference of the seat's score change between two bots on the same deal is far less
noisy than results of separate matches: the cards are the same. :func:`mean_interval` gives the mean difference with
its 95% interval.

>>> from fly_rules import fly
>>> rules = fly.FlyRules(players=3)
>>> results = paired_deals(rules, ["rule-of-thumb", "random"], "rule-of-thumb", "doc", range(4))
>>> [sorted(r.changes) for r in results][0]
['random', 'rule-of-thumb']
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import attrs

from fly_rules import registry
from fly_rules.bots.arena import make_bot
from fly_rules.engine.protocols import Rules
from fly_rules.notation.games import deal_of

__all__ = ["PairedDeal", "mean_interval", "paired_deals", "play_deal", "play_table", "seat_under_test"]


@attrs.frozen
class PairedDeal:
    """One deal played once per bot in the same seat."""

    index: int
    """The deal's index in its run."""
    seat: int
    """The seat the bots took in turn."""
    changes: dict[str, int]
    """Per bot, the change of the seat's score over the deal (Fly: minus the record's change; Dreyfus:
    the lower record's change minus the upper's)."""
    seconds: dict[str, list[float]]
    """Per bot, the CPU seconds of each of its decisions with more than one legal action."""


def seat_under_test(index: int, players: int) -> int:
    """The seat the bots take in turn at deal ``index`` (dealt by seat ``index % players``): over each
    ``players ** 2`` deals every seat, at every place from the dealer, as often.

    >>> [seat_under_test(i, 3) for i in range(9)], [(seat_under_test(i, 3) - i) % 3 for i in range(9)]
    ([0, 1, 2, 1, 2, 0, 2, 0, 1], [0, 0, 0, 1, 1, 1, 2, 2, 2])
    """
    return (index + index // players) % players


def play_table(
    rules: Rules, lineup: Sequence[Any], seed: int | str, index: int, timed: int | None = None
) -> tuple[list[int], list[float]]:
    """Deal ``index`` of the run ``seed`` played by the bots ``lineup`` (one a seat: a bot's name, or a bot):
    each seat's score change, and the CPU seconds of each decision with a choice of the seat ``timed`` (none if
    None)."""
    game = registry.game_of(rules)
    players = rules.players
    deal = deal_of(game.new_match(rules, seed=f"{seed}:{index}", dealer=index % players))
    start = deal.scores
    bots = [make_bot(name, rules) if isinstance(name, str) else name for name in lineup]
    rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(players)]
    seconds = []
    while not deal.is_over:
        mover = deal.to_move
        legal = deal.legal_actions()
        began = time.process_time()
        action = bots[mover].choose(deal.view(mover), legal, rngs[mover])
        if mover == timed and len(legal) > 1:
            seconds.append(time.process_time() - began)
        deal = deal.apply(action)
    return [end - begin for end, begin in zip(deal.scores, start, strict=True)], seconds


def play_deal(rules: Rules, seat: int, bot: str, others: str, seed: int | str, index: int) -> tuple[int, list[float]]:
    """Deal ``index`` of the run ``seed`` with ``bot`` at ``seat`` and ``others`` elsewhere: the seat's score change
    and the CPU seconds of each of its decisions that had a choice."""
    lineup = [bot if s == seat else others for s in range(rules.players)]
    changes, seconds = play_table(rules, lineup, seed, index, timed=seat)
    return changes[seat], seconds


def paired_deals(
    rules: Rules, bots: Sequence[str], others: str, seed: int | str, indices: Sequence[int]
) -> list[PairedDeal]:
    """The deals ``indices`` of the run ``seed``, each played once with every bot of ``bots`` in the rotating
    seat and ``others`` in the other seats (one worker's share of a run)."""
    out = []
    for index in indices:
        seat = seat_under_test(index, rules.players)
        changes, seconds = {}, {}
        for bot in bots:
            changes[bot], seconds[bot] = play_deal(rules, seat, bot, others, seed, index)
        out.append(PairedDeal(index, seat, changes, seconds))
    return out


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation, which many paired deals justify).

    >>> mean_interval([1.0, 2.0, 3.0, 4.0])
    (2.5, 1.23482..., 3.76517...)
    """
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half
