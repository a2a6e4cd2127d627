"""The rule-of-thumb player of Dreyfus (:class:`fly_rules.dreyfus.bot.DreyfusRuleOfThumbBot`) for every game
of a batch at once: the same choice from the same view, computed on the batch's arrays.

Its purchase is given as the batch's ids give it: the cards marked one by one, lowest first, then
``STAND``; each id is worked out afresh from the hand, so nothing is remembered between steps. The
bot's strengths come from :func:`fly_rules.tricks.card_strength`, the trick's winner from the batch's
power table (built from the scalar rule functions).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

import numpy as np

from fly_rules.batch._bits import Array, lowest_bit, unpack
from fly_rules.batch._dreyfus_play import highest_bit
from fly_rules.batch._state import BatchState
from fly_rules.cards import ACE_HIGH, ALL_CARDS, Suit
from fly_rules.dreyfus.bot import DreyfusRuleOfThumbBot
from fly_rules.dreyfus.encoding import STAND
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.tricks import card_strength

if TYPE_CHECKING:
    from fly_rules.batch._dreyfus import DreyfusBatch

__all__ = ["dreyfus_rule_of_thumb"]

_PLAY_PHASE: Final = 1
_EXCHANGE_PHASE: Final = 0
_NO_TRUMP: Final = 4
_I = np.int64
_BIG: Final = 1 << 20


class _Sense:
    """The bot's card sense under one set of rules, as tables."""

    def __init__(self, rules: DreyfusRules) -> None:
        bot = DreyfusRuleOfThumbBot()
        self.strength: Array = np.array(
            [
                [card_strength(ALL_CARDS[c], None if t == _NO_TRUMP else Suit(t), ACE_HIGH) for c in range(52)] + [_BIG]
                for t in range(5)
            ],
            _I,
        )
        """``[contract, card]``: the card's strength in play (trumps above every plain card)."""
        self.low: Array = np.array(
            [
                sum(1 << c for c in range(52) if c // 13 != t and ALL_CARDS[c].rank <= bot.highest_discard)
                for t in range(5)
            ],
            np.uint64,
        )
        """``[contract]``: the cards the bot would buy away (plain cards up to its highest discard)."""


@functools.lru_cache(maxsize=64)
def _sense(rules: DreyfusRules) -> _Sense:
    return _Sense(rules)


def dreyfus_rule_of_thumb(
    engine: DreyfusBatch, state: BatchState, games: Array | None = None, *, hint: bool = False
) -> Array:
    """The rule-of-thumb bot's id for each game's seat to move (0 for a game over, or not in ``games``). With
    ``hint``, its purchase is the one it chooses from the view alone, without the marks, as the learned bot is
    told it (:func:`fly_rules.adapters.learned.thumb_id`): -1 where the seat's marks do not go on towards it."""
    sense = _sense(engine.rules)
    ids = np.zeros(engine.batch_size, _I)
    asked = np.ones(engine.batch_size, bool) if games is None else games
    playing = np.flatnonzero(asked & (state.phase == _PLAY_PHASE))
    if len(playing):
        ids[playing] = _cheapest_winner(engine, state, playing, sense)
    buying = np.flatnonzero(asked & (state.phase == _EXCHANGE_PHASE))
    if len(buying):
        ids[buying] = _buy(engine, state, buying, sense, hint=hint)
    return ids


def _cheapest_winner(engine: DreyfusBatch, state: BatchState, rows: Array, sense: _Sense) -> Array:
    """Win cheaply: the weakest legal card that takes the trick as it stands, else the weakest; the
    strongest when leading (:func:`fly_rules.tricks.cheapest_winner`)."""
    contract = state.contract[rows]
    legal = unpack(state.legal[rows], 52)
    strong = sense.strength[contract, :52]
    leading = state.trick_len[rows] == 0
    lead = np.where(legal, strong, -1).argmax(axis=1)  # the first of the strongest: the lowest index
    power = engine._t.power[state.power_row[rows], :52]
    winners = legal & (power > state.best_power[rows, None])
    pool = np.where(winners.any(axis=1)[:, None], winners, legal)
    cheapest = np.where(pool, strong, _BIG).argmin(axis=1)
    chosen: Array = np.where(leading, lead, cheapest)
    return chosen


def _buy(engine: DreyfusBatch, state: BatchState, rows: Array, sense: _Sense, *, hint: bool = False) -> Array:
    """The next id of the purchase the bot chooses: its low plain cards, lowest rank first, as many as
    the talon holds, cut back to the longest run of them the rules let it discard (with the cards it
    has marked; with ``hint``, without them, and -1 where the marks are not the first of that purchase's
    cards in ascending order); then ``STAND``."""
    seat = state.current_player[rows]
    hand = state.hands[rows, seat]
    left = 12 - state.talon_taken[rows]
    marked_now = state.marked[rows]
    marked = np.zeros_like(marked_now) if hint else marked_now
    eligible = hand & state.dealt[rows, seat] & engine._fosk[state.contract[rows]]
    wanted = unpack(hand & sense.low[state.contract[rows]], 52)
    rank = np.arange(52) % 13
    order = np.argsort(np.where(wanted, rank * 64 + np.arange(52), _BIG), axis=1, kind="stable")  # by rank
    count = np.minimum(wanted.sum(axis=1), left)
    cap = np.minimum(left, 1) if engine._incremental else left
    floor = np.where(marked != 0, highest_bit(marked) + 1, 0)
    target = np.zeros(len(rows), np.uint64)
    prefix = np.zeros(len(rows), np.uint64)
    for k in range(12):  # the longest legal prefix of the wanted cards that goes on from the marks
        card = order[:, k]
        prefix = np.where(k < count, prefix | np.left_shift(np.uint64(1), card.astype(np.uint64)), prefix)
        extra = prefix & ~marked
        ok = (
            (k < count)
            & (k + 1 <= cap)
            & (prefix & ~eligible == 0)
            & (marked & ~prefix == 0)
            & (extra & ((np.left_shift(np.uint64(1), floor.astype(np.uint64))) - np.uint64(1)) == 0)
        )
        target = np.where(ok, prefix, target)
    rest = target & ~marked_now
    ids: Array = np.where(rest != 0, lowest_bit(np.where(rest != 0, rest, np.uint64(1))), STAND)
    if hint:  # the scalar bot's purchase goes on from the marks only if they are its lowest cards
        below = np.left_shift(np.uint64(1), np.where(marked_now != 0, highest_bit(marked_now) + 1, 0).astype(np.uint64))
        off = (marked_now & ~target != 0) | (rest & (below - np.uint64(1)) != 0)
        ids = np.where(off, -1, ids)
    return ids
