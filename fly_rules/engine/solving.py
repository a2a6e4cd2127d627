"""What an exact search needs of a game: the search kernel protocol, the kernel every game has through
its public protocol, and the card arithmetic that game kernels share.

:mod:`fly_rules.solve` searches a game through a :class:`SearchKernel`: the children of a search node
(one per class of equivalent actions, in the solver's tie order), the seat to move, the scores, and
a key under which two nodes with the same future share one entry of the transposition table. A game
without a kernel of its own is searched through :class:`ProtocolKernel`, its states' own
``legal_actions`` and ``apply``; Fly and Dreyfus add kernels that play cards through their rule-section
functions on bitmasks (``fly_rules.fly.solving``, ``fly_rules.dreyfus.solving``).

Two facts of trick play make the search small, and both are computed here for any rank order:

- **Touching cards.** Two cards of one suit in one hand with no live card between them in the rank
  order (a card is live while it is in an active hand or in the trick on the table) win and lose the
  same tricks, so only the weakest of such a run needs searching (:meth:`RankTables.representatives`).
- **Relative ranks.** Once cards are gone, only the order of the live cards matters: positions whose
  hands hold the same places in the order of the live cards of each suit have the same future
  (:meth:`RankTables.relative`), however different the cards are.

A card with a rule of its own (Fly's A♠ and ace of trumps) is named to both as *special*: it is never
folded into a run, and its place is part of the key.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from fly_rules.actions import Action
from fly_rules.cards import RankOrder
from fly_rules.engine.protocols import GameState

__all__ = ["ProtocolKernel", "RankTables", "SearchKernel", "rank_tables"]


_N = TypeVar("_N")
"""A kernel's search node."""
_T = TypeVar("_T")
"""A kernel's move: the token of one class of equivalent actions."""


@runtime_checkable
class SearchKernel(Protocol[_N, _T]):
    """How :mod:`fly_rules.solve` walks one game's positions, generic in the kernel's node and move (its token of a
    class of equivalent actions): ``SearchKernel[GameState, Action]`` for :class:`ProtocolKernel`."""

    def node(self, state: Any) -> _N:
        """The search node of a deal (the game's own deal class)."""

    def mover(self, node: _N) -> int | None:
        """The seat to move at ``node``; None when the deal is over."""

    def scores(self, node: _N) -> tuple[int, ...]:
        """Each seat's score at ``node`` (the state's ``scores``: higher is better)."""

    def children(self, node: _N) -> Sequence[tuple[_T, _N]]:
        """``(token, child)`` for one action of each class of equivalent legal actions, in tie order."""

    def tokens(self, node: _N) -> Sequence[_T]:
        """The tokens of :meth:`children` without making the children."""

    def child(self, node: _N, token: _T) -> _N:
        """The child of ``node`` after the action of ``token``."""

    def key(self, node: _N) -> Hashable | None:
        """A key shared only by nodes with the same future (the same value changes to the end of the
        deal whatever the search does), or None where the node is not worth storing."""

    def actions(self, node: _N) -> Sequence[tuple[object, _T]]:
        """Every legal action at ``node`` in tie order, each with the token of its class's child."""

    def action(self, node: _N, token: _T) -> object:
        """The engine action of ``token`` at ``node``."""


class ProtocolKernel:
    """The kernel of any registered game, through its states' ``legal_actions`` and ``apply``: a
    ``SearchKernel[GameState, Action]``.

    Every action is its own class (nothing is known to be equivalent), the tie order is the order
    of ``legal_actions()``, and every position is stored under itself (states are equal by position).
    """

    def node(self, state: GameState) -> GameState:
        """The state itself."""
        return state

    def mover(self, node: GameState) -> int | None:
        """``to_move``, None once the deal is over."""
        return None if node.is_over else node.to_move

    def scores(self, node: GameState) -> tuple[int, ...]:
        """The state's ``scores``."""
        return node.scores

    def children(self, node: GameState) -> list[tuple[Action, GameState]]:
        """``(action, state after it)`` for each legal action, in ``legal_actions()`` order."""
        return [(action, node.apply(action)) for action in node.legal_actions()]

    def tokens(self, node: GameState) -> list[Action]:
        """The legal actions, in ``legal_actions()`` order."""
        return list(node.legal_actions())

    def child(self, node: GameState, token: Action) -> GameState:
        """The state after the action."""
        return node.apply(token)

    def key(self, node: GameState) -> Hashable:
        """The state (equal by position, whatever the actions that led to it)."""
        return node

    def actions(self, node: GameState) -> list[tuple[Action, Action]]:
        """Each legal action, its own token."""
        return [(action, action) for action in node.legal_actions()]

    def action(self, node: GameState, token: Action) -> Action:
        """The token is the action."""
        return token


