"""What ``play`` reads at its prompt, in this process (the terminal tests run it as a program): cards by
name, ``x``, bare cards, ``?``, ``help``, ``quit`` with and without ``--save``, and line editing with
completion on a terminal [REC-3.3]."""

from __future__ import annotations

import contextlib
import io
import re
import readline
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fly_rules.bots import BOTS, HINT_BOT
from fly_rules.cli import main
from fly_rules.commands import screen


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
    code, out, err = _play("x\nbanana\n\n?\nhelp\nx 8s 10s\nqs 10d\nqs\n?\n1\nquit\n")
    assert (code, err) == (0, "")
    assert "not understood: name the cards to give up, e.g. 'x 9c 9h'" in out
    assert "not understood: 'banana' is neither a card nor a command" in out
    assert " 1. stand" in out
    assert "33. x 10♦ K♦ 8♠ 10♠ Q♠" in out
    assert "Tab completes" in out
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
    completes the words offered for the prompt, and only those (``qu`` -> ``quit``, ``10`` -> ``10c``);
    input's end reads as ''."""
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    answers = iter(["ks"])

    def typed(prompt: str) -> str:
        assert prompt == "your choice> "
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)
    read, offer = screen.reader(sys.stdout)
    assert read("your choice> ") == "ks\n"
    assert read("your choice> ") == ""
    complete = readline.get_completer()
    assert complete is not None
    offer(["stand", "quit", "swap-trump", "10c", "10h"])
    assert complete("qu", 0) == "quit"
    assert complete("sw", 0) == "swap-trump"
    assert [complete("10", n) for n in range(3)] == ["10c", "10h", None]
    assert complete("fo", 0) is None  # not offered now


def _completions(complete: Callable[[str, int], str | None], start: str) -> list[str]:
    """Every word Tab offers for ``start``, in order."""
    found: list[str] = []
    while (word := complete(start, len(found))) is not None:
        found.append(word)
    return found


def _offered_at_each_prompt(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[dict[str, list[str]]]:
    """Play with a terminal on both sides, typing ``answers``: at each prompt, what Tab completes from a few
    beginnings (``a``, ``1``, ``k``, ``s``, ``f``, ``e``, ``p``, ``h``, ``r``, ``q``, ``w``)."""
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    typing = iter(answers)
    offered: list[dict[str, list[str]]] = []

    def typed(prompt: str) -> str:
        complete = readline.get_completer()
        assert complete is not None
        offered.append({start: _completions(complete, start) for start in "a1ksfephrqw"})
        try:
            return next(typing)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)
    with contextlib.redirect_stdout(io.StringIO()):
        main(["play", "--players", "3", "--seed", "4", "--max-deals", "1"], sys.stdout)
    return offered


