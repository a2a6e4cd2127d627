"""The Fly batch engine plays every game as the scalar engine does (issue 24)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from fly_rules import batch, fly
from fly_rules.batch import BatchEngine, BatchState
from fly_rules.errors import InvalidRules, RuleViolation
from tests.batch.differential import TRAJECTORIES, random_options, run

FLY_CHOICES: dict[str, tuple[Any, ...]] = {
    "direction": ("clockwise", "anticlockwise"),
    "ace_rank": ("high", "below_jack"),
    "deal_packets": ((1,), (2, 3), (3, 2), (5,)),
    "turnup_use": ("none", "dealer_swap", "last_stock_card"),
    "declaration_mode": ("combined", "fold_round_then_exchange"),
    "max_exchange": (1, 3, 5),
    "total_exchange_cap": (None, 4, 12),
    "stock_exhaustion": ("cap", "folded_hands", "reshuffle_discards"),
    "may_fold_after_exchange": (False, True),
    "ace_of_spades_discardable": (True, False),
    "forced_player": (None, "dealer_if_all_passed", "eldest"),
    "all_fold": ("void", "dealer_must_play", "redeal_same_dealer"),
    "lone_player": ("takes_all", "last_speaker_must_play", "void"),
    "must_head_trick": (False, True),
    "trump_duty": ("any_trump", "overtrump", "overtrump_or_free"),
    "ace_of_spades_mode": ("led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"),
    "start_record": (1, 3, 25),
    "trick_value": (1, 2),
    "ace_bonus": (0, 5),
    "remise": (0, 5),
    "stop_mode": ("immediate", "end_of_deal"),
    "tie_break": ("earliest", "shared"),
    "flush_wins": (False, True),
    "max_deals": (1, 2, 3),
}


def fly_score(state: Any) -> tuple[int, ...]:
    return tuple(-r for r in state.records)


FLY_FIELDS = ("hands", "records", "tricks_taken", "active", "trick_len", "trick", "trick_seats", "tricks_done")


def check_fly(env: BatchEngine, state: BatchState, lists: dict[str, list[Any]], i: int, scalar: Any, mask: int) -> None:
    """Legal actions, hands, records, the trick, the completed tricks and their winners, the winners."""
    deal = getattr(scalar, "deal", scalar)
    if scalar.is_over:
        assert mask == 0
    elif deal.phase is fly.Phase.PLAY:
        assert mask == deal.legal_mask << 38
    else:
        legal = deal.legal_actions()
        ids = {env.scalar_to_action(state, i, action) for action in legal}
        assert len(ids) == len(legal)
        assert mask == sum(1 << a for a in ids)
    assert tuple(lists["hands"][i]) == deal.hand_masks
    assert tuple(lists["records"][i]) == deal.records
    assert tuple(lists["tricks_taken"][i]) == deal.tricks_taken
    assert tuple(lists["active"][i]) == deal.active
    length = lists["trick_len"][i]
    assert tuple(lists["trick"][i][:length]) == deal.trick_cards
    assert tuple(lists["trick_seats"][i][:length]) == deal.trick_seats
    completed = deal.completed
    assert lists["tricks_done"][i] == len(completed)
    if completed and (length == 0 or deal.is_over):  # a trick was just completed: compare all of them
        for number, trick in enumerate(completed):
            cards = [c for c in state.tricks[i, number].tolist() if c != 52]
            assert [card for _, card in trick] == cards
            assert trick[0][0] == state.trick_leaders[i, number]
        winners = state.trick_winners[i, : len(completed)].tolist()
        assert tuple(winners.count(seat) for seat in range(deal.players)) == deal.tricks_taken
        if not deal.is_over:
            assert winners[-1] == deal.leader  # the last trick's taker leads the next
        assert set(np.flatnonzero(state.winners[i]).tolist()) == set(deal.winners)
        assert bool(state.void[i]) == deal.void
    assert state.stock_len[i] - state.stock_pos[i] == len(deal.stock)


def random_fly_rules(rng: random.Random) -> fly.FlyRules:
    while True:
        try:
            return fly.FlyRules(players=rng.randint(3, 7), **random_options(rng, FLY_CHOICES))
        except InvalidRules:
            continue


@pytest.mark.parametrize("part", range(4))
def test_fly_batch_plays_as_the_scalar_engine(part: int) -> None:
    """Random legal play under random options, single deals and matches: after every action the legal
    actions, hands, records, tricks, trick winners and results are the scalar engine's [FLY-4.2] [FLY-6.6]."""
    rng = random.Random(part)
    games = 0
    size = 48
    while games < TRAJECTORIES // 4:
        rules = random_fly_rules(rng)
        env = batch.make("fly", size, rules=rules, match=rng.random() < 0.4)
        seed = rng.randrange(1 << 30)
        run(env, seed, check_fly, fly_score, FLY_FIELDS, np.random.default_rng(games), argmax=rng.random() < 0.2)
        games += size


