"""The Dreyfus batch engine plays every game as the scalar engine does (issue 24)."""

from __future__ import annotations

import random
from math import comb
from typing import Any

import numpy as np
import pytest

from fly_rules import batch, dreyfus
from fly_rules.actions import Exchange, Play, Stand
from fly_rules.adapters.dreyfus_game import STAND
from fly_rules.adapters.encoding import action_space
from fly_rules.adapters.learned import thumb_id
from fly_rules.batch import BatchEngine, BatchState
from fly_rules.bots import RuleOfThumbBot
from fly_rules.cards import CardSet, Rank, Suit
from fly_rules.dreyfus.play import required_mask
from fly_rules.engine import Phase
from fly_rules.errors import InvalidRules, RuleViolation
from tests.batch.differential import TRAJECTORIES, mask_ints, option_choices, random_options, run, twins

DREYFUS_VALUES: dict[str, tuple[Any, ...]] = {
    "par_tricks": (2, 4, 6),
    "target_lower": (1, 3, 10),
    "contract_cycle": (
        (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None),
        (None,),
        (Suit.HEARTS, None, Suit.CLUBS),
    ),
    "deal_packet_size": (1, 3, 4, 12),
    "fosk_ranks": (frozenset(Rank(r) for r in range(3, 11)), frozenset(Rank(r) for r in range(3, 9)), "any"),
    "max_deals": (1, 2, 3),
    "revoke_upper_penalty": (0, 10),
    "forgot_record_penalty": (0, 3, 7),  # the engine records every purchase in time: it changes no game
}
"""The values drawn for the options that are neither a choice of names nor a bool (those are drawn whole)."""
DREYFUS_CHOICES = option_choices(dreyfus.DreyfusRules, DREYFUS_VALUES, {})
DREYFUS_FIELDS = ("hands", "upper", "lower", "tricks_taken", "revokes", "trick_len", "trick", "tricks_done", "marked")


def dreyfus_score(state: Any) -> tuple[int, ...]:
    return tuple(state.scores)


def check_dreyfus(
    env: BatchEngine, state: BatchState, lists: dict[str, list[Any]], i: int, scalar: Any, mask: int
) -> None:
    """Legal actions (the marks and the stand against the scalar engine's discard sets), hands, records,
    revokes, the trick, the completed tricks and their takers, the winner."""
    deal = getattr(scalar, "deal", scalar)
    marked = lists["marked"][i]
    if scalar.is_over:
        assert mask == 0
    elif deal.phase is Phase.PLAY:
        assert marked == 0
        assert mask == deal.legal_mask
    else:
        eligible, left = deal.discardable_mask, deal.talon_left
        legal = deal.legal_actions()
        if deal.rules.exchange_mode == "incremental":
            assert len(legal) == 1 + (eligible.bit_count() if left else 0)
            assert mask == (eligible if left else 0) | 1 << 52
        else:
            top = min(left, eligible.bit_count())
            assert len(legal) == 1 + sum(comb(eligible.bit_count(), k) for k in range(1, top + 1))
            assert marked & ~eligible == 0
            above = eligible & ~((1 << marked.bit_length()) - 1)
            assert mask == (above if marked.bit_count() < left else 0) | 1 << 52
    assert tuple(lists["hands"][i]) == deal.hand_masks
    assert tuple(lists["upper"][i]) == deal.upper
    assert tuple(lists["lower"][i]) == deal.lower
    assert tuple(lists["tricks_taken"][i]) == deal.tricks_taken
    assert tuple(lists["revokes"][i]) == deal.revokes
    length = lists["trick_len"][i]
    assert tuple(lists["trick"][i][:length]) == deal.trick_cards
    assert lists["tricks_done"][i] == len(deal.past_tricks)
    if deal.past_tricks and (length == 0 or deal.is_over):
        for number, (leader, cards) in enumerate(deal.past_tricks):
            assert tuple(state.tricks[i, number].tolist()) == cards
            assert state.trick_leaders[i, number] == leader
        winners = state.trick_winners[i, : len(deal.past_tricks)].tolist()
        assert tuple(winners.count(seat) for seat in range(3)) == deal.tricks_taken
        if not deal.is_over:
            assert winners[-1] == deal.leader
    assert state.winner[i] == (-1 if deal.winner is None else deal.winner)


def random_dreyfus_rules(rng: random.Random) -> dreyfus.DreyfusRules:
    while True:
        try:
            return dreyfus.DreyfusRules(**random_options(rng, DREYFUS_CHOICES))
        except InvalidRules:
            continue


