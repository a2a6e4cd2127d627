"""scripts/train_learned.py: its backward pass is the loss's gradient, and it learns the expert's choices."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fly_rules import dreyfus, fly, registry
from fly_rules.adapters.encoding import action_space, legal_mask, observation_size, write_observation
from fly_rules.adapters.learned import LAYERS, LearnedBot, Network
from fly_rules.bots import RuleOfThumbBot
from fly_rules.bots.paired import seat_under_test
from fly_rules.cards import ALL_CARDS, Card, Suit
from fly_rules.engine import Phase
from fly_rules.fly import FlyRules
from fly_rules.notation.games import deal_of
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
    soft = rng.random((6, 4)) * mask
    soft *= 0.7 / soft.sum(axis=1, keepdims=True)  # the expert's values as targets, of weight 0.7
    _, grads, _ = TRAIN.loss_and_grads(params, obs, mask, action, target, 0.5, soft)
    step = 1e-6
    for layer, grad in zip(params, grads, strict=True):
        numeric = np.zeros_like(layer)
        for index in np.ndindex(layer.shape):
            saved = layer[index]
            layer[index] = saved + step
            up = TRAIN.loss_and_grads(params, obs, mask, action, target, 0.5, soft)[0]
            layer[index] = saved - step
            down = TRAIN.loss_and_grads(params, obs, mask, action, target, 0.5, soft)[0]
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
    logits, _ = network.forward(TRAIN.inputs_of(rows))
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


def test_chunks_limits_the_training_to_the_runs_first_chunks(chunks: Path, tmp_path: Path) -> None:
    """``--chunks 1`` trains on chunk 0 alone, whatever else the folder holds: a training repeatable mid-run."""
    argv = ["--game", "fly", "--data", str(chunks), "--chunks", "1", "--epochs", "1", "--hidden", "8"]
    meta = TRAIN.main([*argv, "--out", str(tmp_path / "one.npz")])
    (first, _) = sorted(chunks.glob("*.npz"))
    assert meta["trained_on"]["chunks"] == 1
    assert meta["trained_on"]["rows"] == len(DATASET.read_chunk(first)["action"])


def test_bad_arguments_and_missing_chunks_are_named(tmp_path: Path) -> None:
    """No chunk in the folder, or a zero size: the error says which."""
    with pytest.raises(SystemExit, match="no chunk of fly with 4 players"):
        TRAIN.main(["--game", "fly", "--data", str(tmp_path)])
    with pytest.raises(SystemExit, match="--hidden, --epochs and --batch must be at least 1"):
        TRAIN.main(["--game", "fly", "--data", str(tmp_path), "--epochs", "0"])


def _relabelled_start(deal: Any, moved: Any) -> Any:
    """The deal as dealt with every card relabelled (and Dreyfus's contract with it)."""

    def cards(given: Any) -> list[Card]:
        return [ALL_CARDS[int(moved[card.index])] for card in given]

    if deal.game == "fly":
        return fly.new_deal(
            deal.rules,
            hands=[cards(hand) for hand in deal.hands],
            trump_card=ALL_CARDS[int(moved[deal.trump_card.index])],
            stock=cards(deal.stock),
            dealer=deal.dealer,
        )
    contract = None if deal.contract is None else Suit(int(moved[13 * int(deal.contract)]) // 13)
    talon = [ALL_CARDS[int(moved[c])] for c in deal.table.talon]
    return dreyfus.new_deal(deal.rules, [cards(hand) for hand in deal.hands], talon, contract, deal.dealer)


@pytest.mark.parametrize(("game", "relabel"), [("fly", (1, 2, 0, 3)), ("dreyfus", (3, 0, 2, 1))])
def test_relabelled_rows_are_the_rows_of_the_deal_with_its_suits_renamed(
    tmp_path: Path, game: str, relabel: tuple[int, ...]
) -> None:
    """FLY-5.1, DRF-11.1: each relabelled row is the encoder's observation and legal mask at the same point of the
    deal dealt with the suits renamed and played with the renamed actions, and its id that of the renamed action."""
    run = DATASET.Run(game, None, "relabel", "one", 1, 2)
    DATASET.make_chunk(run, 0, tmp_path)
    chunk = DATASET.read_chunk(next(tmp_path.glob("*.npz")))
    rules = registry.get(game).make_rules("default", None, {})
    space = action_space(game)
    rows = {key: chunk[key] for key in TRAIN.ROW_KEYS if key in chunk}
    rows["hint"] = DATASET.thumb_ids(chunk)
    out = TRAIN.relabelled(rows, rules, relabel)
    moved = np.array([relabel[c // 13] * 13 + c % 13 for c in range(52)])
    deal = deal_of(registry.game_of(rules).new_match(rules, seed="relabel:0", dealer=0))
    renamed = _relabelled_start(deal, moved)
    recorded, kept = iter(range(len(chunk["action"]))), iter(range(len(out["action"])))
    others, rngs = RuleOfThumbBot(), [random.Random(f"relabel:0:{seat}") for seat in range(rules.players)]
    marked = checked = 0
    while not deal.is_over:
        if deal.to_move != seat_under_test(0, rules.players):  # a rule-of-thumb seat, as the run played it
            action = others.choose(deal.view(deal.to_move), deal.legal_actions(), rngs[deal.to_move])
            deal, renamed = deal.apply(action), renamed.apply(TRAIN._relabel_action(action, moved))
            continue
        mask = legal_mask(deal, marked)
        if mask.sum() == 1:
            action_id = int(np.flatnonzero(mask)[0])
        else:
            row = next(recorded)
            action_id = int(chunk["action"][row])
            if not space.marks or deal.phase is Phase.PLAY:
                k = next(kept)
                expected = np.zeros(observation_size(rules), np.float32)
                write_observation(renamed.view(renamed.to_move), 0, rules, expected, relative=True)
                assert np.array_equal(out["obs"][k], expected)
                assert np.array_equal(out["mask"][k], legal_mask(renamed))
                action = TRAIN._relabel_action(space.action_of(deal.hand_masks[deal.to_move], action_id), moved)
                assert out["action"][k] == space.id_of(renamed.hand_masks[renamed.to_move], action)
                checked += 1
        meaning = space.meaning(deal, marked, action_id)
        if meaning.kind == "mark":
            marked = meaning.cards
            continue
        deal, marked = deal.apply(meaning.action), 0
        renamed = renamed.apply(TRAIN._relabel_action(meaning.action, moved))
    assert checked == len(out["action"]) > 0
    assert next(kept, None) is None
