"""Bad input to the solver: every seat, limit, search and deadline that cannot be used is refused by name,
never read as another seat (``-1`` as the last) or failed on inside the search."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

from fly_rules import dreyfus, fly
from fly_rules.bots import RuleOfThumbBot
from fly_rules.engine import Phase
from fly_rules.errors import FlyRulesError
from fly_rules.solve import Respond, Search, SolveLimitReached, evaluate, kernel_of, solve
from fly_rules.solve.search import SolveTimeUp


def _fly_play(players: int = 4, seed: int = 2) -> Any:
    """A Fly deal at its first lead (every seat stood)."""
    deal = fly.new_match(fly.FlyRules(players=players), seed=seed, dealer=0).deal
    while deal.phase is Phase.EXCHANGE:
        deal = deal.apply(fly.Stand())
    return deal


def _dreyfus_play(seed: int = 0) -> Any:
    """A Dreyfus deal at its first lead, the exchange made by the rule of thumb."""
    deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=seed, dealer=0).deal
    bot = RuleOfThumbBot()
    while deal.phase is Phase.EXCHANGE:
        seat = deal.to_move
        assert seat is not None
        deal = deal.apply(bot.choose(deal.view(seat), deal.legal_actions(), random.Random(0)))
    return deal


@pytest.mark.parametrize("seat", [-1, -4, 4, 10**200, True, "1", 1.0, None])
@pytest.mark.parametrize("concept", ["maxn", "paranoid"])
def test_evaluate_refuses_every_seat_not_at_the_table(seat: object, concept: str) -> None:
    """A seat must be 0 to players-1: -1 is not the last seat (it gave seat 3's values on a 4-seat deal)."""
    deal = _fly_play()
    if seat is None:  # the default: the seat to move
        assert set(evaluate(deal, concept=concept, seat=seat)) == set(deal.legal_actions())  # type: ignore[arg-type]
        return
    with pytest.raises(FlyRulesError, match="seat must be a seat number from 0 to 3"):
        evaluate(deal, concept=concept, seat=seat)  # type: ignore[arg-type]


def test_evaluate_of_every_seat_in_range_differs_from_a_refusal() -> None:
    """The seats 0 to 3 are each valued (the check refuses no seat at the table)."""
    deal = _fly_play()
    for seat in range(4):
        assert set(evaluate(deal, seat=seat)) == set(deal.legal_actions())


@pytest.mark.parametrize("limit", ["10", -1, 2.5, True, [10]])
def test_a_limit_that_is_not_a_count_is_refused(limit: object) -> None:
    """``limit`` must be None or a whole number >= 0 (``"10"`` failed inside the search with a TypeError)."""
    deal = _fly_play()
    with pytest.raises(FlyRulesError, match="limit must be a whole number >= 0"):
        solve(deal, limit=limit)  # type: ignore[arg-type]
    with pytest.raises(FlyRulesError, match="limit must be a whole number >= 0"):
        evaluate(deal, limit=limit)  # type: ignore[arg-type]
    with pytest.raises(FlyRulesError, match="limit must be a whole number >= 0"):
        Respond(deal.to_move, RuleOfThumbBot(), limit=limit)  # type: ignore[arg-type]


def test_a_numpy_limit_counts_like_an_int() -> None:
    """NumPy's integers are whole numbers too: ``np.int64(10)`` is the limit 10."""
    deal = _fly_play()
    with pytest.raises(SolveLimitReached) as caught:
        solve(deal, limit=np.int64(10))  # type: ignore[arg-type]
    assert caught.value.limit == 10
    assert type(caught.value.limit) is int


def test_a_search_made_for_another_game_s_deal_is_refused() -> None:
    """A Search keeps its deal's kernel and table: given another game's deal, or another deal of the same game,
    it is refused by name (it failed inside the kernel, or answered from the wrong positions)."""
    fly_deal, dreyfus_deal = _fly_play(), _dreyfus_play(1)
    for search, deal in (
        (Search(kernel_of(dreyfus_deal)), fly_deal),
        (Search(kernel_of(fly_deal)), dreyfus_deal),
        (Search(kernel_of(_fly_play(seed=3))), fly_deal),
    ):
        with pytest.raises(FlyRulesError, match="this Search was made for another deal"):
            evaluate(deal, search=search)
    mine = Search(kernel_of(fly_deal))
    assert evaluate(fly_deal, search=mine) == evaluate(fly_deal)  # its own deal: the same values
    with pytest.raises(TypeError, match="search must be a Search"):
        evaluate(fly_deal, search="search")  # type: ignore[arg-type]
    with pytest.raises(FlyRulesError, match="give the limit to the Search"):
        evaluate(fly_deal, search=mine, limit=10)
    with pytest.raises(TypeError, match="a Search needs a search kernel"):
        Search(fly_deal)


def test_respond_refuses_a_seat_and_a_model_it_cannot_use() -> None:
    """The best response's seat is a seat number and its model a bot."""
    with pytest.raises(FlyRulesError, match="seat must be a seat number"):
        Respond(-1, RuleOfThumbBot())
    with pytest.raises(TypeError, match="the model must be a bot"):
        Respond(0, "thumb")  # type: ignore[arg-type]  # the wrong type, on purpose


def test_a_search_still_running_at_its_deadline_stops_within_milliseconds() -> None:
    """A deadline stops a long Dreyfus search soon after it passes (SolveTimeUp); a far one changes nothing."""
    deal = _dreyfus_play(0)
    started = time.monotonic()
    with pytest.raises(SolveTimeUp):
        evaluate(deal, concept="paranoid", search=Search(kernel_of(deal), deadline=started + 0.05))
    assert time.monotonic() - started < 0.5
    quick = _dreyfus_play(1)
    far = Search(kernel_of(quick), deadline=time.monotonic() + 3600)
    assert evaluate(quick, concept="paranoid", search=far) == evaluate(quick, concept="paranoid")
    with pytest.raises(FlyRulesError, match="deadline must be a time.monotonic"):
        Search(kernel_of(deal), deadline="soon")
