"""The expert bot: perfect-information Monte Carlo over exact search, for every decision.

At each decision the bot guesses the cards it cannot see (:func:`~fly_rules.bots.sampling.sample_deal`: the
other hands, the discards and, in Fly, the order of the stock), so that each guessed deal looks to its seat
exactly like its view. It searches each guessed deal with every card open and keeps the action with the best
mean value for itself over the guesses (the first in the tie order among equals). How a guess is searched
depends on what the bot takes the other seats to be (``model``; the game's hints choose by default):

- **A model of the others** (Fly's default: they play like the rule-of-thumb bot). A guess is valued by the seat's
  best response to the model (:mod:`fly_rules.solve.respond`): the seat tries each of its actions, the others make
  the model's. The guesses are chosen to look as if the model had made the others' moves. They are drawn as the
  model's declarations imply, where the hints know how (``guesser``: in Fly, a seat that folded like the rule of
  thumb held no trump, ace or king), without the cards the others' plays rule out (the hints' ``inferred``: a seat
  that led a plain card holds no trump); should that find no deal as many times in a row as the bot wants guesses,
  it guesses as the game does. It draws up to ``draws`` guesses per guess it wants, replays each with the model's
  own exchanges where they give as many cards as the guess (the cards given are hidden), and keeps those where the
  model would have made the fewest of the others' moves otherwise. In the exchange each declaration worth
  searching (the hints name them: stand, fold, each number of the weakest cards exchanged) is made in the guess
  and the rest of the deal searched the same way, except that where the hints say ``sight_free_declarations``
  (Fly's do) the seat then plays on like the model: it will not see the guess's cards when it plays, and a best
  response that sees them values standing on a marginal hand too high. The best mean wins. What the end of a
  guessed deal is worth is the seat's chance of winning the match from the records where the game has a race model
  for the rules (Fly's :mod:`~fly_rules.fly.race`, the hints' ``match_chance``): a trick that wins the match, or
  stops another seat from winning it, outweighs the remise then; elsewhere, or with ``for_match=False``, its
  record points.
- **No model** (``model=None``; Dreyfus's default). Each guess is solved by the paranoid concept (the seat's own
  score against all the others, ``expert_concept`` of the game's hints): in the play the value of each legal
  card (:func:`fly_rules.solve.evaluate`); in the exchange each declaration worth searching is made, the seats
  after it declare as the rule-of-thumb bot would, and the play is solved from the first lead. Paranoid values
  are bounds, not expectations, and a declaration is valued on few guesses, so a default declaration stands
  unless another beats it, on the same guesses, by more than twice the standard error of the difference. The
  default is the one the game's hints name (``default_declaration``: in Dreyfus, standing), else the rule of
  thumb's; it is also kept when no guess could be solved within the budget.

Against rule-of-thumb players the model is right, and the best response gains more than the paranoid search
(the docs' solver page gives the measurements). Against other players the model is a guess about them; the
ladder (``benchmarks/ladder.py``) plays the expert at mixed tables.

The guesses come from the ``rng`` handed to :meth:`ExpertBot.choose`, and the work of a decision is bounded by
a number of positions (``budget``), so a match between bots replays from its seeds; ``seconds`` caps the time a
decision may take instead (then the number of guesses depends on the machine, and replays may differ).

>>> import random
>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=3), seed=4, dealer=0)
>>> bot = ExpertBot(match.rules, samples=4)
>>> bot.choose(match.view(match.to_move), match.legal_actions(), random.Random(1)) in match.legal_actions()
True
"""

from __future__ import annotations

import functools
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from fly_rules import registry
from fly_rules._numbers import check_count, check_seconds
from fly_rules.actions import Action
from fly_rules.bots.monte_carlo import MonteCarloBot
from fly_rules.bots.sampling import sample_deal
from fly_rules.engine import Phase
from fly_rules.engine.hints import ExpertHints, ModelHints
from fly_rules.engine.protocols import Bot, GameState, Rules, SeatView
from fly_rules.errors import FlyRulesError, shown
from fly_rules.solve import Concept, Search, SolveLimitReached, SolveTimeUp, evaluate, kernel_of
from fly_rules.solve.respond import Respond

