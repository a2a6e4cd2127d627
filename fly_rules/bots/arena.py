"""Matches between bots, and the statistics of many, reproducible from one seed.

Match ``i`` of a run with seed ``s`` shuffles from the seed ``"s:i"`` and gives every bot its own
generator seeded from it, and bot ``k`` sits at seat ``(k + i) % players`` (the seats rotate, so
no bot keeps the dealer's advantage). A match's result depends only on the run's seed and its
index, so a run gives the same results however it is split between processes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from fly_rules import registry
from fly_rules.bots.base import Bot, RandomBot
from fly_rules.bots.expert import ExpertBot
from fly_rules.bots.monte_carlo import MonteCarloBot
from fly_rules.bots.rule_of_thumb import RuleOfThumbBot
from fly_rules.engine.protocols import Rules, SeatView
from fly_rules.notation.games import new_game

__all__ = ["BOTS", "MatchResult", "Tally", "make_bot", "play_match", "run_matches", "wilson_interval"]


def _learned(rules: Rules) -> Bot[SeatView]:
    """The learned bot (:mod:`fly_rules.adapters.learned`: NumPy, a layer above the bots, so imported by name)."""
    try:
        bot: Bot[SeatView] = registry.lazy("fly_rules.adapters.learned", "LearnedBot")(rules)
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(f"the learned bot needs NumPy: pip install 'fly_rules[batch]' ({error})") from error
    return bot


BOTS: dict[str, Callable[[Any], Bot[SeatView]]] = {
    "random": lambda rules: RandomBot(),
    "rule-of-thumb": lambda rules: RuleOfThumbBot(rules.rank_order),
    "monte-carlo": MonteCarloBot,
    "expert": ExpertBot,
    "learned": _learned,
}
"""The bots by name; each entry makes a bot for the given rules."""


def make_bot(name: str, rules: Rules) -> Bot[SeatView]:
    """The bot called ``name`` (see :data:`BOTS`) for ``rules``.

    Raises:
        KeyError: for an unknown name.
        TypeError: ``rules`` is not a registered game's rules.
    """
    registry.rules_game(rules)
    return BOTS[name](rules)


@attrs.frozen
class MatchResult:
    """What one match between bots came to."""

    index: int
    """The match's index in its run."""
    seats: tuple[str, ...]
    """The bot at each seat."""
    winner: int | None
    """The winning seat, or None (deal limit)."""
    deals: int
    """Deals played."""
    ace_deals: int
    """Fly: deals played with the A♠ in a hand; Dreyfus: 0."""
    ace_tricks: int
    """Fly: of those, the deals where its holder took a trick."""


def play_match(rules: Rules, names: Sequence[str], seed: int | str, index: int, max_deals: int | None) -> MatchResult:
    """Play match ``index`` of the run with ``seed`` between the bots ``names`` (rotated, see the module).

    Args:
        rules: the rules of the match, of any registered game (its ``game`` chooses it).
        names: one bot name (:data:`BOTS`) per seat, as seated in match 0; in match ``index`` bot ``k`` sits at
            seat ``(k + index) % players``.
        seed: the run's seed; the match shuffles from ``f"{seed}:{index}"`` and seat ``s``'s bot draws from
            ``random.Random(f"{seed}:{index}:bot:{s}")``, so the result depends on ``seed`` and ``index`` alone.
        index: the match's index in its run.
        max_deals: stop after this many deals even without a winner (None: as ``rules`` say).

    Returns:
        The :class:`MatchResult`: the seats' bots, the winning seat (None at the deal limit), the deals played
        and, in Fly, the deals with the A♠ in a hand and those where its holder took a trick.

    Raises:
        KeyError: a name that is no bot of :data:`BOTS`.
        TypeError: ``rules`` is not a registered game's rules.

    >>> from fly_rules.fly import FlyRules
    >>> result = play_match(FlyRules(players=3), ["random", "rule-of-thumb", "random"], 7, 1, 2)
    >>> result.seats, result.deals <= 2
    (('random', 'random', 'rule-of-thumb'), True)
    """
    registry.rules_game(rules)
    players = len(names)
    seats = tuple(names[(s - index) % players] for s in range(players))
    match_seed = f"{seed}:{index}"
    if max_deals is not None:
        limited: Any = rules  # every game's rules are an attrs class with max_deals
        rules = attrs.evolve(limited, max_deals=max_deals)
    state: Any = new_game(rules, seed=match_seed)
    bots = [make_bot(name, rules) for name in seats]
    rngs = [random.Random(f"{match_seed}:bot:{s}") for s in range(players)]
    deals = ace_deals = ace_tricks = 0
    while not state.is_over:
        seat = state.to_move
        before = state.deal
        state = state.apply(bots[seat].choose(state.view(seat), state.legal_actions(), rngs[seat]))
        if state.deal is not before and (state.deal.is_over or state.deal.deal_number != before.deal_number):
            done = state.deal if state.deal.deal_number == before.deal_number else state.previous_deal
            deals += 1
            holder = getattr(done, "ace_of_spades_holder", None)  # a statistic of Fly's alone
            if holder is not None:
                ace_deals += 1
                ace_tricks += done.tricks_taken[holder] > 0
    return MatchResult(index, seats, state.winner, deals, ace_deals, ace_tricks)


