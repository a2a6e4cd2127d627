"""Dreyfus's deal, exchange and play on NumPy arrays [DRF-2] [DRF-4] [DRF-5] [DRF-6] [DRF-7] [DRF-8]
[DRF-10]; a part of :class:`~fly_rules.batch.DreyfusBatch`."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from fly_rules.batch._bits import BIT, NO_CARD, Array, popcount
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._state import BatchState, Field
from fly_rules.batch._tables import DreyfusTables
from fly_rules.cards import SUIT_MASKS, Suit
from fly_rules.dreyfus.deal import contract_of, next_dealer
from fly_rules.dreyfus.encoding import STAND
from fly_rules.dreyfus.play import opening_leader
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.tricks import TrumpDuty

__all__ = ["DreyfusPlay", "highest_bit"]

_EXCHANGE_PHASE, _PLAY_PHASE, _OVER_PHASE = 0, 1, 2
_NO_TRUMP: Final = 4
_ZERO: Final = np.uint64(0)
_STAND_BIT: Final = np.uint64(1 << STAND)
_I = np.int64
_EVERY: Final = (1 << 52) - 1


class DreyfusPlay(BatchEngine):
    """The deal, exchange and play of a Dreyfus batch (the base of :class:`~fly_rules.batch.DreyfusBatch`)."""

    rules: DreyfusRules
    _t: DreyfusTables
    """The batch's tables, built from the scalar rule functions (:mod:`fly_rules.batch._tables`)."""

    def _set_options(self, rules: DreyfusRules) -> None:
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

    # --- a new batch, a new deal ------------------------------------------------------------------

    def _own_fields(self) -> dict[str, Field]:
        """The arrays only this game keeps (see :attr:`fields`)."""
        return {
            "dealt": Field((3,), np.uint64, 0),
            "talon": Field((12,), np.int8, 0),
            "talon_taken": Field((), _I, 0),
            "talon_union": Field((13,), np.uint64, 0),
            "contract": Field((), _I, 0),
            "exchange_step": Field((), _I, 0),
            "marked": Field((), np.uint64, 0),
            "discards": Field((3,), np.uint64, 0),
            "bought": Field((3,), _I, 0),
            "upper": Field((3,), _I, 0),  # a new match's records: nothing above or below [DRF-7.1]
            "lower": Field((3,), _I, 0),
            "revokes": Field((3,), _I, 0),
            "reached": Field((3,), _I, -1),
            "reached_count": Field((), _I, 0),
            "winner": Field((), _I, -1),
            "leader": Field((), _I, 0),
        }

    def _deal_packs(self, state: BatchState, rows: Array, dealers: Array, packs: Array) -> None:
        """Deal the packs in the scalar engine's order: the hands in packets, the talon [DRF-2.2] [DRF-2.3];
        the contract the cycle gives the deal's number [DRF-3.1]."""
        t = self._t
        cards = packs[np.arange(len(rows))[:, None, None], t.receivers[dealers]]
        hands = BIT[cards].sum(axis=2, dtype=np.uint64)
        self._place(state, rows, hands, packs[:, list(t.talon_at)])
        state.contract[rows] = self._cycle[state.deal_number[rows] % len(self._cycle)]
        self._begin_deal(state, rows, dealers)

    def _load(self, state: BatchState, game: int, deal: Any) -> None:
        """Put the scalar ``deal``'s cards, contract and records into row ``game``."""
        rows = np.array([game])
        self._place(state, rows, np.array([deal.table.dealt], np.uint64), np.array([deal.table.talon], _I))
        state.contract[game] = _NO_TRUMP if deal.contract is None else int(deal.contract)
        state.dealer[game] = deal.dealer
        state.upper[game] = deal.upper
        state.lower[game] = deal.lower

    def _place(self, s: BatchState, rows: Array, hands: Array, talon: Array) -> None:
        """Put dealt cards in ``rows``: the hands and the talon (its top first)."""
        s.hands[rows] = hands
        s.dealt[rows] = hands
        s.talon[rows] = talon
        union = np.zeros((len(rows), 13), np.uint64)
        union[:, 1:] = np.cumsum(BIT[talon], axis=1, dtype=np.uint64)  # drawing k cards: two look-ups
        s.talon_union[rows] = union

    def _begin_deal(self, s: BatchState, rows: Array, dealers: Array) -> None:
        """Set ``rows`` at eldest's exchange turn [DRF-4.1]."""
        at = self._sel(rows)  # all rows: no gather
        s.dealer[at] = dealers
        eldest = (dealers + 1) % 3
        s.leader[at] = eldest
        s.current_player[at] = eldest
        for name in ("talon_taken", "exchange_step", "marked", "discards", "bought", "tricks_taken", "revokes"):
            getattr(s, name)[at] = 0
        for name in ("reached_count", "trick_len", "tricks_done", "log_len"):
            getattr(s, name)[at] = 0
        for name in ("reached", "trick_leaders", "trick_winners"):
            getattr(s, name)[at] = -1
        s.trick[at] = NO_CARD
        s.tricks[at] = NO_CARD
        s.phase[at] = _EXCHANGE_PHASE
        self._exchange_legal(s, rows)

    # --- the exchange -----------------------------------------------------------------------------

    def _exchange_legal(self, s: BatchState, rows: Array) -> None:
        """The marks (or one-card exchanges) and the stand open to each row's seat to move [DRF-4.2]
        [DRF-4.3] [DRF-4.4]."""
        seat = s.current_player[rows]
        eligible = s.hands[rows, seat] & s.dealt[rows, seat] & self._fosk[s.contract[rows]]
        left = 12 - s.talon_taken[rows]
        marked = s.marked[rows]
        if self._incremental:
            open_ = left > 0
        else:
            eligible &= self._above[np.where(marked != 0, highest_bit(marked), NO_CARD)]
            open_ = popcount(marked) < left
        s.legal[rows] = np.where(open_, eligible, _ZERO) | _STAND_BIT

    def _exchange(self, s: BatchState, rows: Array, ids: Array) -> None:
        """Each row's seat to move marks, exchanges or stands [DRF-4.2] [DRF-4.3] [DRF-4.4] [DRF-4.5]."""
        stand = ids == STAND
        if self._incremental:
            discard = np.where(stand, _ZERO, BIT[np.minimum(ids, NO_CARD)])
        else:
            mark = ~stand
            s.marked[rows[mark]] |= BIT[ids[mark]]
            discard = np.where(stand, s.marked[rows], _ZERO)
            self._exchange_legal(s, rows[mark])
            rows, discard = rows[stand], discard[stand]
            s.marked[rows] = 0
        seat = s.current_player[rows]
        size = popcount(discard)
        taken = s.talon_taken[rows]
        drawn = s.talon_union[rows, taken + size] ^ s.talon_union[rows, taken]
        s.hands[rows, seat] = s.hands[rows, seat] & ~discard | drawn
        s.discards[rows, seat] |= discard
        s.bought[rows, seat] += size
        s.upper[rows, seat] += size
        s.talon_taken[rows] = taken + size
        ends = stand | (size >= 12 - taken) if self._incremental else np.ones(len(rows), bool)
        if self._incremental:
            self._exchange_legal(s, rows[~ends])
        self._end_turn(s, rows[ends])

    def _end_turn(self, s: BatchState, rows: Array) -> None:
        """Pass the exchange to the next player, or begin the play [DRF-4.1] [DRF-5.1]."""
        step = np.where(s.talon_taken[rows] == 12, 3, s.exchange_step[rows] + 1)
        s.exchange_step[rows] = step
        going = step < 3
        r = rows[going]
        s.current_player[r] = (s.dealer[r] + 1 + step[going]) % 3
        self._exchange_legal(s, r)
        r = rows[~going]
        if len(r):
            buyers = ((s.bought[r] > 0) * np.array([1, 2, 4])).sum(axis=1)
            s.phase[r] = _PLAY_PHASE
            self._lead(s, r, self._opening[s.dealer[r], buyers])

    # --- the play ---------------------------------------------------------------------------------

    def _lead(self, s: BatchState, rows: Array, seat: Array) -> None:
        """``seat`` leads the next trick: any card [DRF-5.2]."""
        sel = self._sel(rows)
        s.current_player[sel] = seat
        s.leader[sel] = seat
        s.trick_len[sel] = 0
        s.trick[sel] = NO_CARD
        s.best_power[sel] = -1
        s.best_card[sel] = NO_CARD
        s.legal[sel] = s.hands[rows, seat]

    def _required(self, s: BatchState, rows: Array, hand: Array) -> Array:
        """The cards of ``hand`` that keep every duty of play [DRF-6.2] [DRF-6.3] [DRF-6.4] [DRF-6.5]."""
        sel = self._sel(rows)
        rules = self.rules
        trump = s.contract[sel]
        led = self._suit[s.trick[rows, 0]]
        best = s.best_card[sel]
        best_suit = self._suit[best]
        in_suit = hand & self._suit_mask[led]
        if rules.must_head_trick:
            heading = in_suit & self._t.beaten[best]
            in_suit = np.where((best_suit == led) & (heading != 0), heading, in_suit)
        trumps = hand & self._suit_mask[trump]
        duty = rules.trump_duty
        if duty is TrumpDuty.ANY_TRUMP:
            void = np.where(trumps != 0, trumps, hand)
        else:
            over = np.where(best_suit == trump, trumps & self._t.beaten[best], trumps)
            fallback = np.where(trumps != 0, trumps, hand) if duty is TrumpDuty.OVERTRUMP else hand
            void = np.where(over != 0, over, fallback)
        return np.where(in_suit != 0, in_suit, void)

    def _play(self, s: BatchState, rows: Array, card: Array) -> None:
        """Each row's seat to move plays ``card``; the third card completes the trick [DRF-6.1] [DRF-6.6]
        [DRF-10.1]."""
        sel = self._sel(rows)
        seat = s.current_player[sel].copy()  # views when sel is every row
        hand = s.hands[rows, seat]
        position = s.trick_len[sel].copy()
        if self._penalize:
            following = position > 0
            required = np.where(following, self._required(s, rows, hand), hand)
            revoked = required & BIT[card] == 0
            if revoked.any():
                self._revoke(s, rows[revoked], seat[revoked])
        s.hands[rows, seat] = hand ^ BIT[card]
        s.trick[rows, position] = card
        s.trick_len[sel] = position + 1
        leads = position == 0
        s.power_row[rows[leads]] = s.contract[rows[leads]] * 5 + self._suit[card[leads]]
        power = self._t.power[s.power_row[sel], card]
        better = power > s.best_power[sel]
        s.best_power[sel] = np.where(better, power, s.best_power[sel])
        s.best_card[sel] = np.where(better, card, s.best_card[sel])
        s.best_pos[sel] = np.where(better, position, s.best_pos[sel])
        going = position < 2
        if going.any():
            r = rows[going]
            nxt = (seat[going] + 1) % 3
            s.current_player[r] = nxt
            s.legal[r] = s.hands[r, nxt] if self._penalize else self._required(s, r, s.hands[r, nxt])
        if (~going).any():
            self._complete_trick(s, rows[~going])

    def _complete_trick(self, s: BatchState, r: Array) -> None:
        """The trick's taker [DRF-6.6] writes an overtrick below at once [DRF-7.2] [DRF-8.2]; the taker
        leads the next [DRF-5.2], or the deal ends after the twelfth [DRF-6.7]."""
        sel = self._sel(r)
        rules = self.rules
        winner = (s.leader[sel] + s.best_pos[sel]) % 3
        number = s.tricks_done[sel].copy()  # a view when sel is every row
        s.tricks[r, number] = s.trick[sel]
        s.trick_leaders[r, number] = s.leader[sel]
        s.trick_winners[r, number] = winner
        s.tricks_done[sel] = number + 1
        s.trick[sel] = NO_CARD
        s.trick_len[sel] = 0
        count = s.tricks_taken[r, winner] + 1
        s.tricks_taken[r, winner] = count
        scores = (count > rules.par_tricks) & (s.revokes[r, winner] == 0)
        low = s.lower[r, winner] + scores
        s.lower[r, winner] = low
        reaches = scores & (low >= rules.target_lower) & (s.reached[r, winner] < 0)
        rr, ww = r[reaches], winner[reaches]
        s.reached[rr, ww] = s.reached_count[rr]
        s.reached_count[rr] += 1
        last = number + 1 == 12
        if (~last).any():
            self._lead(s, r[~last], winner[~last])
        if last.any():
            self._finish_deal(s, r[last])

    def _revoke(self, s: BatchState, rows: Array, seat: Array) -> None:
        """A revoke: on a seat's first, this deal's overtricks already written below are lost, and any
        claim to have reached the target [DRF-10.1]."""
        first = s.revokes[rows, seat] == 0
        r, w = rows[first], seat[first]
        s.lower[r, w] -= np.maximum(0, s.tricks_taken[r, w] - self.rules.par_tricks)
        gone = s.reached[r, w]
        had = gone >= 0
        for k in np.flatnonzero(had):
            row, order = r[k], gone[k]
            later = s.reached[row] > order
            s.reached[row, later] -= 1
            s.reached_count[row] -= 1
        s.reached[r, w] = -1
        s.revokes[rows, seat] += 1

    def _finish_deal(self, s: BatchState, rows: Array) -> None:
        """The twelfth trick taken: undertricks above, or the revoke penalty [DRF-7.3] [DRF-10.1]; the
        winner [DRF-8.2]; in a match, the next deal unless the match is over [DRF-8.1] [DRF-8.3]."""
        rules = self.rules
        short = np.maximum(0, rules.par_tricks - s.tricks_taken[rows])
        revokes = s.revokes[rows]
        times = revokes if rules.revoke_penalty_per == "occurrence" else np.minimum(revokes, 1)
        penalty = rules.revoke_upper_penalty * times + (short if rules.revoke_adds_undertricks else 0)
        s.upper[rows] += np.where(revokes > 0, penalty, short)
        s.winner[rows] = self._winner(s, rows, True)
        going = self._end_deals(s, rows, s.winner[rows] >= 0)
        if len(going):
            dealer = self._next_dealer[s.dealer[going]]
            self._deal(s, going, dealer)

    def _winner(self, s: BatchState, rows: Array, over: bool) -> Array:
        """The match winner: the first to reach the target, or at the deal's end the highest lower
        record among those who reached it [DRF-8.2]; -1 for none."""
        reached = s.reached[rows]
        if self.rules.winner_rule == "first_to_reach":
            first = reached == 0
            return np.where(first.any(axis=1), first.argmax(axis=1), -1)
        if not over:
            return np.full(len(rows), -1, _I)
        key = np.where(reached >= 0, -s.lower[rows] * 1_000_000 + s.upper[rows] * 10 + reached, 1 << 60)
        return np.where((reached >= 0).any(axis=1), key.argmin(axis=1), -1)


def highest_bit(masks: Array) -> Array:
    """The index of the highest set bit of each non-empty mask."""
    return np.frexp(masks.astype(np.float64))[1].astype(np.int64) - 1
