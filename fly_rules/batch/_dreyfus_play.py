"""Dreyfus's deal, exchange and play on NumPy arrays [DRF-2] [DRF-4] [DRF-5] [DRF-6] [DRF-7] [DRF-8]
[DRF-10]: the rule-section functions :class:`~fly_rules.batch.DreyfusBatch` calls, each given the engine
(its rules, options and tables) and the state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from fly_rules.batch._bits import BIT, NO_CARD, Array, popcount
from fly_rules.batch._state import BatchState, Field
from fly_rules.dreyfus.encoding import STAND
from fly_rules.tricks import TrumpDuty

if TYPE_CHECKING:
    from fly_rules.batch._dreyfus import DreyfusBatch

__all__ = [
    "begin_deal",
    "complete_trick",
    "deal_packs",
    "end_turn",
    "exchange_cards",
    "exchange_legal",
    "finish_deal",
    "highest_bit",
    "lead_trick",
    "load_deal",
    "match_winner",
    "own_fields",
    "place_cards",
    "play_cards",
    "required_cards",
    "take_revoke",
]

_EXCHANGE_PHASE, _PLAY_PHASE, _OVER_PHASE = 0, 1, 2
_NO_TRUMP: Final = 4
_ZERO: Final = np.uint64(0)
_STAND_BIT: Final = np.uint64(1 << STAND)
_I = np.int64
_EVERY: Final = (1 << 52) - 1


# --- a new batch, a new deal ------------------------------------------------------------------


def own_fields(e: DreyfusBatch) -> dict[str, Field]:
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


def deal_packs(e: DreyfusBatch, state: BatchState, rows: Array, dealers: Array, packs: Array) -> None:
    """Deal the packs in the scalar engine's order: the hands in packets, the talon [DRF-2.2] [DRF-2.3];
    the contract the cycle gives the deal's number [DRF-3.1]."""
    t = e._t
    cards = packs[np.arange(len(rows))[:, None, None], t.receivers[dealers]]
    hands = BIT[cards].sum(axis=2, dtype=np.uint64)
    place_cards(state, rows, hands, packs[:, list(t.talon_at)])
    state.contract[rows] = e._cycle[state.deal_number[rows] % len(e._cycle)]
    begin_deal(e, state, rows, dealers)


def load_deal(state: BatchState, game: int, deal: Any) -> None:
    """Put the scalar ``deal``'s cards, contract and records into row ``game``."""
    rows = np.array([game])
    place_cards(state, rows, np.array([deal.table.dealt], np.uint64), np.array([deal.table.talon], _I))
    state.contract[game] = _NO_TRUMP if deal.contract is None else int(deal.contract)
    state.dealer[game] = deal.dealer
    state.upper[game] = deal.upper
    state.lower[game] = deal.lower


def place_cards(s: BatchState, rows: Array, hands: Array, talon: Array) -> None:
    """Put dealt cards in ``rows``: the hands and the talon (its top first)."""
    s.hands[rows] = hands
    s.dealt[rows] = hands
    s.talon[rows] = talon
    union = np.zeros((len(rows), 13), np.uint64)
    union[:, 1:] = np.cumsum(BIT[talon], axis=1, dtype=np.uint64)  # drawing k cards: two look-ups
    s.talon_union[rows] = union


def begin_deal(e: DreyfusBatch, s: BatchState, rows: Array, dealers: Array) -> None:
    """Set ``rows`` at eldest's exchange turn [DRF-4.1]."""
    at = e._sel(rows)  # all rows: no gather
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
    exchange_legal(e, s, rows)


# --- the exchange -----------------------------------------------------------------------------


def exchange_legal(e: DreyfusBatch, s: BatchState, rows: Array) -> None:
    """The marks (or one-card exchanges) and the stand open to each row's seat to move [DRF-4.2]
    [DRF-4.3] [DRF-4.4]."""
    seat = s.current_player[rows]
    eligible = s.hands[rows, seat] & s.dealt[rows, seat] & e._fosk[s.contract[rows]]
    left = 12 - s.talon_taken[rows]
    marked = s.marked[rows]
    if e._incremental:
        open_ = left > 0
    else:
        eligible &= e._above[np.where(marked != 0, highest_bit(marked), NO_CARD)]
        open_ = popcount(marked) < left
    s.legal[rows] = np.where(open_, eligible, _ZERO) | _STAND_BIT