__all__ = ["GAME_MODEL", "ExpertBot"]

GAME_MODEL: Final = object()
"""The default of :class:`ExpertBot`'s ``model``: the game's own choice (its hints' ``model_others``)."""


def _checked(
    samples: object, budget: object, seconds: object, model: object, for_match: object
) -> tuple[int | None, int | None, float | None]:
    """The expert's arguments, refused where the bot could not use them (``samples=0`` would leave every decision to
    the Monte-Carlo bot without a word): samples, budget and seconds as read."""
    if model is not GAME_MODEL and model is not None and not isinstance(model, Bot):
        raise TypeError(f"model must be a bot (with choose(view, legal_actions, rng)) or None, not {shown(model)}")
    if for_match is not None and type(for_match) is not bool:
        raise FlyRulesError(f"for_match must be None, True or False, not {shown(for_match)}")
    return (
        None if samples is None else check_count(samples, "samples", 1),
        None if budget is None else check_count(budget, "budget"),
        None if seconds is None else check_seconds(seconds, "seconds"),
    )


class ExpertBot:
    """Perfect-information Monte Carlo over the exact solver (see the module's text).

    Args:
        rules: the rules of the game played.
        samples: guessed deals per decision (default: the game's, 12 for Fly, 6 for Dreyfus; by default Fly's
            declarations take its hints' ``declaration_samples``, 64).
        budget: the most positions the solves of one decision may visit in all (default: the game's); a guess
            whose solve would go past it is dropped, and a decision none of whose guesses could be solved is left
            to the Monte-Carlo bot. A budget of positions, unlike one of time, keeps a match reproducible.
        seconds: if given, a decision also stops guessing once it has used this much CPU time (at least one
            guess); then the number of guesses depends on the machine.
        model: the bot the other seats are taken to play like (it is asked with ``random.Random(0)``, so a
            deterministic bot is best), or None to assume nothing of them (the paranoid search); by default the
            game's choice: the rule of thumb in Fly, None in Dreyfus.
        for_match: against a model, value the end of each guessed deal by the seat's chance of winning the match
            from the records (the game's race model, the hints' ``match_chance``) instead of its record points;
            None (the default): wherever the game has a race model for the rules (Fly's plain rules).

    Raises:
        TypeError: the game has no expert hints, takes no model, or (``for_match=True``) has no race model; or
            ``model`` is not a bot.
        FlyRulesError: ``samples`` is not a whole number >= 1, ``budget`` not one >= 0, ``seconds`` not above 0, or
            ``for_match`` not None, True or False.
    """

    name = "expert"
    """The bot's name in tables."""

    def __init__(
        self,
        rules: Rules,
        samples: int | None = None,
        budget: int | None = None,
        seconds: float | None = None,
        model: Any = GAME_MODEL,
        for_match: bool | None = None,
    ) -> None:
        game = registry.rules_game(rules)
        samples, budget, seconds = _checked(samples, budget, seconds, model, for_match)
        if game.expert is None:
            raise TypeError(f"the expert bot does not know how to play {game.title}")
        self.rules = rules
        hints = game.expert(rules)
        if not isinstance(hints, ExpertHints):
            raise TypeError(f"{game.title}'s expert hints are not an ExpertHints: {type(hints).__name__}")
        self.hints: ExpertHints[Any] = hints
        """The game's hints."""
        self.modelling: ModelHints[Any] | None = hints if isinstance(hints, ModelHints) else None
        """The same hints where they also tell how to play against a model of the others; else None."""
        self.samples: int = samples if samples is not None else hints.samples
        self.declaration_samples: int = (
            self.samples if samples is not None or self.modelling is None else self.modelling.declaration_samples
        )
        """Guessed deals per declaration (``samples`` if given, else the game's)."""
        self.budget = budget if budget is not None else self.hints.budget
        self.seconds = seconds
        self.concept: Concept = self.hints.expert_concept
        self.policy = game.rule_of_thumb(rules.rank_order)
        self.fallback = MonteCarloBot(rules)
        if model is GAME_MODEL:
            model = self.policy if hints.model_others and self.modelling is not None else None
        elif model is not None and self.modelling is None:
            raise TypeError(f"the expert cannot take a model of the other seats in {game.title} (model=None)")
        self.model: Any = model
        """The bot the other seats are taken to play like (None: the solver's concept assumes nothing of them)."""
        self.sight_free: bool = self.modelling is not None and self.modelling.sight_free_declarations
        """Whether a declaration is valued with the seat playing on like the model (the hints' choice)."""
        self.for_match = for_match
        """Whether the search values the seat's chance of winning the match (None: wherever the game can)."""
        if for_match and self.match_chance is None:
            raise TypeError(f"the expert has no race model for these rules of {game.title} (for_match=False)")
        self.deadline: float | None = None
        """A ``time.monotonic()`` instant at which a search still running raises
        :class:`~fly_rules.solve.search.SolveTimeUp` (None: none), for a caller with a bound on all its work."""
        self.keep_guesses = False
        """Past the ``deadline``, take the decision on the guesses solved by then (the rule of thumb's if none)
        instead of raising :class:`~fly_rules.solve.search.SolveTimeUp`: for a hint that must answer in time."""
        self._left = self.budget
        self._worlds: list[Mapping[Any, float]] = []  # the last decision's values, guess by guess
        self.decisions: list[float] = []
        """The CPU seconds each decision took (with more than one legal action)."""

    @property
    def positions(self) -> int:
        """The positions the last decision's searches visited, in all its guesses: at most its ``budget`` and a
        few more (a search stops once past it)."""
        return self.budget - self._left

    @property
    def guesses(self) -> tuple[Mapping[Any, float], ...]:
        """The last decision's values guess by guess (each guess solved, in the order drawn), whose means
        :meth:`values` gives: what an interval around each mean is computed from. Empty when no guess was solved."""
        return tuple(self._worlds)

    def _means(self) -> dict[Any, float]:
        """The mean value of each action over the guesses solved so far (empty if none), in their order."""
        totals: dict[Any, float] = {}
        for world in self._worlds:
            for action, value in world.items():
                totals[action] = totals.get(action, 0.0) + value
        return {action: total / len(self._worlds) for action, total in totals.items()}

    @functools.cached_property
    def match_chance(self) -> Callable[[Sequence[int], int], float] | None:
        """The seat's chance of winning the match from the records, which the search maximises; None: record
        points (see ``for_match``). Made at the first decision that needs it: the race counts its deals then."""
        if self.for_match is False or self.model is None or self.modelling is None:
            return None
        return self.modelling.match_chance()

    def choose(self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The action with the best mean value over the guessed deals (the Monte-Carlo bot's if none was solved)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        started = time.process_time()
        action: Action = self.decide(view, legal_actions, rng)[0]
        self.decisions.append(time.process_time() - started)
        return action

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Any, dict[Any, float]]:
        """The action :meth:`choose` takes, and the :meth:`values` it took it by (empty when the Monte-Carlo bot
        decided).

        In the play it is the best mean. In the exchange the default declaration (the hints' own, else the rule
        of thumb's) stands unless another beats it on the same guesses by more than twice the standard error of
        the difference: a declaration is valued on few guesses, and the best of several noisy means is more often
        lucky than good. With no guess solved, the hints' default declaration is kept if they name one."""
        late = False
        try:
            values = self.values(view, legal_actions, rng)
        except SolveTimeUp:
            if not self.keep_guesses:
                raise
            values, late = self._means(), True
        if not values:
            named = self._named_default(view, legal_actions)  # None in the play
            if named is None:  # past the deadline there is no time for the Monte-Carlo bot's playouts
                named = (self.policy if late else self.fallback).choose(view, legal_actions, rng)
            return named, values
        best = max(values, key=values.__getitem__)  # max keeps the first of equals: the tie order
        if view.phase is Phase.PLAY or self.model is not None:
            return best, values
        default = self._default(view, legal_actions)  # searched too: values() adds it to the candidates
        if best == default:
            return best, values
        differences = [world[best] - world[default] for world in self._worlds]
        if len(differences) < 2:
            return default, values
        error = statistics.stdev(differences) / math.sqrt(len(differences))
        return (best if statistics.fmean(differences) > 2 * error else default), values

    def values(self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random) -> dict[Any, float]:
        """The mean value for the seat of each action searched (in the play every legal card, in the exchange
        the game's candidates), in tie order; empty if no guess could be solved."""
        started = time.process_time()
        self._worlds = []
        playing = view.phase is Phase.PLAY
        self._left = self.budget
        candidates = list(legal_actions) if playing else self.hints.candidates(view, legal_actions)
        if len(candidates) == 1:
            return {candidates[0]: 0.0}
        default = None if playing else self._default(view, legal_actions)
        if default is not None and default not in candidates:
            candidates.append(default)
        if self.model is not None:
            return self._modelled_values(view, candidates, rng, started)
        totals: dict[Any, float] = {}
        guessed = 0
        for _ in range(self.samples * 3):
            if guessed == self.samples or (
                guessed and self.seconds is not None and time.process_time() - started > self.seconds
            ):
                break
            sample = sample_deal(view, self.rules, rng, records=self._replay_records(view), tries=1)
            if sample is None:
                continue
            deal = self.hints.world(view, sample)
            found = self._solve(deal) if playing else self._declaration_values(deal, view, candidates)
            if found is None:  # past the budget: a search stops only there
                break
            guessed += 1
            self._worlds.append(found)
            for action, value in found.items():
                totals[action] = totals.get(action, 0.0) + value
        return {action: total / guessed for action, total in totals.items()}

    def _modelled_values(
        self, view: SeatView, candidates: list[Any], rng: random.Random, started: float
    ) -> dict[Any, float]:
        """:meth:`values` against the model: each guess valued by the seat's best response to it."""
        playing = view.phase is Phase.PLAY
        count = self.samples if playing else self.declaration_samples
        choices = None if playing else self._choices
        totals = dict.fromkeys(candidates, 0.0)
        for _, deal in self.kept_guesses(view, rng, count)[0]:
            if self._worlds and self.seconds is not None and time.process_time() - started > self.seconds:
                break
            respond = Respond(view.seat, self.model, choices, self._left, self._worth(view.seat), self.deadline)
            try:
                found = respond.values(deal, candidates)
            except SolveLimitReached:
                break
            finally:
                self._left -= respond.nodes
            self._worlds.append(found)
            for action, value in found.items():
                totals[action] += value
        guessed = len(self._worlds)
        return {action: total / guessed for action, total in totals.items()} if guessed else {}

    def _worth(self, seat: int) -> Callable[[Any], float] | None:
        """What a position is worth to ``seat`` in the search: its chance of winning the match, or (None) its score."""
        chance = self.match_chance
        if chance is None:
            return None
        return lambda state: chance(state.records, seat)

    def _choices(self, state: Any, legal_actions: Sequence[Action]) -> list[Any]:
        """The seat's actions worth searching in a guessed deal after a declaration: in the exchange the hints'
        candidates; in the play every legal card, or only the model's if the hints value declarations sight-free
        (``sight_free_declarations``)."""
        if state.phase is Phase.PLAY:
            if self.sight_free:
                return [self.model.choose(state.view(state.to_move), legal_actions, random.Random(0))]
            return list(legal_actions)
        return self.hints.candidates(state.view(state.to_move), legal_actions)

    def kept_guesses(
        self, view: SeatView, rng: random.Random, count: int, *, guided: bool = True
    ) -> tuple[list[tuple[int, Any]], int]:
        """The ``count`` guessed deals the bot keeps at ``view`` against its model, each with its misses (the others'
        moves the model would have made otherwise), and how many guesses it drew for them.

        Of up to ``hints.draws`` guesses per deal wanted (drawn with the hints' ``guesser`` and without what their
        ``inferred`` rules out, until ``count`` in a row find no deal; ``guided=False``: the game's own guess only),
        it keeps those with the fewest misses (in the order drawn among equals), each as the model would have
        declared; it stops drawing once ``count`` have none."""
        hints = self.modelling
        if hints is None:
            raise TypeError(f"the expert takes no model of the other seats in {registry.game_of(view).title}")
        found: list[tuple[int, Any]] = []
        agreeing = drawn = 0
        records = self._replay_records(view)
        guesser = hints.guesser(self.model) if guided else None
        infer = hints.inferred if guided and view.phase is Phase.PLAY else None
        forbidden = None
        failed = 0  # guesses in a row that found no deal
        for _ in range(count * hints.draws):
            drawn += 1
            sample = sample_deal(view, self.rules, rng, records=records, tries=1, forbidden=forbidden, guesser=guesser)
            if sample is None:
                failed += 1
                if failed >= count:  # what the model implies leaves too few deals to find: the game's own guess
                    guesser = forbidden = None
                continue
            failed = 0
            if infer is not None:
                forbidden, infer = infer(view, sample, self.model), None
            modelled = hints.modelled(view, sample, self.model)
            if modelled is None:
                continue
            deal, misses = modelled
            found.append((misses, deal))
            agreeing += not misses
            if agreeing == count:
                break
        found.sort(key=lambda entry: entry[0])  # stable: in the order drawn among equals
        return found[:count], drawn

    def _replay_records(self, view: SeatView) -> tuple[int, ...] | None:
        """The records a guess replays the deal from: the hints' ``replay_records`` (in Fly, high enough that the
        replay cannot end the match; None: the guess's own)."""
        return self.hints.replay_records(view)

    def _named_default(self, view: SeatView, legal_actions: Sequence[Action]) -> Any:
        """The declaration the game's hints name as the one to keep (``default_declaration``), or None."""
        return self.hints.default_declaration(view, legal_actions)

    def _default(self, view: SeatView, legal_actions: Sequence[Action]) -> Any:
        """The declaration kept unless another is clearly better: the hints' own, else the rule of thumb's."""
        named = self._named_default(view, legal_actions)
        return named if named is not None else self.policy.choose(view, legal_actions, random.Random(0))

    def _search(self, deal: GameState) -> Search[Any, Any]:
        """A search of ``deal`` allowed what is left of the decision's budget."""
        return Search(kernel_of(deal), max(self._left, 0), self.deadline)

    def _spent(self, search: Search[Any, Any]) -> None:
        self._left -= search.nodes

    def _solve(self, deal: Any) -> dict[Any, int] | None:
        """Each legal action's value for the seat to move in ``deal``, or None past the budget."""
        search = self._search(deal)
        try:
            return evaluate(deal, concept=self.concept, search=search)
        except SolveLimitReached:
            return None
        finally:
            self._spent(search)

    def _declaration_values(self, deal: Any, view: SeatView, candidates: list[Any]) -> dict[Any, int] | None:
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
            solved = self._solve_from(after, seat)
            if solved is None:
                return None
            values[action] = solved - start
        return values

    def _solve_from(self, deal: Any, seat: int) -> int | None:
        """``seat``'s score at the end of ``deal`` (in play) under the solver's concept, or None past the limit."""
        search = self._search(deal)
        node = search.kernel.node(deal)
        try:
            if self.concept == "paranoid":
                return search.paranoid_exact(node, seat)
            value: int = search.maxn(node)[seat]
            return value
        except SolveLimitReached:
            return None
        finally:
            self._spent(search)
