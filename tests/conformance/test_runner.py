"""``fly-rules conform``: our engine passing the whole kit through the line protocol as a subprocess, wrong
engines caught case by case with output one can act on, capabilities and filters, known failures, reports and
exit codes."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

from fly_rules.cli import main
from fly_rules.conformance.answers import answer
from fly_rules.conformance.capabilities import Capabilities
from fly_rules.conformance.depths import walk_perft
from fly_rules.conformance.runner import Result, Settings, _Progress, conform, context_of
from fly_rules.conformance.vectors import load_cases, load_perft

ENGINE = f"{sys.executable} -m fly_rules engine"
FLY_ONLY = f"{sys.executable} {Path(__file__).parent / 'engines' / 'fly_only.py'}"
CASES = load_cases()
WALKED = "^(drf-purchase-recorded|perft:fly-3-play|perft:dreyfus-start)$"
"""A case and two perft positions: one shallow enough to walk, one not."""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m fly_rules`` with ``args``, as a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "fly_rules", *args], capture_output=True, text=True, timeout=600, check=False
    )


def wrapper(tmp_path: Path, body: str, hello: str = "") -> str:
    """The command of an engine that answers as ours does, changed by ``body`` (a function ``change(request,
    got)`` returning the answer to send); ``hello``, a Python expression, replaces its hello."""
    script = tmp_path / "engine.py"
    loop = (
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request.get('cmd') == 'quit':\n"
        "        break\n"
        f"    got = ({hello or 'None'}) if request.get('cmd') == 'hello' else None\n"
        "    print(json.dumps(got or change(request, reply(line))), flush=True)\n"
    )
    header = "import json, sys\nfrom fly_rules.conformance.server import reply\n"
    script.write_text(header + textwrap.dedent(body) + "\n" + loop)
    return f"{sys.executable} {script}"


def kit(command: str, **settings: object) -> tuple[int, list[str]]:
    """The runner in this process: its exit code and printed lines."""
    out = io.StringIO()
    run = conform(command, out, Settings(**settings))  # type: ignore[arg-type]
    return run.exit_code, out.getvalue().splitlines()


def test_our_engine_passes_the_kit_through_the_line_protocol() -> None:
    """``fly-rules conform --engine "fly-rules engine"`` (both as ``python -m fly_rules``) passes every case
    and the perft depths it checks, shows progress on standard error and exits with 0."""
    done = run_cli("conform", "--engine", ENGINE, "--perft-nodes", "20000")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"vectors: {len(CASES)} passed, 0 failed" in done.stdout
    assert f"perft positions: {len(load_perft())} passed, 0 failed" in done.stdout
    assert done.stdout.splitlines()[-1] == "result: conformant (exit code 0)"
    assert "FAIL" not in done.stdout
    assert f"[25/{len(CASES) + len(load_perft())}] vectors " in done.stderr


def test_a_failure_shows_the_case_its_rules_why_position_moves_and_difference(tmp_path: Path) -> None:
    """A wrapper that drops the last legal action of every list of two or more: each failing case prints its id
    and rule IDs, why, options, position and moves, then the difference; the exit code is 1."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if len(got.get("legal", ())) > 1:
                got["legal"] = got["legal"][:-1]
            return got
        """,
    )
    code, lines = kit(command, kinds=("play",), perft_nodes=0)
    assert code == 1
    case = next(c for c in CASES if c["id"] == "fly-start-declarations")
    first = lines.index(f"FAIL fly-start-declarations [{' '.join(case['covers'])}]")
    assert lines[first + 1 : first + 6] == [
        f"  why: {case['why']}",
        '  options: {"players": 3}',
        f"  position: {case['position']}",
        "  moves: none",
        '  legal: missing ["exchange 7C 8C 9C TC AH"]',
    ]
    refused = [c["id"] for c in CASES if c["kind"] == "play" and "refused" in c["expected"]]
    assert not any(line.startswith(f"FAIL {refused[0]} ") for line in lines)  # a refusal lists no actions to drop
    assert lines[-1] == "result: not conformant (exit code 1)"


def test_a_wrong_refusal_is_one_line_first(tmp_path: Path) -> None:
    """An engine that refuses every move under FLY-4.1: the failure of a case expecting a state is one line
    naming the refusal; of a case expecting another refusal, one line naming both."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request.get("moves"):
                return {"refused": {"rule": "FLY-4.1", "at": 0}}
            return got
        """,
    )
    _, lines = kit(command, ids="^fly-(follow-suit|ace-of-spades-fold-refused)$", perft_nodes=0)
    follow = lines.index("FAIL fly-follow-suit [FLY-6.2 FLY-6.3]")
    assert lines[follow + 5] == "  refused FLY-4.1 at move 0 (stand), expected no refusal"
    assert not lines[follow + 6].startswith("  ")  # nothing more: the refusal says it all
    fold = next(i for i, line in enumerate(lines) if line.startswith("FAIL fly-ace-of-spades-fold-refused "))
    assert lines[fold + 5] == "  refused FLY-4.1 at move 0 (stand), expected FLY-5.2 at move 1 (fold)"


def test_an_engine_without_perft_is_counted_through_legal_and_apply(tmp_path: Path) -> None:
    """An engine whose hello names no perft command has its shallow depths walked through ``legal`` and
    ``apply``; a position with no depth that shallow is skipped and said so."""
    command = wrapper(
        tmp_path,
        "def change(request, got):\n    return got\n",
        hello='{"engine": "walker", "protocol": 2, "commands": []}',
    )
    code, lines = kit(command, kinds=("purchase",), ids=WALKED, perft_nodes=2000, walk_nodes=100)
    assert code == 0
    assert any(line.startswith("perft positions: 1 passed, 0 failed, 1 skipped") for line in lines)
    assert any("no depth within --perft-nodes" in line for line in lines)


def test_a_protocol_1_engine_without_perft_is_walked(tmp_path: Path) -> None:
    """Protocol 1 declares nothing: the runner asks for perft once and, answered with an error, walks."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            return {"error": "no perft here"} if request["cmd"] == "perft" else got
        """,
        hello='{"engine": "old", "protocol": 1}',
    )
    code, lines = kit(command, kinds=("purchase",), ids=WALKED, perft_nodes=2000, walk_nodes=100)
    assert code == 0
    assert any(line.startswith("engine: old (protocol 1)") for line in lines)
    assert any(line.startswith("perft positions: 1 passed, 0 failed, 1 skipped") for line in lines)


def test_walking_perft_agrees_with_the_engines_own_count() -> None:
    """The runner's count from ``legal`` and ``apply`` answers equals the engine's perft, split by kind; past its
    budget it stops."""
    entry = next(e for e in load_perft() if e["id"] == "fly-3-start")
    base = {k: entry[k] for k in ("game", "rules", "position", "moves")}
    assert walk_perft(answer, base, 2) == answer({"cmd": "perft", **base, "depth": 2})["perft"]
    play = next(e for e in load_perft() if e["id"] == "dreyfus-play")
    base = {k: play[k] for k in ("game", "rules", "position", "moves")}
    assert walk_perft(answer, base, 3) == {k: v for k, v in play["depths"][2].items() if k != "depth"}
    assert "error" in walk_perft(lambda request: {"error": "no"}, base, 1)
    assert "error" in walk_perft(lambda r: answer(r) if r["cmd"] == "legal" else {"nothing": 1}, base, 1)
    assert walk_perft(answer, base, 3, budget=10) == {
        "error": "more than 10 positions, the most the published count needs"
    }


def test_a_wrong_perft_count_is_traced_down_to_the_position(tmp_path: Path) -> None:
    """An engine that drops the last legal action once two cards lie on the table (and counts through legal and
    apply): the first depth that differs is printed, then divide follows the first action whose count differs
    down to the position whose actions differ; the position stops at that depth."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "legal" and len(request["moves"]) == 5 and len(got.get("legal", ())) > 1:
                got["legal"] = got["legal"][:-1]
            return got
        """,
        hello='{"engine": "dropper", "protocol": 2, "commands": []}',
    )
    code, lines = kit(command, kinds=("purchase",), ids="^(drf-purchase-recorded|perft:fly-3-play)$", walk_nodes=100)
    assert code == 1
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL perft:fly-3-play ["))
    detail = lines[at + 2 :]  # after the why
    assert detail[3] == "  depth 3: nodes expected 13, got 7; plays expected 13, got 7"
    assert detail[4].startswith("  divide 3: play ")
    assert detail[5].startswith("  divide 2 after play ")
    assert "the legal actions differ: missing" in detail[6]
    assert not any(line.startswith("  depth 4") for line in detail)


def test_capabilities_are_read_from_hello() -> None:
    """Protocol 2's hello lists games, kinds, commands and options (names, or names to values); protocol 1
    claims everything; another protocol or a malformed list is refused."""
    caps = Capabilities.of(
        {"engine": "e", "protocol": 2, "games": ["fly"], "kinds": ["play"], "options": {"fly": {"ace_rank": ["high"]}}}
    )
    assert caps.missing("dreyfus", "play", {}) == "game dreyfus: not in the engine's games"
    assert caps.missing("fly", "deal", {}) == "kind deal: not in the engine's kinds"
    assert caps.missing("fly", "play", {"players": 4, "ace_rank": "high"}) is None
    assert caps.missing("fly", "play", {"ace_rank": "below_jack"}) == (
        'option ace_rank="below_jack": not among the engine\'s values'
    )
    assert caps.missing("fly", "play", {"flush_wins": True}) == "option flush_wins: not in the engine's options"
    assert caps.commands == {"perft", "divide"}  # a list left out claims everything
    assert Capabilities.of({"protocol": 1}).commands == {"perft"}
    hellos: list[tuple[dict[str, object], str]] = [
        ({"protocol": 9}, "speaks protocol 9"),
        ({}, "speaks protocol null"),
        ({"protocol": 2, "games": "fly"}, "games must be a list"),
        ({"protocol": 2, "options": []}, "options must be an object"),
        ({"protocol": 2, "options": {"fly": 3}}, 'options of "fly" must be names'),
    ]
    for hello, error in hellos:
        with pytest.raises(ValueError, match=error):
            Capabilities.of(hello)


@pytest.mark.parametrize("games", [("fly",), ("fly", "dreyfus")])
def test_a_fly_only_engine_runs_green_with_dreyfus_skipped(games: tuple[str, ...]) -> None:
    """The test suite's deliberately partial engine (tests/conformance/engines/fly_only.py: Fly only, play and
    deal, no presets, two options left out) passes, with or without --game fly: everything it does not declare
    is skipped, with its reason, never failed."""
    code, lines = kit(FLY_ONLY, games=games, perft_nodes=5000)
    assert code == 0, "\n".join(lines)
    dreyfus = sum(c["game"] == "dreyfus" for c in CASES)
    reason = "game dreyfus: not selected (--game)" if games == ("fly",) else "game dreyfus: not in the engine's games"
    assert f"  {dreyfus} {reason}" in lines
    assert any(line.endswith("option stock_exhaustion: not in the engine's options") for line in lines)
    assert any(line.endswith("kind history: not in the engine's kinds") for line in lines)
    assert not any(line.startswith(("FAIL", "FAULT")) for line in lines)


def test_known_failures_are_expected_and_a_fixed_one_is_said(tmp_path: Path) -> None:
    """A failure the known-failures file lists is KNOWN and does not fail the run; a listed case that passes is
    FIXED; the exit code is 0."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "purchase" and request["recorded_before_lead"]:
                got["upper"] += 1
            return got
        """,
    )
    known = tmp_path / "known.txt"
    known.write_text("# ours\ndrf-purchase-recorded\ndrf-purchase-forgotten  # fixed since\n\n")
    out = io.StringIO()
    args = ["conform", "--engine", command, "--kinds", "purchase", "--perft-nodes", "0", "--quiet"]
    assert main([*args, "--known-failures", str(known)], out) == 0
    text = out.getvalue()
    assert "KNOWN drf-purchase-recorded [DRF-4.5]\n" in text
    assert "FIXED drf-purchase-forgotten [DRF-10.2]: passes, but is listed as a known failure" in text
    assert "vectors: 1 passed, 0 failed, 1 known failures, 1 known failures now passing" in text


def test_json_and_junit_reports(tmp_path: Path) -> None:
    """--report json and --report junit write every result, the JSON with the hello and the summary, the JUnit
    XML with one suite per group and a failure element per failing case."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "purchase":
                got["upper"] += 1
            return got
        """,
    )
    json_file, xml_file = tmp_path / "report.json", tmp_path / "report.xml"
    args = ["conform", "--engine", command, "--kinds", "purchase,settle", "--perft-nodes", "40", "--quiet"]
    assert main([*args, "--report", "json", str(json_file), "--report", "junit", str(xml_file)], io.StringIO()) == 1
    report = json.loads(json_file.read_text())
    assert report["exit_code"] == 1
    assert report["hello"]["engine"] == "fly_rules"
    settles = sum(c["kind"] == "settle" for c in CASES)
    purchases = sum(c["kind"] == "purchase" for c in CASES)
    skipped = len(CASES) - settles - purchases
    assert report["summary"]["vectors"] == {"failed": purchases, "passed": settles, "skipped": skipped}
    failed = next(r for r in report["results"] if r["id"] == "drf-purchase-forgotten")
    assert failed["details"] == ["upper: expected 5, got 6"]
    assert failed["context"]["bought"] == "2"
    suites = ET.parse(xml_file).getroot()
    vectors = suites.find("testsuite[@name='vectors']")
    assert vectors is not None
    assert vectors.get("failures") == str(purchases)
    failure = vectors.find("testcase[@name='drf-purchase-forgotten']/failure")
    assert failure is not None
    assert failure.get("message") == "upper: expected 5, got 6"
    assert suites.find("testsuite[@name='perft']/testcase[@name='perft:fly-3-start']") is not None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kinds", "play,dance"], "--kinds: dance; the kinds are play, deal"),
        (["--game", "chess"], "--games: chess; the games are fly, dreyfus"),
        (["--id", "("], "--id '(' is not a regular expression"),
        (["--rule", "FLY-99"], "--rule FLY-99: the specification has no such rule or section"),
        (["--rule", "seven"], "--rule 'seven' is not a rule ID"),
        (["--report", "html", "x.html"], "--report 'html': the formats are json, junit"),
        (["--known-failures", "/nonexistent/known.txt"], "--known-failures: cannot read"),
        (["--id", "no-such-case", "--perft-nodes", "0"], "no case or perft position matches the filters"),
        (["--engine", "'unclosed"], "cannot read the engine command"),
        (["--engine", ""], "give the engine's command"),
    ],
)
def test_a_command_line_it_cannot_use_exits_with_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Bad filters, formats or files are one line on standard error and exit code 2."""
    assert main(["conform", "--engine", ENGINE, "--quiet", *args]) == 2
    assert message in capsys.readouterr().err


