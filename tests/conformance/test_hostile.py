"""``fly-rules conform`` against hostile engines (tests/conformance/engines/hostile.py): each run ends within its
timeout with a one-line reason, exit code 3 and a summary; nothing it prints grows with what the engine sends,
and no traceback escapes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fly_rules.cli import main
from fly_rules.conformance.runner import EXIT_ENGINE
from fly_rules.conformance.vectors import load_cases

HOSTILE = Path(__file__).parent / "engines" / "hostile.py"
CASES = load_cases()
DEALS = sum(case["kind"] == "deal" for case in CASES)
PURCHASES = sum(case["kind"] == "purchase" for case in CASES)
LIMITS = ["--timeout", "0.5", "--max-answer-bytes", "65536", "--perft-nodes", "0", "--quiet"]


def conform(capsys: pytest.CaptureFixture[str], mode: str, *extra: str) -> tuple[int, str, str, float]:
    """``fly-rules conform`` (in this process) against the hostile engine in ``mode``: the exit code, what it
    printed on standard output and error, and the seconds it took."""
    started = time.monotonic()
    code = main(["conform", "--engine", f"{sys.executable} {HOSTILE} {mode}", *LIMITS, *extra])
    seconds = time.monotonic() - started
    out, err = capsys.readouterr()
    return code, out, err, seconds


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("hang", "no answer within 0.5 s (does the engine flush each answer? it was stopped)"),
        ("noflush", "no answer within 0.5 s (does the engine flush each answer? it was stopped)"),
        ("garbage", 'the answer is not JSON: Expecting value: line 1 column 1 (char 0); the line starts "<html>'),
        ("latin1", "the answer is not UTF-8: byte 0xe9 at offset 14"),
        ("nested --max-answer-bytes 1000000", "the answer is JSON nested too deeply (400,000 bytes)"),
        ("digits", "the answer is a number of more than 100 digits"),
        ("array", 'the answer is not a JSON object: "[1, 2, 3]"'),
        ("bigline", "an answer longer than 65,536 bytes (more than 65,536 bytes without a line end; it was stopped)"),
        ("nonewline", "an answer longer than 65,536 bytes (more than 65,536 bytes without a line end; it was stopped)"),
        ("die", "the engine stopped (exit code 7)"),
    ],
)
def test_a_hostile_engine_fails_each_case_in_one_line_and_is_given_up(
    capsys: pytest.CaptureFixture[str], mode: str, reason: str
) -> None:
    """The first three cases fail with the fault's reason on the FAULT line; then the engine is given up, the
    cases left are counted as not run, and the exit code is 3; stdout stays small and holds no traceback."""
    mode, *extra = mode.split()
    code, out, err, seconds = conform(capsys, mode, "--kinds", "deal", *extra)
    assert code == EXIT_ENGINE, out + err
    faults = [line for line in out.splitlines() if line.startswith("FAULT ")]
    assert len(faults) == 3
    assert all(reason in line for line in faults), faults
    skipped, left = len(CASES) - DEALS, DEALS - 3
    assert f"vectors: 0 passed, 0 failed, 3 engine faults, {skipped} skipped, {left} not run" in out
    assert f"  {left} not run: the engine failed 3 cases in a row" in out
    assert out.splitlines()[-1] == "result: the engine or the run failed (exit code 3)"
    assert len(out) < 8000
    assert "Traceback" not in out + err
    assert seconds < 20


def test_an_engine_that_dies_after_19_requests_is_started_again_for_the_cases_left(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An engine that exits at its 20th request: the case it was asked in is a fault, it is started again for
    the rest, and every other case is run; the summary says how often it was started and the exit code is 3."""
    code, out, err, _ = conform(capsys, "die 19", "--kinds", "play", "--game", "dreyfus")
    assert code == EXIT_ENGINE
    faults = [line for line in out.splitlines() if line.startswith("FAULT ")]
    assert faults
    assert all(
        line.endswith("the engine stopped (exit code 7) (the engine is started again for the next case)")
        for line in faults
    )
    counts = next(line for line in out.splitlines() if line.startswith("vectors: "))
    passed = int(counts.split()[1])
    assert passed > 2 * len(faults)
    assert f"the engine was started again {len(faults)} times" in out
    assert "not run" not in counts
    assert "Traceback" not in out + err


def test_an_engine_that_hangs_after_hello_ends_at_its_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    """Hello answered, then nothing: with --max-faults 1 the run ends after one timeout."""
    code, out, _, seconds = conform(capsys, "hang", "--kinds", "purchase", "--max-faults", "1")
    assert code == EXIT_ENGINE
    assert (
        f"vectors: 0 passed, 0 failed, 1 engine faults, {len(CASES) - PURCHASES} skipped, {PURCHASES - 1} not run"
        in out
    )
    assert seconds < 10


def test_an_engine_that_never_says_hello_is_an_engine_failure(capsys: pytest.CaptureFixture[str]) -> None:
    """No hello within the timeout: nothing runs, the problem is one line, the exit code is 3."""
    code, out, _, _ = conform(capsys, "silent", "--kinds", "purchase")
    assert code == EXIT_ENGINE
    assert "problem: the engine gave no hello: no answer within 0.5 s" in out
    assert f"vectors: 0 passed, 0 failed, {len(CASES) - PURCHASES} skipped, {PURCHASES} not run" in out


def test_an_engine_that_ignores_quit_is_killed_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """Every answer right, but quit and the end of its input ignored: it is killed after the grace time, the
    cases still pass, and the run is an engine failure."""
    code, out, _, seconds = conform(capsys, "deaf", "--kinds", "purchase")
    assert code == EXIT_ENGINE
    assert f"vectors: {PURCHASES} passed, 0 failed" in out
    assert "problem: the engine did not stop within 0.5 s of quit and the end of its input: it was killed" in out
    assert seconds < 10


def test_the_command_as_a_process_prints_no_traceback_and_exits_with_3() -> None:
    """``python -m fly_rules conform`` against an engine that writes 100 MB lines: exit code 3, a short report."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fly_rules",
            "conform",
            "--engine",
            f"{sys.executable} {HOSTILE} bigline",
            *LIMITS,
            "--kinds",
            "purchase",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == EXIT_ENGINE
    assert "FAULT drf-purchase-recorded [DRF-4.5]: an answer longer than 65,536 bytes" in done.stdout
    assert len(done.stdout) < 4000
    assert "Traceback" not in done.stdout + done.stderr


def test_a_hello_with_a_lone_surrogate_is_refused_in_one_line() -> None:
    """An engine whose hello names it ``"\\ud800"`` (no character: no output can encode it) is a run that failed
    with one problem line naming the lone surrogate and exit code 3, in a real process writing UTF-8 (it was a
    ``UnicodeEncodeError`` traceback and exit code 1)."""
    done = subprocess.run(
        [sys.executable, "-m", "fly_rules", "conform", "--engine", f"{sys.executable} {HOSTILE} surrogate", *LIMITS],
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert done.returncode == EXIT_ENGINE, out + err
    assert "Traceback" not in out + err
    assert (
        "problem: the engine gave no hello: the answer is not text: a lone surrogate \\ud800 in a string"
        " (no character; I-JSON, RFC 7493)"
    ) in out.splitlines()
