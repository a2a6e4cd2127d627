"""The engine protocol: what bots, notation, the command line and adapters
rely on, whichever game they drive.

A state is immutable. ``apply`` returns a new state, or raises
:class:`~fly_rules.errors.RuleViolation` naming the rule the action breaks and
leaves the state as it was.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import attrs

from fly_rules.actions import Action
from fly_rules.cards import ALL_CARDS, Card, CardSet

__all__ = ["GameState", "MatchBase", "shuffled", "unwind"]

_S = TypeVar("_S", bound="GameState")
_V_co = TypeVar("_V_co", covariant=True)
_V = TypeVar("_V")


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


class _Deal(Protocol[_V_co]):
    """What a match needs of its current deal."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def tricks_taken(self) -> tuple[int, ...]: ...

    @property
    def deal_number(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def actions(self) -> tuple[Any, ...]: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def view(self, seat: int) -> _V_co: ...


_D = TypeVar("_D", bound=_Deal[Any])


class MatchBase(Generic[_D, _V]):
    """What every game's match passes straight to its current deal: the seat to
    move, the legal actions, the views, the tricks and the winner.

    A match class (an attrs class with a ``deal`` field) inherits these, so the
    two games' matches share one definition of them.
    """

    __slots__ = ()
    deal: _D
    history: tuple[Any, ...] | None

    @property
    def deal_number(self) -> int:
        """The current deal's number, 0 for the first."""
        return self.deal.deal_number

    @property
    def dealer(self) -> int:
        """The current deal's dealer."""
        return self.deal.dealer

    @property
    def actions(self) -> tuple[Any, ...]:
        """Every action of the match, oldest first: the finished deals' (``history``) and the current deal's."""
        return unwind(self.history) + self.deal.actions

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return self.deal.to_move

    @property
    def winner(self) -> int | None:
        """The winning seat, once decided."""
        return self.deal.winner

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per seat in the current deal."""
        return self.deal.tricks_taken

    def legal_actions(self) -> Sequence[Any]:
        """The legal actions of the seat to move, in the current deal's documented order."""
        return self.deal.legal_actions()

    def view(self, seat: int) -> _V:
        """What ``seat`` may know of the current deal and the records."""
        view: _V = self.deal.view(seat)
        return view


@functools.lru_cache(maxsize=16)
def _indices_of(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(52) if mask >> i & 1)


def shuffled(deck: CardSet, seed: int | str, deal_number: int) -> tuple[Card, ...]:
    """The cards of ``deck`` in the order a match with ``seed`` shuffles them
    for its deal number ``deal_number`` (0 for the first deal).

    The order depends only on the three arguments, never on global state or
    on Python's hash seed, so a match replays identically from its seed in any
    process. Each deal gets its own generator, so a state needs no mutable
    random-number generator inside it.

    >>> from fly_rules.cards import DECK_32
    >>> shuffled(DECK_32, 7, 0) == shuffled(DECK_32, 7, 0)
    True
    >>> shuffled(DECK_32, 7, 0) == shuffled(DECK_32, 7, 1)
    False
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed must be an int or a str, not {seed!r}")
    rng = random.Random(f"fly_rules:{seed}:{deal_number}")
    indices = list(_indices_of(deck.mask))
    rng.shuffle(indices)
    return tuple(ALL_CARDS[i] for i in indices)


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


_REPLACERS: dict[tuple[type, tuple[str, ...]], Any] = {}
_T = TypeVar("_T")


def _make_replacer(cls: type, changed: tuple[str, ...]) -> Any:
    names = [field.name for field in attrs.fields(cls)]
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    lines = [f"def replacer(old, {', '.join(changed)}):", "    new = new_object(cls)"]
    lines += [f"    set_field(new, {name!r}, {name if name in changed else 'old.' + name})" for name in names]
    lines.append("    return new")
    namespace: dict[str, Any] = {"new_object": object.__new__, "set_field": object.__setattr__, "cls": cls}
    exec("\n".join(lines), namespace)  # a straight-line copier per class and set of changed fields, built once
    return namespace["replacer"]


def replace(instance: _T, **changes: Any) -> _T:
    """A copy of a frozen attrs ``instance`` with some fields changed, without validation.

    The fast private path states use between their own, already valid, values
    (``attrs.evolve`` re-runs ``__init__`` and costs several times more).
    Fields derived in ``__init__`` are copied as they are, so only plain fields
    may be changed.

    >>> from fly_rules.actions import Play
    >>> replace(Play("AS"), card=Play("KS").card)
    Play(card=Card.parse('KS'))
    """
    key = (type(instance), tuple(changes))
    replacer = _REPLACERS.get(key)
    if replacer is None:
        replacer = _REPLACERS[key] = _make_replacer(*key)
    result: _T = replacer(instance, *changes.values())
    return result
