"""Perft and divide: counts of the legal action sequences from a position, within a budget.

As chess programmers count move sequences to test a move generator, :func:`perft` counts the distinct
legal action sequences of a given length (depth) from a deal, a sequence that ends the deal early not
continued; :func:`divide` gives the same count split by the first action, which is how a wrong count
is traced down to the position where two engines list different actions. Each count runs within a
:class:`Budget` of positions visited and seconds, so that no request of the line protocol can run for
ever (``specs/conformance/README.md``).

>>> from fly_rules.notation import parse_position
>>> deal = parse_position("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s,s,s 1")
>>> perft(deal, 2)
{'nodes': 25, 'plays': 25, 'declarations': 0, 'deal_ends': 0}
>>> divide(deal, 2)["play 9H"]
{'nodes': 5, 'plays': 5, 'declarations': 0, 'deal_ends': 0}
>>> perft(deal, 3, Budget(nodes=10))
Traceback (most recent call last):
...
fly_rules.conformance.perft.OverBudget: over the budget of 10 positions visited (max_nodes)
"""

from __future__ import annotations

import time
from typing import Any, Final

import attrs

from fly_rules.actions import Play
from fly_rules.engine import Phase
from fly_rules.notation.games import action_text

__all__ = ["COUNTS", "Budget", "OverBudget", "divide", "perft", "visits"]

COUNTS: Final = ("nodes", "plays", "declarations", "deal_ends")
"""The fields of a count: sequences, split by the kind of the last action (``plays``; ``declarations``:
stand, fold, exchange, swap-trump), and how many of them end the deal."""

_CHECK_CLOCK: Final = 1023
"""The clock is read once every 1,024 positions visited (a mask)."""


class OverBudget(ValueError):
    """A count stopped because it visited more positions, or took more seconds, than its budget."""


@attrs.frozen
class Budget:
    """How much one count may do: ``nodes`` positions visited (each legal action applied is one) and
    ``seconds`` of wall-clock time; None is no limit."""

    nodes: int | None = None
    """The most positions the count may visit."""
    seconds: float | None = None
    """The most seconds the count may take."""

    def tighter(self, nodes: int | None) -> Budget:
        """This budget with at most ``nodes`` positions (a request's own ``max_nodes``)."""
        if nodes is None or (self.nodes is not None and self.nodes <= nodes):
            return self
        return attrs.evolve(self, nodes=nodes)


def _zero() -> dict[str, int]:
    return dict.fromkeys(COUNTS, 0)


class _Walk:
    """One count's walk: the positions visited so far and the deadline."""

    def __init__(self, budget: Budget | None) -> None:
        budget = budget or Budget()
        self.visited = 0
        self.limit = budget.nodes
        self.seconds = budget.seconds
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds

    def spend(self) -> None:
        self.visited += 1
        if self.limit is not None and self.visited > self.limit:
            raise OverBudget(f"over the budget of {self.limit:,} positions visited (max_nodes)")
        if self.deadline is not None and not self.visited & _CHECK_CLOCK and time.monotonic() > self.deadline:
            raise OverBudget(f"over the budget of {self.seconds:g} seconds")

    def count(self, node: Any, depth: int, counts: dict[str, int]) -> None:
        """Add to ``counts`` the sequences of length ``depth`` (at least 1) from ``node``."""
        for action in node.legal_actions():
            self.spend()
            after = node.apply(action)
            if depth > 1:
                if after.phase is not Phase.OVER:
                    self.count(after, depth - 1, counts)
                continue
            counts["nodes"] += 1
            counts["plays" if type(action) is Play else "declarations"] += 1
            counts["deal_ends"] += after.phase is Phase.OVER


def perft(state: Any, depth: int, budget: Budget | None = None) -> dict[str, int]:
    """The number of distinct legal action sequences of length ``depth`` from ``state`` (``nodes``), split by
    the kind of the last action (``plays``; ``declarations``: stand, fold, exchange, swap-trump), and how
    many of them end the deal (``deal_ends``); a sequence that ends the deal early is not continued.

    Raises:
        OverBudget: the count needs more than ``budget`` allows.
    """
    counts = _zero()
    if depth >= 1:
        _Walk(budget).count(state, depth, counts)
    return counts


def divide(state: Any, depth: int, budget: Budget | None = None) -> dict[str, dict[str, int]]:
    """:func:`perft` split by the first action: each legal action's text (REC-3.2), in the order of
    ``legal_actions()``, with the counts of the sequences of length ``depth`` (at least 1) that start with it.

    Raises:
        OverBudget: the count needs more than ``budget`` allows.
    """
    walk = _Walk(budget)
    split: dict[str, dict[str, int]] = {}
    for action in state.legal_actions():
        walk.spend()
        after = state.apply(action)
        counts = _zero()
        if depth > 1:
            if after.phase is not Phase.OVER:
                walk.count(after, depth - 1, counts)
        else:
            counts["nodes"] = 1
            counts["plays" if type(action) is Play else "declarations"] = 1
            counts["deal_ends"] = int(after.phase is Phase.OVER)
        split[action_text(action)] = counts
    return split


def visits(rows: dict[int, int], depth: int) -> int:
    """The positions a count to ``depth`` visits, from the published counts of every depth (``rows``, depth
    to nodes): each sequence of each length up to ``depth`` is one position visited."""
    return sum(rows.get(d, 0) for d in range(1, depth + 1))
