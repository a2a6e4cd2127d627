"""Fly's deal and exchange on NumPy arrays: the cards dealt, the declarations open, folds, exchanges and
the stock's draws [FLY-3] [FLY-4] [FLY-5]: rule-section functions that :class:`~fly_rules.batch.FlyBatch` calls,
each given the engine (its rules, options and tables) and the state. In the exchange, ``legal`` holds the
declaration ids from ``STAND`` up as bits (bit ``k``: id ``STAND + k``)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from fly_rules.batch import _fly_play
from fly_rules.batch._bits import BIT, NO_CARD, Array, bit_list, popcount
from fly_rules.batch._state import BatchState, Field
from fly_rules.fly.deal import refill_order
from fly_rules.fly.encoding import EXCHANGE, FOLD, STAND, SWAP

if TYPE_CHECKING:
    from fly_rules.batch._fly import FlyBatch

__all__ = [
    "begin_deal",
    "deal_packs",
    "declaration_legal",
    "declare",
    "draw_cards",
    "draw_short",
    "exchange_limit",
    "fold_refused",
    "load_deal",
    "next_declarer",
    "own_fields",
    "place_cards",
]

_EXCHANGE_PHASE: Final = 0
_AS: Final = 51
_AS_BIT: Final = np.uint64(1 << _AS)
_ONE: Final = np.uint64(1)
_ZERO: Final = np.uint64(0)
_I = np.int64
_STAND_BIT: Final = np.uint64(1 << (STAND - STAND))
_FOLD_BIT: Final = np.uint64(1 << (FOLD - STAND))


@functools.cache  # made at first use, not at import: mutation testing reaches it then
def _subset_table() -> Array:
    """``[positions open, limit]``: the exchange ids of every subset of the open hand positions with at most
    ``limit`` cards, as a mask of ids counted from ``STAND`` [FLY-4.3]."""
    table = np.zeros((32, 6), dtype=np.uint64)
    for open_ in range(32):
        for limit in range(6):
            ids = 0
            for m in range(1, 32):
                if m & ~open_ == 0 and bin(m).count("1") <= limit:
                    ids |= 1 << (EXCHANGE - 1 + m - STAND)
            table[open_, limit] = ids
    return table


# --- a new batch, a new deal ------------------------------------------------------------------


def own_fields(e: FlyBatch) -> dict[str, Field]:
    """The arrays only this game keeps (see :attr:`fields`)."""
    n = e.num_players
    return {
        "stock": Field((52,), np.int8, NO_CARD),
        "stock_pos": Field((), _I, 0),
        "stock_len": Field((), _I, 0),
        "stock_union": Field((53,), np.uint64, 0),
        "trump_card": Field((), _I, 0),
        "trump": Field((), _I, 0),
        "active": Field((n,), bool, False),
        "declaration_round": Field((), _I, 0),
        "must_confirm": Field((), bool, False),
        "exchanged": Field((), _I, 0),
        "refills": Field((), _I, 0),
        "turnup_here": Field((), bool, False),
        "discards": Field((), np.uint64, 0),
        "gave_ace": Field((n,), bool, False),
        "declared": Field((n, 4), np.float32, 0),
        "records": Field((n,), _I, e.rules.start_record),  # a new match's: the start record [FLY-8.1]
        "last_trick": Field((n,), _I, 0),
        "leader": Field((), _I, -1),
        "ace_holder": Field((), _I, -1),
        "bonus_due": Field((), bool, False),
        "in_play": Field((), _I, 0),
        "next_seat": Field((n,), _I, 0),
        "trick_seats": Field((n,), _I, -1),
        "trick_seat_history": Field((5, n), np.int8, -1),
        "winners": Field((n,), bool, False),
        "void": Field((), bool, False),
        "redeal": Field((), bool, False),
        "start_hands": Field((n,), np.uint64, 0),
        "start_stock": Field((52,), np.int8, NO_CARD),
        "start_records": Field((n,), _I, 0),
    }


def deal_packs(e: FlyBatch, state: BatchState, rows: Array, dealers: Array, packs: Array) -> None:
    """Deal the packs in the scalar engine's dealing order: the hands, then the trump card, then the
    stock [FLY-3.1] [FLY-3.2] [FLY-3.4]."""
    t = e._t
    cards = packs[np.arange(len(rows))[:, None, None], t.receivers[dealers]]
    stock = np.full((len(rows), 52), NO_CARD, _I)
    stock[:, : len(t.stock_at)] = packs[:, list(t.stock_at)]
    hands = BIT[cards].sum(axis=2, dtype=np.uint64)
    place_cards(e, state, rows, hands, packs[:, t.trump_at], stock, np.full(len(rows), len(t.stock_at), _I))
    begin_deal(e, state, rows, dealers)


def load_deal(e: FlyBatch, state: BatchState, game: int, deal: Any) -> None:
    """Put the scalar ``deal``'s cards and records into row ``game``."""
    cards = deal.exchanges.stock_indices
    stock = np.full((1, 52), NO_CARD, _I)
    stock[0, : len(cards)] = cards
    rows = np.array([game])
    state.records[game] = deal.records
    state.dealer[game] = deal.dealer
    if state.seeds[game] is None:
        state.seeds[game] = deal.table.seed  # a lone deal's seed, for refilling its stock [FLY-4.5]
    hands = np.array([deal.hand_masks], np.uint64)
    place_cards(e, state, rows, hands, np.array([deal.trump_card.index]), stock, np.array([len(cards)]))


