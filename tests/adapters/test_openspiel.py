"""The OpenSpiel adapter passes OpenSpiel's own checks, and an OpenSpiel algorithm plays it."""

from __future__ import annotations

import itertools
import pickle
import re
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.observation import make_observation

from fly_rules import dreyfus, fly
from fly_rules._options import declared_options
from fly_rules.adapters import fly_game, openspiel
from fly_rules.adapters.encoding import STAND, OpenSpielGame, action_ids, adapter_part, engine_action, legal_ids
from fly_rules.adapters.fly_game import FOLD, SWAP
from fly_rules.cards import CardSet
from fly_rules.strategies import dreyfus_rules_options, fly_rules_options

GAMES = [
    "python_fly(players=3)",
    "python_fly",
    "python_fly(players=7,preset=mouche_1718)",
    "python_fly(players=5,turnup_use=last_stock_card,may_fold_after_exchange=True,"
    "declaration_mode=fold_round_then_exchange,max_exchange=3,forced_player=eldest)",
    "python_fly(players=3,deck_size=52,forced_player=none,must_head_trick=True,trump_duty=overtrump)",
    "python_dreyfus",
    "python_dreyfus(exchange_mode=incremental,reveal_discards=True,reveal_leftover_talon=True,deal_number=4)",
    "python_dreyfus(preset=table,first_lead=first_actual_buyer,dealer=2)",
]


def play_out(state: Any, rng: np.random.RandomState, stop: Any = None) -> Any:
    """Play random chance outcomes and random legal actions until the end (or until ``stop(state)``)."""
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_with_serialisation(name: str) -> None:
    """OpenSpiel's RandomSimTest: clones, serialisation round trips, history, returns, tensors, lengths."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["python_fly(players=4)", "python_dreyfus"])
def test_chance_outcomes_are_a_distribution_over_unseen_cards(name: str) -> None:
    """Every chance node: distinct outcomes, probabilities in [0, 1] summing to 1, cards not yet seen."""
    state = pyspiel.load_game(name).new_initial_state()
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            cards = [c for c, _ in outcomes]
            assert len(set(cards)) == len(cards)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(0 < p <= 1 for _, p in outcomes)
            if state.deal is not None:  # a draw: only undrawn stock or talon cards
                held = set()
                for seat in range(state.get_game().num_players()):
                    held |= {c.index for c in state.deal.view(seat).hand}
                assert not held & set(cards)
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_fly_3_1_the_chance_deal_builds_the_engine_position() -> None:
    """FLY-3.1, FLY-3.2: chance deals five cards to each hand from the dealer's left, then the trump card."""
    game = pyspiel.load_game("python_fly(players=3,dealer=2)")
    state = game.new_initial_state()
    cards = [c.index for c in fly.FlyRules(players=3).deck][:16]
    for card in cards:
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        state.apply_action(card)
    deal = state.deal
    assert deal.dealer == 2
    assert deal.hands[0] == CardSet(sum(1 << c for c in cards[:5]))
    assert deal.hands[1] == CardSet(sum(1 << c for c in cards[5:10]))
    assert deal.trump_card.index == cards[15]
    assert state.current_player() == 0
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "draw 9♣"


def test_fly_4_4_an_exchange_draws_its_replacements_as_chance() -> None:
    """FLY-4.4: an exchange of three cards (one id) owes three chance draws from the stock."""
    game = pyspiel.load_game("python_fly(players=3)")
    state = game.new_initial_state()
    deck = [c.index for c in fly.FlyRules(players=3).deck]
    for card in deck[:16]:
        state.apply_action(card)
    three = fly.Exchange(CardSet.of(list(state.deal.hands[1])[:3]))
    (exchange,) = action_ids(state.deal, three)
    assert state.current_player() == 1
    assert exchange in state.legal_actions()
    assert state.action_to_string(1, exchange) == "exchange " + " ".join(c.symbol for c in three.cards)
    state.apply_action(exchange)
    assert state.is_chance_node()
    stock = {c for c, _ in state.chance_outcomes()}
    assert stock == set(deck[16:])
    for card in deck[-3:]:
        state.apply_action(card)
    assert not state.is_chance_node()
    assert set(deck[-3:]) <= {c.index for c in state.deal.hands[1]}
    assert "seat 1 exchanges 3" in state.information_state_string(0)
    assert "draw " not in state.information_state_string(0)
    assert "draw A♠" in state.information_state_string(1)


