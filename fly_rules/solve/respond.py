"""The best response to known players: what one seat makes at most when every other seat plays like a model.

Max^n and paranoid search (:mod:`fly_rules.solve.search`) assume nothing of the other seats but that they
play for themselves, or all against the seat. When the others are known to play by a fixed policy (a bot,
the library's rule of thumb), the seat can do better: it may count on their every move. :class:`Respond`
searches every action of the seat and asks the model for everyone else's, through the deal's own
``legal_actions`` and ``apply``, so every score is the engine's. The model is asked with ``random.Random(0)``
at each of its decisions: a policy that draws at random is taken at one fixed draw.

>>> from fly_rules import fly
>>> from fly_rules.actions import Play
>>> from fly_rules.bots import RuleOfThumbBot
>>> from fly_rules.cards import Card
>>> deal = fly.new_deal(fly.FlyRules(players=3), dealer=0, hands=["7C 8C 9C TC JC", "7H 8H TH JH QH",
...     "7D 8D 9D TD JD"], trump_card="AS", stock=["7S", "8S"])
>>> for _ in range(3):
...     deal = deal.apply(fly.Stand())
>>> best_response(deal, 1, RuleOfThumbBot())[Play(Card.parse("QH"))]  # seat 1 takes all five tricks
5
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from fly_rules._numbers import check_count
from fly_rules.actions import Action
from fly_rules.engine.protocols import Bot, GameState
from fly_rules.errors import FlyRulesError, shown
from fly_rules.solve.search import check_deadline, next_look

__all__ = ["Respond", "best_response"]

_S = TypeVar("_S", bound=GameState)

Choices = Callable[[_S, Sequence[Action]], Sequence[Action]]
"""``choices(state, legal_actions)``: the seat's actions worth searching at a position (default: all)."""
Worth = Callable[[_S], float]
"""``worth(state)``: what a position is worth to the seat (default: its score); the search maximises its change."""


class Respond(Generic[_S]):
    """The best-response search of one seat against a model of the others.

    Args:
        seat: the seat that searches.
        model: a bot (``choose(view, legal_actions, rng)``) that makes every other seat's moves.
        choices: which of the seat's actions to search where it moves (default: every legal action).
        limit: the most positions to visit in all (None: no limit); past it :class:`SolveLimitReached`.
        worth: what the end of the deal is worth to the seat (default: its score, ``state.scores[seat]``), e.g.
            its chance of winning the match from the records (:mod:`fly_rules.fly.race`).
        deadline: a ``time.monotonic()`` instant (None: none); a search still running then raises
            :class:`~fly_rules.solve.search.SolveTimeUp`.

    Raises:
        FlyRulesError: ``seat`` is not a seat number, ``limit`` not a whole number >= 0, or ``deadline`` not None or
            a number.
        TypeError: ``model`` is not a bot.
    """

    def __init__(
        self,
        seat: int,
        model: Bot[Any],  # Any: a bot of the state's game, whose view GameState.view does not name
        choices: Choices[_S] | None = None,
        limit: int | None = None,
        worth: Worth[_S] | None = None,
        deadline: float | None = None,
    ) -> None:
        if type(seat) is not int or seat < 0:
            raise FlyRulesError(f"seat must be a seat number, not {shown(seat)}")
        if not callable(getattr(model, "choose", None)):
            raise TypeError(f"the model must be a bot (with choose(view, legal_actions, rng)), not {shown(model)}")
        self.seat = seat
        self.model = model
        self.choices = choices
        self.limit = None if limit is None else check_count(limit, "limit")
        self.worth: Worth[_S] = worth if worth is not None else self._score
        self.deadline = check_deadline(deadline)
        self.nodes = 0
        """Positions visited so far."""
        self._checkpoint = next_look(0, self.limit, self.deadline)

    def _score(self, state: _S) -> int:
        return state.scores[self.seat]

    def value(self, state: _S) -> float:
        """What the end of the deal from ``state`` is worth to the seat (``worth``), the seat playing its best."""
        self.nodes += 1
        if self.nodes > self._checkpoint:
            self._checkpoint = next_look(self.nodes, self.limit, self.deadline)
        while not state.is_over:
            mover = state.to_move
            legal = state.legal_actions()
            if mover == self.seat:
                if self.choices is not None:
                    legal = self.choices(state, legal)
                return max(self.value(state.apply(action)) for action in legal)
            if TYPE_CHECKING:  # the deal is not over: a seat is to move
                assert mover is not None
            state = state.apply(self.model.choose(state.view(mover), legal, random.Random(0)))
            self.nodes += 1
        return self.worth(state)

    def values(self, state: _S, actions: Sequence[Action]) -> dict[Action, float]:
        """Per action of ``actions`` (the seat to move's), the change of what the seat's position is worth
        (``worth``: by default its score) to the end of the deal when it takes it and then plays its best."""
        base = self.worth(state)
        return {action: self.value(state.apply(action)) - base for action in actions}


def best_response(state: GameState, seat: int, model: Bot[Any], *, limit: int | None = None) -> dict[Action, float]:
    """Per legal action of ``seat`` (which must be to move), the change of its score to the end of the deal
    when it takes the action and then plays its best, every other seat playing as ``model`` does.

    Raises:
        FlyRulesError: ``seat`` is not the seat to move.
        SolveLimitReached: more than ``limit`` positions were needed.
    """
    deal: GameState = getattr(state, "deal", state)
    if deal.is_over or deal.to_move != seat:
        raise FlyRulesError(f"seat {shown(seat)} is not to move (the seat to move: {shown(deal.to_move)})")
    responder: Respond[GameState] = Respond(seat, model, limit=limit)
    return responder.values(deal, deal.legal_actions())
