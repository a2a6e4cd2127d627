"""What the expert bot needs to know of a game: the :class:`ExpertHints` protocol a game's hints satisfy (its
descriptor's ``expert`` makes them from the rules), and :class:`ModelHints`, the optional members of hints that let
the expert take the other seats to play like a model bot.

The expert (:class:`fly_rules.bots.ExpertBot`) asks nothing of a game beyond these two protocols: it checks the
hints against :class:`ExpertHints` when it is made, and uses a model of the others only where the hints are also
:class:`ModelHints`. Fly's hints (:class:`fly_rules.fly.expert.FlyExpertHints`) are both; Dreyfus's
(:class:`fly_rules.dreyfus.bot.DreyfusExpertHints`) only the first.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypeVar, runtime_checkable

from fly_rules.actions import Action
from fly_rules.engine.hidden import Guess, Sample
from fly_rules.engine.protocols import DealState, Rules, SeatView

__all__ = ["Concept", "ExpertHints", "ModelHints"]

Concept = Literal["maxn", "paranoid"]
"""A solver's concept: max^n (every seat for itself) or paranoid (one seat against the rest)."""

_V_contra = TypeVar("_V_contra", bound=SeatView, contravariant=True)


@runtime_checkable
class ExpertHints(Protocol[_V_contra]):
    """What every game's expert hints answer (typed by the game's view class)."""

    @property
    def concept(self) -> Concept:
        """The solver's concept of the open analysis (:mod:`fly_rules.analysis`)."""

    @property
    def expert_concept(self) -> Concept:
        """The concept the expert solves its guessed deals by, when it takes no model of the others."""

    @property
    def model_others(self) -> bool:
        """Whether the expert takes the others to play like the rule of thumb by default (then the hints are also
        :class:`ModelHints`)."""

    @property
    def samples(self) -> int:
        """Guessed deals per decision by default."""

    @property
    def budget(self) -> int:
        """Positions the searches of one decision may visit in all, by default."""

    def candidates(self, view: _V_contra, legal_actions: Sequence[Action]) -> list[Action]:
        """The declarations worth searching, in ``legal_actions`` order."""

    def world(self, view: _V_contra, sample: Sample) -> DealState:
        """A guessed deal (``sample``, drawn for ``view``) as it stands for the view."""

    def default_declaration(self, view: _V_contra, legal_actions: Sequence[Action]) -> Action | None:
        """The declaration the expert keeps unless its search finds a clearly better one; None: the rule of
        thumb's."""

    def replay_records(self, view: _V_contra) -> tuple[int, ...] | None:
        """The records a guess of ``view``'s deal is replayed from; None: the guess's own default."""


@runtime_checkable
class ModelHints(ExpertHints[_V_contra], Protocol[_V_contra]):
    """The optional members of expert hints: how the expert plays against others it takes to play like a model bot
    (its best response to them, its guesses drawn as their play implies)."""

    @property
    def declaration_samples(self) -> int:
        """Guessed deals per declaration by default."""

    @property
    def sight_free_declarations(self) -> bool:
        """Whether a declaration is valued with the seat playing on like the model (it will not see the guess)."""

    @property
    def draws(self) -> int:
        """Guesses drawn per guessed deal wanted, to find those the model agrees with."""

    def guesser(self, model: object) -> Callable[[_V_contra, Rules], Guess[SeatView, Rules]] | None:
        """How to guess the hidden cards of players who play like ``model`` (None: the game's own guess)."""

    def inferred(self, view: _V_contra, sample: Sample, model: object) -> tuple[int, ...]:
        """Per seat, a mask of the cards its plays rule out if it played like ``model``."""

    def modelled(self, view: _V_contra, sample: Sample, model: object) -> tuple[DealState, int] | None:
        """``sample``'s deal as ``model``'s players would have come to it, and how many of the others' moves the
        model would have made otherwise; None if the model cannot lead to the view's play."""

    def match_chance(self) -> Callable[[Sequence[int], int], float] | None:
        """A seat's chance of winning the match from the records, ``chance(records, seat)``, where the game has a
        race model for the rules; else None."""