def run_matches(
    rules: Rules, names: Sequence[str], seed: int | str, indices: range, max_deals: int | None
) -> list[MatchResult]:
    """The matches ``indices`` of the run with ``seed`` (one worker's share)."""
    return [play_match(rules, names, seed, i, max_deals) for i in indices]


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion of ``wins`` in ``n``.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.define
class Tally:
    """The statistics of many matches: wins per seat and per bot, deals, the A♠."""

    players: int
    """Seats at the table."""
    names: tuple[str, ...]
    """The bots, in the order given (bot ``k`` starts at seat ``k``)."""
    matches: int = 0
    """Matches counted."""
    seat_wins: list[int] = attrs.field(factory=list)
    """Wins per seat."""
    bot_wins: dict[str, int] = attrs.field(factory=dict)
    """Wins per bot name."""
    bot_seats: dict[str, int] = attrs.field(factory=dict)
    """Seats each bot name has held, over all matches (its chances)."""
    no_winner: int = 0
    """Matches stopped by the deal limit."""
    deals: int = 0
    """Deals played in all."""
    ace_deals: int = 0
    """Fly deals with the A♠ in a hand."""
    ace_tricks: int = 0
    """Of those, deals where its holder took a trick."""

    def __attrs_post_init__(self) -> None:
        self.seat_wins = [0] * self.players
        for name in self.names:
            self.bot_wins.setdefault(name, 0)
            self.bot_seats[name] = self.bot_seats.get(name, 0)

    def add(self, result: MatchResult) -> None:
        """Count one match."""
        self.matches += 1
        self.deals += result.deals
        self.ace_deals += result.ace_deals
        self.ace_tricks += result.ace_tricks
        for name in result.seats:
            self.bot_seats[name] += 1
        if result.winner is None:
            self.no_winner += 1
            return
        self.seat_wins[result.winner] += 1
        self.bot_wins[result.seats[result.winner]] += 1

    def summary(self) -> dict[str, Any]:
        """The statistics as plain data (what ``simulate --json`` prints)."""
        n = self.matches
        return {
            "matches": n,
            "players": self.players,
            "bots": list(self.names),
            "no_winner": self.no_winner,
            "seats": [
                {"seat": s, "wins": w, "rate": w / n if n else 0.0, "ci95": list(wilson_interval(w, n))}
                for s, w in enumerate(self.seat_wins)
            ],
            "per_bot": [
                {
                    "bot": name,
                    "wins": self.bot_wins[name],
                    "seats_held": self.bot_seats[name],
                    "rate": self.bot_wins[name] / self.bot_seats[name] if self.bot_seats[name] else 0.0,
                    "ci95": list(wilson_interval(self.bot_wins[name], self.bot_seats[name])),
                }
                for name in dict.fromkeys(self.names)
            ],
            "deals_per_match": self.deals / n if n else 0.0,
            "ace_of_spades_holder_takes_a_trick": self.ace_tricks / self.ace_deals if self.ace_deals else None,
        }
