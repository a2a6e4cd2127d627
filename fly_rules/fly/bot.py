"""Fly's rule-of-thumb bot (:class:`fly_rules.bots.RuleOfThumbBot` plays it for a Fly view): fold a hand
with no trump and no ace, exchange the low plain cards, take the trump card when it is worth it, and win
each trick as cheaply as possible. A few lines of card sense, no search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import ACE_HIGH, Card, CardSet, Rank, RankOrder, Suit
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Sample
from fly_rules.errors import RuleViolation
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.positions import new_deal
from fly_rules.fly.state import FlyDeal, FlyView
from fly_rules.tricks import card_strength, cheapest_winner

__all__ = ["FlyExpertHints", "FlyRuleOfThumbBot"]


class FlyRuleOfThumbBot:
    """The rule-of-thumb player of Fly.

    Args:
        order: the rank order of the rules played (``rules.rank_order``).
    """

    name = "rule-of-thumb"
    """The bot's name in tables."""

    def __init__(self, order: RankOrder = ACE_HIGH) -> None:
        self.order = order

    def _good(self, card: Card, trump: Suit) -> bool:
        """A card worth keeping: a trump, an ace or a king, the A♠."""
        return card.suit == trump or self.order.strength[card.rank] >= self.order.strength[Rank.KING]

    def choose(self, view: FlyView, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Declare by the hand's strength; play to win cheaply."""
        if view.phase is Phase.PLAY:
            return cheapest_winner(legal_actions, [c for _, c in view.trick], view.trump, self.order)
        trump = view.trump
        hand = view.hand
        good = [c for c in hand if self._good(c, trump)]
        swaps = [a for a in legal_actions if hasattr(a, "card") and not isinstance(a, Play)]  # the trump card
        if swaps and self.order.strength[view.trump_card.rank] >= self.order.strength[Rank.TEN]:
            return min(swaps, key=lambda a: card_strength(a.card, trump, self.order))
        can_fold = any(isinstance(a, Fold) for a in legal_actions)
        if not good and can_fold:
            return Fold()
        weak = CardSet.of(c for c in hand if not self._good(c, trump))
        if weak:
            exchanges = [a for a in legal_actions if isinstance(a, Exchange) and a.cards <= weak]
            if exchanges:
                return max(exchanges, key=lambda a: (len(a.cards), -sum(self.order.strength[c.rank] for c in a.cards)))
        return Stand()


class FlyExpertHints:
    """What the expert bot (:class:`fly_rules.bots.ExpertBot`) needs to know of Fly: which declarations are
    worth searching, and a seat's records when the deal began (the guessed deals are replayed from there).

    Args:
        rules: the rules played.
    """

    concept = "maxn"
    """The solver's concept of the open analysis: every seat for itself [FLY-1.5]."""
    expert_concept = "paranoid"
    """The concept the expert solves its guesses by: its own score against the rest. On the same deals its play is
    as strong as by max^n, and the search is four to five times cheaper (alpha-beta prunes where max^n cannot)."""
    model_others = True
    """The expert takes the other seats to play like the rule of thumb: it values each guessed deal by its best
    response to them (:mod:`fly_rules.solve.respond`), and prefers the guesses where the rule of thumb would have
    made the others' moves."""
    samples = 12
    """Guessed deals per decision in the play by default."""
    declaration_samples = 64
    """Guessed deals per declaration by default."""
    sight_free_declarations = True
    """A declaration is valued with the seat playing the rest of each guessed deal like the model, as it could
    without seeing the guess's cards. A best response there would see them, and would value standing on a
    marginal hand as if it knew where every card lay (strategy fusion); played on like the model the values are
    cheaper too, which buys four times the guesses."""
    draws = 4
    """Guesses drawn per guessed deal wanted, to find those the model agrees with."""
    budget = 1_000_000
    """Positions the searches of one decision may visit in all, by default."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.order: RankOrder = rules.rank_order

    def match_chance(self) -> Callable[[Sequence[int], int], float] | None:
        """A seat's chance of winning the match from the records (:func:`fly_rules.fly.race.race_of`), or None
        where the rules are not a race of whole tricks to zero."""
        from fly_rules.fly.race import race_of  # noqa: PLC0415 (the race plays rule-of-thumb deals: this module)

        race = race_of(self.rules)
        return None if race is None else race.chance

    def candidates(self, view: FlyView, legal_actions: Sequence[Any]) -> list[Any]:
        """The declarations worth searching, in ``legal_actions`` order: standing, folding, each swap of the
        trump card, and for each number of cards the exchange of that many of the weakest (plain low cards
        first, trumps and the A♠ last) [FLY-4.2]."""
        trump = view.trump
        weakest = sorted(view.hand, key=lambda card: (card.index == 51, card_strength(card, trump, self.order)))
        wanted = {Exchange(CardSet.of(weakest[:count])) for count in range(1, len(weakest) + 1)}
        return [a for a in legal_actions if not isinstance(a, Exchange) or a in wanted]

    def world(self, view: FlyView, sample: Sample) -> FlyDeal:
        """The guessed deal of ``sample`` with every record as ``view`` shows it now.

        The guess replays the deal from the records now (it cannot know them at the deal's start); the
        tricks replayed then wrote off what they wrote off in the guessed deal (which may give the A♠ to
        another seat). So the deal is dealt again from the records now less what the replay wrote off, and
        its records come out as the view's [FLY-8.2] [FLY-8.3]; where a record went through zero or an
        overshoot on the way (FLY-9.1, FLY-9.2) the first replay stands."""
        rebuilt = self._rebuilt(view, sample, None)
        assert rebuilt is not None  # the sample's own deal stands when nothing better is found
        return rebuilt[0]

    def modelled(self, view: FlyView, sample: Sample, model: Any) -> tuple[FlyDeal, int] | None:
        """``sample``'s deal as players who play like ``model`` would have come to it, with every record as
        :meth:`world` gives it, and how many of the other seats' moves the model would have made otherwise;
        None if the model's declarations cannot lead to the view's play.

        Where the model makes an exchange (or a swap of the trump card) of as many cards as the guess, its
        own choice of cards replaces the guess's: the cards given are hidden, so the view is the same, and
        the guess then holds what the model would have kept [FLY-4.2] [FLY-4.4]."""
        return self._rebuilt(view, sample, model)

    def _rebuilt(self, view: FlyView, sample: Sample, model: Any) -> tuple[FlyDeal, int] | None:
        """:meth:`world` (``model`` None: the sample's own moves) or :meth:`modelled`: replayed from the records
        now, then, if those came out otherwise, again from the records worked back."""
        first = (sample.deal, 0) if model is None else self._replay(view, sample, view.records, model)
        if first is None or first[0].records == view.records:
            return first
        start = tuple(2 * now - replayed for now, replayed in zip(view.records, first[0].records, strict=True))
        if min(start) < 0:
            return first
        again = self._replay(view, sample, start, model)
        return again if again is not None and again[0].records == view.records else first

    def _replay(
        self, view: FlyView, sample: Sample, records: tuple[int, ...], model: Any
    ) -> tuple[FlyDeal, int] | None:
        """The sample dealt from ``records`` and its moves replayed, the others' as ``model`` would make them where
        the view cannot tell them apart (every move as guessed if ``model`` is None), and the model's misses."""
        deal = new_deal(
            self.rules,
            hands=sample.hands,
            trump_card=view.trump_card,
            stock=sample.stock,
            dealer=view.dealer,
            records=records,
        )
        misses = 0
        for guessed in sample.actions:
            mover = deal.to_move
            action = guessed
            if model is not None and mover is not None and mover != view.seat:
                theirs = model.choose(deal.view(mover), deal.legal_actions(), random.Random(0))
                if theirs != guessed:
                    if _alike(theirs, guessed):
                        action = theirs
                    else:
                        misses += 1
            try:
                deal = deal.apply(action)
            except RuleViolation:
                return None
        return deal, misses


def _alike(mine: Any, guessed: Any) -> bool:
    """Two declarations a seat's view cannot tell apart: exchanges of as many cards, swaps of the trump card."""
    if isinstance(mine, Exchange) and isinstance(guessed, Exchange):
        return len(mine.cards) == len(guessed.cards)
    return isinstance(mine, SwapTrump) and isinstance(guessed, SwapTrump)
