"""The registry of games: found by name and by a state's ``game``, unknown names refused clearly, and
each game's own actions read and written only through its descriptor [REC-3.2] [REC-5.1]."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from fly_rules import dreyfus, fly, registry
from fly_rules.bots import ExpertBot, MonteCarloBot, make_bot, play_match
from fly_rules.bots.sampling import sample_deal
from fly_rules.engine import MatchBase
from fly_rules.errors import InvalidNotation, InvalidRules
from fly_rules.fly.race import race_of
from fly_rules.notation.games import action_text, game_of, options_of, parse_action
from fly_rules.notation.position import parse_position


def test_the_library_s_games_are_found_by_name_and_by_their_states() -> None:
    """Both games are registered by their packages, in the library's order."""
    assert registry.games()[:2] == ("fly", "dreyfus")
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1)
    assert registry.game_of(match) is registry.get("dreyfus")
    assert registry.game_of(match.view(0)).title == "Dreyfus"
    assert game_of(fly.FlyRules()) == "fly"


def test_an_unknown_game_is_refused_naming_the_known_ones() -> None:
    """A name no game has is an InvalidRules listing the games; a value without a game is a TypeError."""
    with pytest.raises(InvalidRules, match="unknown game 'chess' \\(known: fly, dreyfus"):
        registry.get("chess")
    with pytest.raises(InvalidRules, match="unknown game"):
        registry.get(None)
    with pytest.raises(TypeError, match="registered game: object"):
        registry.game_of(object())


def test_rec_3_2_a_game_s_own_verb_is_read_only_for_that_game() -> None:
    """REC-3.2: ``swap-trump`` is Fly's: read for Fly (and for any game when none is named), refused for Dreyfus."""
    swap = fly.SwapTrump("9H")
    assert action_text(swap) == "swap-trump 9H"
    assert parse_action("swap-trump 9h") == swap == parse_action("swap-trump 9H", "fly")
    with pytest.raises(InvalidNotation, match="expected 'stand', 'fold', 'exchange CARDS' or 'play CARD'"):
        parse_action("swap-trump 9H", "dreyfus")


def test_rec_5_1_a_position_names_a_registered_game() -> None:
    """REC-5.1: the first field is a registered game's name; the message lists them."""
    with pytest.raises(InvalidNotation, match="a position starts with a game's name: fly, dreyfus"):
        parse_position("chess - 0")


def test_a_name_taken_by_another_descriptor_is_refused_and_the_same_one_registers_again() -> None:
    """Registering a game's own descriptor again changes nothing; another descriptor under a taken name is
    refused, naming it, and the first stays registered."""
    fly_game = registry.get("fly")
    assert registry.register(fly_game) is fly_game
    with pytest.raises(ValueError, match="^a game named 'fly' is already registered$"):
        registry.register(attrs.evolve(fly_game, title="Another Fly"))
    assert registry.get("fly") is fly_game


@pytest.mark.parametrize("name", ["fly", "dreyfus"])
def test_the_library_s_own_games_cannot_be_unregistered(name: str) -> None:
    """``unregister`` forgets only a game registered from outside the library: the library's own are refused."""
    with pytest.raises(ValueError, match=f"^'{name}' is one of the library's own games$"):
        registry.unregister(name)
    assert registry.get(name).name == name


class _SoloRules:
    """The rules object of a game registered by this test (only its ``game`` is asked)."""

    game = "solo"


def test_a_game_registered_from_outside_is_listed_last_found_by_its_states_and_unregistered() -> None:
    """A game registered from outside the library comes after the library's own in ``games()``, is found by
    name and by its states' ``game``, and once unregistered is unknown again (a second unregister is no error)."""
    fly_game: registry.Game[Any, Any, Any] = registry.get("fly")  # a descriptor of another rules class
    solo = attrs.evolve(fly_game, name="solo", title="Solo", rules_class=_SoloRules)
    registry.register(solo)
    try:
        assert registry.games()[:2] == ("fly", "dreyfus")
        assert registry.games()[-1] == "solo"
        assert registry.get("solo") is solo
        assert registry.game_of(_SoloRules()) is solo
    finally:
        registry.unregister("solo")
    registry.unregister("solo")
    assert "solo" not in registry.games()
    with pytest.raises(InvalidRules, match="unknown game 'solo'"):
        registry.get("solo")
    with pytest.raises(TypeError, match="not a state, view or rules of a registered game: _SoloRules"):
        registry.game_of(_SoloRules())


