"""The PettingZoo adapter passes PettingZoo's own API and seeding tests."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from fly_rules import dreyfus, fly
from fly_rules.adapters.encoding import STAND, action_ids
from fly_rules.adapters.pettingzoo import CardGameEnv, dreyfus_env, dreyfus_v0, engine_policy, fly_env, fly_v0
from fly_rules.cards import CardSet
from fly_rules.errors import InvalidRules

MAKERS: dict[str, Callable[[], CardGameEnv]] = {
    "fly-3": lambda: fly_env(fly.FlyRules(players=3)),
    "fly-4-match": lambda: fly_env(max_deals=3),
    "fly-mouche-7": lambda: fly_env(fly.FlyRules.preset("mouche_1718", players=7, may_fold_after_exchange=True)),
    "fly-refill": lambda: fly_env(fly.FlyRules(players=6, stock_exhaustion="folded_hands")),
    "dreyfus": dreyfus_env,
    "dreyfus-incremental": lambda: dreyfus_env(dreyfus.DreyfusRules(exchange_mode="incremental"), max_deals=2),
    "fly_v0-5": lambda: fly_v0.env(num_players=5),
    "dreyfus_v0": dreyfus_v0.env,
}
CLASSIC: dict[str, Callable[..., object]] = {
    "fly_v0-5": functools.partial(fly_v0.env, num_players=5),
    "dreyfus_v0": dreyfus_v0.env,
}


@pytest.fixture
def pettingzoo_recommendations() -> Iterator[None]:
    """api_test warns that Dict observations are unusual unless the env is one of PettingZoo's own by
    name (its list holds chess_v6, leduc_holdem_v4…); the Dict with an action mask is the documented
    convention of its classic games, so only those two name-keyed recommendations are silenced."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.usefixtures("pettingzoo_recommendations")
@pytest.mark.parametrize("name", MAKERS)
def test_api_test(name: str) -> None:
    """pettingzoo.test.api_test: spaces, last(), rewards, terminations, action masks, dead steps."""
    api_test(MAKERS[name](), num_cycles=400)


@pytest.mark.parametrize("name", MAKERS)
def test_seed_test(name: str) -> None:
    """pettingzoo.test.seed_test: two environments reset with the same seed play identically."""
    seed_test(MAKERS[name], num_cycles=400)


def play(env: CardGameEnv, seed: int) -> list[float]:
    """Play one episode with seeded random legal actions; the total reward of each agent."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        action = None
        if not (termination or truncation):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    return list(totals.values())


def test_fly_8_2_rewards_add_up_to_the_records_written_off() -> None:
    """FLY-8.2, FLY-8.4: each seat's rewards over a one-deal episode are its start record minus its end record."""
    env = fly_env(fly.FlyRules(players=4))
    env.reset(seed=11)
    totals = play(env, 0)
    assert totals == [25.0 - r for r in env.match.records]


def test_drf_7_2_rewards_add_up_to_points_below_minus_points_above() -> None:
    """DRF-7.2, DRF-7.3, DRF-4.5: each seat's rewards sum to its lower record minus its upper record."""
    env = dreyfus_env()
    env.reset(seed=3)
    totals = play(env, 1)
    assert totals == [float(lo - up) for up, lo in zip(env.match.upper, env.match.lower, strict=True)]


def test_fly_2_1_the_seed_fixes_the_match() -> None:
    """FLY-2.1: reset(seed=s) plays the engine match of seed s; reset() goes on to a new seed."""
    env = fly_env(fly.FlyRules(players=3))
    env.reset(seed=5)
    assert env.match == fly.new_match(fly.FlyRules(players=3, max_deals=1), seed=5)
    env.reset()
    first = env.match.seed
    env.reset(seed=5)
    env.reset()
    assert env.match.seed == first


def test_drf_4_3_marks_then_stand_exchange_the_marked_cards() -> None:
    """DRF-4.3: marking two cards then STAND applies the Exchange of those two; the mask follows the marks."""
    env = dreyfus_env(dreyfus.DreyfusRules())
    env.reset(seed=2)
    agent = env.agent_selection
    seat = env.match.to_move
    eligible = [c.index for c in CardSet(env.match.deal.discardable_mask)]
    env.step(eligible[0])
    mask = env.observe(agent)["action_mask"]
    assert mask[STAND]
    assert not mask[eligible[0]]
    assert mask[eligible[1]]
    assert not env.observe(env.possible_agents[(seat + 1) % 3])["action_mask"].any()
    env.step(eligible[1])
    env.step(STAND)
    assert env.match.deal.view(seat).bought[seat] == 2
    with pytest.raises(ValueError, match="not legal"):
        env.step(eligible[0])


