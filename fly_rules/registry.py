"""The games, by name: one descriptor per game, registered once by the game's own package.

Every client (the notation, the pictures, the narration, the command, the bots and the adapters)
asks a state, view or rules object for its ``game`` and looks that name up here, as python-chess
finds a variant class with ``find_variant``, OpenSpiel loads a registered game with its
``GameType`` and pgx makes an environment from its id. A game is added by describing it once:

>>> from fly_rules import registry
>>> registry.games()[:2]
('fly', 'dreyfus')
>>> registry.get("dreyfus").title, registry.get("fly").seats
('Dreyfus', (3, 7))

A descriptor (:class:`Game`) holds everything a client needs that differs between games; the
common ground (states, views, rules) is the engine protocol of :mod:`fly_rules.engine`. The two
games of the library register themselves when their package is imported; :func:`get` and
:func:`games` import them first, so a client never has to.
"""

from __future__ import annotations

import functools
import importlib
import operator
import textwrap
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, Required, TypedDict, TypeVar

import attrs

from fly_rules import _numbers
from fly_rules.actions import Action
from fly_rules.cards import Card, CardSet, RankOrder
from fly_rules.engine.encoding import ActionSpace, PlayActions
from fly_rules.engine.hints import ExpertHints
from fly_rules.engine.protocols import Bot, DealState, GameState, Rules, SeatView
from fly_rules.errors import InvalidRules

if TYPE_CHECKING:
    from fly_rules.engine.hidden import Guess

__all__ = [
    "ActionForm",
    "Game",
    "Lazy",
    "NewMatch",
    "Picture",
    "Player",
    "PositionForm",
    "Words",
    "game_of",
    "games",
    "get",
    "lazy",
    "register",
    "rules_game",
    "seat_text",
    "tricks_text",
    "unregister",
    "whole_number",
    "wrapped_lines",
]

_R = TypeVar("_R", bound=Rules)
"""A game's rules class (a :class:`fly_rules.engine.Rules`)."""
_D = TypeVar("_D", bound=DealState)
"""A game's deal class (a :class:`fly_rules.engine.DealState`)."""
_V = TypeVar("_V", bound=SeatView)
"""A game's view class (a :class:`fly_rules.engine.SeatView`)."""
_R_contra = TypeVar("_R_contra", bound=Rules, contravariant=True)
_D_contra = TypeVar("_D_contra", bound=DealState, contravariant=True)
_V_contra = TypeVar("_V_contra", bound=SeatView, contravariant=True)

_BUILT_IN: Final = ("fly_rules.fly", "fly_rules.dreyfus")
"""The library's own game packages; importing one registers its game."""

_GAMES: dict[str, Game[Any, Any, Any]] = {}


@attrs.frozen
class ActionForm:
    """A game's own action on one card, beyond the shared ``stand``, ``fold``, ``exchange`` and ``play``
    [REC-3.2] [REC-5.1]."""

    cls: type
    """The action class; ``cls(card)`` makes one and ``action.card`` is its card."""
    verb: str
    """Its word in a history's action text (``swap-trump``)."""
    letter: str
    """Its letter in a position's moves (``w``)."""
    changes_hand: bool = False
    """Whether it puts a card into the hand from outside it (as an exchange does)."""
    told: Callable[[Any, bool], str] = attrs.field(default=lambda action, hidden: f"{action}")
    """What the narration says the seat did, given whether the card is hidden from the listener."""

    def card_of(self, action: object) -> Card:
        """The card of ``action``, one of this form's (its ``card``).

        Raises:
            TypeError: ``action`` is not of this form's class.
        """
        if type(action) is not self.cls:
            raise TypeError(f"{action!r} is not a {self.cls.__name__}")
        card = operator.attrgetter("card")(action)
        assert isinstance(card, Card), f"{self.cls.__name__}.card is not a Card"
        return card


@attrs.frozen
class PositionForm(Generic[_R, _D]):
    """How a game's positions are written and read [REC-5.1]."""

    fields: int
    """Fields in the line."""
    players: Callable[[list[list[Card]]], int | None]
    """The number of players the rules are made for, from the hands (None: the game's only number)."""
    write: Callable[[_D], list[str]]
    """The fields after the dealer and around the hands: trump, undealt cards, records, then any others."""
    read: Callable[[_R, list[str], list[list[Card]], int, str], _D]
    """The dealt position, from the rules, the fields, the hands, the dealer and the whole line."""
    numbered: bool = False
    """Whether the line writes the deal's number in its match (Dreyfus's ``NUMBER``); if not, a reader is given it
    beside the line (REC-5.3)."""


