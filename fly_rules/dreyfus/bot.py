"""Dreyfus's rule-of-thumb bot (:class:`fly_rules.bots.RuleOfThumbBot` plays it for a Dreyfus view): buy
the low plain фоски, then win each trick as cheaply as possible. A few lines of card sense, no search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fly_rules.actions import Action, Exchange, Stand
from fly_rules.cards import CardSet, Rank
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.state import DreyfusDeal, DreyfusView
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Sample
from fly_rules.engine.hints import Concept
from fly_rules.tricks import card_strength, cheapest_winner

__all__ = ["DreyfusExpertHints", "DreyfusRuleOfThumbBot"]


class DreyfusRuleOfThumbBot:
    """The rule-of-thumb player of Dreyfus: buy low plain фоски, then win cheaply."""

    name = "rule-of-thumb"
    """The bot's name in tables."""

    def __init__(self, highest_discard: Rank = Rank.NINE) -> None:
        self.highest_discard = highest_discard

    def choose(self, view: DreyfusView, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Buy in the exchange; play to win cheaply."""
        trump = view.contract
        if view.phase is Phase.PLAY:
            return cheapest_winner(legal_actions, [c for _, c in view.trick], trump)
        wanted = sorted(
            (c for c in view.hand if c.suit != trump and c.rank <= self.highest_discard),
            key=lambda c: c.rank,
        )[: view.talon_left]
        while wanted:
            action = Exchange(CardSet.of(wanted))
            if action in legal_actions:
                return action
            wanted.pop()
        return Stand()


class DreyfusExpertHints:
    """What the expert bot (:class:`fly_rules.bots.ExpertBot`) needs to know of Dreyfus: which exchanges are
    worth searching, and how a guessed deal stands for the view.

    Args:
        rules: the rules played.
    """

    concept: Concept = "paranoid"
    """The solver's concept of the open analysis: the seat's own tricks against the other two (max^n of twelve
    tricks is out of reach; see :mod:`fly_rules.solve`)."""
    expert_concept: Concept = "paranoid"
    """The concept the expert solves its guesses by (as :attr:`concept`)."""
    model_others = False
    """The expert assumes nothing of the other seats (the paranoid search of each guess)."""
    samples = 6
    """Guessed deals per decision by default."""
    budget = 400_000
    """Positions the solves of one decision may visit in all, by default."""

    def __init__(self, rules: DreyfusRules) -> None:
        self.rules = rules

    def candidates(self, view: DreyfusView, legal_actions: Sequence[Action]) -> list[Action]:
        """The exchanges worth searching, in ``legal_actions`` order: standing, and for each number of cards the
        exchange of that many of the weakest cards that may go (plain low cards first, trumps last) [DRF-4.2]
        [DRF-4.3]."""
        trump = view.contract
        allowed = [card for card in view.hand if Exchange(CardSet.of([card])) in legal_actions]
        weakest = sorted(allowed, key=lambda card: card_strength(card, trump))
        wanted = {Exchange(CardSet.of(weakest[:count])) for count in range(1, len(weakest) + 1)}
        return [a for a in legal_actions if not isinstance(a, Exchange) or a in wanted]

    def default_declaration(self, view: DreyfusView, legal_actions: Sequence[Action]) -> Action | None:
        """Standing, where the seat may stand: the exchange the expert keeps unless its search finds a clearly
        better one. Every card bought is written in the upper record [DRF-4.5]; on 1,000 paired deals, standing
        and then playing by the rule of thumb gained 1.36 [1.27, 1.45] a deal over the rule of thumb's purchase
        (``benchmarks/dreyfus_standing.py``), and a search of a whole Dreyfus deal per candidate seldom fits the
        expert's budget often enough to tell."""
        return Stand() if Stand() in legal_actions else None

    def world(self, view: DreyfusView, sample: Sample) -> DreyfusDeal:
        """The guessed deal itself: a seat's score changes by its tricks, whatever the records [DRF-7.2] [DRF-7.3]."""
        deal: DreyfusDeal = sample.deal
        return deal

    def replay_records(self, view: DreyfusView) -> None:
        """None: a guess is replayed from the guess's own records (a seat's score changes by its tricks, whatever
        the records)."""
