"""A seat's chance of winning a Fly match from the records: the race to zero [FLY-8.1] [FLY-9.1] [FLY-10.1].

The record points a deal brings are not what a player wants at the end of a match: a seat on 2 that takes two
tricks wins, a seat on 20 that takes two is barely nearer. The expert bot values the end of a guessed deal by
the chance it gives the seat of winning the match, from this model:

- each seat's record moves deal by deal by a change drawn from one distribution (:func:`record_changes`: the
  changes of a seat at a table of rule-of-thumb players, counted over seeded deals), every seat independently
  of the others and of its record;
- a seat wins when its record reaches zero (a change that would take it below zero, through the A♠ bonus, is
  the exemption of FLY-9.3, so it reaches zero too); seats that get there in the same deal share the win
  equally (the model does not know which got there first in the deal).

It is a model, not the rules: its chances are estimates, and they hold only where the match is a race of
whole tricks to zero: ``trick_value`` 1 (no overshoot, FLY-9.2), ``stop_mode`` ``"immediate"``, and no
``max_deals`` short enough to matter (:func:`race_of` gives None for other rules).

>>> from fly_rules import fly
>>> race = race_of(fly.FlyRules(players=4))
>>> [round(race.chance((2, 25, 25, 25), seat), 3) for seat in range(4)]  # a record of 2 against three of 25
[0.864, 0.045, 0.045, 0.045]
>>> round(sum(race.chance((10, 12, 20, 25), seat) for seat in range(4)), 6)
1.0
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Sequence

import attrs

from fly_rules._options import check_rules
from fly_rules.fly.bot import FlyRuleOfThumbBot
from fly_rules.fly.match import new_match
from fly_rules.fly.rules import FlyRules

__all__ = ["Race", "race_of", "record_changes"]

DEALS = 1_000
"""Seeded deals :func:`record_changes` plays to count the changes."""
HORIZON = 600
"""Deals the race is followed for; the chances are shares of the chance that someone wins by then."""

# _count_changes's counts for the plain rules of each size, FlyRules(players=n), over DEALS deals, by n: the first
# hint of a match (in the browser too) would otherwise play those deals first, a second or more. tests/fly/test_race.py
# counts them again.
# fmt: off
_COUNTED: dict[int, dict[int, int]] = {
    3: {-15: 28, -14: 26, -13: 40, -12: 36, -11: 30, -10: 46, -9: 66, -8: 93, -7: 131, -6: 129, -5: 65, -4: 163,
        -3: 291, -2: 491, -1: 538, 0: 138, 5: 588, 10: 101},
    4: {-15: 17, -14: 24, -13: 28, -12: 54, -11: 84, -10: 16, -9: 42, -8: 77, -7: 175, -6: 199, -5: 41, -4: 118,
        -3: 283, -2: 558, -1: 873, 0: 249, 5: 1016, 10: 146},
    5: {-15: 8, -14: 11, -13: 26, -12: 55, -11: 74, -10: 10, -9: 22, -8: 66, -7: 149, -6: 194, -5: 33, -4: 133,
        -3: 253, -2: 613, -1: 1144, 0: 506, 5: 1565, 10: 138},
    6: {-15: 5, -14: 9, -13: 32, -12: 64, -11: 89, -10: 5, -9: 31, -8: 60, -7: 146, -6: 284, -5: 8, -4: 67,
        -3: 210, -2: 632, -1: 1519, 0: 586, 5: 2065, 10: 188},
    7: {-14: 16, -13: 31, -12: 56, -11: 138, -10: 4, -9: 20, -8: 45, -7: 143, -6: 270, -5: 7, -4: 47, -3: 198,
        -2: 668, -1: 1649, 0: 706, 5: 2759, 10: 243},
}
# fmt: on


def record_changes(rules: FlyRules, deals: int = DEALS) -> dict[int, float]:
    """How one seat's record moves in a deal, change by change (negative: tricks written off), as a share of
    the seat-deals: every seat of ``deals`` seeded deals played by the rule-of-thumb bot from the start record
    [FLY-8.2] [FLY-8.3] [FLY-8.4] [FLY-8.5]."""
    counted = _COUNTED.get(rules.players) if deals == DEALS and rules == FlyRules(players=rules.players) else None
    counts = Counter(counted) if counted is not None else _count_changes(rules, deals)
    total = sum(counts.values())
    return {change: count / total for change, count in sorted(counts.items())}


def _count_changes(rules: FlyRules, deals: int) -> Counter[int]:
    """Every seat's record changes over ``deals`` seeded deals of rule-of-thumb players (what ``_COUNTED`` holds)."""
    bot = FlyRuleOfThumbBot(rules.rank_order)
    counts: Counter[int] = Counter()
    start = (rules.start_record,) * rules.players
    for number in range(deals):
        deal = new_match(rules, seed=f"race-{number}", dealer=number % rules.players).deal
        while (mover := deal.to_move) is not None:
            deal = deal.apply(bot.choose(deal.view(mover), deal.legal_actions(), random.Random(0)))
        counts.update(end - begin for end, begin in zip(deal.records, start, strict=True))
    return counts