class RankTables:
    """Touching cards and relative ranks under one rank order, as bit arithmetic on card masks.

    Args:
        order: the rank order of the game's rules.
    """

    def __init__(self, order: RankOrder) -> None:
        strength = order.strength
        self.order = order
        self.ace_high = all(strength[rank] == rank - 2 for rank in range(2, 15))
        """Whether the order is the cards' index order (strength by index), which makes it all faster."""
        places = [strength[index % 13 + 2] for index in range(52)]
        self.place = tuple(places)
        """Each card's place in its suit's order, 0 weakest."""
        self.weaker = tuple(
            sum(1 << (c // 13 * 13 + r) for r in range(13) if places[c // 13 * 13 + r] < places[c]) for c in range(52)
        )
        """Per card, the mask of the cards of its suit it outranks."""
        self.tie_order = tuple(sorted(range(52), key=lambda c: (c // 13, places[c])))
        """Every card index in the solver's tie order: by suit, then from the weakest."""

    def representatives(self, allowed: int, live: int, special: int) -> list[int]:
        """The cards of ``allowed`` to search, in tie order: the weakest of each run of touching cards
        (cards of ``allowed`` with no other ``live`` card between them), and every ``special`` card."""
        weaker = self.weaker
        out = []
        if self.ace_high:
            mask = allowed
            while mask:
                low = mask & -mask
                mask ^= low
                card = low.bit_length() - 1
                below = live & weaker[card]
                if below and not (special >> card & 1):
                    next_down = below.bit_length() - 1
                    if allowed >> next_down & 1 and not (special >> next_down & 1):
                        continue
                out.append(card)
            return out
        place = self.place
        for card in self.tie_order:
            if not allowed >> card & 1:
                continue
            below = live & weaker[card]
            if below and not (special >> card & 1):
                next_down = max(_bits(below), key=place.__getitem__)
                if allowed >> next_down & 1 and not (special >> next_down & 1):
                    continue
            out.append(card)
        return out

    def run_of(self, card: int, allowed: int, live: int, special: int) -> int:
        """The representative (see :meth:`representatives`) of the run of ``allowed`` holding ``card``."""
        if special >> card & 1:
            return card
        while True:
            below = live & self.weaker[card]
            if not below:
                return card
            next_down = max(_bits(below), key=self.place.__getitem__)
            if not allowed >> next_down & 1 or special >> next_down & 1:
                return card
            card = next_down

    def relative(self, hands: Sequence[int], live: int) -> tuple[int, ...]:
        """Each hand with every card moved to its place among the ``live`` cards of its suit (the weakest live
        card of a suit to that suit's lowest index, and so on): two positions with the same live cards in the
        same places have the same answer, whatever the cards."""
        if live.bit_count() > 3 * len(hands):  # many cards a hand: by suit, with tables of bit extraction
            return self._relative_by_suit(hands, live)
        weaker = self.weaker
        out = []
        for hand in hands:
            relative = 0
            cards = hand & live
            while cards:
                low = cards & -cards
                cards ^= low
                card = low.bit_length() - 1
                relative |= 1 << (card - card % 13 + (live & weaker[card]).bit_count())
            out.append(relative)
        return tuple(out)

    def _relative_by_suit(self, hands: Sequence[int], live: int) -> tuple[int, ...]:
        low_table, high_table, count = _extraction()
        permute = None if self.ace_high else self._permutation()
        out = [0] * len(hands)
        for shift in (0, 13, 26, 39):
            part = live >> shift & 8191
            if not part:
                continue
            if permute is not None:
                part = permute[part]
            low_row, high_row, below = low_table[part & 127], high_table[part >> 7], count[part & 127]
            for seat, hand in enumerate(hands):
                own = hand >> shift & part if permute is None else permute[hand >> shift & 8191] & part
                if own:
                    out[seat] |= (low_row[own & 127] | high_row[own >> 7] << below) << shift
        return tuple(out)

    @functools.cached_property
    def _permutation_table(self) -> tuple[int, ...]:
        places = self.place[:13]
        return tuple(sum(1 << places[rank] for rank in range(13) if part >> rank & 1) for part in range(8192))

    def _permutation(self) -> tuple[int, ...]:
        """Per 13-bit suit part, the same cards with the card of place ``p`` at bit ``p``."""
        return self._permutation_table

    def place_among(self, card: int, live: int) -> int:
        """The place of ``card`` among the live cards of its suit (0 weakest), or -1 if it is not live."""
        if not live >> card & 1:
            return -1
        return (live & self.weaker[card]).bit_count()


@functools.cache
def rank_tables(order: RankOrder) -> RankTables:
    """The (shared) :class:`RankTables` of ``order``.

    .. versionadded:: 0.1.0
    """
    return RankTables(order)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _extract(mask: int, bits: int) -> int:
    """The bits of ``bits`` at the set places of ``mask``, packed together (bit extraction)."""
    out = 0
    place = 0
    while mask:
        low = mask & -mask
        if bits & low:
            out |= 1 << place
        place += 1
        mask ^= low
    return out


@functools.cache
def _extraction() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Bit extraction of 13-bit suit parts in two halves: bits 0-6 and bits 7-12, and the count of bits 0-6."""
    low = tuple(tuple(_extract(mask, bits) for bits in range(128)) for mask in range(128))
    high = tuple(tuple(_extract(mask << 7, bits << 7) for bits in range(64)) for mask in range(64))
    return low, high, tuple(part.bit_count() for part in range(128))
