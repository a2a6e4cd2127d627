"""Guessing the cards a Fly seat cannot see (the bots' :func:`~fly_rules.bots.sampling.sample_deal`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from fly_rules._choices import bits
from fly_rules.actions import Action, Exchange, Fold, Stand
from fly_rules.cards import ALL_CARDS, Card, CardSet, Rank, Suit
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Guess
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.positions import new_deal
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import FlyDeal, FlyView

__all__ = ["FlyGuess"]

_ACE_OF_SPADES = 1 << 51


class FlyGuess(Guess[FlyView, FlyRules]):
    """What a Fly seat's view rules out, for :func:`fly_rules.bots.sampling.sample_deal`: the trump card, folds
    (the A♠ holder may not fold), the dealer's swap, each seat's exchanges."""

    def __init__(self, view: FlyView, rules: FlyRules) -> None:
        privileged = rules.ace_of_spades_mode != "none" and view.trump != Suit.SPADES  # FLY-7.1
        self.top_trump = privileged and rules.ace_of_spades_mode == "top_trump"
        self.to_trump_ace = privileged and rules.ace_of_spades_mode == "led_trump_ace"
        tricks = [list(trick) for trick in (*view.tricks, view.trick)]
        counts = [sum(d.count for d in declared if d.kind == "exchange") for declared in view.declarations]
        super().__init__(view, rules, view.players, tricks, counts, view.trump)
        self.swapped = [any(d.kind == "swap" for d in declared) for declared in view.declarations]
        for seat, active in enumerate(view.active):
            if not active:
                self.forbidden[seat] |= _ACE_OF_SPADES  # its holder may not fold [FLY-5.2]
        self.deck = sum(card.bit for card in rules.deck)
        self.hand_size = 5
        self.first = rules.left_of(view.dealer)
        self.not_drawn = view.trump_card.bit
        dealer = view.dealer
        # a dealer who took the trump card and has not played it holds it, unless he exchanged it away
        self.may_hold = self.swapped[dealer] and dealer != view.seat and not self.played[dealer] & self.not_drawn
        declared = view.declarations[dealer]
        swap_at = next((k for k, d in enumerate(declared) if d.kind == "swap"), len(declared))
        self.exchanged_after_swap = sum(d.count for d in declared[swap_at + 1 :])
        self.holds_trump = self.may_hold

    def suit_of(self, card: Card) -> Suit:
        """The suit ``card`` counts as: the A♠ as a trump where it is the top trump [FLY-7.1]."""
        return self.view.trump if self.top_trump and card.bit == _ACE_OF_SPADES else card.suit

    def suit_mask(self, suit: Suit) -> int:
        """The cards that count as ``suit``: where the A♠ is the top trump, with the trumps, not the spades."""
        mask = super().suit_mask(suit)
        if not self.top_trump:
            return mask
        return mask | _ACE_OF_SPADES if suit == self.view.trump else mask & ~_ACE_OF_SPADES

    def free_play(self, trick: Sequence[tuple[int, Card]], k: int) -> bool:
        """Whether the card could be played whatever else its seat held: the A♠ where it is the top trump (at any
        time) or to a led trump ace [FLY-7.1] [FLY-7.2]."""
        if trick[k][1].bit != _ACE_OF_SPADES:
            return False
        led = trick[0][1]
        return self.top_trump or (self.to_trump_ace and led.suit == self.view.trump and led.rank == Rank.ACE)

    def known(self) -> int:
        """The cards the seat has seen besides its hand and the cards played."""
        return self.not_drawn

    def discards(self, seat: int, pool: int, own: bool, rng: random.Random) -> int | None:
        """The cards ``seat`` gave in its exchanges."""
        view: FlyView = self.view
        trump = self.not_drawn
        if seat == view.seat and own:
            return 0
        # the seat itself took the trump card and no longer has it: it discarded it again
        again = seat == view.seat and self.swapped[seat] and not (view.hand.mask | self.played[seat]) & trump
        if seat == view.dealer and self.may_hold:  # another dealer: as likely as any of his cards to go
            again = rng.random() < self.exchanged_after_swap / 5
            self.holds_trump = not again
        chosen = self.pick(pool, self.counts[seat] + self.swapped[seat] - again, rng)
        return None if chosen is None else chosen | (trump if again else 0)

    def adjust(self, need: dict[int, int]) -> dict[int, int]:
        """How many unseen cards each other seat holds."""
        if self.holds_trump:
            need[self.view.dealer] -= 1
        return need

    def taken(self, seat: int) -> int:
        """Cards ``seat`` is known to hold though they are not seen."""
        return self.not_drawn if self.holds_trump and seat == self.view.dealer else 0

    def exchanges(self, seat: int, held: int, given: int, rng: random.Random) -> list[tuple[int, int]] | None:
        """``seat``'s exchanges in order, as (given, received)."""
        trump = self.not_drawn
        received = self.pick(held & ~trump if self.swapped[seat] else held, self.counts[seat], rng)
        if received is None:
            return None
        swap_given = 1 << next(iter(bits(given & ~trump))) if self.swapped[seat] else 0
        mine = []
        for declared in self.view.declarations[seat]:
            if declared.kind == "swap":
                mine.append((swap_given, trump))
            elif declared.kind == "exchange":
                mine.append((given & ~swap_given, received))
        return mine

    def replay(
        self,
        start: list[CardSet],
        stock: list[Card],
        events: list[list[tuple[int, int]]],
        records: Sequence[int] | None,
    ) -> tuple[FlyDeal, list[Action | SwapTrump]]:
        """The new deal with the declarations replayed, and the actions taken."""
        view: FlyView = self.view
        deal = new_deal(
            self.rules, hands=start, trump_card=view.trump_card, stock=stock, dealer=view.dealer, records=records
        )
        actions: list[Action | SwapTrump] = []
        queues = [list(declared) for declared in view.declarations]
        while deal.phase is Phase.EXCHANGE:
            mover = deal.to_move
            assert mover is not None  # someone declares in the exchange
            if not queues[mover]:
                break
            kind = queues[mover].pop(0).kind
            if kind == "swap":
                action: Action | SwapTrump = SwapTrump(ALL_CARDS[events[mover].pop(0)[0].bit_length() - 1])
            elif kind == "exchange":
                action = Exchange(CardSet(events[mover].pop(0)[0]))
            else:
                action = Fold() if kind == "fold" else Stand()
            actions.append(action)
            deal = deal.apply(action)
        return deal, actions
