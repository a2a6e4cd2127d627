"""Options helpers shared by the games' rules classes: one way to check an option's value, read from
the rules class's own annotations, with one message per fault in both games.

A ``Literal`` option takes exactly one of its values (``3.0`` is not ``3``, ``1`` is not ``True``), a
``bool`` option True or False, and a whole-number option (declared with :func:`whole`) an int within
its stated range, whose ends keep every value writable in the formats [REC-1.5].

>>> @attrs.frozen
... class Options:
...     players: int = 4
...     speed: int = whole(1, 1, 9)
...     mode: typing.Literal["a", "b"] = "a"
...     def __attrs_post_init__(self) -> None:
...         check_options(self)
>>> changed_options(Options(players=3, speed=2), Options())
{'speed': 2}
>>> Options(mode="c")
Traceback (most recent call last):
...
fly_rules.errors.InvalidRules: invalid rules option mode: must be one of 'a', 'b', not 'c'
>>> Options(speed=2.0)
Traceback (most recent call last):
...
fly_rules.errors.InvalidRules: invalid rules option speed: must be a whole number from 1 to 9, not 2.0
"""

from __future__ import annotations

import types
import typing
from typing import Any, Final, TypeVar

import attrs

from fly_rules.errors import InvalidRules, shown

__all__ = ["MAX_COUNT", "MAX_POINTS", "changed_options", "check_options", "check_rules", "declared_options", "whole"]

_R = TypeVar("_R")

MAX_POINTS: Final = 1000
"""The most points an option may write or count (a record's start, a penalty, a target) [REC-1.5]."""
MAX_COUNT: Final = 1_000_000
"""The most deals a match may be limited to [REC-1.5]."""

_RANGE: Final = "fly_rules.range"


def changed_options(rules: Any, default: Any) -> dict[str, object]:
    """The options (init fields, ``players`` aside) in which the attrs instance ``rules`` differs from
    ``default``, by name, in field order."""
    return {
        field.name: getattr(rules, field.name)
        for field in attrs.fields(type(rules))
        if field.init and field.name != "players" and getattr(rules, field.name) != getattr(default, field.name)
    }


def whole(default: int | None, low: int, high: int, *, rule: str = "", says: str = "") -> Any:
    """An attrs field for a whole-number option from ``low`` to ``high`` (or None, where the annotation
    allows it); ``rule`` (a rule ID) leads the message of a refused value, and ``says`` (formatted with
    ``low`` and ``high``) puts the range in the game's own words instead of "must be a whole number".

    >>> @attrs.frozen
    ... class Table:
    ...     players: int = whole(3, 3, 5, rule="X-1", says="the table seats {low} to {high} players")
    ...     def __attrs_post_init__(self) -> None:
    ...         check_options(self)
    >>> Table(players=6)
    Traceback (most recent call last):
    ...
    fly_rules.errors.InvalidRules: invalid rules option players: X-1: the table seats 3 to 5 players, not 6
    """
    return attrs.field(default=default, metadata={_RANGE: (low, high, rule, says)})


def check_options(rules: Any) -> None:
    """Check each option of the attrs instance ``rules`` against its annotation, in field order.

    Raises:
        InvalidRules: naming the first option at fault, what it allows and the value given.
    """
    for name, allowed, bounds in _checks(type(rules)):
        value = getattr(rules, name)
        if allowed is not None:
            if not any(value is a or (type(value) is type(a) and value == a) for a in allowed):
                listed = ", ".join(map(repr, allowed))
                raise InvalidRules(name, f"must be one of {listed}, not {shown(value)}")
        elif bounds is None:
            if type(value) is not bool:
                raise InvalidRules(name, f"must be True or False, not {shown(value)}")
        elif not (type(value) is int and bounds[0] <= value <= bounds[1]) and not (value is None and bounds[4]):
            low, high, rule, says, optional = bounds
            says = says or f"must be {'None or ' if optional else ''}a whole number from {{low}} to {{high}}"
            said = says.format(low=low, high=high)
            raise InvalidRules(name, f"{rule}{': ' if rule else ''}{said}, not {shown(value)}")


_Check = tuple[str, tuple[object, ...] | None, tuple[int, int, str, str, bool] | None]


def declared_options(cls: type) -> dict[str, tuple[object, ...] | range | None]:
    """The options of the rules class ``cls`` whose values its annotations declare, by name, in field order: a
    ``Literal``'s values (with None first where it is optional), a whole number's ``range`` (None allowed too
    where the annotation says so), or None for a ``bool`` (what :func:`fly_rules.strategies.fly_rules_options`
    draws from)."""
    found: dict[str, tuple[object, ...] | range | None] = {}
    for name, allowed, bounds in _checks(cls):
        found[name] = allowed if allowed is not None else None if bounds is None else range(bounds[0], bounds[1] + 1)
    return found


def _checks(cls: type) -> tuple[_Check, ...]:
    found = _CHECKS.get(cls)
    if found is None:
        found = _CHECKS[cls] = _read_checks(cls)
    return found


_CHECKS: dict[type, tuple[_Check, ...]] = {}


def _read_checks(cls: type) -> tuple[_Check, ...]:
    """Per checked option of ``cls``: its name, the values of its ``Literal`` (or None), and for a whole
    number its (low, high, rule, words, None allowed); a ``bool`` option has neither."""
    hints = typing.get_type_hints(cls)
    found: list[_Check] = []
    for field in attrs.fields(cls):
        hint = hints[field.name]
        args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
        optional = type(None) in args
        kinds = [arg for arg in args if arg is not type(None)]
        if _RANGE in field.metadata:
            low, high, rule, says = field.metadata[_RANGE]
            found.append((field.name, None, (low, high, rule, says, optional)))
        elif kinds and all(typing.get_origin(arg) is typing.Literal for arg in kinds):
            values = tuple(v for arg in kinds for v in typing.get_args(arg))
            found.append((field.name, (None, *values) if optional else values, None))
        elif hint is bool:
            found.append((field.name, None, None))
    return tuple(found)


def check_rules(rules: _R, cls: type[_R]) -> _R:
    """``rules``, if it is a ``cls`` (a game's rules class): every function that takes a game's rules refuses any
    other value by name, rather than reading it as another argument (an old argument order) or failing later.

    Raises:
        TypeError: ``rules`` is not a ``cls``.
    """
    if not isinstance(rules, cls):
        raise TypeError(f"rules must be {cls.__name__}, not {type(rules).__name__}")
    return rules
