"""What every batch engine answers: the pgx-shaped interface, shared by Fly and Dreyfus."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from fly_rules.batch._bits import NO_CARD, Array, draw_below, seed_key
from fly_rules.batch._state import BatchState
from fly_rules.errors import RuleViolation

__all__ = ["BatchEngine"]

_LOG: Final = 64  # actions of one deal: Fly's at most 3n+1 declarations and 5n plays; Dreyfus's 36 plays,
# at most 12 marks or exchanges and 3 stands
_I = np.int64
_OVER_PHASE: Final = 2  # every engine's phase codes: 0 the exchange, 1 the play, 2 over


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

    def init(self, seed: int, dealer: int | None = None) -> BatchState:
        """A new batch of games, game ``i`` dealt from ``seed`` and ``i`` alone; the first dealer
        drawn by lot for each game, or ``dealer`` for all [FLY-2.1] [DRF-2.1].

        Raises:
            RuleViolation: ``dealer`` is not a seat (FLY-1.2, DRF-2.1).
        """
        key = seed_key(seed)
        state = BatchState(self, self._empty())
        state.key[0] = key
        b, n = self.batch_size, self.num_players
        if dealer is None:
            dealers = draw_below(key, state.games, 1, n)
        elif type(dealer) is int and 0 <= dealer < n:
            dealers = np.full(b, dealer, _I)
        else:
            raise self._dealer_refusal(dealer)
        state.batch_seed[0] = seed
        state.own_seed[:] = True
        state.first_dealer[:] = dealers
        self._deal(state, np.arange(b), dealers, fresh=True)
        return state

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

    def from_scalar(self, states: Sequence[Any], seed: int = 0) -> BatchState:
        """A batch whose game ``i`` starts where ``states[i]`` stands: a deal or match of these rules
        whose current deal has had no action yet. Its later deals come from the batch's generator.

        Raises:
            ValueError: the wrong number of states, other rules, or a deal already begun.
        """
        if len(states) != self.batch_size:
            raise ValueError(f"from_scalar needs {self.batch_size} states, not {len(states)}")
        state = BatchState(self, self._empty())
        state.key[0] = seed_key(seed)
        self._load(state, states)
        return state

    # --- what each engine adds ------------------------------------------------------------------

    def _own_arrays(self) -> dict[str, Array]:  # pragma: no cover - abstract
        """The arrays of a new batch only this game keeps."""
        raise NotImplementedError

    def _dealer_refusal(self, dealer: object) -> RuleViolation:  # pragma: no cover - abstract
        """The refusal of a first dealer who is not a seat."""
        raise NotImplementedError

    def _deal(self, state: BatchState, rows: Array, dealers: Array, *, fresh: bool = False) -> None:
        """Deal the next deal of each game of ``rows``."""
        raise NotImplementedError  # pragma: no cover - abstract

    def _load(self, state: BatchState, states: Sequence[Any]) -> None:  # pragma: no cover - abstract
        """Start game ``i`` of the blank ``state`` where ``states[i]`` stands (see :meth:`from_scalar`)."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------------

    def _empty(self) -> dict[str, Array]:
        """Every array of a new batch: those of every game, and the game's own."""
        b, n, tricks = self.batch_size, self.num_players, self.rules.hand_size
        z = np.zeros
        return {
            "current_player": np.full(b, -1, _I),
            "rewards": z((b, n), np.float32),
            "terminated": z(b, bool),
            "truncated": z(b, bool),
            "phase": z(b, _I),
            "legal": z(b, np.uint64),
            "hands": z((b, n), np.uint64),
            "dealer": z(b, _I),
            "first_dealer": z(b, _I),
            "deal_number": z(b, _I),
            "tricks_taken": z((b, n), _I),
            "trick": np.full((b, n), NO_CARD, _I),
            "trick_len": z(b, _I),
            "best_card": np.full(b, NO_CARD, _I),
            "best_power": np.full(b, -1, _I),
            "best_pos": z(b, _I),
            "power_row": z(b, _I),
            "tricks": np.full((b, tricks, n), NO_CARD, np.int8),
            "trick_leaders": np.full((b, tricks), -1, _I),
            "trick_winners": np.full((b, tricks), -1, _I),
            "tricks_done": z(b, _I),
            **self._own_arrays(),
            "log": z((b, _LOG), np.int16),
            "log_len": z(b, _I),
            "games": np.arange(b, dtype=_I),
            "key": np.zeros(1, np.uint64),
            "seeds": np.full(b, None, object),
            "own_seed": np.zeros(b, bool),
            "batch_seed": np.zeros(1, object),
        }

    def _end_deals(self, s: BatchState, rows: Array, won: Array) -> Array:
        """End the deal of each game of ``rows``: over, with no one to move. A lone deal, a match with a
        winner (``won``) or one of ``rules.max_deals`` deals is terminated; the others' deal number is
        stepped and their rows returned, to be dealt again [FLY-10.1] [DRF-8.1] [DRF-8.3]."""
        s.phase[rows] = _OVER_PHASE
        s.current_player[rows] = -1
        s.legal[rows] = 0
        if not self.match:
            s.terminated[rows] = True
            return rows[:0]
        number = s.deal_number[rows] + 1
        stops = won
        if self.rules.max_deals is not None:
            stops = stops | (number >= self.rules.max_deals)
        s.terminated[rows[stops]] = True
        going = rows[~stops]
        s.deal_number[going] = number[~stops]
        return going

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
