"""The Fly batch engine plays every game as the scalar engine does (issues 24 and 28)."""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
import pytest

from fly_rules import batch, fly
from fly_rules.adapters.fly_game import EXCHANGE, FOLD, STAND, SWAP
from fly_rules.batch import BatchEngine, BatchState
from fly_rules.errors import InvalidRules, RuleViolation
from tests.batch.differential import TRAJECTORIES, option_choices, random_options, run

FLY_VALUES: dict[str, tuple[Any, ...]] = {
    "players": (3, 4, 5, 6, 7),
    "deck_size": (32, 36, 48, 52),
    "deal_packets": ((1,), (2, 3), (3, 2), (5,)),
    "max_exchange": (1, 3, 5),
    "total_exchange_cap": (None, 4, 12),
    "start_record": (1, 3, 25),
    "trick_value": (1, 2),
    "ace_bonus": (0, 5),
    "ace_bonus_trumps": (0, 7, 10),
    "remise": (0, 5),
    "ace_no_trick_penalty": (0, 4, 10),
    "ace_no_trick_penalty_trumps": (2, 10, 13),
    "max_deals": (1, 2, 3),
}
"""The values drawn for the options that are neither a choice of names nor a bool (those are drawn whole)."""
FLY_LEFT_OUT = {"revoke_mode": "the batch refuses penalize (test_fly_batch_refuses_adjudicated_revokes)"}
FLY_CHOICES = option_choices(fly.FlyRules, FLY_VALUES, FLY_LEFT_OUT)


def fly_score(state: Any) -> tuple[int, ...]:
    return tuple(-r for r in state.records)


FLY_FIELDS = ("hands", "records", "tricks_taken", "active", "trick_len", "trick", "trick_seats", "tricks_done")


def check_fly(env: BatchEngine, state: BatchState, lists: dict[str, list[Any]], i: int, scalar: Any, mask: int) -> None:
    """Legal actions, hands, records, the trick, the completed tricks and their winners, the winners."""
    deal = getattr(scalar, "deal", scalar)
    if scalar.is_over:
        assert mask == 0
    elif deal.phase is fly.Phase.PLAY:
        assert mask == deal.legal_mask
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
            return fly.FlyRules(**random_options(rng, FLY_CHOICES))
        except InvalidRules:
            continue


@pytest.mark.parametrize("part", range(4))
def test_fly_batch_plays_as_the_scalar_engine(part: int) -> None:
    """Random legal play under random values of every option, single deals and matches: after every
    action the legal actions, hands, records, tricks, trick winners and results are those of the scalar
    engine's match of the same seed [FLY-4.2] [FLY-6.6]."""
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


def _play_lowest_ids(deal: Any) -> tuple[BatchState, Any]:
    """``deal`` played out in a batch of one and in the scalar engine side by side, each seat taking its
    lowest legal id (a stand before a fold, the lowest card); both states at the end."""
    state = batch.from_scalar([deal])
    env = state.engine
    scalar = deal
    while not scalar.is_over:
        action = min(scalar.legal_actions(), key=lambda a: env.scalar_to_action(state, 0, a))
        state = env.step(state, np.array([env.scalar_to_action(state, 0, action)]))
        scalar = scalar.apply(action)
        assert tuple(state.records[0]) == scalar.records
    assert batch.to_scalar(state, 0) == scalar
    return state, scalar


def test_fly_8_5_12_1_the_ace_of_spades_penalty_by_trumps() -> None:
    """FLY-8.5, FLY-12.1: a trump flush takes every trick, so the A♠ holder takes none and pays
    ``ace_no_trick_penalty_trumps`` when spades are trumps and ``ace_no_trick_penalty`` otherwise, in the
    batch as in the scalar engine."""
    rules = fly.FlyRules(players=3, ace_no_trick_penalty=4, ace_no_trick_penalty_trumps=13, flush_wins=True)
    paid = {}
    for trump in "SH":
        hands = ["AS 7C 8C 9C TC", " ".join(rank + trump for rank in "KQJT9"), "AD KD QD JD TD"]
        deal = fly.new_deal(rules, hands=hands, trump_card="8" + trump, stock="7D 8D", dealer=2)
        _, scalar = _play_lowest_ids(deal)
        assert scalar.tricks_taken == (0, 5, 0)
        paid[trump] = scalar.records[0] - 25
    assert paid == {"S": 13, "H": 4}


def test_fly_12_1_a_trump_flush_beats_a_plain_flush_ahead_of_it() -> None:
    """FLY-12.1: the first seat from the dealer's left holds a plain flush, the next a trump flush: the
    trump flush takes every trick; with no trump flush, the first plain flush does."""
    rules = fly.FlyRules(players=3, flush_wins=True)
    for second, taker in (("KH QH JH TH 9H", 1), ("KD QD JD TD 9D", 0)):
        hands = ["AC KC QC JC 9C", second, "7S 8S 9S TS JS"]
        deal = fly.new_deal(rules, hands=hands, trump_card="8H", stock="7D 8D", dealer=2)
        state, scalar = _play_lowest_ids(deal)
        assert scalar.tricks_taken[taker] == 5
        assert state.tricks_taken[0, taker] == 5


