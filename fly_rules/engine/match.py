"""What every game's match shares: its fields, the pass-through to its current deal, the step from one
deal to the next, the history of finished deals' actions, and the picture Jupyter shows of a state."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, cast

from fly_rules._numbers import check_seat
from fly_rules._options import check_rules
from fly_rules.cards import Card, CardSet, Suit
from fly_rules.engine.protocols import DealState, Phase, Rules
from fly_rules.engine.shuffle import check_seed
from fly_rules.errors import RuleViolation, shown

__all__ = ["MATCH_FIELDS", "DealBase", "MatchBase", "Pictured", "match_stops", "unwind"]

_D = TypeVar("_D", bound=DealState)
_V = TypeVar("_V")
_R = TypeVar("_R")
_OVER = Phase.OVER
_new: Callable[..., Any] = tuple.__new__

MATCH_FIELDS = ("rules", "seed", "first_dealer", "deal", "previous_deal", "deals_played", "is_over", "history")
"""The fields of every game's match, in order: a match is a named tuple of these (see :class:`MatchBase`)."""
# what makes a match's position: every field but the deal before (kept for reporting) and the history
_position = operator.attrgetter("rules", "seed", "first_dealer", "deal", "deals_played", "is_over")


class Pictured:
    """A deal, match or view that shows itself as a picture of the table in Jupyter.

    Jupyter calls ``_repr_svg_`` to display a value; the picture is
    :func:`fly_rules.svg.deal_picture` of the state (every hand face up) or of the view (one seat's cards).
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        from fly_rules.svg import deal_picture  # noqa: PLC0415 - svg imports the engine

        return deal_picture(self)


class DealBase(Pictured, Generic[_R]):
    """What every game's deal shares: equality by position, the names it reads from its table, its actions.

    A game's deal class puts a named tuple of its fields first (``history`` last) and this base, typed by
    its rules, second. Two deals are equal when every field but the history is, whatever actions led there;
    ``__eq__`` and ``__hash__`` are built per class over those fields (a C-level getter: searches hash
    and compare deals on their hot path, benchmarks/bench.py).
    """

    __slots__ = ()

    if TYPE_CHECKING:  # the fields every deal has

        @property
        def table(self) -> Any:
            """What is fixed for the deal: the rules, the dealer, the deal's number, the cards as dealt."""

        @property
        def history(self) -> tuple[Any, ...] | None:
            """The actions taken in this deal, newest first, as nested pairs (:func:`unwind` lists them)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: tuple[str, ...] = operator.attrgetter("_fields")(cls)  # the named tuple's, first in the bases
        position = operator.attrgetter(*fields[:-1])  # every field but the history, by name

        def __eq__(self: object, other: object) -> bool:
            return type(other) is cls and position(self) == position(other)

        def __ne__(self: object, other: object) -> bool:
            return type(other) is not cls or position(self) != position(other)

        def __hash__(self: object) -> int:
            return hash(position(self))

        # set on the class itself: the named tuple comes first in its bases, so tuple's own would win
        for name, method in (("__eq__", __eq__), ("__ne__", __ne__), ("__hash__", __hash__)):
            setattr(cls, name, method)

    @property
    def rules(self) -> _R:
        """The rules in force."""
        rules: _R = self.table.rules
        return rules

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        dealer: int = self.table.dealer
        return dealer

    @property
    def deal_number(self) -> int:
        """Deals completed before this one in the match (0 for the first)."""
        number: int = self.table.deal_number
        return number

    @property
    def previous_deal(self) -> None:
        """Always None: a lone deal has no deal before it (a match keeps its own)."""
        return None

    @property
    def actions(self) -> tuple[Any, ...]:
        """The actions taken in this deal, oldest first."""
        return unwind(self.history)


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


def match_stops(rules: Rules, winner: int | None, deals_played: int) -> bool:
    """Whether a match ends once a deal is played out: the deal decided a winner, or ``rules.max_deals``
    deals are played [FLY-10.1] [DRF-8.1] [DRF-8.3].

    >>> from fly_rules.fly import FlyRules
    >>> match_stops(FlyRules(max_deals=3), None, 2), match_stops(FlyRules(max_deals=3), None, 3)
    (False, True)
    """
    return winner is not None or (rules.max_deals is not None and deals_played >= rules.max_deals)


def _from_deal(name: str, doc: str) -> Any:
    """A read-only property answering the current deal's ``name`` (a C-level getter: cheap)."""
    return property(operator.attrgetter(f"deal.{name}"), doc=doc)


