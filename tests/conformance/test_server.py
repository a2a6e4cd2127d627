"""``fly-rules engine`` (fly_rules.conformance.server): one answer a line whatever the line holds, errors that
name what is wrong, budgets on perft and divide, and the engine subcommand as a process."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from fly_rules.conformance.answers import answer, replay
from fly_rules.conformance.perft import Budget, divide, perft
from fly_rules.conformance.server import ServerLimits, reply, serve
from fly_rules.conformance.vectors import load_cases, load_perft

POSITION = "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1"
FLY3 = {"game": "fly", "rules": {"players": 3}, "position": POSITION}


def served(data: bytes, limits: ServerLimits | None = None) -> list[dict[str, object]]:
    """The answers ``serve`` writes for the request bytes ``data``."""
    out = io.StringIO()
    assert serve(io.BytesIO(data), out, limits) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_line_that_is_not_a_request_gets_an_error_and_the_next_line_is_read() -> None:
    """Bytes that are not UTF-8, JSON 200,000 deep, a 5,000-digit number, NaN, an array, a line over the limit
    and a line of 400,000 bytes without a line end at the end: each one error answer; the requests between them
    are answered."""
    hello = b'{"cmd": "hello"}\n'
    lines = [
        b"\xff\xfe\n",
        b"[" * 200_000 + b"\n",
        b'{"cmd": "perft", "depth": ' + b"9" * 5000 + b"}\n",
        b'{"cmd": NaN}\n',
        b"[1]\n",
        b'{"cmd": "hello", "pad": "' + b"x" * 400_000 + b'"}\n',
    ]
    data = b"".join(line + hello for line in lines) + b"\n\r\n" + b"y" * 400_000
    answers = served(data, ServerLimits(line_bytes=300_000))
    errors = [a["error"] for a in answers[::2]]
    assert errors == [
        "not UTF-8: byte 0xff at offset 0",
        "JSON nested too deeply (200,000 bytes)",
        "a number of more than 100 digits",
        "NaN is not JSON",
        'not a JSON object: "[1]"',
        "a request line longer than 300,000 bytes",
        "a request line longer than 300,000 bytes",
    ]
    assert all(a["engine"] == "fly_rules" for a in answers[1::2])


def test_a_perft_over_its_budget_is_refused_with_a_clear_error() -> None:
    """A count that would visit more positions than the engine's --max-nodes, or the request's own max_nodes,
    or take longer than --max-seconds, is answered with an error naming the budget; one within it is counted."""
    start = next(e for e in load_perft() if e["id"] == "fly-3-start")
    request = {"cmd": "perft", **{k: start[k] for k in ("game", "rules", "position", "moves")}, "depth": 3}
    small = ServerLimits(counts=Budget(nodes=1000))
    assert reply(json.dumps(request), small)["error"] == (
        "perft to depth 3: over the budget of 1,000 positions visited (max_nodes)"
    )
    assert reply(json.dumps({**request, "max_nodes": 40}))["error"].endswith(
        "over the budget of 40 positions visited (max_nodes)"
    )
    assert reply(json.dumps({**request, "cmd": "divide", "max_nodes": 40}))["error"].startswith(
        "divide to depth 3: over"
    )
    assert reply(json.dumps({**request, "depth": 1, "max_nodes": 40})) == {
        "perft": {"nodes": 32, "plays": 0, "declarations": 32, "deal_ends": 0}
    }
    slow = ServerLimits(counts=Budget(seconds=0.01))
    assert (
        reply(json.dumps({**request, "depth": 4}), slow)["error"] == "perft to depth 4: over the budget of 0.01 seconds"
    )
    for bad in (0, -1, True, "5"):
        assert "max_nodes must be a whole number >= 1" in reply(json.dumps({**request, "max_nodes": bad}))["error"]


def test_divide_splits_perft_by_the_first_action() -> None:
    """Each first action's counts add up to perft's, field by field, for a Fly and a Dreyfus position."""
    for entry in [e for e in load_perft() if e["id"] in ("fly-3-start", "fly-4-play", "dreyfus-play")]:
        base = {k: entry[k] for k in ("game", "rules", "position", "moves")}
        total = answer({"cmd": "perft", **base, "depth": 2})["perft"]
        split = answer({"cmd": "divide", **base, "depth": 2})["divide"]
        assert {k: sum(counts[k] for counts in split.values()) for k in total} == total
        assert sorted(split) == sorted(answer({"cmd": "legal", **base})["legal"])


def test_perft_of_a_finished_deal_counts_nothing() -> None:
    """A deal that is over has no legal action: perft and divide of it are zero and empty."""
    case = next(c for c in load_cases() if c["id"] == "fly-deal-played-out")
    replayed = replay(case)
    assert not isinstance(replayed, dict)
    deal = replayed[0]
    assert perft(deal, 3) == {"nodes": 0, "plays": 0, "declarations": 0, "deal_ends": 0}
    assert divide(deal, 2) == {}


def test_the_engine_subcommand_takes_its_budgets() -> None:
    """``python -m fly_rules engine --max-nodes 100`` refuses a bigger perft and answers the next request."""
    request = {"cmd": "perft", **FLY3, "moves": [], "depth": 3}
    done = subprocess.run(
        [sys.executable, "-m", "fly_rules", "engine", "--max-nodes", "100", "--max-seconds", "5"],
        input=json.dumps(request) + "\n" + '{"cmd": "hello"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == {"error": "perft to depth 3: over the budget of 100 positions visited (max_nodes)"}
    assert second["protocol"] == 2


@pytest.mark.parametrize("args", [["--max-nodes", "0"], ["--max-line", "0"]])
def test_the_engine_subcommand_refuses_a_zero_budget(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """A budget of 0 is a usage error, not an engine that refuses everything."""
    from fly_rules.cli import main

    assert main(["engine", *args]) == 1
    assert "must be at least 1" in capsys.readouterr().err


def test_the_server_answers_each_line_and_stops_at_quit() -> None:
    """``serve`` answers one JSON line per request, skips blank lines, and stops at quit."""
    out = io.StringIO()
    requests = [
        {"cmd": "legal", **FLY3, "moves": ["stand"]},
        {"cmd": "dance"},
        {"cmd": "legal", "game": "chess", "rules": {}, "position": POSITION, "moves": []},
        {"cmd": "quit"},
        {"cmd": "hello"},
    ]
    text = "\n\n".join(json.dumps(r) for r in requests) + "\n"
    assert serve(io.BytesIO(text.encode()), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3
    assert answers[0]["legal"][:2] == ["stand", "fold"]
    assert answers[1]["error"].startswith("unknown command 'dance'")
    assert answers[2] == {"error": "unknown game 'chess' (known: fly, dreyfus)"}
    assert serve(io.BytesIO(b'[1]\n{"cmd": "quit"}\n'), io.StringIO()) == 0


def test_the_engine_subcommand_speaks_on_stdin_and_stdout() -> None:
    """``python -m fly_rules engine`` reads requests from its standard input and answers on its output."""
    done = subprocess.run(
        [sys.executable, "-m", "fly_rules", "engine"],
        input='{"cmd": "hello"}\n{"cmd": "apply", "game": "fly", "rules": {"players": 3}, "position": "'
        + POSITION
        + '", "moves": ["stand"]}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    hello, applied = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["protocol"] == 2
    assert applied["state"]["turn"] == 2


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        ({"cmd": "legal", "game": "fly", "rules": [], "position": POSITION}, "rules must be an object"),
        ({"cmd": "legal", "game": "fly", "rules": {"colour": 1}, "position": POSITION}, "not an option"),
        ({"cmd": "legal", **FLY3, "position": 7}, "the position as text"),
        ({"cmd": "legal", **FLY3, "rules": {"players": 4}, "moves": []}, "are not those of the rules"),
        ({"cmd": "legal", **FLY3, "moves": ["dance"]}, "invalid notation 'dance'"),
        ({"cmd": "perft", **FLY3, "moves": [], "depth": 0}, "depth must be"),
        ({"cmd": "deal", "game": "fly", "rules": {"players": 3}, "pack": "ZZ", "dealer": 0}, "invalid notation"),
        ({"cmd": "deal", "game": "dreyfus", "rules": {}, "pack": "3C 4C", "dealer": 0}, None),
        ({"cmd": "shuffle", "game": "fly", "rules": {"players": 3}, "seed": True}, "shuffle takes a seed"),
        ({"cmd": "settle", "game": "dreyfus", "rules": {}, "upper": [1], "lower": [0, 0, 0]}, "settle takes"),
        ({"cmd": "purchase", "game": "dreyfus", "rules": {}, "bought": 13}, "purchase takes"),
        ({"cmd": "history", "game": "fly", "rules": {}, "text": 5}, "the history's TOML text"),
        ([1], "not a JSON object"),
    ],
)
def test_a_request_the_protocol_cannot_answer_gets_an_error(request_: object, error: str | None) -> None:
    """Malformed requests get an ``error`` naming what is wrong (never a traceback)."""
    got = reply(json.dumps(request_))
    if error is None:
        assert got == {"refused": {"rule": "DRF-1.2", "at": -1}}
    else:
        assert error in got["error"]


def test_a_missing_extra_is_an_error_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without tomli-w (the cli extra) a history request is answered with an error naming the extra."""
    monkeypatch.setitem(sys.modules, "tomli_w", None)
    case = next(c for c in load_cases() if c["id"] == "rec-history-replays")
    got = reply(json.dumps({"cmd": "history", "game": "fly", "rules": case["rules"], "text": case["text"]}))
    assert got["error"].endswith("install fly_rules[cli]")


def test_refusals_of_a_deal_and_of_rules() -> None:
    """A dealer off the table, a Dreyfus deal number below zero, rules a rule refuses, and a history from a seed."""
    pack = " ".join(str(c) for c in __import__("fly_rules").fly.FlyRules(players=3).deck)
    assert answer({"cmd": "deal", "game": "fly", "rules": {"players": 3}, "pack": pack, "dealer": 5}) == {
        "refused": {"rule": "FLY-1.2", "at": -1}
    }
    assert answer({"cmd": "legal", **FLY3, "rules": {"players": 9}, "moves": []}) == {
        "refused": {"rule": "FLY-1.1", "at": -1}
    }
    dreyfus_pack = next(c for c in load_cases() if c["id"] == "drf-deal-packets")["pack"]
    assert "error" in reply(
        json.dumps(
            {"cmd": "deal", "game": "dreyfus", "rules": {}, "pack": dreyfus_pack, "dealer": 0, "deal_number": -1}
        )
    )
    seeded = '[game]\nformat = "fly_rules history"\n'
    assert "refused" in answer({"cmd": "history", "game": "fly", "rules": {"players": 3}, "text": seeded})
