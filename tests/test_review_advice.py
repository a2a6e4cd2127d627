"""The review grades each decision as the hint would (issue 47): the expert on the seat's knowledge, its intervals,
the open cards' hindsight beside it, the trick, the cards and the rules in each verdict, and bounded work."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.actions import Fold
from fly_rules.analysis import analyse, analyse_history, review, verdict
from fly_rules.bots import RuleOfThumbBot, hint_bot, hint_rng
from fly_rules.cards import Card
from fly_rules.narration import action_shown
from fly_rules.notation.history import dump_history
from tests.cli.test_commands import in_process

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))
import fly_live as LIVE


def _thumb(state: Any) -> Any:
    return RuleOfThumbBot().choose(state.view(state.to_move), state.legal_actions(), random.Random(0))


def _played(module: Any, rules: Any, seed: int) -> tuple[Any, list[Any], Any]:
    start = state = module.new_match(rules, seed=seed, dealer=0)
    actions = []
    while not state.is_over:
        actions.append(_thumb(state))
        state = state.apply(actions[-1])
    return start, actions, state


@pytest.mark.parametrize(("players", "seed"), [(3, "5"), (4, "8"), (4, "11")])
def test_the_review_s_best_is_the_hint_s_action_at_every_decision_of_a_fly_deal(
    players: int, seed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the browser table the reader asks for a hint at each of its decisions and plays its first legal move;
    the review of the deal then names as the best, decision by decision, the action the hint named. (The hint's time
    bound is lifted: on a loaded machine it would cut a hint short of the review's guesses.)"""
    monkeypatch.setattr(LIVE, "HINT_SECONDS", 600.0)
    answer = LIVE.new_match("fly", players, "default", seed, 0, "rule-of-thumb", 1)
    hinted = []
    while not answer["view"]["over"]:
        legal = answer["view"]["legal"]
        if len(legal) > 1:
            hinted.append(LIVE.hint()["text"])
        answer = LIVE.act(legal[0])
    graded = LIVE.review(0)
    assert graded["next"] is None
    assert graded["total"] == len(hinted)
    assert [row["best"] for row in graded["decisions"]] == hinted
    played = [row for row in graded["decisions"] if row["played"] != row["best"]]
    assert all(f"; the hint: {row['best']}" in row["verdict"] for row in played)


@pytest.mark.parametrize("seed", [5, 9])
def test_the_review_s_best_is_the_hint_s_action_in_the_dreyfus_play(seed: int) -> None:
    """In Dreyfus too the analysis's best at each decision (from the seventh trick on, where a guess is quick to
    solve) is the hint's choice, drawn with the hint's randomness (the match's seed and count of actions)."""
    start, actions, _ = _played(dreyfus, dreyfus.DreyfusRules(max_deals=1), seed)
    state = start
    while sum(state.deal.tricks_taken) < 6:
        state = state.apply(actions.pop(0))
    analysis = analyse(state, actions)
    bot = hint_bot(start.rules)
    assert analysis.reviews
    found = iter(analysis.reviews)
    for action in actions:
        if len(state.legal_actions()) > 1:
            hint = bot.choose(
                state.view(state.to_move), state.legal_actions(), hint_rng(start.seed, len(state.actions))
            )
            assert next(found).best == hint
        state = state.apply(action)
    assert next(found, None) is None


def test_a_verdict_says_the_trick_the_cards_and_the_rule_that_refused_cards() -> None:
    """A decision where following suit took cards away names its trick, the cards already played to it and the
    rule [FLY-6.3]; the expert's values carry 95% intervals around their means over its guesses."""
    start, actions, _ = _played(fly, fly.FlyRules(players=4, max_deals=1), 3)
    analysis = analyse(start, actions, samples=4)
    ruled = [r for r in analysis.reviews if "FLY-6.3" in r.rules]
    assert ruled
    for found in ruled:
        said = verdict(found)
        assert found.trick is not None
        assert found.table
        assert said.startswith(f"trick {found.trick} after {' '.join(c.symbol for _, c in found.table)} (FLY-6.3")
        assert f"refused {found.refused} card" in said
        assert action_shown(found.played) in said
    for found in analysis.reviews:
        for action, (low, high) in found.expert_intervals.items():
            assert low <= found.expert_values[action] <= high
        if found.played != found.expert_best and found.expert_cost is not None:
            assert "the hint: " + action_shown(found.expert_best) in verdict(found)


