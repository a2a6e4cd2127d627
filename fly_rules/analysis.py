"""The analysis of a game: at every decision, the action played beside the best one, and what it cost.

For each decision (or one seat's) of a match or deal, :func:`analyse` gives:

- the **open** values: every action's value for the seat to move with every card open, from the solver
  (:mod:`fly_rules.solve`, under the concept the expert plays by: Fly max^n, Dreyfus paranoid), and the best of
  them. In the play that is exact. In the exchange each declaration is made, the later seats declare as they
  did in the game (or, where that is no longer open to them, as the rule of thumb would), and the play is solved
  from the first lead; of Dreyfus's thousands of purchases only the expert's candidates and the one played are
  valued;
- the **expert**'s values: the mean value of each action with only the seat's own knowledge
  (:class:`fly_rules.bots.ExpertBot`, its guesses drawn from ``seed``, valued in record points, not by its
  chance of winning the match as the bot plays: ``for_match=False``), and its choice;
- the **cost** of the action played: how much less its open value is than the best open value, in the game's
  score (Fly record points, Dreyfus lower minus upper record). A seat's loss is the sum of its costs.

>>> from fly_rules import fly
>>> from fly_rules.bots import RuleOfThumbBot
>>> import random
>>> match = fly.new_match(fly.FlyRules(players=3, max_deals=1), seed=11, dealer=0)
>>> start, bot, actions = match, RuleOfThumbBot(), []
>>> while not match.is_over:
...     action = bot.choose(match.view(match.to_move), match.legal_actions(), random.Random(0))
...     actions.append(action)
...     match = match.apply(action)
>>> analysis = analyse(start, actions, expert=False)  # the decisions with a choice; each seat's loss
>>> len(analysis.reviews), [analysis.loss(seat) for seat in analysis.seats]
(13, [0, 6, 0])
"""

from __future__ import annotations

import random
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from fly_rules import registry
from fly_rules._numbers import check_seconds
from fly_rules.bots.expert import ExpertBot
from fly_rules.engine import Phase
from fly_rules.notation.games import deal_of, new_deal, new_game, parse_action
from fly_rules.notation.history import load_history
from fly_rules.solve import Search, SolveTimeUp, evaluate, kernel_of

__all__ = ["Analysis", "Review", "analyse", "analyse_history", "review"]


@attrs.frozen
class Review:
    """One decision, analysed."""

    deal_number: int
    """The deal's number in the match (0 for the first)."""
    step: int
    """The decision's place among the deal's actions (0 for the first)."""
    seat: int
    """The seat that decided."""
    phase: Phase
    """The exchange or the play."""
    played: Any
    """The action taken."""
    open_values: dict[Any, int]
    """Per action valued, the seat's score change to the end of the deal with every card open."""
    open_best: Any
    """The action with the best open value (the first in the solver's tie order among equals)."""
    expert_values: dict[Any, float]
    """Per action the expert searched, its mean value with only the seat's knowledge (empty without the expert,
    or where none of its guesses could be solved within its budget and the Monte-Carlo bot chose)."""
    expert_best: Any
    """The expert's choice (None without the expert)."""

    @property
    def cost(self) -> int:
        """How much the action played gave away against the best one, with every card open (0 or more)."""
        return self.open_values[self.open_best] - self.open_values[self.played]


