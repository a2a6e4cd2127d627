"""The conformance vectors (``specs/conformance/vectors.jsonl``): loading them, asking an engine for
each case's outcome, and comparing it with the expected one.

A case's outcome is built from the answers of the line protocol (:mod:`.answers`): for a ``play``
case the ``legal`` answer (the legal actions) merged with the ``apply`` answer (the state), or the
refusal either gives; for a ``deal`` or ``purchase`` case the one answer.

>>> from fly_rules.conformance.answers import answer
>>> case = next(c for c in load_cases() if c["kind"] == "play")
>>> differences(case["expected"], outcome(case, answer))
[]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from fly_rules.conformance.answers import sort_actions
from fly_rules.conformance.wire import echo, words
from fly_rules.errors import InvalidNotation, shorten
from fly_rules.spec import find_spec_dir

__all__ = [
    "DIGESTS",
    "PERFT",
    "VECTORS",
    "Ask",
    "differences",
    "digest",
    "kit_dir",
    "load_cases",
    "load_digests",
    "load_perft",
    "outcome",
    "refusal_text",
    "requests_of",
]

VECTORS: Final = "vectors.jsonl"
"""The cases, one JSON object a line."""
PERFT: Final = "perft.json"
"""The perft tables."""
DIGESTS: Final = "digests.json"
"""Each case's expected-outcome digest, by game and rules version (the versioning check)."""
_CASE_FIELDS: Final = {
    "play": ("position", "moves"),
    "deal": ("pack", "dealer", "deal_number"),
    "purchase": ("bought", "recorded_before_lead"),
    "history": ("text",),
    "shuffle": ("seed", "deal_number"),
    "settle": ("upper", "lower", "winner"),
}

Ask = Callable[[dict[str, Any]], dict[str, Any]]
"""An engine: one request in, its answer out (an ``{"error": ...}`` answer for one it cannot answer)."""


def kit_dir() -> Path:
    """The conformance kit's folder: ``specs/conformance``, shipped in the wheel as ``fly_rules/_specs/conformance``."""
    return find_spec_dir() / "conformance"


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    """Every case of the vectors file, in file order."""
    path = kit_dir() / VECTORS if path is None else path
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def load_perft(path: Path | None = None) -> list[dict[str, Any]]:
    """The perft tables: one entry a position, with its counts by depth."""
    path = kit_dir() / PERFT if path is None else path
    tables: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["positions"]
    return tables


def load_digests(path: Path | None = None) -> dict[str, dict[str, dict[str, str]]]:
    """The stored digests: game → rules version (as text) → case id → digest of the expected outcome."""
    path = kit_dir() / DIGESTS if path is None else path
    digests: dict[str, dict[str, dict[str, str]]] = json.loads(path.read_text(encoding="utf-8"))
    return digests


def digest(expected: Mapping[str, Any]) -> str:
    """A short digest of an expected outcome, independent of key order and spacing."""
    text = json.dumps(expected, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def requests_of(case: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The protocol requests that give a case's outcome."""
    base = {"game": case["game"], "rules": case["rules"]}
    base |= {name: case[name] for name in _CASE_FIELDS[case["kind"]] if name in case}
    if case["kind"] == "play":
        return [{"cmd": "legal", **base}, {"cmd": "apply", **base}]
    return [{"cmd": case["kind"], **base}]


def outcome(case: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
    """A case's outcome as the engine ``ask`` gives it (an ``{"error": ...}`` if it answers one with an error)."""
    answers = [ask(request) for request in requests_of(case)]
    for got in answers:
        if "error" in got or "refused" in got:
            return got
    if case["kind"] == "history":
        got = answers[0]
        if not isinstance(got.get("state"), dict):
            return {"error": f"the engine answered {got!r}"}
        return {**got["state"], "canonical": got.get("canonical")}
    if case["kind"] != "play":
        return answers[0]
    legal, applied = answers
    state = applied.get("state")
    if "legal" not in legal or not isinstance(state, dict):
        return {"error": f"the engine answered {legal!r} and {applied!r}"}
    return {"legal": legal["legal"], **state}


def _legal_difference(expected: list[str], got: object) -> str | None:
    if not isinstance(got, list) or not all(isinstance(text, str) for text in got):
        return f"legal: expected a list of action texts, got {echo(got)}"
    try:
        listed = sort_actions(got)
    except InvalidNotation as error:
        return f"legal: {error}"
    if listed == expected:
        return None
    missing = [t for t in expected if t not in listed]
    extra = [t for t in listed if t not in expected]
    repeated = sorted({t for t in listed if listed.count(t) > 1})
    parts = [f"missing {echo(missing, 300)}" if missing else "", f"extra {echo(extra, 300)}" if extra else ""]
    parts.append(f"listed twice {echo(repeated, 300)}" if repeated else "")
    return "legal: " + "; ".join(p for p in parts if p)


def refusal_text(refused: object, moves: Sequence[object] | None = None) -> str:
    """A refusal in words: ``FLY-6.3 at move 4 (play 7D)``, ``DRF-1.2 of the input itself``, ``REC-1.4 at
    deal[0].colour``; anything else shown as it is."""
    if not isinstance(refused, Mapping) or not isinstance(refused.get("rule"), str):
        return f"a malformed refusal {echo(refused)}"
    rule, at, field = refused["rule"], refused.get("at"), refused.get("field")
    if isinstance(field, str) and field:
        return f"{shorten(rule)} at {echo(field, 80)}"
    if at == -1:
        return f"{shorten(rule)} of the input itself"
    if type(at) is int and moves is not None and 0 <= at < len(moves):
        return f"{shorten(rule)} at move {at} ({moves[at]})"
    return f"{shorten(rule)} at {echo(at, 40)}"


def differences(
    expected: Mapping[str, Any], got: Mapping[str, Any], moves: Sequence[object] | None = None
) -> list[str]:
    """One line per field in which ``got`` differs from ``expected`` (empty when they agree); a refusal
    where none was due, none where one was, or another refusal, is one line, first. ``moves`` (a play case's)
    name the move a refusal is at. Nothing of ``got`` is shown longer than :func:`~.wire.echo` allows."""
    if "error" in got:
        return [f"error: {words(got['error'], 300)}"]
    want_refused, got_refused = expected.get("refused"), got.get("refused")
    if want_refused is not None or got_refused is not None:
        if want_refused == got_refused and set(got) == set(expected):
            return []
        if want_refused is None:
            return [f"refused {refusal_text(got_refused, moves)}, expected no refusal"]
        if got_refused is None:
            return [f"expected the refusal {refusal_text(want_refused, moves)}, got no refusal"]
        return [f"refused {refusal_text(got_refused, moves)}, expected {refusal_text(want_refused, moves)}"]
    lines = []
    for key in sorted(set(expected) | set(got)):
        want, have = expected.get(key), got.get(key)
        if key not in got:
            lines.append(f"{key}: expected {echo(want, 300)}, missing")
        elif key not in expected:
            lines.append(f"{shorten(key)}: not expected, got {echo(have)}")
        elif key == "legal":
            line = _legal_difference(list(want or ()), have)
            lines += [line] if line else []
        elif want != have:
            lines.append(f"{key}: expected {echo(want, 300)}, got {echo(have, 300)}")
    return lines