def place_cards(
    e: FlyBatch, s: BatchState, rows: Array, hands: Array, trump_card: Array, stock: Array, size: Array
) -> None:
    """Put dealt cards in ``rows``: the hands, the trump card and the stock (its top first)."""
    s.hands[rows] = hands
    s.start_hands[rows] = hands
    s.stock[rows] = stock
    s.start_stock[rows] = stock
    s.stock_pos[rows] = 0
    s.stock_len[rows] = size
    union = np.zeros((len(rows), 53), np.uint64)
    union[:, 1:] = np.cumsum(BIT[stock], axis=1, dtype=np.uint64)  # drawing k cards: two look-ups
    s.stock_union[rows] = union
    s.trump_card[rows] = trump_card
    s.trump[rows] = trump_card // 13


def begin_deal(e: FlyBatch, s: BatchState, rows: Array, dealers: Array) -> None:
    """Set ``rows`` at the start of the exchange: the player left of the dealer declares first [FLY-4.1]."""
    at = e._sel(rows)  # all rows: no gather
    s.dealer[at] = dealers
    s.start_records[at] = s.records[rows]
    s.active[at] = True
    s.turnup_here[at] = True
    s.current_player[at] = e._left[dealers]
    s.phase[at] = _EXCHANGE_PHASE
    for name in ("declaration_round", "exchanged", "refills", "discards", "declared", "tricks_taken"):
        getattr(s, name)[at] = 0
    for name in ("last_trick", "in_play", "trick_len", "tricks_done", "log_len"):
        getattr(s, name)[at] = 0
    for name in ("must_confirm", "gave_ace", "bonus_due", "winners", "void", "redeal"):
        getattr(s, name)[at] = False
    for name in ("leader", "ace_holder", "trick_seats", "trick_leaders", "trick_winners", "trick_seat_history"):
        getattr(s, name)[at] = -1
    s.trick[at] = NO_CARD
    s.tricks[at] = NO_CARD
    declaration_legal(e, s, rows)


# --- the exchange -----------------------------------------------------------------------------


def exchange_limit(e: FlyBatch, s: BatchState, rows: Array) -> Array:
    """The most cards the player to move may exchange now [FLY-4.3] [FLY-4.5]."""
    rules = e.rules
    limit = np.full(len(rows), rules.max_exchange, _I)
    if rules.total_exchange_cap is not None:
        limit = np.minimum(limit, rules.total_exchange_cap - s.exchanged[rows])
    available = s.stock_len[rows] - s.stock_pos[rows]
    short = available < limit
    if e._refill and short.any():
        extra = np.zeros(len(rows), _I)
        if rules.stock_exhaustion == "folded_hands":
            folded = np.where(s.active[rows], _ZERO, s.hands[rows])
            extra += popcount(np.bitwise_or.reduce(folded, axis=1))
        elif rules.stock_exhaustion == "reshuffle_discards":
            extra += popcount(s.discards[rows])
        if rules.turnup_use == "last_stock_card":
            extra += s.turnup_here[rows]
        available = available + extra
    return np.where(short, np.maximum(0, np.minimum(limit, available)), limit)


