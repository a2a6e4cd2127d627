"""A determinised Monte-Carlo bot: guess the hidden cards, play each choice out, keep the best.

In the play of a deal the bot guesses the cards it cannot see with
:func:`~fly_rules.bots.sampling.sample_deal` (a whole deal that looks to its seat exactly like its
view), then plays each of its legal cards and the rest of the deal with the rule-of-thumb policy for
every seat, and keeps the card with the best average result for itself. A guess that fails is drawn
again. In the exchange it follows the rule of thumb.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fly_rules import registry
from fly_rules._numbers import check_count
from fly_rules.actions import Action
from fly_rules.bots.sampling import sample_deal
from fly_rules.engine import Phase
from fly_rules.engine.protocols import Bot, Rules, SeatView

__all__ = ["MonteCarloBot"]

_BIG = 10_000  # a record far from zero: the playouts never end the match


class MonteCarloBot:
    """Determinised Monte-Carlo search over the cards to play.

    Args:
        rules: the rules of the game played (:class:`~fly_rules.fly.FlyRules`,
            :class:`~fly_rules.dreyfus.DreyfusRules` or another registered game's).
        samples: guesses of the hidden cards per decision (default: the game's ``playout_samples``,
            24 for Fly, 8 for Dreyfus, whose deals are longer).

    Raises:
        TypeError: ``rules`` are no registered game's.
        FlyRulesError: ``samples`` is not a whole number >= 1.
    """

    name = "monte-carlo"
    """The bot's name in tables."""

    def __init__(self, rules: Rules, samples: int | None = None) -> None:
        self.rules = rules
        game = registry.rules_game(rules)
        self._far_records = game.playout_far_records  # Fly's records end the match at zero
        self.samples = check_count(samples, "samples", 1) if samples is not None else game.playout_samples
        self.policy: Bot[Any] = game.rule_of_thumb(rules.rank_order)

    def choose(self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
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
        return float(state.scores[seat] - start.scores[seat])

    # --- guessing the hidden cards --------------------------------------------------------

    def _determinise(self, view: SeatView, rng: random.Random) -> Any:
        """A deal consistent with ``view``, at the same point of play, or None if the guess fails."""
        records = (_BIG,) * self.rules.players if self._far_records else None
        sample = sample_deal(view, self.rules, rng, records=records, tries=1)
        return None if sample is None else sample.deal
