"""What a first user meets: examples in every ``--help``, a player count a game refuses, ``show``'s
``--force`` and ``--legal``, a lazy list of choices that prints usefully."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from fly_rules import fly
from fly_rules.cli import _parser, main
from fly_rules.commands import EXAMPLES, SUBCOMMANDS
from fly_rules.engine import GameState
from fly_rules.notation.history import dump_history
from tests.notation.helpers import random_dreyfus_match, random_fly_match

POSITION = "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s,s,s,pAH 2"


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(list(argv), out)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def test_every_help_ends_with_examples_the_parser_accepts() -> None:
    """Each subcommand's ``--help`` ends with examples; each example parses (its options exist)."""
    parser = _parser()
    assert len(EXAMPLES) == len(SUBCOMMANDS)
    for name, examples in EXAMPLES.items():
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown), pytest.raises(SystemExit):
            parser.parse_args([name, "--help"])
        assert "examples:\n" in shown.getvalue(), name
        for example in examples:
            assert example.split("#")[0].strip() in shown.getvalue(), (name, example)
            words = shlex.split(example.split("|")[-1].split("  #")[0])
            assert words[:2] == ["fly-rules", name]
            assert isinstance(parser.parse_args(words[1:]), argparse.Namespace)


def test_drf_1_1_demo_refuses_a_player_count_dreyfus_does_not_have() -> None:
    """DRF-1.1: ``demo --game dreyfus --players 5`` is refused with the rule, not played with 3."""
    code, out, err = _run("demo", "--game", "dreyfus", "--players", "5")
    assert code == 1
    assert out == ""
    assert "DRF-1.1: Dreyfus is for 3 players, not 5" in err
    code, out, _ = _run("demo", "--game", "dreyfus", "--players", "3", "--max-deals", "1")
    assert code == 0
    assert "Dreyfus, 3 players" in out


def test_rec_5_1_show_svg_keeps_an_existing_file_without_force(tmp_path: Path) -> None:
    """REC-5.1: ``show --svg`` refuses to overwrite a file unless ``--force``, as ``play --save`` does."""
    target = tmp_path / "t.svg"
    target.write_text("mine", encoding="utf-8")
    code, out, err = _run("show", POSITION, "--svg", str(target))
    assert code == 1
    assert err.strip() == f"fly-rules: {target} exists: pass --force to overwrite it"
    assert target.read_text(encoding="utf-8") == "mine"
    assert out == ""  # refused before the board is printed
    code, out, _ = _run("show", POSITION, "--svg", str(target), "--force")
    assert code == 0
    assert target.read_text(encoding="utf-8").startswith("<svg")


def test_fly_6_3_show_legal_lists_the_moves_of_the_seat_to_move() -> None:
    """FLY-6.3: ``show --legal`` lists what the seat to move may play: seat 2, void in hearts, any card."""
    code, out, _ = _run("show", POSITION, "--legal")
    assert code == 0
    assert "legal actions of seat 2 (5):\n  play 9♣\n  play 10♣\n  play J♣\n  play 7♠\n  play 8♠\n" in out
    code, out, _ = _run("show", "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1", "--legal")
    assert "legal actions of seat 1 (" in out
    assert "  stand\n  fold\n  x 9♥\n" in out


def test_fly_4_3_the_lazy_choices_print_their_count_and_ends() -> None:
    """FLY-4.3: the exchange's 32 choices print with their count, the first three and the last."""
    match = fly.new_match(fly.FlyRules(players=4), seed=1)
    legal = match.legal_actions()
    assert repr(legal) == f"<{len(legal)} choices: stand, {legal[1]}, {legal[2]}, …, {legal[len(legal) - 1]}>"
    assert "exchange" in repr(legal)


def test_fly_8_2_drf_7_1_search_in_the_games_own_language_finds_their_rules() -> None:
    """FLY-8.2, DRF-7.1: ``rules --search`` in the sources' languages: the game's Russian name finds its
    rules (with other words, the rules that have them too), and a word of a quoted Russian or Danish
    source sentence finds the rule quoting it."""
    code, fly_rules_found, _ = _run("rules", "--search", "Муха")
    assert code == 0
    assert "\nFLY-8.2  Each trick writes off one\n" in fly_rules_found
    assert "DRF-" not in fly_rules_found
    code, narrowed, _ = _run("rules", "--search", "муха", "ace of spades")
    assert "FLY-7.2  The A♠ may be played to a led trump ace" in narrowed
    assert "FLY-8.2  " not in narrowed
    code, russian, _ = _run("rules", "--search", "Дрейфус", "взятки")
    assert "DRF-7.1  Par is four tricks" in russian
    assert "FLY-" not in russian
    code, danish, _ = _run("rules", "--search", "trick fratrækkes")
    assert "FLY-8.2  Each trick writes off one" in danish


def test_fly_4_4_drf_4_3_replay_names_the_cards_each_seat_drew(tmp_path: Path) -> None:
    """FLY-4.4, DRF-4.3: ``replay`` tells every exchange with the cards given up and the cards drawn: as
    many as given up while the stock lasts, never one of them."""
    histories: dict[str, GameState] = {"fly": random_fly_match(4, 5000, 3), "dreyfus": random_dreyfus_match(2, 5000)[0]}
    for game, match in histories.items():
        saved = tmp_path / f"{game}.toml"
        saved.write_text(dump_history(match), encoding="utf-8")
        code, told, _ = _run("replay", str(saved))
        assert code == 0
        pattern = r"^   seat \d (?:exchanges|buys) (\d+)(?::|, discarding) (.*); draws (.*)$"
        draws = re.findall(pattern, told, flags=re.MULTILINE)
        assert draws, game
        for count, given, drawn in draws:
            assert len(given.split()) == int(count)
            assert len(drawn.split()) <= int(count)
            assert not set(given.split()) & set(drawn.split())
        assert any(len(drawn.split()) == int(count) for count, _, drawn in draws)
