"""The analysis of saved games of both games (``fly_rules.analysis``, ``fly-rules analyse``) and the hint."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.analysis import analyse, analyse_history, review
from fly_rules.bots import RuleOfThumbBot
from fly_rules.engine import Phase
from fly_rules.narration import action_shown
from fly_rules.notation.games import action_text as str_action
from fly_rules.notation.history import dump_history, load_history
from fly_rules.solve import evaluate, solve
from tests.cli.test_commands import in_process


def _played(rules: Any, module: Any, seed: int) -> tuple[Any, list[Any], Any]:
    """A match between rule-of-thumb bots: its start, its actions and its end."""
    start = module.new_match(rules, seed=seed, dealer=0)
    state, bot, rng, actions = start, RuleOfThumbBot(), random.Random(seed), []
    while not state.is_over:
        action = bot.choose(state.view(state.to_move), state.legal_actions(), rng)
        actions.append(action)
        state = state.apply(action)
    return start, actions, state


@pytest.fixture(scope="module")
def fly_game() -> tuple[Any, list[Any], Any]:
    return _played(fly.FlyRules(players=3, max_deals=1), fly, 11)


def test_every_decision_is_reviewed_with_the_solver_s_values(fly_game: tuple[Any, list[Any], Any]) -> None:
    """Each decision with a choice gets a review: in the play the open values are the solver's for the seat to
    move, the best is the first of the highest, and the cost is how far the action played falls short of it."""
    start, actions, _ = fly_game
    analysis = analyse(start, actions, expert=False)
    state, reviewed = start, iter(analysis.reviews)
    for action in actions:
        if len(state.legal_actions()) > 1:
            found = next(reviewed)
            assert found.played == action
            assert found.seat == state.to_move
            if found.phase is Phase.PLAY:
                assert found.open_values == evaluate(state, seat=state.to_move)
            best = max(found.open_values.values())
            assert found.open_values[found.open_best] == best
            assert found.open_best == next(a for a, v in found.open_values.items() if v == best)
            assert found.cost is not None
            assert found.cost == best - found.open_values[action] >= 0
        state = state.apply(action)
    assert next(reviewed, None) is None
    assert sum(analysis.loss(seat) for seat in analysis.seats) == sum(r.cost or 0 for r in analysis.reviews)


def test_a_declaration_is_weighed_against_every_other_with_the_later_ones_as_played() -> None:
    """In Fly's exchange every declaration is valued: the later seats declare as they did in the game and the play
    is solved; the value of the one played is what the solver finds after the declarations actually made [FLY-4.2]."""
    start, actions, _ = _played(fly.FlyRules(players=3, max_deals=1), fly, 5)
    seat, after, later = start.to_move, start.apply(actions[0]), []
    for action in actions[1:]:
        if after.deal.phase is not Phase.EXCHANGE:
            break
        later.append((after.to_move, action))
        after = after.apply(action)
    found = review(start, actions[0], later=later)
    assert set(found.open_values) == set(start.legal_actions())
    assert after.deal.phase is Phase.PLAY
    assert found.open_values[actions[0]] == solve(after).values[seat]


def test_the_expert_s_view_is_given_beside_the_open_one(fly_game: tuple[Any, list[Any], Any]) -> None:
    """With the expert, each review also has the expert's mean values (from the seat's knowledge only) and its
    choice, one of the actions it valued: in the play the best of them; one seat's decisions only with ``seat``."""
    start, actions, _ = fly_game
    analysis = analyse(start, actions, seat=1, samples=2)
    assert analysis.seats == (1,)
    for found in analysis.reviews:
        assert found.expert_best in found.expert_values
        if found.phase is Phase.PLAY:
            assert found.expert_values[found.expert_best] == max(found.expert_values.values())


