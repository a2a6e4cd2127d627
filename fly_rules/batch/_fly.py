"""Fly, a batch of games at once: every rule of ``specs/fly.md`` on NumPy arrays.

Hands, legal cards and legal declarations are ``uint64`` bitmasks; the rules that branch in the
scalar engine are tables here, built once per set of options from the scalar rule functions
(:mod:`fly_rules.batch._tables`): card power by trump, suit led and the ace-of-spades privilege, the
next active seat by the set of active seats, who receives each card of the pack. The deal is
:mod:`fly_rules.batch._fly_exchange`, the play :mod:`fly_rules.batch._fly_play`.

The action ids are Fly's one action space (:mod:`fly_rules.fly.encoding`, 90 ids): ``0..51``
play a card, ``52`` stand, ``53`` fold, ``54..84`` exchange the cards at the hand positions of an id's
bits, ``85..89`` the dealer's swap of the trump card for the card at a hand position.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from fly_rules.batch import _fly_exchange, _fly_play
from fly_rules.batch._bits import BIT, Array, random_bit, unpack
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._fly_bot import fly_rule_of_thumb
from fly_rules.batch._state import BatchState, Field
from fly_rules.batch._tables import FlyTables, fly_tables
from fly_rules.engine.encoding import layout_size, layout_views
from fly_rules.errors import InvalidRules
from fly_rules.fly.deal import draw_first_dealer
from fly_rules.fly.encoding import STAND, observation_layout
from fly_rules.fly.rules import FlyRules

__all__ = ["FlyBatch"]

_EXCHANGE_PHASE, _PLAY_PHASE = 0, 1
_ONE: Final = np.uint64(1)
_ZERO: Final = np.uint64(0)
_I = np.int64


class FlyBatch(BatchEngine):
    """Fly for ``batch_size`` games at once, all under ``rules`` [FLY-1.1].

    Build one with :func:`fly_rules.batch.make`. Every option of :class:`~fly_rules.fly.FlyRules`
    is played as the scalar engine plays it, except ``revoke_mode="penalize"``, which is refused
    (a batch takes only the actions of its mask).
    """

    game = "fly"
    _dealer_rule = "FLY-1.2"
    rules: FlyRules
    _t: FlyTables
    """The batch's tables, built from the scalar rule functions (:mod:`fly_rules.batch._tables`)."""
    _left: Array
    """``[seat]``: the seat to its left."""

    def __init__(self, rules: FlyRules, batch_size: int, *, match: bool = False) -> None:
        if rules.revoke_mode != "prevent":
            raise InvalidRules(
                "revoke_mode", "the batch engine takes only the actions of its mask: revokes cannot be adjudicated"
            )
        super().__init__(rules, batch_size, match=match)
        n = self.num_players
        self._deck = rules.deck
        self._t = fly_tables(rules)
        self._left = np.array([rules.left_of(seat) for seat in range(n)], dtype=_I)
        mode = rules.ace_of_spades_mode
        self._led_ace_mode = mode.startswith("led_trump_ace")
        self._ace_joins_led_ace = mode == "led_trump_ace"
        self._top_trump = mode == "top_trump"
        self._combined = rules.declaration_mode == "combined"
        self._refill = rules.stock_exhaustion != "cap" or rules.turnup_use == "last_stock_card"
        self.observation_size = layout_size(observation_layout(rules), rules.players)
        self._views = layout_views(observation_layout(rules), rules.players)

    def _draw_dealer(self, seed: int | str) -> int:
        """The first dealer drawn by lot, as the scalar match draws him [FLY-2.1]."""
        return draw_first_dealer(self.rules, seed)

    # --- the hooks of every engine: the rule sections' ----------------------------------------------

    def _own_fields(self) -> dict[str, Field]:
        return _fly_exchange.own_fields(self)

    def _deal_packs(self, state: BatchState, rows: Array, dealers: Array, packs: Array) -> None:
        _fly_exchange.deal_packs(self, state, rows, dealers, packs)

    def _load(self, state: BatchState, game: int, deal: Any) -> None:
        _fly_exchange.load_deal(self, state, game, deal)

    def _begin_deal(self, state: BatchState, rows: Array, dealers: Array) -> None:
        _fly_exchange.begin_deal(self, state, rows, dealers)

    # --- the interface ----------------------------------------------------------------------------

    def _legal_ids(self, state: BatchState, ids: Array) -> Array:
        shift = np.where(state.phase == _PLAY_PHASE, ids, ids - STAND)  # the id's bit in ``legal``
        fits = (shift >= 0) & (shift < 64)
        legal: Array = fits & ((state.legal >> np.where(fits, shift, 0).astype(np.uint64)) & _ONE != 0)
        return legal

    def _step_rows(self, state: BatchState, rows: Array, ids: Array) -> None:
        playing = state.phase[rows] == _PLAY_PHASE
        plays = rows[playing]
        declarations = rows[~playing]  # before the play changes any phase
        if len(plays):
            _fly_play.play_cards(self, state, plays, ids[plays])
        if len(declarations):
            _fly_exchange.declare(self, state, declarations, ids[declarations])

    def _scores(self, state: BatchState) -> Array:
        scores: Array = -state.records
        return scores

    def _sample(self, state: BatchState, rng: np.random.Generator) -> Array:
        picked = random_bit(state.legal, rng)
        return np.where(state.phase == _EXCHANGE_PHASE, picked + STAND, picked)

    def _id_rule(self, state: BatchState, game: int) -> str:
        return "FLY-6.2" if state.phase[game] == _PLAY_PHASE else "FLY-4.2"

    def legal_action_mask(self, state: BatchState) -> Array:
        """``bool[B, 90]``: the legal action ids of each game (none once over)."""
        playing = state.phase == _PLAY_PHASE
        mask = np.zeros((self.batch_size, self.num_actions), bool)
        mask[:, :STAND] = unpack(np.where(playing, state.legal, _ZERO), STAND)
        mask[:, STAND:] = unpack(np.where(playing, _ZERO, state.legal), self.num_actions - STAND)
        return mask

    def rule_of_thumb(self, state: BatchState, games: Any = None) -> Array:
        """The id the rule-of-thumb bot plays for each game's seat to move (see
        :class:`fly_rules.fly.bot.FlyRuleOfThumbBot`): fold a hand with no trump and no high card, exchange
        the weak cards, take the trump card when it is a ten or better, win each trick as cheaply as
        possible; every game at once (0 for a game over)."""
        self._check_state(state)
        return fly_rule_of_thumb(self, state, self._games(games))

    def _observe(self, state: BatchState, seats: Array, order: Array | None) -> Array:
        """The observation of ``seats[i]`` in game ``i`` (:func:`fly_rules.fly.encoding.observation_layout`)
        [FLY-5.1]; with ``order``, the per-seat parts in that order of seats."""
        s, n, b = state, self.num_players, len(seats)  # a batch's games, or some of them (observe's games)
        at = self._views  # each part of the layout by name
        rows = np.arange(b)
        out = np.zeros((b, self.observation_size), np.float32)
        out[:, at["hand"]] = unpack(s.hands[rows, seats], 52)
        out[:, at["trump card"]] = unpack(BIT[s.trump_card], 52)
        rel = _inverse(order)
        _mark_cards(out, at["current trick"].start, s.trick_seats, s.trick, rel)
        history = s.trick_seat_history.reshape(b, -1)
        _mark_cards(out, at["completed tricks"].start, history, s.tricks.reshape(b, -1), rel)
        out[:, at["declarations"]] = _by_seat(s.declared, order).reshape(b, 4 * n)
        out[:, at["active"]] = _by_seat(s.active, order)
        out[:, at["tricks taken"]] = _by_seat(s.tricks_taken, order) / 5
        out[:, at["records"]] = _by_seat(s.records, order) / self.rules.start_record
        out[rows, at["own seat"].start + _place(rel, rows, seats)] = 1
        moving = s.current_player >= 0
        out[rows[moving], at["seat to move"].start + _place(rel, rows[moving], s.current_player[moving])] = 1
        out[rows, at["dealer"].start + _place(rel, rows, s.dealer)] = 1
        out[rows, at["phase"].start + s.phase] = 1
        out[:, at["stock"].start] = (s.stock_len - s.stock_pos) / 52
        np.minimum(out, 10.0, out=out)
        return out


