"""The solver's effort on fixed positions: the positions each search visits and its zero-window passes, pinned.

The values are checked against brute force elsewhere (``test_solver_exact.py``). These counts catch a change to
how the search finds them: the order of the children, the first guess of the zero-window search, a bound's
pruning, the reuse of the table. No test of values can see such a change, and each is a change of speed; a chess
engine's "bench" node count pins the same thing. A deliberate change to the search changes these numbers: the
failure shows the new ones, to be copied here with the reason in the commit.
"""

from __future__ import annotations

import random
import time
from typing import Any, Literal

import pytest

from fly_rules import dreyfus, fly
from fly_rules.bots import RuleOfThumbBot
from fly_rules.engine import Phase
from fly_rules.solve import Respond, Search, SolveTimeUp, evaluate, kernel_of, solve

POSITIONS = {
    # (game, players, seed, cards played at random): positions visited by max^n, by a full-window paranoid search,
    # by the zero-window search (with its passes), by it again on the same table, and from a first guess 7 too low
    # and 7 too high.
    ("fly", 3, 1, 3): {
        "maxn": 150,
        "paranoid": 64,
        "zero window": (67, 2),
        "again": (2, 2),
        "guess 7 low": (68, 3),
        "guess 7 high": (93, 4),
        "best response": 124,
        "solve maxn": ("maxn", 294),
        "solve paranoid": ("paranoid", 394),
    },
    ("fly", 3, 5, 0): {
        "maxn": 585,
        "paranoid": 107,
        "zero window": (107, 3),
        "again": (2, 2),
        "guess 7 low": (108, 4),
        "guess 7 high": (139, 4),
        "best response": 281,
        "solve maxn": ("maxn", 707),
        "solve paranoid": ("paranoid", 733),
    },
    ("fly", 4, 2, 4): {
        "maxn": 2931,
        "paranoid": 142,
        "zero window": (72, 2),
        "again": (2, 2),
        "guess 7 low": (72, 2),
        "guess 7 high": (237, 6),
        "best response": 112,
        "solve maxn": ("maxn", 3410),
        "solve paranoid": ("paranoid", 998),
    },
    ("fly", 5, 3, 5): {
        "maxn": 587,
        "paranoid": 99,
        "zero window": (51, 2),
        "again": (2, 2),
        "guess 7 low": (51, 2),
        "guess 7 high": (148, 6),
        "best response": 122,
        "solve maxn": ("maxn", 912),
        "solve paranoid": ("paranoid", 755),
    },
    ("fly", 7, 4, 7): {
        "maxn": 8604,
        "paranoid": 927,
        "zero window": (915, 3),
        "again": (2, 2),
        "guess 7 low": (915, 3),
        "guess 7 high": (1022, 5),
        "best response": 203,
        "solve maxn": ("maxn", 9900),
        "solve paranoid": ("paranoid", 3760),
    },
    ("dreyfus", 3, 6, 12): {
        "maxn": 73280,
        "paranoid": 1282,
        "zero window": (1087, 2),
        "again": (2, 2),
        "guess 7 low": (1088, 3),
        "guess 7 high": (2244, 8),
        "best response": 4331,
        "solve maxn": ("maxn", 74445),
        "solve paranoid": ("paranoid", 6944),
    },
    ("dreyfus", 3, 8, 12): {
        "maxn": 3648,
        "paranoid": 374,
        "zero window": (289, 2),
        "again": (2, 2),
        "guess 7 low": (290, 3),
        "guess 7 high": (704, 8),
        "best response": 12341,
        "solve maxn": ("maxn", 4159),
        "solve paranoid": ("paranoid", 1617),
    },
    ("dreyfus", 3, 7, 18): {
        "maxn": 2387,
        "paranoid": 80,
        "zero window": (69, 2),
        "again": (2, 2),
        "guess 7 low": (69, 2),
        "guess 7 high": (157, 6),
        "best response": 920,
        "solve maxn": ("maxn", 2717),
        "solve paranoid": ("paranoid", 716),
    },
}


def _played(game: str, players: int, seed: int, cards: int) -> Any:
    """Seed ``seed``'s first deal, every decision at random, ``cards`` cards into its play."""
    rng = random.Random(seed)
    match = (
        fly.new_match(fly.FlyRules(players=players), seed=seed, dealer=0)
        if game == "fly"
        else dreyfus.new_match(dreyfus.DreyfusRules(), seed=seed)
    )
    deal = match.deal
    while deal.phase is not Phase.PLAY or cards > 0:
        cards -= deal.phase is Phase.PLAY
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _effort(deal: Any) -> dict[str, Any]:
    hero = deal.to_move
    effort: dict[str, Any] = {}
    search = Search(kernel_of(deal))
    search.maxn(search.kernel.node(deal))
    effort["maxn"] = search.nodes
    search = Search(kernel_of(deal))
    search.paranoid(search.kernel.node(deal), hero)
    effort["paranoid"] = search.nodes
    search = Search(kernel_of(deal))
    value = search.paranoid_exact(search.kernel.node(deal), hero)
    effort["zero window"] = (search.nodes, search.passes)
    before = search.nodes
    assert search.paranoid_exact(search.kernel.node(deal), hero) == value
    effort["again"] = (search.nodes - before, search.passes)
    for name, guess in (("guess 7 low", value - 7), ("guess 7 high", value + 7)):
        search = Search(kernel_of(deal))
        assert search.paranoid_exact(search.kernel.node(deal), hero, guess) == value
        effort[name] = (search.nodes, search.passes)
    respond: Respond[Any] = Respond(hero, RuleOfThumbBot())
    respond.values(deal, list(deal.legal_actions()))
    effort["best response"] = respond.nodes
    concepts: tuple[tuple[Literal["maxn", "paranoid"], int | None], ...] = (("maxn", None), ("paranoid", hero))
    for concept, seat in concepts:
        solution = solve(deal, concept=concept, seat=seat)
        effort[f"solve {concept}"] = (solution.concept, solution.nodes)
    return effort


def test_a_best_response_looks_at_the_clock_again_as_it_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A best response reads the clock when made and again every 1,024 positions: with a clock that passes the
    deadline after its first reading, the search stops at the 1,025th position."""
    deal = _played("dreyfus", 3, 6, 12)
    readings = iter([100.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(readings, 200.0))
    respond: Respond[Any] = Respond(deal.to_move, RuleOfThumbBot(), deadline=150.0)
    with pytest.raises(SolveTimeUp):
        respond.values(deal, list(deal.legal_actions()))
    assert respond.nodes == 1025


@pytest.mark.parametrize("position", list(POSITIONS), ids=lambda position: "-".join(map(str, position)))
def test_each_search_visits_the_positions_it_did(position: tuple[Any, ...]) -> None:
    """Each search of the position visits as many positions, in as many passes, as when these were pinned."""
    assert _effort(_played(*position)) == POSITIONS[position]


def test_evaluate_gives_each_card_s_max_n_value_unless_told_paranoid() -> None:
    """``evaluate`` under max^n (its default) gives the mover's value of each card as ``solve`` finds it, not the
    paranoid one: at this position the two differ for the queen of spades."""
    deal = _played("fly", 4, 1, 4)
    mover = deal.to_move
    maxn = evaluate(deal)
    assert maxn == {action: values[mover] for action, values in solve(deal).action_values.items()}
    assert maxn != evaluate(deal, concept="paranoid", seat=mover)
