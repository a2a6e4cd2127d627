"""A determinised Monte-Carlo bot: guess the hidden cards, play each choice out, keep the best.

In the play of a deal the bot deals the cards it cannot see at random among the other hands,
consistently with its view (each player's number of cards, the suits a player has shown void in,
the cards already played), rebuilds the deal from that guess through the public engine
(``new_deal``, the declarations as they were seen, the tricks as they were played), then plays
each of its legal cards and the rest of the deal with the rule-of-thumb policy for every seat,
and keeps the card with the best average result for itself. A guess that the engine refuses
(it breaks a duty nobody could see) is drawn again. In the exchange it follows the rule of thumb.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fly_rules import dreyfus, fly
from fly_rules.actions import Fold, Play, Stand
from fly_rules.bots.rule_of_thumb import DreyfusRuleOfThumbBot, FlyRuleOfThumbBot
from fly_rules.cards import DECK_48, Card
from fly_rules.engine import Phase
from fly_rules.errors import RuleViolation

__all__ = ["MonteCarloBot"]

_BIG = 10_000  # a record far from zero: the playouts never end the match


class MonteCarloBot:
    """Determinised Monte-Carlo search over the cards to play.

    Args:
        rules: the rules of the game played (:class:`~fly_rules.fly.FlyRules` or
            :class:`~fly_rules.dreyfus.DreyfusRules`).
        samples: guesses of the hidden cards per decision (default 24 for Fly, 8 for Dreyfus, whose
            deals are longer).
    """

    name = "monte-carlo"
    """The bot's name in tables."""

    def __init__(self, rules: Any, samples: int | None = None) -> None:
        self.rules = rules
        self.samples = samples if samples is not None else 24 if isinstance(rules, fly.FlyRules) else 8
        if isinstance(rules, fly.FlyRules):
            self.policy: Any = FlyRuleOfThumbBot(rules.rank_order)
        else:
            self.policy = DreyfusRuleOfThumbBot()

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The play with the best average playout; the rule of thumb elsewhere."""
        if view.phase is not Phase.PLAY or len(legal_actions) == 1:
            return self.policy.choose(view, legal_actions, rng)
        totals = [0.0] * len(legal_actions)
        counted = 0
        for _ in range(self.samples * 3):
            if counted == self.samples:
                break
            state = self._determinise(view, rng)
            if state is None:
                continue
            counted += 1
            for k, action in enumerate(legal_actions):
                totals[k] += self._playout(state.apply(action), view.seat, state, rng)
        if not counted:
            return self.policy.choose(view, legal_actions, rng)
        best = max(range(len(legal_actions)), key=lambda k: totals[k])
        return legal_actions[best]

    # --- playouts ---------------------------------------------------------------------

    def _playout(self, state: Any, seat: int, start: Any, rng: random.Random) -> float:
        """Play ``state`` to the end of the deal with the rule of thumb; ``seat``'s gain since ``start``."""
        while not state.is_over:
            mover = state.to_move
            state = state.apply(self.policy.choose(state.view(mover), state.legal_actions(), rng))
        if isinstance(state, fly.FlyDeal):
            return float(start.records[seat] - state.records[seat])
        return float((state.lower[seat] - start.lower[seat]) - (state.upper[seat] - start.upper[seat]))

    # --- guessing the hidden cards --------------------------------------------------------

    def _determinise(self, view: Any, rng: random.Random) -> Any:
        """A deal consistent with ``view``, at the same point of play, or None if the guess fails."""
        try:
            if isinstance(view, fly.FlyView):
                return self._fly_deal(view, rng)
            return self._dreyfus_deal(view, rng)
        except RuleViolation:
            return None

    def _fly_deal(self, view: fly.FlyView, rng: random.Random) -> fly.FlyDeal | None:
        rules: fly.FlyRules = self.rules
        n = view.players
        plays = [*(p for trick in view.tricks for p in trick), *view.trick]
        played = {seat: [c for s, c in plays if s == seat] for seat in range(n)}
        known = set(view.hand) | {c for _, c in plays}
        swapped = any(d.kind == "swap" for d in view.declarations[view.dealer])
        holds_trump = view.dealer if swapped and view.trump_card not in known else None
        known.add(view.trump_card)
        pool = [c for c in rules.deck if c not in known]
        voids = _voids([*view.tricks, view.trick] if view.trick else view.tricks, view.trump)
        need = {}
        for seat in range(n):
            if seat != view.seat and view.active[seat]:
                need[seat] = 5 - len(played[seat]) - (seat == holds_trump)
        hands = _deal_hidden(pool, need, voids, rng)
        if hands is None:
            return None
        rest = [c for c in pool if not any(c in h for h in hands.values())]
        rng.shuffle(rest)
        start_hands: list[list[Card]] = []
        for seat in range(n):
            if seat == view.seat:
                start_hands.append([*view.hand, *played[seat]])
            elif view.active[seat]:
                start_hands.append([*hands[seat], *played[seat], *([view.trump_card] if seat == holds_trump else [])])
            else:
                folded = [c for c in rest if c != Card.parse("AS")][:5]
                rest = [c for c in rest if c not in folded]
                start_hands.append(folded)
        if any(len(h) != 5 for h in start_hands):
            return None
        deal = fly.new_deal(
            rules, hands=start_hands, trump_card=view.trump_card, stock=rest, dealer=view.dealer, records=(_BIG,) * n
        )
        queues = {seat: list(view.declarations[seat]) for seat in range(n)}
        while deal.phase is Phase.EXCHANGE:
            mover = deal.to_move
            assert mover is not None
            said = queues[mover].pop(0) if queues[mover] else None
            deal = deal.apply(Fold() if said is not None and said.kind == "fold" else Stand())
        for seat, card in plays:
            if deal.to_move != seat:
                return None
            deal = deal.apply(Play(card))
        return deal if deal.to_move == view.seat else None

    def _dreyfus_deal(self, view: dreyfus.DreyfusView, rng: random.Random) -> dreyfus.DreyfusDeal | None:
        tricks = list(view.tricks)
        current = view.trick
        plays = [*(p for trick in tricks for p in trick), *current]
        played = {seat: [c for s, c in plays if s == seat] for seat in range(3)}
        known = set(view.hand) | set(view.discarded) | {c for _, c in plays}
        pool = [c for c in DECK_48 if c not in known]
        voids = _voids([*tricks, current] if current else tricks, view.contract)
        need = {seat: 12 - len(played[seat]) for seat in range(3) if seat != view.seat}
        hands = _deal_hidden(pool, need, voids, rng)
        if hands is None:
            return None
        talon = [c for c in pool if not any(c in h for h in hands.values())] + list(view.discarded)
        start = [
            [*view.hand, *played[seat]] if seat == view.seat else [*hands[seat], *played[seat]] for seat in range(3)
        ]
        deal = dreyfus.new_deal(self.rules, start, talon, view.contract, view.dealer, deal_number=view.deal_number)
        while deal.phase is Phase.EXCHANGE:
            deal = deal.apply(Stand())
        for seat, card in plays:
            if deal.to_move != seat:
                return None
            deal = deal.apply(Play(card))
        return deal if deal.to_move == view.seat else None


def _voids(tricks: Sequence[Sequence[tuple[int, Card]]], trump: Any) -> dict[int, set[Any]]:
    """The suits each seat has shown void in: it did not follow the suit led."""
    voids: dict[int, set[Any]] = {}
    for trick in tricks:
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit != led:
                voids.setdefault(seat, set()).add(led)
    return voids


def _deal_hidden(
    pool: Sequence[Card], need: dict[int, int], voids: dict[int, set[Any]], rng: random.Random
) -> dict[int, list[Card]] | None:
    """Deal ``need[seat]`` cards of ``pool`` to each seat, none of a suit it is void in."""
    for _ in range(8):
        cards = list(pool)
        rng.shuffle(cards)
        hands: dict[int, list[Card]] = {}
        ok = True
        for seat in sorted(need, key=lambda s: -len(voids.get(s, ()))):
            void = voids.get(seat, set())
            chosen = [c for c in cards if c.suit not in void][: need[seat]]
            if len(chosen) < need[seat]:
                ok = False
                break
            hands[seat] = chosen
            taken = set(chosen)
            cards = [c for c in cards if c not in taken]
        if ok:
            return hands
    return None
