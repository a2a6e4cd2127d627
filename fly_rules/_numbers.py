"""Whole numbers and nesting in text input, read strictly and within bounds [REC-1.5].

``int()`` reads more than the formats allow: other scripts' digits (``٣``), some superscripts
refused and others not (``²``), ``_`` separators, surrounding blanks; and it refuses numbers of
more than 4,300 digits with a plain :class:`ValueError`. Every number the library reads from text
goes through :func:`whole_number` instead.
"""

from __future__ import annotations

import math
import operator
import re
from typing import Final, SupportsIndex

from fly_rules.errors import FlyRulesError, InvalidNotation, RuleViolation, shown

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_HISTORY_CHARS",
    "MAX_POSITION_CHARS",
    "check_count",
    "check_seat",
    "check_seconds",
    "is_whole_number",
    "whole_number",
]

MAX_DIGITS: Final = 100
"""The most digits a number in a position, a history or a command's argument may have [REC-1.5]."""
MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and tables a history may have, and the most parts of a key [REC-1.5]."""
MAX_HISTORY_CHARS: Final = 64 * 2**20
"""The most characters a history may have [REC-1.5]: some 70,000 deals of seven players."""
MAX_POSITION_CHARS: Final = 10_000
"""The most characters a position may have [REC-1.5]: some twenty times a seven-player deal's."""

_WHOLE: Final = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)


def is_whole_number(text: str, *, signed: bool = True) -> bool:
    """Whether ``text`` is a whole number in ASCII digits, at most :data:`MAX_DIGITS` of them.

    >>> is_whole_number("12"), is_whole_number("-3"), is_whole_number("٣"), is_whole_number("1_0")
    (True, True, False, False)
    """
    return _WHOLE.fullmatch(text) is not None and (signed or not text.startswith("-"))


def whole_number(text: str, what: str, *, signed: bool = True) -> int:
    """``text`` as an int, if it is a whole number in ASCII digits (``-`` first if ``signed``).

    Raises:
        InvalidNotation: quoting ``text`` and naming ``what`` it was meant to be.

    >>> whole_number("42", "dealer")
    42
    >>> whole_number("²", "dealer")
    Traceback (most recent call last):
    ...
    fly_rules.errors.InvalidNotation: invalid notation '²': dealer: '²' is not a whole number in the digits 0-9
    """
    if isinstance(text, str) and is_whole_number(text, signed=signed):
        return int(text)
    if not isinstance(text, str):
        raise InvalidNotation(repr(text), f"{what}: a number must be given as text")
    digits = text.removeprefix("-")
    if digits.isascii() and digits.isdigit() and len(digits) > MAX_DIGITS:
        detail = f"{what}: a number of {len(digits)} digits (at most {MAX_DIGITS})"
    else:
        sign = "" if signed else "non-negative "
        detail = f"{what}: {text!r} is not a {sign}whole number in the digits 0-9"
    raise InvalidNotation(text, detail)


def check_seat(seat: object, players: int, rule: str, subject: str) -> int:
    """``seat``, if it is a seat of a ``players``-player game (an int, not a bool, from 0 to ``players - 1``).

    Raises:
        RuleViolation: ``rule``, saying that ``subject`` must be a seat, for anything else.

    >>> check_seat(3, 3, "DRF-2.1", "the dealer")
    Traceback (most recent call last):
    ...
    fly_rules.errors.RuleViolation: DRF-2.1: the dealer must be a seat 0 to 2, not 3
    """
    if type(seat) is not int or not 0 <= seat < players:
        raise RuleViolation(rule, f"{subject} must be a seat 0 to {players - 1}, not {shown(seat)}", seat)
    return seat


def check_count(value: object, what: str, low: int = 0) -> int:
    """``value`` as an int, if it is a whole number (an int or any integer type such as NumPy's, not a bool) of at
    least ``low``: every count an argument gives (samples, a limit, a batch size) is read the same way.

    Raises:
        FlyRulesError: naming ``what`` and the value, for anything else.

    >>> check_count(3, "samples", 1)
    3
    >>> check_count("3", "samples", 1)
    Traceback (most recent call last):
    ...
    fly_rules.errors.FlyRulesError: samples must be a whole number >= 1, not '3'
    """
    if not isinstance(value, bool) and isinstance(value, SupportsIndex):
        try:
            number = operator.index(value)
        except TypeError:
            pass
        else:
            if number >= low:
                return number
    raise FlyRulesError(f"{what} must be a whole number >= {low}, not {shown(value)}")


def check_seconds(value: object, what: str) -> float:
    """``value`` as a float, if it is a number of seconds above 0 (an int or float, not a bool, not infinite).

    Raises:
        FlyRulesError: naming ``what`` and the value, for anything else.

    >>> check_seconds(2, "seconds")
    2.0
    >>> check_seconds(float("nan"), "seconds")
    Traceback (most recent call last):
    ...
    fly_rules.errors.FlyRulesError: seconds must be a number above 0, not nan
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise FlyRulesError(f"{what} must be a number above 0, not {shown(value)}")
    return float(value)