def test_fly_batch_default_rules_many_players() -> None:
    """The default rules at every table size, matches of at most four deals [FLY-10.1]."""
    for players in range(3, 8):
        env = batch.make("fly", 16, players=players, match=True, max_deals=4)
        run(env, players, check_fly, fly_score, FLY_FIELDS, np.random.default_rng(players))


def test_fly_batch_refuses_an_action_outside_the_mask() -> None:
    """An illegal id raises RuleViolation naming the game and the rule, and changes nothing [FLY-6.3]."""
    env = batch.make("fly", 4, players=4)
    state = env.init(3)
    rng = np.random.default_rng(1)
    while (state.phase != 1).any():
        state = env.step(state, env.sample_legal(state, rng))
    state = env.step(state, env.sample_legal(state, rng))  # a lead: now the others must follow
    mask = state.legal_action_mask
    game = 0
    actions = env.sample_legal(state, rng)
    held = [c for c in range(52) if int(state.hands[game, state.current_player[game]]) >> c & 1]
    illegal = [38 + c for c in held if not mask[game, 38 + c]]
    before = {name: array.copy() for name, array in state.arrays().items()}
    if illegal:
        actions[game] = illegal[0]
        with pytest.raises(RuleViolation, match=f"game {game}:") as error:
            env.step(state, actions)
        assert error.value.rule in {"FLY-6.3", "FLY-6.4"}
    actions[game] = 0  # a stand in the play
    with pytest.raises(RuleViolation, match="FLY-4.1") as error:
        env.step(state, actions)
    assert f"game {game}" in str(error.value)
    actions[game] = 500
    with pytest.raises(RuleViolation, match="FLY-6.2"):
        env.step(state, actions)
    for name, array in state.arrays().items():
        assert np.array_equal(array, before[name]), name


def test_fly_batch_refuses_adjudicated_revokes() -> None:
    """The batch takes only actions of its mask, so it refuses to penalise revokes, by name [FLY-11.1]."""
    with pytest.raises(InvalidRules, match="revoke_mode"):
        batch.make("fly", 2, players=4, revoke_mode="penalize")
    with pytest.raises(InvalidRules, match="players"):
        batch.make("fly", 2, players=9)


def test_fly_batch_from_scalar_and_back() -> None:
    """A batch started from scalar matches plays their deals; to_scalar gives them back [FLY-3.1]."""
    rules = fly.FlyRules(players=4)
    matches = [fly.new_match(rules, seed=s, dealer=s % 4) for s in range(6)]
    state = batch.from_scalar(matches, seed=5)
    for i, m in enumerate(matches):
        assert batch.to_scalar(state, i) == m
    deals = [m.deal for m in matches]
    state = batch.from_scalar(deals)
    assert [batch.to_scalar(state, i) for i in range(6)] == deals
    with pytest.raises(ValueError, match="begun"):
        batch.from_scalar([deals[0].apply(deals[0].legal_actions()[0])])


def test_fly_batch_is_reproducible_game_by_game() -> None:
    """Game i's deal depends on the seed and i alone, not on the batch's size [FLY-3.1]."""
    small = batch.make("fly", 3, players=5).init(11)
    large = batch.make("fly", 9, players=5).init(11)
    assert np.array_equal(small.hands, large.hands[:3])
    assert not np.array_equal(batch.make("fly", 3, players=5).init(12).hands, small.hands)
