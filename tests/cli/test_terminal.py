"""``fly-rules play`` in a real terminal of 80 columns and 24 rows (tmux): what a player sees at each
prompt is on the screen, without scrolling back [REC-3.3]."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import dreyfus, fly, registry
from fly_rules._options import MAX_POINTS
from fly_rules.dreyfus import DreyfusRules
from fly_rules.engine import Phase
from fly_rules.narration import action_lines, fitted

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
    stock, records and whose turn are on screen and no line wraps; the goal is said first;
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


PLAY = (sys.executable, "-m", "fly_rules", "play")
_BONUSES = ("ace_bonus", "ace_bonus_trumps", "ace_no_trick_penalty", "ace_no_trick_penalty_trumps")
PRESETS = [(game, preset) for game in registry.games() for preset in registry.get(game).presets]


def _lines_shown(text: str) -> list[str]:
    """The lines a terminal shows for what ``play`` wrote to a pipe: in a terminal the player's Enter ends the
    prompt's line, so what follows a prompt starts a line of its own."""
    return text.replace("your choice> ", "\n").splitlines()


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_rec_3_3_no_line_over_80_columns_in_whole_matches_under_every_preset(game: str, preset: str) -> None:
    """REC-3.3: whole matches (two deals, two seeds) under every preset of both games, played by the numbers of
    the list '?' shows: no line ``play`` writes is longer than 80 columns, and the match ends."""
    for seed in ("1", "2"):
        done = subprocess.run(
            [*PLAY, "--game", game, "--preset", preset, "--seed", seed, "--max-deals", "2"],
            input="?\n1\n" * 400,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            env={**os.environ, "COLUMNS": "80"},
        )
        assert done.returncode == 0, done.stderr
        assert "== Match over" in done.stdout
        long = [line for line in _lines_shown(done.stdout + done.stderr) if len(line) > 80]
        assert not long, long


_FLY_GOAL = re.compile(
    r"Goal: take your record from (\d+) to exactly 0: each trick you win writes off (\d+), the A♠ holder's first"
    r" (\d+)(?: \((\d+) if ♠ are trumps\))? more\. No trick in a deal you play: \+(\d+) \(a remise\), the A♠ holder"
    r" \+(\d+)(?: \((\d+) if ♠ are trumps\))? in all\."
)


def _goal(rules: Any) -> str:
    """The goal ``play`` says first under ``rules``, its lines checked to fit 80 columns and joined."""
    lines = registry.game_of(rules).words.goal(rules)
    assert all(len(line) <= 80 and line.startswith("   ") for line in lines), lines
    return " ".join(line.strip() for line in lines)


@settings(max_examples=60, deadline=None)
@given(
    st.fixed_dictionaries(
        {name: st.integers(0, MAX_POINTS) for name in (*_BONUSES, "remise")}
        | {"start_record": st.integers(1, MAX_POINTS), "trick_value": st.integers(1, MAX_POINTS)}
    )
)
def test_fly_8_3_the_goal_line_s_numbers_are_the_rules_options(options: dict[str, int]) -> None:
    """FLY-8.1 to FLY-8.5: the goal says the start record, the trick's value, the A♠ bonus and (when it differs)
    the bonus with spades trumps (10 by default, not 5), the remise, and the A♠ holder's +10 without a trick
    (and its spades-trumps value when it differs), each as the rules have it, in lines of at most 80 columns."""
    rules = fly.FlyRules(**options)  # type: ignore[arg-type]
    found = _FLY_GOAL.fullmatch(_goal(rules))
    assert found is not None, _goal(rules)
    start, trick, bonus, bonus_spades, remise, penalty, penalty_spades = found.groups()
    assert (int(start), int(trick), int(bonus), int(remise), int(penalty)) == (
        rules.start_record,
        rules.trick_value,
        rules.ace_bonus,
        rules.remise,
        rules.ace_no_trick_penalty,
    )
    assert int(bonus_spades or bonus) == rules.ace_bonus_trumps
    assert (bonus_spades is None) == (rules.ace_bonus == rules.ace_bonus_trumps)
    assert int(penalty_spades or penalty) == rules.ace_no_trick_penalty_trumps
    assert (penalty_spades is None) == (rules.ace_no_trick_penalty == rules.ace_no_trick_penalty_trumps)


