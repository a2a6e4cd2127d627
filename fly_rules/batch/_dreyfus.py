"""Dreyfus, a batch of games at once: every rule of ``specs/dreyfus.md`` on NumPy arrays.

Hands, legal cards and legal ids are ``uint64`` bitmasks; a trick's winner is a look-up of each card's
power by contract and suit led, built from the scalar rule functions (:mod:`fly_rules.batch._tables`).
The deal, exchange and play are the rule-section functions of :mod:`fly_rules.batch._dreyfus_play`, which the
one engine class calls (no chain of classes).

The action ids are Dreyfus's one action space (:class:`fly_rules.dreyfus.encoding.DreyfusActions`,
53 ids): in the play ``c`` plays card ``c``; in the exchange ``c`` marks card ``c`` for discard, each
mark above the last, and ``52`` exchanges the marked cards (or stands); under
``exchange_mode="incremental"`` ``c`` is at once the one-card exchange of ``c``.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from fly_rules.actions import Exchange
from fly_rules.batch import _dreyfus_play as section
from fly_rules.batch._bits import BIT, Array, random_bit, unpack
from fly_rules.batch._dreyfus_bot import dreyfus_rule_of_thumb
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._state import BatchState, Field
from fly_rules.batch._tables import DreyfusTables, dreyfus_tables
from fly_rules.cards import DECK_48, SUIT_MASKS, CardSet, Suit
from fly_rules.dreyfus.deal import contract_of, draw_first_dealer, next_dealer
from fly_rules.dreyfus.encoding import STAND, observation_layout
from fly_rules.dreyfus.play import opening_leader
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.engine.encoding import layout_size, layout_views
from fly_rules.errors import RuleViolation

__all__ = ["DreyfusBatch"]

_EXCHANGE_PHASE, _PLAY_PHASE, _OVER_PHASE = 0, 1, 2
_ZERO: Final = np.uint64(0)
_ONE: Final = np.uint64(1)
_I = np.int64
_NO_TRUMP: Final = 4
_EVERY: Final = (1 << 52) - 1


class DreyfusBatch(BatchEngine):
    """Dreyfus for ``batch_size`` games at once, all under ``rules`` [DRF-1.1]; every option of
    :class:`~fly_rules.dreyfus.DreyfusRules` is played as the scalar engine plays it.

    Build one with :func:`fly_rules.batch.make`.
    """

    game = "dreyfus"
    _dealer_rule = "DRF-2.1"
    rules: DreyfusRules
    _t: DreyfusTables
    """The batch's tables, built from the scalar rule functions (:mod:`fly_rules.batch._tables`)."""

    def __init__(self, rules: DreyfusRules, batch_size: int, *, match: bool = False) -> None:
        super().__init__(rules, batch_size, match=match)
        self._deck = DECK_48
        self._t = dreyfus_tables(rules)
        self._incremental = rules.exchange_mode == "incremental"
        self._penalize = rules.revoke_mode == "penalize"
        contracts = [contract_of(rules, k) for k in range(len(rules.contract_cycle))]
        self._cycle = np.array([_NO_TRUMP if c is None else int(c) for c in contracts], dtype=_I)
        self._fosk = np.array([rules.fosk_mask(None if t == _NO_TRUMP else Suit(t)) for t in range(5)], dtype=np.uint64)
        self._suit_mask = np.array([*SUIT_MASKS, 0], dtype=np.uint64)
        self._suit = np.array([c // 13 for c in range(52)] + [4], dtype=_I)
        self._above = np.array([_EVERY & ~((1 << (c + 1)) - 1) for c in range(52)] + [_EVERY], np.uint64)
        self._next_dealer = np.array([next_dealer(rules, d) for d in range(3)], _I)
        # [dealer, the seats that bought, as bits]: who leads to the first trick [DRF-5.1]
        self._opening = np.array(
            [[opening_leader(rules, d, [b >> s & 1 for s in range(3)]) for b in range(8)] for d in range(3)], _I
        )
        self.observation_size = layout_size(observation_layout(rules), rules.players)
        self._views = layout_views(observation_layout(rules), rules.players)

    def _draw_dealer(self, seed: int | str) -> int:
        """The first dealer drawn by lot, as the scalar match draws him [DRF-2.1]."""
        return draw_first_dealer(self.rules, seed)

    def _marked(self, state: BatchState, game: int) -> int:
        return int(state.marked[game])

    # --- the hooks of every engine: the rule sections' ----------------------------------------------

    def _own_fields(self) -> dict[str, Field]:
        return section.own_fields(self)

    def _deal_packs(self, state: BatchState, rows: Array, dealers: Array, packs: Array) -> None:
        section.deal_packs(self, state, rows, dealers, packs)

    def _load(self, state: BatchState, game: int, deal: Any) -> None:
        section.load_deal(state, game, deal)

    def _begin_deal(self, state: BatchState, rows: Array, dealers: Array) -> None:
        section.begin_deal(self, state, rows, dealers)

    # --- the interface ----------------------------------------------------------------------------

    def _legal_ids(self, state: BatchState, ids: Array) -> Array:
        fits = (ids >= 0) & (ids < self.num_actions)
        legal: Array = fits & ((state.legal >> np.where(fits, ids, 0).astype(np.uint64)) & _ONE != 0)
        return legal

    def _step_rows(self, state: BatchState, rows: Array, ids: Array) -> None:
        s = state
        playing = s.phase[rows] == _PLAY_PHASE
        plays = rows[playing]
        exchanges = rows[~playing]  # before the play changes any phase
        if len(plays):
            section.play_cards(self, s, plays, ids[plays])
        if len(exchanges):
            section.exchange_cards(self, s, exchanges, ids[exchanges])
        if self.rules.winner_rule == "first_to_reach":
            going = rows[s.phase[rows] != _OVER_PHASE]
            s.winner[going] = section.match_winner(self, s, going, False)

    def _scores(self, state: BatchState) -> Array:
        scores: Array = state.lower - state.upper
        return scores

    def _sample(self, state: BatchState, rng: np.random.Generator) -> Array:
        return random_bit(state.legal, rng)

    def _id_rule(self, state: BatchState, game: int) -> str:
        return "DRF-6.1" if state.phase[game] == _PLAY_PHASE else "DRF-4.3"

    def _as_scalar(self, state: BatchState, game: int, action: int) -> Any:
        if state.phase[game] == _EXCHANGE_PHASE and not self._incremental and 0 <= action < STAND:
            return Exchange(CardSet(int(state.marked[game]) | 1 << action))  # the set the mark would make
        return self.action_to_scalar(state, game, action)

    def _order_refusal(self, state: BatchState, game: int, action: int) -> RuleViolation:
        marked = CardSet(int(state.marked[game]))
        return RuleViolation(
            "DRF-4.3", f"game {game}: cards are marked for discard in ascending order, after {marked}", action
        )

    def legal_action_mask(self, state: BatchState) -> Array:
        """``bool[B, 53]``: the legal action ids of each game (none once over)."""
        return unpack(state.legal, self.num_actions)

    def rule_of_thumb(self, state: BatchState, games: Any = None) -> Array:
        """The id the rule-of-thumb bot plays for each game's seat to move (see
        :class:`fly_rules.dreyfus.bot.DreyfusRuleOfThumbBot`): buy the low plain cards, marked one by one, then
        win each trick as cheaply as possible; every game at once (0 for a game over)."""
        self._check_state(state)
        return dreyfus_rule_of_thumb(self, state, self._games(games))

    def thumb_hint(self, state: BatchState, games: Any = None) -> Array:
        """The rule of thumb's id as the learned bot is told it: its purchase chosen without the marks, -1 where
        the marks made do not go on towards it (see :meth:`BatchEngine.thumb_hint`)."""
        self._check_state(state)
        return dreyfus_rule_of_thumb(self, state, self._games(games), hint=True)

    def _observe(self, state: BatchState, seats: Array, order: Array | None) -> Array:
        """The observation of ``seats[i]`` in game ``i`` (:func:`fly_rules.dreyfus.encoding.observation_layout`)
        [DRF-11.1] [DRF-4.6]; with ``order``, the per-seat parts in that order of seats."""
        s, b, rules = state, len(seats), self.rules  # a batch's games, or some of them (observe's games)
        rows = np.arange(b)
        if order is None:
            order = np.broadcast_to(np.arange(3), (b, 3))
        rel = np.empty((b, 3), _I)
        rel[rows[:, None], order] = np.arange(3)[None, :]
        at = self._views  # each part of the layout by name
        out = np.zeros((b, self.observation_size), np.float32)
        moving = s.current_player == seats
        out[:, at["hand"]] = unpack(s.hands[rows, seats], 52)
        out[:, at["marked"]] = unpack(np.where(moving, s.marked, _ZERO), 52)
        out[:, at["own discards"]] = unpack(s.discards[rows, seats], 52)
        if rules.reveal_discards:
            revealed = at["revealed discards"].start
            for k in range(3):
                out[:, revealed + 52 * k : revealed + 52 * (k + 1)] = unpack(s.discards[rows, order[:, k]], 52)
        if rules.reveal_leftover_talon:
            left = np.zeros(b, np.uint64)
            for j in range(12):
                left |= np.where(j >= s.talon_taken, BIT[s.talon[:, j]], _ZERO)
            out[:, at["revealed talon"]] = unpack(np.where(s.phase != _EXCHANGE_PHASE, left, _ZERO), 52)
        out[rows, at["contract"].start + s.contract] = 1
        game, place = np.nonzero(s.trick != 52)
        player = (s.leader[game] + place) % 3
        out[game, at["current trick"].start + 52 * rel[game, player] + s.trick[game, place]] = 1
        game, number, place = np.nonzero(s.tricks != 52)
        player = (s.trick_leaders[game, number] + place) % 3
        done = at["completed tricks"].start
        out[game, done + 52 * rel[game, player] + s.tricks[game, number, place].astype(_I)] = 1

        def by_seat(values: Array) -> Array:
            ordered: Array = np.take_along_axis(values, order, axis=1)
            return ordered

        out[:, at["bought"]] = by_seat(s.bought) / 12
        out[:, at["talon left"].start] = (12 - s.talon_taken) / 12
        out[:, at["tricks taken"]] = by_seat(s.tricks_taken) / 12
        out[:, at["upper"]] = by_seat(s.upper) / rules.target_lower
        out[:, at["lower"]] = by_seat(s.lower) / rules.target_lower
        out[rows, at["leader"].start + rel[rows, s.leader]] = 1
        out[rows, at["own seat"].start + rel[rows, seats]] = 1
        to_move = s.current_player >= 0
        out[rows[to_move], at["seat to move"].start + rel[rows[to_move], s.current_player[to_move]]] = 1
        out[rows, at["dealer"].start + rel[rows, s.dealer]] = 1
        out[rows, at["phase"].start + s.phase] = 1
        np.minimum(out, 10.0, out=out)
        return out
