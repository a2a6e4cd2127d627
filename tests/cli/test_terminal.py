"""``fly-rules play`` in a real terminal of 80 columns and 24 rows (tmux): what a player sees at each
prompt is on the screen, without scrolling back [REC-3.3]."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Terminal:
    """A tmux server of its own running one command in an 80x24 window."""

    def __init__(self, socket: str, command: list[str], cwd: Path | None = None) -> None:
        self.tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
        self.typed_at = ""
        shell = f'{shlex.join(command)}; echo "[exit $?]"; sleep 600'
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"}
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-x", "80", "-y", "24", "sh", "-c", shell], check=True, env=env, cwd=cwd
        )

    def screen(self) -> str:
        """The 24 rows on screen now."""
        shown = subprocess.run([*self.tmux, "capture-pane", "-p"], check=True, capture_output=True, text=True)
        return shown.stdout

    def unwrapped(self) -> list[str]:
        """The rows on screen with every row the terminal wrapped joined back to the line it was printed as:
        a line longer than 80 columns here is one the player saw cut."""
        shown = subprocess.run([*self.tmux, "capture-pane", "-p", "-J"], check=True, capture_output=True, text=True)
        return [row.rstrip() for row in shown.stdout.splitlines()]

    def wait(self, text: str, count: int = 1) -> str:
        """The screen once ``text`` is on it ``count`` times (at most 30 s)."""
        deadline = time.monotonic() + 30
        while True:
            shown = self.screen()
            if shown.count(text) >= count or time.monotonic() > deadline:
                assert shown.count(text) >= count, f"{text!r} not on the screen:\n{shown}"
                return shown
            time.sleep(0.1)

    def prompt(self) -> str:
        """The screen once the game waits for the player (the prompt alone on the last non-empty row) or
        has ended, and has changed since the last thing typed."""
        deadline = time.monotonic() + 30
        while True:
            shown = self.screen()
            rows = shown.rstrip().splitlines()
            ready = shown != self.typed_at and rows and (rows[-1] == "your choice>" or rows[-1].startswith("[exit"))
            if ready or time.monotonic() > deadline:
                assert ready, shown
                return shown
            time.sleep(0.05)

    def type(self, text: str, *, enter: bool = True) -> None:
        """Type ``text`` (then Enter)."""
        self.typed_at = self.screen()
        subprocess.run([*self.tmux, "send-keys", "-l", text], check=True)
        if enter:
            subprocess.run([*self.tmux, "send-keys", "Enter"], check=True)

    def key(self, name: str) -> None:
        """Press a key by tmux's name for it (``Tab``)."""
        subprocess.run([*self.tmux, "send-keys", name], check=True)

    def close(self) -> None:
        """Stop the server and its command."""
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """Start ``fly-rules ARGS`` in an 80x24 terminal: ``terminal(*args)`` (``cwd=`` the directory it starts
    in); stopped after the test."""
    started: list[Terminal] = []

    def start(*args: str, cwd: Path | None = None) -> Terminal:
        socket = f"fly-rules-test-{os.getpid()}-{len(started)}-{tmp_path.name}"
        started.append(Terminal(socket, [sys.executable, "-m", "fly_rules", *args], cwd))
        return started[-1]

    yield start
    for shown in started:
        shown.close()


def _status(screen: str) -> str:
    """The status block above the prompt: from its first row to the prompt."""
    return "-- " + screen.rsplit("\n-- ", 1)[1]


def _check_prompt(screen: str, term: Terminal) -> None:
    """At a prompt the status block is on screen: whose turn, trumps, stock or talon, records, hand; and
    no line on screen was wrapped."""
    block = _status(screen)
    assert "your turn" in block.splitlines()[0]
    assert "your hand: " in block
    assert "stock" in block or "talon" in block
    assert "records" in block or "upper" in block
    _check_unwrapped(term)


def _check_unwrapped(term: Terminal) -> None:
    """No line on the screen is longer than the terminal is wide (none was wrapped)."""
    wrapped = [row for row in term.unwrapped() if len(row) > 80]
    assert not wrapped, wrapped


def _play_out(term: Terminal) -> str:
    """Answer every prompt with the first legal action of the list ``?`` shows until the match ends;
    every prompt is checked on the screen as it stands."""
    prompts = 0
    while True:
        screen = term.prompt()
        if "[exit" in screen:
            return screen
        _check_prompt(screen, term)
        prompts += 1
        term.type("?")
        listed = term.prompt()
        assert " 1. " in listed
        assert "your hand: " in listed.rsplit(" 1. ", 1)[1]  # the hand again under the list
        term.type("1")
        assert prompts < 400


