"""The fine-tuning recipe of "Train an agent" (``docs/how-to/fine_tune.py``), in seconds: its backward pass, a
few updates from the shipped network, frozen copies that later updates leave alone, and its fold count of the
expert. The page reports a full run."""

from __future__ import annotations

from typing import Any

import numpy as np

from fly_rules.adapters.gymnasium import OpponentPool, batch_env
from fly_rules.adapters.learned import LAYERS, Network, shipped_network
from tests.conformance.conftest import load_script

SCRIPT: Any = load_script("docs/how-to/fine_tune")


def test_the_agents_backward_pass_matches_finite_differences() -> None:
    """Every gradient of ``Agent.backward`` (the hint's one-hot row included) agrees with central differences of a
    loss linear in the logits and the values."""
    rng = np.random.default_rng(1)
    shapes = {"w0": (7 + 4, 5), "b0": (5,), "w1": (5, 3), "b1": (3,), "wp": (3, 4), "bp": (4,), "wv": (3, 1)}
    arrays = {name: rng.standard_normal(shape) for name, shape in shapes.items()} | {"bv": np.array([0.2])}
    agent = SCRIPT.Agent(Network(arrays, {"observation_size": 7, "actions": 4, "thumb": True, "value_scale": 1.0}))
    agent.params = [p.astype(np.float64) for p in agent.params]
    obs, hints = rng.random((6, 7)), rng.integers(0, 4, 6)
    by_logit, by_value = rng.standard_normal((6, 4)), rng.standard_normal(6)

    def loss() -> float:
        logits, values, _ = agent.forward(obs, hints)
        return float((logits * by_logit).sum() + (values * by_value).sum())

    grads = agent.backward(agent.forward(obs, hints)[2], by_logit, by_value)
    for layer, grad in zip(agent.params, grads, strict=True):
        numeric = np.zeros_like(layer)
        for index in np.ndindex(layer.shape):
            saved = layer[index]
            layer[index] = saved + 1e-6
            up = loss()
            layer[index] = saved - 1e-6
            numeric[index] = (up - loss()) / 2e-6
            layer[index] = saved
        np.testing.assert_allclose(grad, numeric, rtol=1e-4, atol=1e-6)


def test_learn_moves_the_weights_and_a_frozen_copy_stays_as_it_was() -> None:
    """A few updates change the distilled network's weights; ``frozen()`` after them is a network later updates do
    not reach, which plays as an opponent in the vector environment and in the paired comparison; the pool holds
    the rule of thumb, the learned bot and the snapshots."""
    start = shipped_network(SCRIPT.RULES)
    agent = SCRIPT.Agent(start)
    pool = SCRIPT.learn(agent, 5.0, num_envs=32, steps=4, snapshot_every=2, most_updates=4, log=lambda line: None)
    assert pool.policies[:2] == ["rule-of-thumb", "learned"]
    assert len(pool.policies) == 4  # two snapshots
    assert all(isinstance(policy, Network) for policy in pool.policies[2:])
    moved = agent.frozen()
    assert any(not np.array_equal(a, b) for a, b in zip(moved.layers, start.layers, strict=True))
    kept = [layer.copy() for layer in moved.layers]
    SCRIPT.learn(agent, 5.0, num_envs=32, steps=4, most_updates=2, log=lambda line: None)
    assert all(np.array_equal(a, b) for a, b in zip(moved.layers, kept, strict=True))
    assert any(not np.array_equal(a, b) for a, b in zip(agent.frozen().layers, kept, strict=True))
    assert len(moved.layers) == len(LAYERS)
    envs = batch_env(16, "fly", 4, opponents=OpponentPool([moved]), autoreset_mode="same_step")
    observation, _ = envs.reset(seed=2)
    for _ in range(12):
        observation, *_ = envs.step(np.argmax(observation["action_mask"], axis=1))
    report = SCRIPT.train_agent.compare(moved, deals=24, seed=3)
    low, high = report["interval"]
    assert low <= report["difference"] <= high


def test_the_expert_folds_where_it_may_on_the_same_deals() -> None:
    """The expert's fold count is over the deals where seat 0 may fold, as the rule of thumb's is in the paired
    comparison of the same deals."""
    folded, could = SCRIPT.expert_folds(deals=6, seed=4)
    theirs = SCRIPT.train_agent.paired_results(None, deals=6, seed=4)
    assert could == SCRIPT.train_agent.folds(theirs)[1]
    assert 0 <= folded <= could


def test_the_teacher_keeps_its_odds_of_folding_and_ppo_learns_only_how_to_play_on() -> None:
    """The cloning targets keep the distilled network's probability of folding (sharpening the ways to play on
    alone), and PPO's policy gradient leaves the fold's logit alone: on a row where the agent stood it moves only
    the other ids' logits, on a row where it folded nothing but the value."""
    start = shipped_network(SCRIPT.RULES)
    agent = SCRIPT.Agent(start)
    envs = batch_env(64, "fly", 4, seat=0, opponents="rule-of-thumb", relative_seats=True)
    observation, _ = envs.reset(seed=7)
    obs, mask = observation["observation"], observation["action_mask"] == 1
    hints = np.maximum(envs.engine.thumb_hint(envs.state), 0)
    rows = np.flatnonzero(mask[:, SCRIPT.FOLD])[:4]
    assert len(rows) == 4
    obs, mask, hints = obs[rows], mask[rows], hints[rows]
    logits = agent.forward(obs, hints)[0]
    taught = SCRIPT.teacher_targets(logits, mask)
    np.testing.assert_allclose(taught.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(taught[:, SCRIPT.FOLD], SCRIPT.softmax(logits, mask)[0][:, SCRIPT.FOLD], rtol=1e-5)
    assert not (taught[~mask] != 0).any()
    for action, policy_moves in ((np.zeros(4, np.int64), True), (np.full(4, SCRIPT.FOLD), False)):
        batch = {"obs": obs, "hints": hints, "mask": mask, "action": action, "logp": np.zeros(4), "teacher": taught}
        grads = SCRIPT.gradients(agent, batch, np.array([1.0, -1.0, 0.5, 2.0]), np.zeros(4), 0.0, 0.0)
        bias = grads[5]  # the policy head's bias: the sum of the rows' gradients by each logit
        assert bias[SCRIPT.FOLD] == 0.0
        assert bool(np.abs(bias).sum() > 0) == policy_moves
