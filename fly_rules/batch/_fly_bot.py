"""The rule-of-thumb player of Fly (:class:`fly_rules.fly.bot.FlyRuleOfThumbBot`) for every game of a batch
at once: the same choice from the same view, computed on the batch's arrays.

The bot's own card sense is tabulated once per set of rules from the scalar bot and its helpers (which
cards it keeps, :func:`fly_rules.tricks.card_strength`, and the plain trick winner
:func:`fly_rules.tricks.trick_winner` it plays to beat), so this module restates only how it chooses.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

import numpy as np

from fly_rules.batch._bits import NO_CARD, Array, bit_list, unpack
from fly_rules.batch._state import BatchState
from fly_rules.batch._tables import trick_powers
from fly_rules.cards import ALL_CARDS, Rank, Suit
from fly_rules.fly.bot import FlyRuleOfThumbBot
from fly_rules.fly.encoding import EXCHANGE, FOLD, STAND, SWAP
from fly_rules.fly.rules import FlyRules
from fly_rules.tricks import card_strength, trick_winner

if TYPE_CHECKING:
    from fly_rules.batch._fly import FlyBatch

__all__ = ["fly_rule_of_thumb"]

_PLAY_PHASE: Final = 1
_EXCHANGE_PHASE: Final = 0
_I = np.int64
_BIG: Final = 1 << 20
_ONE: Final = np.uint64(1)


class _Sense:
    """The bot's card sense under one set of rules, as tables."""

    def __init__(self, rules: FlyRules) -> None:
        order = rules.rank_order
        bot = FlyRuleOfThumbBot(order)
        self.strength: Array = np.array(
            [[card_strength(ALL_CARDS[c], Suit(t), order) for c in range(52)] + [_BIG] for t in range(4)], _I
        )
        """``[trump, card]``: the card's strength in play (trumps above every plain card)."""
        self.good: Array = np.array(
            [sum(1 << c for c in range(52) if bot._good(ALL_CARDS[c], Suit(t))) for t in range(4)], np.uint64
        )
        """``[trump]``: the cards the bot keeps (a trump, an ace or a king)."""
        ten = order.strength[Rank.TEN]
        self.swap_worth: Array = np.array([order.strength[ALL_CARDS[c].rank] >= ten for c in range(52)], bool)
        """``[trump card]``: whether the bot takes the trump card (a ten or better)."""
        power = np.full((16, 53), -1, _I)
        for t in range(4):
            for led in range(4):
                power[t * 4 + led, :52] = trick_powers(functools.partial(trick_winner, trump=t, order=order), led * 13)
        self.plain_power: Array = power
        """``[trump * 4 + suit led, card]``: the card's power in a trick, without the ace of spades'
        privilege (the bot plays to the plain winner)."""


@functools.lru_cache(maxsize=64)
def _sense(rules: FlyRules) -> _Sense:
    return _Sense(rules)


def fly_rule_of_thumb(engine: FlyBatch, state: BatchState, games: Array | None = None) -> Array:
    """The rule-of-thumb bot's id for each game's seat to move (0 for a game over, or not in ``games``)."""
    sense = _sense(engine.rules)
    ids = np.zeros(engine.batch_size, _I)
    asked = np.ones(engine.batch_size, bool) if games is None else games
    playing = np.flatnonzero(asked & (state.phase == _PLAY_PHASE))
    if len(playing):
        ids[playing] = _cheapest_winner(state, playing, sense)
    declaring = np.flatnonzero(asked & (state.phase == _EXCHANGE_PHASE))
    if len(declaring):
        ids[declaring] = _declare(state, declaring, sense)
    return ids


def _cheapest_winner(state: BatchState, rows: Array, sense: _Sense) -> Array:
    """Win cheaply: the weakest legal card that takes the trick as it stands, else the weakest; the
    strongest when leading (:func:`fly_rules.tricks.cheapest_winner`)."""
    trump = state.trump[rows]
    legal = unpack(state.legal[rows], 52)
    strong = sense.strength[trump, :52]
    leading = state.trick_len[rows] == 0
    lead = np.where(legal, strong, -1).argmax(axis=1)  # the first of the strongest: the lowest index
    led = state.trick[rows, 0] // 13
    power = sense.plain_power[trump * 4 + np.minimum(led, 3)]  # leading: a row unused, the strongest is led
    trick = state.trick[rows]
    best = np.take_along_axis(power, trick, axis=1).max(axis=1)
    winners = legal & (power[:, :52] > best[:, None])
    pool = np.where(winners.any(axis=1)[:, None], winners, legal)
    cheapest = np.where(pool, strong, _BIG).argmin(axis=1)
    chosen: Array = np.where(leading, lead, cheapest)
    return chosen


def _declare(state: BatchState, rows: Array, sense: _Sense) -> Array:
    """Declare by the hand's strength: take the trump card if it is worth it, fold a hand with nothing
    to keep, exchange the most weak cards the rules allow (the weakest first), else stand."""
    seat = state.current_player[rows]
    hand = state.hands[rows, seat]
    trump = state.trump[rows]
    legal = state.legal[rows]  # bit k: id STAND + k
    cards = bit_list(hand, 5)  # the hand positions
    strong = sense.strength[trump[:, None], cards]
    ids = np.full(len(rows), STAND, _I)
    # the exchange: the k weakest weak cards the exchange ids allow, k as many as the largest one
    weak_cards = (hand & ~sense.good[trump])[:, None] >> cards.astype(np.uint64) & _ONE != 0
    singles = np.array([legal >> np.uint64(EXCHANGE - 1 + (1 << j) - STAND) & _ONE != 0 for j in range(5)]).T
    choosable = weak_cards & singles & (cards != NO_CARD)
    key = np.where(choosable, strong * 8 + np.arange(5), _BIG)
    ranked = np.argsort(key, axis=1, kind="stable")
    size = np.zeros(len(rows), _I)
    open_ = singles & (cards != NO_CARD)
    open_rank = np.argsort(np.where(open_, np.arange(5), _BIG), axis=1, kind="stable")
    for k in range(1, 6):  # the largest exchange open: its k lowest open positions form a legal id
        m = (np.arange(5)[None, :] == open_rank[:, :k, None]).any(axis=1)
        m_bits = (m * (1 << np.arange(5))).sum(axis=1)
        ok = (k <= open_.sum(axis=1)) & (legal >> (EXCHANGE - 1 + m_bits - STAND).astype(np.uint64) & _ONE != 0)
        size = np.where(ok, k, size)
    take = np.minimum(size, choosable.sum(axis=1))
    picked = np.arange(5)[None, :] < take[:, None]
    positions = np.where(picked, 1 << ranked, 0).sum(axis=1)  # distinct bits: the sum is their union
    ids = np.where(take > 0, EXCHANGE - 1 + positions, ids)
    # the fold of a hand with nothing worth keeping
    may_fold = legal >> np.uint64(FOLD - STAND) & _ONE != 0
    ids = np.where(may_fold & (hand & sense.good[trump] == 0), FOLD, ids)
    # the trump card, for the weakest card of the hand
    swaps = np.array([legal >> np.uint64(SWAP + j - STAND) & _ONE != 0 for j in range(5)]).T
    worth = sense.swap_worth[state.trump_card[rows]] & swaps.any(axis=1)
    cheapest = np.where(swaps, strong, _BIG).argmin(axis=1)  # positions ascend with the card index
    return np.where(worth, SWAP + cheapest, ids)
