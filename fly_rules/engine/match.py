"""What every game's match shares: the pass-through to its current deal, the history of finished
deals' actions, and the picture Jupyter shows of a state."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from fly_rules.cards import Card, CardSet, Suit
from fly_rules.engine.protocols import DealState, Phase

__all__ = ["MatchBase", "Pictured", "unwind"]

_D = TypeVar("_D", bound=DealState)
_V = TypeVar("_V")


class Pictured:
    """A deal, match or view that shows itself as a picture of the table in Jupyter.

    Jupyter calls ``_repr_svg_`` to display a value; the picture is
    :func:`fly_rules.svg.deal_picture` of the state (every hand face up) or of the view (one seat's cards).
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        from fly_rules.svg import deal_picture  # noqa: PLC0415 - svg imports the engine

        return deal_picture(self)


def unwind(history: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """The actions of a history kept as nested ``(newest, rest)`` pairs, oldest first.

    States keep their history this way so that each ``apply`` adds one small
    pair instead of copying a growing tuple.

    >>> unwind(("c", ("b", ("a", None))))
    ('a', 'b', 'c')
    """
    out = []
    while history is not None:
        out.append(history[0])
        history = history[1]
    return tuple(reversed(out))


def _from_deal(name: str, doc: str) -> Any:
    """A read-only property answering the current deal's ``name`` (a C-level getter: cheap)."""
    return property(operator.attrgetter(f"deal.{name}"), doc=doc)


class MatchBase(Pictured, Generic[_D, _V]):
    """What every game's match passes straight to its current deal: the seat to
    move, the legal actions, the views, the tricks and the winner.

    A match class (a named tuple or attrs class with a ``deal`` field) inherits these, so the
    two games' matches share one definition of them.
    """

    __slots__ = ()
    deal: _D

    if TYPE_CHECKING:  # a field or a property in each game's match

        @property
        def history(self) -> tuple[Any, ...] | None:
            """The actions of the finished deals, newest first, as nested pairs."""

    deal_number: int = _from_deal("deal_number", "The current deal's number, 0 for the first.")
    dealer: int = _from_deal("dealer", "The current deal's dealer.")
    to_move: int | None = _from_deal("to_move", "The seat to act, or None once the match is over.")
    winner: int | None = _from_deal("winner", "The winning seat, once decided.")
    tricks_taken: tuple[int, ...] = _from_deal("tricks_taken", "Tricks taken per seat in the current deal.")
    phase: Phase = _from_deal("phase", "Where the current deal stands.")
    players: int = _from_deal("players", "Number of players.")
    hand_masks: tuple[int, ...] = _from_deal("hand_masks", "Each seat's hand in the current deal, as a bitmask.")
    hands: tuple[CardSet, ...] = _from_deal("hands", "Each seat's hand in the current deal.")
    trick_cards: tuple[int, ...] = _from_deal("trick_cards", "Card indices of the current trick, in play order.")
    trick: tuple[tuple[int, Card], ...] = _from_deal("trick", "The current trick as (seat, card) pairs, in play order.")
    leader: int = _from_deal("leader", "The seat that led the current trick (or leads the next).")
    game: str = _from_deal("game", '``"fly"`` or ``"dreyfus"``.')
    trump: Suit | None = _from_deal("trump", "The current deal's trump suit; None for no trump.")
    scores: tuple[int, ...] = _from_deal(
        "scores", "One number per seat, higher is better, as the current deal leaves them."
    )
    score_lines: dict[str, tuple[int, ...]] = _from_deal(
        "score_lines", "The game's own per-seat records, by name, as the current deal leaves them."
    )

    @property
    def actions(self) -> tuple[Any, ...]:
        """Every action of the match, oldest first: the finished deals' (``history``) and the current deal's."""
        return unwind(self.history) + self.deal.actions

    def legal_actions(self) -> Sequence[Any]:
        """The legal actions of the seat to move, in the current deal's documented order."""
        return self.deal.legal_actions()

    def view(self, seat: int) -> _V:
        """What ``seat`` may know of the current deal and the records."""
        return cast(_V, self.deal.view(seat))

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The per-seat lines a history states for the match once it is over [REC-4.1]."""
        return self.deal.result_lines()