def test_fly_3_3_the_last_stock_card_exchange_needs_no_chance_when_only_the_trump_card_is_left() -> None:
    """FLY-3.3: with turnup_use=last_stock_card and an empty stock, the trump card is the replacement."""
    game = pyspiel.load_game("python_fly(players=7,deck_size=36,turnup_use=last_stock_card)")
    state = game.new_initial_state()
    for card in fly.FlyRules(players=7, deck_size=36).deck:
        if state.deal is not None:
            break
        state.apply_action(card.index)
    assert state.deal.stock == ()
    seat = state.current_player()
    low = min(state.deal.hands[seat])
    state.apply_action(*action_ids(state.deal, fly.Exchange(CardSet.of([low]))))
    assert not state.is_chance_node()
    assert state.deal.trump_card in state.deal.hands[seat]


def exchange_sets(state: Any, marked: int = 0) -> set[int]:
    """Every discard set reachable by marks from a Dreyfus ``state`` (marks ascending, then STAND)."""
    found = set()
    for action in legal_ids(state, marked):
        if action == STAND and marked:
            found.add(marked)
        elif action < STAND:
            found |= exchange_sets(state, marked | 1 << action)
    return found


@pytest.mark.parametrize("max_exchange", [1, 3, 5])
def test_fly_4_3_one_id_for_each_legal_exchange(max_exchange: int) -> None:
    """FLY-4.3: the exchange ids offered are exactly the engine's legal Exchange sets, one id each."""
    deal = fly.new_match(fly.FlyRules(players=4, max_exchange=max_exchange), seed=5).deal
    engine = {a.cards.mask for a in deal.legal_actions() if isinstance(a, fly.Exchange)}
    offered = {engine_action(deal, 0, i).cards for i in legal_ids(deal) if engine_action(deal, 0, i).kind == "exchange"}
    assert offered == engine
    assert {STAND, FOLD} <= set(legal_ids(deal))


def test_drf_4_4_marks_reach_exactly_the_legal_discards() -> None:
    """DRF-4.4: in batch mode, ascending marks then STAND reach every legal discard set and no other."""
    deal = dreyfus.new_match(dreyfus.DreyfusRules(fosk_ranks=[3, 4, 5, 6]), seed=8, dealer=0).deal
    legal = deal.legal_actions()
    engine = {a.cards.mask for a in legal if isinstance(a, dreyfus.Exchange)}
    assert exchange_sets(deal) == engine
    assert len(engine) == len(legal) - 1


def test_drf_4_4_incremental_marks_exchange_one_card_at_a_time() -> None:
    """DRF-4.4: in the incremental mode a mark is at once a one-card exchange with one chance draw."""
    game = pyspiel.load_game("python_dreyfus(exchange_mode=incremental)")
    state = play_out(game.new_initial_state(), np.random.RandomState(1), stop=lambda s: s.deal is not None)
    marks = [a for a in state.legal_actions() if a < STAND]
    assert marks
    assert state.action_to_string(state.current_player(), marks[0]).startswith("exchange ")
    state.apply_action(marks[0])
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 12


@pytest.mark.parametrize("seed", range(3))
def test_fly_8_2_returns_are_the_records_written_off(seed: int) -> None:
    """FLY-8.2, FLY-8.4: a seat's return is its start record minus its record at the end of the deal."""
    state = play_out(pyspiel.load_game("python_fly(players=4)").new_initial_state(), np.random.RandomState(seed))
    assert state.returns() == [25.0 - r for r in state.deal.records]
    game = state.get_game()
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


@pytest.mark.parametrize("seed", range(3))
def test_drf_7_2_returns_are_points_below_minus_points_above(seed: int) -> None:
    """DRF-7.2, DRF-7.3, DRF-4.5: a seat's return is its lower record minus its upper record for the deal."""
    state = play_out(pyspiel.load_game("python_dreyfus").new_initial_state(), np.random.RandomState(seed))
    deal = state.deal
    assert state.returns() == [float(deal.lower[s] - deal.upper[s]) for s in range(3)]
    assert state.get_game().min_utility() <= min(state.returns())


