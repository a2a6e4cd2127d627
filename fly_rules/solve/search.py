"""The searches of :mod:`fly_rules.solve`: max^n and paranoid alpha-beta over a game's search kernel.

Both run on a :class:`~fly_rules.engine.solving.SearchKernel`, which hands them one child per class of
equivalent actions in the tie order and a key for positions whose futures are the same; the
transposition table keeps, per key, the value changes from that position to the end of the deal (max^n:
every seat's; paranoid: the hero's, as bounds). Nothing here knows a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from operator import add, sub
from typing import Any, Generic, TypeVar

from fly_rules._numbers import check_count
from fly_rules.engine.solving import SearchKernel
from fly_rules.errors import FlyRulesError, shown

__all__ = ["Search", "SolveLimitReached", "SolveTimeUp"]

_N = TypeVar("_N")
"""The kernel's search node."""
_T = TypeVar("_T")
"""The kernel's move: the token of one class of equivalent actions."""
_INFINITY = 1 << 60
_KERNEL = ("node", "mover", "scores", "children", "tokens", "child", "key", "actions", "action")
"""The methods of a :class:`~fly_rules.engine.solving.SearchKernel`."""
_CLOCK_EVERY = 1024
"""Positions between two looks at the clock when a search has a deadline (some milliseconds)."""


class SolveLimitReached(FlyRulesError):
    """The search visited more positions than its ``limit`` allowed; nothing was decided.

    Attributes:
        limit: the number of positions allowed.
    """

    limit: int

    def __init__(self, limit: int) -> None:
        super().__init__(f"the solver visited more than {limit:,} positions (its limit) before it was done")
        self.limit = limit

    def __reduce__(self) -> tuple[type[SolveLimitReached], tuple[int]]:
        return (type(self), (self.limit,))


class SolveTimeUp(FlyRulesError):
    """The search was still running at its ``deadline``; nothing was decided."""

    def __init__(self) -> None:
        super().__init__("the solver was not done by its deadline")

    def __reduce__(self) -> tuple[type[SolveTimeUp], tuple[()]]:
        return (type(self), ())


def check_deadline(deadline: object) -> float | None:
    """``deadline`` if it is None or a ``time.monotonic()`` instant (a number).

    Raises:
        FlyRulesError: it is anything else.
    """
    if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, int | float)):
        raise FlyRulesError(f"deadline must be a time.monotonic() instant, not {shown(deadline)}")
    return None if deadline is None else float(deadline)


def next_look(visits: int, limit: int | None, deadline: float | None) -> int:
    """The count of positions at which a search that has visited ``visits`` looks again at its ``limit`` and its
    ``deadline``. A search compares its count with this one number, so a deadline costs nothing between looks.

    Raises:
        SolveLimitReached: ``visits`` is past ``limit``.
        SolveTimeUp: the clock is past ``deadline``.
    """
    if limit is not None and visits > limit:
        raise SolveLimitReached(limit)
    if deadline is None:
        return _INFINITY if limit is None else limit
    if time.monotonic() >= deadline:
        raise SolveTimeUp()
    return min(visits + _CLOCK_EVERY, _INFINITY if limit is None else limit)