def test_fly_8_3_the_default_goal_says_10_when_spades_are_trumps_and_the_holder_s_10() -> None:
    """FLY-8.3, FLY-8.5: under the default rules the goal says the bonus is 10 with spades trumps and that the A♠
    holder without a trick adds 10 in all."""
    told = _goal(fly.FlyRules())
    assert "the A♠ holder's first 5 (10 if ♠ are trumps) more" in told
    assert "+5 (a remise), the A♠ holder +10 in all" in told


@pytest.mark.parametrize("preset", list(registry.get("dreyfus").presets))
@pytest.mark.parametrize("winner_rule", ["first_to_reach", "highest_lower"])
def test_drf_8_1_the_dreyfus_goal_s_numbers_are_the_rules_options(
    preset: str, winner_rule: Literal["first_to_reach", "highest_lower"]
) -> None:
    """DRF-7.1, DRF-8.1, DRF-8.2: the goal names the target of the lower record, par, and how the winner is
    found, as the rules have them."""
    rules = attrs.evolve(DreyfusRules.preset(preset), winner_rule=winner_rule, target_lower=37)
    told = _goal(rules)
    assert f"1 for each trick beyond {rules.par_tricks} a deal" in told
    assert f"1 a trick short of {rules.par_tricks}." in told
    if winner_rule == "first_to_reach":
        assert "Goal: be first to 37 in your lower record" in told
    else:
        assert "Goal: reach 37 in your lower record (the highest at that deal's end wins)" in told


def test_fly_8_3_the_record_line_of_a_ten_point_bonus_and_exemption_fits_80_columns() -> None:
    """FLY-8.3, FLY-9.3: spades trumps, the A♠ holder at 3 takes his first trick: the line giving the trick, the
    -10 bonus and the exemption is cut between its reasons, never inside one, in lines of at most 80 columns, as
    the terminal prints it (:func:`~fly_rules.narration.fitted`); the line itself stays whole for other clients."""
    deal: Any = fly.new_deal(
        fly.FlyRules(players=3),
        hands=["8H 7C 8D 9D TD", "AH 8S 9S TS AS", "QD KD AD 9H JS"],
        trump_card="7S",
        stock=["7H", "JH"],
        records=[25, 3, 25],
    )
    for _ in range(3):
        deal = deal.apply(fly.Stand())
    lines: list[str] = []
    while not lines or deal.trick_cards:  # the first trick
        mover, action = deal.to_move, deal.legal_actions()[-1]
        after = deal.apply(action)
        lines += action_lines(deal, after, mover, action)
        deal = after
    assert any(len(line) > 80 for line in lines)  # whole, as the browser and the table server take it
    shown = [cut for line in lines for cut in fitted(line)]
    assert all(len(line) <= 80 for line in shown), shown
    told = "\n".join(shown)
    assert "seat 1: record 3 -> 0: -1 for the trick [FLY-8.2], -10 A♠ bonus [FLY-8.3],\n" in told
    assert "\n        below 0: exemption, 0 [FLY-9.3]" in told


def test_drf_4_1_an_exchange_turn_skipped_for_an_empty_talon_is_said() -> None:
    """DRF-4.1: when the first two seats buy the whole talon, the dealer's turn is skipped, and the terminal says
    so with the rule."""
    deal: Any = dreyfus.new_match(dreyfus.DreyfusRules(), seed=0, dealer=0).deal
    lines: list[str] = []
    while deal.phase is Phase.EXCHANGE:
        mover = deal.to_move
        action = max(deal.legal_actions(), key=lambda a: len(getattr(a, "cards", ())))
        after = deal.apply(action)
        lines += action_lines(deal, after, mover, action)
        deal = after
    assert deal.talon_left == 0
    assert lines[-1] == "   seat 0 buys nothing: the talon is empty [DRF-4.1]"
    assert sum("buys nothing" in line for line in lines) == 1
