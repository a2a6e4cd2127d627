"""A deliberately naive reference model of Fly, written from the rule outline, not from the engine.

It is a mutable simulator over plain Python sets and lists of :class:`~fly_rules.cards.Card`, one method
per rule, so that each line can be read against the outline's rule IDs (FLY-…). It answers, at every
step of one deal (:class:`RefDeal`) or a match of deals (:class:`RefMatch`): whose turn it is, which
actions are legal, and after an action: hands, stock, records, tricks taken, phase and winners.

Options modelled (every other option must keep its default):

* ``players`` 3..7, ``deck_size``, ``deal_packets`` (a match deals each shuffled pack itself, FLY-3.1, and the
  driver checks the engine dealt the same hands, turn-up and stock), ``direction`` (both values);
* the exchange: ``max_exchange``, ``total_exchange_cap``, ``ace_of_spades_discardable``,
  ``may_fold_after_exchange`` (an Exchange is followed by a second Stand/Fold decision),
  ``declaration_mode`` (both values), ``stock_exhaustion`` (3 values), ``turnup_use`` (3 values);
* folding: ``forced_player`` (3 values), ``all_fold`` (3 values), ``lone_player`` (3 values),
  ``flush_wins``;
* play: ``ace_rank`` (both), ``must_head_trick``, ``trump_duty`` (3 values), ``ace_of_spades_mode``
  (4 values), ``revoke_mode`` (both);
* scoring: ``start_record``, ``ace_bonus``, ``ace_bonus_trumps``, ``remise``, ``ace_no_trick_penalty``,
  ``ace_no_trick_penalty_trumps``, ``stop_mode`` (both), ``tie_break`` (both), ``trick_value``.

Not rules, so taken from the library: the seeded shuffle of a match's packs (``fly_rules.engine.shuffled``, FLY-2.1)
and of a refilled stock (``random.Random("fly_rules:<seed>:<deal>:refill:<k>")``, FLY-4.5); the first dealer is
given, never drawn.

Readings chosen where the outline leaves room (each is a guess to be compared, not a ruling):

* "left" is the next seat in the direction of play; "the last speaker" is the last seat of a declaration round;
* ``lone_player="last_speaker_must_play"``: the last speaker may not fold when exactly one other player is in;
* ``forced_player="dealer_if_all_passed"`` and ``all_fold="dealer_must_play"``: the dealer may not fold when
  every other seat has folded;
* with ``fold_round_then_exchange`` every player still in after the fold round gets an exchange turn;
  all-fold, lone-player and flush are settled when the declarations are over;
* heading (``must_head_trick``) and overtrumping mean "play a card that would now win the trick", every card on
  the table counting (as the players see it); a revoked card (adjudication) is ignored only for the trick's winner;
* ``ace_of_spades_mode="top_trump"`` (spades not trump): A♠ belongs to the trump suit and ranks above the trump ace,
  and, like Pam (research E-Pam), may be played to any trick whatever the holder's duty; it counts for heading and
  overtrumping;
* a flush (``flush_wins``) is looked for among the players in, at the start of play: a flush in trumps wins, else
  the first from the dealer's left;
  a credited player's cards go to the played cards one per trick, in canonical order (the engine's convention);
* overshoot and exemption are settled at the trick that causes them (FLY-9.2, FLY-9.3), in both stop modes;
  ``stop_mode="immediate"``: a record of 0 ends the deal at once (FLY-9.1); ``stop_mode="end_of_deal"``: the deal
  is played out and the players at 0 at its end win; ``tie_break="earliest"``
  picks, among the records at 0, the player whose last trick came first;
* ``turnup_use="dealer_swap"``: in his exchange turn (the combined round, or the exchange round) and before he
  declares, the dealer may once swap a card of his hand (not the A♠ if it may not be discarded) for the turn-up;
  the card is dead; ``"last_stock_card"``: the turn-up is the replacement after the last card of the stock;
* ``stock_exhaustion``: a player may exchange as many cards as the stock, the turn-up (``last_stock_card``) and the
  refill pool can give; the pool is every folded hand (``"folded_hands"``) or every card discarded before this
  exchange (``"reshuffle_discards"``), and is used only when the stock and the turn-up run out: the whole pool
  becomes the new stock (those hands or discards are then empty), in canonical order shuffled from the seed, or
  in canonical order without one;
* a match redeals with the same dealer only after an all-fold void deal under ``all_fold="redeal_same_dealer"``;
  every deal, void or not, counts towards ``max_deals``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence

from fly_rules import Card, CardSet, Rank, Suit, deck_of_size, fly
from fly_rules.engine import shuffled

ACE_OF_SPADES = Card(Rank.ACE, Suit.SPADES)

RANKS_ACE_HIGH = "23456789TJQKA"
RANKS_ACE_BELOW_JACK = "23456789TAJQK"

Action = fly.Exchange | fly.Stand | fly.Fold | fly.Play | fly.SwapTrump


def strength(rules: fly.FlyRules, card: Card) -> int:
    """FLY-1.4: the rank of a card within its suit (bigger is higher)."""
    order = RANKS_ACE_HIGH if rules.ace_rank == "high" else RANKS_ACE_BELOW_JACK
    return order.index(card.rank.letter)


def all_subsets(cards: Sequence[Card], size: int) -> list[set[Card]]:
    """Every subset of ``cards`` with exactly ``size`` elements, by plain recursion."""
    if size == 0:
        return [set()]
    if len(cards) < size:
        return []
    first, rest = cards[0], cards[1:]
    with_first = [{first, *others} for others in all_subsets(rest, size - 1)]
    return with_first + all_subsets(rest, size)


class RefDeal:
    """One deal of Fly from the exchange to its end, mutated in place by :meth:`apply`."""

    def __init__(
        self,
        rules: fly.FlyRules,
        *,
        hands: Sequence[Iterable[Card]],
        trump_card: Card,
        stock: Sequence[Card],
        dealer: int,
        records: Sequence[int],
        seed: int | str | None = None,
        deal_number: int = 0,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.deal_number = deal_number
        self.refills = 0  # FLY-4.5: how many times the stock was refilled
        self.turnup_here = True  # FLY-3.3: the turn-up still lies beside the stock
        self.ace_given_up = [False] * rules.players  # FLY-5.2: discarded the A♠ (exchange or trump swap)
        self.n = rules.players
        self.hands: list[set[Card]] = [set(h) for h in hands]
        self.stock: list[Card] = list(stock)
        self.trump_card = trump_card
        self.trump = trump_card.suit  # FLY-3.2
        self.dealer = dealer
        self.records: list[int] = list(records)
        self.discards: set[Card] = set()
        self.played: set[Card] = set()
        self.folded: list[bool] = [False] * self.n
        self.exchanged_total = 0
        self.phase = fly.Phase.EXCHANGE
        self.void = False
        self.winners: list[int] = []
        self.tricks_taken: list[int] = [0] * self.n
        self.tricks_done = 0
        self.last_trick: list[int] = [0] * self.n  # the number of the last trick each seat took
        self.ace_holder: int | None = None
        self.leader: int | None = None
        self.credited: int | None = None  # the lone player or flush holder credited without play
        self.turn: int | None = None
        # the current trick: (seat, card, revoked)
        self.trick: list[tuple[int, Card, bool]] = []
        # FLY-4.1: declaration rounds; "combined", or "fold" then "exchange"
        self.round = "combined" if rules.declaration_mode == "combined" else "fold"
        self.speakers = self.seats_from_left_of_dealer()
        self.speaker_index = 0
        self.confirming = False  # may_fold_after_exchange: the second decision
        self.turn = self.speakers[0]

    def clone(self) -> RefDeal:
        """An independent copy, for exhaustive search."""
        other = copy.copy(self)
        other.hands = [set(h) for h in self.hands]
        other.stock = list(self.stock)
        other.records = list(self.records)
        other.discards = set(self.discards)
        other.played = set(self.played)
        other.folded = list(self.folded)
        other.tricks_taken = list(self.tricks_taken)
        other.last_trick = list(self.last_trick)
        other.trick = list(self.trick)
        other.winners = list(self.winners)
        other.speakers = list(self.speakers)
        other.ace_given_up = list(self.ace_given_up)
        return other

    # --- seats ---------------------------------------------------------------------------------

    def left_of(self, seat: int) -> int:
        """FLY-1.2: the next seat in the direction of play."""
        step = 1 if self.rules.direction == "clockwise" else -1
        return (seat + step) % self.n

    def seats_from_left_of_dealer(self) -> list[int]:
        """Every seat once, starting at the dealer's left (FLY-4.1, FLY-6.1)."""
        seats = []
        seat = self.left_of(self.dealer)
        for _ in range(self.n):
            seats.append(seat)
            seat = self.left_of(seat)
        return seats

    def active(self) -> list[bool]:
        return [not f for f in self.folded]

    def active_seats(self) -> list[int]:
        return [s for s in self.seats_from_left_of_dealer() if not self.folded[s]]

    @property
    def is_over(self) -> bool:
        return self.phase == fly.Phase.OVER

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.turn

    # --- the exchange (FLY §4, FLY §5) ----------------------------------------------------------

    def may_fold(self, seat: int) -> bool:
        """FLY-5.2, FLY-5.3, FLY-5.4, FLY-5.5: whether ``seat`` may fold now."""
        rules = self.rules
        if ACE_OF_SPADES in self.hands[seat] or self.ace_given_up[seat]:
            return False  # FLY-5.2: he held it when his turn began
        others = [s for s in range(self.n) if s != seat]
        if rules.forced_player == "eldest" and seat == self.left_of(self.dealer):
            return False  # FLY-5.3
        dealer_forced = rules.forced_player == "dealer_if_all_passed" or rules.all_fold == "dealer_must_play"
        if dealer_forced and seat == self.dealer and all(self.folded[s] for s in others):
            return False  # FLY-5.3 / FLY-5.4
        last_speaker = self.speakers[-1]
        players_in = sum(1 for s in others if not self.folded[s])
        # FLY-5.5: the last speaker may not leave a lone player
        return not (rules.lone_player == "last_speaker_must_play" and seat == last_speaker and players_in == 1)

    def exchange_sizes(self, seat: int) -> list[int]:
        """FLY-4.3, FLY-4.5: how many cards ``seat`` may exchange now."""
        rules = self.rules
        sizes = []
        for k in range(1, rules.max_exchange + 1):
            if k > self.replacements_available():
                continue  # FLY-4.5
            cap = rules.total_exchange_cap
            if cap is not None and self.exchanged_total + k > cap:
                continue  # FLY-4.3 total cap
            if k > len(self.hands[seat]):
                continue
            sizes.append(k)
        return sizes

    def refill_pool(self) -> set[Card]:
        """FLY-4.5: the cards that become the new stock once the stock (and the turn-up) run out."""
        mode = self.rules.stock_exhaustion
        if mode == "folded_hands":
            return {c for s in range(self.n) if self.folded[s] for c in self.hands[s]}
        if mode == "reshuffle_discards":
            return set(self.discards)
        return set()

    def replacements_available(self) -> int:
        """FLY-4.5, FLY-3.3: the stock, then the turn-up (``last_stock_card``), then the refill pool."""
        turnup = 1 if self.rules.turnup_use == "last_stock_card" and self.turnup_here else 0
        return len(self.stock) + turnup + len(self.refill_pool())

    def draw(self) -> Card:
        """FLY-3.4, FLY-3.3, FLY-4.5: one replacement: the stock's top, else the turn-up, else a refilled stock."""
        if not self.stock and self.rules.turnup_use == "last_stock_card" and self.turnup_here:
            self.turnup_here = False
            return self.trump_card
        if not self.stock:
            pool = sorted(self.refill_pool(), key=lambda c: c.index)  # canonical order (CARD-4.1)
            if self.seed is not None:
                random.Random(f"fly_rules:{self.seed}:{self.deal_number}:refill:{self.refills}").shuffle(pool)
            self.refills += 1
            if self.rules.stock_exhaustion == "folded_hands":
                for s in range(self.n):
                    if self.folded[s]:
                        self.hands[s] = set()
            else:
                self.discards = set()
            self.stock = pool
        return self.stock.pop(0)

    def may_swap(self, seat: int) -> bool:
        """FLY-3.3 (``dealer_swap``): the dealer, once, in his exchange turn before declaring."""
        return (
            self.rules.turnup_use == "dealer_swap"
            and seat == self.dealer
            and self.turnup_here
            and self.round in ("combined", "exchange")
            and not self.confirming
        )

    def exchange_actions(self, seat: int) -> list[Action]:
        hand = sorted(self.hands[seat])
        if not self.rules.ace_of_spades_discardable:
            hand = [c for c in hand if c != ACE_OF_SPADES]  # FLY-4.7
        actions: list[Action] = []
        for k in self.exchange_sizes(seat):
            for subset in all_subsets(hand, k):
                actions.append(fly.Exchange(CardSet.of(subset)))
        return actions

    def exchange_phase_actions(self) -> list[Action]:
        seat = self.turn
        assert seat is not None
        actions: list[Action] = [fly.Stand()]
        if self.round != "exchange" and self.may_fold(seat):
            actions.append(fly.Fold())
        if self.may_swap(seat):
            hand = self.hands[seat]
            if not self.rules.ace_of_spades_discardable:
                hand = hand - {ACE_OF_SPADES}  # FLY-4.7
            actions.extend(fly.SwapTrump(c) for c in hand)
        if self.round in ("combined", "exchange") and not self.confirming:
            actions.extend(self.exchange_actions(seat))
        return actions

    def apply_declaration(self, action: Action) -> None:
        seat = self.turn
        assert seat is not None
        if isinstance(action, fly.SwapTrump):
            self.hands[seat].remove(action.card)  # FLY-3.3: the card is dead, the turn-up his
            self.discards.add(action.card)
            self.hands[seat].add(self.trump_card)
            self.turnup_here = False
            self.ace_given_up[seat] |= action.card == ACE_OF_SPADES
            return  # he declares next
        if isinstance(action, fly.Exchange):
            cards = set(action.cards)
            self.ace_given_up[seat] |= ACE_OF_SPADES in cards
            self.hands[seat] -= cards
            drawn = [self.draw() for _ in cards]  # FLY-3.4: from the top
            self.hands[seat] |= set(drawn)
            self.discards |= cards  # FLY-4.4: dead, and not in this exchange's own refill
            self.exchanged_total += len(cards)
            if self.rules.may_fold_after_exchange:
                self.confirming = True  # FLY-4.6 option: a second Stand/Fold decision
                return
        elif isinstance(action, fly.Fold):
            self.folded[seat] = True  # FLY-5.1
        self.confirming = False
        self.next_speaker()

    def next_speaker(self) -> None:
        self.speaker_index += 1
        if self.speaker_index < len(self.speakers):
            self.turn = self.speakers[self.speaker_index]
            return
        if self.round == "fold":
            self.round = "exchange"
            self.speakers = self.active_seats()
            self.speaker_index = 0
            if self.speakers:
                self.turn = self.speakers[0]
                return
        self.end_declarations()

    def end_declarations(self) -> None:
        """FLY-5.4, FLY-5.5, FLY-12.1 then FLY-6.1."""
        rules = self.rules
        players_in = self.active_seats()
        if not players_in:
            self.end_void()  # FLY-5.4 (void, or a redeal by the same dealer: both change nothing)
            return
        if len(players_in) == 1 and rules.lone_player == "void":
            self.end_void()  # FLY-5.5
            return
        self.phase = fly.Phase.PLAY
        for seat in players_in:
            if ACE_OF_SPADES in self.hands[seat]:
                self.ace_holder = seat  # FLY-8.3 / A-10: the holder when play begins
        if len(players_in) == 1:
            self.credit_all_tricks(players_in[0])  # FLY-5.5
            return
        if rules.flush_wins:
            # FLY-12.1: the suit each card counts as (the top_trump A♠ is a trump, not a spade)
            suits = {seat: {self.suit_of(c) for c in self.hands[seat]} for seat in players_in}
            flushes = [seat for seat in players_in if len(suits[seat]) == 1]
            in_trumps = [seat for seat in flushes if suits[seat] == {self.trump}]
            if flushes:
                self.credit_all_tricks((in_trumps or flushes)[0])  # FLY-12.1: trumps first, then the dealer's left
                return
        self.leader = players_in[0]  # FLY-6.1
        self.turn = self.leader

    def end_void(self) -> None:
        self.void = True
        self.phase = fly.Phase.OVER
        self.turn = None

    def credit_all_tricks(self, seat: int) -> None:
        """FLY-5.5 / FLY-12.1: five tricks, one at a time, a zero check after each.

        Engine convention mirrored: each credited trick moves one card, in canonical order, to the played cards.
        """
        self.credited = seat
        for _ in range(5):
            first = min(self.hands[seat])
            self.hands[seat].remove(first)
            self.played.add(first)
            self.win_trick(seat)
            if self.is_over:
                return
        self.end_of_deal()

    # --- trick play (FLY §6, FLY §7) ---------------------------------------------------------------

    def privilege_on(self) -> bool:
        """FLY-7.1: the A♠ privilege exists only when spades are not trump."""
        return self.rules.ace_of_spades_mode in ("led_trump_ace", "led_trump_ace_void_only") and (
            self.trump != Suit.SPADES
        )

    def suit_of(self, card: Card) -> Suit:
        """The suit a card counts as: A♠ is a trump under ``top_trump`` (A-19 R3)."""
        if card == ACE_OF_SPADES and self.rules.ace_of_spades_mode == "top_trump":
            return self.trump
        return card.suit

    def power(self, card: Card) -> int:
        """Rank within the suit it counts as; the top_trump A♠ above the trump ace."""
        if card == ACE_OF_SPADES and self.rules.ace_of_spades_mode == "top_trump" and self.trump != Suit.SPADES:
            return 100
        return strength(self.rules, card)

    def trick_winner(self, trick: list[tuple[int, Card, bool]]) -> int:
        """FLY-6.6, FLY-7.3, FLY-11.2: the seat that wins (so far) among the non-revoked cards."""
        fair = [(seat, card) for seat, card, revoked in trick if not revoked]
        lead = trick[0][1]
        led_suit = self.suit_of(lead)
        trump_ace = Card(Rank.ACE, self.trump)
        if self.privilege_on() and lead == trump_ace:
            for seat, card in fair:
                if card == ACE_OF_SPADES:
                    return seat  # FLY-7.3
        trumps = [(seat, card) for seat, card in fair if self.suit_of(card) == self.trump]
        candidates = trumps or [(seat, card) for seat, card in fair if self.suit_of(card) == led_suit]
        best_seat, best_card = candidates[0]
        for seat, card in candidates[1:]:
            if self.power(card) > self.power(best_card):
                best_seat, best_card = seat, card
        return best_seat

    def would_win(self, seat: int, card: Card) -> bool:
        """Whether ``card`` would now win the trick, every card on the table counting (heading, overtrumping)."""
        on_table = [(s, c, False) for s, c, _ in self.trick]
        return self.trick_winner([*on_table, (seat, card, False)]) == seat

    def legal_cards(self, seat: int) -> set[Card]:
        """FLY-6.3, FLY-6.4, FLY-6.5, FLY-7.2: the cards ``seat`` may play to the current trick."""
        rules = self.rules
        hand = self.hands[seat]
        if not self.trick:
            return set(hand)  # any lead
        lead = self.trick[0][1]
        led_suit = self.suit_of(lead)
        follow = {c for c in hand if self.suit_of(c) == led_suit}
        trumps = {c for c in hand if self.suit_of(c) == self.trump}
        if follow:
            legal = follow  # FLY-6.3
            if rules.must_head_trick:
                heading = {c for c in follow if self.would_win(seat, c)}
                if heading:
                    legal = heading
        elif trumps:
            legal = trumps  # FLY-6.4 any trump
            if rules.trump_duty != "any_trump":
                over = {c for c in trumps if self.would_win(seat, c)}
                if over:
                    legal = over
                elif rules.trump_duty == "overtrump_or_free":
                    legal = set(hand)
        else:
            legal = set(hand)  # FLY-6.5
        trump_ace = Card(Rank.ACE, self.trump)
        if (
            rules.ace_of_spades_mode == "led_trump_ace"
            and self.trump != Suit.SPADES
            and lead == trump_ace
            and ACE_OF_SPADES in hand
        ):
            legal = legal | {ACE_OF_SPADES}  # FLY-7.2, FLY-7.6 optional
        if rules.ace_of_spades_mode == "top_trump" and self.trump != Suit.SPADES and ACE_OF_SPADES in hand:
            legal = legal | {ACE_OF_SPADES}  # A-19 R3: like Pam, exempt from following suit
        return legal

    def play_card(self, card: Card) -> None:
        seat = self.turn
        assert seat is not None
        revoked = card not in self.legal_cards(seat)
        if revoked:
            self.records[seat] += self.rules.remise  # FLY-11.2 at once
        self.hands[seat].remove(card)
        self.played.add(card)
        self.trick.append((seat, card, revoked))
        if len(self.trick) < len(self.active_seats()):
            nxt = self.left_of(seat)
            while self.folded[nxt]:
                nxt = self.left_of(nxt)
            self.turn = nxt  # FLY-6.2
            return
        winner = self.trick_winner(self.trick)
        self.trick = []
        self.win_trick(winner)
        if self.is_over:
            return
        if self.tricks_done == 5:
            self.end_of_deal()  # FLY-6.7
            return
        self.leader = winner  # FLY-6.6
        self.turn = winner

    # --- scoring (FLY §8, FLY §9) ---------------------------------------------------------------------

    def win_trick(self, seat: int) -> None:
        """FLY-8.2, FLY-8.3 and, in stop_mode "immediate", FLY-9.1..9.3 after every trick."""
        rules = self.rules
        self.tricks_done += 1
        self.tricks_taken[seat] += 1
        self.last_trick[seat] = self.tricks_done
        record = self.records[seat] - rules.trick_value  # FLY-8.2
        bonus = 0
        if seat == self.ace_holder and self.tricks_taken[seat] == 1:
            bonus = self.ace_bonus()  # FLY-8.3
        if record - bonus < 0:
            # FLY-9.3: the holder's first trick, bonus and all, lands on 0 (even when, with a trick_value above 1,
            # the trick alone overshoots); FLY-9.2: any other overshoot resets, at once
            record = 0 if bonus else rules.start_record
        else:
            record -= bonus
        self.records[seat] = record
        if record == 0 and rules.stop_mode == "immediate":
            self.winners = [seat]  # FLY-9.1
            self.finish()

    def ace_bonus(self) -> int:
        return self.rules.ace_bonus_trumps if self.trump == Suit.SPADES else self.rules.ace_bonus

    def end_of_deal(self) -> None:
        """FLY-8.4, FLY-8.5 and, in stop_mode "end_of_deal", FLY-9.1..9.4 (research §6)."""
        rules = self.rules
        for seat in self.active_seats():
            if self.tricks_taken[seat] == 0:
                if seat == self.ace_holder:
                    spades = self.trump == Suit.SPADES
                    self.records[seat] += (
                        rules.ace_no_trick_penalty_trumps if spades else rules.ace_no_trick_penalty
                    )  # FLY-8.5
                else:
                    self.records[seat] += rules.remise  # FLY-8.4
        if rules.stop_mode == "end_of_deal":
            at_zero = sorted((s for s in range(self.n) if self.records[s] == 0), key=lambda s: self.last_trick[s])
            if rules.tie_break == "earliest":
                at_zero = at_zero[:1]  # FLY-9.4: the earliest to reach 0; "shared" keeps them all, earliest first
            self.winners = at_zero
        self.finish()

    def finish(self) -> None:
        self.phase = fly.Phase.OVER
        self.turn = None

    # --- the interface ---------------------------------------------------------------------------

    def legal_actions(self) -> set[Action]:
        """Every legal action of the seat to move (empty when over)."""
        if self.is_over or self.turn is None:
            return set()
        if self.phase == fly.Phase.EXCHANGE:
            return set(self.exchange_phase_actions())
        return {fly.Play(c) for c in self.legal_cards(self.turn)}

    def accepts(self, action: object) -> bool:
        """Whether the engine must accept ``action``: legal, or a revoke under adjudication (FLY-11.1)."""
        if action in self.legal_actions():
            return True
        return (
            self.phase == fly.Phase.PLAY
            and self.rules.revoke_mode == "penalize"
            and isinstance(action, fly.Play)
            and self.turn is not None
            and action.card in self.hands[self.turn]
        )

    def apply(self, action: Action) -> None:
        assert self.accepts(action), action
        if isinstance(action, fly.Play):
            self.play_card(action.card)
        else:
            self.apply_declaration(action)


