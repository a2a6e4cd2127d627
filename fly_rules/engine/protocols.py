"""The protocols both games' states, views and rules answer (see :mod:`fly_rules.engine` for the
shared vocabulary), and the :class:`Phase` of a deal."""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from fly_rules.actions import Action
from fly_rules.cards import Card, CardSet, RankOrder, Suit

__all__ = ["Bot", "DealState", "GameState", "Phase", "Rules", "SeatView"]

_S = TypeVar("_S", bound="GameState")
_V_contra = TypeVar("_V_contra", bound="SeatView", contravariant=True)


class Phase(enum.Enum):
    """Where a deal stands, in either game."""

    EXCHANGE = "exchange"
    """Players declare or exchange in turn [FLY-4.1] [DRF-4.1]."""
    PLAY = "play"
    """Tricks are being played [FLY-6.2] [DRF-6.1]."""
    OVER = "over"
    """The deal is finished (played out, void, or ended by a record) [FLY-10.3] [DRF-6.7]."""


@runtime_checkable
class Rules(Protocol):
    """What every game's rules object answers."""

    @property
    def players(self) -> int:
        """Number of players."""

    @property
    def max_deals(self) -> int | None:
        """Deals after which a match stops even without a winner; None for no limit."""

    @property
    def revoke_mode(self) -> str:
        """Whether a play that breaks a duty is refused or accepted and penalised."""

    # --- what clients ask instead of the class ---------------------------------------

    @property
    def game(self) -> str:
        """The game's name in the formats: ``"fly"`` or ``"dreyfus"`` [REC-1.3]."""

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat, and tricks in a deal."""

    @property
    def rank_order(self) -> RankOrder:
        """The rank order within a suit."""

    def left_of(self, seat: int) -> int:
        """The next seat in the order of play."""

    def non_default_options(self) -> dict[str, object]:
        """The options that differ from the game's defaults (for this number of players), by name."""

    def __hash__(self) -> int:
        """Rules are frozen values: equal, and hash alike, by their options."""


@runtime_checkable
class SeatView(Protocol):
    """What every game's view of one seat answers."""

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""

    @property
    def phase(self) -> Phase:
        """Where the deal stands."""

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None."""

    @property
    def dealer(self) -> int:
        """The dealer's seat."""

    @property
    def deal_number(self) -> int:
        """0 for a match's first deal."""

    @property
    def hand(self) -> CardSet:
        """This seat's cards."""

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as (seat, card) pairs in play order."""

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per seat in this deal."""

    @property
    def winner(self) -> int | None:
        """The winning seat, once decided."""

    # --- what clients ask instead of the class ---------------------------------------

    @property
    def game(self) -> str:
        """``"fly"`` or ``"dreyfus"``."""

    @property
    def trump(self) -> Suit | None:
        """The trump suit; None for no trump."""

    @property
    def scores(self) -> tuple[int, ...]:
        """One number per seat, higher is better."""

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """The game's own per-seat records, by name."""


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

    @property
    def phase(self) -> Phase:
        """Where the current deal stands."""

    @property
    def players(self) -> int:
        """Number of players."""

    @property
    def dealer(self) -> int:
        """The current deal's dealer."""

    @property
    def deal_number(self) -> int:
        """The current deal's number, 0 for a match's first."""

    @property
    def rules(self) -> Rules:
        """The rules options (the game's :class:`Rules`)."""

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Each seat's hand as an int bitmask."""

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's hand."""

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """Card indices of the current trick, in play order."""

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as (seat, card) pairs, in play order."""

    @property
    def leader(self) -> int | None:
        """The seat that led the current trick (or leads the next); None before Fly's play begins."""

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per seat in the current deal."""

    @property
    def previous_deal(self) -> DealState | None:
        """The deal played out just before the current one; None on a lone deal."""

    @property
    def actions(self) -> tuple[Any, ...]:
        """Every action taken, oldest first."""

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action for :attr:`to_move`, in a documented order."""

    def apply(self: _S, action: Action) -> _S:
        """The state after ``action``; raises RuleViolation if it is illegal."""

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of this state, and nothing more."""

    def __hash__(self) -> int:
        """States are equal, and hash alike, by position."""

    # --- what clients ask instead of the class ---------------------------------------

    @property
    def game(self) -> str:
        """``"fly"`` or ``"dreyfus"``, the name the formats use [REC-1.3]."""

    @property
    def trump(self) -> Suit | None:
        """The current deal's trump suit; None for no trump."""

    @property
    def scores(self) -> tuple[int, ...]:
        """One number per seat, higher is better (Fly: minus the record; Dreyfus: lower minus upper record)."""

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """The game's own per-seat records, by name (Fly ``records``; Dreyfus ``upper``, ``lower``)."""

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The per-seat lines a history states for this game once it is over, by key [REC-4.1]."""


@runtime_checkable
class DealState(GameState, Protocol):
    """A deal of either game: a :class:`GameState` that also says what a history states of it."""

    def deal_head(self) -> dict[str, object]:
        """The deal's dealer and trump as a history states them before its actions [REC-3.1]."""

    def deal_lines(self) -> dict[str, tuple[int, ...]]:
        """The per-seat results a history states once the deal is over, by key [REC-3.4]."""

    def start_fields(self) -> dict[str, object]:
        """This position as the keyword arguments of the game's ``new_deal``, in plain data [REC-2.4]."""


@runtime_checkable
class Bot(Protocol[_V_contra]):
    """The one bot protocol: anything that picks one of the legal actions from a seat's view (of one game's views,
    ``Bot[FlyView]``, or of any game's, ``Bot[SeatView]``). It is given only what its seat may know
    (``state.view(seat)``) and takes all its randomness from ``rng``, so that a match between bots replays from its
    seeds. :class:`fly_rules.bots.Bot` and :class:`fly_rules.registry.Player` are this protocol.

    .. versionadded:: 0.2.0
    """

    def choose(self, view: _V_contra, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal_actions``, chosen from ``view`` alone, with randomness from ``rng``."""
        ...