def whole_number(text: str, field: str, *, signed: bool = True) -> int:
    """The whole number a position's field ``field`` writes as ``text`` (a game's records, say; ``-`` first
    only if ``signed``) [REC-5.1].

    Raises:
        InvalidNotation: naming the field, for text that is not a whole number of at most 100 digits.

    >>> whole_number("25", "records"), whole_number("-3", "records")
    (25, -3)
    """
    return _numbers.whole_number(text, field, signed=signed)


class Picture(TypedDict, total=False):
    """What a game's ``picture`` returns: the arguments of :func:`fly_rules.svg.table` for one view."""

    hands: Required[Sequence[CardSet | int | None]]
    """One entry per seat: its cards face up, how many face down, or None for a hand not drawn."""
    trump: Card | None
    """The turned-up card, if any."""
    stock: int
    """Cards left in the stock or talon."""
    trick: Sequence[tuple[int, Card]]
    """The trick in play, as (seat, card) in the order played."""
    records: Sequence[object] | None
    """One value per seat: a number is drawn as ``record N``, anything else as its text."""
    to_move: int | None
    """The seat to move."""
    title: str | None
    """The caption."""
    dealer: int | None
    """The dealer's seat (its button)."""
    declarations: Sequence[str | None] | None
    """A note per seat under its hand."""
    trick_note: str | None
    """A note beside the trick."""
    trump_label: str
    """The word under the trump card."""
    stock_label: str
    """The word under the stock."""


Player = Bot
"""What a game's rule-of-thumb bot is: the one bot protocol, :class:`fly_rules.engine.protocols.Bot`, for views of
one game (``Player[FlyView]``)."""


class NewMatch(Protocol[_R_contra]):
    """How a game starts a match: ``new_match(rules, *, seed, dealer=None)``."""

    def __call__(self, rules: _R_contra, *, seed: int | str, dealer: int | None = None) -> GameState:
        """A new match under ``rules``, every deal shuffled from ``seed``; the first dealer drawn when None."""
        ...