def exchange_cards(e: DreyfusBatch, s: BatchState, rows: Array, ids: Array) -> None:
    """Each row's seat to move marks, exchanges or stands [DRF-4.2] [DRF-4.3] [DRF-4.4] [DRF-4.5]."""
    stand = ids == STAND
    if e._incremental:
        discard = np.where(stand, _ZERO, BIT[np.minimum(ids, NO_CARD)])
    else:
        mark = ~stand
        s.marked[rows[mark]] |= BIT[ids[mark]]
        discard = np.where(stand, s.marked[rows], _ZERO)
        exchange_legal(e, s, rows[mark])
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
    ends = stand | (size >= 12 - taken) if e._incremental else np.ones(len(rows), bool)
    if e._incremental:
        exchange_legal(e, s, rows[~ends])
    end_turn(e, s, rows[ends])


def end_turn(e: DreyfusBatch, s: BatchState, rows: Array) -> None:
    """Pass the exchange to the next player, or begin the play [DRF-4.1] [DRF-5.1]."""
    step = np.where(s.talon_taken[rows] == 12, 3, s.exchange_step[rows] + 1)
    s.exchange_step[rows] = step
    going = step < 3
    r = rows[going]
    s.current_player[r] = (s.dealer[r] + 1 + step[going]) % 3
    exchange_legal(e, s, r)
    r = rows[~going]
    if len(r):
        buyers = ((s.bought[r] > 0) * np.array([1, 2, 4])).sum(axis=1)
        s.phase[r] = _PLAY_PHASE
        lead_trick(e, s, r, e._opening[s.dealer[r], buyers])


# --- the play ---------------------------------------------------------------------------------


def lead_trick(e: DreyfusBatch, s: BatchState, rows: Array, seat: Array) -> None:
    """``seat`` leads the next trick: any card [DRF-5.2]."""
    e._open_trick(s, rows, seat)


def required_cards(e: DreyfusBatch, s: BatchState, rows: Array, hand: Array) -> Array:
    """The cards of ``hand`` that keep every duty of play [DRF-6.2] [DRF-6.3] [DRF-6.4] [DRF-6.5]."""
    sel = e._sel(rows)
    rules = e.rules
    trump = s.contract[sel]
    led = e._suit[s.trick[rows, 0]]
    best = s.best_card[sel]
    best_suit = e._suit[best]
    in_suit = hand & e._suit_mask[led]
    if rules.must_head_trick:
        heading = in_suit & e._t.beaten[best]
        in_suit = np.where((best_suit == led) & (heading != 0), heading, in_suit)
    trumps = hand & e._suit_mask[trump]
    duty = rules.trump_duty
    if duty is TrumpDuty.ANY_TRUMP:
        void = np.where(trumps != 0, trumps, hand)
    else:
        over = np.where(best_suit == trump, trumps & e._t.beaten[best], trumps)
        fallback = np.where(trumps != 0, trumps, hand) if duty is TrumpDuty.OVERTRUMP else hand
        void = np.where(over != 0, over, fallback)
    return np.where(in_suit != 0, in_suit, void)


