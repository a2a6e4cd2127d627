"""The registry of games: found by name and by a state's ``game``, unknown names refused clearly, and
each game's own actions read and written only through its descriptor [REC-3.2] [REC-5.1]."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
import pytest

from fly_rules import Card, dreyfus, fly, registry
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

        def __init__(self, rules: dreyfus.DreyfusRules) -> None:
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


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh Python process, where no game's package is imported yet."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[1]
    )
    return done.stdout.strip()


def test_a_fresh_process_finds_a_game_by_its_name_or_by_a_value_s_game_before_its_package_is_imported() -> None:
    """The registry imports the library's games when first asked for one by name, or for the game of a value whose
    ``game`` names it, so a program may ask before it imports ``fly_rules.fly``."""
    ask = "import sys; from fly_rules import registry; print('fly_rules.dreyfus' in sys.modules, {})"
    title = registry.get("dreyfus").title
    assert _fresh(ask.format("registry.get('dreyfus').title")) == f"False {title}"
    seen = "type('Seen', (), {'game': 'dreyfus'})()"
    assert (
        _fresh(ask.format(f"registry.game_of({seen}).title"))
        == f"False {registry.game_of(type('Seen', (), {'game': 'dreyfus'})()).title}"
    )


class _Impostor:
    """Equal to the text ``fly`` and hashed like it, but not text."""

    def __eq__(self, other: object) -> bool:
        return other == "fly"

    def __hash__(self) -> int:
        return hash("fly")


@pytest.mark.parametrize("name", [["fly"], _Impostor()], ids=["a list", "not text, equal to fly"])
def test_only_text_names_a_game(name: object) -> None:
    """A game is looked up by text only: a list (no key at all) or a value equal to a game's name but not text is
    an unknown game (InvalidRules on the option ``game``), and rules whose ``game`` is such a value are no rules."""
    with pytest.raises(InvalidRules, match="unknown game") as refused:
        registry.get(name)
    assert refused.value.option == "game"
    rules = type("Rules", (), {"game": name})()
    with pytest.raises(TypeError, match=r"rules must be a registered game's rules \(FlyRules, DreyfusRules.*not Rules"):
        registry.rules_game(rules)


def test_the_texts_every_game_shares() -> None:
    """A seat, a count of tricks and a long line read the same in every game: wrapped at 80 columns, the later
    lines indented as asked, never broken at a hyphen."""
    assert (registry.seat_text(0), registry.seat_text(None)) == ("seat 0", "nobody (over)")
    assert [registry.tricks_text(n) for n in (0, 1, 2)] == ["0 tricks", "1 trick", "2 tricks"]
    words = "the ace-of-spades " * 10
    lines = registry.wrapped_lines(words, "> ", "..")
    assert len(lines) == 3
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("> the ace-of-spades")
    assert all(line.startswith("..") and not line.startswith("...") for line in lines[1:])
    assert " ".join(line[2:] for line in lines) == words.strip()  # whole words: no cut at a hyphen
    assert registry.wrapped_lines("a b") == ["   a b"]  # indented by three by default
    assert registry.wrapped_lines("a" * 40 + " " + "b" * 39, "") == ["a" * 40 + " " + "b" * 39]  # 80: one line
    assert registry.wrapped_lines("a" * 40 + " " + "b" * 40, "") == ["a" * 40, "b" * 40]  # 81: two
    assert registry.wrapped_lines("word " * 20, "  ")[1].startswith("  word")


def test_a_position_s_whole_number_names_its_field_and_its_sign() -> None:
    """REC-5.1: a field's number is read as text; a sign where the field takes none is refused naming the field."""
    assert registry.whole_number("-3", "records") == -3
    assert registry.whole_number("7", "dealer", signed=False) == 7
    with pytest.raises(InvalidNotation, match="dealer: '-3' is not a non-negative whole number"):
        registry.whole_number("-3", "dealer", signed=False)


def test_a_lazy_piece_is_imported_on_use_with_every_argument() -> None:
    """A lazy name is called with its positional and keyword arguments; without a name it is the module itself."""
    shorten = registry.lazy("textwrap", "shorten")
    assert shorten("the ace of spades takes the trick", width=20, placeholder="~") == "the ace of spades~"
    assert registry.lazy("textwrap").get() is textwrap
    assert repr(shorten) == "lazy('textwrap', 'shorten')"
    assert repr(registry.lazy("textwrap")) == "lazy('textwrap')"


def test_a_game_s_own_action_form_gives_the_card_of_its_own_actions_only() -> None:
    """REC-3.2: Fly's swap of the trump card gives its card; another action is refused naming the form's class."""
    form = registry.get("fly").actions[0]
    assert form.card_of(form.cls(Card.parse("7H"))) == Card.parse("7H")
    with pytest.raises(TypeError, match=f"Stand\\(\\) is not a {form.cls.__name__}"):
        form.card_of(fly.Stand())
