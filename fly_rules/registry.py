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
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

import attrs

from fly_rules.cards import Card
from fly_rules.errors import InvalidRules

__all__ = [
    "ActionForm",
    "Game",
    "PositionForm",
    "Words",
    "game_of",
    "games",
    "get",
    "lazy",
    "register",
    "seat_text",
    "tricks_text",
    "unregister",
]

_BUILT_IN: Final = ("fly_rules.fly", "fly_rules.dreyfus")
"""The library's own game packages; importing one registers its game."""

_GAMES: dict[str, Game] = {}


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


@attrs.frozen
class PositionForm:
    """How a game's positions are written and read [REC-5.1]."""

    fields: int
    """Fields in the line."""
    players: Callable[[list[Any]], int | None]
    """The number of players the rules are made for, from the hands (None: the game's only number)."""
    write: Callable[[Any], list[str]]
    """The fields after the dealer and around the hands: trump, undealt cards, records, then any others."""
    read: Callable[[Any, list[str], list[list[Card]], int, str], Any]
    """The dealt position, from the rules, the fields, the hands, the dealer and the whole line."""


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


class Words(Protocol):
    """How the narration and the command tell a game: what differs between games in the text."""

    exchange_words: tuple[str, str]
    """The verb of an exchange and what comes before the cards when they are named."""

    def trumps(self, deal: Any) -> str:
        """The trumps of a deal, for its first line."""

    def hand_note(self, deal: Any, seat: int) -> str:
        """What follows a seat's hand when a deal starts (its record)."""

    def tricks(self, old: Any, new: Any, action: Any) -> list[str]:
        """The tricks an action completed, between two deals."""

    def deal_end(self, deal: Any) -> list[str]:
        """The lines at the end of a deal."""

    def match_end(self, match: Any) -> str:
        """The line after the winner: the standings or the settlement."""

    def describe(self, view: Any) -> list[str]:
        """What a player of ``play`` sees beside the hand and the trick."""

    def goal(self, rules: Any) -> list[str]:
        """The aim of the game and how it is scored under ``rules``, in two lines of at most 80 columns
        for a player who has never played it (said when ``play`` starts)."""

    def board(self, deal: Any) -> list[str]:
        """The lines of ``show``: the deal, the phase, each seat's hand and records."""


@attrs.frozen
class Game:
    """Everything the clients need to know about one game."""

    name: str
    """The name the formats use, and states' ``game`` [REC-1.3]."""
    title: str
    """The name in text (``Fly``)."""
    rules_class: type
    """The rules class."""
    presets: Mapping[str, Any]
    """The named rules presets."""
    rules_version: int | str
    """Bumped whenever a change to the engine changes the outcome of some game [REC-1.3]."""
    seats: tuple[int, int]
    """The fewest and the most players."""
    default_players: int
    """The table size when none is given (within :attr:`seats`): what ``make_rules`` makes, and what the command,
    the adapters and the batch engine take."""
    make_rules: Callable[..., Any]
    """``make_rules(preset, players, options)``: the rules from a preset, players (None: the default) and
    options by name; raises :class:`~fly_rules.errors.InvalidRules`."""
    new_match: Callable[..., Any]
    """``new_match(rules, *, seed, dealer=None)``."""
    new_deal: Callable[..., Any]
    """``new_deal(rules, **start)``: an explicit deal from a history's ``[start]`` table."""
    start_keys: Mapping[str, str]
    """The keys of a ``[start]`` table in order, each with its kind: ``seat``, ``hands``, ``cards``,
    ``numbers`` or ``suit`` (a suit letter, or ``NT``) [REC-2.4]."""
    position: PositionForm
    """The position notation."""
    words: Words
    """The text of the narration and of the command."""
    picture: Callable[[Any, dict[int, Any], str | None], dict[str, Any]]
    """``picture(view, faces, title)``: the arguments of :func:`fly_rules.svg.table` for a view, the hands
    shown face up by seat, and the caption (None: the game's own)."""
    guesser: Callable[[Any, Any], Any]
    """``guesser(view, rules)``: what :func:`fly_rules.bots.sampling.sample_deal` guesses from
    (a :class:`fly_rules.engine.hidden.Guess`)."""
    rule_of_thumb: Callable[[Any], Any]
    """The rule-of-thumb bot for the rules."""
    adapter: str
    """The module of the game's part of the adapters (action ids, observations, OpenSpiel's deal)."""
    batch: Callable[..., Any] | None = None
    """``batch(rules, batch_size, match=...)``: the game's batch engine (a :class:`fly_rules.batch.BatchEngine`,
    named with :func:`lazy`); None for a game :func:`fly_rules.batch.make` does not play."""
    conformance: str = ""
    """The module of the game's part of the conformance kit's answers (its fields of a state, what its
    match does after a deal, a deal from a given pack); empty for a game the kit does not cover."""
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
    search_kernel: Callable[[Any], Any] | None = None
    """``search_kernel(deal)``: the game's :class:`fly_rules.engine.solving.SearchKernel` for :mod:`fly_rules.solve`
    (named with :func:`lazy`); None: the solver walks the game's states through their own protocol."""
    strategies: Callable[..., Any] | None = None
    """A Hypothesis strategy of the game's reachable matches (``max_actions=``); None: seeded matches
    of the default rules played on by drawn legal actions."""


def register(game: Game) -> Game:
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


def get(name: object) -> Game:
    """The game called ``name``.

    Raises:
        InvalidRules: no game has that name.
    """
    if name not in _GAMES:
        _load()
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise InvalidRules("game", f"unknown game {name!r} (known: {', '.join(games())})")
    return game


def game_of(value: object) -> Game:
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


@functools.cache
def load(module: str, name: str) -> Any:
    """``name`` of the module ``module``, imported when first needed (the game's adapter part); kept, as
    the adapters ask for it at every step."""
    return getattr(importlib.import_module(module), name)


def lazy(module: str, name: str) -> Callable[..., Any]:
    """A callable that imports ``name`` of ``module`` on its first call and calls it: how a game names
    a piece of a higher layer (its bot, its hidden-card guesser, its Hypothesis strategy) without
    importing that layer, or its optional dependency, with the game.

    >>> told = lazy("textwrap", "shorten")
    >>> told("the ace of spades takes the trick", 20)
    'the ace of [...]'
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        return load(module, name)(*args, **kwargs)

    call.__qualname__ = call.__name__ = f"lazy({module}:{name})"
    return call
