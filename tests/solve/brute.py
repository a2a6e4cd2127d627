"""A deliberately naive search of the solver's two solution concepts, over ``legal_actions`` and ``apply`` only.

It shares nothing with :mod:`fly_rules.solve` but the definitions: max^n (every seat to move takes what is best
for itself) and paranoid (one seat maximises its score, the others minimise it), ties broken by the tie order
(cards by suit, then from the weakest by the rules' rank order; declarations in ``legal_actions()`` order). No
table, no equivalent cards, no pruning: every line of play is walked, so it fits small trees only.
"""

from __future__ import annotations

from typing import Any

from fly_rules.actions import Play


class TooBig(Exception):
    """The tree has more positions than the search was allowed."""


class Brute:
    """The two searches, with a budget of positions.

    Args:
        limit: the most positions to visit before :class:`TooBig`.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.nodes = 0

    def _visit(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig

    def maxn(self, state: Any) -> tuple[tuple[int, ...], list[Any]]:
        """Every seat's final scores and the line, under max^n."""
        self._visit()
        if state.is_over:
            return state.scores, []
        return self.maxn_children(state)[0]

    def maxn_children(self, state: Any) -> tuple[tuple[tuple[int, ...], list[Any]], dict[Any, tuple[int, ...]]]:
        """The max^n result of ``state`` (not over), and every legal action's final scores."""
        mover = state.to_move
        best: tuple[tuple[int, ...], list[Any]] | None = None
        each = {}
        for action in tie_order(state):
            scores, line = self.maxn(state.apply(action))
            each[action] = scores
            if best is None or scores[mover] > best[0][mover]:
                best = (scores, [action, *line])
        assert best is not None
        return best, each

    def paranoid(self, state: Any, hero: int) -> tuple[int, list[Any]]:
        """The hero's final score and the line, when the hero maximises it and the others minimise it."""
        self._visit()
        if state.is_over:
            return state.scores[hero], []
        maximise = state.to_move == hero
        best: tuple[int, list[Any]] | None = None
        for action in tie_order(state):
            score, line = self.paranoid(state.apply(action), hero)
            if best is None or (score > best[0] if maximise else score < best[0]):
                best = (score, [action, *line])
        assert best is not None
        return best


def tie_order(state: Any) -> list[Any]:
    """The legal actions in the solver's tie order."""
    actions = list(state.legal_actions())
    if actions and all(type(action) is Play for action in actions):
        strength = state.rules.rank_order.strength
        actions.sort(key=lambda action: (action.card.suit, strength[action.card.rank]))
    return actions
