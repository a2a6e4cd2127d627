"""Bit tricks on whole arrays of 64-bit masks, shared by the batch engines.

A hand, a set of legal cards or a set of legal action ids is one ``uint64`` per game; these
helpers count, pick and list the set bits of a whole column of them at once, with table
look-ups instead of branches.
"""

from __future__ import annotations

import sys
from typing import Any, Final

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]

if sys.byteorder != "little":  # pragma: no cover - the byte tables below read little-endian words
    raise ImportError("fly_rules.batch needs a little-endian machine")

NO_CARD: Final = 52
"""The card index standing for "no card" in card arrays (its bit is 0, its power below every card)."""

BIT: Final[Array] = np.array([1 << i for i in range(52)] + [0], dtype=np.uint64)
"""``BIT[c]`` is the mask of card ``c``; ``BIT[NO_CARD]`` is 0."""

# _SELECT8[byte, j]: the position of the j-th set bit of byte (0 past the last)
_SELECT8: Final[Array] = np.array(
    [[p for p in range(8) if b >> p & 1] + [0] * (8 - bin(b).count("1")) for b in range(256)], dtype=np.int64
)


def popcount(masks: Array) -> Array:
    """The number of set bits of each mask, as int64."""
    return np.bitwise_count(masks).astype(np.int64)


def kth_bit(masks: Array, k: Array) -> Array:
    """The index of the ``k``-th lowest set bit of each mask (``k`` below its popcount), as int64: a
    binary search by the popcount of halves down to a byte, then a table."""
    m = masks.astype(np.uint64)  # a copy, narrowed in place
    k = k.astype(np.uint8)
    position = np.zeros(m.shape[0], np.int64)
    for width, low in _HALVES:
        lower = m & low
        count = np.bitwise_count(lower)
        upper = k >= count
        np.subtract(k, count, out=k, where=upper)
        np.right_shift(m, width, out=m)
        np.copyto(m, lower, where=~upper)
        np.add(position, int(width), out=position, where=upper)
    found: Array = position + _SELECT8[m.astype(np.int64), k]
    return found


_HALVES: Final = tuple((np.uint64(w), np.uint64((1 << w) - 1)) for w in (32, 16, 8))


def random_bit(masks: Array, rng: np.random.Generator) -> Array:
    """One set bit of each mask, chosen uniformly with ``rng``; 0 for an empty mask."""
    counts = np.bitwise_count(masks)
    k = (rng.random(masks.shape[0]) * counts).astype(np.uint8)
    k = np.minimum(k, np.maximum(counts, 1) - 1)
    if int(counts.max(initial=0)) <= 8:  # a hand's cards: drop the k lowest, then take the lowest
        rest = masks.copy()
        for j in range(int(k.max(initial=0))):
            np.copyto(rest, rest & (rest - _ONE), where=k > j)
        return np.where(counts > 0, lowest_bit(np.maximum(rest, _ONE)), 0)
    picked = kth_bit(masks, k)
    return np.where(counts > 0, picked, 0)


_ONE: Final = np.uint64(1)


def lowest_bit(masks: Array) -> Array:
    """The index of the lowest set bit of each (non-empty) mask, as int64."""
    low = masks & (~masks + np.uint64(1))
    return np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1


def bit_list(masks: Array, count: int) -> Array:
    """The ``count`` lowest set bits of each mask, ascending, as int64 ``[len(masks), count]``
    (:data:`NO_CARD` past the last)."""
    out = np.full((masks.shape[0], count), NO_CARD, dtype=np.int64)
    rest = masks.copy()
    for j in range(count):
        present = rest != 0
        low = lowest_bit(np.where(present, rest, np.uint64(1)))
        out[:, j] = np.where(present, low, NO_CARD)
        rest &= ~BIT[out[:, j]]
    return out


def unpack(masks: Array, width: int) -> Array:
    """The low ``width`` bits of each mask as booleans ``[len(masks), width]``."""
    octets = np.ascontiguousarray(masks, dtype=np.uint64).view(np.uint8).reshape(masks.shape[0], 8)
    return np.unpackbits(octets, axis=1, bitorder="little")[:, :width].astype(bool)
