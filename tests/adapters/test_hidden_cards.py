"""Property: what the adapters show a seat does not change when the cards hidden from it are permuted.

The hidden cards of a seat are the other seats' hands and the undrawn stock (Fly) or talon
(Dreyfus). Dealing them out again at random, each hand keeping its size, must leave the seat's
OpenSpiel observation string and tensor, its information-state string and tensor and, in PettingZoo, its
observation and action mask exactly as they were [FLY-5.1] [DRF-11.1].
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
import pyspiel
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import dreyfus, fly
from fly_rules._choices import bits
from fly_rules.adapters import openspiel  # noqa: F401 - registers the games
from fly_rules.adapters.pettingzoo import dreyfus_env, fly_env
from fly_rules.engine import Phase
from fly_rules.strategies import dreyfus_rules_options, fly_rules_options


def permute_hidden(deal: Any, seat: int, rng: random.Random) -> Any:
    """``deal`` with every card hidden from ``seat`` dealt out again at random, sizes kept."""
    if deal.game == "fly":
        hands, stock = list(deal.hand_masks), deal.exchanges.stock_indices
    else:
        hands, stock = list(deal.hand_masks), deal.table.talon[12 - deal.talon_left :]
        if deal.rules.reveal_leftover_talon and deal.phase is not Phase.EXCHANGE:
            stock = ()  # DRF-4.6: shown to all once the exchange is over, so not hidden
    others = [s for s in range(len(hands)) if s != seat]
    pool = [c for s in others for c in bits(hands[s])] + list(stock)
    rng.shuffle(pool)
    for s in others:
        size = hands[s].bit_count()
        hands[s] = sum(1 << c for c in pool[:size])
        pool = pool[size:]
    if deal.game == "fly":
        return deal.with_hidden(hand_masks=hands, stock=pool)
    talon = deal.table.talon[: 12 - len(stock)] + tuple(pool)
    return deal._replace(hand_masks=tuple(hands), table=attrs.evolve(deal.table, talon=talon))


def openspiel_seen(state: Any, seat: int) -> tuple[Any, ...]:
    """Everything the OpenSpiel adapter shows ``seat``."""
    legal = tuple(state.legal_actions()) if state.current_player() == seat else ()
    return (
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
        legal,
    )


def check_openspiel(game_string: str, seed: int, steps: int, shuffle: random.Random) -> None:
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while not state.is_terminal() and (state.deal is None or state.is_chance_node() or steps > 0):
        if state.is_chance_node():
            outcomes = [c for c, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps -= 1
    for seat in range(game.num_players()):
        before = openspiel_seen(state, seat)
        other = state.clone()
        other.deal = permute_hidden(state.deal, seat, shuffle)
        assert openspiel_seen(other, seat) == before


def check_pettingzoo(env: Any, seed: int, steps: int, shuffle: random.Random) -> None:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.match.is_over:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    for seat, agent in enumerate(env.possible_agents):
        before = env.observe(agent)
        original = env.match
        hidden = permute_hidden(original.deal, seat, shuffle)
        env.match = original._replace(deal=hidden)
        after = env.observe(agent)
        env.match = original
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])


@settings(max_examples=40)
@given(players=st.integers(3, 7), seed=st.integers(0, 2**31), steps=st.integers(0, 40), shuffle=st.randoms())
def test_fly_5_1_openspiel_observations_ignore_hidden_cards(
    players: int, seed: int, steps: int, shuffle: random.Random
) -> None:
    """FLY-5.1: OpenSpiel's strings and tensor of a Fly seat survive any permutation of its hidden cards."""
    check_openspiel(f"python_fly(players={players})", seed, steps, shuffle)


@settings(max_examples=25)
@given(
    mode=st.sampled_from(["batch", "incremental"]),
    reveal=st.booleans(),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 70),
    shuffle=st.randoms(),
)
def test_drf_11_1_openspiel_observations_ignore_hidden_cards(
    mode: str, reveal: bool, seed: int, steps: int, shuffle: random.Random
) -> None:
    """DRF-11.1: OpenSpiel's strings and tensor of a Dreyfus seat survive any permutation of its hidden cards."""
    options = f"exchange_mode={mode},reveal_discards={reveal},reveal_leftover_talon={reveal}"
    check_openspiel(f"python_dreyfus({options})", seed, steps, shuffle)


@settings(max_examples=40)
@given(rules=fly_rules_options(), seed=st.integers(0, 2**31), steps=st.integers(0, 40), shuffle=st.randoms())
def test_fly_5_1_pettingzoo_observations_ignore_hidden_cards(
    rules: fly.FlyRules, seed: int, steps: int, shuffle: random.Random
) -> None:
    """FLY-5.1: a Fly agent's observation and action mask survive any permutation of its hidden cards."""
    check_pettingzoo(fly_env(rules, max_deals=2), seed, steps, shuffle)


@settings(max_examples=25)
@given(rules=dreyfus_rules_options(), seed=st.integers(0, 2**31), steps=st.integers(0, 70), shuffle=st.randoms())
def test_drf_11_1_pettingzoo_observations_ignore_hidden_cards(
    rules: dreyfus.DreyfusRules, seed: int, steps: int, shuffle: random.Random
) -> None:
    """DRF-11.1: a Dreyfus agent's observation and action mask survive any permutation of its hidden cards."""
    check_pettingzoo(dreyfus_env(rules), seed, steps, shuffle)


def test_drf_11_1_the_permutation_does_change_the_hidden_hands() -> None:
    """DRF-11.1: the check has teeth: the permuted deal differs, and the other seats see the difference."""
    deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=4, dealer=0).deal
    other = permute_hidden(deal, 0, random.Random(1))
    assert other.hands[0] == deal.hands[0]
    assert other.hands != deal.hands
    assert other.view(1) != deal.view(1)
