"""Fly's play on NumPy arrays: the lead, the duties, the trick's winner, the points written off, the end
of the deal [FLY-6] [FLY-7] [FLY-8] [FLY-9] [FLY-12.1]: rule-section functions that
:class:`~fly_rules.batch.FlyBatch` calls, each given the engine (its rules, options and tables) and the state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from fly_rules.batch._bits import BIT, NO_CARD, Array, lowest_bit
from fly_rules.batch._state import BatchState
from fly_rules.tricks import TrumpDuty

if TYPE_CHECKING:
    from fly_rules.batch._fly import FlyBatch

__all__ = [
    "award_all",
    "begin_play",
    "deal_over",
    "finish_deal",
    "flush_holder",
    "lead_trick",
    "play_cards",
    "playable",
    "take_trick",
]

_EXCHANGE_PHASE, _PLAY_PHASE, _OVER_PHASE = 0, 1, 2
_AS: Final = 51
_AS_BIT: Final = np.uint64(1 << _AS)
_ZERO: Final = np.uint64(0)
_SPADES: Final = 3
_I = np.int64


def begin_play(e: FlyBatch, s: BatchState, rows: Array) -> None:
    """Start the play once every declaration is made [FLY-5.4] [FLY-5.5] [FLY-6.1] [FLY-12.1]."""
    rules, n = e.rules, e.num_players
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
        deal_over(e, s, r)
    rows, active, count = rows[~void], active[~void], count[~void]
    if not len(rows):
        return
    bits = (active * (1 << np.arange(n))).sum(axis=1)
    holds = (s.hands[rows] & _AS_BIT != 0) & active
    holder = np.where(holds.any(axis=1), holds.argmax(axis=1), -1)
    leader = e._t.next_active[bits, s.dealer[rows]]
    s.ace_holder[rows] = holder
    s.bonus_due[rows] = holder >= 0
    s.in_play[rows] = count
    s.next_seat[rows] = e._t.next_active[bits]
    s.leader[rows] = leader
    s.phase[rows] = _PLAY_PHASE
    award = np.full(len(rows), -1, _I)
    award[count == 1] = leader[count == 1]
    if rules.flush_wins:
        award = np.where(award >= 0, award, flush_holder(e, s, rows, leader))
    given = award >= 0
    lead_trick(e, s, rows[~given], leader[~given])
    if given.any():
        award_all(e, s, rows[given], award[given])


def flush_holder(e: FlyBatch, s: BatchState, rows: Array, leader: Array) -> Array:
    """The seat whose flush wins, or -1: a flush in trumps first, else the first from the dealer's left
    [FLY-12.1]."""
    trump = s.trump[rows]
    trumps = e._t.suit_mask[trump, trump]  # with the A♠ when it is the top trump [FLY-7.1]
    first = np.full(len(rows), -1, _I)
    trump_flush = np.full(len(rows), -1, _I)
    for k in range(e.num_players - 1, -1, -1):  # the nearest last
        seat = leader
        for _ in range(k):  # k seats to the leader's left
            seat = e._left[seat]
        hand = s.hands[rows, seat]
        active = s.active[rows, seat]
        trump_flush = np.where(active & (hand & ~trumps == 0), seat, trump_flush)
        one_suit = np.zeros(len(rows), bool)
        for suit in range(4):
            one_suit |= hand & ~e._t.suit_mask[trump, suit] == 0
        first = np.where(active & one_suit, seat, first)
    return np.where(trump_flush >= 0, trump_flush, first)


def award_all(e: FlyBatch, s: BatchState, rows: Array, seat: Array) -> None:
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
        over = take_trick(e, s, r, w)
        live[np.flatnonzero(live)[over]] = False
        if not live.any():
            break
    deal_over(e, s, rows)


def lead_trick(e: FlyBatch, s: BatchState, rows: Array, seat: Array) -> None:
    """``seat`` leads the next trick: any card [FLY-6.1] [FLY-6.5]."""
    s.trick_seats[e._open_trick(s, rows, seat)] = -1


def playable(e: FlyBatch, s: BatchState, rows: Array, hand: Array) -> Array:
    """The cards of ``hand`` that may be played to each row's trick [FLY-6.3] [FLY-6.4] [FLY-7.2]."""
    sel = e._sel(rows)
    rules, t = e.rules, e._t
    trump = s.trump[sel]
    led_card = s.trick[rows, 0]
    led = t.suit[trump, led_card]
    best = s.best_card[sel]
    best_suit = t.suit[trump, best]
    in_suit = hand & t.suit_mask[trump, led]
    if rules.must_head_trick:
        heading = in_suit & t.beaten[trump, best]
        in_suit = np.where((best_suit == led) & (heading != 0), heading, in_suit)
    trumps = hand & t.suit_mask[trump, trump]
    duty = rules.trump_duty
    if duty is TrumpDuty.ANY_TRUMP:
        void = np.where(trumps != 0, trumps, hand)
    else:
        over = np.where(best_suit == trump, trumps & t.beaten[trump, best], trumps)
        fallback = np.where(trumps != 0, trumps, hand) if duty is TrumpDuty.OVERTRUMP else hand
        void = np.where(over != 0, over, fallback)
    legal = np.where(in_suit != 0, in_suit, void)
    if e._ace_joins_led_ace:
        legal |= np.where((trump != _SPADES) & (led_card == trump * 13 + 12), hand & _AS_BIT, _ZERO)
    if e._top_trump:
        legal |= np.where(trump != _SPADES, hand & _AS_BIT, _ZERO)
    return legal