def test_the_ace_of_spades_holder_is_told_the_rule_that_refused_the_fold() -> None:
    """A seat holding the A♠ in the exchange may not fold [FLY-5.2]: its review names that rule."""
    ace = Card.parse("AS")
    for seed in range(200):
        state = fly.new_match(fly.FlyRules(players=4), seed=seed, dealer=0)
        if state.to_move is not None and ace in state.view(state.to_move).hand and Fold() not in state.legal_actions():
            break
    found = review(state, state.legal_actions()[0])
    assert found.rules == ("FLY-5.2",)
    assert verdict(found).startswith("the exchange (FLY-5.2 refused 1 declaration)")


def test_fly_rules_analyse_shows_both_columns_in_80_columns_and_keeps_its_json_keys(tmp_path: Path) -> None:
    """Each decision has a line for the seat's view (the expert) and one for the open cards, no line is wider than
    80 columns, and ``--json`` keeps the keys it had and adds the estimates, the verdict and the expert's loss."""
    _, _, final = _played(fly, fly.FlyRules(players=4, max_deals=2), 3)
    path = tmp_path / "game.toml"
    path.write_text(dump_history(final))
    code, out, _ = in_process(["analyse", str(path), "--seat", "1", "--samples", "4"], "")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    views = [line for line in out.splitlines() if line.startswith("       seat's view: ")]
    opens = [line for line in out.splitlines() if line.startswith("       open cards:  ")]
    heads = [line for line in out.splitlines() if re.match(r"\s+\d+\. seat 1, (the exchange|trick \d)", line)]
    assert heads
    assert len(views) == len(opens) == len(heads)
    assert re.search(r"^seat 1 gave away \d+\.\d by the seat's view, \d+ with every card open$", out, re.MULTILINE)
    code, out, _ = in_process(["analyse", str(path), "--seat", "1", "--samples", "4", "--json"], "")
    data = json.loads(out)
    old = {
        "deal",
        "step",
        "seat",
        "phase",
        "played",
        "open_best",
        "open_values",
        "expert_best",
        "expert_values",
        "cost",
    }
    new = {"best", "expert_intervals", "expert_guesses", "expert_unit", "expert_cost", "trick", "rules", "verdict"}
    assert all(old | new <= set(decision) for decision in data["decisions"])
    assert len(data["decisions"]) == len(heads)
    assert {"loss", "expert_loss", "stopped"} <= set(data)


def test_analyse_max_seconds_5_ends_a_dreyfus_history_within_6_seconds(tmp_path: Path) -> None:
    """``fly-rules analyse --max-seconds 5`` of a Dreyfus history (minutes without a bound) ends within 6 s with
    decisions graded (the cheapest first), names in its place each decision not reached, and says that it stopped."""
    _, _, final = _played(dreyfus, dreyfus.DreyfusRules(max_deals=2), 5)
    path = tmp_path / "dreyfus.toml"
    path.write_text(dump_history(final))
    started = time.monotonic()
    code, out, err = in_process(["analyse", str(path), "--max-seconds", "5"], "")
    assert time.monotonic() - started <= 6.0
    assert code == 0
    graded = [line for line in out.splitlines() if line.startswith("       seat's view: ")]
    unreached = [line for line in out.splitlines() if line.endswith(" (not reached)")]
    assert graded
    assert unreached
    told = re.search(r"stopped at --max-seconds 5 after (\d+) decisions \(the cheapest first\); (\d+) not reached", err)
    assert told is not None
    assert (int(told[1]), int(told[2])) == (len(graded), len(unreached))
    head = f"{len(graded)} decisions analysed (stopped at --max-seconds 5, {len(unreached)} not reached)"
    assert head in re.sub(r"\s+", " ", out)  # the title wraps at 80 columns


def test_the_live_review_grades_one_decision_at_a_time_as_it_grades_them_all() -> None:
    """The page asks for one decision at a time to show its progress: the parts, joined, are the whole review, and
    each says how many there are and which comes next."""
    LIVE.play_through("fly", 3, "default", "5", 0, "rule-of-thumb", 1)
    whole = LIVE.review(0)
    parts, at = [], 0
    while at is not None:
        part = LIVE.review(0, at, 1)
        assert part["total"] == whole["total"]
        assert part["first"] == at
        assert len(part["decisions"]) == 1
        parts += part["decisions"]
        at = part["next"]
    assert parts == whole["decisions"]
    assert whole["loss"] == pytest.approx(sum(row["cost"] or 0 for row in parts))


def test_analysis_of_a_saved_history_uses_the_hint_s_seed() -> None:
    """A saved match analysed from its history grades as the hint of that match would: its seed is the match's."""
    start, actions, final = _played(fly, fly.FlyRules(players=3, max_deals=1), 7)
    analysis = analyse_history(dump_history(final), seat=0, samples=2)
    assert analysis.reviews == analyse(start, actions, seat=0, samples=2, seed=start.seed).reviews
    assert analysis.reviews != analyse(start, actions, seat=0, samples=2, seed="other").reviews