@pytest.mark.parametrize("part", range(2))
def test_dreyfus_batch_plays_as_the_scalar_engine(part: int) -> None:
    """Random legal play under random options, single deals and matches: after every action the legal
    actions, hands, records, revokes, tricks, trick takers and the winner are the scalar engine's
    [DRF-4.3] [DRF-6.6]."""
    rng = random.Random(100 + part)
    games = 0
    size = 48
    while games < TRAJECTORIES // 4:
        env = batch.make("dreyfus", size, rules=random_dreyfus_rules(rng), match=rng.random() < 0.4)
        seed = rng.randrange(1 << 30)
        argmax = rng.random() < 0.2
        run(env, seed, check_dreyfus, dreyfus_score, DREYFUS_FIELDS, np.random.default_rng(games), argmax=argmax)
        games += size


def test_dreyfus_batch_default_match() -> None:
    """The default rules, matches of at most three deals, and the ``table`` preset [DRF-8.1] [DRF-10.1]."""
    for preset in ("default", "table", "shram"):
        env = batch.make("dreyfus", 16, preset=preset, match=True, max_deals=3)
        run(env, 5, check_dreyfus, dreyfus_score, DREYFUS_FIELDS, np.random.default_rng(5))


def test_dreyfus_batch_actions_map_to_the_scalar_engine() -> None:
    """An exchange is its cards marked in ascending order, then the stand; out of order it is refused
    [DRF-4.3] [DRF-4.4]."""
    env = batch.make("dreyfus", 2)
    state = env.init(4, dealer=0)
    deal = batch.to_scalar(state, 0).deal
    eligible = deal.discardable_mask
    two = CardSet(eligible & -eligible | 1 << (eligible.bit_length() - 1))
    exchange = Exchange(two)
    first = env.scalar_to_action(state, 0, exchange)
    assert first == (two.mask & -two.mask).bit_length() - 1
    assert env.action_to_scalar(state, 0, first) is None
    assert env.scalar_to_action(state, 0, Stand()) == 52
    assert env.action_to_scalar(state, 0, 52) == Stand()
    state = env.step(state, np.array([first, 52]))
    second = env.scalar_to_action(state, 0, exchange)
    assert second == two.mask.bit_length() - 1
    state = env.step(state, np.array([second, 0]) if state.legal_action_mask[1, 0] else np.array([second, 52]))
    assert env.scalar_to_action(state, 0, exchange) == 52
    assert env.action_to_scalar(state, 0, 52) == exchange
    with pytest.raises(ValueError, match="do not begin"):
        env.scalar_to_action(state, 0, Exchange(CardSet(eligible & -eligible)))
    state = env.step(state, np.array([52, env.sample_legal(state, np.random.default_rng(0))[1]]))
    assert batch.to_scalar(state, 0).deal == deal.apply(exchange)
    assert env.scalar_to_action(state, 0, Play("AS")) == 51
    with pytest.raises(ValueError, match="not a Dreyfus action"):
        env.scalar_to_action(state, 0, "fold")


def test_dreyfus_batch_refuses_an_action_outside_the_mask() -> None:
    """An illegal id raises RuleViolation naming the game and the rule, and changes nothing [DRF-4.2]."""
    env = batch.make("dreyfus", 3)
    state = env.init(9)
    before = {name: array.copy() for name, array in state.arrays().items()}
    hand = int(state.hands[1, state.current_player[1]])
    eligible = int(batch.to_scalar(state, 1).deal.discardable_mask)  # the фоски of the contract
    kept = (hand & ~eligible) & -(hand & ~eligible)
    actions = env.sample_legal(state, np.random.default_rng(2))
    actions[1] = kept.bit_length() - 1
    with pytest.raises(RuleViolation, match="game 1:") as error:
        env.step(state, actions)
    assert error.value.rule == "DRF-4.2"
    assert error.value.offending == kept.bit_length() - 1
    actions[1] = 99
    with pytest.raises(RuleViolation, match="DRF-4.3"):
        env.step(state, actions)
    low = eligible & -eligible
    high = 1 << (eligible.bit_length() - 1)
    actions[1] = high.bit_length() - 1
    state = env.step(state, actions)  # marks the highest
    actions = np.full(3, 52)
    actions[1] = low.bit_length() - 1
    before = {name: array.copy() for name, array in state.arrays().items()}
    with pytest.raises(RuleViolation, match="ascending") as error:
        env.step(state, actions)
    assert error.value.rule == "DRF-4.3"
    assert error.value.offending == low.bit_length() - 1
    for name, array in state.arrays().items():
        assert np.array_equal(array, before[name]), name
    with pytest.raises(InvalidRules, match="players"):
        batch.make("dreyfus", 2, players=4)
    with pytest.raises(InvalidRules, match="preset"):
        batch.make("dreyfus", 2, preset="nonesuch")