def play_cards(e: FlyBatch, s: BatchState, rows: Array, card: Array) -> None:
    """Each row's seat to move plays ``card`` [FLY-6.2] [FLY-6.6]."""
    sel = e._sel(rows)
    seat = s.current_player[sel].copy()  # a view when sel is every row
    s.hands[rows, seat] ^= BIT[card]
    position = s.trick_len[sel].copy()
    s.trick[rows, position] = card
    s.trick_seats[rows, position] = seat
    s.trick_len[sel] = position + 1
    trump = s.trump[sel]
    leads = position == 0
    if leads.any():
        led = e._t.suit[trump[leads], card[leads]]
        ace = (card[leads] == trump[leads] * 13 + 12) & e._led_ace_mode
        s.power_row[rows[leads]] = trump[leads] * 8 + led * 2 + ace
    power = e._t.power[s.power_row[sel], card]
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
        s.legal[r] = playable(e, s, r, s.hands[r, nxt])
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
        over = take_trick(e, s, r, winner)
        if over.any():
            deal_over(e, s, r[over])
        if (~over).any():
            lead_trick(e, s, r[~over], winner[~over])


def take_trick(e: FlyBatch, s: BatchState, rows: Array, seat: Array) -> Array:
    """Credit the trick just completed to ``seat`` and write its points off [FLY-8.2] [FLY-8.3]
    [FLY-9.1] [FLY-9.2] [FLY-9.3]; after the fifth, settle the deal. Whether each deal is over."""
    sel = e._sel(rows)
    rules = e.rules
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
        finish_deal(e, s, rows[last])
    over: Array = won | (number == 5)
    return over


def finish_deal(e: FlyBatch, s: BatchState, rows: Array) -> None:
    """Settle a completed deal: the remise and the A♠ holder's penalty; the winners at its end [FLY-8.4]
    [FLY-8.5] [FLY-8.6] [FLY-9.4]."""
    sel = e._sel(rows)
    rules = e.rules
    seats = np.arange(e.num_players)
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


def deal_over(e: FlyBatch, s: BatchState, rows: Array) -> None:
    """End the deal of each row; in a match, deal the next one unless the match is over [FLY-10.1] [FLY-2.2]."""
    going = e._end_deals(s, rows, s.winners[rows].any(axis=1))
    if len(going):
        dealer = s.dealer[going]
        dealer = np.where(s.redeal[going], dealer, e._left[dealer])
        e._deal(s, going, dealer)
