"""The JSON form of a seat's view, the same for every game: what a networked client is sent.

Every field of the game's view class is written under its own name: a card as its two-character text
(CARD-4.1, ``"AS"``), a card set as a list of those in the set's order, a suit as its letter, the phase as
its name (``"exchange"``), a tuple as a list, a nested value (Fly's ``Declared``) as an object; ``"game"``
names the game. :func:`view_from_data` reads the form back to an equal view. A view's seat-private fields
(its hand, and Dreyfus's own discards) carry ``metadata={"private": True}``; :func:`public_view` empties
them, which is what a watcher of the table may see [TBL-3.4].

>>> from fly_rules import fly
>>> view = fly.new_match(fly.FlyRules(players=3), seed=2, dealer=0).view(1)
>>> data = view_data(view)
>>> data["game"], data["phase"], len(data["hand"])
('fly', 'exchange', 5)
>>> view_from_data(data) == view
True
>>> view_data(public_view(view))["hand"]
[]
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from typing import Any, Union

import attrs

from fly_rules import registry
from fly_rules.cards import Card, CardSet, Suit
from fly_rules.engine import Phase
from fly_rules.errors import InvalidNotation

__all__ = ["private_data", "private_names", "public_view", "view_data", "view_from_data"]


def _value(value: object) -> object:
    """One field's value in the JSON form."""
    kind = type(value)
    if kind is int or kind is bool or kind is str or value is None:
        return value
    if kind is tuple:
        return [_value(item) for item in value]  # type: ignore[attr-defined]  # a tuple: iterable
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, CardSet):
        return [str(card) for card in value]
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_value(item) for item in value]
    if attrs.has(type(value)):
        return {field.name: _value(getattr(value, field.name)) for field in _fields(type(value))}
    return value


def view_data(view: Any) -> dict[str, Any]:
    """``view`` (any registered game's view of one seat) in the JSON form: a dict of JSON values.

    Raises:
        TypeError: ``view`` is not a view of a registered game.
    """
    if not attrs.has(type(view)) or not isinstance(getattr(view, "game", None), str):
        raise TypeError(f"not a view of a registered game: {type(view).__name__}")
    data: dict[str, Any] = {"game": view.game}
    for field in _fields(type(view)):
        data[field.name] = _value(getattr(view, field.name))
    return data


def private_data(view: Any) -> dict[str, Any]:
    """The JSON form of ``view``'s seat-private fields alone (its hand; Dreyfus's own discards too): with the
    public view's form, the whole of :func:`view_data` (a server tells many seats one public part)."""
    return {name: _value(getattr(view, name)) for name in private_names(view.game)}


def private_names(game: str) -> tuple[str, ...]:
    """The names of the seat-private fields of the game ``game``'s view (``("hand",)`` for Fly).

    Raises:
        InvalidRules: no game of that name is registered.
    """
    names = _PRIVATE.get(game)
    if names is None:
        names = _PRIVATE[game] = tuple(f.name for f in _fields(_view_class(game)) if f.metadata.get("private"))
    return names


_PRIVATE: dict[str, tuple[str, ...]] = {}


def public_view(view: Any) -> Any:
    """``view`` with its seat-private fields emptied: what every seat and a watcher may know [TBL-3.4]."""
    private = {
        field.name: type(getattr(view, field.name))() for field in _fields(type(view)) if field.metadata.get("private")
    }
    return attrs.evolve(view, **private)


def _fields(cls: type[Any]) -> tuple[attrs.Attribute[Any], ...]:
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cls)
    return fields


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


@functools.cache
def _view_class(name: str) -> type[Any]:
    """The view class of the game ``name`` (the type of a view of its default match)."""
    game = registry.get(name)
    return type(game.new_match(game.make_rules("default", None, {}), seed=0).view(0))


def _read(kind: Any, value: object, name: str) -> object:
    """``value`` of the JSON form read as a field of type ``kind``."""
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        kind = next(option for option in options if option is not type(None))
        origin = typing.get_origin(kind)
    if kind is Card:
        return Card.parse(_text(value, name))
    if kind is CardSet:
        if not isinstance(value, list):
            raise InvalidNotation(repr(value), f"{name} must be a list of cards")
        return CardSet.of(Card.parse(_text(card, name)) for card in value)
    if kind is Suit:
        return Suit.parse(_text(value, name))
    if kind is Phase:
        return Phase(value)
    if origin is tuple:
        if not isinstance(value, list):
            raise InvalidNotation(repr(value), f"{name} must be a list")
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], item, name) for item in value)
        if len(args) != len(value):
            raise InvalidNotation(repr(value), f"{name} must have {len(args)} items")
        return tuple(_read(arg, item, name) for arg, item in zip(args, value, strict=True))
    if isinstance(kind, type) and attrs.has(kind):
        if not isinstance(value, dict):
            raise InvalidNotation(repr(value), f"{name} must be an object")
        hints = _hints(kind)
        return kind(**{f.name: _read(hints[f.name], value.get(f.name), f"{name}.{f.name}") for f in _fields(kind)})
    if kind in (int, bool, str) and type(value) is kind:
        return value
    raise InvalidNotation(repr(value), f"{name} must be {getattr(kind, '__name__', kind)}")


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidNotation(repr(value), f"{name} must be text")
    return value


def view_from_data(data: dict[str, Any]) -> Any:
    """The view whose JSON form is ``data`` (:func:`view_data`), of the game ``data["game"]`` names.

    Raises:
        InvalidNotation: a field is missing or not of its kind, or the game is unknown.
    """
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise InvalidNotation(repr(data)[:80], "a view must be an object with its game")
    try:
        game = registry.get(data["game"])
    except ValueError as error:
        raise InvalidNotation(data["game"], str(error)) from None
    cls = _view_class(game.name)
    hints = _hints(cls)
    missing = [f.name for f in _fields(cls) if f.name not in data]
    if missing:
        raise InvalidNotation(repr(data)[:80], f"missing {', '.join(missing)}")
    try:
        return cls(**{f.name: _read(hints[f.name], data[f.name], f.name) for f in _fields(cls)})
    except (ValueError, TypeError) as error:
        raise InvalidNotation(repr(data)[:80], str(error)) from None