def test_returns_are_zero_before_the_end_and_pickles_round_trip() -> None:
    """Returns are terminal only; states pickle like OpenSpiel's own (game string and history)."""
    game = pyspiel.load_game("python_fly(players=3)")
    state = play_out(game.new_initial_state(), np.random.RandomState(2), stop=lambda s: len(s.history()) > 20)
    assert state.returns() == [0.0, 0.0, 0.0]
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history()
    assert str(again) == str(state)
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.information_state_string(1) == state.information_state_string(1)


def test_fly_5_1_strings_and_tensors_come_from_the_view() -> None:
    """FLY-5.1: a seat's observation shows its own hand and nothing of another's; the infostate has recall."""
    game = pyspiel.load_game("python_fly(players=3)")
    state = game.new_initial_state()
    assert state.observation_string(0) == "seat 0 | dealt "
    deck = [c.index for c in fly.FlyRules(players=3).deck]
    for card in deck[:7]:
        state.apply_action(card)

    def held(seat: int) -> list[int]:
        return [i for i, x in enumerate(state.observation_tensor(seat)[:52]) if x]

    assert (held(0), held(1), held(2)) == ([], deck[:5], deck[5:7])  # the dealer's left is served first
    play_out(state, np.random.RandomState(0), stop=lambda s: s.deal is not None)
    hand = state.deal.hands[0]
    symbols = " ".join(card.symbol for card in hand)
    assert f"hand {symbols} | trump {state.deal.trump_card.symbol} |" in state.observation_string(0)
    assert " ".join(card.symbol for card in state.deal.hands[1]) not in state.observation_string(0)
    infostates = []
    rng = np.random.RandomState(4)
    while not state.is_terminal():
        if state.current_player() == 0:
            infostates.append(state.information_state_string(0))
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(set(infostates)) == len(infostates)  # perfect recall: every decision of seat 0 is a new infostate
    observation = make_observation(game)
    observation.set_from(state, 2)
    assert observation.tensor.shape == (game.observation_tensor_size(),)
    assert game.get_type().provides_information_state_tensor is True
    assert len(state.information_state_tensor(0)) == openspiel.information_state_size(game.rules)


@pytest.mark.parametrize(
    "name", ["python_fly(players=4,turnup_use=dealer_swap)", "python_dreyfus(exchange_mode=incremental)"]
)
def test_fly_5_1_the_information_state_tensor_has_perfect_recall(name: str) -> None:
    """FLY-5.1, DRF-11.1: at every node of random deals, two information states of a seat have equal
    tensors exactly when their strings are equal: the tensor recalls all the seat saw, in order."""
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(7)
    pairs = set()
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            for seat in range(game.num_players()):
                pairs.add((seat, state.information_state_string(seat), tuple(state.information_state_tensor(seat))))
            if state.is_chance_node():
                state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    assert len({(seat, text) for seat, text, _ in pairs}) == len(pairs)
    assert len({(seat, tensor) for seat, _, tensor in pairs}) == len(pairs)


def test_drf_4_4_the_information_state_tensor_recalls_the_exchanges_in_order() -> None:
    """DRF-4.4: the k-th one-card exchange's card given and card received are written at k/12."""
    game = pyspiel.load_game("python_dreyfus(exchange_mode=incremental)")
    state = play_out(game.new_initial_state(), np.random.RandomState(1), stop=lambda s: s.deal is not None)
    seat = state.current_player()
    observer = openspiel.CardGameObserver(game.rules, perfect_recall=True)
    given = []
    for _ in range(2):
        mark = next(a for a in state.legal_actions() if a < STAND)
        given.append(mark)
        state.apply_action(mark)
        state.apply_action(state.chance_outcomes()[0][0])
    observer.set_from(state, seat)
    assert [observer.dict["given"][card] for card in given] == pytest.approx([1 / 12, 2 / 12])
    assert sorted(observer.dict["received"][observer.dict["received"] > 0]) == pytest.approx([1 / 12, 2 / 12])
    dealt = observer.dict["dealt"]
    assert dealt.shape == (12, 52)
    assert [int(np.flatnonzero(row)[0]) for row in dealt] == state.dealt_in_order(seat)


