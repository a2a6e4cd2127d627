"""The batch's rule-of-thumb player chooses, in every game at once, what the library's rule-of-thumb bot
chooses from the same view (issue 28)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from fly_rules import batch, dreyfus
from fly_rules.adapters.encoding import BotDriver
from tests.batch.differential import TRAJECTORIES, random_options, twins
from tests.batch.test_dreyfus_batch import DREYFUS_CHOICES
from tests.batch.test_fly_batch import random_fly_rules


def _rules(game: str, rng: random.Random) -> Any:
    if game == "fly":
        return random_fly_rules(rng)
    while True:
        try:
            return dreyfus.DreyfusRules(**random_options(rng, DREYFUS_CHOICES))
        except ValueError:
            continue


@pytest.mark.parametrize("game", ["fly", "dreyfus"])
def test_the_batch_rule_of_thumb_is_the_bot(game: str) -> None:
    """Under random options, in games played half by the rule of thumb and half at random (so that the
    marks it is asked about are not always its own), the batch's id in every game is the one the bot
    driven through the ids (:class:`~fly_rules.adapters.encoding.BotDriver`) gives for that game's
    scalar deal, marks and all [FLY-4.3] [DRF-4.3]."""
    rng = random.Random(7 if game == "fly" else 8)
    compared = 0
    while compared < TRAJECTORIES * 10:
        rules = _rules(game, rng)
        env = batch.make(game, 24, rules=rules, match=rng.random() < 0.3)
        seed = rng.randrange(1 << 20)
        state = env.init(seed)
        scalars = twins(env, seed)
        drivers = [BotDriver("rule-of-thumb", rules) for _ in scalars]
        generator = np.random.default_rng(seed)
        while not state.terminated.all():
            chosen = env.rule_of_thumb(state)
            for i, scalar in enumerate(scalars):
                if scalar.is_over:
                    continue
                marked = int(state.marked[i]) if game == "dreyfus" else 0
                assert chosen[i] == drivers[i].next_id(scalar.deal, marked), (i, scalar.deal, marked)
                compared += 1
            actions = np.where(generator.random(env.batch_size) < 0.5, chosen, env.sample_legal(state, generator))
            moves = [env.action_to_scalar(state, i, int(a)) for i, a in enumerate(actions)]
            state = env.step(state, actions)
            for i, move in enumerate(moves):
                if move is not None and not scalars[i].is_over:
                    scalars[i] = scalars[i].apply(move)
    assert compared >= TRAJECTORIES * 10


def test_the_rule_of_thumb_plays_whole_games() -> None:
    """Every seat played by the batch's rule of thumb: each id is legal, and the games end."""
    games: list[tuple[str, dict[str, Any]]] = [("fly", {"players": 5, "turnup_use": "dealer_swap"}), ("dreyfus", {})]
    for game, options in games:
        env = batch.make(game, 64, **options)
        state = env.init(3)
        while not state.terminated.all():
            chosen = env.rule_of_thumb(state)
            live = ~state.terminated
            assert state.legal_action_mask[live, chosen[live]].all()
            state = env.step_in_place(state, chosen)