class MatchBase(Pictured, Generic[_D, _V]):
    """What every game's match shares: the step from one deal to the next (:meth:`apply`), equality, and
    what it passes straight to its current deal: the seat to move, the legal actions, the views, the
    tricks and the winner.

    A game's match class puts this base first and a named tuple of :data:`MATCH_FIELDS` second, and
    says how its first dealer is drawn and its deals are dealt (``draw_dealer``, ``first_deal``, ``next_deal``)
    and which rules refuse a dealer who is not a seat and an action once it is over.
    """

    __slots__ = ()
    over_rule: ClassVar[str]
    """The rule that refuses an action once the match is over."""
    rules_class: ClassVar[type[Any]]
    """The game's rules class: :meth:`begin` refuses rules of any other."""
    dealer_rule: ClassVar[str]
    """The rule that refuses a first dealer who is not a seat."""

    if TYPE_CHECKING:  # the fields (read only), in the order of MATCH_FIELDS

        @property
        def rules(self) -> Any:
            """The rules the match is played under."""

        @property
        def seed(self) -> int | str:
            """The seed every deal of the match is shuffled from."""

        @property
        def first_dealer(self) -> int:
            """The seat that dealt the first deal."""

        @property
        def deal(self) -> _D:
            """The deal being played (the last one once the match is over)."""

        @property
        def previous_deal(self) -> _D | None:
            """The deal played before the current one, or None during the first."""

        @property
        def deals_played(self) -> int:
            """How many deals have been played out."""

        @property
        def is_over(self) -> bool:
            """Whether the match has ended."""

        @property
        def history(self) -> tuple[Any, ...] | None:
            """The finished deals' actions as nested ``(newest, rest)`` pairs (:func:`unwind` lists them), or None."""

        def __iter__(self) -> Iterator[Any]: ...

    @classmethod
    def begin(cls, rules: Any, seed: int | str, dealer: int | None) -> Self:
        """A game's ``new_match``: ``rules`` and ``seed`` checked, the first dealer ``dealer`` or drawn by lot
        from the seed (:meth:`draw_dealer`), the first deal dealt (:meth:`first_deal`).

        Raises:
            TypeError: ``rules`` is not a ``rules_class``, or ``seed`` is not an int or a str.
            RuleViolation: ``dealer_rule`` for a dealer who is not a seat; REC-1.5 for a seed of more than
                100 digits.
        """
        check_rules(rules, cls.rules_class)
        check_seed(seed)
        if dealer is None:
            dealer = cls.draw_dealer(rules, seed)
        else:
            check_seat(dealer, rules.players, cls.dealer_rule, "the dealer")
        return cls.starting(rules, seed, dealer, cls.first_deal(rules, seed, dealer))

    @staticmethod
    def draw_dealer(rules: Any, seed: int | str) -> int:
        """The first dealer, drawn by lot from ``seed``."""
        raise NotImplementedError

    @staticmethod
    def first_deal(rules: Any, seed: int | str, dealer: int) -> Any:
        """The match's first deal, dealt by ``dealer`` from ``seed``."""
        raise NotImplementedError

    @classmethod
    def starting(cls, rules: Any, seed: int | str, dealer: int, deal: _D) -> Self:
        """The match at its first deal ``deal``, dealt by ``dealer`` from ``seed`` under ``rules``."""
        built: Self = cls(  # type: ignore[call-arg]  # the game's named tuple of MATCH_FIELDS takes them
            rules=rules,
            seed=seed,
            first_dealer=dealer,
            deal=deal,
            previous_deal=None,
            deals_played=0,
            is_over=False,
            history=None,
        )
        return built

    def next_deal(self, deal: _D, number: int) -> _D:
        """The deal number ``number`` of this match, dealt once ``deal`` (the one before it) is played out."""
        raise NotImplementedError

    def apply(self, action: Any) -> Self:
        """The match after ``action``; a deal played out is followed by the next, unless the match ends
        [FLY-10.1] [DRF-8.1].

        Raises:
            RuleViolation: with the ID of the rule the action breaks; this match is unchanged.
        """
        # the one place a match is built from its fields in order (the hot path: benchmarks/bench.py)
        rules, seed, first_dealer, deal, previous, played, over, history = self
        if over:
            raise RuleViolation(self.over_rule, f"the match is over; no action is accepted ({shown(action)})", action)
        deal = deal.apply(action)
        if deal.phase is _OVER:
            played += 1
            if match_stops(rules, deal.winner, played):
                over = True
            else:
                for done in deal.actions:
                    history = (done, history)
                previous, deal = deal, self.next_deal(deal, played)
        following: Self = _new(type(self), (rules, seed, first_dealer, deal, previous, played, over, history))
        return following

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and _position(self) == _position(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(_position(self))

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
    leader: int | None = _from_deal(
        "leader", "The seat that led the current trick (or leads the next); None before Fly's play."
    )
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
