"""``fly-rules engine`` and ``fly-rules conform``: the line protocol, our engine passing the whole kit through
it as a subprocess, and a deliberately wrong engine caught case by case."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fly_rules.cli import main
from fly_rules.conformance.answers import answer
from fly_rules.conformance.runner import Engine, EngineError, conform, walk_perft
from fly_rules.conformance.server import reply, serve
from fly_rules.conformance.vectors import load_cases, load_perft

ENGINE = f"{sys.executable} -m fly_rules engine"
POSITION = "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1"
FLY3 = {"game": "fly", "rules": {"players": 3}, "position": POSITION}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m fly_rules`` with ``args``, as a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "fly_rules", *args], capture_output=True, text=True, timeout=600, check=False
    )


def wrapper(tmp_path: Path, body: str) -> str:
    """The command of an engine that answers as ours does, changed by ``body`` (a function ``change(request,
    got)`` returning the answer to send)."""
    script = tmp_path / "engine.py"
    loop = (
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request.get('cmd') == 'quit':\n"
        "        break\n"
        "    print(json.dumps(change(request, reply(line))), flush=True)\n"
    )
    header = "import json, sys\nfrom fly_rules.conformance.server import reply\n"
    script.write_text(header + textwrap.dedent(body) + "\n" + loop)
    return f"{sys.executable} {script}"


def test_our_engine_passes_the_kit_through_the_line_protocol() -> None:
    """``fly-rules conform --engine "fly-rules engine"`` (both as ``python -m fly_rules``) passes every case
    and the perft depths it checks."""
    done = run_cli("conform", "--engine", ENGINE, "--perft-nodes", "20000")
    assert done.returncode == 0, done.stdout + done.stderr
    cases = len(load_cases())
    assert f"vectors: {cases} passed, 0 failed" in done.stdout
    assert "perft: " in done.stdout
    assert ", 0 failed" in done.stdout.splitlines()[-1]
    assert "FAIL" not in done.stdout


def test_an_engine_that_drops_a_legal_action_fails_with_the_case_rules_and_difference(tmp_path: Path) -> None:
    """A wrapper that drops the last legal action of every list of two or more: each failing case prints its id,
    its rules and the difference, one line each, and the command exits with 1."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if len(got.get("legal", ())) > 1:
                got["legal"] = got["legal"][:-1]
            return got
        """,
    )
    out = io.StringIO()
    assert conform(command, out, kinds=["play"], perft_nodes=0) == 1
    lines = out.getvalue().splitlines()
    first = lines.index("FAIL fly-start-declarations")
    assert lines[first + 1] == '  rules: {"players": 3}'
    assert lines[first + 2] == "  legal: missing ['exchange 7C 8C 9C TC AH']"
    assert lines[first + 3].startswith("FAIL ")
    refused = [case["id"] for case in load_cases() if case["kind"] == "play" and "refused" in case["expected"]]
    assert f"FAIL {refused[0]}" not in lines  # a refusal lists no actions to drop
    assert lines[-2].startswith("vectors: ")
    assert not lines[-2].endswith(" 0 failed")


def test_an_engine_without_perft_is_counted_through_legal_and_apply(tmp_path: Path) -> None:
    """An engine that answers ``perft`` with an error has its shallow depths walked through ``legal`` and
    ``apply``; deeper ones are skipped and said so."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            return {"error": "no perft here"} if request["cmd"] == "perft" else got
        """,
    )
    out = io.StringIO()
    assert conform(command, out, kinds=["purchase"], perft_nodes=2000, walk_nodes=100) == 0
    text = out.getvalue()
    assert "perft: " in text
    assert "skipped (no perft command; see --walk-nodes)" in text


def test_walking_perft_agrees_with_the_engines_own_count() -> None:
    """The runner's count from ``legal`` and ``apply`` answers equals the engine's perft, split by kind."""
    entry = next(e for e in load_perft() if e["id"] == "fly-3-start")
    base = {k: entry[k] for k in ("game", "rules", "position", "moves")}
    assert walk_perft(answer, base, 2) == answer({"cmd": "perft", **base, "depth": 2})["perft"]
    play = next(e for e in load_perft() if e["id"] == "dreyfus-play")
    base = {k: play[k] for k in ("game", "rules", "position", "moves")}
    assert walk_perft(answer, base, 3) == {k: v for k, v in play["depths"][2].items() if k != "depth"}
    assert "error" in walk_perft(lambda request: {"error": "no"}, base, 1)
    assert "error" in walk_perft(lambda r: answer(r) if r["cmd"] == "legal" else {"nothing": 1}, base, 1)


def test_a_wrong_perft_count_is_a_failure(tmp_path: Path) -> None:
    """An engine whose perft count is off by one fails that depth, naming the position, depth and counts."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "perft":
                got["perft"]["nodes"] += 1
            return got
        """,
    )
    out = io.StringIO()
    assert conform(command, out, kinds=["purchase"], perft_nodes=40) == 1
    text = out.getvalue()
    assert "FAIL perft fly-3-start depth 1\n" in text
    assert '  expected {"nodes": 32, ' in text


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("", "give the engine's command"),
        ("'unclosed", "cannot read the engine command"),
        ("/nonexistent/engine", "cannot start the engine"),
        (f"{sys.executable} -c pass", "stopped"),
        (f"{sys.executable} -c \"print('hello')\"", "not JSON"),
        (f"{sys.executable} -c print(1)", "not a JSON object"),
    ],
)
def test_a_broken_engine_is_a_clear_error(command: str, message: str) -> None:
    """An engine that cannot be started, stops, or answers something else than a JSON object is an EngineError."""
    with pytest.raises(EngineError, match=message):
        conform(command, io.StringIO())


def test_the_command_reports_a_broken_engine_and_bad_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    """``fly-rules conform`` exits with 1 and one line for an engine that stops or an unknown kind of case."""
    assert main(["conform", "--engine", f"{sys.executable} -c pass"]) == 1
    assert "stopped" in capsys.readouterr().err
    assert main(["conform", "--engine", ENGINE, "--kinds", "play,dance"]) == 1
    assert "--kinds: dance; the kinds are play, deal" in capsys.readouterr().err


def test_an_engine_that_ignores_quit_is_stopped(tmp_path: Path) -> None:
    """Closing an engine that does not stop when asked kills it after a while."""
    script = tmp_path / "deaf.py"
    script.write_text("import sys, time\nprint('{}', flush=True)\nsys.stdin.close()\ntime.sleep(60)\n")
    engine = Engine(f"{sys.executable} {script}")
    assert engine.ask({"cmd": "hello"}) == {}
    engine._process.wait = _wait_once(engine._process.wait)  # type: ignore[assignment,method-assign]
    engine.close()
    assert engine._process.returncode is not None


def _wait_once(wait: object) -> object:
    calls = []

    def waiting(timeout: float | None = None) -> int:
        calls.append(timeout)
        if len(calls) == 1:
            raise subprocess.TimeoutExpired("engine", timeout or 0)
        return wait()  # type: ignore[operator,no-any-return]

    return waiting


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
    assert serve(io.StringIO(text), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3
    assert answers[0]["legal"][:2] == ["stand", "fold"]
    assert answers[1]["error"].startswith("unknown command 'dance'")
    assert answers[2] == {"error": "unknown game 'chess' (known: fly, dreyfus)"}
    assert serve(io.StringIO('[1]\n{"cmd": "quit"}\n'), io.StringIO()) == 0


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
    assert hello["protocol"] == 1
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
        ([1], "a request is a JSON object"),
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