def play_cards(e: DreyfusBatch, s: BatchState, rows: Array, card: Array) -> None:
    """Each row's seat to move plays ``card``; the third card completes the trick [DRF-6.1] [DRF-6.6]
    [DRF-10.1]."""
    sel = e._sel(rows)
    seat = s.current_player[sel].copy()  # views when sel is every row
    hand = s.hands[rows, seat]
    position = s.trick_len[sel].copy()
    if e._penalize:
        following = position > 0
        required = np.where(following, required_cards(e, s, rows, hand), hand)
        revoked = required & BIT[card] == 0
        if revoked.any():
            take_revoke(e, s, rows[revoked], seat[revoked])
    s.hands[rows, seat] = hand ^ BIT[card]
    s.trick[rows, position] = card
    s.trick_len[sel] = position + 1
    leads = position == 0
    s.power_row[rows[leads]] = s.contract[rows[leads]] * 5 + e._suit[card[leads]]
    power = e._t.power[s.power_row[sel], card]
    better = power > s.best_power[sel]
    s.best_power[sel] = np.where(better, power, s.best_power[sel])
    s.best_card[sel] = np.where(better, card, s.best_card[sel])
    s.best_pos[sel] = np.where(better, position, s.best_pos[sel])
    going = position < 2
    if going.any():
        r = rows[going]
        nxt = (seat[going] + 1) % 3
        s.current_player[r] = nxt
        s.legal[r] = s.hands[r, nxt] if e._penalize else required_cards(e, s, r, s.hands[r, nxt])
    if (~going).any():
        complete_trick(e, s, rows[~going])


def complete_trick(e: DreyfusBatch, s: BatchState, r: Array) -> None:
    """The trick's taker [DRF-6.6] writes an overtrick below at once [DRF-7.2] [DRF-8.2]; the taker
    leads the next [DRF-5.2], or the deal ends after the twelfth [DRF-6.7]."""
    sel = e._sel(r)
    rules = e.rules
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
        lead_trick(e, s, r[~last], winner[~last])
    if last.any():
        finish_deal(e, s, r[last])


def take_revoke(e: DreyfusBatch, s: BatchState, rows: Array, seat: Array) -> None:
    """A revoke: on a seat's first, this deal's overtricks already written below are lost, and any
    claim to have reached the target [DRF-10.1]."""
    first = s.revokes[rows, seat] == 0
    r, w = rows[first], seat[first]
    s.lower[r, w] -= np.maximum(0, s.tricks_taken[r, w] - e.rules.par_tricks)
    gone = s.reached[r, w]
    had = gone >= 0
    for k in np.flatnonzero(had):
        row, order = r[k], gone[k]
        later = s.reached[row] > order
        s.reached[row, later] -= 1
        s.reached_count[row] -= 1
    s.reached[r, w] = -1
    s.revokes[rows, seat] += 1


def finish_deal(e: DreyfusBatch, s: BatchState, rows: Array) -> None:
    """The twelfth trick taken: undertricks above, or the revoke penalty [DRF-7.3] [DRF-10.1]; the
    winner [DRF-8.2]; in a match, the next deal unless the match is over [DRF-8.1] [DRF-8.3]."""
    rules = e.rules
    short = np.maximum(0, rules.par_tricks - s.tricks_taken[rows])
    revokes = s.revokes[rows]
    times = revokes if rules.revoke_penalty_per == "occurrence" else np.minimum(revokes, 1)
    penalty = rules.revoke_upper_penalty * times + (short if rules.revoke_adds_undertricks else 0)
    s.upper[rows] += np.where(revokes > 0, penalty, short)
    s.winner[rows] = match_winner(e, s, rows, True)
    going = e._end_deals(s, rows, s.winner[rows] >= 0)
    if len(going):
        dealer = e._next_dealer[s.dealer[going]]
        e._deal(s, going, dealer)


def match_winner(e: DreyfusBatch, s: BatchState, rows: Array, over: bool) -> Array:
    """The match winner: the first to reach the target, or at the deal's end the highest lower
    record among those who reached it [DRF-8.2]; -1 for none."""
    reached = s.reached[rows]
    if e.rules.winner_rule == "first_to_reach":
        first = reached == 0
        return np.where(first.any(axis=1), first.argmax(axis=1), -1)
    if not over:
        return np.full(len(rows), -1, _I)
    key = np.where(reached >= 0, -s.lower[rows] * 1_000_000 + s.upper[rows] * 10 + reached, 1 << 60)
    return np.where((reached >= 0).any(axis=1), key.argmin(axis=1), -1)


def highest_bit(masks: Array) -> Array:
    """The index of the highest set bit of each non-empty mask."""
    return np.frexp(masks.astype(np.float64))[1].astype(np.int64) - 1
