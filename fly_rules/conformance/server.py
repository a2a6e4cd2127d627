"""``fly-rules engine``: this engine speaking the kit's line protocol over a pair of streams.

Each line read is one JSON request; each answer is one JSON line, flushed at once. A request this
engine cannot answer gets ``{"error": "..."}`` and the next line is read; ``{"cmd": "quit"}`` or the
end of the input stops it.

>>> import io
>>> out = io.StringIO()
>>> serve(io.StringIO('{"cmd": "hello"}\\nnot json\\n{"cmd": "quit"}\\n'), out)
0
>>> print(out.getvalue().strip())
{"engine": "fly_rules", "protocol": 1, "games": ["fly", "dreyfus"]}
{"error": "not a JSON request: Expecting value: line 1 column 1 (char 0)"}
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from fly_rules.conformance.answers import ProtocolError, answer
from fly_rules.errors import FlyRulesError

__all__ = ["reply", "serve"]


def reply(line: str) -> dict[str, Any]:
    """The answer to one request line (an ``{"error": ...}`` for one that cannot be answered)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not a JSON request: {error}"}
    try:
        return answer(request)
    except (ProtocolError, FlyRulesError, TypeError, ValueError) as error:
        return {"error": str(error)}
    except ImportError as error:  # histories are written with tomli-w, from the cli extra
        return {"error": f"{error}: install fly_rules[cli]"}


def serve(lines: Iterable[str], out: TextIO) -> int:
    """Answer each request of ``lines`` on ``out`` until ``quit`` or the end of the input; returns 0."""
    for line in lines:
        if not line.strip():
            continue
        if _is_quit(line):
            break
        out.write(json.dumps(reply(line), ensure_ascii=False) + "\n")
        out.flush()
    return 0


def _is_quit(line: str) -> bool:
    try:
        request = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(request, dict) and request.get("cmd") == "quit"