@attrs.frozen
class Analysis:
    """Every decision analysed, in the order they were made."""

    reviews: tuple[Review, ...]
    """The decisions."""
    stopped: bool = False
    """Whether ``max_seconds`` ran out first: then :attr:`reviews` are the decisions finished, in order."""

    def loss(self, seat: int) -> int:
        """The sum of ``seat``'s costs: what its decisions gave away against the best open ones."""
        return sum(review.cost for review in self.reviews if review.seat == seat)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats whose decisions were analysed."""
        return tuple(sorted({review.seat for review in self.reviews}))


def _open_values(
    state: Any, played: Any, later: Sequence[Any], hints: Any, policy: Any, deadline: float | None = None
) -> dict[Any, int]:
    """Every (exchange: every candidate) action's open value for the seat to move (see the module's text)."""
    deal = deal_of(state)
    seat = deal.to_move
    if deal.phase is Phase.PLAY:
        return evaluate(deal, concept=hints.concept, seat=seat, search=Search(kernel_of(deal), deadline=deadline))
    legal = deal.legal_actions()
    valued = list(legal) if len(legal) <= 64 else [*hints.candidates(deal.view(seat), legal), played]
    start = deal.scores[seat]
    out = {}
    for action in dict.fromkeys(valued):
        after = deal.apply(action)
        queue = list(later)
        while after.phase is Phase.EXCHANGE:
            mover = after.to_move
            mine = next((a for a in queue if a[0] == mover), None)
            if mine is not None:
                queue.remove(mine)
            legal_now = after.legal_actions()
            move = mine[1] if mine is not None and mine[1] in legal_now else None
            if move is None:
                move = policy.choose(after.view(mover), legal_now, random.Random(0))
            after = after.apply(move)
        if after.is_over:
            out[action] = after.scores[seat] - start
            continue
        search = Search(kernel_of(after), deadline=deadline)
        node = search.kernel.node(after)
        if hints.concept == "paranoid":
            out[action] = search.paranoid_exact(node, seat) - start
        else:
            out[action] = search.maxn(node)[seat] - start
    return out


def review(
    state: Any,
    played: Any,
    *,
    later: Sequence[tuple[int, Any]] = (),
    expert: ExpertBot | None = None,
    seed: object = 0,
    deadline: float | None = None,
) -> Review:
    """The analysis of one decision: ``played`` by the seat to move at ``state`` (a match or deal).

    Args:
        state: the position before the decision.
        played: the action taken there.
        later: in the exchange, the later declarations of the deal as (seat, action), oldest first: how the
            later seats answer each alternative (see the module's text).
        expert: the expert bot that gives its values (None: none).
        seed: the expert's guesses are drawn from ``random.Random(f"{seed}")``.
        deadline: a :func:`time.monotonic` instant past which the searches stop (None: none).

    Raises:
        SolveTimeUp: the searches were not done by ``deadline``.
    """
    deal = deal_of(state)
    game = registry.game_of(deal)
    assert game.expert is not None, "the analysis needs the game's expert hints"
    hints = game.expert(deal.rules)
    policy = game.rule_of_thumb(deal.rules.rank_order)
    seat = deal.to_move
    opened = _open_values(state, played, later, hints, policy, deadline)
    if played not in opened:  # a played action outside those valued cannot be: every legal one in play is
        raise ValueError(f"the action {played!r} is not among the actions of the position")
    best = max(opened, key=opened.__getitem__)
    mean: dict[Any, float] = {}
    choice = None
    if expert is not None:
        expert.deadline = deadline
        choice, mean = expert.decide(deal.view(seat), deal.legal_actions(), random.Random(f"{seed}"))
    actions = deal.actions
    return Review(deal.deal_number, len(actions), seat, deal.phase, played, opened, best, mean, choice)


def analyse(
    start: Any,
    actions: Iterable[Any],
    *,
    seat: int | None = None,
    expert: bool = True,
    samples: int | None = None,
    seed: object = 0,
    progress: Callable[[int], None] | None = None,
    max_seconds: float | None = None,
) -> Analysis:
    """Every decision of the game that ``actions`` play from ``start`` (a new match or deal), or ``seat``'s.

    Args:
        start: the position the game started from.
        actions: the actions taken, in order.
        seat: analyse only this seat's decisions (None: every seat's).
        expert: also give the expert's values (slower).
        samples: the expert's guesses per decision (default: the game's).
        seed: the expert's guesses for decision ``k`` are drawn from ``f"{seed}:{k}"``.
        progress: called with the number of decisions analysed so far.
        max_seconds: stop after this many seconds (wall clock, within some milliseconds) with the decisions
            finished by then (:attr:`Analysis.stopped`); None: no bound.

    Raises:
        RuleViolation: an action the rules refuse (the state is as before it).
        FlyRulesError: ``max_seconds`` is not a number above 0.
    """
    deadline = None if max_seconds is None else time.monotonic() + check_seconds(max_seconds, "max_seconds")
    taken = list(actions)
    bot = ExpertBot(start.rules, samples=samples, for_match=False) if expert else None
    reviews = []
    state = start
    for k, action in enumerate(taken):
        deal = deal_of(state)
        mover = deal.to_move
        if (seat is None or mover == seat) and len(deal.legal_actions()) > 1:
            later = _later_declarations(state.apply(action), taken[k + 1 :]) if deal.phase is Phase.EXCHANGE else []
            try:
                if deadline is not None and time.monotonic() >= deadline:
                    raise SolveTimeUp()
                reviews.append(review(state, action, later=later, expert=bot, seed=f"{seed}:{k}", deadline=deadline))
            except SolveTimeUp:
                return Analysis(tuple(reviews), stopped=True)
            if progress is not None:
                progress(len(reviews))
        state = state.apply(action)
    return Analysis(tuple(reviews))


def _later_declarations(state: Any, rest: Sequence[Any]) -> list[tuple[int, Any]]:
    """The declarations made after ``state`` in its deal, as (seat, action)."""
    out = []
    number = deal_of(state).deal_number
    for action in rest:
        deal = deal_of(state)
        if deal.deal_number != number or deal.phase is not Phase.EXCHANGE:
            break
        out.append((deal.to_move, action))
        state = state.apply(action)
    return out


def analyse_history(text: str, **options: Any) -> Analysis:
    """:func:`analyse` of the game a history records (its text, as ``fly-rules play --save`` writes it).

    Raises:
        InvalidHistory: the text is not a valid history [REC-4.3].
    """
    final = load_history(text)
    data = tomllib.loads(text)
    game = registry.game_of(final).name
    if "start" in data:
        start = new_deal(final.rules, **data["start"])
    else:
        start = new_game(final.rules, seed=data["seed"], dealer=data["dealer"])
    actions = [
        parse_action(entry.partition(":")[2], game) for deal in data.get("deal", []) for entry in deal["actions"]
    ]
    return analyse(start, actions, **options)