def test_dreyfus_batch_from_scalar_and_back() -> None:
    """A batch started from scalar matches plays their deals and goes on with the deals their seeds deal;
    to_scalar gives back equal matches, records included, also for a match past its first deal [DRF-2.4]."""
    rules = dreyfus.DreyfusRules(max_deals=4, target_lower=30)
    matches = [dreyfus.new_match(rules, seed=s, dealer=s % 3) for s in range(4)]
    rng = random.Random(2)
    for i in range(2):  # two of them past their first deal, with records above and below
        while matches[i].deal_number < 1 + i:
            matches[i] = matches[i].apply(rng.choice(matches[i].legal_actions()))
    assert any(matches[0].upper)
    assert any(matches[1].lower)
    state = batch.from_scalar(matches)
    for i, m in enumerate(matches):
        assert batch.to_scalar(state, i) == m
        assert tuple(state.upper[i]) == m.upper
        assert tuple(state.lower[i]) == m.lower
    env, generator = state.engine, np.random.default_rng(3)
    while not state.terminated.all():
        actions = env.sample_legal(state, generator)
        state = env.step(state, actions)
    for i in range(4):
        scalar = batch.to_scalar(state, i)
        assert scalar.is_over
        assert scalar.upper == tuple(state.upper[i])
        assert scalar.lower == tuple(state.lower[i])
    deals = [m.deal for m in matches]
    state = batch.from_scalar(deals)
    assert [batch.to_scalar(state, i) for i in range(4)] == deals
    with pytest.raises(ValueError, match="begun"):
        batch.from_scalar([deals[2].apply(Stand())])


def test_drf_10_1_8_2_a_revoke_after_two_seats_reached_the_target() -> None:
    """DRF-10.1, DRF-8.2: a seat that reached the target first and then revokes loses its claim, so the
    seat that reached it after becomes the first; the batch plays such deals as the scalar engine does.
    The play keeps its duties most of the time and revokes now and then, so that seats reach the target
    (one overtrick) before revoking."""
    rules = dreyfus.DreyfusRules(revoke_mode="penalize", target_lower=1, par_tricks=2)
    env = batch.make("dreyfus", 64, rules=rules)
    state = env.init(17)
    scalars = twins(env, 17)
    rng = random.Random(5)
    events = 0
    while not state.terminated.all():
        actions = np.full(env.batch_size, STAND)
        for i, scalar in enumerate(scalars):
            deal = scalar.deal
            if deal.phase is Phase.PLAY and not scalar.is_over:
                hand = deal.hand_masks[deal.to_move]
                dutiful = required_mask(deal.table, hand, deal.trick_cards)
                choice = dutiful if rng.random() < 0.93 else hand
                actions[i] = rng.choice(list(CardSet(choice))).index
        reached_before = state.reached.copy()
        revokes_before = state.revokes.copy()
        lists = {name: getattr(state, name).tolist() for name in DREYFUS_FIELDS}
        for i, scalar in enumerate(scalars):
            check_dreyfus(env, state, lists, i, scalar, mask_ints(state)[i])
        moves = [env.action_to_scalar(state, i, int(a)) for i, a in enumerate(actions)]
        state = env.step(state, actions)
        scalars = [s if s.is_over else s.apply(m) for s, m in zip(scalars, moves, strict=True)]
        for i in range(env.batch_size):
            first = np.flatnonzero(reached_before[i] == 0)
            if (reached_before[i] >= 0).sum() >= 2 and state.revokes[i, first[0]] > revokes_before[i, first[0]]:
                events += 1
                assert state.reached[i, first[0]] < 0
                assert (state.reached[i] == 0).sum() == 1  # the second to reach it is now the first
    assert events > 0
    for i, scalar in enumerate(scalars):
        assert batch.to_scalar(state, i) == scalar
        assert state.winner[i] == (-1 if scalar.winner is None else scalar.winner)