def test_fly_4_3_an_exchange_is_one_id() -> None:
    """FLY-4.3: in Fly one id exchanges the cards at its hand positions; the next seat is then to move."""
    env = fly_env(fly.FlyRules(players=3))
    env.reset(seed=2)
    seat = env.match.to_move
    two = fly.Exchange(CardSet.of(list(env.match.deal.hands[seat])[:2]))
    (exchange,) = action_ids(env.match.deal, two)
    assert env.observe(env.agent_selection)["action_mask"][exchange]
    env.step(exchange)
    assert env.match.deal.view(seat).declarations[seat][0].count == 2
    assert env.match.to_move != seat


def test_max_cycles_truncates_and_render_shows_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """max_cycles truncates every agent; render() is text ("ansi" returns it, "human" prints it)."""
    env = fly_env(fly.FlyRules(players=3), max_cycles=2, render_mode="human")
    assert env.render() is None
    env.reset(seed=1)
    for _ in range(2):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values())
    assert "player_2:" in capsys.readouterr().out
    ansi = dreyfus_env(render_mode="ansi")
    ansi.reset(seed=1)
    assert "contract" in str(ansi.render())
    assert str(ansi) == "dreyfus_v0"
    with pytest.raises(ValueError, match="render_mode"):
        fly_env(render_mode="svg")


@pytest.mark.parametrize("name", CLASSIC)
def test_render_test(name: str) -> None:
    """pettingzoo.test.render_test: "ansi" gives text, "human" prints and gives None, "rgb_array" an image."""
    render_test(CLASSIC[name])


def tiles(image: np.ndarray, row: int) -> int:
    """How many white card tiles cross pixel row ``row`` (a tile's top row is plain white)."""
    white = np.all(image[row] == (250, 250, 245), axis=1)
    return int(white[0]) + int(np.sum(white[1:] & ~white[:-1]))


def test_rgb_array_draws_every_card_of_the_table() -> None:
    """One white tile per card in each seat's row (rows 20 pixels high, scaled by 3), the trick below."""
    env = fly_v0.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    while env.unwrapped.match.deal.phase is not fly.Phase.PLAY or not env.unwrapped.match.deal.trick_cards:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    image = env.render()
    assert image.dtype == np.uint8
    assert image.shape[2] == 3
    deal = env.unwrapped.match.deal
    assert [tiles(image, 3 * (2 + 20 * seat)) for seat in range(3)] == [len(hand) for hand in deal.hands]
    assert tiles(image, 3 * (2 + 20 * 3)) == len(deal.trick_cards)
    five = fly_v0.env(num_players=5, render_mode="rgb_array")
    five.reset(seed=4)
    assert five.render().shape[0] == image.shape[0] + 2 * 60


def test_classic_modules_take_num_players_and_rules_options() -> None:
    """fly_v0.env(num_players=…, preset=…, option=…) and dreyfus_v0.env(option=…) build those rules,
    wrapped like PettingZoo's classic games; fly_env/dreyfus_env are the raw constructors."""
    env = fly_v0.env(num_players=5, preset="mouche_1718", max_exchange=3)
    assert env.unwrapped.rules == fly.FlyRules.preset("mouche_1718", players=5, max_exchange=3, max_deals=1)
    assert env.unwrapped is not env
    assert fly_v0.raw_env(num_players=6).rules == fly.FlyRules(players=6, max_deals=1)
    assert fly_env(fly.FlyRules(players=3)).rules == fly_v0.raw_env(num_players=3).rules
    assert dreyfus_v0.raw_env(exchange_mode="incremental").rules == dreyfus.DreyfusRules(
        exchange_mode="incremental", max_deals=1
    )
    assert dreyfus_env().rules == dreyfus.DreyfusRules(max_deals=1)
    with pytest.raises(ValueError, match=r"unknown rules options \['bogus'\]"):
        fly_v0.env(num_players=5, bogus=1)
    with pytest.raises(ValueError, match="not both"):
        fly_env(fly.FlyRules(), num_players=3)
    with pytest.raises(ValueError, match="not both"):
        dreyfus_env(dreyfus.DreyfusRules(), preset="shram")
    with pytest.raises(ValueError, match="DRF-1.1"):
        dreyfus_v0.env(num_players=4)
    with pytest.raises(InvalidRules, match="FLY-1.1"):
        fly_v0.env(num_players=9)