def test_filters_by_rule_and_id(capsys: pytest.CaptureFixture[str]) -> None:
    """--rule FLY-7 runs the cases covering a FLY-7 rule; --id selects by regular expression; the rest is counted
    as not selected."""
    assert main(["conform", "--engine", ENGINE, "--quiet", "--rule", "FLY-7", "--perft-nodes", "0"]) == 0
    out = capsys.readouterr().out
    wanted = sum(any(r.startswith("FLY-7.") for r in c["covers"]) for c in CASES)
    assert f"vectors: {wanted} passed, 0 failed" in out
    assert f"{len(CASES) - wanted} cases and perft positions not selected (--id, --rule)" in out


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("/nonexistent/engine", "cannot start the engine"),
        # gone before its hello is written, or after: either is said, with the exit code
        (f"{sys.executable} -c pass", r"the engine stopped (reading its input )?\(exit code 0\)"),
        (f"{sys.executable} -c \"print('hello')\"", "the answer is not JSON"),
        (f"{sys.executable} -c print(1)", "the answer is not a JSON object"),
    ],
)
def test_an_engine_that_cannot_say_hello_is_an_engine_failure(command: str, message: str) -> None:
    """An engine that cannot be started, stops, or answers its hello with something other than a JSON object:
    nothing is run, the problem is one line, and the exit code is 3."""
    code, lines = kit(command, kinds=("purchase",))
    assert code == 3
    assert any(re.match(f"problem: the engine gave no hello: .*{message}", line) for line in lines)
    assert lines[-1] == "result: the engine or the run failed (exit code 3)"


