"""What every batch engine answers: the pgx-shaped interface, shared by Fly and Dreyfus."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from fly_rules.batch._bits import Array
from fly_rules.batch._state import BatchState
from fly_rules.errors import RuleViolation

__all__ = ["BatchEngine"]


class BatchEngine:
    """The interface of a batch engine; :class:`~fly_rules.batch.FlyBatch` and
    :class:`~fly_rules.batch.DreyfusBatch` implement it."""

    game: str
    """``"fly"`` or ``"dreyfus"``."""
    batch_size: int
    """Games stepped at once."""
    num_players: int
    """Seats per game."""
    num_actions: int
    """Distinct action ids."""
    observation_size: int
    """Floats in one observation."""
    match: bool
    """Whether a game is a whole match (several deals) rather than one deal."""
    rules: Any
    """The rules every game of the batch follows."""

    def init(self, seed: int, dealer: int | None = None) -> BatchState:  # pragma: no cover - abstract
        """A new batch: every game dealt from ``seed``."""
        raise NotImplementedError

    def step(self, state: BatchState, actions: Any) -> BatchState:  # pragma: no cover - abstract
        """Each game's seat to move takes its action."""
        raise NotImplementedError

    def sample_legal(self, state: BatchState, rng: np.random.Generator) -> Array:  # pragma: no cover - abstract
        """One random legal action id per game."""
        raise NotImplementedError

    def legal_action_mask(self, state: BatchState) -> Array:  # pragma: no cover - abstract
        """``bool[B, num_actions]``."""
        raise NotImplementedError

    def observation(self, state: BatchState) -> Array:  # pragma: no cover - abstract
        """``float32[B, observation_size]``."""
        raise NotImplementedError

    def action_to_scalar(self, state: BatchState, game: int, action: int) -> Any:  # pragma: no cover - abstract
        """The scalar engine's action for batch action id ``action`` in game ``game``."""
        raise NotImplementedError

    def scalar_to_action(self, state: BatchState, game: int, action: Any) -> int:  # pragma: no cover - abstract
        """The batch action id for the scalar ``action`` in game ``game``."""
        raise NotImplementedError

    def to_scalar(self, state: BatchState, game: int) -> Any:  # pragma: no cover - abstract
        """Game ``game`` as the scalar engine's match or deal."""
        raise NotImplementedError

    def from_scalar(self, states: Sequence[Any], seed: int = 0) -> BatchState:  # pragma: no cover - abstract
        """A batch starting from the given scalar states."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------------

    def _actions(self, state: BatchState, actions: Any) -> Array:
        ids = np.asarray(actions)
        if ids.shape != (self.batch_size,) or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"actions must be {self.batch_size} integers (one per game), not {ids.dtype} {ids.shape}")
        return ids.astype(np.int64)

    def _sel(self, rows: Array) -> Any:
        """``rows`` (ascending game numbers) as an index: a slice when it is every game (a view, not a gather)."""
        return slice(None) if len(rows) == self.batch_size else rows

    @staticmethod
    def _seed_of(state: BatchState, game: int) -> Any:
        """Game ``game``'s seed as the scalar engine takes it: ``"batch:<seed>:<game>"`` for a game the
        batch dealt, the scalar state's own for one started by ``from_scalar``."""
        if state.own_seed[game]:
            return f"batch:{state.batch_seed[0]}:{game}"
        return state.seeds[game]

    def _refuse(self, state: BatchState, game: int, action: int) -> RuleViolation:
        """The scalar engine's refusal of ``action`` in game ``game``, with the game's index."""
        scalar = self.to_scalar(state, game)
        try:
            scalar.apply(self._as_scalar(state, game, action))  # either may raise
        except RuleViolation as error:
            return RuleViolation(error.rule, f"game {game}: {error.detail}", action)
        return self._order_refusal(state, game, action)

    def _as_scalar(self, state: BatchState, game: int, action: int) -> Any:
        """The scalar action whose refusal explains why ``action`` is outside the mask."""
        return self.action_to_scalar(state, game, action)

    def _order_refusal(self, state: BatchState, game: int, action: int) -> RuleViolation:
        """Why an action the scalar engine would take is outside the mask (an engine's own encoding)."""
        raise AssertionError(f"game {game}: action {action} outside the mask was accepted by the scalar engine")