def fold_refused(e: FlyBatch, s: BatchState, rows: Array, seat: Array, hand: Array) -> Array:
    """Whether ``seat`` may not fold now [FLY-5.2] [FLY-5.3] [FLY-5.4] [FLY-5.5] [FLY-4.6]."""
    rules = e.rules
    refused: Array = (hand & _AS_BIT != 0) | s.gave_ace[rows, seat]
    if not e._combined:
        refused |= s.declaration_round[rows] == 1
    dealer = s.dealer[rows]
    if rules.forced_player == "eldest":
        refused |= seat == e._left[dealer]
    others = s.active[rows].sum(axis=1) - 1
    last = seat == dealer
    if rules.forced_player == "dealer_if_all_passed" or rules.all_fold == "dealer_must_play":
        refused |= last & (others == 0)
    if rules.lone_player == "last_speaker_must_play":
        refused |= last & (others == 1)
    return refused


def declaration_legal(e: FlyBatch, s: BatchState, rows: Array) -> None:
    """The declaration ids open to each row's seat to move [FLY-4.2]."""
    rules = e.rules
    seat = s.current_player[rows]
    hand = s.hands[rows, seat]
    refused = fold_refused(e, s, rows, seat, hand)
    legal = np.where(refused, _STAND_BIT, _STAND_BIT | _FOLD_BIT)
    open_ = ~s.must_confirm[rows]
    if not e._combined:
        open_ &= s.declaration_round[rows] == 1
    if open_.any():
        positions = np.full(len(rows), 31, _I)
        if not rules.ace_of_spades_discardable or rules.turnup_use == "dealer_swap":
            cards = bit_list(hand, 5)
            if not rules.ace_of_spades_discardable:
                positions &= ~((cards == _AS) * (1 << np.arange(5))).sum(axis=1)
            if rules.turnup_use == "dealer_swap":
                swap = open_ & (seat == s.dealer[rows]) & s.turnup_here[rows]
                legal |= np.where(swap, positions.astype(np.uint64) << np.uint64(SWAP - STAND), _ZERO)
        limit = exchange_limit(e, s, rows)
        legal |= np.where(open_, _subset_table()[positions, limit], _ZERO)
    s.legal[rows] = legal


def draw_cards(e: FlyBatch, s: BatchState, rows: Array, count: Array) -> Array:
    """Take ``count`` replacements for each row: the stock from its top, then by the options the
    trump card and a refilled stock [FLY-4.4] [FLY-4.5]; the cards drawn, as masks."""
    pos = s.stock_pos[rows]
    fast = count <= s.stock_len[rows] - pos
    end = np.minimum(pos + count, 52)
    drawn: Array = s.stock_union[rows, end] ^ s.stock_union[rows, pos]
    s.stock_pos[rows] = np.where(fast, end, pos)
    if not fast.all():
        for k in np.flatnonzero(~fast):
            drawn[k] = draw_short(e, s, int(rows[k]), int(count[k]))
    return drawn


def draw_short(e: FlyBatch, s: BatchState, row: int, count: int) -> np.uint64:
    """One game's draw when the stock runs short [FLY-4.5] [FLY-3.3], as the scalar engine draws it."""
    rules = e.rules
    pos, size = int(s.stock_pos[row]), int(s.stock_len[row])
    drawn = 0
    for card in s.stock[row, pos:size]:
        drawn |= 1 << int(card)
    count -= size - pos
    s.stock_pos[row] = size
    if count and rules.turnup_use == "last_stock_card" and s.turnup_here[row]:
        drawn |= 1 << int(s.trump_card[row])
        s.turnup_here[row] = False
        count -= 1
    if count:
        if rules.stock_exhaustion == "folded_hands":
            pool = int(np.bitwise_or.reduce(np.where(s.active[row], _ZERO, s.hands[row])))
            s.hands[row] = np.where(s.active[row], s.hands[row], _ZERO)
        else:
            pool = int(s.discards[row])
            s.discards[row] = 0
        order = refill_order(pool, s.seeds[row], int(s.deal_number[row]), int(s.refills[row]))
        s.refills[row] += 1
        for card in order[:count]:
            drawn |= 1 << card
        s.stock[row] = NO_CARD
        s.stock[row, : len(order)] = order
        s.stock_len[row] = len(order)
        s.stock_pos[row] = min(count, len(order))
        s.stock_union[row, 1:] = np.cumsum(BIT[s.stock[row]], dtype=np.uint64)
    return np.uint64(drawn)