def test_without_divide_the_runner_divides_through_perft(tmp_path: Path) -> None:
    """An engine with perft but no divide, whose count is one too many at the position itself only: the runner
    divides through its perft of each first action, finds them all agreeing, and says so."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "perft" and len(request["moves"]) == 3:
                got["perft"]["nodes"] += 1
            return got
        """,
        hello='{"engine": "counter", "protocol": 2, "commands": ["perft"]}',
    )
    code, lines = kit(command, kinds=("purchase",), ids="^perft:fly-3-play$")
    assert code == 1
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL perft:fly-3-play ["))
    assert lines[at + 5] == "  depth 1: nodes expected 5, got 6"
    assert lines[at + 6] == "  divide 1: every first action's count agrees"


def test_a_malformed_divide_answer_is_said(tmp_path: Path) -> None:
    """An engine whose divide answers something else than counts by action: the trace says what it answered."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "perft" and len(request["moves"]) == 3:
                got["perft"]["nodes"] += 1
            if request["cmd"] == "divide":
                return {"divide": "nope"}
            return got
        """,
    )
    code, lines = kit(command, kinds=("purchase",), ids="^perft:fly-3-play$")
    assert code == 1
    assert '  divide 1: the engine answered {"divide": "nope"}' in lines


def test_a_failing_history_shows_its_text_indented_and_cut(tmp_path: Path) -> None:
    """A history case's text is shown under ``text:``, indented, its first 40 lines and the count of the rest."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request["cmd"] == "history" and "canonical" in got:
                got["canonical"] = not got["canonical"]
            return got
        """,
    )
    code, lines = kit(command, kinds=("history",), ids="^rec-history-played-out$", perft_nodes=0)
    assert code == 1
    text = next(c["text"] for c in CASES if c["id"] == "rec-history-played-out").splitlines()
    at = lines.index("  text:")
    assert lines[at + 1 : at + 41] == [f"    {line}" for line in text[:40]]
    assert lines[at + 41] == f"    … ({len(text) - 40} more lines)"
    assert lines[at + 42] == "  canonical: expected true, got false"


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_counts_every_case_redrawn_on_a_terminal_else_every_25() -> None:
    """The progress line counts the cases run, ``[k/N] vectors ID``: on a terminal redrawn at each case and wiped
    at the end, elsewhere one line every 25 cases and at the last."""
    ids = [case["id"] for case in CASES if case["id"].startswith("drf-")]
    total = len(ids)
    assert total > 50
    lines = [f"[{k}/{total}] vectors {case_id}" for k, case_id in enumerate(ids, 1)]
    settings = Settings(ids="^drf-", perft_nodes=0)
    plain, terminal = io.StringIO(), _Terminal()
    assert conform(ENGINE, io.StringIO(), settings, progress=plain).exit_code == 0
    assert plain.getvalue() == "".join(f"{line}\n" for k, line in enumerate(lines, 1) if k % 25 == 0 or k == total)
    assert conform(ENGINE, io.StringIO(), settings, progress=terminal).exit_code == 0
    assert terminal.getvalue() == "".join(f"\r\x1b[K{line[:78]}" for line in lines) + "\r\x1b[K"
    wide = _Terminal()
    progress = _Progress(wide, 225)
    for label in ("vectors catalogue-03-case-3-the-a-discarded-on-a-trump-lead-beats-not", "perft:fly-3-play"):
        progress.step(label)
    assert wide.getvalue() == (
        "\r\x1b[K[1/225] vectors catalogue-03-case-3-the-a-discarded-on-a-trump-lead-beats-not"
        "\r\x1b[K[2/225] perft:fly-3-play"
    )
    progress.done = 99  # a line of 79 characters is cut to 78, so that it never wraps on an 80-column terminal
    progress.step("vectors catalogue-03-case-3-the-a-discarded-on-a-trump-lead-beats-not")
    assert wide.getvalue().endswith(
        "\r\x1b[K[100/225] vectors catalogue-03-case-3-the-a-discarded-on-a-trump-lead-beats-no"
    )


