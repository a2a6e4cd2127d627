"""The engine protocol: what bots, notation, the command line and adapters
rely on, whichever game they drive.

A state is immutable. ``apply`` returns a new state, or raises
:class:`~fly_rules.errors.RuleViolation` naming the rule the action breaks and
leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from fly_rules.actions import Action

__all__ = ["GameState"]

_S = TypeVar("_S", bound="GameState")


@runtime_checkable
class GameState(Protocol):
    """A position of a game (a deal or a match) that can be played on."""

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None when the game is over."""

    @property
    def is_over(self) -> bool:
        """Whether no further action can be taken."""

    @property
    def winner(self) -> int | None:
        """The winning seat once decided, else None."""

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action for :attr:`to_move`, in a documented order."""

    def apply(self: _S, action: Action) -> _S:
        """The state after ``action``; raises RuleViolation if it is illegal."""

    def view(self, seat: int) -> Hashable:
        """What ``seat`` may know of this state, and nothing more."""
