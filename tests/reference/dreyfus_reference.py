"""A deliberately naive model of Dreyfus written from specs/dreyfus.md, to check the engine against.

It uses lists of cards, plain loops and full enumeration, and imports nothing of
the engine's internals: only the cards, the shared actions, the shuffle and the
public options object whose fields it reads.
"""

from __future__ import annotations

import itertools

from fly_rules.actions import Action, Exchange, Play, Stand
from fly_rules.cards import ACE_HIGH, DECK_48, Card, CardSet
from fly_rules.dreyfus import DreyfusRules
from fly_rules.engine import shuffled
from fly_rules.tricks import TrumpDuty


class RefMatch:
    """A match, mutated in place by :meth:`apply`."""

    def __init__(self, rules: DreyfusRules, seed: int | str, dealer: int | None) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = self.draw_for_dealer() if dealer is None else dealer
        self.upper = [0, 0, 0]
        self.lower = [0, 0, 0]
        self.deals_played = 0
        self.over = False
        self.winner: int | None = None
        self.start_deal(0)

    # -- dealing (DRF §2, DRF §3) -----------------------------------------------------------
    def draw_for_dealer(self) -> int:
        """DRF-2.1: seats 0, 1, 2 each draw one card in turn from the top of the lot pack (the seed's shuffle
        numbered -1); the lowest rank deals, a tie broken by the suit, clubs lowest (CARD-1.1)."""
        pack = list(shuffled(DECK_48, self.seed, -1))
        drawn = {seat: pack.pop(0) for seat in (0, 1, 2)}
        ranks, suits = "3456789TJQKA", "CDHS"

        def lowness(seat: int) -> tuple[int, int]:
            text = str(drawn[seat])  # rank letter, then suit letter (CARD-3.1)
            return ranks.index(text[0]), suits.index(text[1])

        lowest = 0
        for seat in (1, 2):
            if lowness(seat) < lowness(lowest):
                lowest = seat
        return lowest

    def purchase_record(self, seat: int) -> int:
        """DRF-4.5, DRF-10.2: what ``seat`` writes above for this deal's purchase had he forgotten to record
        it before the lead: the count and the penalty, or nothing if he bought nothing."""
        return self.bought[seat] + self.rules.forgot_record_penalty if self.bought[seat] else 0

    def start_deal(self, number: int) -> None:
        """Shuffle, deal in packets to eldest, next, dealer, talon; talon top is the last card dealt."""
        self.number = number
        cycle = self.rules.contract_cycle
        self.trump = cycle[number % len(cycle)]
        cards = list(shuffled(DECK_48, self.seed, number))
        receivers = [(self.dealer + 1) % 3, (self.dealer + 2) % 3, self.dealer, "talon"]
        piles: dict[object, list[Card]] = {r: [] for r in receivers}
        size = self.rules.deal_packet_size
        for i in range(0, 48, size):
            piles[receivers[(i // size) % 4]].extend(cards[i : i + size])
        self.hands = [list(piles[s]) for s in range(3)]
        self.dealt = [list(h) for h in self.hands]
        self.talon = list(reversed(piles["talon"]))
        self.bought = [0, 0, 0]
        self.exchangers = [(self.dealer + 1) % 3, (self.dealer + 2) % 3, self.dealer]
        self.phase = "exchange"
        self.to_move: int | None = self.exchangers[0]
        self.trick: list[tuple[int, Card]] = []
        self.completed: list[tuple[tuple[int, Card], ...]] = []
        self.taken = [0, 0, 0]
        self.revoked = [0, 0, 0]
        self.reached: list[int] = []

    # -- legal actions ---------------------------------------------------------------------
    def foski(self, seat: int) -> list[Card]:
        """DRF-4.2: cards still held of those dealt, of a фоска rank, not trumps if so ruled."""
        out = []
        for c in self.hands[seat]:
            trump_barred = self.rules.fosk_excludes_trump and c.suit == self.trump
            if c in self.dealt[seat] and c.rank in self.rules.fosk_ranks and not trump_barred:
                out.append(c)
        return out

    def duty_cards(self, seat: int) -> list[Card]:
        """DRF-6.2 to DRF-6.5: the cards that keep every duty."""
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)
        led = self.trick[0][1].suit
        best = self.trick[self.best()][1]
        same = [c for c in hand if c.suit == led]
        if same:
            if self.rules.must_head_trick and best.suit == led:
                higher = [c for c in same if ACE_HIGH.beats(c, best)]
                if higher:
                    return higher
            return same
        trumps = [c for c in hand if c.suit == self.trump]
        if not trumps:
            return list(hand)
        duty = self.rules.trump_duty
        if duty is TrumpDuty.ANY_TRUMP:
            return trumps
        beating = [c for c in trumps if best.suit != self.trump or ACE_HIGH.beats(c, best)]
        if beating:
            return beating
        return trumps if duty is TrumpDuty.OVERTRUMP else list(hand)

    def legal(self) -> list[Action]:
        """Every legal action, enumerated in full."""
        if self.to_move is None:
            return []
        seat = self.to_move
        if self.phase == "exchange":
            left = len(self.talon)
            foski = self.foski(seat)
            most = min(left, 1 if self.rules.exchange_mode == "incremental" else left)
            actions: list[Action] = [Stand()]
            for k in range(1, most + 1):
                actions += [Exchange(CardSet.of(combo)) for combo in itertools.combinations(foski, k)]
            return actions
        if self.rules.revoke_mode == "penalize":
            return [Play(c) for c in self.hands[seat]]
        return [Play(c) for c in self.duty_cards(seat)]

    # -- applying --------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply a legal action (the caller checks legality against :meth:`legal`)."""
        seat = self.to_move
        assert seat is not None
        if isinstance(action, Stand):
            self.next_exchanger()
        elif isinstance(action, Exchange):
            discard = list(action.cards)
            k = len(discard)
            for c in discard:
                self.hands[seat].remove(c)
            self.hands[seat] += self.talon[:k]
            del self.talon[:k]
            self.bought[seat] += k
            self.upper[seat] += k  # DRF-4.5
            if self.rules.exchange_mode == "batch" or not self.talon:
                self.next_exchanger()
        else:
            assert isinstance(action, Play)
            self.play(seat, action.card)

    def next_exchanger(self) -> None:
        """DRF-4.1: the next in turn, skipping all when the talon is empty; then the lead (DRF-5.1)."""
        self.exchangers.pop(0)
        if not self.talon:
            self.exchangers = []
        if self.exchangers:
            self.to_move = self.exchangers[0]
            return
        self.phase = "play"
        self.to_move = (self.dealer + 1) % 3
        if self.rules.first_lead == "first_actual_buyer":
            for s in [(self.dealer + 1) % 3, (self.dealer + 2) % 3, self.dealer]:
                if self.bought[s]:
                    self.to_move = s
                    break

    def best(self) -> int:
        """DRF-6.6: position of the highest trump, else the highest card of the suit led."""
        cards = [c for _, c in self.trick]
        trumps = [c for c in cards if c.suit == self.trump]
        pool = trumps or [c for c in cards if c.suit == cards[0].suit]
        return cards.index(max(pool, key=ACE_HIGH.key))

    def play(self, seat: int, card: Card) -> None:
        """Play a card; score the trick when it is complete (DRF §7, DRF-10.1)."""
        par = self.rules.par_tricks
        if card not in self.duty_cards(seat):
            if not self.revoked[seat]:
                self.lower[seat] -= max(0, self.taken[seat] - par)
                if seat in self.reached:
                    self.reached.remove(seat)
            self.revoked[seat] += 1
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 3:
            self.to_move = (seat + 1) % 3
            return
        taker = self.trick[self.best()][0]
        self.completed.append(tuple(self.trick))
        self.trick = []
        self.taken[taker] += 1
        if self.taken[taker] > par and not self.revoked[taker]:
            self.lower[taker] += 1
            if self.lower[taker] >= self.rules.target_lower and taker not in self.reached:
                self.reached.append(taker)
        self.to_move = taker
        if sum(self.taken) < 12:
            return
        for s in range(3):
            short = max(0, par - self.taken[s])
            if self.revoked[s]:
                times = self.revoked[s] if self.rules.revoke_penalty_per == "occurrence" else 1
                penalty = self.rules.revoke_upper_penalty * times  # DRF-10.1
                self.upper[s] += penalty + (short if self.rules.revoke_adds_undertricks else 0)
            else:
                self.upper[s] += short
        self.to_move = None
        self.deals_played += 1
        winner = self.current_winner(True)
        capped = self.rules.max_deals is not None and self.deals_played >= self.rules.max_deals
        if winner is not None or capped:
            self.over = True
            self.winner = winner
            return
        self.dealer = (self.dealer + (1 if self.rules.dealer_rotation == "left" else 2)) % 3
        self.start_deal(self.number + 1)

    def current_winner(self, deal_over: bool) -> int | None:
        """DRF-8.2: the first to reach, or at the end the highest lower record."""
        if not self.reached:
            return None
        if self.rules.winner_rule == "first_to_reach":
            return self.reached[0]
        if not deal_over:
            return None
        return sorted(self.reached, key=lambda s: (-self.lower[s], self.upper[s], self.reached.index(s)))[0]

    def settlement(self) -> list[int]:
        """DRF-9.1: what each loser pays the winner, by the chosen reading."""
        pay = [0, 0, 0]
        w = self.winner
        if w is None:
            return pay
        for s in range(3):
            if s == w:
                continue
            short = self.rules.target_lower - self.lower[s]
            if self.rules.shortfall_floor_zero and short < 0:
                short = 0
            amount = {
                "gross": self.upper[s] + short,
                "net_of_winner_upper": self.upper[s] - self.upper[w] + short,
                "pairwise": short,
            }[self.rules.settlement]
            pay[s] -= amount
            pay[w] += amount
        if self.rules.settlement == "pairwise":
            for a, b in itertools.combinations(range(3), 2):
                pay[a] -= self.upper[a] - self.upper[b]
                pay[b] += self.upper[a] - self.upper[b]
        return pay