def test_fly_rules_analyse_prints_each_decision_and_each_loss(tmp_path: Path) -> None:
    """``fly-rules analyse`` of a saved game prints one line per decision with the action played, the best open
    one and the expert's, then each seat's loss; ``--json`` gives the same as data."""
    _, _, final = _played(fly.FlyRules(players=3, max_deals=1), fly, 7)
    path = tmp_path / "game.toml"
    path.write_text(dump_history(final))
    code, out, _ = in_process(["analyse", str(path), "--seat", "0", "--samples", "1"], "")
    assert code == 0
    lines = [line for line in out.splitlines() if re.match(r"\s+\d+\. seat", line)]
    assert lines
    assert all(line.lstrip().split(" ", 1)[1].startswith("seat 0, ") for line in lines)
    assert out.count("seat's view: ") - 1 == out.count("open cards:  ") == len(lines)  # and the legend's
    assert re.search(r"^seat 0 gave away \d+\.\d by the seat's view, \d+ with every card open", out, re.MULTILINE)
    code, out, _ = in_process(["analyse", str(path), "--seat", "0", "--no-expert", "--json"], "")
    data = json.loads(out)
    assert code == 0
    assert len(data["decisions"]) == len(lines)
    assert data["loss"] == {"0": sum(d["cost"] for d in data["decisions"])}
    assert analyse_history(path.read_text(), seat=0, expert=False).loss(0) == data["loss"]["0"]


@pytest.mark.no_cover
def test_a_saved_dreyfus_game_is_analysed_by_its_seat_s_paranoid_values(tmp_path: Path) -> None:
    """In Dreyfus the open values are the paranoid solver's for the seat to move (its tricks against the other
    two), and the exchange weighs the expert's candidate purchases beside the one made [DRF-4.3]."""
    start, actions, final = _played(dreyfus.DreyfusRules(max_deals=1), dreyfus, 5)
    path = tmp_path / "game.toml"
    path.write_text(dump_history(final))
    code, out, _ = in_process(["analyse", str(path), "--seat", "2", "--no-expert", "--json"], "")
    assert code == 0
    decisions = json.loads(out)["decisions"]
    assert {d["phase"] for d in decisions} <= {"exchange", "play"}
    assert decisions[-1]["phase"] == "play"
    assert all(d["played"] in d["open_values"] and d["seat"] == 2 for d in decisions)
    state = start
    for action in actions:  # the last decision of seat 2 with a choice
        if state.to_move == 2 and len(state.legal_actions()) > 1:
            before = state
        state = state.apply(action)
    values = evaluate(before, concept="paranoid", seat=2)
    assert decisions[-1]["open_values"] == {str_action(a): v for a, v in values.items()}


def test_fly_rules_analyse_refuses_a_seat_not_at_the_table(tmp_path: Path) -> None:
    """A seat that is not at the table is refused in one line, before any work."""
    _, _, final = _played(fly.FlyRules(players=3, max_deals=1), fly, 7)
    path = tmp_path / "game.toml"
    path.write_text(dump_history(final))
    code, _, err = in_process(["analyse", str(path), "--seat", "5"], "")
    assert code == 1
    assert "--seat must be a seat 0 to 2" in err


def _terminal(argv: list[str], stdin: str) -> str:
    from fly_rules.cli import main

    out, saved = io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            assert main(argv, out) == 0
    finally:
        sys.stdin = saved
    return out.getvalue()


@pytest.mark.parametrize(("game", "moves"), [("fly", "x 8s 10s\nqs\n"), ("dreyfus", "stand\n")], ids=["fly", "dreyfus"])
def test_hint_on_a_saved_game_names_the_expert_s_legal_choice(game: str, moves: str, tmp_path: Path) -> None:
    """A saved game of either game, resumed at the terminal: ``hint`` gives the expert's choice from the seat's
    view, one of the legal actions of the position the history saved, and plays nothing."""
    saved = tmp_path / f"{game}.toml"
    _terminal(["play", "--game", game, "--seed", "4", "--max-deals", "1", "--save", str(saved)], moves + "quit\n")
    state = load_history(saved.read_text())
    said = _terminal(["play", "--resume", str(saved)], "hint\nquit\n")
    hinted = re.search(r"hint \(expert bot\): (.+)$", said, flags=re.MULTILINE)
    assert hinted is not None
    assert hinted.group(1) in {action_shown(action) for action in state.legal_actions()}
    assert load_history(saved.read_text()) == state  # the hint played nothing
