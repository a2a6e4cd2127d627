"""Fly, a batch of games at once: every rule of ``specs/fly.md`` on NumPy arrays.

Hands, legal cards and legal declarations are ``uint64`` bitmasks; the rules that branch in the
scalar engine are tables here, built once per batch for its options (card power by trump, suit led
and the ace-of-spades privilege; the next active seat by the set of active seats; the exchanges
open by hand positions and the stock's limit; the stock's running union, so that drawing ``k``
cards is two look-ups). Each game's deal comes from the batch's own generator.

Action ids (``num_actions == 90``):

- ``0`` stand [FLY-4.2]; ``1`` fold [FLY-5.1];
- ``2..32`` exchange [FLY-4.3]: id ``1 + m`` discards the cards at the hand positions of the
  bits of ``m`` (1..31), position ``j`` the ``j``-th lowest card index of the hand;
- ``33..37`` the dealer takes the trump card and discards the card at position ``id - 33``
  [FLY-3.3];
- ``38..89`` play the card of index ``id - 38`` [FLY-6.2].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.batch._bits import (
    BIT,
    NO_CARD,
    Array,
    bit_list,
    lowest_bit,
    popcount,
    random_bit,
    shuffled_decks,
    unpack,
)
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._state import BatchState
from fly_rules.cards import ALL_CARDS, CardSet
from fly_rules.errors import InvalidRules, RuleViolation
from fly_rules.fly.deal import DealTable, refill_order
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.match import FlyMatch
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import start_deal
from fly_rules.tricks import TrumpDuty

__all__ = ["EXCHANGE", "FOLD", "NUM_ACTIONS", "PLAY", "STAND", "SWAP", "FlyBatch"]

STAND: Final = 0
"""Stand: keep the hand (or, after an exchange under ``may_fold_after_exchange``, stay in)."""
FOLD: Final = 1
"""Fold."""
EXCHANGE: Final = 1
"""Id ``EXCHANGE + m`` exchanges the cards at the hand positions of the bits of ``m`` (1..31)."""
SWAP: Final = 33
"""Id ``SWAP + j``: the dealer takes the trump card and discards the card at hand position ``j``."""
PLAY: Final = 38
"""Id ``PLAY + c`` plays the card of index ``c``."""
NUM_ACTIONS: Final = 90
"""Distinct action ids of Fly."""

_EXCHANGE_PHASE, _PLAY_PHASE, _OVER_PHASE = 0, 1, 2
_AS: Final = 51
_AS_BIT: Final = np.uint64(1 << _AS)
_ONE: Final = np.uint64(1)
_ZERO: Final = np.uint64(0)
_TOP: Final = 200
_SPADES: Final = 3
_I = np.int64


class FlyBatch(BatchEngine):
    """Fly for ``batch_size`` games at once, all under ``rules`` [FLY-1.1].

    Build one with :func:`fly_rules.batch.make`. Every option of :class:`~fly_rules.fly.FlyRules`
    is played as the scalar engine plays it, except ``revoke_mode="penalize"``, which is refused
    (a batch takes only the actions of its mask).
    """

    game = "fly"

    def __init__(self, rules: FlyRules, batch_size: int, *, match: bool = False) -> None:
        if rules.revoke_mode != "prevent":
            raise InvalidRules(
                "revoke_mode", "the batch engine takes only the actions of its mask: revokes cannot be adjudicated"
            )
        if type(batch_size) is not int or batch_size < 1:
            raise ValueError(f"batch_size must be a whole number >= 1, not {batch_size!r}")
        self.rules = rules
        self.batch_size = batch_size
        self.match = match
        self.num_players = n = rules.players
        self.num_actions = NUM_ACTIONS
        self.observation_size = 52 * 3 + 52 * n * 2 + 4 * n + 6 * n + 3 + 1
        step = 1 if rules.direction == "clockwise" else -1
        self._dir = step
        self._left = np.array([(s + step) % n for s in range(n)], dtype=_I)
        self._deck = np.array([c.index for c in rules.deck], dtype=_I)
        self._receivers = self._receiver_table()
        self._next_active = self._next_active_table()
        self._subsets = self._subset_table()
        self._build_card_tables()
        self._combined = rules.declaration_mode == "combined"
        self._refill = rules.stock_exhaustion != "cap" or rules.turnup_use == "last_stock_card"

    # --- tables, fixed for the batch's options ------------------------------------------------------

    def _receiver_table(self) -> Array:
        """``[dealer, seat, j]``: the position in the pack of seat's ``j``-th card [FLY-3.1]."""
        rules, n = self.rules, self.num_players
        table = np.zeros((n, n, 5), dtype=_I)
        for dealer in range(n):
            seats = [(dealer + self._dir * (k + 1)) % n for k in range(n)]
            order = [seat for packet in rules.packet_rounds for seat in seats for _ in range(packet)]
            got = [0] * n
            for position, seat in enumerate(order):
                table[dealer, seat, got[seat]] = position
                got[seat] += 1
        return table

    def _next_active_table(self) -> Array:
        """``[active seats as bits, seat]``: the next active seat to the left, -1 if none [FLY-6.2]."""
        n = self.num_players
        table = np.full((1 << n, n), -1, dtype=_I)
        for mask in range(1 << n):
            for seat in range(n):
                for k in range(1, n + 1):
                    other = (seat + self._dir * k) % n
                    if mask >> other & 1:
                        table[mask, seat] = other
                        break
        return table

    @staticmethod
    def _subset_table() -> Array:
        """``[positions open, limit]``: the exchange ids of every subset of the open positions with at most
        ``limit`` cards [FLY-4.3], as a mask of ids."""
        table = np.zeros((32, 6), dtype=np.uint64)
        for open_ in range(32):
            for limit in range(6):
                ids = 0
                for m in range(1, 32):
                    if m & ~open_ == 0 and bin(m).count("1") <= limit:
                        ids |= 1 << (EXCHANGE + m)
                table[open_, limit] = ids
        return table

    def _build_card_tables(self) -> None:
        """Per trump suit: each card's suit and strength for the duties (the A♠ a trump when it is the
        top trump [FLY-7.1]), the cards that beat it, and its power in a trick by suit led and whether
        the trump ace was led [FLY-6.6] [FLY-7.3] [FLY-7.4]."""
        rules = self.rules
        strength = rules.rank_order.strength
        mode = rules.ace_of_spades_mode
        suit = np.zeros((4, 53), dtype=_I)
        duty = np.zeros((4, 53), dtype=_I)
        for trump in range(4):
            for card in range(52):
                suit[trump, card] = card // 13
                duty[trump, card] = strength[card % 13 + 2]
            suit[trump, NO_CARD] = 4
            if mode == "top_trump" and trump != _SPADES:
                suit[trump, _AS] = trump
                duty[trump, _AS] = _TOP
        masks = np.zeros((4, 5), dtype=np.uint64)
        beaten = np.zeros((4, 53), dtype=np.uint64)
        for trump in range(4):
            for card in range(52):
                masks[trump, suit[trump, card]] |= np.uint64(1 << card)
            for card in range(52):
                higher = 0
                for other in range(52):
                    if suit[trump, other] == suit[trump, card] and duty[trump, other] > duty[trump, card]:
                        higher |= 1 << other
                beaten[trump, card] = higher
        power = np.full((32, 53), -1, dtype=_I)
        for trump in range(4):
            for led in range(4):
                for ace_led in range(2):
                    ctx = trump * 8 + led * 2 + ace_led
                    for card in range(52):
                        s = suit[trump, card]
                        p = 32 + duty[trump, card] if s == trump else 16 + duty[trump, card] if s == led else 0
                        if card == _AS and trump != _SPADES and ace_led and mode.startswith("led_trump_ace"):
                            p = 32 + _TOP
                        power[ctx, card] = p
        self._suit, self._suit_mask, self._beaten, self._power = suit, masks, beaten, power
        self._led_ace_mode = mode.startswith("led_trump_ace")
        self._ace_joins_led_ace = mode == "led_trump_ace"
        self._top_trump = mode == "top_trump"

    # --- a new batch ----------------------------------------------------------------------------

    def _own_arrays(self) -> dict[str, Array]:
        """The arrays of a new batch only this game keeps."""
        b, n = self.batch_size, self.num_players
        z = np.zeros
        return {
            "stock": np.full((b, 52), NO_CARD, np.int8),
            "stock_pos": z(b, _I),
            "stock_len": z(b, _I),
            "stock_union": z((b, 53), np.uint64),
            "trump_card": z(b, _I),
            "trump": z(b, _I),
            "active": z((b, n), bool),
            "declaration_round": z(b, _I),
            "must_confirm": z(b, bool),
            "exchanged": z(b, _I),
            "refills": z(b, _I),
            "turnup_here": z(b, bool),
            "discards": z(b, np.uint64),
            "gave_ace": z((b, n), bool),
            "declared": z((b, n, 4), np.float32),
            "records": np.full((b, n), self.rules.start_record, _I),
            "last_trick": z((b, n), _I),
            "leader": np.full(b, -1, _I),
            "ace_holder": np.full(b, -1, _I),
            "bonus_due": z(b, bool),
            "in_play": z(b, _I),
            "next_seat": z((b, n), _I),
            "trick_seats": np.full((b, n), -1, _I),
            "trick_seat_history": np.full((b, 5, n), -1, np.int8),
            "winners": z((b, n), bool),
            "void": z(b, bool),
            "redeal": z(b, bool),
            "start_hands": z((b, n), np.uint64),
            "start_stock": np.full((b, 52), NO_CARD, np.int8),
            "start_records": z((b, n), _I),
        }

    def _dealer_refusal(self, dealer: object) -> RuleViolation:
        """FLY-1.2: the dealer is one of the seats."""
        n = self.num_players
        return RuleViolation("FLY-1.2", f"the dealer must be a seat 0 to {n - 1}, not {dealer!r}", dealer)

    def _deal(self, state: BatchState, rows: Array, dealers: Array, *, fresh: bool = False) -> None:
        """Deal the next deal of each game of ``rows`` [FLY-3.1] [FLY-3.2] [FLY-3.4]."""
        packs = shuffled_decks(state.key[0], state.games[rows], state.deal_number[rows], self._deck)
        self._start(state, rows, dealers, packs, fresh=fresh)

    def _start(self, state: BatchState, rows: Array, dealers: Array, packs: Array, *, fresh: bool) -> None:
        """Start deals from packs in dealing order (hands, then the trump card, then the stock)."""
        n = self.num_players
        dealt = 5 * n
        cards = packs[np.arange(len(rows))[:, None, None], self._receivers[dealers]]
        hands = BIT[cards].sum(axis=2, dtype=np.uint64)
        stock = np.full((len(rows), 52), NO_CARD, _I)
        rest = packs.shape[1] - dealt - 1
        stock[:, :rest] = packs[:, dealt + 1 :]
        trump_card = packs[:, dealt]
        self._begin_deal(state, rows, dealers, hands, trump_card, stock, np.full(len(rows), rest, _I), fresh=fresh)

    def _begin_deal(
        self,
        state: BatchState,
        rows: Array,
        dealers: Array,
        hands: Array,
        trump_card: Array,
        stock: Array,
        size: Array,
        *,
        fresh: bool = False,
    ) -> None:
        """Set ``rows`` at the start of the exchange: the player left of the dealer declares first [FLY-4.1]."""
        at = slice(None) if len(rows) == self.batch_size else rows  # all rows: no gather
        s = state
        s.hands[at] = hands
        s.start_hands[at] = hands
        s.stock[at] = stock
        s.start_stock[at] = stock
        s.stock_pos[at] = 0
        s.stock_len[at] = size
        union = np.zeros((len(rows), 53), np.uint64)
        union[:, 1:] = np.cumsum(BIT[stock], axis=1, dtype=np.uint64)
        s.stock_union[at] = union
        s.trump_card[at] = trump_card
        s.trump[at] = trump_card // 13
        s.dealer[at] = dealers
        s.start_records[at] = s.records[rows]
        s.active[at] = True
        s.turnup_here[at] = True
        s.current_player[at] = self._left[dealers]
        if fresh:  # the arrays were just made with these values
            self._declaration_legal(s, rows)
            return
        s.phase[at] = _EXCHANGE_PHASE
        s.declaration_round[at] = 0
        s.must_confirm[at] = False
        s.exchanged[at] = 0
        s.refills[at] = 0
        s.discards[at] = 0
        s.gave_ace[at] = False
        s.declared[at] = 0
        s.tricks_taken[at] = 0
        s.last_trick[at] = 0
        s.leader[at] = -1
        s.ace_holder[at] = -1
        s.bonus_due[at] = False
        s.in_play[at] = 0
        s.trick[at] = NO_CARD
        s.trick_seats[at] = -1
        s.trick_len[at] = 0
        s.tricks[at] = NO_CARD
        s.trick_leaders[at] = -1
        s.trick_winners[at] = -1
        s.tricks_done[at] = 0
        s.trick_seat_history[at] = -1
        s.winners[at] = False
        s.void[at] = False
        s.redeal[at] = False
        s.log_len[at] = 0
        self._declaration_legal(s, rows)

    # --- the exchange ---------------------------------------------------------------------------

    def _limit(self, s: BatchState, rows: Array) -> Array:
        """The most cards the player to move may exchange now [FLY-4.3] [FLY-4.5]."""
        rules = self.rules
        limit = np.full(len(rows), rules.max_exchange, _I)
        if rules.total_exchange_cap is not None:
            limit = np.minimum(limit, rules.total_exchange_cap - s.exchanged[rows])
        available = s.stock_len[rows] - s.stock_pos[rows]
        short = available < limit
        if self._refill and short.any():
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

    def _fold_refused(self, s: BatchState, rows: Array, seat: Array, hand: Array) -> Array:
        """Whether ``seat`` may not fold now [FLY-5.2] [FLY-5.3] [FLY-5.4] [FLY-5.5] [FLY-4.6]."""
        rules = self.rules
        refused: Array = (hand & _AS_BIT != 0) | s.gave_ace[rows, seat]
        if not self._combined:
            refused |= s.declaration_round[rows] == 1
        dealer = s.dealer[rows]
        if rules.forced_player == "eldest":
            refused |= seat == self._left[dealer]
        others = s.active[rows].sum(axis=1) - 1
        last = seat == dealer
        if rules.forced_player == "dealer_if_all_passed" or rules.all_fold == "dealer_must_play":
            refused |= last & (others == 0)
        if rules.lone_player == "last_speaker_must_play":
            refused |= last & (others == 1)
        return refused

    def _declaration_legal(self, s: BatchState, rows: Array) -> None:
        """The declaration ids open to each row's seat to move [FLY-4.2]."""
        rules = self.rules
        seat = s.current_player[rows]
        hand = s.hands[rows, seat]
        refused = self._fold_refused(s, rows, seat, hand)
        legal = np.where(refused, np.uint64(1 << STAND), np.uint64(1 << STAND | 1 << FOLD))
        open_ = ~s.must_confirm[rows]
        if not self._combined:
            open_ &= s.declaration_round[rows] == 1
        if open_.any():
            positions = np.full(len(rows), 31, _I)
            if not rules.ace_of_spades_discardable or rules.turnup_use == "dealer_swap":
                cards = bit_list(hand, 5)
                if not rules.ace_of_spades_discardable:
                    positions &= ~((cards == _AS) * (1 << np.arange(5))).sum(axis=1)
                if rules.turnup_use == "dealer_swap":
                    swap = open_ & (seat == s.dealer[rows]) & s.turnup_here[rows]
                    legal |= np.where(swap, positions.astype(np.uint64) << np.uint64(SWAP), _ZERO)
            limit = self._limit(s, rows)
            legal |= np.where(open_, self._subsets[positions, limit], _ZERO)
        s.legal[rows] = legal

    def _draw(self, s: BatchState, rows: Array, count: Array) -> Array:
        """Take ``count`` replacements for each row: the stock from its top, then by the options the
        trump card and a refilled stock [FLY-4.4] [FLY-4.5]; the cards drawn, as masks."""
        pos = s.stock_pos[rows]
        fast = count <= s.stock_len[rows] - pos
        end = np.minimum(pos + count, 52)
        drawn: Array = s.stock_union[rows, end] ^ s.stock_union[rows, pos]
        s.stock_pos[rows] = np.where(fast, end, pos)
        if not fast.all():
            for k in np.flatnonzero(~fast):
                drawn[k] = self._draw_short(s, int(rows[k]), int(count[k]))
        return drawn

    def _draw_short(self, s: BatchState, row: int, count: int) -> np.uint64:
        """One game's draw when the stock runs short [FLY-4.5] [FLY-3.3], as the scalar engine draws it."""
        rules = self.rules
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
            order = refill_order(pool, self._seed_of(s, row), int(s.deal_number[row]), int(s.refills[row]))
            s.refills[row] += 1
            for card in order[:count]:
                drawn |= 1 << card
            s.stock[row] = NO_CARD
            s.stock[row, : len(order)] = order
            s.stock_len[row] = len(order)
            s.stock_pos[row] = min(count, len(order))
            s.stock_union[row, 1:] = np.cumsum(BIT[s.stock[row]], dtype=np.uint64)
        return np.uint64(drawn)

    def _declare(self, s: BatchState, rows: Array, ids: Array) -> None:
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
        exchange = (ids > EXCHANGE) & (ids < SWAP)
        swap = (ids >= SWAP) & (ids < PLAY)
        if exchange.any():
            r, sx, m = rows[exchange], seat[exchange], ids[exchange] - EXCHANGE
            rest = hand[exchange]
            discard = np.zeros(len(r), np.uint64)
            count = np.zeros(len(r), _I)
            for j in range(5):  # the hand's cards lowest first: position j is the j-th lowest
                low = rest & (~rest + _ONE)
                rest ^= low
                chosen = (m >> j) & 1 != 0
                discard |= np.where(chosen, low, _ZERO)
                count += chosen
            drawn = self._draw(s, r, count)
            s.hands[r, sx] = s.hands[r, sx] & ~discard | drawn
            s.discards[r] |= discard
            s.exchanged[r] += count
            s.gave_ace[r, sx] |= discard & _AS_BIT != 0
            s.declared[r, sx, 2] += count.astype(np.float32) / 5
            if self.rules.may_fold_after_exchange:
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
        nxt = self._next_declarer(s, rows[moving], seat[moving])
        done = rows[moving][nxt < 0]
        s.current_player[rows[moving]] = nxt
        still = s.current_player[rows] >= 0
        self._declaration_legal(s, rows[still])
        if len(done):
            self._begin_play(s, done)

    def _next_declarer(self, s: BatchState, rows: Array, seat: Array) -> Array:
        """The seat to declare after ``seat``, or -1 when every declaration is made [FLY-4.1]."""
        dealer = s.dealer[rows]
        last = seat == dealer
        if self._combined:
            return np.where(last, -1, self._left[seat])
        n = self.num_players
        first_round = s.declaration_round[rows] == 0
        nxt = np.where(last, -1, self._left[seat])
        active_bits = (s.active[rows] * (1 << np.arange(n))).sum(axis=1)
        opening = first_round & last & (active_bits > 0)
        if opening.any():
            s.declaration_round[rows[opening]] = 1
            nxt[opening] = self._next_active[active_bits[opening], dealer[opening]]
        second = ~first_round
        if second.any():
            distance = ((dealer - seat) * self._dir) % n
            found = np.full(len(rows), -1, _I)
            for k in range(n - 1, 0, -1):  # the nearest last
                other = (seat + self._dir * k) % n
                ok = second & (k <= distance) & s.active[rows, other]
                found = np.where(ok, other, found)
            nxt = np.where(second, found, nxt)
        return nxt

    # --- the play -------------------------------------------------------------------------------

    def _begin_play(self, s: BatchState, rows: Array) -> None:
        """Start the play once every declaration is made [FLY-5.4] [FLY-5.5] [FLY-6.1] [FLY-12.1]."""
        rules, n = self.rules, self.num_players
        active = s.active[rows]
        count = active.sum(axis=1)
        void = count == 0
        if rules.lone_player == "void":
            void |= count == 1
        if void.any():
            r = rows[void]
            s.void[r] = True
            if rules.all_fold == "redeal_same_dealer":
                s.redeal[r] = count[void] == 0
            self._deal_over(s, r)
        rows, active, count = rows[~void], active[~void], count[~void]
        if not len(rows):
            return
        bits = (active * (1 << np.arange(n))).sum(axis=1)
        holds = (s.hands[rows] & _AS_BIT != 0) & active
        holder = np.where(holds.any(axis=1), holds.argmax(axis=1), -1)
        leader = self._next_active[bits, s.dealer[rows]]
        s.ace_holder[rows] = holder
        s.bonus_due[rows] = holder >= 0
        s.in_play[rows] = count
        s.next_seat[rows] = self._next_active[bits]
        s.leader[rows] = leader
        s.phase[rows] = _PLAY_PHASE
        award = np.full(len(rows), -1, _I)
        award[count == 1] = leader[count == 1]
        if rules.flush_wins:
            award = np.where(award >= 0, award, self._flush_holder(s, rows, leader))
        given = award >= 0
        self._lead(s, rows[~given], leader[~given])
        if given.any():
            self._award(s, rows[given], award[given])

    def _flush_holder(self, s: BatchState, rows: Array, leader: Array) -> Array:
        """The seat whose flush wins, or -1: a flush in trumps first, else the first from the dealer's left
        [FLY-12.1]."""
        trump = s.trump[rows]
        trumps = self._suit_mask[trump, trump]  # with the A♠ when it is the top trump [FLY-7.1]
        first = np.full(len(rows), -1, _I)
        trump_flush = np.full(len(rows), -1, _I)
        for k in range(self.num_players - 1, -1, -1):  # the nearest last
            seat = (leader + self._dir * k) % self.num_players
            hand = s.hands[rows, seat]
            active = s.active[rows, seat]
            trump_flush = np.where(active & (hand & ~trumps == 0), seat, trump_flush)
            one_suit = np.zeros(len(rows), bool)
            for suit in range(4):
                one_suit |= hand & ~self._suit_mask[trump, suit] == 0
            first = np.where(active & one_suit, seat, first)
        return np.where(trump_flush >= 0, trump_flush, first)

    def _award(self, s: BatchState, rows: Array, seat: Array) -> None:
        """``seat`` takes every trick without play, his cards one by one, lowest first [FLY-5.5] [FLY-12.1]."""
        live = np.ones(len(rows), bool)
        for _ in range(5):
            r, w = rows[live], seat[live]
            card = lowest_bit(s.hands[r, w])
            s.hands[r, w] ^= BIT[card]
            number = s.tricks_done[r]
            s.tricks[r, number, 0] = card
            s.trick_leaders[r, number] = w
            s.trick_seat_history[r, number, 0] = w
            over = self._take_trick(s, r, w)
            live[np.flatnonzero(live)[over]] = False
            if not live.any():
                break
        self._deal_over(s, rows)

    def _lead(self, s: BatchState, rows: Array, seat: Array) -> None:
        """``seat`` leads the next trick: any card [FLY-6.1] [FLY-6.5]."""
        sel = self._sel(rows)
        s.current_player[sel] = seat
        s.leader[sel] = seat
        s.trick_len[sel] = 0
        s.trick[sel] = NO_CARD
        s.trick_seats[sel] = -1
        s.best_card[sel] = NO_CARD
        s.best_power[sel] = -1
        s.legal[sel] = s.hands[rows, seat]

    def _playable(self, s: BatchState, rows: Array, hand: Array) -> Array:
        """The cards of ``hand`` that may be played to each row's trick [FLY-6.3] [FLY-6.4] [FLY-7.2]."""
        sel = self._sel(rows)
        rules = self.rules
        trump = s.trump[sel]
        led_card = s.trick[rows, 0]
        led = self._suit[trump, led_card]
        best = s.best_card[sel]
        best_suit = self._suit[trump, best]
        in_suit = hand & self._suit_mask[trump, led]
        if rules.must_head_trick:
            heading = in_suit & self._beaten[trump, best]
            in_suit = np.where((best_suit == led) & (heading != 0), heading, in_suit)
        trumps = hand & self._suit_mask[trump, trump]
        duty = rules.trump_duty
        if duty is TrumpDuty.ANY_TRUMP:
            void = np.where(trumps != 0, trumps, hand)
        else:
            over = np.where(best_suit == trump, trumps & self._beaten[trump, best], trumps)
            fallback = np.where(trumps != 0, trumps, hand) if duty is TrumpDuty.OVERTRUMP else hand
            void = np.where(over != 0, over, fallback)
        legal = np.where(in_suit != 0, in_suit, void)
        if self._ace_joins_led_ace:
            legal |= np.where((trump != _SPADES) & (led_card == trump * 13 + 12), hand & _AS_BIT, _ZERO)
        if self._top_trump:
            legal |= np.where(trump != _SPADES, hand & _AS_BIT, _ZERO)
        return legal

    def _play(self, s: BatchState, rows: Array, card: Array) -> None:
        """Each row's seat to move plays ``card`` [FLY-6.2] [FLY-6.6]."""
        sel = self._sel(rows)
        seat = s.current_player[sel].copy()  # a view when sel is every row
        s.hands[rows, seat] ^= BIT[card]
        position = s.trick_len[sel].copy()
        s.trick[rows, position] = card
        s.trick_seats[rows, position] = seat
        s.trick_len[sel] = position + 1
        trump = s.trump[sel]
        leads = position == 0
        if leads.any():
            led = self._suit[trump[leads], card[leads]]
            ace = (card[leads] == trump[leads] * 13 + 12) & self._led_ace_mode
            s.power_row[rows[leads]] = trump[leads] * 8 + led * 2 + ace
        power = self._power[s.power_row[sel], card]
        better = power > s.best_power[sel]
        s.best_power[sel] = np.where(better, power, s.best_power[sel])
        s.best_card[sel] = np.where(better, card, s.best_card[sel])
        s.best_pos[sel] = np.where(better, position, s.best_pos[sel])
        complete = position + 1 == s.in_play[sel]
        going = ~complete
        if going.any():
            r = rows[going]
            nxt = s.next_seat[r, seat[going]]
            s.current_player[r] = nxt
            s.legal[r] = self._playable(s, r, s.hands[r, nxt])
        if complete.any():
            r = rows[complete]
            winner = s.trick_seats[r, s.best_pos[r]]
            number = s.tricks_done[r]
            s.tricks[r, number] = s.trick[r]
            s.trick_leaders[r, number] = s.leader[r]
            s.trick_seat_history[r, number] = s.trick_seats[r]
            s.trick_len[r] = 0
            s.trick[r] = NO_CARD
            s.trick_seats[r] = -1
            over = self._take_trick(s, r, winner)
            if over.any():
                self._deal_over(s, r[over])
            if (~over).any():
                self._lead(s, r[~over], winner[~over])

    def _take_trick(self, s: BatchState, rows: Array, seat: Array) -> Array:
        """Credit the trick just completed to ``seat`` and write its points off [FLY-8.2] [FLY-8.3]
        [FLY-9.1] [FLY-9.2] [FLY-9.3]; after the fifth, settle the deal. Whether each deal is over."""
        sel = self._sel(rows)
        rules = self.rules
        number = s.tricks_done[sel] + 1
        s.tricks_done[sel] = number
        s.trick_winners[rows, number - 1] = seat
        s.tricks_taken[rows, seat] += 1
        s.last_trick[rows, seat] = number
        holder = s.bonus_due[sel] & (seat == s.ace_holder[sel])
        spades = s.trump[sel] == _SPADES
        bonus = np.where(holder, np.where(spades, rules.ace_bonus_trumps, rules.ace_bonus), 0)
        s.bonus_due[sel] &= ~holder
        record = s.records[rows, seat] - rules.trick_value - bonus
        record = np.where(record < 0, np.where(bonus > 0, 0, rules.start_record), record)
        s.records[rows, seat] = record
        won = np.zeros(len(rows), bool)
        if rules.stop_mode == "immediate":
            won = record == 0
            s.winners[rows[won], seat[won]] = True
        last = (number == 5) & ~won
        if last.any():
            self._finish_deal(s, rows[last])
        over: Array = won | (number == 5)
        return over

    def _finish_deal(self, s: BatchState, rows: Array) -> None:
        """Settle a completed deal: the remise and the A♠ holder's penalty; the winners at its end [FLY-8.4]
        [FLY-8.5] [FLY-8.6] [FLY-9.4]."""
        sel = self._sel(rows)
        rules = self.rules
        seats = np.arange(self.num_players)
        blank = s.active[sel] & (s.tricks_taken[sel] == 0)
        spades = (s.trump[sel] == _SPADES)[:, None]
        penalty = np.where(spades, rules.ace_no_trick_penalty_trumps, rules.ace_no_trick_penalty)
        holder = seats[None, :] == s.ace_holder[sel][:, None]
        s.records[sel] += np.where(blank, np.where(holder, penalty, rules.remise), 0)
        if rules.stop_mode == "end_of_deal":
            zero = s.records[sel] == 0
            if rules.tie_break == "shared":
                s.winners[sel] = zero
            else:
                order = np.where(zero, s.last_trick[sel] * 8 + seats[None, :], 1 << 20)
                first = order.argmin(axis=1)
                s.winners[rows[zero.any(axis=1)], first[zero.any(axis=1)]] = True

    def _deal_over(self, s: BatchState, rows: Array) -> None:
        """End the deal of each row; in a match, deal the next one unless the match is over [FLY-10.1] [FLY-2.2]."""
        going = self._end_deals(s, rows, s.winners[rows].any(axis=1))
        if len(going):
            dealer = s.dealer[going]
            dealer = np.where(s.redeal[going], dealer, self._left[dealer])
            self._deal(s, going, dealer)

    # --- the interface --------------------------------------------------------------------------

    def step(self, state: BatchState, actions: Any) -> BatchState:
        """Each game's seat to move takes its action id; games already over ignore theirs.

        Writes the next position into ``state`` and returns it.

        Raises:
            RuleViolation: an action outside a game's mask, naming the game's index and the rule;
                ``state`` is unchanged.
        """
        ids = self._actions(state, actions)
        s = state
        live = ~s.terminated
        playing = s.phase == _PLAY_PHASE
        shift = ids - playing * PLAY  # the bit of the id in the legal mask (cards in the play)
        fits = (shift >= 0) & (shift < 64)
        legal = fits & ((s.legal >> np.where(fits, shift, 0).astype(np.uint64)) & _ONE != 0)
        if not (legal | ~live).all():
            bad = np.flatnonzero(live & ~legal)
            raise self._refuse(s, int(bad[0]), int(ids[bad[0]]))
        before = s.records.copy()
        rows = np.flatnonzero(live)
        sel = self._sel(rows)
        s.log[rows, s.log_len[sel]] = ids[sel]
        s.log_len[sel] += 1
        plays = rows[playing[sel]]
        if len(plays):
            self._play(s, plays, ids[plays] - PLAY)
        declarations = rows[~playing[sel]]
        if len(declarations):
            self._declare(s, declarations, ids[declarations])
        np.subtract(before, s.records, out=s.rewards, casting="unsafe")
        s.changed()
        return s

    def sample_legal(self, state: BatchState, rng: np.random.Generator) -> Array:
        """One legal action id per game, uniformly at random from its mask (0 for a game over)."""
        picked = random_bit(state.legal, rng)
        return np.where(state.phase == _PLAY_PHASE, picked + PLAY, picked)

    def legal_action_mask(self, state: BatchState) -> Array:
        """``bool[B, 90]``: the legal action ids of each game (none once over)."""
        playing = state.phase == _PLAY_PHASE
        mask = np.zeros((self.batch_size, NUM_ACTIONS), bool)
        mask[:, :PLAY] = unpack(np.where(playing, _ZERO, state.legal), PLAY)
        mask[:, PLAY:] = unpack(np.where(playing, state.legal, _ZERO), 52)
        return mask

    def observation(self, state: BatchState) -> Array:
        """``float32[B, observation_size]``: each game's seat to move's view, in the layout of
        :mod:`fly_rules.adapters.encoding` (nothing marked) [FLY-5.1]."""
        s, n, b = state, self.num_players, self.batch_size
        rows = np.arange(b)
        seat = np.maximum(s.current_player, 0)
        out = np.zeros((b, self.observation_size), np.float32)
        out[:, 0:52] = unpack(s.hands[rows, seat], 52)
        out[:, 104:156] = unpack(BIT[s.trump_card], 52)
        at = 156
        for j in range(n):
            played = s.trick_seats[:, j]
            has = played >= 0
            out[rows[has], at + 52 * played[has] + s.trick[has, j]] = 1
        at += 52 * n
        for number in range(5):
            for j in range(n):
                played = s.trick_seat_history[:, number, j].astype(_I)
                card = s.tricks[:, number, j].astype(_I)
                has = played >= 0
                out[rows[has], at + 52 * played[has] + card[has]] = 1
        at += 52 * n
        out[:, at : at + 4 * n] = s.declared.reshape(b, 4 * n)
        at += 4 * n
        out[:, at : at + n] = s.active
        out[:, at + n : at + 2 * n] = s.tricks_taken / 5
        out[:, at + 2 * n : at + 3 * n] = s.records / self.rules.start_record
        at += 3 * n
        moving = s.current_player >= 0
        out[rows, at + seat] = 1
        out[rows[moving], at + n + seat[moving]] = 1
        out[rows, at + 2 * n + s.dealer] = 1
        at += 3 * n
        out[rows, at + s.phase] = 1
        out[:, at + 3] = (s.stock_len - s.stock_pos) / 52
        np.minimum(out, 10.0, out=out)
        return out

    # --- the scalar engine ----------------------------------------------------------------------

    @staticmethod
    def _scalar_action(phase: int, hand: int, action: int) -> Any:
        if PLAY <= action < NUM_ACTIONS:
            return Play(ALL_CARDS[action - PLAY])
        if phase == _PLAY_PHASE and not 0 <= action < NUM_ACTIONS:
            raise RuleViolation("FLY-6.2", f"action id {action} is not a card (ids {PLAY}..{NUM_ACTIONS - 1})", action)
        cards = [c for c in range(52) if hand >> c & 1]
        if action == STAND:
            return Stand()
        if action == FOLD:
            return Fold()
        if EXCHANGE < action < SWAP:
            m = action - EXCHANGE
            return Exchange(CardSet(sum(1 << c for j, c in enumerate(cards) if m >> j & 1)))
        if SWAP <= action < PLAY and action - SWAP < len(cards):
            return SwapTrump(ALL_CARDS[cards[action - SWAP]])
        raise RuleViolation("FLY-4.2", f"action id {action} is not a declaration", action)

    def action_to_scalar(self, state: BatchState, game: int, action: int) -> Any:
        """The scalar engine's action for id ``action`` in game ``game`` (``Stand()``, ``Fold()``,
        ``Exchange``, ``SwapTrump`` or ``Play``), read against the hand of its seat to move."""
        seat = int(state.current_player[game])
        hand = int(state.hands[game, seat]) if seat >= 0 else 0
        return self._scalar_action(int(state.phase[game]), hand, int(action))

    def scalar_to_action(self, state: BatchState, game: int, action: Any) -> int:
        """The id of the scalar ``action`` in game ``game`` (an exchange or a swap by the positions
        of its cards in the hand of the seat to move).

        Raises:
            ValueError: the action names a card its player does not hold, or is not a Fly action.
        """
        seat = int(state.current_player[game])
        hand = int(state.hands[game, seat]) if seat >= 0 else 0
        kind = type(action)
        if kind is Stand:
            return STAND
        if kind is Fold:
            return FOLD
        if kind is Play:
            return PLAY + int(action.card.index)
        if kind is Exchange and action.cards.mask & ~hand == 0 and action.cards.mask:
            mask, positions = action.cards.mask, 0
            while mask:
                low = mask & -mask
                positions |= 1 << (hand & (low - 1)).bit_count()  # the card's place in the hand
                mask ^= low
            return EXCHANGE + positions
        if kind is SwapTrump and hand >> action.card.index & 1:
            return SWAP + (hand & ((1 << int(action.card.index)) - 1)).bit_count()
        raise ValueError(f"game {game}: {action!r} has no action id here (seat {seat} holds {CardSet(hand)})")

    def to_scalar(self, state: BatchState, game: int) -> Any:
        """Game ``game`` as the scalar engine's :class:`~fly_rules.fly.FlyMatch` (a match batch) or
        :class:`~fly_rules.fly.FlyDeal`: its deal from the cards dealt, the actions taken replayed.

        The scalar match continues from there; its later deals are shuffled from its seed, not
        from the batch's generator.
        """
        s = state
        stock = tuple(int(c) for c in s.start_stock[game] if c != NO_CARD)
        table = DealTable(
            self.rules,
            int(s.dealer[game]),
            ALL_CARDS[int(s.trump_card[game])],
            self._seed_of(s, game),
            int(s.deal_number[game]),
        )
        hands = tuple(int(h) for h in s.start_hands[game])
        deal = start_deal(table, hands, stock, tuple(int(r) for r in s.start_records[game]))
        for action in s.log[game, : s.log_len[game]]:
            hand = deal.hand_masks[deal.to_move] if deal.to_move is not None else 0
            deal = deal.apply(self._scalar_action(_EXCHANGE_PHASE, hand, int(action)))
        if not self.match:
            return deal
        over = bool(s.terminated[game])
        played = int(s.deal_number[game]) + over
        return FlyMatch._make(
            (self.rules, self._seed_of(s, game), int(s.first_dealer[game]), deal, None, played, over, None)
        )

    def _load(self, state: BatchState, states: Sequence[Any]) -> None:
        """Start game ``i`` where ``states[i]`` stands, a deal or match not over."""
        n = self.num_players
        hands = np.zeros((self.batch_size, n), np.uint64)
        stock = np.full((self.batch_size, 52), NO_CARD, _I)
        size = np.zeros(self.batch_size, _I)
        trump = np.zeros(self.batch_size, _I)
        dealers = np.zeros(self.batch_size, _I)
        for i, scalar in enumerate(states):
            deal = getattr(scalar, "deal", scalar)
            if getattr(scalar, "game", None) != "fly" or scalar.rules != self.rules:
                raise ValueError(f"state {i} is not a game of Fly under this batch's rules")
            if deal.actions:
                raise ValueError(f"state {i}: its deal has begun; from_scalar takes deals before their first action")
            if getattr(scalar, "is_over", False):
                raise ValueError(f"state {i} is over")
            hands[i] = deal.hand_masks
            cards = deal.exchanges.stock_indices
            stock[i, : len(cards)] = cards
            size[i] = len(cards)
            trump[i] = deal.trump_card.index
            dealers[i] = deal.dealer
            state.records[i] = deal.records
            state.deal_number[i] = deal.deal_number
            state.seeds[i] = deal.table.seed
            state.first_dealer[i] = getattr(scalar, "first_dealer", deal.dealer)
        self._begin_deal(state, np.arange(self.batch_size), dealers, hands, trump, stock, size, fresh=True)