def declare(e: FlyBatch, s: BatchState, rows: Array, ids: Array) -> None:
    """Each row's seat to move declares ``ids`` [FLY-4.1] [FLY-4.2] [FLY-3.3]."""
    seat = s.current_player[rows]
    hand = s.hands[rows, seat]
    stays = np.zeros(len(rows), bool)  # the same seat declares again
    fold = ids == FOLD
    if fold.any():
        s.active[rows[fold], seat[fold]] = False
        s.declared[rows[fold], seat[fold], 1] = 1
    stand = ids == STAND
    s.declared[rows[stand], seat[stand], 0] = 1
    s.must_confirm[rows[fold | stand]] = False
    exchange = (ids >= EXCHANGE) & (ids < SWAP)
    swap = ids >= SWAP
    if exchange.any():
        r, sx, m = rows[exchange], seat[exchange], ids[exchange] - (EXCHANGE - 1)
        rest = hand[exchange]
        discard = np.zeros(len(r), np.uint64)
        count = np.zeros(len(r), _I)
        for j in range(5):  # the hand's cards lowest first: position j is the j-th lowest
            low = rest & (~rest + _ONE)
            rest ^= low
            chosen = (m >> j) & 1 != 0
            discard |= np.where(chosen, low, _ZERO)
            count += chosen
        drawn = draw_cards(e, s, r, count)
        s.hands[r, sx] = s.hands[r, sx] & ~discard | drawn
        s.discards[r] |= discard
        s.exchanged[r] += count
        s.gave_ace[r, sx] |= discard & _AS_BIT != 0
        s.declared[r, sx, 2] += count.astype(np.float32) / 5
        if e.rules.may_fold_after_exchange:
            s.must_confirm[r] = True
            stays[exchange] = True
    if swap.any():
        r, sx = rows[swap], seat[swap]
        card = bit_list(hand[swap], 5)[np.arange(int(swap.sum())), ids[swap] - SWAP]
        s.hands[r, sx] = s.hands[r, sx] & ~BIT[card] | BIT[s.trump_card[r]]
        s.discards[r] |= BIT[card]
        s.turnup_here[r] = False
        s.gave_ace[r, sx] |= card == _AS
        s.declared[r, sx, 3] = 1
        stays[swap] = True
    moving = ~stays
    nxt = next_declarer(e, s, rows[moving], seat[moving])
    done = rows[moving][nxt < 0]
    s.current_player[rows[moving]] = nxt
    still = s.current_player[rows] >= 0
    declaration_legal(e, s, rows[still])
    if len(done):
        _fly_play.begin_play(e, s, done)


def next_declarer(e: FlyBatch, s: BatchState, rows: Array, seat: Array) -> Array:
    """The seat to declare after ``seat``, or -1 when every declaration is made [FLY-4.1]."""
    dealer = s.dealer[rows]
    last = seat == dealer
    if e._combined:
        return np.where(last, -1, e._left[seat])
    n = e.num_players
    first_round = s.declaration_round[rows] == 0
    nxt = np.where(last, -1, e._left[seat])
    active_bits = (s.active[rows] * (1 << np.arange(n))).sum(axis=1)
    opening = first_round & last & (active_bits > 0)
    if opening.any():
        s.declaration_round[rows[opening]] = 1
        nxt[opening] = e._t.next_active[active_bits[opening], dealer[opening]]
    second = ~first_round
    if second.any():
        step = e._left[0]  # 1, or n - 1 anticlockwise: seat s's left is (s + step) % n
        distance = ((seat - dealer) * (n - step)) % n  # seats from ``seat`` to the dealer, going left
        found = np.full(len(rows), -1, _I)
        for k in range(n - 1, 0, -1):  # the nearest last
            other = (seat + step * k) % n
            ok = second & (k <= distance) & s.active[rows, other]
            found = np.where(ok, other, found)
        nxt = np.where(second, found, nxt)
    return nxt
