"""Bad input to the batch engine gets the library's own error, naming what was wrong, at once; a batch game
saves as a history (issues 28 and 31)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fly_rules import batch, fly
from fly_rules.errors import InvalidRules, RuleViolation
from fly_rules.notation import dump_history, load_history


@pytest.mark.parametrize("index", [True, 1.0, None, "0", np.float32(1)])
def test_to_scalar_takes_an_int_index(index: Any) -> None:
    """A game's index is an int (a NumPy integer too), never a bool, a float, None or text."""
    state = batch.make("fly", 2).init(1)
    with pytest.raises(TypeError, match="a game's index is an int"):
        batch.to_scalar(state, index)
    assert batch.to_scalar(state, np.int64(1)) == batch.to_scalar(state, 1)
    with pytest.raises(IndexError, match="game 2 is not in a batch of 2"):
        batch.to_scalar(state, 2)
    with pytest.raises(TypeError, match="a batch's state"):
        batch.to_scalar("state", 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("states", [[1, 2], "ab", [None], 5, [fly.FlyRules()]])
def test_from_scalar_takes_scalar_states(states: Any) -> None:
    """``from_scalar`` takes a sequence of scalar deals or matches; anything else is a ``TypeError`` naming it."""
    with pytest.raises(TypeError, match="scalar deals or matches|not a scalar deal or match"):
        batch.from_scalar(states)


def test_from_scalar_refuses_mixed_or_begun_states() -> None:
    """Matches and deals are not mixed; games of another rules set are refused by name."""
    match = fly.new_match(fly.FlyRules(players=3), seed=1)
    with pytest.raises(ValueError, match="not both"):
        batch.from_scalar([match, match.deal])
    with pytest.raises(ValueError, match="not a game of Fly under this batch's rules"):
        batch.from_scalar([match, fly.new_match(fly.FlyRules(players=4), seed=1)])
    with pytest.raises(ValueError, match="at least one"):
        batch.from_scalar([])


def test_the_engines_refuse_bad_arguments_by_name() -> None:
    """``sample_legal`` needs a NumPy generator; ``make`` a rules object of the game and known options; ``init``
    a seed the formats can carry (REC-1.5, at once, as the scalar engine refuses it); the seat a dealer."""
    env = batch.make("fly", 2)
    state = env.init(1)
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        env.sample_legal(state, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Fly needs FlyRules, not 5"):
        batch.make("fly", rules=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Dreyfus needs DreyfusRules"):
        batch.make("dreyfus", rules=fly.FlyRules())
    with pytest.raises(InvalidRules, match="bogus: is not an option of FlyRules"):
        batch.make("fly", bogus=1)
    with pytest.raises(ValueError, match="not both"):
        batch.make("fly", rules=fly.FlyRules(), preset="mouche_1718")
    with pytest.raises(RuleViolation, match="REC-1.5"):
        env.init(seed=10**5000)
    with pytest.raises(TypeError, match="a seed must be an int or a str"):
        env.init(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match="FLY-1.2"):
        env.init(seed=1, dealer=4)
    with pytest.raises(ValueError, match="batch_size must be a whole number"):
        batch.make("fly", 0)
    with pytest.raises(ValueError, match="actions must be 2 integers"):
        env.step(state, np.array([0.5, 1.5]))
    with pytest.raises(ValueError, match="games must be 2 booleans"):
        env.step_in_place(state, np.zeros(2, int), games=np.array([1, 0]))
    with pytest.raises(TypeError, match="not a state of this batch engine"):
        batch.make("fly", 2).step(state, np.zeros(2, int))
    with pytest.raises(ValueError, match="restart: 1 games but 2 seeds"):
        env.restart(state, [0], ["a", "b"])


@pytest.mark.parametrize(("game", "match"), [("fly", False), ("fly", True), ("dreyfus", False), ("dreyfus", True)])
def test_a_batch_game_saves_as_a_history(game: str, match: bool) -> None:
    """``dump_history(to_scalar(state, i))`` saves game ``i`` (a match of one deal in a batch of single
    deals, a whole match otherwise), and the history loads back to it [REC-2.2]."""
    env = batch.make(game, 4, match=match, max_deals=3)
    state = env.init(9)
    rng = np.random.default_rng(2)
    for _ in range(70):
        state = env.step(state, env.sample_legal(state, rng))
    for i in range(4):
        scalar = batch.to_scalar(state, i)
        assert load_history(dump_history(scalar)) == scalar


def test_step_returns_a_new_state_and_step_in_place_writes_into_it() -> None:
    """pgx's semantics: ``step`` leaves the state it is given as it was; ``step_in_place`` changes it and
    returns it; a game over ignores its action."""
    env = batch.make("dreyfus", 3)
    first = env.init(4)
    kept = {name: array.copy() for name, array in first.arrays().items() if array.dtype != object}
    second = env.step(first, env.sample_legal(first, np.random.default_rng(0)))
    assert second is not first
    assert all(np.array_equal(first.arrays()[name], array) for name, array in kept.items())
    third = env.step_in_place(second, env.sample_legal(second, np.random.default_rng(1)))
    assert third is second
    assert (second.log_len == 2).all()


def test_restart_takes_one_game_as_an_int() -> None:
    """``restart(state, 2, seeds)`` restarts game 2 as ``restart(state, [2], seeds)`` does, and no other."""
    env = batch.make("fly", 3)
    one, listed = env.init(1), env.init(1)
    before = one.hands.copy()
    env.restart(one, 2, ["x"])
    env.restart(listed, [2], ["x"])
    for name, array in one.arrays().items():
        assert np.array_equal(array, listed.arrays()[name]), name
    assert np.array_equal(one.hands[:2], before[:2])
    assert not np.array_equal(one.hands[2], before[2])
