"""What a newcomer meets first at the command line: finding rules, reading games, playing, the help."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from fly_rules import __version__, fly
from fly_rules.notation.history import dump_history
from tests.cli.test_commands import run
from tests.notation.helpers import random_fly_match


def test_rules_prints_a_section_and_a_whole_spec_file() -> None:
    """``rules FLY-7`` prints the section on the ace of spades, each of its rules with its text; ``rules fly``
    lists every rule of the Fly spec file; a prefix of no rule is refused."""
    section = run("rules", "FLY-7")
    assert section.returncode == 0, section.stderr
    assert section.stdout.startswith("FLY-7  The ace of spades: ")
    ids = re.findall(r"^(FLY-\d+\.\d+)  ", section.stdout, flags=re.MULTILINE)
    assert ids[0] == "FLY-7.1"
    assert all(rule.startswith("FLY-7.") for rule in ids)
    assert "    When the first card of a trick is the ace of trumps" in section.stdout  # FLY-7.2's text
    whole = run("rules", "fly")
    assert whole.stdout.startswith("FLY  Fly (Муха)")
    listed = re.findall(r"^(FLY-\d+\.\d+)  ", whole.stdout, flags=re.MULTILINE)
    assert {"FLY-1.1", "FLY-7.2", "FLY-12.2"} <= set(listed)
    first = re.findall(r"^(FLY-\d+\.\d+)  ", run("rules", "FLY-1").stdout, flags=re.MULTILINE)
    assert first
    assert all(rule.startswith("FLY-1.") for rule in first)  # not FLY-10 or FLY-11
    assert run("rules", "FLY-13").returncode == 1


def test_search_finds_card_names_russian_titles_and_sources_in_any_case() -> None:
    """``--search "ace of spades"`` finds the A♠ rules written with the symbol and the section named so;
    ``--search Муха`` finds the Fly spec by its title; the case of the words does not matter; the
    sources and Decisions are searched too."""
    spades = run("rules", "--search", "ace of spades")
    assert spades.returncode == 0, spades.stderr
    assert "FLY-7  The ace of spades" in spades.stdout
    assert "FLY-7.2  The A♠ may be played to a led trump ace" in spades.stdout
    assert "FLY-4.7  The A♠ may be discarded" in spades.stdout  # written only with the symbol
    assert run("rules", "--search", "ACE OF SPADES").stdout == spades.stdout
    russian = run("rules", "--search", "Муха")
    assert russian.returncode == 0, russian.stderr
    assert russian.stdout.startswith("FLY  Fly (Муха)")
    assert run("rules", "--search", "муха").stdout == russian.stdout
    sources = run("rules", "--search", "spar-es")  # a word found only in a Danish source of FLY-7.2
    assert "FLY-7.2" in sources.stdout
    assert run("rules", "--search", "ace of xylophones").returncode == 1


def test_replay_tells_hands_tricks_and_takers_in_card_symbols(tmp_path: Path) -> None:
    """``replay`` narrates as the demo does: every hand at each deal, each trick with the seat that took it,
    the records, the cards as symbols (A♠, not AS)."""
    path = tmp_path / "match.toml"
    path.write_text(dump_history(random_fly_match(4, 5000, 3)), encoding="utf-8")
    told = run("replay", str(path))
    assert told.returncode == 0, told.stderr
    out = told.stdout
    assert ": 3 players" in out
    for seat in range(3):
        assert re.search(rf"^   seat {seat}: (\S+[♠♥♦♣] )+\S+[♠♥♦♣]   \(record 25\)$", out, flags=re.MULTILINE)
    tricks = re.findall(r"^   trick \d: (.*)  -> seat (\d) takes it \(record \d+\)$", out, flags=re.MULTILINE)
    assert tricks
    assert all(re.fullmatch(r"(\d:\S+[♠♥♦♣]\s*)+", cards) for cards, _ in tricks)
    assert "== Match over after" in out


def test_play_tells_trick_takers_takes_forced_moves_explains_refusals_and_reads_any_case(tmp_path: Path) -> None:
    """``play`` reads ``STAND`` in capitals, answers an illegal card with the rule that refuses it (ID, title
    and what is wrong), says who took each trick, plays the last card itself when it is the only legal
    one, and shows the others' exchanges without their cards."""
    saved = tmp_path / "game.toml"
    answers = "STAND\nplay 8s\n" + "?\n1\n" * 50
    args = ("play", "--players", "3", "--seed", "4", "--max-deals", "1", "--save", str(saved), "--force")
    result = run(*args, stdin=answers)  # --force: run() plays it twice, as a subprocess and in this process
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "   seat 0 stands" in out
    assert (
        "not a legal action now: play 8s: FLY-6.3 (Following suit):\n      must follow suit (A♦ led, 8♠ played)" in out
    )
    assert re.search(r"   trick 1: .* -> seat \d takes it \(record \d+\)$", out, flags=re.MULTILINE)  # after a prompt
    assert re.search(r"^   you play \S+[♠♥♦♣] \(your only legal action\)$", out, flags=re.MULTILINE)
    assert "    1. " not in out.split("your choice>", 3)[2]  # no numbered list before the first '?'
    assert out.count("your choice>") == out.count("   your hand:") + 1  # the hand above every prompt; again after 8s
    assert re.search(r"^   seat 2 exchanges \d$", out, flags=re.MULTILINE)  # how many, never which
    assert run("replay", "--check", str(saved)).returncode == 0


def test_help_names_the_presets_and_the_bots() -> None:
    """Every command's help lists the presets of both games and the bots by name."""
    for command in ("demo", "play", "simulate"):
        shown = " ".join(run(command, "--help").stdout.split())
        for preset in (*fly.PRESETS, "shram", "whist_honours", "table"):
            assert preset in shown, (command, preset)
        for bot in ("random", "rule-of-thumb", "monte-carlo"):
            assert bot in shown.split("--bots", 1)[1], (command, bot)
        assert "…" not in shown


def test_version_prints_the_package_version() -> None:
    """``fly-rules --version`` prints the version and exits 0."""
    shown = run("--version")
    assert shown.returncode == 0
    assert shown.stdout == f"fly-rules {__version__}\n"


def test_demo_refuses_more_bots_than_seats() -> None:
    """Eight bots for four seats is an error naming both numbers, not a silently shortened list."""
    refused = run("demo", "--players", "4", "--bots", ",".join(["random"] * 8))
    assert refused.returncode == 1
    assert refused.stderr == "fly-rules: --bots names 8 bots for 4 seats: give 1 to 4, the last repeats\n"
    assert run("demo", "--players", "4", "--max-deals", "1", "--bots", "random,random,random,random").returncode == 0


def test_simulate_into_a_reader_that_stops_exits_quietly() -> None:
    """``simulate … | head -1`` prints one line and exits 0 with nothing on standard error (the table is
    written by rich, which would otherwise exit 1)."""
    for extra in ("--no-progress", "--json"):
        piped = subprocess.run(
            f"{sys.executable} -m fly_rules simulate -n 2 --players 3 {extra} | head -1; exit ${{PIPESTATUS[0]}}",
            shell=True,
            executable="/bin/bash",
            capture_output=True,
            text=True,
            check=False,
        )
        assert piped.returncode == 0, (extra, piped.stderr)
        assert piped.stdout.count("\n") == 1
        assert piped.stderr == ""
