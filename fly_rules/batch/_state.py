"""The state of a batch of games: named NumPy arrays, one row per game.

Shared by the engines: the fields every reinforcement-learning loop reads (``current_player``,
``rewards``, ``terminated``, ``truncated``) and the two built only when asked for
(``legal_action_mask``, ``observation``), from the engine's own bitmasks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from fly_rules.batch._bits import Array

if TYPE_CHECKING:
    from fly_rules.batch._engine import BatchEngine

__all__ = ["BatchState", "Field", "make_arrays", "reset_rows"]


class Field(NamedTuple):
    """One array of a batch's state, as every game of the batch holds it: the one place its shape, dtype and the
    value of a new game are given, read both when a batch is made and when its games are dealt anew."""

    shape: tuple[int, ...]
    """Its shape for one game (the batch's games come first)."""
    dtype: npt.DTypeLike
    """Its NumPy dtype."""
    initial: object
    """Every element's value in a new game."""
    reset: bool = True
    """Whether a game dealt anew takes :attr:`initial` again (the rewards of the last step stay for its caller)."""


def make_arrays(fields: dict[str, Field], batch_size: int) -> dict[str, Array]:
    """The arrays of a new batch of ``batch_size`` games, each game's row at its field's initial value."""
    return {name: _filled((batch_size, *f.shape), f) for name, f in fields.items()}


def _filled(shape: tuple[int, ...], f: Field) -> Array:
    """An array of ``f``'s initial value: zeroed memory from the allocator where the value is zero (no pass over it)."""
    if f.initial is not None and not isinstance(f.initial, tuple) and f.initial == 0:
        return np.zeros(shape, f.dtype)
    return np.full(shape, f.initial, f.dtype)


def reset_rows(arrays: dict[str, Array], fields: dict[str, Field], rows: Array) -> None:
    """Put the games of ``rows`` back at every field's initial value (those a new game takes again)."""
    for name, f in fields.items():
        if f.reset:
            arrays[name][rows] = f.initial


class BatchState:
    """A batch of games, each a row of every array.

    ``current_player`` (``int64[B]``, -1 once a game is over), ``rewards`` (``float32[B, players]``,
    what the last step changed in each seat's score, higher is better), ``terminated`` and
    ``truncated`` (``bool[B]``; the rules end every game, so nothing is ever truncated) are arrays;
    :attr:`legal_action_mask` and :attr:`observation` are built from the engine's bitmasks when
    first read after a step. The other arrays are the game's own (hands as ``uint64`` card masks,
    bit ``i`` the card of index ``i``; records; tricks) and are listed by each engine.

    :meth:`~fly_rules.batch.BatchEngine.step` returns a new state and leaves this one as it was;
    :meth:`~fly_rules.batch.BatchEngine.step_in_place` writes the next position into these arrays
    instead (no copy: the fast path of a loop that keeps no old position).
    """

    def __init__(self, engine: BatchEngine, arrays: dict[str, Array]) -> None:
        self._engine = engine
        self._mask: Array | None = None
        self._observation: Array | None = None
        self.__dict__.update(arrays)

    def __getattr__(self, name: str) -> Any:  # the arrays, for the type checker
        raise AttributeError(name)

    @property
    def batch_size(self) -> int:
        """Games in the batch."""
        return int(self.terminated.shape[0])

    @property
    def legal_action_mask(self) -> Array:
        """``bool[B, num_actions]``: the legal action ids of each game's seat to move (none once over)."""
        if self._mask is None:
            self._mask = self._engine.legal_action_mask(self)
        return self._mask

    @property
    def observation(self) -> Array:
        """``float32[B, observation_size]``: what each game's seat to move may see, in the layout of
        :mod:`fly_rules.adapters.encoding` (its own hand, never another's)."""
        if self._observation is None:
            self._observation = self._engine.observation(self)
        return self._observation

    def arrays(self) -> dict[str, Array]:
        """Every array of the state, by name."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def changed(self) -> None:
        """Forget the mask and observation built for the old position (the engine calls this)."""
        self._mask = None
        self._observation = None

    def copy(self) -> BatchState:
        """A deep copy: stepping it leaves this one as it is."""
        return BatchState(self._engine, {name: array.copy() for name, array in self.arrays().items()})

    @property
    def engine(self) -> BatchEngine:
        """The engine whose state this is."""
        return self._engine

    @property
    def nbytes(self) -> int:
        """Bytes the state's arrays hold."""
        return sum(int(getattr(v, "nbytes", 0)) for v in self.arrays().values())
