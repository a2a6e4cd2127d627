"""The analysis of a game: at every decision, the action played beside the best one, and what it cost.

For each decision (or one seat's) of a match or deal, :func:`analyse` gives:

- the **expert**'s values, the verdict: each action's mean value over guessed deals that look to the seat exactly
  like its view (:class:`fly_rules.bots.ExpertBot`), with the 95% interval of each mean, and its choice. The expert
  is the hint's (:func:`fly_rules.bots.hint_bot`) and draws its guesses as the hint does (the match's seed and its
  count of actions, :func:`fly_rules.bots.hint_rng`), so the review's best action is the action the hint names
  there. Its values are in its own unit: record points, or in Fly under the race model the seat's chance of winning
  the match, as the expert plays;
- the **open** values, hindsight: every action's value for the seat to move with every card open (the stock's order
  too, which no player can know), from the solver (:mod:`fly_rules.solve`, under the concept the expert plays by:
  Fly max^n, Dreyfus paranoid), and the best of them. In the play that is exact. In the exchange each declaration
  is made, the later seats declare as they did in the game (or, where that is no longer open to them, as the rule
  of thumb would), and the play is solved from the first lead; of Dreyfus's thousands of purchases only the
  expert's candidates and the one played are valued;
- the **cost** of the action played: by the expert, how much less it expects of it than of its choice
  (:attr:`Review.expert_cost`, with its interval over the same guesses); with every card open, how much less its
  open value is than the best (:attr:`Review.cost`, in the game's score: Fly record points, Dreyfus lower minus
  upper record);
- where it was made (the trick and the cards already in it) and the rules that refused the seat some of its
  choices, each by its ID; :func:`verdict` says it all in a sentence.

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

import math
import random
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypedDict, Unpack

import attrs

from fly_rules import registry
from fly_rules._numbers import check_seconds
from fly_rules.actions import Fold, Play, Stand
from fly_rules.bots import hint_bot
from fly_rules.bots.expert import ExpertBot
from fly_rules.bots.paired import mean_interval
from fly_rules.cards import Card
from fly_rules.engine import Phase
from fly_rules.engine.protocols import GameState
from fly_rules.errors import FlyRulesError, RuleViolation
from fly_rules.narration import action_shown
from fly_rules.notation.games import deal_of, new_deal, new_game, parse_action
from fly_rules.notation.history import load_history
from fly_rules.solve import Search, SolveLimitReached, SolveTimeUp, evaluate, kernel_of

__all__ = [
    "AnalyseOptions",
    "Analysis",
    "Review",
    "Unreached",
    "analyse",
    "analyse_history",
    "estimate_text",
    "review",
    "verdict",
]


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
    played: object
    """The action taken."""
    open_values: dict[object, int]
    """Per action valued, the seat's score change to the end of the deal with every card open."""
    open_best: object
    """The action with the best open value (the first in the solver's tie order among equals)."""
    expert_values: dict[object, float]
    """Per action the expert searched, its mean value with only the seat's knowledge (empty without the expert,
    or where none of its guesses could be solved within its budget and the Monte-Carlo bot chose)."""
    expert_best: object
    """The expert's choice (None without the expert): the hint's, where the expert is the hint's
    (:func:`analyse` makes it so)."""
    expert_intervals: dict[object, tuple[float, float]] = attrs.field(factory=dict)
    """Per action in :attr:`expert_values`, the 95% interval of its mean over the expert's guesses
    (mean ± 1.96·sd/√n; infinite with fewer than two guesses)."""
    expert_guesses: int = 0
    """How many guessed deals the expert solved for its values (0: none, or no expert)."""
    expert_unit: str = "points"
    """What the expert's values are: ``"points"`` (the seat's gain in the game's score to the end of the deal) or
    ``"match"`` (its chance of winning the match, in Fly under its race model)."""
    expert_cost_interval: tuple[float, float] | None = None
    """The 95% interval of :attr:`expert_cost` over the same guesses (None where there is no expert cost)."""
    trick: int | None = None
    """In the play, the number of the trick the decision was made in (1 for the first); None in the exchange."""
    table: tuple[tuple[int, Card], ...] = ()
    """The cards already in that trick, as (seat, card), in the order played."""
    rules: tuple[str, ...] = ()
    """The rules that took choices away from the seat (each refusing a card in its hand, or a declaration), by ID:
    a duty to follow suit or to trump, the A♠ holder's duty not to fold, a limit to the exchange."""
    refused: int = 0
    """How many of the cards in the seat's hand (in the exchange: of stand and fold) those rules refused."""

    @property
    def cost(self) -> int | None:
        """How much the action played gave away against the best one, with every card open (0 or more); None where
        the open values were not solved (past :func:`analyse`'s ``open_limit``)."""
        if not self.open_values:
            return None
        return self.open_values[self.open_best] - self.open_values[self.played]

    @property
    def best(self) -> object:
        """The review's best action: the expert's choice (what the hint says there), else the best open one."""
        return self.open_best if self.expert_best is None else self.expert_best

    @property
    def expert_cost(self) -> float | None:
        """How much less the expert expects of the action played than of its choice, on the seat's knowledge (0 when
        they are the same; None where the expert did not value the action played, or there is no expert)."""
        if self.expert_best is None:
            return None
        if self.played == self.expert_best:
            return 0.0
        if self.played not in self.expert_values or self.expert_best not in self.expert_values:
            return None
        return self.expert_values[self.expert_best] - self.expert_values[self.played]