def test_rec_3_3_fly_at_80x24_hand_on_screen_exchange_by_names_drawn_cards_refusal_and_quit(
    terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    """REC-3.3, FLY-4.4, FLY-6.3: at each prompt of a Fly game in an 80x24 terminal the hand, trumps,
    stock, records and whose turn are on screen and no line wraps; the goal is said in two lines first;
    ``help`` names Fly's own actions open now; an exchange naming a card twice is refused, one by card names
    tells the cards drawn; a card that does not follow suit is refused with its rule, which ``rules`` then
    shows; Tab completes only cards that may be played; ``quit`` saves the game given ``--save`` and says
    how to resume it."""
    saved = tmp_path / "game.toml"
    term = terminal("play", "--players", "3", "--seed", "4", "--max-deals", "1", "--save", str(saved))
    screen = term.prompt()
    _check_prompt(screen, term)
    assert "   Goal: take your record from 25 to exactly 0: each trick you win writes off 1," in screen
    assert "your hand: 10♦ K♦ 8♠ 10♠ Q♠" in screen
    assert "exchange" in _status(screen).splitlines()[0]
    assert " 1. " not in screen  # the list only on '?'
    term.type("help")
    screen = term.prompt()
    assert "'fold' sits the deal out" in screen
    assert "swap-trump" not in screen  # not in the default rules
    _check_unwrapped(term)
    term.type("x 8s 8s")
    screen = term.prompt()
    assert "not understood: 8♠ named twice: name each card once" in screen
    term.type("1")
    screen = term.prompt()
    assert "a number picks from the list: type ? to see it" in screen
    term.type("8s 10s")
    screen = term.prompt()
    assert "seat 0 exchanges 2: 8♠ 10♠; draws A♥ A♠" in screen
    _check_prompt(screen, term)
    assert "your hand: 10♦ K♦ A♥ Q♠ A♠" in screen
    term.type("qs")  # diamonds led; holding 10♦ K♦
    screen = term.wait("not a legal action now")
    assert "not a legal action now: qs: FLY-6.3 (Following suit):\n      must follow suit (A♦ led, Q♠ played)" in screen
    assert "your hand: 10♦ K♦ A♥ Q♠ A♠" in screen
    term.type("rules")
    term.wait("(its sources and tests: fly-rules rules FLY-6.3)")
    screen = term.prompt()  # the rule is told before the hand and the prompt come back
    assert "   FLY-6.3 Following suit\n      A player who holds a card of the suit led must play one." in screen
    assert screen.rstrip().endswith("your hand: 10♦ K♦ A♥ Q♠ A♠\nyour choice>")
    _check_unwrapped(term)
    term.type("q", enter=False)  # Q♠ is held but may not be played: only quit completes
    term.key("Tab")
    term.wait("your choice> quit")
    term.key("C-u")
    term.type("1", enter=False)
    term.key("Tab")
    term.wait("your choice> 10d")
    term.key("Enter")
    screen = term.prompt()
    assert "-5 A♠ bonus [FLY-8.3]" in screen
    _check_prompt(screen, term)
    term.type("quit")
    screen = term.wait("[exit 0]")
    assert f"continue it with: fly-rules play --resume {saved}" in screen.replace("\n", "")
    assert saved.exists()


def test_rec_3_3_whole_fly_and_dreyfus_matches_at_80x24(terminal: Callable[..., Terminal]) -> None:
    """REC-3.3, DRF-4.4: whole matches of Fly (4 players) and of Dreyfus played at 80x24 by the numbers
    of the list '?' shows: at every prompt the status block is on screen and no row is cut."""
    for args in (("--players", "4", "--seed", "7"), ("--game", "dreyfus", "--seed", "3")):
        term = terminal("play", *args, "--max-deals", "2")
        screen = _play_out(term)
        assert "== Match over" in screen
        assert "[exit 0]" in screen


def test_drf_4_3_dreyfus_at_80x24_buys_by_card_names_and_tells_the_cards_drawn(
    terminal: Callable[..., Terminal],
) -> None:
    """DRF-4.3, DRF-4.2: in Dreyfus the goal is said first; ``help`` names the low cards that may be given
    up and no fold or trump swap (Fly's); the player names the cards to discard and is told the cards
    bought from the talon; the twelve-card hand stays on screen."""
    term = terminal("play", "--game", "dreyfus", "--seed", "3")
    screen = term.prompt()
    _check_prompt(screen, term)
    assert "your hand: 5♣ 8♣ 10♣ A♣ 9♦ K♦ 8♥ 9♥ 10♥ J♥ 9♠ Q♠" in screen
    assert "or fold" not in screen  # Dreyfus has no fold
    assert "   Goal: be first to 10 in your lower record" in screen
    term.type("help")
    screen = term.prompt()
    helped = screen.rsplit("your choice> help", 1)[1]
    assert "You may give up: 5♣ 8♣ 10♣ 9♦ 8♥ 9♥ 10♥ 9♠." in helped  # the low cards, never J Q K A
    assert "fold" not in helped
    assert "swap-trump" not in helped
    _check_unwrapped(term)
    term.type("x 5c 8c")
    screen = term.wait("seat 0 buys 2")
    assert "seat 0 buys 2, discarding 5♣ 8♣; draws " in screen
    term.type("quit")
    screen = term.wait("[exit 0]")
    assert "game stopped; not saved" in screen
