"""``fly-rules engine``: this engine speaking the kit's line protocol over a pair of streams.

Each line read is one JSON request; each answer is one JSON line, flushed at once. Whatever a line
holds, it gets one answer and the next line is read: a request this engine cannot answer, a line
that is not a JSON object (not UTF-8, not JSON, nested too deep, a number of more than 100 digits),
a line longer than :attr:`ServerLimits.line_bytes` and a ``perft`` or ``divide`` over its budget
each get ``{"error": "..."}``. ``{"cmd": "quit"}`` or the end of the input stops it.

>>> import io
>>> out = io.StringIO()
>>> serve(io.BytesIO(b'{"cmd": "hello"}\\nnot json\\n{"cmd": "quit"}\\n{"cmd": "hello"}\\n'), out)
0
>>> print(out.getvalue().strip())  # doctest: +ELLIPSIS
{"engine": "fly_rules", "version": "...", "protocol": 2, "games": ["fly", "dreyfus"], ...}
{"error": "not JSON: Expecting value: line 1 column 1 (char 0); the line starts \\"not json\\""}
"""

from __future__ import annotations

import json
from typing import IO, Any, Final, TextIO

import attrs

from fly_rules.conformance.answers import LIMITS, ProtocolError, answer
from fly_rules.conformance.perft import Budget
from fly_rules.conformance.wire import LineFault, read_line
from fly_rules.errors import FlyRulesError

__all__ = ["LINE_BYTES", "ServerLimits", "reply", "serve"]

LINE_BYTES: Final = 16 << 20
"""The longest request line read by default (16 MiB); a longer one is answered with an error."""

_CHUNK: Final = 1 << 16


@attrs.frozen
class ServerLimits:
    """What one request may cost: the longest line read, and the budget of a ``perft`` or ``divide``."""

    line_bytes: int = LINE_BYTES
    """The longest request line, in bytes (its line end not counted)."""
    counts: Budget = LIMITS
    """The positions and seconds one ``perft`` or ``divide`` may spend."""


def reply(line: bytes | str, limits: ServerLimits | None = None) -> dict[str, Any]:
    """The answer to one request line (an ``{"error": ...}`` for one that cannot be answered)."""
    return _respond(read_line(line.encode("utf-8", "surrogateescape") if isinstance(line, str) else line), limits)


def _respond(request: dict[str, Any] | LineFault, limits: ServerLimits | None) -> dict[str, Any]:
    limits = limits or ServerLimits()
    if isinstance(request, LineFault):
        return {"error": str(request)}
    try:
        return answer(request, limits.counts)
    except (ProtocolError, FlyRulesError, TypeError, ValueError) as error:
        return {"error": str(error)}
    except RecursionError:  # a request's value nested deep enough to exhaust a recursive check
        return {"error": "a request nested too deeply"}
    except ImportError as error:  # histories are written with tomli-w, from the cli extra
        return {"error": f"{error}: install fly_rules[cli]"}


def _lines(stream: IO[bytes], limit: int) -> Any:
    """Each line of ``stream`` without its line end, or None for one longer than ``limit`` bytes (whose
    rest is read and dropped, never kept)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1].rstrip(b"\r")
            continue
        if len(line) <= limit:  # the last line, without a line end
            yield line
            return
        while line and not line.endswith(b"\n"):
            line = stream.readline(_CHUNK)
        yield None


def serve(stream: IO[bytes], out: TextIO, limits: ServerLimits | None = None) -> int:
    """Answer each request line of the binary ``stream`` on ``out`` until ``quit`` or the end; returns 0."""
    limits = limits or ServerLimits()
    for line in _lines(stream, limits.line_bytes):
        if line is None:
            got: dict[str, Any] = {"error": f"a request line longer than {limits.line_bytes:,} bytes"}
        elif not line.strip():
            continue
        else:
            request = read_line(line)
            if isinstance(request, dict) and request.get("cmd") == "quit":
                break
            got = _respond(request, limits)
        out.write(json.dumps(got, ensure_ascii=False) + "\n")
        out.flush()
    return 0
