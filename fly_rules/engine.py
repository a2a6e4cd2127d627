"""The engine protocol: what bots, notation, the command line and adapters
rely on, whichever game they drive.

A state is immutable. ``apply`` returns a new state, or raises
:class:`~fly_rules.errors.RuleViolation` naming the rule the action breaks and
leaves the state as it was.

The shared vocabulary
---------------------
Both games answer the same names with the same types, so a client types
against :class:`GameState` (a deal or a match), :class:`SeatView` and
:class:`Rules` and never asks which game it holds:

- ``to_move`` (seat or None), ``is_over``, ``winner`` (seat or None),
  ``phase`` (one :class:`Phase`), ``players``, ``dealer``, ``deal_number``
  (0 for a match's first deal), ``rules``;
- ``hand_masks``: each seat's hand as an int bitmask (bit ``i`` is
  ``ALL_CARDS[i]``); ``hands``: the same as :class:`~fly_rules.cards.CardSet`;
- ``trick_cards``: card indices of the current trick in play order;
  ``trick``: the same as ``(seat, Card)`` pairs; ``leader``: the seat that led
  it (or leads next);
- ``tricks_taken`` per seat, ``actions`` (this deal's, or the whole match's,
  oldest first), ``previous_deal`` (the deal played out just before the
  current one in a match; always None on a lone deal);
- ``legal_actions()`` a tuple, or a sequence that compares equal to the tuple
  of the same actions; ``apply(action)``; ``view(seat)``.

What differs between the games is asked of the state, never of its class
(states, views and rules alike):

- ``game``: ``"fly"`` or ``"dreyfus"``, the name the formats use;
- ``trump``: the trump suit (None for Dreyfus's no-trump deals);
- ``scores``: one number per seat, higher is better (Fly: minus the record;
  Dreyfus: the lower record minus the upper);
- ``score_lines``: the game's own per-seat records by name (Fly ``records``;
  Dreyfus ``upper`` and ``lower``);
- ``result_lines()``: the per-seat lines a history states for a finished game
  [REC-4.1]; a deal (:class:`DealState`) also answers ``deal_head()``,
  ``deal_lines()`` and ``start_fields()``, the rest of what a history states
  of it [REC-2.4] [REC-3.1] [REC-3.4].

A rules object has ``players``, ``max_deals`` (None for no limit; the match
ends after that many deals even without a winner) and ``revoke_mode`` (whether
a play that breaks a duty is refused or accepted and penalised; each game
names its own values), and ``game``, ``hand_size``, ``rank_order``, ``left_of(seat)`` (the
next seat in the order of play) and ``non_default_options()``. Each game's ``PRESETS`` is a ``dict[str, <its Rules>]``
and ``<its Rules>.preset(name)`` returns one. A refused action raises
``RuleViolation(rule, detail, offending=action)``: ``offending`` is always the
action as given, never a part of it.

Section functions (deal, exchange, play, scoring, end, match) are pure
functions over a state's pieces and never import their game's ``state``
module; ``state.py`` holds the fields, ``view`` and the dispatch of ``apply``.
"""

from __future__ import annotations

import _random
import enum
import functools
import hashlib
import types
import typing
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar, runtime_checkable

import attrs

from fly_rules.actions import Action
from fly_rules.cards import ALL_CARDS, Card, CardSet, Suit

__all__ = [
    "DealState",
    "GameState",
    "MatchBase",
    "Phase",
    "Pictured",
    "Rules",
    "SeatView",
    "replace",
    "shuffled",
    "shuffled_indices",
    "unwind",
]

_S = TypeVar("_S", bound="GameState")
_V_co = TypeVar("_V_co", covariant=True)
_V = TypeVar("_V")


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
    def rank_order(self) -> Any:
        """The rank order within a suit (a :data:`~fly_rules.cards.RankOrder`)."""

    def left_of(self, seat: int) -> int:
        """The next seat in the order of play."""

    def non_default_options(self) -> dict[str, object]:
        """The options that differ from the game's defaults (for this number of players), by name."""


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
    def rules(self) -> Any:
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
    def leader(self) -> int:
        """The seat that led the current trick (or leads the next)."""

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per seat in the current deal."""

    @property
    def previous_deal(self) -> Any:
        """The deal played out just before the current one; None on a lone deal."""

    @property
    def actions(self) -> tuple[Any, ...]:
        """Every action taken, oldest first."""

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action for :attr:`to_move`, in a documented order."""

    def apply(self: _S, action: Action) -> _S:
        """The state after ``action``; raises RuleViolation if it is illegal."""

    def view(self, seat: int) -> Hashable:
        """What ``seat`` may know of this state, and nothing more."""

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

    def deal_head(self) -> dict[str, Any]:
        """The deal's dealer and trump as a history states them before its actions [REC-3.1]."""

    def deal_lines(self) -> dict[str, tuple[int, ...]]:
        """The per-seat results a history states once the deal is over, by key [REC-3.4]."""

    def start_fields(self) -> dict[str, Any]:
        """This position as the keyword arguments of the game's ``new_deal``, in plain data [REC-2.4]."""


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

    @property
    def phase(self) -> Phase: ...

    @property
    def players(self) -> int: ...

    @property
    def hand_masks(self) -> tuple[int, ...]: ...

    @property
    def hands(self) -> tuple[CardSet, ...]: ...

    @property
    def trick_cards(self) -> tuple[int, ...]: ...

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]: ...

    @property
    def leader(self) -> int: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def view(self, seat: int) -> _V_co: ...

    @property
    def game(self) -> str: ...

    @property
    def trump(self) -> Suit | None: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]: ...

    def result_lines(self) -> dict[str, tuple[int, ...]]: ...