def test_after_a_refused_hello_every_selected_case_and_position_is_listed_not_run_or_skipped(tmp_path: Path) -> None:
    """An engine whose hello is refused runs nothing: each case and perft position the filters select is a
    result, ``not run`` with the reason or ``skipped`` for the game left out, with its id, group, game, kind and
    rule IDs; the run exits with 3."""
    command = wrapper(
        tmp_path, "def change(request, got):\n    return got\n", hello='{"engine": "future", "protocol": 9}'
    )
    fly_case = next(case for case in CASES if case["game"] == "fly")
    drf_case = next(case for case in CASES if case["game"] == "dreyfus")
    fly_start, drf_start = (next(e for e in load_perft() if e["game"] == game) for game in ("fly", "dreyfus"))
    ids = "|".join(f"^{name}$" for name in (fly_case["id"], drf_case["id"], f"perft:{fly_start['id']}"))
    settings = Settings(games=("fly",), ids=f"{ids}|^perft:{drf_start['id']}$", perft_nodes=10)
    run = conform(command, io.StringIO(), settings)
    assert run.exit_code == 3
    assert run.problems == ["the engine's hello: the engine speaks protocol 9; the runner speaks 1 and 2"]
    refused = "not run: the engine's hello is refused"
    left_out = "game dreyfus: not selected (--game)"
    assert run.results == [
        Result(
            fly_case["id"], "vectors", "fly", fly_case["kind"], "not run", refused, covers=tuple(fly_case["covers"])
        ),
        Result(
            drf_case["id"],
            "vectors",
            "dreyfus",
            drf_case["kind"],
            "skipped",
            left_out,
            covers=tuple(drf_case["covers"]),
        ),
        Result(
            f"perft:{fly_start['id']}", "perft", "fly", "perft", "not run", refused, covers=tuple(fly_start["covers"])
        ),
        Result(
            f"perft:{drf_start['id']}",
            "perft",
            "dreyfus",
            "perft",
            "skipped",
            left_out,
            covers=tuple(drf_start["covers"]),
        ),
    ]


