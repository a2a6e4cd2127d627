"""A third game, registered through the public registry, runs through every client with no edit
outside its own files: the notation, the commands, the picture, the bots, the Hypothesis strategies,
OpenSpiel and PettingZoo."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import attrs
import pyspiel
import pytest
from hypothesis import given, settings
from pettingzoo.test import api_test

from fly_rules import batch, registry, svg
from fly_rules.actions import Action
from fly_rules.adapters import openspiel
from fly_rules.adapters.pettingzoo import CardGameEnv, engine_policy
from fly_rules.bots import make_bot, play_match
from fly_rules.cards import CardSet
from fly_rules.notation.games import make_rules, new_game
from fly_rules.notation.history import dump_history, load_history
from fly_rules.notation.position import parse_position, position_of
from fly_rules.strategies import game_states, histories
from fly_rules.testing import ContractBroken, check_game, contract_test
from tests.cli.test_commands import in_process
from tests.thirdgame.game import WhistDeal, WhistMatch, WhistRules, WhistView
from tests.thirdgame.present import WHIST


@pytest.fixture(autouse=True)
def whist() -> Iterator[None]:
    """Whist is known to the registry for each test, and forgotten after it."""
    registry.register(WHIST)
    yield
    registry.unregister("whist")


def bots_match(seed: int, max_deals: int = 3, stop: int | None = None) -> WhistMatch:
    """A match played by the rule-of-thumb bot at every seat, stopped after ``stop`` actions if given."""
    rules = make_rules("whist", max_deals=max_deals)
    bot, rng = make_bot("rule-of-thumb", rules), random.Random(seed)
    match: WhistMatch = new_game(rules, seed=seed)
    while not match.is_over and (stop is None or len(match.actions) < stop):
        match = match.apply(bot.choose(match.view(match.to_move or 0), match.legal_actions(), rng))
    return match


def test_the_registry_lists_the_third_game_after_the_library_s_own() -> None:
    """Registered once, the game is found by name and by its states' ``game``; registering it again
    changes nothing, another game of the same name is refused."""
    assert registry.games() == ("fly", "dreyfus", "whist")
    assert registry.get("whist") is WHIST is registry.game_of(bots_match(1, stop=4))
    assert registry.register(WHIST) is WHIST
    with pytest.raises(ValueError, match="already registered"):
        registry.register(attrs.evolve(WHIST, title="Another whist"))
    with pytest.raises(ValueError, match="library's own"):
        registry.unregister("fly")


@pytest.mark.parametrize("stop", [0, 7, 20, None])
def test_rec_5_3_positions_and_histories_round_trip(stop: int | None) -> None:
    """REC-5.3, REC-4.2: a position of the deal in progress reads back as the same deal, and a history
    of the match loads back as the same match and writes the same text."""
    match = bots_match(5, stop=stop)
    line = position_of(match)
    assert line.startswith("whist max_deals=3 ")
    assert parse_position(line) == match.deal
    text = dump_history(match)
    loaded = load_history(text)
    assert loaded == match
    assert dump_history(loaded) == text


def test_rec_2_4_an_explicit_deal_round_trips_as_a_history() -> None:
    """REC-2.4: an explicit deal's history keeps its start table, and loads back as the deal."""
    deal = bots_match(2, stop=0).deal
    played = deal.apply(deal.legal_actions()[0])
    text = dump_history(played, start=deal.start_fields())
    assert "[start]" in text
    assert load_history(text) == played