class Race:
    """The race to zero of independent records, each moving by ``changes`` a deal.

    Args:
        changes: a record's change in one deal and its chance (the chances sum to 1; some change must be negative).
        start: the start record (records above ``2 * start`` plus the largest change count as that much).
    """

    def __init__(self, changes: dict[int, float], start: int) -> None:
        if not any(change < 0 and chance > 0 for change, chance in changes.items()):
            raise ValueError("a race needs a change that writes a record down")
        self.cap = 2 * start + max(*changes, 0)
        self._steps = [(change, chance) for change, chance in changes.items() if chance > 0]
        # _rows[t][r]: the chance that a record at r has not reached zero within t deals; made as far as asked.
        self._rows = [[0.0] + [1.0] * self.cap]

    def _row(self, deal: int) -> list[float]:
        """The chances of not having reached zero within ``deal`` deals, by record (counted up to there now)."""
        cap, steps, rows = self.cap, self._steps, self._rows
        while len(rows) <= deal:
            last = rows[-1]
            rows.append(
                [0.0]
                + [
                    sum(chance * last[min(record + change, cap)] for change, chance in steps if record + change > 0)
                    for record in range(1, cap + 1)
                ]
            )
        return rows[deal]

    def length(self, records: Sequence[int], share: float = 0.999, within: int = HORIZON) -> float:
        """The deals by which some seat has reached zero from ``records``, with chance ``share`` (infinity if not
        within ``within`` deals or the horizon)."""
        capped = [min(record, self.cap) for record in records]
        for deal in range(min(within, HORIZON) + 1):
            row = self._row(deal)
            if 1 - math.prod(row[record] for record in capped) >= share:
                return deal
        return math.inf

    def chance(self, records: Sequence[int], seat: int) -> float:
        """``seat``'s chance of winning the match from ``records`` (a seat at zero has won)."""
        return self._chances(tuple(min(record, self.cap) for record in records))[seat]

    @functools.lru_cache(maxsize=1 << 16)  # noqa: B019 (one race per rules, kept by race_of)
    def _chances(self, records: tuple[int, ...]) -> tuple[float, ...]:
        """Every seat's chance of reaching zero first (sharing a deal's win equally), as shares of the chance that
        someone wins within the horizon (large tables of rule-of-thumb players drift upwards, and a little of it
        lies beyond)."""
        zeros = [s for s, record in enumerate(records) if record <= 0]
        if zeros:
            return tuple(1.0 / len(zeros) if s in zeros else 0.0 for s in range(len(records)))
        raw = [0.0] * len(records)
        for deal in range(1, HORIZON + 1):
            before = [self._row(deal - 1)[record] for record in records]
            if math.prod(before) < 1e-12:
                break  # someone has won by now
            stay = [self._row(deal)[record] for record in records]
            done = [was - still for was, still in zip(before, stay, strict=True)]
            # A seat that finishes in this deal shares the win with the k others that finish in it too, none before:
            # 1/(k+1) times the coefficient of x^k in the product of (stay + done x) over the others, which is that
            # product's integral over [0, 1], taken exactly by the quadrature.
            factors = [[still + gone * x for still, gone in zip(stay, done, strict=True)] for x in _NODES]
            products = [math.prod(row) for row in factors]
            for seat, finishing in enumerate(done):
                if finishing > 0:
                    shared = sum(w * p / row[seat] for w, p, row in zip(_WEIGHTS, products, factors, strict=True))
                    raw[seat] += finishing * shared
        total = sum(raw)
        return tuple(chance / total for chance in raw)


# Gauss-Legendre quadrature on [0, 1] with four points: exact for polynomials of degree up to seven, and the
# product over the other seats has degree at most six (seven players).
_NODES = tuple((1 - x) / 2 for x in (-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526))
_WEIGHTS = tuple(w / 2 for w in (0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538))


def race_of(rules: FlyRules) -> Race | None:
    """The race model of ``rules``, or None where a match is not a race of whole tricks to zero: ``trick_value``
    above 1, ``stop_mode`` ``"end_of_deal"``, or a ``max_deals`` that a match from the start records would
    reach more than once in a thousand (:meth:`Race.length`; then the lowest record at the limit wins, which the
    race does not model) [FLY-8.2] [FLY-9.1] [FLY-10.1].

    Raises:
        TypeError: ``rules`` is not a :class:`FlyRules`.
    """
    check_rules(rules, FlyRules)
    if rules.trick_value != 1 or rules.stop_mode != "immediate":
        return None
    race = _race(attrs.evolve(rules, max_deals=None))
    start = (rules.start_record,) * rules.players
    if rules.max_deals is not None and not race.length(start, within=rules.max_deals) <= rules.max_deals:
        return None
    return race


@functools.cache
def _race(rules: FlyRules) -> Race:
    """The race of ``rules``, counted once (its chances are cached with it)."""
    return Race(record_changes(rules), rules.start_record)
