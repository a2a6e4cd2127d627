"""Guessing the cards a Dreyfus seat cannot see (the bots' :func:`~fly_rules.bots.sampling.sample_deal`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from fly_rules._choices import bits
from fly_rules.actions import Action, Exchange, Stand
from fly_rules.cards import DECK_48, Card, CardSet
from fly_rules.dreyfus.deal import eldest
from fly_rules.dreyfus.positions import new_deal
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.state import DreyfusDeal, DreyfusView
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Guess

__all__ = ["DreyfusGuess"]


class DreyfusGuess(Guess[DreyfusView, DreyfusRules]):
    """What a Dreyfus seat's view rules out, for :func:`fly_rules.bots.sampling.sample_deal`: its discards,
    revealed discards and talon; the others discard only фоски."""

    deck = DECK_48.mask
    hand_size = 12

    def __init__(self, view: DreyfusView, rules: DreyfusRules) -> None:
        tricks = [list(trick) for trick in (*view.tricks, view.trick)]
        super().__init__(view, rules, 3, tricks, list(view.bought), view.contract)
        self.first = eldest(view.dealer)

    def known(self) -> int:
        """The cards the seat has seen besides its hand and the cards played."""
        view: DreyfusView = self.view
        known = view.discarded.mask
        if view.revealed_discards is not None:
            known |= sum(d.mask for d in view.revealed_discards)
        if view.revealed_talon is not None:
            known |= view.revealed_talon.mask
        return known

    def discards(self, seat: int, pool: int, own: bool, rng: random.Random) -> int | None:
        """The cards ``seat`` gave in its exchanges."""
        view: DreyfusView = self.view
        if seat == view.seat:
            return view.discarded.mask
        if view.revealed_discards is not None:
            return view.revealed_discards[seat].mask
        return self.pick(pool & self.rules.fosk_mask(view.contract), self.counts[seat], rng)  # only фоски [DRF-4.2]

    def exchanges(self, seat: int, held: int, given: int, rng: random.Random) -> list[tuple[int, int]] | None:
        """``seat``'s exchanges in order, as (given, received)."""
        received = self.pick(held, self.counts[seat], rng)
        if received is None:
            return None
        if self.rules.exchange_mode != "incremental":
            return [(given, received)] if given else []
        one_by_one = list(bits(given))
        rng.shuffle(one_by_one)
        return [(1 << g, 1 << r) for g, r in zip(one_by_one, bits(received), strict=True)]

    def leftover(self, pool: int) -> int:
        """The talon left undrawn."""
        revealed = self.view.revealed_talon
        return pool if revealed is None else int(revealed.mask)

    def replay(
        self,
        start: list[CardSet],
        stock: list[Card],
        events: list[list[tuple[int, int]]],
        records: Sequence[int] | None,
    ) -> tuple[DreyfusDeal, list[Action]]:
        """The new deal with the declarations replayed, and the actions taken."""
        view: DreyfusView = self.view
        deal = new_deal(
            self.rules,
            start,
            stock,
            view.contract,
            view.dealer,
            upper=records or (0, 0, 0),
            deal_number=view.deal_number,
        )
        actions: list[Action] = []
        while deal.phase is Phase.EXCHANGE:
            mover = deal.to_move
            assert mover is not None  # someone exchanges or stands in the exchange
            if events[mover]:
                action: Action = Exchange(CardSet(events[mover].pop(0)[0]))
            elif mover == view.to_move and view.phase is Phase.EXCHANGE and not any(events):
                break
            else:
                action = Stand()
            actions.append(action)
            deal = deal.apply(action)
        return deal, actions
