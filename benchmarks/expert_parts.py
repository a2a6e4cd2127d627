"""Where the Fly expert's gain comes from: its declarations, its play, and more guesses, on paired deals.

Usage: python benchmarks/expert_parts.py [--deals 1000] [--workers 2] [--seed strength]
       [--parts expert,declarations,play,play-24,declare-192,joint-24]

On the paired deals of ``benchmarks/strength.py`` (the same seed gives the same deals: 4-player Fly, the seat
rotating, the rule of thumb in the other seats), each part plays the seat in turn:

- ``expert``: the expert bot as it ships;
- ``points``: the expert valuing the end of each guess by its record points, not its chance of winning the match;
- ``declarations``: the expert's declarations, then the rule of thumb's play;
- ``play``: the rule of thumb's declarations, then the expert's play;
- ``play-N``: the expert with ``N`` guesses a decision in the play (12 by default);
- ``declare-N``: the expert with ``N`` guesses a declaration (64 by default);
- ``cautious-K``: the expert choosing its declaration by each candidate's mean less ``K`` standard errors of that
  mean (:class:`_Cautious`): the best of several noisy means is more often lucky than good (the winner's curse),
  and folding, whose value varies least from guess to guess, is the candidate that curse favours least;
- ``rollout-N``: the expert with ``N`` guesses a decision in the play, each card valued as the declarations are:
  the seat plays it, then plays on like the model (:class:`_Rollout`), so that no later card of its own is chosen
  seeing the guess's cards (a rollout of the rule of thumb, which strategy fusion cannot touch);
- ``keepfold-K``: the expert that, where the rule of thumb would fold, folds unless another declaration beats
  folding on the same guesses by more than ``K`` standard errors of the difference (:class:`_KeepFold`;
  ``keepfold-inf`` always folds where the rule of thumb would);
- ``calibrated``: the expert valuing its declarations in record points, each candidate's estimated difference from
  folding mapped by the straight line that ``benchmarks/declaration_oracle.py --seed calib`` fitted for its kind
  (``CALIBRATION``: the realised difference on the real deal against the estimate), folding itself at 0
  (:class:`_Calibrated`);
- ``wide``: the expert searching every legal declaration, not only the hints' candidates (every exchange of
  any of its cards, not only of the weakest);
- ``joint-N``: the expert with ``N`` guesses a decision in the play, valued together: one card for the guesses it
  cannot tell apart at each of its later moves (:class:`_Joint`), where the expert's best response to each guess
  may play one card in a guess and another in a guess it cannot tell from it (strategy fusion).

The table gives each part's gain a deal over the rule of thumb with its 95% interval, and, beside it, its
difference from ``expert`` on the same deals. ``--by-declaration`` adds, for each part, its gain grouped by the
seat's first declaration under the rule of thumb and under the part (where a part's gain comes from).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from _command import command_line, deals_parser, publish

from fly_rules import fly
from fly_rules.actions import Fold, Stand
from fly_rules.bots import ExpertBot, RuleOfThumbBot
from fly_rules.bots.paired import mean_interval, play_table, seat_under_test
from fly_rules.engine import Phase
from fly_rules.solve import SolveLimitReached
from fly_rules.solve.respond import Respond

RULES = fly.FlyRules(players=4)
# Intercept and slope a kind of declaration, from `python benchmarks/declaration_oracle.py --deals 2000 --seed calib`.
CALIBRATION = {
    "stand": (0.363, 0.999),
    "x1": (0.508, 0.988),
    "x2": (0.513, 0.955),
    "x3": (0.694, 0.91),
    "x4": (0.519, 0.651),
    "x5": (-0.204, 0.443),
}


class _Split:
    """Declares like one bot and plays like another."""

    def __init__(self, declares: Any, plays: Any) -> None:
        self.declares, self.plays = declares, plays

    def choose(self, view: Any, legal_actions: Any, rng: random.Random) -> Any:
        bot = self.plays if view.phase is Phase.PLAY else self.declares
        return bot.choose(view, legal_actions, rng)


class _JointRespond:
    """The seat's best response to the model over several guessed deals at once, in the play: after each of its
    moves the deals are told apart by the cards the others play, and it chooses one card for each set of deals
    that show the same (the card that is best summed over them)."""

    def __init__(self, seat: int, model: Any, worth: Any, limit: int) -> None:
        self.seat, self.model, self.worth, self.limit = seat, model, worth, limit
        self.nodes = 0

    def total(self, deals: list[Any]) -> float:
        """The sum over ``deals`` of what their ends are worth to the seat, playing its best single policy."""
        self.nodes += len(deals)
        if self.nodes > self.limit:
            raise SolveLimitReached(self.limit)
        worth = 0.0
        seen: dict[tuple[Any, ...], list[Any]] = {}
        for guess in deals:
            deal, moves = guess, []
            while not deal.is_over and deal.to_move != self.seat:
                mover = deal.to_move
                move = self.model.choose(deal.view(mover), deal.legal_actions(), random.Random(0))
                moves.append(move)
                deal = deal.apply(move)
            if deal.is_over:
                worth += self.worth(deal)
            else:
                seen.setdefault(tuple(moves), []).append(deal)
        for alike in seen.values():
            worth += max(self.total([deal.apply(card) for deal in alike]) for card in alike[0].legal_actions())
        return worth


class _PlayValued(ExpertBot):
    """The expert whose cards in the play are valued otherwise (:meth:`_play_values`); its declarations as shipped."""

    def _modelled_values(
        self, view: Any, candidates: list[Any], rng: random.Random, started: float
    ) -> dict[Any, float]:
        if view.phase is not Phase.PLAY:
            return super()._modelled_values(view, candidates, rng, started)
        deals = [deal for _, deal in self.kept_guesses(view, rng, self.samples)[0]]
        return self._play_values(view, candidates, deals) if deals else {}

    def _play_values(self, view: Any, candidates: list[Any], deals: list[Any]) -> dict[Any, float]:
        raise NotImplementedError


class _Joint(_PlayValued):
    """The expert whose cards are valued over its guesses together (:class:`_JointRespond`)."""

    def _play_values(self, view: Any, candidates: list[Any], deals: list[Any]) -> dict[Any, float]:
        seat = view.seat
        worth = self._worth(seat) or (lambda deal: deal.scores[seat])
        respond = _JointRespond(seat, self.model, worth, self.budget)
        try:
            base = sum(worth(deal) for deal in deals)
            values = {card: respond.total([deal.apply(card) for deal in deals]) - base for card in candidates}
        except SolveLimitReached:
            return {}
        return {card: value / len(deals) for card, value in values.items()}


class _Cautious(ExpertBot):
    """The expert whose declarations are valued at their mean less ``margin`` standard errors of the mean."""

    margin = 1.0

    def _modelled_values(
        self, view: Any, candidates: list[Any], rng: random.Random, started: float
    ) -> dict[Any, float]:
        values = super()._modelled_values(view, candidates, rng, started)
        count = len(self._worlds)
        if view.phase is Phase.PLAY or count < 2:
            return values
        spread = {action: statistics.stdev(world[action] for world in self._worlds) for action in values}
        return {action: value - self.margin * spread[action] / math.sqrt(count) for action, value in values.items()}


class _KeepFold(ExpertBot):
    """The expert that folds where the rule of thumb would unless another declaration beats folding, on the same
    guesses, by more than ``margin`` standard errors of the difference."""

    margin = 2.0

    def decide(self, view: Any, legal_actions: Any, rng: random.Random) -> tuple[Any, dict[Any, float]]:
        best, values = super().decide(view, legal_actions, rng)
        if view.phase is Phase.PLAY or not isinstance(self._default(view, legal_actions), Fold) or best == Fold():
            return best, values
        differences = [world[best] - world[Fold()] for world in self._worlds]
        error = statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else math.inf
        return (best if statistics.fmean(differences) > self.margin * error else Fold()), values


class _Rollout(_PlayValued):
    """The expert whose cards are valued with the seat playing on like the model after them."""

    def _play_values(self, view: Any, candidates: list[Any], deals: list[Any]) -> dict[Any, float]:
        totals = dict.fromkeys(candidates, 0.0)
        for deal in deals:
            respond = Respond(view.seat, self.model, self._choices, None, self._worth(view.seat))
            for action, value in respond.values(deal, candidates).items():
                totals[action] += value
        return {action: total / len(deals) for action, total in totals.items()}


class _Calibrated(ExpertBot):
    """The expert whose declarations are valued in record points and then calibrated: for each kind of declaration
    (standing, or exchanging ``k`` of the weakest cards), its estimated difference from folding is mapped by the
    straight line that the realised differences of ``benchmarks/declaration_oracle.py`` fitted (``line``)."""

    def __init__(self, rules: Any, line: dict[str, tuple[float, float]]) -> None:
        super().__init__(rules)
        self.line = line
        self._declaring = False

    def _worth(self, seat: int) -> Any:
        return None if self._declaring else super()._worth(seat)

    def _modelled_values(
        self, view: Any, candidates: list[Any], rng: random.Random, started: float
    ) -> dict[Any, float]:
        if view.phase is Phase.PLAY:
            return super()._modelled_values(view, candidates, rng, started)
        self._declaring = True
        try:
            values = super()._modelled_values(view, candidates, rng, started)
        finally:
            self._declaring = False
        fold = values.get(Fold())
        if fold is None:
            return values
        out = {}
        for action, value in values.items():
            cards = getattr(action, "cards", None)
            kind = "stand" if isinstance(action, Stand) else None if cards is None else f"x{len(cards)}"
            intercept, slope = self.line.get(kind or "", (0.0, 1.0))
            out[action] = intercept + slope * (value - fold)
        out[Fold()] = 0.0
        return out


def _part(name: str) -> Any:
    """The bot a part names."""
    if name == "thumb":
        return RuleOfThumbBot()
    if name == "expert":
        return ExpertBot(RULES)
    if name == "points":
        return ExpertBot(RULES, for_match=False)
    if name == "declarations":
        return _Split(ExpertBot(RULES), RuleOfThumbBot())
    if name == "play":
        return _Split(RuleOfThumbBot(), ExpertBot(RULES))
    if name == "calibrated":
        return _Calibrated(RULES, CALIBRATION)
    if name == "wide":
        wide = ExpertBot(RULES)
        wide.hints.candidates = lambda view, legal_actions: list(legal_actions)
        return wide
    kind, _, count = name.partition("-")
    margined = {"keepfold": _KeepFold, "cautious": _Cautious}.get(kind)
    if margined is not None:
        try:
            margin = float(count)
        except ValueError:
            raise SystemExit(f"{kind}-K takes a number of standard errors, not {count!r}") from None
        with_margin = margined(RULES)
        with_margin.margin = margin
        return with_margin
    bot = {"joint": _Joint, "rollout": _Rollout}.get(kind, ExpertBot)(RULES)
    if kind in ("play", "joint", "rollout") and count.isdigit():
        bot.samples = int(count)
    elif kind == "declare" and count.isdigit():
        bot.declaration_samples = int(count)
    else:
        raise SystemExit(
            f"unknown part {name!r}: expert, points, calibrated, wide, declarations, play, play-N, declare-N,"
            " cautious-K, keepfold-K (K may be inf), joint-N or rollout-N"
        )
    return bot


class _Declared:
    """A bot that remembers the seat's first declaration (its kind, and how many cards an exchange gives)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.declared = bot, "none"

    def choose(self, view: Any, legal_actions: Any, rng: random.Random) -> Any:
        action = self.bot.choose(view, legal_actions, rng)
        if view.phase is not Phase.PLAY and self.declared == "none":
            cards = getattr(action, "cards", None)
            self.declared = type(action).__name__.lower() + ("" if cards is None else f" {len(cards)}")
        return action