@attrs.frozen
class Unreached:
    """A decision that :func:`analyse` did not grade within its ``max_seconds``."""

    deal_number: int
    """The deal's number in the match (0 for the first)."""
    step: int
    """The decision's place among the deal's actions (0 for the first)."""
    seat: int
    """The seat that decided."""
    phase: Phase
    """The exchange or the play."""
    played: object
    """The action taken."""
    trick: int | None = None
    """In the play, the number of the trick (1 for the first); None in the exchange."""


@attrs.frozen
class Analysis:
    """Every decision analysed, in the order they were made."""

    reviews: tuple[Review, ...]
    """The decisions."""
    stopped: bool = False
    """Whether ``max_seconds`` ran out first: then :attr:`reviews` are the decisions finished (the cheapest were
    graded first), in the order made, and :attr:`unreached` the others."""
    unreached: tuple[Unreached, ...] = ()
    """The decisions ``max_seconds`` left ungraded, in the order made (empty when not :attr:`stopped`)."""

    def loss(self, seat: int) -> int:
        """The sum of ``seat``'s costs: what its decisions gave away against the best open ones (hindsight)."""
        return sum(review.cost or 0 for review in self.reviews if review.seat == seat)

    def expert_loss(self, seat: int) -> float:
        """The sum of ``seat``'s expert costs: what its decisions gave away, by the expert's estimates, against the
        hint's choices on the seat's own knowledge (in the expert's unit, :attr:`Review.expert_unit`)."""
        return sum(review.expert_cost or 0.0 for review in self.reviews if review.seat == seat)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats whose decisions were analysed."""
        return tuple(sorted({review.seat for review in self.reviews}))


def _open_values(
    state: Any,
    played: Any,
    later: Sequence[Any],
    hints: Any,
    policy: Any,
    deadline: float | None = None,
    limit: int | None = None,
) -> dict[Any, int]:
    """Every (exchange: every candidate) action's open value for the seat to move (see the module's text); the
    searches may visit ``limit`` positions in all (past it :class:`SolveLimitReached`)."""
    deal = deal_of(state)
    seat = deal.to_move
    if deal.phase is Phase.PLAY:
        search = Search(kernel_of(deal), limit, deadline)
        return evaluate(deal, concept=hints.concept, seat=seat, search=search)
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
        search = Search(kernel_of(after), limit, deadline)
        node = search.kernel.node(after)
        if hints.concept == "paranoid":
            out[action] = search.paranoid_exact(node, seat) - start
        else:
            out[action] = search.maxn(node)[seat] - start
        if limit is not None:
            limit = max(limit - search.nodes, 0)
    return out


def _restrictions(deal: Any, seat: int, legal: Sequence[Any]) -> tuple[tuple[str, ...], int]:
    """The rules that refused the seat some of its choices, and how many: in the play each card of its hand that is
    not legal, in the exchange standing and folding where they are not, asked of the engine (it names the rule)."""
    if deal.phase is Phase.PLAY:
        probes: list[Any] = [Play(card) for card in deal.view(seat).hand]
    else:
        probes = [Stand(), Fold()]
    foreign = _refusal(deal, object())  # the rule refusing what is no action here (Dreyfus has no fold)
    found: dict[str, None] = {}
    refused = 0
    for action in probes:
        rule = None if action in legal else _refusal(deal, action)
        if rule is not None and rule != foreign:
            found[rule] = None
            refused += 1
    return tuple(found), refused


def _refusal(deal: Any, action: object) -> str | None:
    """The rule that refuses ``action`` at ``deal`` (None: none named)."""
    try:
        deal.apply(action)
    except RuleViolation as error:
        return error.rule
    except FlyRulesError:
        return None
    return None


def _estimates(bot: ExpertBot, values: dict[Any, float], choice: Any, played: Any) -> tuple[Any, Any]:
    """The 95% interval of each of the expert's means, and of its choice's lead over the action played, over the
    guesses it solved (:attr:`ExpertBot.guesses`)."""
    guesses = bot.guesses
    intervals = {}
    for action, mean in values.items():
        _, low, high = mean_interval([guess[action] for guess in guesses if action in guess] or [mean])
        intervals[action] = (low, high)
    lead = None
    if played == choice:
        lead = (0.0, 0.0)
    elif played in values and choice in values:
        differences = [guess[choice] - guess[played] for guess in guesses if choice in guess and played in guess]
        if differences:
            lead = mean_interval(differences)[1:]
    return intervals, lead


def review(
    state: GameState,
    played: object,
    *,
    later: Sequence[tuple[int, object]] = (),
    expert: ExpertBot | None = None,
    seed: object = 0,
    deadline: float | None = None,
    open_limit: int | None = None,
) -> Review:
    """The analysis of one decision: ``played`` by the seat to move at ``state`` (a match or deal).

    Args:
        state: the position before the decision.
        played: the action taken there.
        later: in the exchange, the later declarations of the deal as (seat, action), oldest first: how the
            later seats answer each alternative (see the module's text).
        expert: the expert bot that gives its values (None: none).
        seed: the expert's guesses are drawn from ``random.Random(f"{seed}")`` (the hint's:
            ``f"{match.seed}:hint:{len(match.actions)}"``, :func:`fly_rules.bots.hint_rng`).
        deadline: a ``time.monotonic()`` instant past which the searches stop (None: none); with the expert, a
            deadline that passes during the open values leaves them out (the verdict is kept).
        open_limit: the most positions the open (hindsight) values may visit; past it they are left out
            (:attr:`Review.open_values` empty; None: no limit).

    Raises:
        SolveTimeUp: the searches were not done by ``deadline`` (with the expert: its own were not).
    """
    deal = deal_of(state)
    game = registry.game_of(deal)
    if game.expert is None:
        raise TypeError(f"the analysis needs a game's expert hints: {game.title} has none")
    hints = game.expert(deal.rules)
    policy = game.rule_of_thumb(deal.rules.rank_order)
    seat = deal.to_move
    legal = deal.legal_actions()
    mean: dict[Any, float] = {}
    choice = None
    intervals: dict[Any, tuple[float, float]] = {}
    lead = None
    unit = "points"
    if expert is not None:  # the verdict first: past the deadline a decision keeps it, without its hindsight
        expert.deadline = deadline
        choice, mean = expert.decide(deal.view(seat), legal, random.Random(f"{seed}"))
        intervals, lead = _estimates(expert, mean, choice, played)
        unit = "match" if expert.match_chance is not None else "points"
    try:
        opened = _open_values(state, played, later, hints, policy, deadline, open_limit)
    except SolveLimitReached:
        opened = {}
    except SolveTimeUp:
        if expert is None:
            raise
        opened = {}
    if opened and played not in opened:  # a played action outside those valued cannot be: every legal one in play is
        raise ValueError(f"the action {played!r} is not among the actions of the position")
    best = max(opened, key=opened.__getitem__) if opened else None
    playing = deal.phase is Phase.PLAY
    rules, refused = _restrictions(deal, seat, legal)
    return Review(
        deal.deal_number,
        len(deal.actions),
        seat,
        deal.phase,
        played,
        opened,
        best,
        mean,
        choice,
        expert_intervals=intervals,
        expert_guesses=len(expert.guesses) if expert is not None and mean else 0,
        expert_unit=unit,
        expert_cost_interval=lead,
        trick=sum(deal.tricks_taken) + 1 if playing else None,
        table=tuple(deal.view(seat).trick) if playing else (),
        rules=rules,
        refused=refused,
    )


class AnalyseOptions(TypedDict, total=False):
    """The keywords of :func:`analyse` after its start and actions (what :func:`analyse_history` passes on).

    .. versionadded:: 0.2.0
    """

    seat: int | None
    expert: bool
    samples: int | None
    seed: object
    progress: Callable[[int], None] | None
    max_seconds: float | None
    first: int
    count: int | None
    open_limit: int | None


def analyse(
    start: GameState,
    actions: Iterable[object],
    *,
    seat: int | None = None,
    expert: bool = True,
    samples: int | None = None,
    seed: object = None,
    progress: Callable[[int], None] | None = None,
    max_seconds: float | None = None,
    first: int = 0,
    count: int | None = None,
    open_limit: int | None = None,
) -> Analysis:
    """Every decision of the game that ``actions`` play from ``start`` (a new match or deal), or ``seat``'s.

    Args:
        start: the position the game started from.
        actions: the actions taken, in order.
        seat: analyse only this seat's decisions (None: every seat's).
        expert: also give the expert's values (slower): the hint's expert (:func:`fly_rules.bots.hint_bot`), so
            that its choice at each decision is the hint's there.
        samples: the expert's guesses per decision (default: the game's, as the hint takes them).
        seed: the expert's guesses at the decision after ``n`` actions of the match are drawn as the hint draws
            them, from ``hint_rng(seed, n)`` (:func:`fly_rules.bots.hint_rng`); None: the game's own seed, as the
            hint at the table does.
        progress: called with the number of decisions analysed so far.
        max_seconds: stop after this many seconds (wall clock, within some milliseconds) with the decisions
            finished by then (:attr:`Analysis.stopped`; the last of them may lack its open values, the expert's
            verdict being done): under a bound the cheapest decisions are graded first (the fewest cards left to
            search, the exchange last), and those not reached are in :attr:`Analysis.unreached`; None: no bound.
        first: skip this many of the decisions that would be analysed (those an earlier call did).
        count: analyse at most this many decisions (None: all); fewer remaining is not :attr:`Analysis.stopped`.
        open_limit: the most positions each decision's open (hindsight) values may visit (None: no limit); a
            decision past it has no open values.

    Raises:
        RuleViolation: an action the rules refuse (the state is as before it).
        FlyRulesError: ``max_seconds`` is not a number above 0.
    """
    deadline = None if max_seconds is None else time.monotonic() + check_seconds(max_seconds, "max_seconds")
    taken = list(actions)
    bot = _hint_expert(start.rules, samples) if expert else None
    seed = getattr(start, "seed", 0) if seed is None else seed
    chosen = _decisions(start, taken, seat, first, count)
    # Under a bound the cheapest decisions go first (the fewest cards left to search; the exchange, which searches
    # whole deals, last), so that the bound grades all it can; the dearest are named as not reached.
    order = (
        range(len(chosen)) if deadline is None else sorted(range(len(chosen)), key=lambda i: _dearness(chosen[i][0]))
    )
    graded: dict[int, Review] = {}
    stopped = False
    for index in order:
        state, action, later = chosen[index]
        try:
            if deadline is not None and time.monotonic() >= deadline:
                raise SolveTimeUp()
            graded[index] = review(
                state,
                action,
                later=later,
                expert=bot,
                seed=f"{seed}:hint:{len(state.actions)}",  # as hint_rng draws it
                deadline=deadline,
                open_limit=open_limit,
            )
        except SolveTimeUp:
            stopped = True
            break
        if progress is not None:
            progress(len(graded))
        if deadline is not None and time.monotonic() >= deadline:  # its hindsight was cut short
            stopped = True
            break
    reviews = tuple(graded[index] for index in sorted(graded))
    unreached = tuple(_unreached(*chosen[index][:2]) for index in range(len(chosen)) if index not in graded)
    return Analysis(reviews, stopped=stopped, unreached=unreached)


def _decisions(
    start: Any, taken: Sequence[Any], seat: int | None, first: int, count: int | None
) -> list[tuple[Any, Any, list[tuple[int, Any]]]]:
    """The decisions :func:`analyse` grades, in the order made: each as the position, the action taken there and (in
    the exchange) the later declarations of its deal."""
    chosen: list[tuple[Any, Any, list[tuple[int, Any]]]] = []
    state = start
    skipped = 0
    for k, action in enumerate(taken):
        deal = deal_of(state)
        if (seat is None or deal.to_move == seat) and len(deal.legal_actions()) > 1:
            if skipped < first:
                skipped += 1
            elif count is not None and len(chosen) >= count:
                break
            else:
                exchange = deal.phase is Phase.EXCHANGE
                later = _later_declarations(state.apply(action), taken[k + 1 :]) if exchange else []
                chosen.append((state, action, later))
        state = state.apply(action)
    return chosen


def _dearness(state: Any) -> tuple[bool, int]:
    """How dear a decision is to grade, to sort by: an exchange (whole deals searched) above any play, and in the
    play the fewer actions the deal has seen, the more cards are left to search."""
    deal = deal_of(state)
    return deal.phase is Phase.EXCHANGE, -len(deal.actions)


def _unreached(state: Any, played: Any) -> Unreached:
    """A decision a bound left ungraded."""
    deal = deal_of(state)
    playing = deal.phase is Phase.PLAY
    return Unreached(
        deal.deal_number,
        len(deal.actions),
        deal.to_move,
        deal.phase,
        played,
        sum(deal.tricks_taken) + 1 if playing else None,
    )


def _hint_expert(rules: Any, samples: int | None) -> ExpertBot:
    """The expert that gives the hints (with ``samples`` guesses a decision if given)."""
    bot = hint_bot(rules) if samples is None else ExpertBot(rules, samples=samples)
    assert isinstance(bot, ExpertBot), "the hint is the expert wherever the expert is registered"
    return bot


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


def analyse_history(text: str, **options: Unpack[AnalyseOptions]) -> Analysis:
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


def estimate_text(value: float, interval: tuple[float, float] | None, unit: str) -> str:
    """An estimate as the reviews write it: ``+1.2 ±0.4`` (points) or ``41% ±6`` (a chance of winning the match),
    the ± half the 95% interval; ``(1 guess)`` where there is no interval.

    >>> estimate_text(1.25, (0.85, 1.65), "points"), estimate_text(0.41, (0.35, 0.47), "match")
    ('+1.2 ±0.4', '41% ±6')
    """
    shown = f"{value * 100:.0f}%" if unit == "match" else f"{value:+.1f}"
    if interval is None or not all(math.isfinite(bound) for bound in interval):
        return f"{shown} (1 guess)"
    half = (interval[1] - interval[0]) / 2
    return f"{shown} ±{half * 100:.0f}" if unit == "match" else f"{shown} ±{half:.1f}"


def _where(found: Review) -> str:
    """Where a decision was made: the exchange, or the trick and the cards already in it."""
    if found.trick is None:
        return "the exchange"
    if not found.table:
        return f"trick {found.trick}, leading"
    return f"trick {found.trick} after {' '.join(card.symbol for _, card in found.table)}"


def verdict(found: Review) -> str:
    """One decision's verdict in a sentence: where it was made (the trick and the cards in it), the rules that took
    choices away, the action played and the hint's choice, and what the expert expects the difference to be on the
    seat's knowledge (the open cards' hindsight is not in it: :attr:`Review.cost` has that)."""
    played = action_shown(found.played)
    what = "card" if found.trick is not None else "declaration"
    ruled = (
        f" ({', '.join(found.rules)} refused {found.refused} {what}{'s' * (found.refused > 1)})" if found.rules else ""
    )
    said = f"{_where(found)}{ruled}: {played}"
    if found.expert_best is None:
        return said
    if found.played == found.expert_best:
        return f"{said}, the hint's choice"
    best = action_shown(found.expert_best)
    cost = found.expert_cost
    if cost is None:
        return f"{said}; the hint: {best} (the expert did not weigh {played})"
    unit = "points" if found.expert_unit == "points" else "of the chance to win the match"
    amount = f"{cost * 100:.0f}%" if found.expert_unit == "match" else f"{cost:.1f}"
    low, high = found.expert_cost_interval or (-math.inf, math.inf)
    if low <= 0 <= high:
        return f"{said}; the hint: {best}, {amount} {unit} better, within the guesses' noise"
    return f"{said}; the hint: {best}, {amount} {unit} better"