class Search(Generic[_N, _T]):
    """One game's searches with a transposition table kept between them (reuse it along a line).

    A kernel may offer a max^n search of its own for some nodes: ``kernel.maxn_below(search)`` returns a function
    that, given a node with a key (whose visit is counted already), returns its max^n value (every seat's score at
    the end of the deal) or None where the generic search must go on; it keeps its entries in :attr:`table` under
    keys of its own, adds its positions to :attr:`visits` and raises :meth:`limit_reached` once past :attr:`limit`
    (Fly's checks at each trick's start, so a few positions past it at most).

    Args:
        kernel: the game's search kernel.
        limit: the most positions to visit in all (None: no limit); past it :class:`SolveLimitReached`.
        deadline: a ``time.monotonic()`` instant (None: none); a search still running then raises
            :class:`SolveTimeUp` (the clock is read every few thousand positions, so some milliseconds later).

    Raises:
        TypeError: ``kernel`` is not a search kernel.
        FlyRulesError: ``limit`` is not None or a whole number >= 0, or ``deadline`` not None or a number.
    """

    def __init__(self, kernel: SearchKernel[_N, _T], limit: object = None, deadline: object = None) -> None:
        missing = [name for name in _KERNEL if not callable(getattr(kernel, name, None))]
        if missing:
            raise TypeError(f"a Search needs a search kernel (kernel_of(deal)), not {type(kernel).__name__}")
        self.kernel = kernel
        self.limit = None if limit is None else check_count(limit, "limit")
        self.deadline = check_deadline(deadline)
        self._visits = [0]
        self._checkpoint = _INFINITY
        self._checkpoint = self._past()
        self.table: dict[Hashable, Any] = {}  # Any: a kernel's own search stores values of its own here
        """max^n: key → every seat's value changes to the end of the deal (and the entries of the kernel's own
        search, under keys of its own)."""
        self._maxn = self._make_maxn()
        self._bounds = getattr(kernel, "bounds", None)
        self._order = getattr(kernel, "order", None)
        self.bounds: dict[Hashable, tuple[int, int, _T | None]] = {}
        """paranoid: (hero, key) → lower and upper bounds on the hero's value change, and the best action's token."""

    @property
    def nodes(self) -> int:
        """Positions visited so far (each node entered once per visit, a table hit included)."""
        return self._visits[0]

    @property
    def visits(self) -> list[int]:
        """The counter of :attr:`nodes`, a one-item list that a kernel's own search adds to."""
        return self._visits

    def limit_reached(self) -> SolveLimitReached:
        """The error to raise once more than :attr:`limit` positions are visited."""
        assert self.limit is not None
        return SolveLimitReached(self.limit)

    def _past(self) -> int:
        return next_look(self._visits[0], self.limit, self.deadline)

    def _count(self) -> None:
        visits = self._visits
        visits[0] += 1
        if visits[0] > self._checkpoint:
            self._checkpoint = self._past()

    # --- max^n ------------------------------------------------------------------------------------

    def maxn(self, node: _N) -> tuple[int, ...]:
        """Every seat's score at the end of the deal when each seat to move takes the action best for
        itself, the first in tie order among equals."""
        value: tuple[int, ...] = self._maxn(node)
        return value

    def _make_maxn(self) -> Callable[[_N], tuple[int, ...]]:
        """The max^n search as a closure over the kernel's methods (the hot path: no attribute look-ups)."""
        mover_of, scores_of, key_of, children_of = (
            self.kernel.mover,
            self.kernel.scores,
            self.kernel.key,
            self.kernel.children,
        )
        get, table, visits, past = self.table.get, self.table, self._visits, self._past
        checkpoint = self._checkpoint
        make_below = getattr(self.kernel, "maxn_below", None)
        below = None if make_below is None else make_below(self)

        def maxn(node: _N) -> tuple[int, ...]:
            nonlocal checkpoint
            visits[0] += 1
            if visits[0] > checkpoint:
                checkpoint = past()
            mover = mover_of(node)
            if mover is None:
                return scores_of(node)
            key = key_of(node)
            if key is not None:
                if below is not None:
                    value: tuple[int, ...] | None = below(node)
                    if value is not None:
                        return value
                found = get(key)
                if found is not None:
                    return tuple(map(add, scores_of(node), found))
            best: tuple[int, ...] = ()
            top = -_INFINITY
            for _, child in children_of(node):
                each = maxn(child)
                if each[mover] > top:
                    top = each[mover]
                    best = each
            if key is not None:
                table[key] = tuple(map(sub, best, scores_of(node)))
            return best

        return maxn

    # --- paranoid ----------------------------------------------------------------------------------

    def paranoid(self, node: _N, hero: int, alpha: int = -_INFINITY, beta: int = _INFINITY) -> int:
        """The hero's score at the end of the deal when the hero maximises it and every other seat
        minimises it (alpha-beta, fail-soft: exact inside ``(alpha, beta)``, a bound outside)."""
        kernel = self.kernel
        self._count()
        mover = kernel.mover(node)
        if mover is None:
            return kernel.scores(node)[hero]
        key = kernel.key(node)
        base = 0
        first: _T | None = None
        if key is not None:
            key = (hero, key)
            base = kernel.scores(node)[hero]
            found = self.bounds.get(key)
            if found is not None:
                low, high, first = found[0] + base, found[1] + base, found[2]
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        if self._bounds is not None:
            sure: tuple[int, int] | None = self._bounds(node, hero)
            if sure is not None:
                if sure[0] >= beta:
                    return sure[0]
                if sure[1] <= alpha:
                    return sure[1]
        best, best_token = self._paranoid_children(node, mover == hero, hero, alpha, beta, first)
        if key is not None:
            low, high, _ = self.bounds.get(key, (-_INFINITY, _INFINITY, None))
            if best <= alpha:
                high = min(high, best - base)
            elif best >= beta:
                low = max(low, best - base)
            else:
                low = high = best - base
            self.bounds[key] = (low, high, best_token)
        return best

    def _paranoid_children(
        self, node: _N, maximise: bool, hero: int, alpha: int, beta: int, first: _T | None
    ) -> tuple[int, _T | None]:
        """The best value of ``node``'s children for its mover, searched in a good order (``first``, the best
        last time, before the rest), and the token that gave it."""
        tokens: Sequence[_T] = self.kernel.tokens(node)
        if self._order is not None:
            tokens = self._order(node, tokens, hero)
        if first is not None and first in tokens and tokens[0] != first:
            ordered = list(tokens)  # the kernel's own sequence stays as it is
            ordered.remove(first)
            ordered.insert(0, first)
            tokens = ordered
        paranoid, child_of = self.paranoid, self.kernel.child
        best = -_INFINITY if maximise else _INFINITY
        best_token: _T | None = None
        for token in tokens:
            value = paranoid(child_of(node, token), hero, alpha, beta)
            if maximise:
                if value > best:
                    best, best_token = value, token
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif value < best:
                best, best_token = value, token
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        return best, best_token

    def paranoid_exact(self, node: _N, hero: int, guess: int | None = None) -> int:
        """The paranoid value of ``node`` exactly, by zero-window tests (MTD(f), the values being whole numbers),
        starting from ``guess`` (default: the hero's share of what is left, where the kernel bounds it)."""
        low, high = -_INFINITY, _INFINITY
        if guess is None:
            guess = self.kernel.scores(node)[hero]
            if self._bounds is not None:
                found = self._bounds(node, hero)
                if found is not None:
                    guess = found[0] + (found[1] - found[0]) // len(self.kernel.scores(node))
        passes = 0
        while low < high:
            passes += 1
            beta = guess + 1 if guess == low else guess
            guess = self.paranoid(node, hero, beta - 1, beta)
            if guess < beta:
                high = guess
            else:
                low = guess
        self.passes = passes
        return guess
