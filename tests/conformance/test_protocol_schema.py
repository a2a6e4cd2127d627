"""specs/conformance/protocol.schema.json: every request the runner sends and every answer of this engine follows it,
and it refuses what the protocol does not allow."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from fly_rules.conformance.answers import answer
from fly_rules.conformance.vectors import kit_dir, load_cases, load_perft, requests_of

SCHEMA = json.loads((kit_dir() / "protocol.schema.json").read_text(encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(SCHEMA)
REQUEST = jsonschema.Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": "#/$defs/request"}]})
ANSWER = jsonschema.Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": "#/$defs/answer"}]})


def requests() -> list[dict[str, Any]]:
    """Every request of a run: hello and quit, each case's, and the perft and divide of every published position."""
    sent: list[dict[str, Any]] = [{"cmd": "hello"}, {"cmd": "quit"}]
    for case in load_cases():
        sent += requests_of(case)
    for entry in load_perft():
        base = {key: entry[key] for key in ("game", "rules", "position", "moves")}
        sent += [{"cmd": "perft", **base, "depth": 1, "max_nodes": 1000}, {"cmd": "divide", **base, "depth": 1}]
    return sent


def test_every_request_and_answer_follows_the_protocol_schema() -> None:
    """Each request validates as a request, and this engine's answer to it (but quit's) as an answer."""
    for request in requests():
        REQUEST.validate(request)
        if request["cmd"] != "quit":
            ANSWER.validate(answer(request))


@pytest.mark.parametrize(
    ("message", "validator"),
    [
        ({"cmd": "legal", "position": "fly - 0 …", "moves": []}, REQUEST),
        ({"cmd": "perft", "game": "fly", "rules": {}, "position": "p", "moves": [], "depth": 0}, REQUEST),
        ({"cmd": "legal", "game": "fly", "rules": {}, "position": "p", "moves": ["jump"]}, REQUEST),
        ({"cmd": "dance"}, REQUEST),
        ({"legal": "stand"}, ANSWER),
        ({"perft": {"nodes": 1}}, ANSWER),
        ({"refused": {"rule": "FLY-4", "at": 0}}, ANSWER),
        ({"engine": "e", "protocol": 3}, ANSWER),
        ({}, ANSWER),
    ],
)
def test_the_schema_refuses_what_the_protocol_does_not_allow(message: dict[str, Any], validator: Any) -> None:
    """A request without its game, a depth of 0, an action that is no action text, an unknown command; a legal list
    that is not a list, counts without their fields, a refusal naming no rule, an unknown protocol, nothing."""
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(message)
