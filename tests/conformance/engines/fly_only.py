"""A deliberately partial engine: Fly only, the kinds ``play`` and ``deal``, ``perft`` but not ``divide``, and
every Fly option but ``turnup_use``, ``stock_exhaustion`` and the presets, as its hello declares. It answers
what it declares as ``fly-rules engine`` does and everything else with an error, so that a run of the kit
against it is green only if the runner skips what the hello leaves out."""

from __future__ import annotations

import json
import sys

import attrs

from fly_rules import fly
from fly_rules.conformance.server import reply

LEFT_OUT = {"turnup_use", "stock_exhaustion"}
OPTIONS = [f.name for f in attrs.fields(fly.FlyRules) if f.init and not f.name.startswith("_")]
HELLO = {
    "engine": "fly-only",
    "version": "1",
    "protocol": 2,
    "games": ["fly"],
    "kinds": ["play", "deal"],
    "commands": ["perft"],
    "options": {"fly": [name for name in OPTIONS if name not in LEFT_OUT]},
}


def answer(line: bytes) -> dict[str, object]:
    """The answer to one request: ours for what the hello declares, else an error."""
    request = json.loads(line)
    if request.get("cmd") == "hello":
        return HELLO
    rules = request.get("rules", {})
    if request.get("game") != "fly" or request.get("cmd") not in ("legal", "apply", "deal", "perft"):
        return {"error": "this engine plays Fly only: legal, apply, deal and perft"}
    if set(rules) & (LEFT_OUT | {"preset"}):
        return {"error": f"options not implemented: {sorted(set(rules) & (LEFT_OUT | {'preset'}))}"}
    return reply(line)


def main() -> None:
    """Answer each request line until quit."""
    for line in sys.stdin.buffer:
        if json.loads(line).get("cmd") == "quit":
            return
        sys.stdout.write(json.dumps(answer(line)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
