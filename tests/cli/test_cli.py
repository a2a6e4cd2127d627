"""The ``fly-rules`` command, in process and as a real subprocess."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from fly_rules.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m fly_rules`` with ``args`` and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "fly_rules", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_fly_10_1_demo_prints_a_whole_match() -> None:
    """FLY-10.1, FLY-3.2: the demo prints each deal's trump card and hands, the tricks and the winner."""
    out = io.StringIO()
    assert main(["demo", "--players", "3", "--seed", "4"], out) == 0
    text = out.getvalue()
    assert text.startswith("Fly, 3 players")
    assert "seat 0: rule-of-thumb, seat 1: random, seat 2: random" in text
    assert "== Deal 1: seat" in text
    assert "trump card" in text
    assert "trick 1:" in text
    assert "records by seat:" in text
    assert "== Match over after" in text
    assert "wins the match" in text or "no winner" in text


def test_fly_12_2_demo_runs_the_mouche_preset_and_deal_limit() -> None:
    """FLY-12.2, FLY-10.1: the demo takes a preset and stops at the deal limit."""
    out = io.StringIO()
    assert main(["demo", "--players", "7", "--preset", "mouche_1718", "--seed", "1", "--max-deals", "2"], out) == 0
    text = out.getvalue()
    assert "preset 'mouche_1718'" in text
    assert "== Deal 3" not in text


def test_demo_as_a_subprocess_and_its_exit_codes() -> None:
    """The command runs as `python -m fly_rules`; bad input exits 1 with one line, bad usage exits 2."""
    ok = run("demo", "--players", "4", "--seed", "2")
    assert ok.returncode == 0, ok.stderr
    assert "Match over" in ok.stdout
    bad = run("demo", "--players", "9")
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines() == [
        "fly-rules: invalid rules option players: FLY-1.1: Fly is for 3 to 7 players, not 9"
    ]
    usage = run("nonsense")
    assert usage.returncode == 2
    assert "usage:" in usage.stderr


def test_demo_is_reproducible_for_a_seed() -> None:
    """FLY-10.1: the same seed prints the same match."""
    first, second = io.StringIO(), io.StringIO()
    main(["demo", "--seed", "9"], first)
    main(["demo", "--seed", "9"], second)
    assert first.getvalue() == second.getvalue()
    with pytest.raises(SystemExit):
        main(["demo", "--players", "x"])


def test_fly_10_1_demo_seats_the_chosen_bots_and_refuses_unknown_ones() -> None:
    """FLY-10.1: the demo plays the named bots by seat (the last repeating) and refuses an unknown bot name."""
    out = io.StringIO()
    assert main(["demo", "--players", "3", "--seed", "6", "--bots", "random,rule-of-thumb"], out) == 0
    assert "seat 0: random, seat 1: rule-of-thumb, seat 2: rule-of-thumb" in out.getvalue()
    bad = run("demo", "--bots", "chess")
    assert bad.returncode == 1
    assert "unknown bot 'chess' (known: random, rule-of-thumb, monte-carlo, expert, learned)" in bad.stderr


def test_demo_stops_quietly_when_its_reader_does() -> None:
    """A reader that stops early (a pipe into `head`) ends the command without a traceback."""
    reader = subprocess.run(
        f"{sys.executable} -m fly_rules demo --seed 3 | head -2",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert reader.stdout.count("\n") == 2
    assert "Traceback" not in reader.stderr