def test_calls_before_reset_fail_clearly() -> None:
    """last(), observe() and step() before reset() name what to do, wrapped or not."""
    for make in (fly_v0.raw_env, dreyfus_v0.raw_env):
        raw = make()
        for call in (raw.last, lambda e=raw: e.observe("player_0"), lambda e=raw: e.step(0)):
            with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
                call()
    with pytest.raises(AttributeError, match="before reset"):
        fly_v0.env().last()


def test_an_illegal_action_ends_a_wrapped_episode_with_a_penalty() -> None:
    """Like PettingZoo's classic games: the wrapped env ends the episode, -1 to the agent that erred."""
    env = fly_v0.env(num_players=3)
    env.reset(seed=2)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


def test_fly_10_1_engine_bots_are_pettingzoo_policies() -> None:
    """FLY-10.1: the rule-of-thumb policy beats random agents over 30 episodes of Fly; the Monte-Carlo
    policy plays a Dreyfus episode; a policy asked for an agent not to act refuses."""
    totals = np.zeros(4)
    for episode in range(30):
        env = fly_v0.env(num_players=4)
        env.reset(seed=episode)
        policies = [engine_policy(env, "rule-of-thumb" if seat == 0 else "random", episode) for seat in range(4)]
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[env.possible_agents.index(agent)] += reward
            seat = env.possible_agents.index(agent)
            env.step(None if termination or truncation else policies[seat](observation, agent))
    assert totals[0] > max(totals[1:])
    env = dreyfus_v0.env(exchange_mode="incremental")
    env.reset(seed=2)
    policy = engine_policy(env, "monte-carlo")
    with pytest.raises(ValueError, match="not the agent to act"):
        policy(None, next(a for a in env.possible_agents if a != env.agent_selection))
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else policy(observation, agent))
    assert env.unwrapped.match.is_over


@pytest.mark.parametrize("bot", ["random", "rule-of-thumb"])
@pytest.mark.parametrize("make", [dreyfus_v0.raw_env, functools.partial(dreyfus_v0.raw_env, max_deals=2)])
def test_drf_4_3_a_policy_made_afresh_at_every_step_answers_for_the_marks_made(
    bot: str, make: Callable[[], CardGameEnv]
) -> None:
    """DRF-4.3: a policy rebuilt before every step (so it holds no plan of an exchange) still
    gives a legal id when cards are already marked. Before the fix, its bot chose the whole exchange
    again and gave its first mark, lower than the marks made: every one of these episodes stopped on
    an illegal id (the raw environment raises ``ValueError``)."""
    marked_steps = 0
    for seed in range(8):
        env = make()
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            marked_steps += env.marked != 0
            env.step(None if termination or truncation else engine_policy(env, bot, seed)(observation, agent))
        assert env.match.is_over
    assert marked_steps > 0


def test_rgb_array_shows_records_stock_and_dealer() -> None:
    """The picture shows what the library's SVG table shows beside the cards: a ``D`` by the dealer's
    label only, each seat's record right of its hand (Dreyfus: upper and lower), and the stock or talon as
    a blue back with its count, next to the trump card."""
    for env in (fly_v0.env(num_players=4, render_mode="rgb_array"), dreyfus_v0.env(render_mode="rgb_array")):
        env.reset(seed=4)
        image = env.render()
        match = env.unwrapped.match
        rows = len(match.deal.hand_masks)
        scale, row_height = 3, 20
        for seat in range(rows):
            top = scale * (2 + row_height * seat + 4)
            band = image[top : top + 5 * scale]
            dealer_mark = np.all(band[:, 11 * scale : 14 * scale] == (240, 200, 40), axis=2).any()
            assert dealer_mark == (seat == match.deal.dealer)
            record = band[:, image.shape[1] - 20 * scale :]
            assert np.all(record == (250, 250, 245), axis=2).any()  # the record's text, in white
        bottom = scale * (2 + row_height * rows)
        stock_x = scale * (20 + 10 + 2)
        assert tuple(image[bottom + 1, stock_x + 1]) == (60, 90, 170)
        white = np.all(image[bottom : bottom + 14 * scale, stock_x : stock_x + 10 * scale] == (250, 250, 245), axis=2)
        assert white.any()  # the count