def test_demo_simulate_replay_and_show_take_the_game(tmp_path: Path) -> None:
    """The command's subcommands offer the game and tell it with its own words."""
    code, out, err = in_process(["demo", "--game", "whist", "--max-deals", "2", "--seed", "3"], "")
    assert (code, err) == (0, "")
    assert out.startswith("Whist, 3 players, preset 'default', seed 3;")
    assert "trump card" in out
    assert "-> seat" in out
    assert "== Match over" in out
    code, out, err = in_process(["simulate", "--game", "whist", "-n", "4", "--json", "--max-deals", "2"], "")
    assert (code, err) == (0, "")
    summary = json.loads(out)
    assert (summary["game"], summary["matches"]) == ("whist", 4)
    saved = tmp_path / "whist.toml"
    saved.write_text(dump_history(bots_match(8, max_deals=2)), encoding="utf-8")
    code, out, _ = in_process(["replay", str(saved)], "")
    assert code == 0
    assert out.startswith(f"Whist history {saved}: 3 players")
    assert "points:" in out
    code, out, _ = in_process(["replay", "--check", str(saved)], "")
    assert code == 0
    assert out.startswith(f"ok: {saved} replays (whist, ")
    picture = tmp_path / "deal.svg"
    deal = bots_match(4, stop=5).deal
    position = position_of(deal, start=bots_match(4, stop=0).deal)
    code, out, _ = in_process(["show", position, "--svg", str(picture), "--seat", "1"], "")
    assert code == 0
    assert out.startswith("Whist; seat 0 deals; trump card")
    backs = len(deal.hands[0]) + len(deal.hands[2])  # the others' hands, as seat 1 sees them
    assert picture.read_text(encoding="utf-8").count('class="card back"') == backs


def test_the_picture_shows_every_hand_of_a_deal() -> None:
    """svg.deal_picture draws the game from its descriptor: three hands of twelve and the trump card."""
    deal = bots_match(6, stop=0).deal
    assert svg.deal_picture(deal).count('class="card"') == 37
    assert "Whist, deal 1" in svg.deal_picture(deal.view(0))


@pytest.mark.parametrize("bot", ["random", "rule-of-thumb", "monte-carlo"])
def test_every_bot_plays_a_match_of_the_game(bot: str) -> None:
    """The bots play from the view alone; the Monte-Carlo bot guesses hidden cards through the game's guesser."""
    rules = make_rules("whist", max_deals=1 if bot == "monte-carlo" else 3)
    result = play_match(rules, [bot, "random", "random"], 11, 0, None)
    assert result.deals >= 1
    assert result.seats == (bot, "random", "random")


@settings(max_examples=15, deadline=None)
@given(histories(game="whist", max_actions=40))
def test_rec_1_1_the_strategies_draw_histories_of_the_game(text: str) -> None:
    """REC-1.1: the shipped strategies draw reachable matches of any registered game."""
    assert dump_history(load_history(text)) == text


@settings(max_examples=10, deadline=None)
@given(game_states("whist", max_actions=30))
def test_the_strategies_draw_reachable_states(match: WhistMatch) -> None:
    """Every seat's view shows at most twelve cards."""
    assert all(len(match.view(seat).hand) <= 12 for seat in range(3))


def test_openspiel_random_sim_test() -> None:
    """OpenSpiel's RandomSimTest on ``python_whist``, registered from the game's adapter module."""
    game_class = openspiel.game_class("whist")
    game = pyspiel.load_game("python_whist")
    assert isinstance(game, game_class)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    resampled = state.resample_from_infostate(1, random.Random(0).random)
    assert resampled.information_state_string(1) == state.information_state_string(1)


def test_pettingzoo_api_test() -> None:
    """PettingZoo's api_test, and a bot policy playing an episode."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(CardGameEnv(WhistRules(), max_deals=2), num_cycles=200)
    env = CardGameEnv(WhistRules())
    env.reset(seed=2)
    policy = engine_policy(env, "rule-of-thumb")
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else policy(None, agent))
    assert env.match.is_over


def test_the_batch_engine_names_the_games_it_plays() -> None:
    """A game whose descriptor names no batch engine is refused by ``batch.make``, which names the
    games it plays; the two of the library are found through their descriptors."""
    with pytest.raises(ValueError, match=r"does not play 'whist' \(it plays: fly, dreyfus\)"):
        batch.make("whist", 2)
    assert [type(batch.make(name, 2)).__name__ for name in ("fly", "dreyfus")] == ["FlyBatch", "DreyfusBatch"]
    assert batch.make("fly", 2).rules.players == 4  # the game's one default table size, as its descriptor has it


def test_the_solver_and_its_refusals_reach_the_third_game() -> None:
    """The solver walks a game without a search kernel of its own through its states' protocol (max^n equals a
    walk of every line), and the expert bot and the analysis, which need a game's hints, refuse it in one line."""
    from fly_rules.analysis import review
    from fly_rules.bots import ExpertBot
    from fly_rules.solve import solve
    from tests.solve.brute import Brute

    match = bots_match(3, max_deals=1, stop=30)
    deal = match.deal
    solution = solve(deal)
    final, line = Brute(10**6).maxn(deal)
    assert list(solution.line) == line
    assert solution.values == tuple(f - s for f, s in zip(final, deal.scores, strict=True))
    with pytest.raises(TypeError, match="does not know how to play Whist"):
        ExpertBot(match.rules)
    with pytest.raises(TypeError, match="^the analysis needs a game's expert hints: Whist has none$"):
        review(match, match.legal_actions()[0])