def test_fly_4_5_the_stock_refilled_twice_in_one_deal() -> None:
    """FLY-4.5: six players from 32 cards leave one card in the stock; as each seat exchanges a card the
    stock runs out and is refilled from the discards, again and again, each refill shuffled from the
    match's seed as the scalar engine shuffles it."""
    rules = fly.FlyRules(players=6, deck_size=32, stock_exhaustion="reshuffle_discards")
    scalar = fly.new_match(rules, seed=5, dealer=5)
    state = batch.from_scalar([scalar])
    env = state.engine
    while scalar.deal.phase is fly.Phase.EXCHANGE:
        ones = [a for a in scalar.legal_actions() if isinstance(a, fly.Exchange) and len(a.cards) == 1]
        action = ones[0] if ones else fly.Stand()
        state = env.step(state, np.array([env.scalar_to_action(state, 0, action)]))
        scalar = scalar.apply(action)
        assert tuple(int(h) for h in state.hands[0]) == scalar.deal.hand_masks
    assert int(state.refills[0]) >= 2
    assert batch.to_scalar(state, 0) == scalar


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
    illegal = [c for c in held if not mask[game, c]]
    before = {name: array.copy() for name, array in state.arrays().items()}
    if illegal:
        actions[game] = illegal[0]
        with pytest.raises(RuleViolation, match=f"game {game}:") as error:
            env.step_in_place(state, actions)
        assert error.value.rule in {"FLY-6.3", "FLY-6.4"}
    actions[game] = STAND  # a stand in the play
    with pytest.raises(RuleViolation, match="FLY-4.1") as error:
        env.step_in_place(state, actions)
    assert f"game {game}" in str(error.value)
    actions[game] = 500
    with pytest.raises(RuleViolation, match="FLY-6.2"):
        env.step_in_place(state, actions)
    for name, array in state.arrays().items():
        assert np.array_equal(array, before[name]), name


def test_fly_4_3_the_ids_are_the_adapters_ids() -> None:
    """FLY-4.3, FLY-3.3: the batch's declaration ids are Fly's one action space: stand, fold, an exchange by
    the hand positions of its cards, the dealer's swap by the position of the card he gives."""
    rules = fly.FlyRules(players=3, turnup_use="dealer_swap")
    deal = fly.new_deal(
        rules, hands=["7C 9H JH KS AS", "7D 8D 9D TD JD", "QC KC QD KD 9S"], trump_card="8H", stock="7H", dealer=2
    )
    state = batch.from_scalar([deal])
    env = state.engine
    assert env.scalar_to_action(state, 0, fly.Stand()) == STAND
    assert env.scalar_to_action(state, 0, fly.Fold()) == FOLD
    assert env.scalar_to_action(state, 0, fly.Exchange("7C JH")) == EXCHANGE - 1 + 0b00101
    assert env.action_to_scalar(state, 0, EXCHANGE - 1 + 0b10010) == fly.Exchange("9H AS")
    for _ in (0, 1):
        state = env.step(state, np.array([STAND]))
    assert int(state.current_player[0]) == 2  # the dealer: he may take the trump card
    assert env.scalar_to_action(state, 0, fly.SwapTrump("KD")) == SWAP + 3
    assert state.legal_action_mask[0, SWAP + 3]
    with pytest.raises(ValueError, match="game 0:"):
        env.scalar_to_action(state, 0, fly.SwapTrump("7D"))


def test_fly_batch_refuses_adjudicated_revokes() -> None:
    """The batch takes only actions of its mask, so it refuses to penalise revokes, by name [FLY-11.1]."""
    with pytest.raises(InvalidRules, match="revoke_mode"):
        batch.make("fly", 2, players=4, revoke_mode="penalize")
    with pytest.raises(InvalidRules, match="players"):
        batch.make("fly", 2, players=9)


def test_fly_batch_from_scalar_and_back() -> None:
    """A batch started from scalar matches plays their deals and goes on with the deals their seeds deal;
    to_scalar gives them back; lone deals come back as deals [FLY-3.1] [FLY-2.2]."""
    rules = fly.FlyRules(players=4, max_deals=3)
    matches = [fly.new_match(rules, seed=s, dealer=s % 4) for s in range(6)]
    state = batch.from_scalar(matches)
    for i, m in enumerate(matches):
        assert batch.to_scalar(state, i) == m
    env, rng = state.engine, np.random.default_rng(3)
    while not state.terminated.all():
        actions = env.sample_legal(state, rng)
        moves = [env.action_to_scalar(state, i, int(a)) for i, a in enumerate(actions)]
        matches = [m if m.is_over else m.apply(move) for m, move in zip(matches, moves, strict=True)]
        state = env.step(state, actions)
    assert [batch.to_scalar(state, i) for i in range(6)] == matches
    assert max(m.deals_played for m in matches) > 1
    deals = [fly.new_match(rules, seed=s).deal for s in range(6)]
    state = batch.from_scalar(deals)
    assert [batch.to_scalar(state, i) for i in range(6)] == deals
    with pytest.raises(ValueError, match="begun"):
        batch.from_scalar([deals[0].apply(deals[0].legal_actions()[0])])


def test_fly_batch_is_reproducible_game_by_game() -> None:
    """Game i's deal depends on the seed and i alone, not on the batch's size: it is the scalar match of
    seed ``batch:<seed>:<i>`` [FLY-3.1]."""
    small = batch.make("fly", 3, players=5).init(11)
    large = batch.make("fly", 9, players=5).init(11)
    assert np.array_equal(small.hands, large.hands[:3])
    assert not np.array_equal(batch.make("fly", 3, players=5).init(12).hands, small.hands)
    scalar = fly.new_match(attrs.evolve(fly.FlyRules(players=5), max_deals=1), seed="batch:11:2")
    assert tuple(int(h) for h in large.hands[2]) == scalar.deal.hand_masks
