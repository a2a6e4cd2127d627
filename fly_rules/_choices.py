"""Lazy sequences of choices too many to list: every subset of a set of cards.

A game that lets a player discard any subset of his hand (Dreyfus: up to
4,096 sets) offers the choice as a :class:`SubsetChoices` sequence: ``len()``,
indexing and membership are computed from the combinatorial number system, so
nothing is built until a program asks for an element. Shared by the games; it
knows none of them.

>>> from fly_rules.actions import Exchange, Stand
>>> from fly_rules.cards import CardSet
>>> choices = SubsetChoices((Stand(),), CardSet.parse("3C 4C 5C").mask, 2, lambda m: Exchange(CardSet(m)))
>>> len(choices), choices[0], str(choices[1]), str(choices[-1])
(7, Stand(), 'exchange 3C', 'exchange 4C 5C')
>>> Exchange("3C 5C") in choices, Exchange("3C 4C 5C") in choices
(True, False)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from math import comb
from typing import Final, SupportsIndex, TypeVar, cast, overload

__all__ = ["SubsetChoices", "bits"]

_T = TypeVar("_T")

_COMB: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(comb(n, k) for k in range(53)) for n in range(53))
# _SIZES[n][m]: how many subsets of n elements there are of each size 1 to m; _TOTALS[n][m]: their sum
_SIZES: Final = tuple(tuple(_COMB[n][1 : m + 1] for m in range(n + 1)) for n in range(53))
_TOTALS: Final = tuple(tuple(sum(sizes) for sizes in row) for row in _SIZES)
# _SMALL[n]: every non-empty subset of n elements as their positions, by size and then in colexicographic
# order, for up to 8 elements (a Fly hand): indexing it replaces the unranking
_SMALL: Final = tuple(
    tuple(c for k in range(1, n + 1) for c in sorted(combinations(range(n), k), key=lambda c: c[::-1]))
    for n in range(9)
)


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class SubsetChoices(Sequence[_T]):
    """``prefix`` followed by ``make(subset)`` for every non-empty subset of ``mask``
    with at most ``max_size`` members, by size and then in colexicographic order.

    ``make`` must be injective and must map back through ``mask_of``: an element
    ``x`` belongs to the sequence exactly when ``mask_of(x)`` is such a subset (or
    ``x`` is in ``prefix``).

    It compares equal to a tuple (or another such sequence) holding the same
    elements in the same order, as a tuple of the choices would.
    """

    __slots__ = ("_elems", "_len", "_make", "_mask", "_mask_of", "_max", "_prefix", "_sizes")

    def __init__(
        self,
        prefix: tuple[_T, ...],
        mask: int,
        max_size: int,
        make: Callable[[int], _T],
        mask_of: Callable[[object], int | None] | None = None,
    ) -> None:
        self._prefix = prefix
        self._mask = mask
        elems = []
        while mask:
            low = mask & -mask
            elems.append(low)
            mask ^= low
        self._elems = elems
        n = len(elems)
        top = max_size if max_size < n else n
        top = max(top, 0)
        self._max = top
        self._make = make
        self._mask_of = mask_of or _cards_mask
        self._sizes = _SIZES[n][top]
        self._len = len(prefix) + _TOTALS[n][top]

    def __len__(self) -> int:
        return self._len

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SubsetChoices):
            return self._len == other._len and all(a == b for a, b in zip(self, other, strict=True))
        if isinstance(other, tuple):
            return self._len == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to tuples, but not hashed like them

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[_T]: ...

    def __getitem__(self, index: object) -> _T | Sequence[_T]:
        # index read as an object: the compiled build would refuse a NumPy integer before operator.index took it
        if type(index) is int:
            position = index
        elif isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        else:
            position = operator.index(cast("SupportsIndex", index))
        size = self._len
        if position < 0:
            position += size
        if not 0 <= position < size:
            raise IndexError("choice index out of range")
        prefix = self._prefix
        if position < len(prefix):
            return prefix[position]
        rank = position - len(prefix)
        elems = self._elems
        if len(elems) < len(_SMALL):
            return self._make(sum(map(elems.__getitem__, _SMALL[len(elems)][rank])))
        k = 1
        for count in self._sizes:  # pragma: no branch - the range check above guarantees a hit
            if rank < count:
                break
            rank -= count
            k += 1
        return self._make(self._unrank(rank, k))

    def _unrank(self, rank: int, k: int) -> int:
        """The ``rank``-th ``k``-subset of the elements in colexicographic order."""
        mask = 0
        for pos in range(k, 0, -1):
            c = pos - 1
            row = _COMB
            while row[c + 1][pos] <= rank:
                c += 1
            rank -= row[c][pos]
            mask |= self._elems[c]
        return mask

    def mask_in(self, subset: int) -> bool:
        """Whether ``subset`` is one of the offered subsets."""
        return subset != 0 and subset & ~self._mask == 0 and subset.bit_count() <= self._max

    def __contains__(self, item: object) -> bool:
        if item in self._prefix:
            return True
        subset = self._mask_of(item)
        return subset is not None and self.mask_in(subset)

    def __iter__(self) -> Iterator[_T]:
        yield from self._prefix
        n = len(self._elems)
        for k in range(1, self._max + 1):
            for rank in range(_COMB[n][k]):
                yield self._make(self._unrank(rank, k))

    def index(self, value: object, start: SupportsIndex = 0, stop: SupportsIndex | None = None) -> int:
        """The position of ``value`` (computed, not searched)."""
        if value in self._prefix:
            position = self._prefix.index(value)
        else:
            subset = self._mask_of(value)
            if subset is None or not self.mask_in(subset):
                raise ValueError(f"{value!r} is not a choice here")
            k = subset.bit_count()
            rank = 0
            for pos, c in enumerate((i for i, e in enumerate(self._elems) if subset & e), start=1):
                rank += _COMB[c][pos]
            position = len(self._prefix) + sum(self._sizes[: k - 1]) + rank
        if position < operator.index(start) or (stop is not None and position >= operator.index(stop)):
            raise ValueError(f"{value!r} is not in the given range")
        return position

    def count(self, value: object) -> int:
        """1 if ``value`` is a choice here, else 0 (the choices are distinct)."""
        return int(value in self)

    def __repr__(self) -> str:
        """The count, the first three and the last choice in the history's text (``stand``, ``exchange 7C``):
        what a notebook or a debugger needs to see without building them all."""
        size = len(self)
        shown = [str(self[i]) for i in range(min(size, 3))]
        if size > 4:
            shown.append("…")
        if size > 3:
            shown.append(str(self[size - 1]))
        return f"<{size} choices: {', '.join(shown)}>"


def _cards_mask(item: object) -> int | None:
    """The card mask of an action that carries a card set (``.cards.mask``), else None."""
    cards = getattr(item, "cards", None)
    mask = getattr(cards, "mask", None)
    return mask if isinstance(mask, int) else None
