"""``fly-rules analyse`` within bounds: ``--max-seconds`` ends a long Dreyfus analysis with the decisions it
finished, and ``--samples 0`` (which left every decision to the Monte-Carlo bot, printed as the expert's) is
refused in one line."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from fly_rules import dreyfus
from fly_rules.analysis import analyse, analyse_history
from fly_rules.bots import RuleOfThumbBot
from fly_rules.engine import Phase
from fly_rules.errors import FlyRulesError
from fly_rules.notation.history import dump_history, load_history
from tests.cli.test_commands import run_once
from tests.cli.test_stops import one_line


def _thumb(match: Any) -> Any:
    """The rule of thumb's action at ``match``."""
    seat = match.to_move
    assert seat is not None
    return RuleOfThumbBot().choose(match.view(seat), match.legal_actions(), random.Random(0))


def _dreyfus_history(tmp_path: Path, deals: int = 3) -> Path:
    """A Dreyfus history of ``deals`` deals played by the rule of thumb."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(max_deals=deals), seed=5, dealer=0)
    while not match.is_over:
        match = match.apply(_thumb(match))
    path = tmp_path / "dreyfus.toml"
    path.write_text(dump_history(match), encoding="utf-8")
    return path


def _decisions(text: str) -> list[tuple[int, int, bool]]:
    """Every decision with a choice of the history ``text``: its deal, its step in the deal, whether an exchange."""
    final: Any = load_history(text)
    state = dreyfus.new_match(final.rules, seed=final.seed, dealer=final.first_dealer)
    out = []
    for action in final.actions:
        deal = state.deal
        if len(deal.legal_actions()) > 1:
            out.append((deal.deal_number, len(deal.actions), deal.phase is Phase.EXCHANGE))
        state = state.apply(action)
    return out


def test_analyse_max_seconds_grades_the_cheapest_decisions_first_and_names_the_rest(tmp_path: Path) -> None:
    """A bound of 1.5 s ends the analysis of a three-deal history (minutes unbounded) within 0.5 s of it, marked
    as stopped, with graded decisions: the cheapest ones (no exchange, nor an earlier play of a deal, graded before a
    later one), in the order made, each as the analysis without a bound grades it; every other decision is named as
    not reached. The command says so on each channel."""
    text = _dreyfus_history(tmp_path).read_text(encoding="utf-8")
    started = time.monotonic()
    analysis = analyse_history(text, expert=True, max_seconds=1.5)
    assert time.monotonic() - started < 2.0
    assert analysis.stopped
    assert analysis.reviews
    assert analysis.unreached
    graded = [(r.deal_number, r.step) for r in analysis.reviews]
    left = [(u.deal_number, u.step) for u in analysis.unreached]
    assert graded == sorted(graded)
    assert left == sorted(left)
    every = _decisions(text)
    assert sorted(graded + left) == [(deal, step) for deal, step, _ in every]
    dearness = {(deal, step): (exchange, -step) for deal, step, exchange in every}
    assert max(dearness[each] for each in graded) <= min(dearness[each] for each in left)
    assert all(u.phase is Phase.EXCHANGE or u.trick is not None for u in analysis.unreached)
    cheapest = min(analysis.reviews, key=lambda r: (dearness[r.deal_number, r.step], r.deal_number))  # graded first
    alone = analyse_history(text, expert=True, first=every.index((cheapest.deal_number, cheapest.step, False)), count=1)
    assert alone.reviews == (cheapest,)
    done = run_once("analyse", str(tmp_path / "dreyfus.toml"), "--max-seconds", "1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["stopped"] is True
    assert data["decisions"]
    assert len(data["decisions"]) + len(data["unreached"]) == len(every)
    assert {"deal", "step", "seat", "played"} == set(data["unreached"][0])
    assert "fly-rules: stopped at --max-seconds 1 after" in done.stderr
    assert done.stderr.rstrip().endswith(f"(the cheapest first); {len(data['unreached'])} not reached")


def test_analyse_without_a_bound_is_not_stopped() -> None:
    """With no bound (or a bound it does not reach) every decision is analysed and nothing is marked stopped."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(max_deals=1), seed=5, dealer=0)
    start = match
    actions: list[Any] = []
    while not match.is_over and len(actions) < 40:
        action = _thumb(match)
        actions.append(action)
        match = match.apply(action)
    tail = start
    for action in actions[:-6]:  # the last tricks: quick to solve
        tail = tail.apply(action)
    analysis = analyse(tail, actions[-6:], expert=False, max_seconds=600)
    assert not analysis.stopped
    assert len(analysis.reviews) >= 1
    with pytest.raises(FlyRulesError, match="max_seconds must be a number above 0, not 0"):
        analyse(tail, actions[-6:], expert=False, max_seconds=0)


@pytest.mark.parametrize("samples", ["0", "-1"])
def test_analyse_samples_below_one_is_one_line(tmp_path: Path, samples: str) -> None:
    """``--samples 0`` is refused before any work, in one line naming the option."""
    done = run_once("analyse", str(_dreyfus_history(tmp_path, 1)), "--samples", samples)
    assert done.returncode != 0
    assert one_line(done.stderr) == (
        f"fly-rules: --samples must be at least 1 (the expert's guesses per decision), not {samples}"
    )
