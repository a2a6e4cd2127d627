"""The exact value of a deal whose cards are all known, and the best action of the seat to move.

:func:`solve` searches a deal (or a match's current deal) to its end with every hand, and in Fly the
order of the stock, open. It plays through the game's own rule-section functions, so every score it
reports comes from the engine's scoring (remises, the A♠ bonus and penalty, exact zero, overshoot,
revokes, every option). Two solution concepts, both for games where every seat plays for itself:

- ``"maxn"`` (the default): every seat to move takes the action best for itself (max^n). When several
  actions give it the same value it takes the first of them in the **tie order**: in play the cards
  by suit (clubs, diamonds, hearts, spades), and within a suit from the weakest by the rules' rank
  order; in the exchange the declarations in ``legal_actions()`` order.
- ``"paranoid"``: one seat (``seat``, by default the seat to move) maximises its own score and every
  other seat minimises it, as if all had joined against it; ties as above. A two-sided game again, so
  it is searched by alpha-beta, and it is what the expert bot uses where max^n is too costly.

>>> from fly_rules import fly
>>> deal = fly.new_deal(fly.FlyRules(players=3), dealer=0, hands=["7C 8C 9C TC JC", "7H 8H TH JH QH",
...     "7D 8D 9D TD JD"], trump_card="AS", stock=["7S", "8S"])
>>> for _ in range(3):
...     deal = deal.apply(fly.Stand())
>>> solution = solve(deal)  # seat 1 leads his hearts: nobody can follow or trump, so he takes every trick
>>> solution.best, solution.values, len(solution.line)
(Play(card=Card.parse('7H')), (-5, 5, -5), 15)

Following ``solution.best`` from every position of ``solution.line`` realises ``solution.values``
exactly. :func:`evaluate` gives one seat's value of every legal action, the piece the expert bot and
the analysis need.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from operator import sub
from typing import Any, Literal, TypeVar

import attrs

from fly_rules import registry
from fly_rules.engine.protocols import GameState
from fly_rules.engine.solving import ProtocolKernel, SearchKernel
from fly_rules.errors import FlyRulesError, shown
from fly_rules.solve.respond import Respond, best_response
from fly_rules.solve.search import Search, SolveLimitReached, SolveTimeUp

__all__ = [
    "CONCEPTS",
    "Concept",
    "Respond",
    "Search",
    "Solution",
    "SolveLimitReached",
    "SolveTimeUp",
    "best_response",
    "evaluate",
    "kernel_of",
    "solve",
]

Concept = Literal["maxn", "paranoid"]
"""The name of a solution concept: ``"maxn"`` or ``"paranoid"``."""
CONCEPTS: tuple[Concept, ...] = ("maxn", "paranoid")
"""The solution concepts :func:`solve` knows."""
_N = TypeVar("_N")
_T = TypeVar("_T", bound=Hashable)


@attrs.frozen
class Solution:
    """What :func:`solve` found: the best action, the values along the solver's line, every action's values."""

    concept: Concept
    """The solution concept searched."""
    seat: int | None
    """The seat whose score the paranoid search maximises; None for max^n."""
    best: object
    """The action the seat to move takes (None when the deal is over)."""
    values: tuple[int, ...]
    """Per seat, the change of the deal's ``scores`` to its end along :attr:`line`."""
    line: tuple[object, ...]
    """The actions of every seat from here to the end of the deal, :attr:`best` first."""
    action_values: Mapping[object, tuple[int, ...]]
    """Per legal action, in tie order, the change of every seat's score along that action's line."""
    nodes: int
    """Positions the search visited (table hits included)."""


def kernel_of(deal: GameState) -> SearchKernel[Any, Any]:
    """The search kernel of ``deal``'s game: the game's own, else :class:`~fly_rules.engine.solving.ProtocolKernel`.

    Its node and move types are the game's own (Any: a kernel of some game, whichever ``deal`` is of)."""
    make = registry.game_of(deal).search_kernel
    kernel: SearchKernel[Any, Any] = ProtocolKernel() if make is None else make(deal)
    return kernel


def _deal_of(state: object) -> GameState:
    deal = getattr(state, "deal", state)
    if not isinstance(deal, GameState):
        raise TypeError(
            f"solve needs a deal or match with every card known, not {type(state).__name__}"
            " (a seat's view hides cards: the expert bot plays from a view)"
        )
    return deal


def _check(deal: GameState, concept: object, seat: object) -> int | None:
    if concept not in CONCEPTS:
        raise FlyRulesError(f"unknown solution concept {shown(concept)} (known: {', '.join(CONCEPTS)})")
    if concept == "maxn":
        if seat is not None:
            raise FlyRulesError("max^n has no seat of its own: give seat= only with concept='paranoid'")
        return None
    if seat is None:
        return deal.to_move
    return _seat(deal, seat)


def _seat(deal: GameState, seat: object) -> int:
    """``seat`` if it is a seat at ``deal``'s table (an int, not a bool: -1 is no seat of a deal)."""
    players = len(deal.scores)
    if type(seat) is not int or not 0 <= seat < players:
        raise FlyRulesError(f"seat must be a seat number from 0 to {players - 1}, not {shown(seat)}")
    return seat