def test_a_perft_position_the_engine_faults_on_shows_its_context_and_the_engine_is_given_up(tmp_path: Path) -> None:
    """An answer that is not a JSON object faults the perft position, shown with its why, options, position and
    moves; with ``max_faults=1`` the engine is then given up and the positions left are not run. An engine
    without a game skips its positions with the reason."""
    command = wrapper(
        tmp_path, "def change(request, got):\n    return got if request.get('cmd') in ('hello', 'quit') else [1]\n"
    )
    entries = {entry["id"]: entry for entry in load_perft()}
    chosen = ("fly-3-play", "fly-4-play", "dreyfus-start")
    settings = Settings(ids="|".join(f"^perft:{name}$" for name in chosen), perft_nodes=10, max_faults=1)
    run = conform(command, io.StringIO(), settings)
    assert run.exit_code == 3
    fault, *rest = run.results
    first = entries["fly-3-play"]
    assert (fault.id, fault.group, fault.game, fault.kind) == ("perft:fly-3-play", "perft", "fly", "perft")
    assert (fault.status, fault.reason) == ("fault", 'the answer is not a JSON object: "[1]"')
    assert fault.context == (
        ("why", first["why"]),
        ("options", '{"players": 3}'),
        ("position", first["position"]),
        ("moves", "stand, stand, stand"),
    )
    assert fault.covers == tuple(first["covers"])
    assert fault.seconds > 0
    given_up = "not run: the engine failed 1 cases in a row"
    assert rest == [
        Result(
            f"perft:{name}",
            "perft",
            entries[name]["game"],
            "perft",
            "not run",
            given_up,
            covers=tuple(entries[name]["covers"]),
        )
        for name in chosen[1:]
    ]
    skipped = conform(FLY_ONLY, io.StringIO(), Settings(ids="^perft:dreyfus-start$", perft_nodes=10)).results
    assert skipped == [
        Result(
            "perft:dreyfus-start",
            "perft",
            "dreyfus",
            "perft",
            "skipped",
            "game dreyfus: not in the engine's games",
            covers=tuple(entries["dreyfus-start"]["covers"]),
        )
    ]


def test_a_failure_context_shows_what_the_case_has_and_nothing_else() -> None:
    """``context_of`` gives the why only when the case has one, the options as JSON (``{}`` without rules) cut
    at 400 characters, and the deck's pack as its text, not as JSON."""
    pack = "6C 7C 8C"
    assert context_of({"pack": pack}) == (("options", "{}"), ("pack", pack))
    assert context_of({"why": "w", "rules": {"players": 3}}) == (("why", "w"), ("options", '{"players": 3}'))
    for length, cut in ((121, False), (400, False), (401, True)):
        rules = {"note": "x" * (length - len('{"note": ""}'))}
        assert len(json.dumps(rules)) == length
        (_, shown), *_ = context_of({"rules": rules})
        assert shown.endswith(f"… ({length} characters)") is cut, length


