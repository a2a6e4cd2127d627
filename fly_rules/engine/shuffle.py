"""The seeded shuffle every match deals from: CPython's ``random.Random(text).shuffle`` reproduced.

A deal's order is ``random.Random(f"fly_rules:{seed}:{deal_number}").shuffle`` of the deck's card
indices, lowest first: CPython's ``Random.shuffle`` (Fisher-Yates from the last position down, each
index drawn by ``Random._randbelow_with_getrandbits``) over the Mersenne Twister of the C module
``_random``, seeded from a str as ``Random.seed(text, version=2)`` does. Saved histories keep only the
seed, so this order is part of the formats [REC-2.2]; ``tests/test_engine.py`` checks it against
``random.Random`` for many seeds and deck sizes. The code below gives the same draws without the
per-card method calls of ``random.Random``: a match shuffles once per deal, on the hot path of random play.
"""

from __future__ import annotations

import _random
import functools
import hashlib
from collections.abc import Callable
from typing import Final

from fly_rules.cards import ALL_CARDS, Card, CardSet
from fly_rules.errors import RuleViolation, shown

__all__ = ["check_seed", "shuffled", "shuffled_indices"]

_SEED_LIMIT: Final = 10**100  # REC-1.5: at most 100 digits

# per deck size, the Fisher-Yates steps: (i, shift) with i from the top down and shift leaving, of a
# word's top byte, the bits of getrandbits(k) for k = (i + 1).bit_length(), as random.Random._randbelow
# draws them
_STEPS: Final = tuple(tuple((i, 8 - (i + 1).bit_length()) for i in range(size - 1, 0, -1)) for size in range(53))
_BATCH: Final = 96  # words drawn at once: a 52-card shuffle needs about 76, more than 96 once in 300


@functools.lru_cache(maxsize=16)
def _indices_of(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(52) if mask >> i & 1)


def shuffled(deck: CardSet, seed: object, deal_number: int) -> tuple[Card, ...]:
    """The cards of ``deck`` in the order a match with ``seed`` shuffles them
    for its deal number ``deal_number`` (0 for the first deal).

    The order depends only on the three arguments, never on global state or
    on Python's hash seed, so a match replays identically from its seed in any
    process. Each deal gets its own generator, so a state needs no mutable
    random-number generator inside it.

    Raises:
        TypeError: ``seed`` is not an int or a str (:func:`check_seed`).
        RuleViolation: REC-1.5 for an int of more than 100 digits.

    >>> from fly_rules.cards import DECK_32
    >>> shuffled(DECK_32, 7, 0) == shuffled(DECK_32, 7, 0)
    True
    >>> shuffled(DECK_32, 7, 0) == shuffled(DECK_32, 7, 1)
    False
    """
    return tuple(ALL_CARDS[i] for i in shuffled_indices(deck, seed, deal_number))


def shuffled_indices(deck: CardSet, seed: object, deal_number: int) -> list[int]:
    """:func:`shuffled` as card indices (a new list), for code that works on indices.

    Raises:
        TypeError: ``seed`` is not an int or a str (:func:`check_seed`).
        RuleViolation: REC-1.5 for an int of more than 100 digits.

    >>> from fly_rules.cards import DECK_32
    >>> [ALL_CARDS[i] for i in shuffled_indices(DECK_32, 7, 0)] == list(shuffled(DECK_32, 7, 0))
    True
    """
    text = f"fly_rules:{check_seed(seed)}:{deal_number}"
    indices = list(_indices_of(deck.mask))
    _shuffle(indices, _generator(text).getrandbits)
    return indices


def check_seed(seed: object) -> int | str:
    """``seed``, if the formats can carry it [REC-1.5]: the one check of every function that takes a seed.

    Raises:
        TypeError: ``seed`` is not an int or a str (a bool is not a seed).
        RuleViolation: REC-1.5 for an int of more than 100 digits.

    >>> check_seed(10**100)
    Traceback (most recent call last):
    ...
    fly_rules.errors.RuleViolation: REC-1.5: a seed has at most 100 digits
    """
    if type(seed) is int:
        if not -_SEED_LIMIT < seed < _SEED_LIMIT:
            raise RuleViolation("REC-1.5", "a seed has at most 100 digits", seed)
        return seed
    if type(seed) is not str:
        raise TypeError(f"a seed must be an int or a str, not {shown(seed)}")
    return seed


def _generator(text: str) -> _random.Random:
    """``random.Random(text)``'s generator in the same state, seeded once: ``random.Random`` seeds
    from the text's hash when made and again in ``__init__`` from the text and its SHA-512 as
    one int (seed version 2); this gives the C generator that int directly."""
    data = text.encode()
    return _random.Random(int.from_bytes(data + hashlib.sha512(data).digest(), "big"))


def _shuffle(items: list[int], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle`` as CPython writes it (same draws, same order), without its per-card
    method calls.

    Each index is drawn by rejection sampling with ``getrandbits(k)``, which for k <= 32 is the top k
    bits of the generator's next 32-bit word; for a pack of up to 52 cards k <= 6, so only each word's
    top byte counts. The words are drawn in batches (the lowest word of ``getrandbits(32 * n)`` comes
    first, as successive ``getrandbits(32)`` would give them); a step that runs out of words starts
    again with the next batch, as its rejected words changed nothing.
    """
    last = len(items) - 1
    steps = _STEPS[last + 1]
    tops = _top_bytes(getrandbits)
    used = 0
    while True:
        try:
            for i, shift in steps:
                j = tops[used] >> shift
                used += 1
                while j > i:
                    j = tops[used] >> shift
                    used += 1
                items[i], items[j] = items[j], items[i]
        except IndexError:
            steps = _STEPS[last + 1][last - i :]
            tops += _top_bytes(getrandbits)
        else:
            return


def _top_bytes(getrandbits: Callable[[int], int]) -> bytes:
    """The top byte of each of the generator's next ``_BATCH`` 32-bit words, in the order it gives them."""
    return getrandbits(32 * _BATCH).to_bytes(4 * _BATCH, "little")[3::4]