def _mark_cards(out: Array, at: int, seats: Array, cards: Array, rel: Array | None) -> None:
    """Set, in each row of ``out``, slot ``at + 52 * seat + card`` for every card a seat played
    (``seats[i, k]`` played ``cards[i, k]``; -1: no card), each seat at its place in the observation."""
    row, k = np.nonzero(seats >= 0)
    seat = seats[row, k].astype(_I)
    place = seat if rel is None else rel[row, seat]
    out[row, at + 52 * place + cards[row, k].astype(_I)] = 1


def _inverse(order: Array | None) -> Array | None:
    """``rel[i, seat]``: the place of ``seat`` in ``order[i]`` (None: seats absolute)."""
    if order is None:
        return None
    rel = np.empty_like(order)
    rel[np.arange(len(order))[:, None], order] = np.arange(order.shape[1])[None, :]
    return rel


def _place(rel: Array | None, rows: Array, seats: Array) -> Array:
    """Where each of ``seats`` (one per row of ``rows``) goes in an observation's per-seat part."""
    return seats if rel is None else rel[rows, seats]


def _by_seat(values: Array, order: Array | None) -> Any:
    """``values[i, seat, ...]`` with its seats in ``order[i]`` (as they are, for None)."""
    if order is None:
        return values
    index = order.reshape(order.shape + (1,) * (values.ndim - 2))
    return np.take_along_axis(values, index, axis=1)
