"""The learned bot for every game of the batch engine at once, and as the vector environment's opponents; its
plain-Python forward pass (the browser table's, without NumPy)."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from fly_rules import batch, registry
from fly_rules.adapters.encoding import action_space
from fly_rules.adapters.gymnasium import OpponentPool, batch_env
from fly_rules.adapters.learned import LearnedBot, Network, PlainNetwork, batch_ids, shipped_network, weights_file
from fly_rules.notation.games import deal_of

SHIPPED = [("fly", 4), ("dreyfus", 3)]


def _rules(game: str, players: int) -> Any:
    return registry.get(game).make_rules("default", players, {})


@pytest.mark.parametrize(("game", "players"), SHIPPED)
def test_fly_5_1_the_batch_plays_the_learned_bots_choices_from_the_same_views(game: str, players: int) -> None:
    """FLY-5.1, DRF-4.3: every seat of 24 games played by :func:`batch_ids` makes, id by id, the choice the scalar
    :class:`LearnedBot` makes from that seat's view (Dreyfus: its exchange marked card by card)."""
    rules = _rules(game, players)
    engine = batch.make(game, 24, rules=rules)
    state = engine.init(f"learned-batch-{game}")
    bot, space = LearnedBot(rules), action_space(game)
    plans: dict[int, list[int]] = {}
    checked = 0
    while not state.terminated.all():
        live = ~state.terminated
        ids = np.zeros(engine.batch_size, np.int64)
        ids[live] = batch_ids(None, engine, state, np.maximum(state.current_player, 0), live)
        for game_index in map(int, np.flatnonzero(live)):
            if not plans.get(game_index):
                deal = deal_of(engine.to_scalar(state, game_index))
                action = bot.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0))
                plans[game_index] = list(space.ids(deal, action, 0))
            assert ids[game_index] == plans[game_index].pop(0), f"game {game_index}"
            checked += 1
        engine.step_in_place(state, ids, games=live)
    assert checked > 24 * 5


@pytest.mark.parametrize(("game", "players"), SHIPPED)
def test_the_vector_env_takes_learned_opponents_and_networks(game: str, players: int) -> None:
    """``opponents="learned"`` plays the shipped network in every other seat; a :class:`Network` (a frozen copy of
    one being trained) in a pool plays too; the games end with the learner's results."""
    network = shipped_network(_rules(game, players))
    assert isinstance(network, Network)
    frozen = network.copy()
    frozen.layers[-2][:] = 0.0  # the copy's own weights: the original's stay
    assert network.layers[-2].any()
    for opponents in ("learned", OpponentPool(["learned", frozen])):
        envs = batch_env(64, game, players, opponents=opponents, autoreset_mode="same_step")
        observation, _ = envs.reset(seed=1)
        finished = 0
        for _ in range(40):
            mask = observation["action_mask"] == 1
            observation, _, terminated, _, _ = envs.step(np.argmax(mask, axis=1))
            finished += int(terminated.sum())
        assert finished >= 64
    with pytest.raises(ValueError, match="a learned Network"):
        OpponentPool([network.layers[0]])  # type: ignore[list-item]


@pytest.mark.parametrize(("game", "players"), SHIPPED)
def test_the_plain_forward_pass_chooses_as_numpy(game: str, players: int) -> None:
    """Read without NumPy from the shipped file, the network makes the NumPy network's choice at each of a deal's
    decisions, every seat."""
    rules = _rules(game, players)
    plain = PlainNetwork(weights_file(game, players))
    numpy_bot, plain_bot = LearnedBot(rules), LearnedBot(rules, plain)
    assert plain.meta == numpy_bot.network.meta
    decisions = 0
    for seed in range(6):
        deal = deal_of(registry.game_of(rules).new_match(rules, seed=seed, dealer=seed % players))
        while not deal.is_over:
            view, legal = deal.view(deal.to_move), deal.legal_actions()
            action = numpy_bot.choose(view, legal, random.Random(0))
            if len(legal) > 1:
                assert plain_bot.choose(view, legal, random.Random(0)) == action
                decisions += 1
            deal = deal.apply(action)
    assert decisions > 20


def test_a_file_that_is_no_network_is_refused_by_the_plain_reader(tmp_path: Any) -> None:
    """A weights file without a layer, or not a zip of ``.npy`` arrays: a ValueError naming what is wrong."""
    network = shipped_network(_rules("fly", 4))
    assert isinstance(network, Network)
    path = tmp_path / "short.npz"
    with path.open("wb") as handle:
        np.savez(handle, meta=np.array("{}"), w0=network.layers[0])
    with pytest.raises(ValueError, match="short.npz: the network has no b0"):
        PlainNetwork(path)


@pytest.mark.parametrize(("game", "players"), SHIPPED)
def test_observe_of_some_games_gives_their_rows_of_every_games_observation(game: str, players: int) -> None:
    """``observe(..., games=mask)`` builds only the games of the mask: their rows of the whole batch's observation;
    a mask that is not one bool per game is refused."""
    engine = batch.make(game, 16, rules=_rules(game, players))
    state = engine.init("observe-some")
    rng = np.random.default_rng(0)
    for _ in range(12):
        games = rng.random(16) < 0.4
        seats = rng.integers(0, players, 16)
        for relative in (False, True):
            every = engine.observe(state, seats, relative=relative)
            np.testing.assert_array_equal(engine.observe(state, seats, relative=relative, games=games), every[games])
        if state.terminated.all():
            break
        state = engine.step(state, engine.sample_legal(state, rng))
    with pytest.raises(ValueError, match="games must be 16 booleans"):
        engine.observe(state, 0, games=[True])


def test_without_numpy_the_learned_bot_plays_its_network_in_plain_python() -> None:
    """Where NumPy cannot be imported (the browser table's Pyodide), ``make_bot("learned")`` still plays the shipped
    network, read into lists: the choices of the NumPy bot on the same deal."""
    script = """
import random, sys
sys.modules["numpy"] = None  # import numpy now fails, as in Pyodide
from fly_rules import fly
from fly_rules.bots import make_bot
rules = fly.FlyRules(players=4)
bot = make_bot("learned", rules)
deal = fly.new_match(rules, seed=3, dealer=0).deal
chosen = []
while not deal.is_over:
    action = bot.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0))
    chosen.append(repr(action))
    deal = deal.apply(action)
print(type(bot.network).__name__, "numpy" in sys.modules and sys.modules["numpy"] is not None)
print(chr(10).join(chosen))
"""
    told = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split("\n")
    assert told[0] == "PlainNetwork False"
    rules = _rules("fly", 4)
    bot = LearnedBot(rules)
    deal = deal_of(registry.game_of(rules).new_match(rules, seed=3, dealer=0))
    for shown in told[1:-1]:
        action = bot.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0))
        assert repr(action) == shown
        deal = deal.apply(action)
    assert deal.is_over
