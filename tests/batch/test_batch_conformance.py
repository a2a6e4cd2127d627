"""The conformance kit's play cases replayed through the batch engine: each case's position loaded with
``batch.from_scalar``, its moves taken by their ids, and after every move the batch's game, its legal ids
and its refusals those of the scalar engine (issue 28)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fly_rules import batch
from fly_rules.adapters.encoding import legal_ids
from fly_rules.conformance.vectors import load_cases
from fly_rules.errors import InvalidNotation, InvalidRules, RuleViolation
from fly_rules.notation import parse_position
from fly_rules.notation.games import parse_action

PLAY_CASES = [case for case in load_cases() if case["kind"] == "play"]


def _start(position: str) -> Any:
    """The deal a position describes, before the moves it lists (its moves field emptied, the turn read
    again)."""
    fields = position.split(" ")
    fields[7] = "-"
    for turn in ("-", *map(str, range(7))):
        try:
            return parse_position(" ".join([*fields[:8], turn, *fields[9:]]))
        except InvalidNotation:
            continue
    raise AssertionError(f"no turn fits the dealt position of {position!r}")


def _moves(case: dict[str, Any]) -> list[Any]:
    """The position's own moves, then the case's."""
    return [*parse_position(case["position"]).actions, *(parse_action(m) for m in case["moves"])]


def test_the_play_cases_are_there() -> None:
    """The kit has play cases of both games for the replay below."""
    assert {case["game"] for case in PLAY_CASES} == {"fly", "dreyfus"}
    assert len(PLAY_CASES) > 100


@pytest.mark.parametrize("case", PLAY_CASES, ids=[case["id"] for case in PLAY_CASES])
def test_a_play_case_through_the_batch(case: dict[str, Any]) -> None:
    """The case's moves, one id at a time (a Dreyfus exchange: its marks, then the stand), give the scalar
    engine's game after every move; the batch's legal ids are the scalar engine's, and a move the scalar
    engine refuses is refused by the batch, with the same rule where it has an id (a game over ignores its
    actions) [REC-5.3]."""
    try:
        parse_position(case["position"])
    except InvalidNotation:  # a position the kit refuses: nothing for a batch to load
        assert case["expected"]["refused"]["at"] == -1
        return
    scalar = _start(case["position"])
    if scalar.game == "fly" and scalar.rules.revoke_mode == "penalize":  # the batch takes only its mask's ids
        with pytest.raises(InvalidRules, match="revoke_mode"):
            batch.from_scalar([scalar])
        return
    state = batch.from_scalar([scalar])
    engine = state.engine
    for action in _moves(case):
        try:
            after = scalar.apply(action)
        except RuleViolation as refusal:
            if state.terminated[0]:  # a game over ignores its actions in a batch, as pgx's do
                assert scalar.is_over
                return
            _refused_by_the_batch(engine, state, action, refusal.rule)
            return
        while True:
            assert list(np.flatnonzero(state.legal_action_mask[0])) == legal_ids(scalar, int(_marks(state)))
            state = engine.step(state, np.array([engine.scalar_to_action(state, 0, action)]))
            if engine.action_to_scalar(state, 0, 0) is not None or not _marks(state):
                break
        scalar = after
        assert batch.to_scalar(state, 0) == scalar
    assert bool(state.terminated[0]) == scalar.is_over


def _marks(state: Any) -> int:
    """The cards marked in game 0 (none in Fly)."""
    return int(state.marked[0]) if state.engine.game == "dreyfus" else 0


def _refused_by_the_batch(engine: Any, state: Any, action: Any, rule: str) -> None:
    """The batch refuses ``action`` somewhere in its ids: with ``rule``, or with no id for it at all."""
    for _ in range(13):
        try:
            action_id = engine.scalar_to_action(state, 0, action)
        except ValueError:
            return  # no id takes it: the ids cannot say it
        try:
            state = engine.step(state, np.array([action_id]))
        except RuleViolation as refusal:
            refused = refusal.rule
            break
    else:
        raise AssertionError(f"the batch took {action}, which the scalar engine refuses with {rule}")
    assert refused == rule