def test_rec_3_3_fly_6_3_tab_completes_only_what_may_be_typed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-3.3, FLY-6.3, FLY-7.3: in the exchange Tab offers the cards held and the declarations open, no
    card not held and no ``play``; in the play only the cards that may be played (the suit led, and the A♠
    that may take the led trump ace), never a held card that does not follow suit."""
    exchange, playing = _offered_at_each_prompt(monkeypatch, ["x 8s 10s", "quit"])
    assert exchange["1"] == ["10d", "10s"]  # holding 10♦ K♦ 8♠ 10♠ Q♠
    assert (exchange["a"], exchange["k"], exchange["q"]) == ([], ["kd"], ["quit", "qs"])
    assert (exchange["s"], exchange["f"], exchange["e"], exchange["p"]) == (["stand"], ["fold"], ["exchange"], [])
    assert (exchange["h"], exchange["r"], exchange["w"]) == (["help", "hint"], ["rules"], [])
    assert (playing["1"], playing["k"], playing["a"]) == (["10d"], ["kd"], ["as"])  # 10♦ K♦ A♥ Q♠ A♠, A♦ led
    assert playing["q"] == ["quit"]  # Q♠ held, but diamonds are led
    assert playing["p"] == ["play"]
    assert (playing["s"], playing["f"], playing["e"]) == ([], [], [])


def test_an_exchange_naming_a_card_twice_is_refused_and_nothing_is_exchanged() -> None:
    """``x 8s 8s`` (or bare ``8s 8s``) names the 8♠ twice: refused as a slip, never read as one card, and
    the player is asked again."""
    code, out, _ = _play("x 8s 8s\n8s 8S 10s\nquit\n")
    assert code == 0
    assert out.count("not understood: 8♠ named twice: name each card once") == 2
    assert "exchanges" not in out.split("your choice>", 1)[1]
    assert "your turn (seat 0), exchange" in out


def test_a_bare_number_picks_only_from_a_list_shown_for_this_decision() -> None:
    """A number before ``?`` is refused with how to see the list; after it, it picks; at the next decision
    the old list is gone."""
    code, out, _ = _play("2\n?\n3\n1\nquit\n")
    assert code == 0
    before, _, after = out.partition("seat 0 exchanges 1: 10♦")  # 3. x 10♦
    assert " 3. x 10♦" in before
    assert before.index("a number picks from the list: type ? to see it") < before.index(" 1. stand")
    assert "a number picks from the list: type ? to see it" in after  # a new decision: the list is gone


def test_fly_6_3_rules_shows_the_rule_behind_the_last_refusal_and_any_rule_by_id() -> None:
    """FLY-6.3, DRF-4.2: ``rules`` before any refusal says how to ask; after a refused card it shows that
    rule's title and text wrapped to 80 columns; ``rules ID`` shows any rule, an unknown ID is named."""
    unknown = "FLY-" + "99.9"  # no such rule (written in two parts, or the traceability check would cite it)
    code, out, _ = _play(f"rules\nx 8s 10s\nqs\nrules\nrules drf-4.2\nrules {unknown}\nquit\n")
    assert code == 0
    assert "no refusal yet: 'rules ID' shows a rule" in out
    shown = out.split("('rules' shows the rule)", 1)[1]
    assert "   FLY-6.3 Following suit\n      A player who holds a card of the suit led must play one." in shown
    assert "   (its sources and tests: fly-rules rules FLY-6.3)" in shown
    assert "   DRF-4.2 What may be discarded: фоски\n" in shown
    assert f"no rule {unknown} in the specification" in shown
    assert all(len(line) <= 80 for line in out.replace("your choice> ", "\n").splitlines())


def test_hint_names_an_action_of_the_hint_bot_and_plays_nothing() -> None:
    """``hint`` says what the hint bot (the strongest registered) would do from the seat's view, a legal
    action, and the player is asked again."""
    code, out, _ = _play("hint\nquit\n")
    assert code == 0
    hinted = re.search(rf"your choice> {{4}}hint \({re.escape(HINT_BOT)} bot\): (.+)$", out, flags=re.MULTILINE)
    assert hinted is not None
    assert hinted.group(1) in {"stand", "fold"} or hinted.group(1).startswith("x ")
    assert HINT_BOT in BOTS
    assert "seat 0 stands" not in out
    assert "seat 0 exchanges" not in out


@pytest.mark.parametrize(
    ("argv", "said", "unsaid"),
    [
        ((), ["'fold' sits the deal out", "Give up cards by naming them"], ["swap-trump", "Play a card"]),
        (
            ("--game", "dreyfus", "--players", "3"),
            ["Give up cards by naming them", "You may give up: "],
            ["fold", "swap-trump"],
        ),
    ],
)
def test_help_names_only_the_actions_open_in_this_game_and_fits_80_columns(
    argv: tuple[str, ...], said: list[str], unsaid: list[str]
) -> None:
    """Help in the exchange names what the game offers now: Fly's fold, Dreyfus's buying (no fold, no
    trump swap); every line fits 80 columns, and the goal comes first."""
    code, out, _ = _play("help\nquit\n", *argv)
    assert code == 0
    helped = out.split("your choice>", 1)[1]
    for text in said:
        assert text in helped
    for text in unsaid:
        assert text not in helped
    assert all(len(line) <= 80 for line in out.replace("your choice> ", "\n").splitlines())  # as a terminal echoes
    assert out.splitlines()[1].startswith("   Goal: ")