def test_fly_12_2_parameters_map_to_rules_options() -> None:
    """FLY-12.2: a preset and explicit options; text options left empty keep the preset's value."""
    rules = openspiel.fly_rules_from_params({"players": 5, "preset": "mouche_1718", "forced_player": "none"})
    assert rules == fly.FlyRules.preset("mouche_1718", players=5)
    rules = openspiel.fly_rules_from_params({"players": 3, "deck_size": 52, "forced_player": "eldest"})
    assert isinstance(rules, fly.FlyRules)
    assert (rules.deck_size, rules.forced_player) == (52, "eldest")
    game = pyspiel.load_game("python_fly(players=6)")
    assert game.num_players() == 6
    assert game.num_distinct_actions() == 90
    assert pyspiel.load_game("python_dreyfus").num_distinct_actions() == 53


def test_fly_4_5_a_refilled_stock_is_refused() -> None:
    """FLY-4.5: the OpenSpiel game draws from the stock as chance, so it needs stock_exhaustion='cap'."""
    with pytest.raises(ValueError, match="stock_exhaustion"):
        fly_game.FlyKind(fly.FlyRules(stock_exhaustion="folded_hands"), 0)


def test_action_strings_name_every_kind_of_action() -> None:
    """Player action ids read as the engine's actions; the dealer's swap is hidden from the others."""
    game = pyspiel.load_game("python_fly(players=3,turnup_use=dealer_swap)")
    state = play_out(game.new_initial_state(), np.random.RandomState(0), stop=lambda s: s.deal is not None)
    while state.current_player() != 0:  # the dealer declares last
        state.apply_action(STAND)
    strings = [state.action_to_string(0, a) for a in state.legal_actions()]
    assert strings[:2] == ["stand", "fold"]
    assert any(s.startswith("swap-trump ") for s in strings)
    swap = next(a for a in state.legal_actions() if a >= SWAP)
    state.apply_action(swap)
    assert "seat 0: swap-trump" in state.information_state_string(1)
    assert state.action_to_string(0, 3) == "play 5♣"
    assert "drawing" not in str(state)


def test_mcts_bot_plays_fly_and_dreyfus_end_to_end() -> None:
    """OpenSpiel's MCTSBot (random rollouts) plays whole deals of both games through the adapter."""
    for name, deals in (("python_fly(players=3)", 2), ("python_dreyfus", 1)):
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(0)
        bots = [
            mcts.MCTSBot(
                game,
                2,
                8,
                mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)),
                random_state=np.random.RandomState(seat),
            )
            for seat in range(game.num_players())
        ]
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(outcomes, p=probabilities)))
                else:
                    action = bots[state.current_player()].step(state)
                    assert action in state.legal_actions()
                    state.apply_action(action)
            assert len(state.returns()) == game.num_players()


def test_every_chance_node_has_a_string() -> None:
    """Chance outcomes read as deals, the trump card and draws."""
    game = pyspiel.load_game("python_fly(players=3)")
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal 2♣ to seat 1"
    for card in [c.index for c in fly.FlyRules(players=3).deck][:15]:
        state.apply_action(card)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "trump card A♠"
    assert list(itertools.islice(str(state), 5)) == list("dealt")


def test_ismcts_bot_plays_full_fly_and_dreyfus_deals() -> None:
    """OpenSpiel's ISMCTSBot plays whole deals of Fly (four players) and Dreyfus: each search resamples
    the hidden cards from the information state, and ISMCTS itself asserts every resampled state has the
    searching seat's information-state string."""
    for name in ("python_fly(players=4)", "python_dreyfus", "python_fly(players=5,preset=mouche_1718)"):
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(1)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        bots = [
            ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(seat))
            for seat in range(game.num_players())
        ]
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                action = int(bots[state.current_player()].step(state))
                assert action in state.legal_actions()
                state.apply_action(action)
                decisions += 1
        assert decisions >= game.num_players()
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