WHIST_RULES = ("WHIST-1", "WHIST-2", "WHIST-3")
"""The rules of tests/thirdgame/game.py, which its refusals name (whist is not in specs/)."""

test_whist_keeps_the_engine_contract = contract_test("whist", rule_ids=WHIST_RULES, seeds=(0, 1), max_actions=60)


@attrs.frozen(eq=False)
class _LeakyDeal(WhistDeal):
    """A broken whist: each seat's view shows the next seat's hand in its own."""

    def view(self, seat: int) -> WhistView:
        """The seat's view, with the next seat's cards added to its hand."""
        own = super().view(seat)
        return attrs.evolve(own, hand=CardSet(self.hand_masks[seat] | self.hand_masks[(seat + 1) % 3]))


@attrs.frozen(eq=False)
class _MutatingDeal(WhistDeal):
    """A broken whist: ``apply`` returns the new deal but also writes its hands into the old one."""

    def apply(self, action: Action) -> WhistDeal:
        """The deal after ``action``; the deal it was asked of now holds the new hands too."""
        after = super().apply(action)
        object.__setattr__(self, "hand_masks", after.hand_masks)  # the bug: the frozen deal is written to
        return after

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WhistDeal) and attrs.astuple(self, recurse=False) == attrs.astuple(
            other, recurse=False
        )

    def __hash__(self) -> int:
        return hash(attrs.astuple(self, recurse=False))


def _broken(cls: type[WhistDeal]) -> registry.Game[WhistRules, WhistDeal, WhistView]:
    """Whist's descriptor, its matches replaced by lone deals of ``cls``."""

    def new_broken(rules: WhistRules, *, seed: int | str, dealer: int | None = None) -> WhistDeal:
        deal = new_game(rules, seed=seed).deal
        return cls(**{f.name: getattr(deal, f.name) for f in attrs.fields(WhistDeal)})

    return attrs.evolve(WHIST, new_match=new_broken)


def test_a_view_that_shows_another_hand_breaks_the_contract() -> None:
    """check_game fails a whist whose views show the next seat's hand: no deal guessed from such a view with the
    hidden cards dealt afresh shows the same view."""
    with pytest.raises(ContractBroken, match=r"whist: view: no deal with the cards seat 0 cannot see") as caught:
        check_game(_broken(_LeakyDeal), rule_ids=WHIST_RULES, seeds=(0,), max_actions=5)
    assert caught.value.check == "view"
    report = check_game(_broken(WhistDeal), rule_ids=WHIST_RULES, seeds=(0,), max_actions=5)
    assert report.views > 0  # the same lone deal, unbroken, passes the view check


def test_an_apply_that_changes_the_old_state_breaks_the_contract() -> None:
    """check_game fails a whist whose ``apply`` writes into the deal it was asked of, at the first action."""
    with pytest.raises(
        ContractBroken, match=r"whist: apply: apply\(play .*\) changed the state it was given"
    ) as caught:
        check_game(_broken(_MutatingDeal), rule_ids=WHIST_RULES, seeds=(0,), max_actions=5)
    assert caught.value.check == "apply"
    assert "after 0 actions" in str(caught.value)
