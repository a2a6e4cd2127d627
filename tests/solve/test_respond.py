"""The best response to known players (fly_rules.solve.respond): its values are realised by following them, and
never fall below what the model itself makes in the seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.bots import RuleOfThumbBot
from fly_rules.errors import FlyRulesError
from fly_rules.solve import Respond, SolveLimitReached, best_response

THUMB = RuleOfThumbBot()


def _play_out(state: Any, seat: int, respond: bool) -> int:
    """``seat``'s score change to the end of the deal: it follows its best response (or the rule of thumb), the
    others the rule of thumb."""
    start = state.scores[seat]
    while not state.is_over:
        mover = state.to_move
        if respond and mover == seat:
            values = best_response(state, seat, THUMB)
            action = max(values, key=values.__getitem__)
        else:
            action = THUMB.choose(state.view(mover), state.legal_actions(), random.Random(0))
        state = state.apply(action)
    change: int = state.scores[seat] - start
    return change


@pytest.mark.parametrize("seed", range(6))
def test_following_the_best_response_realises_its_value_and_beats_the_model(seed: int) -> None:
    """From the first declaration of a 4-player Fly deal: the best value of the seat to move is what it makes when
    it follows its best response at each of its moves against rule-of-thumb players, and at least what the rule of
    thumb makes in its seat (the rule of thumb is one of the seat's ways to play)."""
    deal: Any = fly.new_match(fly.FlyRules(players=4), seed=f"respond:{seed}", dealer=seed % 4).deal
    seat = deal.to_move
    values = best_response(deal, seat, THUMB)
    assert set(values) == set(deal.legal_actions())
    best = max(values.values())
    assert _play_out(deal, seat, respond=True) == best
    assert best >= _play_out(deal, seat, respond=False)


def test_the_best_response_plays_dreyfus_too() -> None:
    """The search knows no game: late in a Dreyfus deal its best value is realised and is at least the rule of
    thumb's."""
    state: Any = dreyfus.new_match(dreyfus.DreyfusRules(), seed=5).deal
    while state.phase.name != "PLAY" or len(state.view(0).tricks) < 8:
        state = state.apply(THUMB.choose(state.view(state.to_move), state.legal_actions(), random.Random(0)))
    seat = state.to_move
    best = max(best_response(state, seat, THUMB).values())
    assert _play_out(state, seat, respond=True) == best >= _play_out(state, seat, respond=False)


def test_a_search_past_its_limit_and_a_seat_not_to_move_are_refused() -> None:
    """More positions than ``limit`` raise SolveLimitReached; a seat that is not to move is named in the error."""
    deal: Any = fly.new_match(fly.FlyRules(players=3), seed=2, dealer=0).deal
    with pytest.raises(SolveLimitReached):
        Respond(deal.to_move, THUMB, limit=10).values(deal, deal.legal_actions())
    other = (deal.to_move + 1) % 3
    with pytest.raises(FlyRulesError, match=f"seat {other} is not to move"):
        best_response(deal, other, THUMB)