class Sampler:
    """A stand-in for pyspiel's probability sampler: a fixed sequence of floats."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.RandomState(seed)

    def __call__(self) -> float:
        return float(self.rng.uniform())


@pytest.mark.parametrize(
    "name",
    [
        "python_fly(players=4,turnup_use=dealer_swap)",
        "python_dreyfus",
        "python_dreyfus(exchange_mode=incremental,reveal_discards=True)",
    ],
)
def test_fly_5_1_resample_from_infostate_keeps_the_infostate_and_hides_nothing_else(name: str) -> None:
    """FLY-5.1, DRF-11.1: at points of random deals, a resampled state has the seat's information-state
    string and legal actions; the hidden hands vary between samples; and the resample is a function of
    the seat's information only (the same sampler on a state with other hidden cards gives the same)."""
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(5)
    varied = points = 0
    for actions in (0, 4, 8, 12, 16, 24):

        def reached(s: Any, n: int = actions) -> bool:
            return not s.is_chance_node() and s.deal is not None and len(s.deal.actions) >= n

        state = play_out(game.new_initial_state(), rng, stop=reached)
        if state.is_terminal():
            continue
        points += 1
        seat = state.current_player()
        samples = [state.resample_from_infostate(seat, Sampler(k)) for k in range(4)]
        for sample in samples:
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.legal_actions() == state.legal_actions()
        varied += len({str(sample.deal.hands) for sample in samples}) > 1
        again = samples[0].resample_from_infostate(seat, Sampler(1))
        assert again.history() == samples[1].history()
    assert points >= 3
    assert varied >= points - 1


def test_resample_during_the_deal_and_during_draws() -> None:
    """While dealing, the cards other seats got are replaced by unseen ones; during an exchange's draws
    resampling is refused with a clear error."""
    game = pyspiel.load_game("python_fly(players=3)")
    state = game.new_initial_state()
    deck = [c.index for c in fly.FlyRules(players=3).deck]
    for card in deck[:12]:
        state.apply_action(card)
    other = state.resample_from_infostate(0, Sampler(0))
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.own_dealt(0) == state.own_dealt(0)
    assert other.own_dealt(1) != state.own_dealt(1)
    play_out(state, np.random.RandomState(0), stop=lambda s: s.deal is not None)
    seat = state.current_player()
    state.apply_action(*action_ids(state.deal, fly.Exchange(CardSet.of([min(state.deal.hands[seat])]))))
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="draws the replacements"):
        state.resample_from_infostate(seat, Sampler(0))


def test_fly_10_1_engine_bots_are_openspiel_bots() -> None:
    """FLY-10.1: the rule-of-thumb bot as a pyspiel.Bot beats random bots over 30 deals of Fly, and the
    Monte-Carlo bot plays a Dreyfus deal, through OpenSpiel's evaluate_bots."""
    game = pyspiel.load_game("python_fly(players=4)")
    rng = np.random.RandomState(3)
    totals = np.zeros(4)
    for deal in range(30):
        bots = [openspiel.engine_bot(game, "rule-of-thumb" if seat == 0 else "random", deal) for seat in range(4)]
        totals += evaluate_bots(game.new_initial_state(), bots, rng)
    assert totals[0] > max(totals[1:])
    dreyfus_game = pyspiel.load_game("python_dreyfus(exchange_mode=incremental)")
    bots = [openspiel.engine_bot(dreyfus_game, name, 1) for name in ("monte-carlo", "rule-of-thumb", "random")]
    assert len(evaluate_bots(dreyfus_game.new_initial_state(), bots, rng)) == 3
    with pytest.raises(ValueError, match="unknown bot 'chess'"):
        openspiel.engine_bot(game, "chess")


