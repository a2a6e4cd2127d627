"""The expert bot: perfect-information Monte Carlo over the exact solver, for every decision.

At each decision the bot guesses the cards it cannot see (:func:`~fly_rules.bots.sampling.sample_deal`: the
other hands, the discards and, in Fly, the order of the stock), so that each guessed deal looks to its seat
exactly like its view. It solves each guessed deal with :mod:`fly_rules.solve` and keeps the action with the
best mean value for itself over the guesses (the first in the solver's tie order among equals):

- in the play, the value of each legal card in each guess (:func:`fly_rules.solve.evaluate`);
- in the exchange (Fly's declarations, Dreyfus's purchase), the value of each declaration worth searching (the
  game's hints name them: stand, fold, each number of the weakest cards exchanged): the declaration is made in
  the guessed deal, the seats after it declare as the rule-of-thumb bot would, and the play that follows is
  solved from the first lead.

The solver's concept is the game's (Fly: max^n, every seat for itself; Dreyfus: paranoid, its own tricks
against the other two). The guesses come from the ``rng`` handed to :meth:`ExpertBot.choose`, so a match between
bots replays from its seeds; ``seconds`` caps the time a decision may take (then the number of guesses depends
on the machine, and replays may differ).

>>> import random
>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=3), seed=4, dealer=0)
>>> bot = ExpertBot(match.rules, samples=4)
>>> bot.choose(match.view(match.to_move), match.legal_actions(), random.Random(1)) in match.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from fly_rules import registry
from fly_rules.bots.sampling import sample_deal
from fly_rules.engine import Phase
from fly_rules.solve import Search, SolveLimitReached, evaluate, kernel_of

__all__ = ["ExpertBot"]


class ExpertBot:
    """Perfect-information Monte Carlo over the exact solver (see the module's text).

    Args:
        rules: the rules of the game played.
        samples: guessed deals per decision (default: the game's, 12 for Fly, 6 for Dreyfus).
        seconds: if given, a decision stops guessing once it has used this much CPU time (at least one guess).
        limit: the most positions one solve may visit; a guess whose solve needs more is dropped.
    """

    name = "expert"
    """The bot's name in tables."""

    def __init__(
        self, rules: Any, samples: int | None = None, seconds: float | None = None, limit: int | None = 2_000_000
    ) -> None:
        game = registry.game_of(rules)
        if game.expert is None:
            raise TypeError(f"the expert bot does not know how to play {game.title}")
        self.rules = rules
        self.hints = game.expert(rules)
        self.samples = samples if samples is not None else self.hints.samples
        self.seconds = seconds
        self.limit = limit
        self.concept = self.hints.concept
        self.policy = game.rule_of_thumb(rules.rank_order)
        self.decisions: list[float] = []
        """The CPU seconds each decision took (with more than one legal action)."""

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The action with the best mean value over the guessed deals."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        started = time.process_time()
        playing = view.phase is Phase.PLAY
        candidates = list(legal_actions) if playing else self.hints.candidates(view, legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        totals = dict.fromkeys(candidates, 0.0)
        guessed = 0
        for _ in range(self.samples * 3):
            if guessed == self.samples or (
                guessed and self.seconds is not None and time.process_time() - started > self.seconds
            ):
                break
            sample = sample_deal(view, self.rules, rng, records=getattr(view, "records", None), tries=1)
            if sample is None:
                continue
            deal = self.hints.world(view, sample)
            values = self._solve(deal, view.seat) if playing else self._declaration_values(deal, view, candidates)
            if values is None:
                continue
            guessed += 1
            for action in candidates:
                totals[action] += values[action]
        self.decisions.append(time.process_time() - started)
        if not guessed:
            return self.policy.choose(view, legal_actions, rng)
        return max(candidates, key=totals.__getitem__)  # max keeps the first of equals: the tie order

    def _solve(self, deal: Any, seat: int) -> dict[Any, int] | None:
        """Each legal action's value for ``seat`` in ``deal``, or None past the limit."""
        concept = "paranoid" if self.concept == "paranoid" else "maxn"
        try:
            return evaluate(deal, concept=concept, seat=seat, search=Search(kernel_of(deal), self.limit))
        except SolveLimitReached:
            return None

    def _declaration_values(self, deal: Any, view: Any, candidates: list[Any]) -> dict[Any, int] | None:
        """Each candidate declaration's value for the seat: made in ``deal``, then the later seats declare by
        the rule of thumb and the play is solved."""
        seat = view.seat
        start = deal.scores[seat]
        values = {}
        for action in candidates:
            after = deal.apply(action)
            while after.phase is Phase.EXCHANGE:
                mover = after.to_move
                after = after.apply(self.policy.choose(after.view(mover), after.legal_actions(), random.Random(0)))
            if after.is_over:
                values[action] = after.scores[seat] - start
                continue
            solved = self._playout(after, seat) if getattr(self, "playout", False) else self._solve_from(after, seat)
            if solved is None:
                return None
            values[action] = solved - start
        return values

    def _playout(self, deal: Any, seat: int) -> int:
        rng = random.Random(0)
        while not deal.is_over:
            mover = deal.to_move
            deal = deal.apply(self.policy.choose(deal.view(mover), deal.legal_actions(), rng))
        return deal.scores[seat]

    def _solve_from(self, deal: Any, seat: int) -> int | None:
        """``seat``'s score at the end of ``deal`` (in play) under the solver's concept, or None past the limit."""
        search = Search(kernel_of(deal), self.limit)
        node = search.kernel.node(deal)
        try:
            if self.concept == "paranoid":
                return search.paranoid_exact(node, seat)
            return search.maxn(node)[seat]
        except SolveLimitReached:
            return None