_D = TypeVar("_D", bound=_Deal[Any])


class Pictured:
    """A deal, match or view that shows itself as a picture of the table in Jupyter.

    Jupyter calls ``_repr_svg_`` to display a value; the picture is
    :func:`fly_rules.svg.deal_picture` of the state (every hand face up) or of the view (one seat's cards).
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        from fly_rules.svg import deal_picture  # noqa: PLC0415 - svg imports the games, which import this module

        return deal_picture(self)


class MatchBase(Pictured, Generic[_D, _V]):
    """What every game's match passes straight to its current deal: the seat to
    move, the legal actions, the views, the tricks and the winner.

    A match class (an attrs class with a ``deal`` field) inherits these, so the
    two games' matches share one definition of them.
    """

    __slots__ = ()
    deal: _D

    if TYPE_CHECKING:  # a field or a property in each game's match

        @property
        def history(self) -> tuple[Any, ...] | None:
            """The actions of the finished deals, newest first, as nested pairs."""

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

    @property
    def phase(self) -> Phase:
        """Where the current deal stands."""
        return self.deal.phase

    @property
    def players(self) -> int:
        """Number of players."""
        return self.deal.players

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Each seat's hand in the current deal, as a bitmask."""
        return self.deal.hand_masks

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's hand in the current deal."""
        return self.deal.hands

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """Card indices of the current trick, in play order."""
        return self.deal.trick_cards

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as (seat, card) pairs, in play order."""
        return self.deal.trick

    @property
    def leader(self) -> int:
        """The seat that led the current trick (or leads the next)."""
        return self.deal.leader

    def legal_actions(self) -> Sequence[Any]:
        """The legal actions of the seat to move, in the current deal's documented order."""
        return self.deal.legal_actions()

    def view(self, seat: int) -> _V:
        """What ``seat`` may know of the current deal and the records."""
        view: _V = self.deal.view(seat)
        return view

    # --- what clients ask instead of the class ---------------------------------------

    @property
    def game(self) -> str:
        """``"fly"`` or ``"dreyfus"``."""
        return self.deal.game

    @property
    def trump(self) -> Suit | None:
        """The current deal's trump suit; None for no trump."""
        return self.deal.trump

    @property
    def scores(self) -> tuple[int, ...]:
        """One number per seat, higher is better, as the current deal leaves them."""
        return self.deal.scores

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """The game's own per-seat records, by name, as the current deal leaves them."""
        return self.deal.score_lines

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The per-seat lines a history states for the match once it is over [REC-4.1]."""
        return self.deal.result_lines()


# per deck size, the Fisher-Yates steps: (i, shift) with i from the top down and shift leaving, of a
# word's top byte, the bits of getrandbits(k) for k = (i + 1).bit_length(), as random.Random._randbelow
# draws them
_STEPS: Final = tuple(tuple((i, 8 - (i + 1).bit_length()) for i in range(size - 1, 0, -1)) for size in range(53))
_BATCH = 96  # words drawn at once: a 52-card shuffle needs about 76, more than 96 once in 300


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
    return tuple(ALL_CARDS[i] for i in shuffled_indices(deck, seed, deal_number))


def shuffled_indices(deck: CardSet, seed: int | str, deal_number: int) -> list[int]:
    """:func:`shuffled` as card indices (a new list), for code that works on indices.

    >>> from fly_rules.cards import DECK_32
    >>> [ALL_CARDS[i] for i in shuffled_indices(DECK_32, 7, 0)] == list(shuffled(DECK_32, 7, 0))
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed must be an int or a str, not {seed!r}")
    indices = list(_indices_of(deck.mask))
    _shuffle(indices, _generator(f"fly_rules:{seed}:{deal_number}").getrandbits)
    return indices