class RefMatch:
    """A match: deals in turn until a winner or ``max_deals`` (FLY-2.2, FLY-10.1).

    The shuffle is the library's (it is not a rule); :meth:`deal_pack` deals it by FLY-3.1, and
    :meth:`start_deal` starts a deal from given cards.
    """

    def __init__(
        self, rules: fly.FlyRules, *, dealer: int, max_deals: int | None, seed: int | str | None = None
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.max_deals = max_deals
        self.deal_number = 0
        self.records: list[int] = [rules.start_record] * rules.players  # FLY-8.1
        self.winners: list[int] = []
        self.over = False
        self.deal: RefDeal | None = None
        self.last_deal: RefDeal | None = None

    def deal_pack(self) -> tuple[list[list[Card]], Card, list[Card]]:
        """FLY-2.1, FLY-3.1, FLY-3.2, FLY-3.4: the seeded pack of this deal, dealt from the dealer's left in
        the packets of ``deal_packets`` (repeated until every hand holds five), one packet a seat a round;
        the next card is the turn-up and the rest the stock, top first."""
        assert self.seed is not None
        pack = list(shuffled(deck_of_size(self.rules.deck_size), self.seed, self.deal_number))
        hands: list[list[Card]] = [[] for _ in range(self.rules.players)]
        order = []  # the seats from the dealer's left, going left
        step = 1 if self.rules.direction == "clockwise" else -1
        for i in range(1, self.rules.players + 1):
            order.append((self.dealer + step * i) % self.rules.players)
        packets = list(self.rules.deal_packets)
        while sum(packets) < 5:
            packets += list(self.rules.deal_packets)
        for size in packets:
            for seat in order:
                hands[seat] += [pack.pop(0) for _ in range(size)]
        turnup = pack.pop(0)
        return hands, turnup, pack

    def start_deal(self, hands: Sequence[Iterable[Card]], trump_card: Card, stock: Sequence[Card]) -> None:
        self.deal = RefDeal(
            self.rules,
            hands=hands,
            trump_card=trump_card,
            stock=stock,
            dealer=self.dealer,
            records=self.records,
            seed=self.seed,
            deal_number=self.deal_number,
        )

    @property
    def needs_deal(self) -> bool:
        return not self.over and self.deal is None

    def apply(self, action: Action) -> None:
        deal = self.deal
        assert deal is not None
        assert not self.over
        deal.apply(action)
        self.records = list(deal.records)
        if not deal.is_over:
            return
        self.deal = None
        self.last_deal = deal
        if deal.winners:
            self.winners = list(deal.winners)
            self.over = True  # FLY-9.1 / FLY-10.1
            return
        self.deal_number += 1
        if not (deal.void and self.rules.all_fold == "redeal_same_dealer" and not deal.active_seats()):
            self.dealer = deal.left_of(self.dealer)  # FLY-2.2
        if self.max_deals is not None and self.deal_number >= self.max_deals:
            self.over = True  # FLY-10.1