@pytest.mark.parametrize("name", ["python_fly(players=4)", "python_dreyfus"])
def test_rec_5_1_the_strings_write_cards_in_one_notation(name: str) -> None:
    """REC-5.1: observation_string, information_state_string and action_to_string all write cards in their
    symbols (``10♠``, ``6♣``), never in letters (``TS``, ``6C``), from the deal to the end."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    letters = re.compile(r"(?<![\w♠♥♦♣])[2-9TJQKA][CDHS](?!\w)")
    seen = ""
    while not state.is_terminal():
        player = state.current_player()
        if player >= 0:
            seen += state.observation_string(player) + state.information_state_string(player)
        seen += " ".join(state.action_to_string(player, a) for a in state.legal_actions()[:20])
        state.apply_action(rng.choice(state.legal_actions()))
    assert not letters.findall(seen)
    assert "10" in seen
    assert all(suit in seen for suit in "♠♥♦♣")
    assert "hand " in seen


@pytest.mark.parametrize(
    "name",
    ["python_fly", "python_fly(players=5)", "python_fly(players=4,preset=mouche_1718)", "python_dreyfus(preset=shram)"],
)
def test_fly_12_2_get_parameters_shows_the_rules_in_effect(name: str) -> None:
    """FLY-12.2: ``get_parameters()`` gives every option the preset chose its value (the 1718 rules: the
    A♠ ranks below the jack, play goes anticlockwise), and loading the game from them gives the same rules."""
    game = pyspiel.load_game(name)
    shown = game.get_parameters()
    left_to_preset = [k for k, v in shown.items() if v == "" and getattr(game.rules, k, None) is not None]
    assert left_to_preset == []
    assert pyspiel.load_game(name.split("(", maxsplit=1)[0], shown).rules == game.rules
    if "mouche_1718" in name:
        assert (shown["ace_rank"], shown["direction"], shown["deck_size"]) == ("below_jack", "anticlockwise", 36)


def test_ismcts_with_evaluate_bots_needs_restart_at_and_the_documented_subclass_plays() -> None:
    """What the OpenSpiel how-to says: ``evaluate_bots`` refuses OpenSpiel's own ``ISMCTSBot`` (no
    ``restart_at``), and the subclass the how-to gives plays a whole Fly deal through it."""
    game = pyspiel.load_game("python_fly(players=3)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))

    class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            self.reset()

    plain = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(s)) for s in range(3)]
    with pytest.raises(pyspiel.SpielError, match=r"RestartAt\(state\) not implemented"):
        evaluate_bots(game.new_initial_state(), plain, np.random.RandomState(0))
    bots = [RestartableISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(s)) for s in range(3)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3
    assert any(r != 0 for r in returns)


def _extremes(cls: type) -> dict[str, Any]:
    """Every whole-number option of a rules class pinned to one end of its range or the other (the deal limit
    aside: one deal is played)."""
    return {
        name: st.sampled_from([allowed.start, allowed.stop - 1])
        for name, allowed in declared_options(cls).items()
        if isinstance(allowed, range) and name not in ("players", "max_deals")
    }


_AT_EXTREMES: dict[str, st.SearchStrategy[Any]] = {
    "fly": fly_rules_options(stock_exhaustion="cap", **_extremes(fly.FlyRules)),
    "dreyfus": dreyfus_rules_options(**_extremes(dreyfus.DreyfusRules)),
}


@pytest.mark.parametrize("name", ["fly", "dreyfus"])
@settings(max_examples=200, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_the_utility_bounds_hold_at_every_option_s_extremes(
    name: str, data: st.DataObject, seed: int, choices: Any
) -> None:
    """FLY-8.2 to FLY-8.5, DRF-7.2, DRF-10.1: with every whole-number option at one end of its range or the other
    (records, trick value, bonuses, remise, penalties, par), a deal played out by random legal actions returns each
    seat an amount within the game's stated min_utility and max_utility."""
    rules: Any = data.draw(_AT_EXTREMES[name])
    game: OpenSpielGame[Any, Any] = adapter_part(rules.game, "OPEN_SPIEL")
    info = game.info(rules)
    kind = game.kind(rules, {**game.defaults, "dealer": 0})
    deal = (fly.new_match if rules.game == "fly" else dreyfus.new_match)(rules, seed=seed, dealer=0).deal
    while not deal.is_over:
        legal = deal.legal_actions()
        deal = deal.apply(legal[choices.randrange(len(legal))])
    returns = kind.returns(deal)
    assert all(info["min_utility"] <= r <= info["max_utility"] for r in returns), (returns, info)