def _changes(name: str, seed: str, indices: range) -> list[tuple[int, str]]:
    """The seat's score change on each deal of ``indices`` with the part ``name`` in it, and its declaration."""
    out = []
    for index in indices:
        seat = seat_under_test(index, RULES.players)
        bot = _Declared(_part(name))
        lineup = [bot if s == seat else "rule-of-thumb" for s in range(RULES.players)]
        out.append((play_table(RULES, lineup, seed, index)[0][seat], bot.declared))
    return out


def _by_declaration(part: list[tuple[int, str]], thumb: list[tuple[int, str]]) -> list[str]:
    """The part's gain over the rule of thumb grouped by the two declarations, largest share of the total first."""
    groups: dict[tuple[str, str], list[int]] = {}
    for (change, declared), (base, thumb_declared) in zip(part, thumb, strict=True):
        groups.setdefault((thumb_declared, declared), []).append(change - base)
    lines = [
        "| thumb declared | part declared | deals | gain there | share of gain |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for (thumb_declared, declared), gains in sorted(groups.items(), key=lambda item: -abs(sum(item[1]))):
        mean, share = statistics.fmean(gains), sum(gains) / len(part)
        lines.append(f"| {thumb_declared} | {declared} | {len(gains)} | {mean:+.2f} | {share:+.3f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = deals_parser(__doc__, deals=1000, seed="strength")
    parser.add_argument("--parts", default="expert,declarations,play,play-24,declare-192")
    parser.add_argument(
        "--by-declaration", action="store_true", help="also each part's gain grouped by its and the thumb's declaration"
    )
    args = parser.parse_args(argv)
    parts = args.parts.split(",")
    for name in parts:
        _part(name)  # an unknown part stops here, before any deal is played
    names = ["thumb", *dict.fromkeys(["expert", *parts])]
    size = max(1, -(-args.deals // (args.workers * 8)))
    pieces = [range(i, min(args.deals, i + size)) for i in range(0, args.deals, size)]
    started = time.time()
    played: dict[str, list[tuple[int, str]]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for name in names:
            runs = pool.map(_changes, [name] * len(pieces), [args.seed] * len(pieces), pieces)
            played[name] = [deal for run in runs for deal in run]
    changes = {name: [change for change, _ in deals] for name, deals in played.items()}
    lines = [
        "| part | gain a deal over the rule of thumb | 95% interval | against the expert |",
        "| --- | ---: | --- | --- |",
    ]
    for name in parts:
        gain = mean_interval([a - b for a, b in zip(changes[name], changes["thumb"], strict=True)])
        versus = mean_interval([a - b for a, b in zip(changes[name], changes["expert"], strict=True)])
        against = "" if name == "expert" else f"{versus[0]:+.2f} [{versus[1]:+.2f}, {versus[2]:+.2f}]"
        lines.append(f"| {name} | {gain[0]:+.2f} | [{gain[1]:+.2f}, {gain[2]:+.2f}] | {against} |")
    if args.by_declaration:
        for name in parts:
            lines += ["", f"{name}, by the seat's declarations:", "", *_by_declaration(played[name], played["thumb"])]
    lines += ["", f"`{command_line('expert_parts.py', argv)}`: {args.deals:,} paired deals of 4-player Fly."]
    table = "\n".join(lines) + "\n"
    publish(table, args, started)


if __name__ == "__main__":
    main()