def test_drf_8_2_under_highest_lower_a_tie_on_both_records_goes_to_the_first_to_reach() -> None:
    """DRF-8.2: under ``highest_lower`` the deal's end decides; seats level on the lower record go to the lower
    upper record, and level on both to the first to reach the target: the batch names the winner the scalar
    engine does in the games (played at random) where two seats that reached it are level on both records."""
    rules = dreyfus.DreyfusRules(winner_rule="highest_lower", target_lower=1, par_tricks=4)
    env = batch.make("dreyfus", 256, rules=rules)
    state = env.init(3)
    generator = np.random.default_rng(0)
    while not state.terminated.all():
        state = env.step(state, env.sample_legal(state, generator))
    level = 0
    for i in range(env.batch_size):
        reached = [seat for seat in range(3) if state.reached[i, seat] >= 0]
        records = [(int(state.lower[i, seat]), -int(state.upper[i, seat])) for seat in reached]
        if not records or records.count(max(records)) < 2:
            continue
        level += 1
        assert state.winner[i] == batch.to_scalar(state, i).winner
    assert level >= 2


def test_the_rule_of_thumb_hint_in_the_exchange_is_the_scalar_bot_s_purchase_from_the_marks_made() -> None:
    """``thumb_hint`` in the exchange, random marks made: the id that goes on from the marks towards the scalar rule
    of thumb's purchase (:func:`fly_rules.adapters.learned.thumb_id`), -1 where the marks lead elsewhere, where
    ``rule_of_thumb`` names the batch bot's own next mark."""
    env = batch.make("dreyfus", 8)
    state = env.init(11)
    space = action_space("dreyfus")
    thumb = RuleOfThumbBot()
    generator = np.random.default_rng(0)
    checked = elsewhere = 0
    while True:
        hints, own = env.thumb_hint(state), env.rule_of_thumb(state)
        deals = [batch.to_scalar(state, i).deal for i in range(env.batch_size)]
        buying = [i for i, deal in enumerate(deals) if not deal.is_over and deal.phase is Phase.EXCHANGE]
        if not buying:
            break
        for i in buying:
            deal = deals[i]
            action = thumb.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0))
            wanted = thumb_id(space, deal, action, int(state.marked[i]))
            assert hints[i] == (-1 if wanted is None else wanted)
            checked += 1
            elsewhere += hints[i] != own[i]
        state = env.step(state, env.sample_legal(state, generator))
    assert checked > 20
    assert elsewhere > 5


def test_an_id_that_is_no_action_is_refused_under_the_rule_of_the_phase() -> None:
    """``action_to_scalar`` refuses an id outside the game's actions under the exchange's rule in the exchange and
    the play's in the play [DRF-4.3] [DRF-6.1]."""
    env = batch.make("dreyfus", 1)
    state = env.init(5)
    for phase, rule in ((Phase.EXCHANGE, "DRF-4.3"), (Phase.PLAY, "DRF-6.1")):
        while batch.to_scalar(state, 0).phase is not phase:
            state = env.step(state, env.rule_of_thumb(state))
        with pytest.raises(RuleViolation, match="game 0: 999 is not an action id of Dreyfus") as error:
            env.action_to_scalar(state, 0, 999)
        assert error.value.rule == rule
        assert error.value.offending == 999


def test_the_rule_of_thumb_of_some_games_leaves_the_others_at_0() -> None:
    """``rule_of_thumb(state, games)`` gives the ids of the games chosen, and 0 for the others."""
    env = batch.make("dreyfus", 3)
    state = env.init(5)
    every = env.rule_of_thumb(state)
    assert every.all()
    some = env.rule_of_thumb(state, np.array([True, False, True]))
    assert some.tolist() == [every[0], 0, every[2]]


def test_a_first_mark_above_the_rule_of_thumb_s_lowest_card_leads_the_hint_elsewhere() -> None:
    """Where the rule of thumb would buy two cards or more and the seat marks the second of them first, its marks
    no longer go on towards that purchase (the lowest card can no longer be marked, DRF-4.3): ``thumb_hint`` says
    -1, as the scalar ``thumb_id`` has it, the lowest card just below the mark among them."""
    env = batch.make("dreyfus", 32)
    state = env.init(3)
    space, thumb = action_space("dreyfus"), RuleOfThumbBot()
    actions, purchases = env.rule_of_thumb(state).copy(), {}
    for i in range(env.batch_size):
        deal = batch.to_scalar(state, i).deal
        action = thumb.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0))
        if isinstance(action, Exchange) and len(action.cards) >= 2:
            purchases[i] = action
            actions[i] = sorted(card.index for card in action.cards)[1]
    state = env.step(state, actions)
    hints = env.thumb_hint(state)
    for i, action in purchases.items():
        assert thumb_id(space, batch.to_scalar(state, i).deal, action, int(state.marked[i])) is None
        assert hints[i] == -1
    lowest_two = [sorted(card.index for card in action.cards)[:2] for action in purchases.values()]
    adjacent = [low for low, high in lowest_two if high == low + 1]
    assert len(adjacent) >= 2
