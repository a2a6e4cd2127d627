"""One line of the kit's line protocol read safely: bytes in, a JSON object or a one-line reason out.

Both ends of the protocol read lines written by a program they do not trust: ``fly-rules engine``
reads the runner's requests, ``fly-rules conform`` reads an engine's answers. Neither may crash or
hang on what it reads, so a line is decoded here and every fault becomes a short reason: bytes that
are not UTF-8, text that is not JSON, JSON nested too deep for Python's reader, a number of more
than 100 digits (REC-1.5), ``NaN`` or ``Infinity`` (not JSON), a lone surrogate escaped in a string (no
character: no output can print it), or a value that is not an object.

>>> read_line(b'{"cmd": "hello"}\\n')
{'cmd': 'hello'}
>>> read_line(b"\\xff\\n")
LineFault('not UTF-8: byte 0xff at offset 0')
>>> read_line(b"[" * 5000)
LineFault('JSON nested too deeply (5,000 bytes)')
>>> read_line(b"1" * 5000)
LineFault('a number of more than 100 digits')
>>> read_line(b'{"engine": "\\\\ud800"}')
LineFault('not text: a lone surrogate \\\\ud800 in a string (no character; I-JSON, RFC 7493)')
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from fly_rules.errors import shorten

__all__ = ["MAX_DIGITS", "LineFault", "echo", "read_line", "words", "write_line"]

MAX_DIGITS: Final = 100
"""The most digits a number on the wire may have, as in every format of the library [REC-1.5]."""


class LineFault(ValueError):
    """Why a line is not a JSON object (its message is one line, with nothing of the line longer than
    :func:`echo` shows)."""

    def __repr__(self) -> str:
        return f"LineFault({str(self)!r})"


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise LineFault(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
"""The escape of a UTF-16 surrogate: a pair of them is one character, one alone is none."""
_LONE: Final = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: object) -> str | None:
    """The first lone surrogate in ``value``'s strings (keys included), or None."""
    if isinstance(value, str):
        found = _LONE.search(value)
        return None if found is None else found.group()
    if isinstance(value, dict):
        return next((s for item in value.items() for s in map(_lone_surrogate, item) if s is not None), None)
    if isinstance(value, list):
        return next((s for s in map(_lone_surrogate, value) if s is not None), None)
    return None


def _no_constant(name: str) -> Any:
    raise LineFault(f"{name} is not JSON")


def read_line(line: bytes) -> dict[str, Any] | LineFault:
    """The JSON object of one line (its line end stripped), or the :class:`LineFault` that says why not."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return LineFault(f"not UTF-8: byte 0x{line[error.start]:02x} at offset {error.start:,}")
    try:
        value = json.loads(text, parse_int=_whole, parse_constant=_no_constant)
    except LineFault as fault:
        return fault
    except RecursionError:
        return LineFault(f"JSON nested too deeply ({len(line):,} bytes)")
    except ValueError as error:  # json.JSONDecodeError, or a float Python cannot read
        return LineFault(f"not JSON: {shorten(str(error))}; the line starts {echo(text, 40)}")
    if not isinstance(value, dict):
        return LineFault(f"not a JSON object: {echo(text, 60)}")
    if _SURROGATE_ESCAPE.search(text) is not None:  # pairs decode to one character; only a lone one is left
        lone = _lone_surrogate(value)
        if lone is not None:
            return LineFault(
                f"not text: a lone surrogate \\u{ord(lone):04x} in a string (no character; I-JSON, RFC 7493)"
            )
    return value


def echo(value: object, limit: int = 120) -> str:
    """``value`` as a message shows it: JSON (or the text itself) cut to about ``limit`` characters, with the
    full size said when cut, so that no report grows with what an engine sends.

    >>> echo("x" * 1000, 20)
    '"xxxxxxxxxxxxxxxxxxx… (1,002 characters)'
    >>> echo(None)
    'null'
    >>> echo({"turn": 1})
    '{"turn": 1}'
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def words(value: object, limit: int = 200) -> str:
    """A message an engine sends (its ``error``), as one line: white space run together, cut to about ``limit``
    characters; anything but text shown as :func:`echo` does.

    >>> words("no perft\\n  here")
    'no perft here'
    """
    if not isinstance(value, str):
        return echo(value, limit)
    text = " ".join(value.split())
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def write_line(value: dict[str, Any]) -> bytes:
    """One line of the protocol: ``value`` as JSON (UTF-8, non-ASCII as it is) and a line end."""
    return (json.dumps(value, ensure_ascii=False) + "\n").encode("utf-8")