def test_each_result_records_the_seconds_its_case_took(tmp_path: Path) -> None:
    """A case or perft position run records the seconds it took (more than none, less than the whole run),
    passed or faulted; one not run records none."""
    started = time.perf_counter()
    run = conform(ENGINE, io.StringIO(), Settings(ids=WALKED, perft_nodes=500))
    whole = time.perf_counter() - started
    passed = [result for result in run.results if result.status == "passed"]
    assert {result.group for result in passed} == {"vectors", "perft"}
    assert all(0 < result.seconds < whole for result in passed)
    assert all(result.reason == "" for result in passed if result.group == "vectors")
    faulting = wrapper(tmp_path, "def change(request, got):\n    return [1] if request['cmd'] == 'perft' else got\n")
    started = time.perf_counter()
    run = conform(faulting, io.StringIO(), Settings(ids="^perft:fly-3-play$", perft_nodes=10))
    whole = time.perf_counter() - started
    (fault,) = run.results
    assert fault.status == "fault"
    assert 0 < fault.seconds < whole


def test_a_perft_answer_is_waited_for_perft_timeout_seconds(tmp_path: Path) -> None:
    """``perft_timeout``, not the other answers' ``timeout``, bounds a perft answer: an engine that takes 2 s
    to count faults the position under a 0.5 s bound and passes it under a 10 s one."""
    slow = wrapper(
        tmp_path,
        """
        import time
        def change(request, got):
            if request["cmd"] == "perft":
                time.sleep(2)
            return got
        """,
    )
    settings = Settings(ids="^perft:fly-3-play$", perft_nodes=10, timeout=10.0, perft_timeout=0.5)
    (fault,) = conform(slow, io.StringIO(), settings).results
    assert (fault.status, fault.reason) == (
        "fault",
        "no answer within 0.5 s (does the engine flush each answer? it was stopped)",
    )
    (passed,) = conform(slow, io.StringIO(), attrs.evolve(settings, perft_timeout=10.0, timeout=0.5)).results
    assert passed.status == "passed"


def test_a_case_the_engine_faults_on_shows_its_context_and_after_too_many_the_rest_are_not_run(tmp_path: Path) -> None:
    """A case answered with something that is not a JSON object is a fault, shown with its context; an engine that
    exits on a case is a fault that starts it again for the next case, and says so. With ``max_faults=2`` the
    engine is given up after two faults in a row and the cases left are listed, not run."""
    command = wrapper(
        tmp_path,
        """
        def change(request, got):
            if request.get("cmd") == "legal" and request["moves"]:
                sys.exit(3)
            return [1] if request.get("cmd") == "legal" else got
        """,
    )
    plays = [case for case in CASES if case["kind"] == "play"]  # run in the kit's order
    start = next(at for at, case in enumerate(plays) if not case.get("moves") and plays[at + 1].get("moves"))
    first, second, *rest = chosen = plays[start : start + 4]
    settings = Settings(ids="|".join(f"^{case['id']}$" for case in chosen), perft_nodes=0, max_faults=2)
    started = time.perf_counter()
    results = {result.id: result for result in conform(command, io.StringIO(), settings).results}
    assert set(results) == {case["id"] for case in chosen}
    fault = results[first["id"]]
    assert (fault.status, fault.reason) == ("fault", 'the answer is not a JSON object: "[1]"')
    assert fault.context[:2] == (("why", first["why"]), ("options", json.dumps(first["rules"])))
    assert fault.covers == tuple(first["covers"])
    assert 0 < fault.seconds < time.perf_counter() - started
    fatal = results[second["id"]]
    assert fatal.status == "fault"
    assert fatal.reason.startswith("the engine stopped (")
    assert fatal.reason.endswith(") (the engine is started again for the next case)")
    assert fatal.context[0] == ("why", second["why"])
    for case in rest:
        assert results[case["id"]] == Result(
            case["id"],
            "vectors",
            case["game"],
            "play",
            "not run",
            "not run: the engine failed 2 cases in a row",
            covers=tuple(case["covers"]),
        )


def test_a_failed_case_records_its_seconds(tmp_path: Path) -> None:
    """A case whose answer differs records the seconds it took, as a passed one does."""
    command = wrapper(
        tmp_path, "def change(request, got):\n    return {**got, 'legal': []} if 'legal' in got else got\n"
    )
    run = conform(command, io.StringIO(), Settings(ids="^fly-start-declarations$", perft_nodes=0))
    (failed,) = run.results
    assert failed.status == "failed"
    assert failed.seconds > 0


