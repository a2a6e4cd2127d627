"""scripts/train_learned.py: its backward pass is the loss's gradient, and it learns the expert's choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fly_rules.adapters.learned import LAYERS, LearnedBot, Network
from fly_rules.fly import FlyRules
from tests.conformance.conftest import load_script

TRAIN: Any = load_script("scripts/train_learned")
DATASET: Any = load_script("scripts/expert_dataset")


def test_the_backward_pass_matches_finite_differences() -> None:
    """Every gradient of :func:`loss_and_grads` agrees with the loss's central differences, weight by weight."""
    rng = np.random.default_rng(3)
    params = [p.astype(np.float64) for p in TRAIN.initial(7, 5, 4, rng)]
    params = [p + 0.1 * rng.standard_normal(p.shape) for p in params]  # biases off zero, the heads not tiny
    obs = rng.random((6, 7))
    mask = rng.random((6, 4)) < 0.7
    mask[np.arange(6), rng.integers(0, 4, 6)] = True
    action = np.array([int(rng.choice(np.flatnonzero(row))) for row in mask])
    target = rng.standard_normal(6)
    _, grads, _ = TRAIN.loss_and_grads(params, obs, mask, action, target, 0.5)
    step = 1e-6
    for layer, grad in zip(params, grads, strict=True):
        numeric = np.zeros_like(layer)
        for index in np.ndindex(layer.shape):
            saved = layer[index]
            layer[index] = saved + step
            up = TRAIN.loss_and_grads(params, obs, mask, action, target, 0.5)[0]
            layer[index] = saved - step
            down = TRAIN.loss_and_grads(params, obs, mask, action, target, 0.5)[0]
            layer[index] = saved
            numeric[index] = (up - down) / (2 * step)
        np.testing.assert_allclose(grad, numeric, rtol=1e-3, atol=1e-6)


@pytest.fixture(scope="module")
def chunks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two chunks of the expert's Fly decisions (few guesses a decision: quick)."""
    folder = tmp_path_factory.mktemp("chunks")
    run = DATASET.Run("fly", 4, "train-test", "all", 2, 2)
    for index in range(2):
        DATASET.make_chunk(run, index, folder)
    return folder


def test_training_learns_the_expert_choices_and_writes_a_network_the_bot_plays(chunks: Path, tmp_path: Path) -> None:
    """Trained long on a few deals, the network agrees with nearly every choice it saw; the file it writes is a
    :class:`Network` the learned bot plays, and records the command, the seed and what it was trained on."""
    out = tmp_path / "fly4.npz"
    argv = ["--game", "fly", "--data", str(chunks), "--out", str(out), "--epochs", "60", "--holdout", "0"]
    argv += ["--hidden", "32", "--batch", "16", "--lr", "0.003"]
    meta = TRAIN.main(argv)
    assert meta["training"]["training_agreement"] > 0.9
    assert meta["training"]["held_out_agreement"] is None
    assert meta["trained_on"]["chunks"] == 2
    assert meta["training"]["command"] == "python scripts/train_learned.py " + " ".join(argv)
    network = Network.load(out)
    assert network.meta == meta
    rows = TRAIN.load_rows(chunks, "fly", 4)
    assert meta["trained_on"]["rows"] == len(rows["action"])
    logits, _ = network.forward(rows["obs"])
    chosen = np.argmax(np.where(rows["mask"], logits, -np.inf), axis=1)
    assert np.mean(chosen == rows["action"]) > 0.85  # the half-precision file plays as trained
    assert LearnedBot(FlyRules(players=4), network).network is network


def test_the_same_seed_gives_the_same_weights(chunks: Path, tmp_path: Path) -> None:
    """Two trainings with one seed write the same weights; another seed, others."""
    common = ["--game", "fly", "--data", str(chunks), "--epochs", "3", "--hidden", "16", "--holdout", "2"]
    layers = []
    for name, seed in (("a", "1"), ("b", "1"), ("c", "2")):
        TRAIN.main([*common, "--seed", seed, "--out", str(tmp_path / f"{name}.npz")])
        layers.append(Network.load(tmp_path / f"{name}.npz").layers)
    assert all(np.array_equal(x, y) for x, y in zip(layers[0], layers[1], strict=True))
    assert not np.array_equal(layers[0][0], layers[2][0])
    assert len(layers[0]) == len(LAYERS)


def test_bad_arguments_and_missing_chunks_are_named(tmp_path: Path) -> None:
    """No chunk in the folder, or a zero size: the error says which."""
    with pytest.raises(SystemExit, match="no chunk of fly with 4 players"):
        TRAIN.main(["--game", "fly", "--data", str(tmp_path)])
    with pytest.raises(SystemExit, match="--hidden, --epochs and --batch must be at least 1"):
        TRAIN.main(["--game", "fly", "--data", str(tmp_path), "--epochs", "0"])
