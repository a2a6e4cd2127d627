"""What ``play`` reads at its prompt, in this process (the terminal tests run it as a program): cards by
name, ``x``, bare cards, ``?``, ``help``, ``quit`` with and without ``--save``, and line editing with
completion on a terminal [REC-3.3]."""

from __future__ import annotations

import contextlib
import io
import readline
import sys
from pathlib import Path

import pytest

from fly_rules.cli import main
from fly_rules.commands import play


def _play(stdin: str, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stderr(err):
            try:
                code = main(["play", "--players", "3", "--seed", "4", "--max-deals", "1", *argv], out)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def test_rec_3_3_cards_by_name_help_list_and_quit_without_save() -> None:
    """REC-3.3, FLY-6.3: ``x`` alone and a word that is no card are refused in one line, an empty line
    ignored; ``?`` lists the choices in columns with the hand again under them; ``help`` explains;
    ``x 8s 10s`` exchanges and the drawn cards are named; two bare cards in play are refused, a card that
    does not follow suit refused with its rule, a number picks from the list; ``quit`` without ``--save``
    stops and says nothing was saved."""
    code, out, err = _play("x\nbanana\n\n?\nhelp\nx 8s 10s\nqs 10d\nqs\n1\nquit\n")
    assert (code, err) == (0, "")
    assert "not understood: name the cards to give up, e.g. 'x 9c 9h'" in out
    assert "not understood: 'banana' is neither a card nor a command" in out
    assert " 1. stand" in out
    assert "33. x 10♦ K♦ 8♠ 10♠ Q♠" in out
    assert "Tab completes cards and commands" in out
    assert "seat 0 exchanges 2: 8♠ 10♠; draws A♥ A♠" in out
    assert "not understood: play one card at a time" in out
    assert "not a legal action now: qs: FLY-6.3 (Following suit)" in out
    assert "trick 1: 2:A♦  0:10♦" in out  # '1': the first of the listed choices
    assert out.rstrip().endswith("game stopped; not saved (give --save FILE to keep a game)")


def test_rec_1_1_quit_with_save_keeps_the_game_and_says_how_to_resume(tmp_path: Path) -> None:
    """REC-1.1: ``quit`` with ``--save`` writes the history and names the command that resumes it; the
    resumed game goes on from the same position."""
    saved = tmp_path / "g.toml"
    code, out, _ = _play("stand\nquit\n", "--save", str(saved))
    assert code == 0
    assert f"game stopped and saved to {saved}\ncontinue it with: fly-rules play --resume {saved}" in out
    out2, err2 = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO("quit\n")
    try:
        with contextlib.redirect_stderr(err2):
            assert main(["play", "--resume", str(saved)], out2) == 0
    finally:
        sys.stdin = stdin
    assert "seat 0 stands" not in out2.getvalue()  # already played: not asked again
    assert "your turn (seat 0), play" in out2.getvalue()


def test_rec_3_3_on_a_terminal_lines_are_read_with_completion(monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-3.3: with a terminal on both sides, lines are read with ``input`` (line editing) and Tab
    completes commands and card names (``qu`` -> ``quit``, ``10`` -> ``10c``); input's end reads as ''."""
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    answers = iter(["ks"])

    def typed(prompt: str) -> str:
        assert prompt == "your choice> "
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)
    read = play._reader(sys.stdout, ["stand", "fold", "quit", "swap-trump"])
    assert read("your choice> ") == "ks\n"
    assert read("your choice> ") == ""
    complete = readline.get_completer()
    assert complete is not None
    assert complete("qu", 0) == "quit"
    assert complete("sw", 0) == "swap-trump"
    assert [complete("10", n) for n in range(5)] == ["10c", "10d", "10h", "10s", None]