def _generator(text: str) -> _random.Random:
    """``random.Random(text)``'s generator in the same state, seeded once: ``random.Random`` seeds
    from the text's hash when made and again in ``__init__`` from the text and its SHA-512 as
    one int (seed version 2); this gives the C generator that int directly."""
    data = text.encode()
    return _random.Random(int.from_bytes(data + hashlib.sha512(data).digest(), "big"))


def _shuffle(items: list[int], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle`` as CPython writes it (same draws, same order), without its per-card
    method calls: a match shuffles once per deal, on the hot path of random play.

    Each index is drawn by rejection sampling with ``getrandbits(k)``, which for k <= 32 is the top k
    bits of the generator's next 32-bit word; for a pack of up to 52 cards k <= 6, so only each word's
    top byte counts. The words are drawn in batches (the lowest word of ``getrandbits(32 * n)`` comes
    first, as successive ``getrandbits(32)`` would give them); a step that runs out of words starts
    again with the next batch, as its rejected words changed nothing.
    """
    last = len(items) - 1
    steps = _STEPS[last + 1]
    tops = _top_bytes(getrandbits)
    used = 0
    while True:
        try:
            for i, shift in steps:
                j = tops[used] >> shift
                used += 1
                while j > i:
                    j = tops[used] >> shift
                    used += 1
                items[i], items[j] = items[j], items[i]
        except IndexError:
            steps = _STEPS[last + 1][last - i :]
            tops += _top_bytes(getrandbits)
        else:
            return


def _top_bytes(getrandbits: Callable[[int], int]) -> bytes:
    """The top byte of each of the generator's next ``_BATCH`` 32-bit words, in the order it gives them."""
    return getrandbits(32 * _BATCH).to_bytes(4 * _BATCH, "little")[3::4]


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


def _runtime_types(hint: Any) -> tuple[type, ...]:
    """The classes a value of type ``hint`` may be an instance of (``object`` when no check is possible)."""
    origin = typing.get_origin(hint)
    if hint is None or hint is type(None):
        return (type(None),)
    if origin is typing.Union or origin is types.UnionType:
        return tuple(t for arg in typing.get_args(hint) for t in _runtime_types(arg))
    if origin is typing.Literal:
        return tuple({type(value) for value in typing.get_args(hint)})
    if origin is not None:
        return (origin,) if isinstance(origin, type) else (object,)
    return (hint,) if isinstance(hint, type) else (object,)


def _make_replacer(cls: type, changed: tuple[str, ...]) -> Any:
    fields = attrs.fields(cls)
    names = [field.name for field in fields]
    unknown = set(changed) - {field.name for field in fields if field.init}
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r} that can be replaced")
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # an annotation that cannot be resolved is not checked
        hints = {}
    allowed = {name: _runtime_types(hints.get(name, object)) for name in changed}
    lines = [f"def replacer(old, {', '.join(changed)}):"]
    for name in changed:
        lines += [
            f"    if not isinstance({name}, allowed[{name!r}]):",
            f"        refuse({name!r}, {name})",
        ]
    lines.append("    new = new_object(cls)")
    lines += [f"    set_field(new, {name!r}, {name if name in changed else 'old.' + name})" for name in names]
    lines.append("    return new")

    def refuse(name: str, value: object) -> None:
        kinds = " or ".join(t.__name__ for t in allowed[name])
        raise TypeError(f"{cls.__name__}.{name} must be {kinds}, not {value!r}")

    namespace: dict[str, Any] = {
        "new_object": object.__new__,
        "set_field": object.__setattr__,
        "cls": cls,
        "allowed": allowed,
        "refuse": refuse,
    }
    exec("\n".join(lines), namespace)  # a straight-line copier per class and set of changed fields, built once
    return namespace["replacer"]


def replace(instance: _T, **changes: Any) -> _T:
    """A copy of a frozen attrs ``instance`` with some fields changed, without running ``__init__``.

    Guarded: an unknown field, a field derived in ``__init__``, or a value
    whose type the field's annotation does not allow raises ``TypeError``
    (converters do not run, so ``card="KS"`` is refused rather than stored).
    Validators beyond the type are not re-run; callers pass values they have
    already checked.

    >>> from fly_rules.actions import Play
    >>> replace(Play("AS"), card=Play("KS").card)
    Play(card=Card.parse('KS'))
    >>> replace(Play("AS"), card="KS")
    Traceback (most recent call last):
    ...
    TypeError: Play.card must be Card, not 'KS'
    >>> replace(Play("AS"), suit=None)
    Traceback (most recent call last):
    ...
    TypeError: Play has no field 'suit' that can be replaced
    """
    key = (type(instance), tuple(changes))
    replacer = _REPLACERS.get(key)
    if replacer is None:
        replacer = _REPLACERS[key] = _make_replacer(*key)
    result: _T = replacer(instance, *changes.values())
    return result