@pytest.mark.parametrize("name", [None, 5, ("fly",)])
def test_a_name_that_is_not_text_is_an_unknown_game(name: object) -> None:
    """A game's name is text: anything else is refused as an unknown game, listing the known ones."""
    with pytest.raises(InvalidRules, match=r"unknown game .* \(known: fly, dreyfus"):
        registry.get(name)


@pytest.mark.parametrize("name", registry.games())
def test_every_lazy_piece_of_a_game_satisfies_its_protocol(name: str) -> None:
    """Each registered game's expert hints are an ExpertHints (Fly's also a ModelHints, whose model the expert
    takes by default), its search kernel a SearchKernel, its action ids an ActionSpace, its rule of thumb a Bot."""
    from fly_rules.engine.encoding import ActionSpace
    from fly_rules.engine.hints import ExpertHints, ModelHints
    from fly_rules.engine.protocols import Bot
    from fly_rules.engine.solving import SearchKernel

    game = registry.get(name)
    rules = game.make_rules("default", None, {})
    match = game.new_match(rules, seed=1)
    assert isinstance(match, MatchBase)
    assert isinstance(game.action_ids, ActionSpace)
    assert isinstance(game.rule_of_thumb(rules.rank_order), Bot)
    assert game.expert is not None
    hints = game.expert(rules)
    assert isinstance(hints, ExpertHints)
    assert isinstance(hints, ModelHints) == hints.model_others == (name == "fly")
    assert game.search_kernel is not None
    assert isinstance(game.search_kernel(match.deal), SearchKernel)


def test_hints_without_a_member_of_the_protocol_are_refused_by_the_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert checks the hints a game gives it against ExpertHints, naming the game."""
    from fly_rules.bots import ExpertBot
    from fly_rules.dreyfus.bot import DreyfusExpertHints

    class Partial:
        """Dreyfus's hints without their declarations worth searching."""

        def __init__(self, rules: object) -> None:
            whole = DreyfusExpertHints(rules)
            for member in ("concept", "expert_concept", "model_others", "samples", "budget"):
                setattr(self, member, getattr(whole, member))
            self.world, self.default_declaration = whole.world, whole.default_declaration
            self.replay_records = whole.replay_records

    partial: Any = Partial  # mypy refuses it as the descriptor's expert: the point is that the expert does too
    monkeypatch.setitem(registry._GAMES, "dreyfus", attrs.evolve(registry.get("dreyfus"), expert=partial))
    with pytest.raises(TypeError, match="Dreyfus's expert hints are not an ExpertHints: Partial"):
        ExpertBot(dreyfus.DreyfusRules())


def test_every_function_that_takes_a_game_s_rules_refuses_other_values_by_name() -> None:
    """A game's name, a number, a match or another game's rules given as rules are refused with a TypeError naming
    the rules class wanted, wherever a function takes rules (they were read as something else, or failed deep
    inside: ``make_bot("random", "fly")`` made a bot)."""
    fly_rules, dreyfus_rules = fly.FlyRules(players=3), dreyfus.DreyfusRules()
    match = fly.new_match(fly_rules, seed=1, dealer=0)
    seat = match.to_move
    assert seat is not None
    view = match.view(seat)
    calls: list[Any] = [
        options_of,
        lambda bad: make_bot("random", bad),
        MonteCarloBot,
        ExpertBot,
        lambda bad: play_match(bad, ["random"] * 3, 1, 0, 1),
    ]
    for bad in ("fly", 3, match):
        for call in calls:
            with pytest.raises(TypeError, match=r"rules must be a registered game's rules \(FlyRules, DreyfusRules"):
                call(bad)
    pettingzoo = pytest.importorskip("fly_rules.adapters.pettingzoo")
    with pytest.raises(TypeError, match="rules must be FlyRules, not DreyfusRules"):
        pettingzoo.fly_env(dreyfus_rules)
    with pytest.raises(TypeError, match="rules must be DreyfusRules, not FlyRules"):
        pettingzoo.dreyfus_env(fly_rules)
    with pytest.raises(TypeError, match="rules must be FlyRules, not str"):
        race_of("fly")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be FlyRules, not DreyfusRules"):
        sample_deal(view, dreyfus_rules, random.Random(0))
    assert registry.rules_game(fly_rules).name == "fly"
    assert make_bot("random", dreyfus_rules) is not None