def test_an_engine_that_exits_is_started_again_until_it_has_been_started_too_often(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine that exits on a case faults that case and is started again for the next, which it may pass. A run
    starts it again at most so many times (2 here, 100 by default): the fault that used the last restart does not
    promise another, and each case after it faults with "given up"."""
    plays = [case["id"] for case in CASES if case["kind"] == "play"][:5]
    ids = "|".join(f"^{name}$" for name in plays)
    flag = tmp_path / "exited"
    once = wrapper(
        tmp_path,
        f"""
        import pathlib
        def change(request, got):
            if request.get("cmd") == "legal" and not pathlib.Path({str(flag)!r}).exists():
                pathlib.Path({str(flag)!r}).touch()
                sys.exit(3)
            return got
        """,
    )
    run = conform(once, io.StringIO(), Settings(ids=ids, perft_nodes=0))
    assert [result.status for result in run.results] == ["fault", "passed", "passed", "passed", "passed"]
    assert run.results[0].reason.endswith(" (the engine is started again for the next case)")
    assert run.restarts == 1
    monkeypatch.setattr("fly_rules.conformance.runner._GIVE_UP", 2)
    always = wrapper(
        tmp_path,
        "def change(request, got):\n    sys.exit(3) if request.get('cmd') == 'legal' else None\n    return got\n",
    )
    run = conform(always, io.StringIO(), Settings(ids=ids, perft_nodes=0, max_faults=10))
    assert [result.status for result in run.results] == ["fault"] * 5
    assert run.restarts == 2
    assert [result.reason.startswith("the engine stopped (") for result in run.results] == [True] * 3 + [False] * 2
    again = [result.reason.endswith(" (the engine is started again for the next case)") for result in run.results]
    assert again == [True, True, False, False, False]  # the third exit used the last restart
    assert [result.reason for result in run.results[3:]] == ["the engine was started 2 times: given up"] * 2


def test_a_case_answered_passed_failed_known_or_fixed_ends_a_run_of_faults(tmp_path: Path) -> None:
    """Faults count towards giving the engine up only in a row: any case it answers (passed, failed, a known
    failure, a fixed one) starts the count again, so with ``max_faults=2`` faults between them never stop the run."""
    count = tmp_path / "count"
    command = wrapper(
        tmp_path,
        f"""
        import pathlib
        KINDS = ["fault", "pass", "fault", "fail", "fault", "fail", "fault", "pass", "fault", "pass"]
        def change(request, got):
            if request.get("cmd") != "legal":
                return got
            path = pathlib.Path({str(count)!r})
            k = int(path.read_text()) if path.exists() else 0
            path.write_text(str(k + 1))
            kind = KINDS[k] if k < len(KINDS) else "pass"
            if kind == "fault":
                return [1]
            return {{**got, "legal": ["nonsense"]}} if kind == "fail" else got
        """,
    )
    plays = [case["id"] for case in CASES if case["kind"] == "play"][:10]
    known = frozenset({plays[5], plays[7]})
    settings = Settings(ids="|".join(f"^{name}$" for name in plays), perft_nodes=0, max_faults=2, known_failures=known)
    run = conform(command, io.StringIO(), settings)
    assert [result.id for result in run.results] == plays
    statuses = ["fault", "passed", "fault", "failed", "fault", "known", "fault", "fixed", "fault", "passed"]
    assert [result.status for result in run.results] == statuses


def test_an_engine_that_cannot_be_started_again_faults_the_next_case_with_why(tmp_path: Path) -> None:
    """An engine whose command is gone when it must be started again (it removed itself and exited) faults the next
    case with the reason it cannot be started, and the engine is tried again for the case after."""
    script = Path(wrapper(tmp_path, "def change(request, got):\n    return got\n").split(" ", 1)[1])
    engine = tmp_path / "engine-once"
    body = script.read_text().replace(
        "def change(request, got):\n    return got\n",
        "import os\ndef change(request, got):\n    if request.get('cmd') == 'legal':\n"
        "        os.remove(sys.argv[0])\n        sys.exit(3)\n    return got\n",
    )
    engine.write_text(f"#!{sys.executable}\n{body}")
    engine.chmod(0o755)
    plays = [case["id"] for case in CASES if case["kind"] == "play"][:3]
    run = conform(str(engine), io.StringIO(), Settings(ids="|".join(f"^{name}$" for name in plays), perft_nodes=0))
    gone, missing, again = run.results
    assert gone.reason.startswith("the engine stopped (")
    cannot = f"cannot start the engine {str(engine)!r}: [Errno 2] No such file or directory: {str(engine)!r}"
    assert missing.reason == f"{cannot} (the engine is started again for the next case)"
    assert again.reason == missing.reason
    assert run.restarts == 2


def test_an_engine_without_a_hello_leaves_every_case_and_position_not_run(tmp_path: Path) -> None:
    """An engine that exits before its hello: the run's problem says so, and every selected case and perft
    position is listed as not run, with that reason."""
    script = tmp_path / "mute.py"
    script.write_text("import sys\nsys.exit(0)\n")
    run = conform(f"{sys.executable} {script}", io.StringIO(), Settings(ids=WALKED, perft_nodes=500))
    assert run.problems[0].startswith("the engine gave no hello: ")
    assert [(result.id, result.status, result.reason) for result in run.results] == [
        (name, "not run", "not run: the engine gave no hello")
        for name in ("drf-purchase-recorded", "perft:fly-3-play", "perft:dreyfus-start")
    ]


def test_progress_counts_cases_and_perft_positions_and_a_game_not_chosen_is_skipped() -> None:
    """The progress line counts cases and perft positions together, a position labelled ``perft ID``; a perft
    position of a game not chosen (``games``) is skipped with the reason, and still counted."""
    plain = io.StringIO()
    run = conform(ENGINE, io.StringIO(), Settings(ids=WALKED, perft_nodes=500, games=("fly",)), progress=plain)
    assert plain.getvalue() == "[3/3] perft dreyfus-start\n"
    assert [(result.status, result.reason) for result in run.results[1:]] == [
        ("passed", run.results[1].reason),
        ("skipped", "game dreyfus: not selected (--game)"),
    ]


class _Plain:
    """A stream with no ``isatty``: written to as a file is, taken for no terminal."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_a_progress_stream_without_isatty_is_taken_for_no_terminal() -> None:
    """A progress stream that cannot say whether it is a terminal gets the plain lines."""
    stream = _Plain()
    progress = _Progress(stream, 2)
    progress.step("vectors a")
    progress.step("vectors b")
    assert stream.text == "[2/2] vectors b\n"


def test_the_engine_s_standard_error_goes_where_the_caller_says(tmp_path: Path) -> None:
    """What the engine writes on its standard error goes to the run's ``stderr``."""
    command = wrapper(
        tmp_path, "def change(request, got):\n    print('engine note', file=sys.stderr)\n    return got\n"
    )
    errors = tmp_path / "errors.txt"
    with errors.open("w") as stderr:
        conform(command, io.StringIO(), Settings(ids="^drf-purchase-recorded$", perft_nodes=0), stderr=stderr)
    assert "engine note" in errors.read_text()


def test_the_filters_choose_perft_positions_by_id_and_by_the_rules_they_cover_and_count_the_rest() -> None:
    """Perft positions are chosen as cases are, by id and by the rules they cover (``rules``), and those left out
    are counted (``unselected``); ``perft_nodes=1`` still lists every chosen position (skipped, as no depth has
    so few sequences), ``perft_nodes=0`` none."""
    entries = load_perft()
    covering = [entry["id"] for entry in entries if "FLY-4.5" in entry["covers"]]
    assert 0 < len(covering) < len(entries)
    cases = [case["id"] for case in CASES if "FLY-4.5" in case["covers"]]
    run = conform(ENGINE, io.StringIO(), Settings(kinds=("play",), rules=("FLY-4.5",), perft_nodes=1))
    positions = [result for result in run.results if result.group == "perft"]
    assert [result.id for result in positions] == [f"perft:{name}" for name in covering]
    assert {result.status for result in positions} == {"skipped"}
    assert run.unselected == len(CASES) - len(cases) + len(entries) - len(covering)
    none = conform(ENGINE, io.StringIO(), Settings(kinds=("play",), rules=("FLY-4.5",), perft_nodes=0))
    assert [result.group for result in none.results] == ["vectors"] * len(cases)


def test_an_engine_that_will_not_quit_is_killed_after_the_grace_and_said(tmp_path: Path) -> None:
    """At the end of a run the engine is asked to quit; one that ignores ``quit`` and the end of its input is killed
    after the answer timeout, at most 5 s, and the run says so."""
    script = tmp_path / "stubborn.py"
    script.write_text(
        "import json, signal, sys, time\n"
        "from fly_rules.conformance.server import reply\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line).get('cmd') == 'quit':\n"
        "        break\n"
        "    print(json.dumps(reply(line)), flush=True)\n"
        "time.sleep(60)\n"
    )
    started = time.perf_counter()
    run = conform(
        f"{sys.executable} {script}", io.StringIO(), Settings(ids="^drf-purchase-recorded$", perft_nodes=0, timeout=6.0)
    )
    assert time.perf_counter() - started < 30
    assert run.results[0].status == "passed"
    assert run.problems == ["the engine did not stop within 5 s of quit and the end of its input: it was killed"]


def test_the_answer_timeout_and_the_longest_answer_are_the_run_s(tmp_path: Path) -> None:
    """``timeout`` bounds each answer and ``max_answer_bytes`` its length, as the run's settings say."""
    body = "import time\ndef change(request, got):\n    time.sleep(1) if request.get('cmd') == 'legal' else None\n"
    slow = wrapper(tmp_path, body + "    return got\n")
    one = Settings(ids="^drf-purchase-recorded$|^fly-start-declarations$", perft_nodes=0, timeout=0.3)
    reasons = {result.id: result.reason for result in conform(slow, io.StringIO(), one).results}
    assert reasons["fly-start-declarations"].startswith("no answer within 0.3 s (does the engine flush each answer?")
    assert reasons["drf-purchase-recorded"] == ""
    short = Settings(ids="^fly-start-declarations$", perft_nodes=0, max_answer_bytes=500)  # the hello has 261
    (long,) = conform(ENGINE, io.StringIO(), short).results
    assert long.reason.startswith("an answer longer than 500 bytes (")
