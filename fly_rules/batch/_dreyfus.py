"""Dreyfus, a batch of games at once: every rule of ``specs/dreyfus.md`` on NumPy arrays.

Hands, legal cards and legal ids are ``uint64`` bitmasks; a trick's winner is a look-up of
each card's power by contract and suit led. Each game's deal comes from the batch's own
generator (32-bit random keys hashed from the seed, the game's number and the deal's number, sorted).

Action ids (``num_actions == 53``), so that a 12-card hand's 4,096 discard sets need no more:

- in the play, ``c`` (0..51) plays the card of index ``c`` [DRF-6.1];
- in the exchange, ``c`` marks the card of index ``c`` for discard, each mark above the last,
  and ``52`` (``STAND``) exchanges the marked cards, or stands when none is marked [DRF-4.3]:
  the marks of a set in ascending order then ``STAND`` are the scalar engine's one ``Exchange``
  of that set. Under ``exchange_mode="incremental"`` [DRF-4.4] ``c`` is at once the one-card
  exchange of ``c``, as the rules say, and ``STAND`` ends the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from fly_rules.actions import Exchange, Play, Stand
from fly_rules.batch._bits import (
    BIT,
    NO_CARD,
    Array,
    popcount,
    random_bit,
    shuffled_decks,
    unpack,
)
from fly_rules.batch._engine import BatchEngine
from fly_rules.batch._state import BatchState
from fly_rules.cards import ALL_CARDS, DECK_48, CardSet
from fly_rules.dreyfus.match import DreyfusMatch
from fly_rules.dreyfus.positions import new_deal
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.errors import RuleViolation
from fly_rules.tricks import TrumpDuty

__all__ = ["NUM_ACTIONS", "STAND", "DreyfusBatch"]

STAND: Final = 52
"""Stand, or exchange the cards marked."""
NUM_ACTIONS: Final = 53
"""Distinct action ids of Dreyfus."""

_EXCHANGE_PHASE, _PLAY_PHASE, _OVER_PHASE = 0, 1, 2
_NO_TRUMP: Final = 4
_ZERO: Final = np.uint64(0)
_ONE: Final = np.uint64(1)
_STAND_BIT: Final = np.uint64(1 << STAND)
_I = np.int64


class DreyfusBatch(BatchEngine):
    """Dreyfus for ``batch_size`` games at once, all under ``rules`` [DRF-1.1]; every option of
    :class:`~fly_rules.dreyfus.DreyfusRules` is played as the scalar engine plays it.

    Build one with :func:`fly_rules.batch.make`.
    """

    game = "dreyfus"

    def __init__(self, rules: DreyfusRules, batch_size: int, *, match: bool = False) -> None:
        if type(batch_size) is not int or batch_size < 1:
            raise ValueError(f"batch_size must be a whole number >= 1, not {batch_size!r}")
        self.rules = rules
        self.batch_size = batch_size
        self.match = match
        self.num_players = 3
        self.num_actions = NUM_ACTIONS
        self.observation_size = 52 * 3 + 52 * 3 + 52 + 5 + 52 * 3 * 2 + 13 + 3 * 5
        self._incremental = rules.exchange_mode == "incremental"
        self._penalize = rules.revoke_mode == "penalize"
        self._deck = np.array([c.index for c in DECK_48], dtype=_I)
        self._cycle = np.array([_NO_TRUMP if s is None else int(s) for s in rules.contract_cycle], dtype=_I)
        self._fosk = np.array(
            [rules.fosk_mask(None if t == _NO_TRUMP else ALL_CARDS[t * 13].suit) for t in range(5)], dtype=np.uint64
        )
        self._positions = self._packet_table(rules.deal_packet_size)
        suits = np.array([0x1FFF << (13 * s) for s in range(4)] + [0], dtype=np.uint64)
        self._suit_mask = suits
        power = np.full((25, 53), -1, dtype=_I)
        beaten = np.zeros(53, dtype=np.uint64)
        for card in range(52):
            beaten[card] = sum(1 << (card // 13 * 13 + r) for r in range(card % 13 + 1, 13))
            for trump in range(5):
                for led in range(5):
                    suit, rank = divmod(card, 13)
                    power[trump * 5 + led, card] = 32 + rank if suit == trump else 16 + rank if suit == led else 0
        self._power, self._beaten = power, beaten
        self._suit = np.array([c // 13 for c in range(52)] + [4], dtype=_I)
        every = (1 << 52) - 1
        self._above = np.array([every & ~((1 << (c + 1)) - 1) for c in range(52)] + [every], np.uint64)

    @staticmethod
    def _packet_table(packet: int) -> Array:
        """``[receiver, j]``: the pack position of the ``j``-th card of eldest, the next player, the dealer
        and the talon (top first) [DRF-2.2] [DRF-2.3]."""
        got: list[list[int]] = [[], [], [], []]
        for start in range(0, 48, packet):
            got[(start // packet) % 4].extend(range(start, start + packet))
        got[3].reverse()  # DRF-2.3: the last card dealt lies on top
        return np.array(got, dtype=_I)

    # --- a new batch ----------------------------------------------------------------------------

    def _own_arrays(self) -> dict[str, Array]:
        """The arrays of a new batch only this game keeps."""
        b = self.batch_size
        z = np.zeros
        return {
            "dealt": z((b, 3), np.uint64),
            "talon": z((b, 12), np.int8),
            "talon_taken": z(b, _I),
            "talon_union": z((b, 13), np.uint64),
            "contract": z(b, _I),
            "exchange_step": z(b, _I),
            "marked": z(b, np.uint64),
            "discards": z((b, 3), np.uint64),
            "bought": z((b, 3), _I),
            "upper": z((b, 3), _I),
            "lower": z((b, 3), _I),
            "revokes": z((b, 3), _I),
            "reached": np.full((b, 3), -1, _I),
            "reached_count": z(b, _I),
            "winner": np.full(b, -1, _I),
            "leader": z(b, _I),
            "start_upper": z((b, 3), _I),
            "start_lower": z((b, 3), _I),
        }

    def _dealer_refusal(self, dealer: object) -> RuleViolation:
        """DRF-2.1: the dealer is one of the three seats."""
        return RuleViolation("DRF-2.1", f"the dealer is seat 0, 1 or 2, not {dealer!r}", dealer)

    def _deal(self, s: BatchState, rows: Array, dealers: Array, *, fresh: bool = False) -> None:
        """Deal the next deal of each game of ``rows`` [DRF-2.2] [DRF-2.3] [DRF-3.3]."""
        packs = shuffled_decks(s.key[0], s.games[rows], s.deal_number[rows], self._deck)
        got = packs[:, self._positions]  # [R, 4, 12]
        masks = BIT[got[:, :3]].sum(axis=2, dtype=np.uint64)
        hands = np.zeros((len(rows), 3), np.uint64)
        seats = np.arange(len(rows))
        for receiver in range(3):
            hands[seats, (dealers + 1 + receiver) % 3] = masks[:, receiver]
        self._begin_deal(s, rows, dealers, hands, got[:, 3], fresh=fresh)

    def _begin_deal(
        self, s: BatchState, rows: Array, dealers: Array, hands: Array, talon: Array, *, fresh: bool = False
    ) -> None:
        """Set ``rows`` at eldest's exchange turn [DRF-4.1]."""
        at = slice(None) if len(rows) == self.batch_size else rows  # all rows: no gather
        s.hands[at] = hands
        s.dealt[at] = hands
        s.talon[at] = talon
        union = np.zeros((len(rows), 13), np.uint64)
        union[:, 1:] = np.cumsum(BIT[talon], axis=1, dtype=np.uint64)  # drawing k cards: two look-ups
        s.talon_union[at] = union
        s.contract[at] = self._cycle[s.deal_number[rows] % len(self._cycle)]
        s.dealer[at] = dealers
        eldest = (dealers + 1) % 3
        s.leader[at] = eldest
        s.current_player[at] = eldest
        if fresh:  # the arrays were just made with these values
            self._exchange_legal(s, rows)
            return
        s.talon_taken[at] = 0
        s.exchange_step[at] = 0
        s.marked[at] = 0
        s.discards[at] = 0
        s.bought[at] = 0
        s.tricks_taken[at] = 0
        s.revokes[at] = 0
        s.reached[at] = -1
        s.reached_count[at] = 0
        s.start_upper[at] = s.upper[rows]
        s.start_lower[at] = s.lower[rows]
        s.trick[at] = NO_CARD
        s.trick_len[at] = 0
        s.tricks[at] = NO_CARD
        s.trick_leaders[at] = -1
        s.trick_winners[at] = -1
        s.tricks_done[at] = 0
        s.log_len[at] = 0
        s.phase[at] = _EXCHANGE_PHASE
        self._exchange_legal(s, rows)

    # --- the exchange ---------------------------------------------------------------------------

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
            eligible &= self._above[np.where(marked != 0, _highest(marked), NO_CARD)]
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
            eldest = (s.dealer[r] + 1) % 3
            leader = eldest
            if self.rules.first_lead == "first_actual_buyer":
                leader = np.full(len(r), -1, _I)
                for offset in (2, 1, 0):  # the first in turn last
                    seat = (eldest + offset) % 3
                    leader = np.where(s.bought[r, seat] > 0, seat, leader)
                leader = np.where(leader < 0, eldest, leader)
            s.phase[r] = _PLAY_PHASE
            self._lead(s, r, leader)

    # --- the play -------------------------------------------------------------------------------

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
            heading = in_suit & self._beaten[best]
            in_suit = np.where((best_suit == led) & (heading != 0), heading, in_suit)
        trumps = hand & self._suit_mask[trump]
        duty = rules.trump_duty
        if duty is TrumpDuty.ANY_TRUMP:
            void = np.where(trumps != 0, trumps, hand)
        else:
            over = np.where(best_suit == trump, trumps & self._beaten[best], trumps)
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
        power = self._power[s.power_row[sel], card]
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
            dealer = s.dealer[going]
            s.dealer[going] = (dealer + (1 if rules.dealer_rotation == "left" else -1)) % 3
            self._deal(s, going, s.dealer[going])

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
        fits = (ids >= 0) & (ids < NUM_ACTIONS)
        legal = fits & ((s.legal >> np.where(fits, ids, 0).astype(np.uint64)) & _ONE != 0)
        bad = np.flatnonzero(live & ~legal)
        if len(bad):
            raise self._refuse(s, int(bad[0]), int(ids[bad[0]]))
        before = s.lower - s.upper
        rows = np.flatnonzero(live)
        s.log[rows, s.log_len[rows]] = ids[rows]
        s.log_len[rows] += 1
        playing = s.phase[rows] == _PLAY_PHASE
        plays = rows[playing]
        if len(plays):
            self._play(s, plays, ids[plays])
        exchanges = rows[~playing]
        if len(exchanges):
            self._exchange(s, exchanges, ids[exchanges])
        if self.rules.winner_rule == "first_to_reach":
            going = rows[s.phase[rows] != _OVER_PHASE]
            s.winner[going] = self._winner(s, going, False)
        np.subtract(s.lower - s.upper, before, out=s.rewards, casting="unsafe")
        s.changed()
        return s

    def sample_legal(self, state: BatchState, rng: np.random.Generator) -> Array:
        """One legal action id per game, uniformly at random from its mask (0 for a game over)."""
        return random_bit(state.legal, rng)

    def legal_action_mask(self, state: BatchState) -> Array:
        """``bool[B, 53]``: the legal action ids of each game (none once over)."""
        return unpack(state.legal, NUM_ACTIONS)

    def observation(self, state: BatchState) -> Array:
        """``float32[B, observation_size]``: each game's seat to move's view, in the layout of
        :mod:`fly_rules.adapters.encoding` [DRF-11.1] [DRF-4.6]."""
        s, b, rules = state, self.batch_size, self.rules
        rows = np.arange(b)
        seat = np.maximum(s.current_player, 0)
        out = np.zeros((b, self.observation_size), np.float32)
        out[:, 0:52] = unpack(s.hands[rows, seat], 52)
        out[:, 52:104] = unpack(s.marked, 52)
        out[:, 104:156] = unpack(s.discards[rows, seat], 52)
        if rules.reveal_discards:
            for other in range(3):
                out[:, 156 + 52 * other : 208 + 52 * other] = unpack(s.discards[:, other], 52)
        if rules.reveal_leftover_talon:
            left = np.zeros(b, np.uint64)
            for j in range(12):
                left |= np.where(j >= s.talon_taken, BIT[s.talon[:, j]], _ZERO)
            out[:, 312:364] = unpack(np.where(s.phase != _EXCHANGE_PHASE, left, _ZERO), 52)
        out[rows, 364 + s.contract] = 1
        at = 369
        for j in range(3):
            has = s.trick[:, j] != NO_CARD
            player = (s.leader + j) % 3
            out[rows[has], at + 52 * player[has] + s.trick[has, j]] = 1
        at += 156
        for number in range(12):
            for j in range(3):
                card = s.tricks[:, number, j].astype(_I)
                has = card != NO_CARD
                player = (s.trick_leaders[:, number] + j) % 3
                out[rows[has], at + 52 * player[has] + card[has]] = 1
        at += 156
        out[:, at : at + 3] = s.bought / 12
        out[:, at + 3] = (12 - s.talon_taken) / 12
        out[:, at + 4 : at + 7] = s.tricks_taken / 12
        out[:, at + 7 : at + 10] = s.upper / rules.target_lower
        out[:, at + 10 : at + 13] = s.lower / rules.target_lower
        at += 13
        out[rows, at + s.leader] = 1
        out[rows, at + 3 + seat] = 1
        moving = s.current_player >= 0
        out[rows[moving], at + 6 + seat[moving]] = 1
        out[rows, at + 9 + s.dealer] = 1
        out[rows, at + 12 + s.phase] = 1
        np.minimum(out, 10.0, out=out)
        return out

    # --- the scalar engine ----------------------------------------------------------------------

    def action_to_scalar(self, state: BatchState, game: int, action: int) -> Any:
        """The scalar engine's action that id ``action`` completes in game ``game``: ``Play``, ``Stand()``,
        an ``Exchange`` (of the cards marked, or of one card in incremental mode), or None for a mark
        that completes no action yet."""
        action = int(action)
        if not 0 <= action < NUM_ACTIONS:
            rule = "DRF-6.1" if state.phase[game] == _PLAY_PHASE else "DRF-4.3"
            raise RuleViolation(rule, f"action id {action} is not an action (ids 0..{NUM_ACTIONS - 1})", action)
        if state.phase[game] == _PLAY_PHASE:
            return Stand() if action == STAND else Play(ALL_CARDS[action])
        if action == STAND:
            marked = int(state.marked[game])
            return Exchange(CardSet(marked)) if marked else Stand()
        return Exchange(CardSet(1 << action)) if self._incremental else None

    def _as_scalar(self, state: BatchState, game: int, action: int) -> Any:
        if state.phase[game] == _EXCHANGE_PHASE and not self._incremental and 0 <= action < STAND:
            return Exchange(CardSet(int(state.marked[game]) | 1 << action))  # the set the mark would make
        return self.action_to_scalar(state, game, action)

    def _order_refusal(self, state: BatchState, game: int, action: int) -> RuleViolation:
        marked = CardSet(int(state.marked[game]))
        return RuleViolation(
            "DRF-4.3", f"game {game}: cards are marked for discard in ascending order, after {marked}", action
        )

    def scalar_to_action(self, state: BatchState, game: int, action: Any) -> int:
        """The next id of the scalar ``action`` in game ``game``: a play's card, ``STAND``, or for an
        exchange its next card to mark (ascending), then ``STAND`` once all are marked.

        Raises:
            ValueError: the marks so far are not the start of the exchange's cards, or the action is
                not a Dreyfus action.
        """
        kind = type(action)
        if kind is Play:
            return int(action.card.index)
        if kind is Stand:
            return STAND
        if kind is Exchange:
            wanted = action.cards.mask
            if self._incremental:
                return int(wanted.bit_length() - 1) if wanted & (wanted - 1) == 0 and wanted else -1
            marked = int(state.marked[game])
            rest = wanted & ~marked
            if marked & ~wanted or rest & ((1 << marked.bit_length()) - 1):
                raise ValueError(f"game {game}: the cards marked, {CardSet(marked)}, do not begin {action}")
            return int((rest & -rest).bit_length() - 1) if rest else STAND
        raise ValueError(f"game {game}: {action!r} is not a Dreyfus action")

    def to_scalar(self, state: BatchState, game: int) -> Any:
        """Game ``game`` as the scalar engine's :class:`~fly_rules.dreyfus.DreyfusMatch` (a match batch)
        or :class:`~fly_rules.dreyfus.DreyfusDeal`: its deal from the cards dealt, the actions taken
        replayed (marks not yet exchanged are not actions of the scalar engine).

        The scalar match continues from there; its later deals are shuffled from its seed, not from
        the batch's generator.
        """
        s = state
        contract = int(s.contract[game])
        deal = new_deal(
            self.rules,
            [CardSet(int(h)) for h in s.dealt[game]],
            [ALL_CARDS[int(c)] for c in s.talon[game]],
            None if contract == _NO_TRUMP else ALL_CARDS[contract * 13].suit,
            int(s.dealer[game]),
            tuple(int(u) for u in s.start_upper[game]),
            tuple(int(v) for v in s.start_lower[game]),
            deal_number=int(s.deal_number[game]),
        )
        marked = 0
        for action in s.log[game, : s.log_len[game]].tolist():
            if deal.to_move is not None and deal.phase.value == "exchange":
                if action == STAND:
                    deal = deal.apply(Exchange(CardSet(marked)) if marked else Stand())
                    marked = 0
                elif self._incremental:
                    deal = deal.apply(Exchange(CardSet(1 << action)))
                else:
                    marked |= 1 << action
            else:
                deal = deal.apply(Play(ALL_CARDS[action]))
        if not self.match:
            return deal
        played = int(s.deal_number[game]) + (1 if s.terminated[game] else 0)
        return DreyfusMatch(
            self.rules,
            self._seed_of(s, game),
            int(s.first_dealer[game]),
            deal,
            None,
            played,
            bool(s.terminated[game]),
            None,
        )

    def _load(self, state: BatchState, states: Sequence[Any]) -> None:
        """Start game ``i`` where ``states[i]`` stands, its contract the one the cycle gives its number [DRF-3.3]."""
        b = self.batch_size
        hands = np.zeros((b, 3), np.uint64)
        talon = np.zeros((b, 12), _I)
        dealers = np.zeros(b, _I)
        for i, scalar in enumerate(states):
            deal = getattr(scalar, "deal", scalar)
            if getattr(scalar, "game", None) != "dreyfus" or scalar.rules != self.rules:
                raise ValueError(f"state {i} is not a game of Dreyfus under this batch's rules")
            if deal.actions:
                raise ValueError(f"state {i}: its deal has begun; from_scalar takes deals before their first action")
            hands[i] = deal.table.dealt
            talon[i] = deal.table.talon
            dealers[i] = deal.dealer
            state.upper[i] = deal.upper
            state.lower[i] = deal.lower
            state.deal_number[i] = deal.deal_number
            state.seeds[i] = getattr(scalar, "seed", None)
            state.first_dealer[i] = getattr(scalar, "first_dealer", deal.dealer)
        cycle = len(self._cycle)
        given = np.array([_NO_TRUMP if getattr(x, "contract", None) is None else int(x.contract) for x in states])
        if not np.array_equal(given, self._cycle[state.deal_number % cycle]):
            raise ValueError("from_scalar: a deal's contract is not the one the cycle gives its number (DRF-3.3)")
        self._begin_deal(state, np.arange(b), dealers, hands, talon, fresh=True)


def _highest(masks: Array) -> Array:
    """The index of the highest set bit of each non-empty mask."""
    return np.frexp(masks.astype(np.float64))[1].astype(np.int64) - 1