@attrs.frozen
class Lazy:
    """A module, or a name in it, imported on first use: how a game names a piece of a higher layer (its
    hidden-card guesser, its Hypothesis strategy, its batch engine, its parts of the adapters and of the
    conformance kit) without importing that layer, or its optional dependency, with the game. Called, it
    calls ``name``; :meth:`part` is another name of the same module. Made by :func:`lazy`."""

    module: str
    """The module's name."""
    name: str = ""
    """The name called (empty: the module is named for its parts)."""

    def get(self) -> Any:
        """``name`` of the module, or the module itself, imported when first asked for."""
        return load(self.module, self.name) if self.name else _module(self.module)

    def part(self, name: str) -> Any:
        """The name ``name`` of the module (the adapters ask for their part's at every step: kept)."""
        return load(self.module, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """``name`` of the module, called with the arguments."""
        return self.get()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"lazy({self.module!r}{f', {self.name!r}' if self.name else ''})"


def _module(name: str) -> ModuleType:
    return importlib.import_module(name)


def wrapped_lines(text: str, indent: str = "   ", then: str | None = None) -> list[str]:
    """``text`` as lines of at most 80 columns (a terminal's), the first indented by ``indent``, the others by
    ``then`` (default: the same): a game's goal (:meth:`Words.goal`) or a record change, whose numbers come
    from the rules, cut where the words fall rather than where a fixed text was.

    >>> wrapped_lines("Goal: " + "win " * 30)[1]
    '   win win win win win win win win win win win win'
    """
    more = indent if then is None else then
    return textwrap.wrap(text, 80, initial_indent=indent, subsequent_indent=more, break_on_hyphens=False)


def seat_text(seat: int | None) -> str:
    """A seat as every game's text names it; None (no one to move: the deal is over) as ``nobody (over)``.

    >>> seat_text(2), seat_text(None)
    ('seat 2', 'nobody (over)')
    """
    return "nobody (over)" if seat is None else f"seat {seat}"


def tricks_text(count: int) -> str:
    """A number of tricks as every game's text writes it.

    >>> tricks_text(1), tricks_text(4)
    ('1 trick', '4 tricks')
    """
    return f"{count} trick" + ("" if count == 1 else "s")


class Words(Protocol[_R_contra, _D_contra, _V_contra]):
    """How the narration and the command tell a game: what differs between games in the text."""

    @property
    def exchange_words(self) -> tuple[str, str]:
        """The verb of an exchange and what comes before the cards when they are named."""
        ...

    def trumps(self, deal: _D_contra | _V_contra) -> str:
        """The trumps of a deal (or of a seat's view of it), for its first line."""
        ...

    def hand_note(self, deal: _D_contra | _V_contra, seat: int) -> str:
        """What follows a seat's hand when a deal starts (its record), in a deal or a seat's view of it."""
        ...

    def tricks(self, old: _D_contra, new: _D_contra, action: Action) -> list[str]:
        """The tricks an action completed, between two deals."""
        ...

    def deal_end(self, deal: _D_contra) -> list[str]:
        """The lines at the end of a deal."""
        ...

    def match_end(self, match: Any) -> str:
        """The line after the winner: the standings or the settlement (``match`` is the game's match)."""
        ...

    def describe(self, view: _V_contra) -> list[str]:
        """What a player of ``play`` sees beside the hand and the trick."""
        ...

    def goal(self, rules: _R_contra) -> list[str]:
        """The aim of the game and how it is scored under ``rules``, in a few lines of at most 80 columns
        (:func:`wrapped_lines`) for a player who has never played it (said when ``play`` starts)."""

    def board(self, deal: _D_contra) -> list[str]:
        """The lines of ``show``: the deal, the phase, each seat's hand and records."""
        ...


@attrs.frozen
class Game(Generic[_R, _D, _V]):
    """Everything the clients need to know about one game, typed by the game's rules, deal and view classes
    (``Game[FlyRules, FlyDeal, FlyView]``), so that a game's author has every piece checked against them;
    a client looking a game up by name gets a ``Game[Any, Any, Any]``."""

    name: str
    """The name the formats use, and states' ``game`` [REC-1.3]."""
    title: str
    """The name in text (``Fly``)."""
    rules_class: type[_R]
    """The rules class."""
    presets: Mapping[str, _R]
    """The named rules presets."""
    rules_version: int | str
    """Bumped whenever a change to the engine changes the outcome of some game [REC-1.3]."""
    seats: tuple[int, int]
    """The fewest and the most players."""
    default_players: int
    """The table size when none is given (within :attr:`seats`): what ``make_rules`` makes, and what the command,
    the adapters and the batch engine take."""
    make_rules: Callable[[str, int | None, dict[str, Any]], _R]
    """``make_rules(preset, players, options)``: the rules from a preset, players (None: the default) and
    options by name; raises :class:`~fly_rules.errors.InvalidRules`."""
    new_match: NewMatch[_R]
    """``new_match(rules, *, seed, dealer=None)``."""
    new_deal: Callable[..., _D]
    """``new_deal(rules, **start)``: an explicit deal from a history's ``[start]`` table."""
    start_keys: Mapping[str, str]
    """The keys of a ``[start]`` table in order, each with its kind: ``seat``, ``hands``, ``cards``,
    ``numbers`` or ``suit`` (a suit letter, or ``NT``) [REC-2.4]."""
    position: PositionForm[_R, _D]
    """The position notation."""
    words: Words[_R, _D, _V]
    """The text of the narration and of the command."""
    picture: Callable[[_V, dict[int, CardSet], str | None], Picture]
    """``picture(view, faces, title)``: the arguments of :func:`fly_rules.svg.table` for a view, the hands
    shown face up by seat, and the caption (None: the game's own)."""
    guesser: Callable[[_V, _R], Guess[_V, _R]]
    """``guesser(view, rules)``: what :func:`fly_rules.bots.sampling.sample_deal` guesses from
    (a :class:`fly_rules.engine.hidden.Guess`)."""
    rule_of_thumb: Callable[[RankOrder], Player[_V]]
    """The rule-of-thumb bot, for the rank order of the rules played."""
    adapter: Lazy
    """The module of the game's part of the adapters (observations as floats and text, OpenSpiel's deal), named
    with :func:`lazy`."""
    action_ids: ActionSpace[object] = attrs.field(factory=PlayActions)
    """The game's action ids (:mod:`fly_rules.engine.encoding`), NumPy-free: what the adapters, the batch engine,
    the table server and the browser number its actions by (default: plays only, ``0..51``)."""
    batch: Callable[..., Any] | None = None
    """``batch(rules, batch_size, match=...)``: the game's batch engine (a :class:`fly_rules.batch.BatchEngine`,
    named with :func:`lazy`); None for a game :func:`fly_rules.batch.make` does not play."""
    conformance: Lazy | None = None
    """The module of the game's part of the conformance kit's answers (its fields of a state, what its
    match does after a deal, a deal from a given pack), named with :func:`lazy`; None for a game the kit
    does not cover."""
    renamed_options: Mapping[str, str] = attrs.field(factory=dict)
    """Former option names, with their current names [REC-2.3]."""
    renamed_values: Mapping[str, Mapping[object, object]] = attrs.field(factory=dict)
    """Former option values, by option, with their current values [REC-2.3]."""
    actions: tuple[ActionForm, ...] = ()
    """The game's own actions on one card."""
    playout_samples: int = 16
    """The Monte-Carlo bot's default guesses per decision."""
    playout_far_records: bool = False
    """Whether the Monte-Carlo bot's guessed deals start from far records (the match must not end)."""
    expert: Callable[[_R], ExpertHints[_V]] | None = None
    """``expert(rules)``: what :class:`fly_rules.bots.ExpertBot` needs to know of the game (named with :func:`lazy`),
    an :class:`~fly_rules.engine.hints.ExpertHints` (the declarations worth searching, a guessed deal as it stands
    for a view, the declaration to keep by default, the records a guess replays from, the concept, samples and
    budget), and also a :class:`~fly_rules.engine.hints.ModelHints` for an expert that takes the others to play like
    the rule of thumb (its guesser, what the others' plays rule out, the guessed deal as the model would have come
    to it, the race model); the expert checks them against the protocols when it is made. None: the expert does
    not play the game."""
    search_kernel: Callable[[Any], Any] | None = None
    """``search_kernel(deal)``: the game's :class:`fly_rules.engine.solving.SearchKernel` for :mod:`fly_rules.solve`
    (named with :func:`lazy`); None: the solver walks the game's states through their own protocol."""
    strategies: Callable[..., Any] | None = None
    """A Hypothesis strategy of the game's reachable matches (``max_actions=``); None: seeded matches
    of the default rules played on by drawn legal actions."""


def register(game: Game[_R, _D, _V]) -> Game[_R, _D, _V]:
    """Make ``game`` known by its name; registering the same descriptor again changes nothing.

    Raises:
        ValueError: another game already has the name.
    """
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game ``name`` (a game a test registered); the library's own games stay."""
    if _GAMES.get(name) is not None and _GAMES[name].rules_class.__module__.startswith(_BUILT_IN):
        raise ValueError(f"{name!r} is one of the library's own games")
    _GAMES.pop(name, None)


def _load() -> None:
    for package in _BUILT_IN:
        importlib.import_module(package)


def games() -> tuple[str, ...]:
    """The names of the games, the library's own first, in the order they were registered."""
    _load()
    own = [game.name for game in _GAMES.values() if game.rules_class.__module__.startswith(_BUILT_IN)]
    own.sort(key=lambda name: [_GAMES[name].rules_class.__module__.startswith(p) for p in _BUILT_IN].index(True))
    return (*own, *(name for name in _GAMES if name not in own))


def get(name: object) -> Game[Rules, DealState, SeatView]:
    """The game called ``name``.

    Raises:
        InvalidRules: no game has that name.
    """
    game = None
    if isinstance(name, str):  # anything else is no game's name (a list, say, is not even a key)
        if name not in _GAMES:
            _load()
        game = _GAMES.get(name)
    if game is None:
        raise InvalidRules("game", f"unknown game {name!r} (known: {', '.join(games())})")
    return game


def game_of(value: object) -> Game[Rules, DealState, SeatView]:
    """The game of a rules object, match, deal or view (its ``game``).

    Raises:
        TypeError: ``value`` names no registered game.
    """
    name = getattr(value, "game", None)
    if name not in _GAMES:
        _load()
    if not isinstance(name, str) or name not in _GAMES:
        raise TypeError(f"not a state, view or rules of a registered game: {type(value).__name__}")
    return _GAMES[name]


def rules_game(rules: object, game: str | None = None) -> Game[Rules, DealState, SeatView]:
    """The game whose rules object ``rules`` is (``game``'s, if named): every function that takes a game's rules
    checks them so, rather than reading a game's name, a match or another game's rules as rules.

    Raises:
        TypeError: ``rules`` is not a registered game's rules object, or not ``game``'s.

    >>> rules_game("fly")
    Traceback (most recent call last):
    ...
    TypeError: rules must be a registered game's rules (FlyRules, DreyfusRules), not str
    """
    name = getattr(rules, "game", None)  # a rules object's game is registered: its package made the object
    found = _GAMES.get(name) if isinstance(name, str) else None
    wanted = None if game is None else get(game)
    if found is None or (wanted is not None and wanted is not found) or not isinstance(rules, found.rules_class):
        known = ", ".join(_GAMES[each].rules_class.__name__ for each in games())
        needed = f"a registered game's rules ({known})" if wanted is None else wanted.rules_class.__name__
        raise TypeError(f"rules must be {needed}, not {type(rules).__name__}")
    return found


@functools.cache
def load(module: str, name: str) -> Any:
    """``name`` of the module ``module``, imported when first needed (the game's adapter part); kept, as
    the adapters ask for it at every step."""
    return getattr(importlib.import_module(module), name)


def lazy(module: str, name: str = "") -> Lazy:
    """``name`` of ``module`` (or, without a name, the module), imported on first use (a :class:`Lazy`):
    the one way a game names a piece of a higher layer, or of an optional dependency, without importing it.

    >>> told = lazy("textwrap", "shorten")
    >>> told("the ace of spades takes the trick", 20)
    'the ace of [...]'
    >>> lazy("textwrap").part("dedent")("  a")
    'a'
    """
    return Lazy(module, name)