def _fits(search: object, deal: GameState) -> Search[Any, Any]:
    """``search`` if it is a :class:`Search` made for ``deal``: a kernel keeps its deal's table (the game, the rules,
    the trump), and a search made for another deal would answer from another game's positions."""
    if not isinstance(search, Search):
        raise TypeError(f"search must be a Search made for this deal, not {type(search).__name__}")
    table = getattr(search.kernel, "table", None)
    if table is not None and table != getattr(deal, "table", None):
        raise FlyRulesError(
            f"this Search was made for another deal (its kernel is {type(search.kernel).__name__}, the deal is"
            f" {type(deal).__name__}, or the same game's other deal): make one Search(kernel_of(deal)) per deal"
        )
    return search


def _values(search: Search[_N, _T], node: _N, concept: Concept, hero: int | None) -> dict[_T, tuple[int, ...] | int]:
    """Per child token (tie order), the child's value: max^n every seat's final scores, paranoid the hero's."""
    out: dict[_T, tuple[int, ...] | int] = {}
    guess = None
    for token, child in search.kernel.children(node):
        if concept == "maxn":
            out[token] = search.maxn(child)
        else:
            assert hero is not None
            out[token] = guess = search.paranoid_exact(child, hero, guess)  # siblings' values lie close
    return out


def _choose(values: dict[_T, Any], concept: Concept, mover: int, hero: int | None) -> _T:
    """The first token in tie order with the best value for the mover under the concept."""
    if concept == "maxn":
        return max(values, key=lambda token: values[token][mover])  # max keeps the first of equals
    if mover == hero:
        return max(values, key=values.__getitem__)
    return min(values, key=values.__getitem__)


def _line(search: Search[_N, _T], node: _N, concept: Concept, hero: int | None) -> tuple[list[object], tuple[int, ...]]:
    """The actions from ``node`` to the end of the deal under the concept, and the final scores."""
    kernel = search.kernel
    actions: list[object] = []
    while True:
        mover = kernel.mover(node)
        if mover is None:
            return actions, kernel.scores(node)
        values = _values(search, node, concept, hero)
        token = _choose(values, concept, mover, hero)
        actions.append(kernel.action(node, token))
        node = dict(kernel.children(node))[token]


def solve(
    state: GameState, *, concept: Concept = "maxn", seat: int | None = None, limit: int | None = None
) -> Solution:
    """The exact solution of ``state`` (a deal, or a match's current deal) under ``concept``.

    Args:
        state: a deal or match: every card is known to the solver.
        concept: ``"maxn"`` or ``"paranoid"`` (see the module's text).
        seat: with ``"paranoid"``, the seat whose score is maximised (default: the seat to move).
        limit: the most positions to visit (None: no limit).

    Raises:
        TypeError: ``state`` is not a deal or match (a view, say).
        FlyRulesError: an unknown concept, a seat with max^n, a seat that is not at the table, or a limit that is
            not a whole number >= 0.
        SolveLimitReached: the search needed more than ``limit`` positions.
    """
    deal = _deal_of(state)
    hero = _check(deal, concept, seat)
    kernel = kernel_of(deal)
    search = Search(kernel, limit)
    root = kernel.node(deal)
    base = deal.scores
    mover = kernel.mover(root)
    if mover is None:
        return Solution(concept, hero, None, (0,) * len(base), (), {}, 0)
    children = dict(kernel.children(root))
    values = _values(search, root, concept, hero)
    token = _choose(values, concept, mover, hero)
    per_token: dict[Hashable, tuple[tuple[object, ...], tuple[int, ...]]] = {}
    for each in values:
        first = kernel.action(root, each)
        rest, final = _line(search, children[each], concept, hero)
        per_token[each] = ((first, *rest), tuple(map(sub, final, base)))
    line, change = per_token[token]
    action_values = {action: per_token[each][1] for action, each in kernel.actions(root)}
    return Solution(concept, hero, line[0], change, line, action_values, search.nodes)


def evaluate(
    state: GameState,
    *,
    concept: Concept = "maxn",
    seat: int | None = None,
    search: Search[Any, Any] | None = None,
    limit: int | None = None,
) -> dict[object, int]:
    """Per legal action of the seat to move (in tie order), the change of ``seat``'s score to the end of
    the deal under ``concept`` (default seat: the seat to move). Cheaper than :func:`solve`: no line is
    followed. ``search`` may be given to keep its transposition table between calls on one deal (it must be made
    for that deal: ``Search(kernel_of(deal), limit)``).

    Raises:
        TypeError: ``state`` is not a deal or match, or ``search`` is not a :class:`Search`.
        FlyRulesError: an unknown concept, a seat that is not at the table, a ``search`` made for another deal, or
            ``limit`` given beside ``search``.
        SolveLimitReached: the search needed more than its limit of positions.
    """
    deal = _deal_of(state)
    if concept == "maxn":
        _check(deal, concept, None)
        target = deal.to_move if seat is None else _seat(deal, seat)
    else:
        target = _check(deal, concept, seat)
    if search is None:
        search = Search(kernel_of(deal), limit)
    elif limit is not None:
        raise FlyRulesError("give the limit to the Search (Search(kernel, limit)), not beside search=")
    else:
        search = _fits(search, deal)
    kernel = search.kernel
    root = kernel.node(deal)
    if kernel.mover(root) is None:
        return {}
    assert target is not None  # a seat is to move
    base = deal.scores[target]
    values = _values(search, root, concept, target)  # max^n gives every seat's values whatever the hero
    out: dict[object, int] = {}
    for action, token in kernel.actions(root):
        value = values[token]
        out[action] = (value[target] if isinstance(value, tuple) else value) - base
    return out
