"""FLY-12, Variants and presets (specs/fly.md §12): each test named after the rule it checks."""

from __future__ import annotations

import pytest

from fly_rules import InvalidRules, fly
from tests.fly.helpers import THREE_FLUSHES, position, stand_all


@pytest.mark.parametrize(("flush_wins", "over"), [(True, True), (False, False)])
def test_fly_12_1_flush_wins_the_deal(flush_wins: bool, over: bool) -> None:
    """FLY-12.1: with flush_wins=True five clubs win all five tricks without play; the others pay the remise."""
    d = stand_all(position(("7C 8C 9C TC JC", "KH 7D 8D 9D TD", "8H 9H QC 7S 8S"), flush_wins=flush_wins))
    assert d.is_over is over
    if over:
        assert d.tricks_taken == (5, 0, 0)
        assert d.records == (20, 30, 30)
    else:
        assert d.phase is fly.Phase.PLAY


@pytest.mark.parametrize(("players", "stock"), [(3, 16), (4, 15), (5, 22), (6, 21)])
def test_fly_12_2_mouche_1718_preset(players: int, stock: int) -> None:
    """FLY-12.2: the "mouche_1718" preset — ace below jack, decks 32/36/48/52, 3+2 deal, anticlockwise,
    dealer swaps the turn-up, flush wins, no A♠ rule."""
    rules = fly.FlyRules.preset("mouche_1718", players=players)
    assert rules.ace_rank == "below_jack"
    assert rules.deal_packets == (3, 2)
    assert rules.direction == "anticlockwise"
    assert rules.turnup_use == "dealer_swap"
    assert rules.flush_wins is True
    assert rules.ace_of_spades_mode == "none"
    assert len(fly.new_match(rules, seed=2, dealer=0).deal.stock) == stock


def test_fly_12_2_default_preset_and_unknown_name() -> None:
    """FLY-12.2: the "default" preset is FlyRules(players=n); an unknown preset name is invalid."""
    assert fly.FlyRules.preset("default", players=4) == fly.FlyRules(players=4)
    with pytest.raises(InvalidRules):
        fly.FlyRules.preset("no_such_preset", players=4)
    assert isinstance(fly.RULES_VERSION, int)


def test_fly_12_2_a_preset_s_deck_follows_the_players_unless_overridden() -> None:
    """FLY-12.2: "mouche_1718" picks its deck by the number of players, unless ``deck_size`` is
    given; "default" keeps the default decks; any option may be overridden; an unknown name or a
    bad number of players is refused, naming the option."""
    assert fly.FlyRules.preset("default", players=5).deck_size == 52
    assert fly.FlyRules.preset("mouche_1718", players=5).deck_size == 48
    assert fly.FlyRules.preset("mouche_1718", players=5, deck_size=52).deck_size == 52
    assert fly.FlyRules.preset("mouche_1718") == fly.FlyRules.preset("mouche_1718", players=4)
    clockwise = fly.FlyRules.preset("mouche_1718", players=4, direction="clockwise")
    assert (clockwise.direction, clockwise.ace_rank, clockwise.deck_size) == ("clockwise", "below_jack", 36)
    with pytest.raises(InvalidRules) as caught:
        fly.FlyRules.preset("mouche", players=4)
    assert caught.value.option == "preset"
    assert caught.value.detail == "FLY-12.2: unknown preset 'mouche' (known: default, mouche_1718)"
    for players in (8, [3], 3.0):
        with pytest.raises(InvalidRules) as caught:
            fly.FlyRules.preset("mouche_1718", players=players)  # type: ignore[arg-type]
        assert caught.value.option == "players"


@pytest.mark.parametrize(
    ("mode", "tricks"),
    [("top_trump", (5, 0, 0)), ("led_trump_ace", (0, 0, 5)), ("none", (0, 0, 5))],
)
def test_fly_12_1_fly_7_1_top_trump_ace_of_spades_counts_as_a_trump_for_the_flush(
    mode: str, tricks: tuple[int, int, int]
) -> None:
    """FLY-12.1 (Decision) with FLY-7.1: under ``top_trump`` four trumps and the A♠ are a flush in trumps and
    win before seat 2's plain club flush; in the other modes the A♠ is a spade there, no flush."""
    hands = ("AS 7H 8H TH JH", "7D 8D 9D TD 7S", "7C 8C 9C TC JC")
    d = stand_all(position(hands, "9H", flush_wins=True, ace_of_spades_mode=mode))
    assert d.is_over
    assert d.tricks_taken == tricks


@pytest.mark.parametrize(("mode", "flush"), [("top_trump", False), ("led_trump_ace", True)])
def test_fly_12_1_top_trump_ace_of_spades_is_no_spade_for_a_flush(mode: str, flush: bool) -> None:
    """FLY-12.1 (Decision): under ``top_trump`` (hearts trump) the A♠ with four other spades is not a flush; in
    the default mode it is one."""
    hands = ("AS KS QS JS TS", "7D 8D 9D TD 7H", "7C 8C 9C 8H JC")
    d = stand_all(position(hands, "9H", flush_wins=True, ace_of_spades_mode=mode))
    assert d.is_over is flush
    assert d.tricks_taken == ((5, 0, 0) if flush else (0, 0, 0))


@pytest.mark.parametrize(
    ("hands", "trump", "tricks"),
    [
        pytest.param(THREE_FLUSHES, "9H", (0, 5, 0), id="trumps-beat-the-earlier-clubs"),
        pytest.param(("7C 8C 9C TC JC", "7D 8H 9D TH JH", "7S 8S 9S TS JS"), "9H", (5, 0, 0), id="first-plain"),
        pytest.param(("7C 8C 9C TC JC", "7D 8H 9D TH JH", "7S 8S 9S TS JS"), "QS", (0, 0, 5), id="spades-trump"),
        pytest.param(("7C 8C 9C TC JC", "7D 8H 9D TH JH", "7S 8S 9S TS JS"), "QC", (5, 0, 0), id="clubs-trump"),
    ],
)
def test_fly_12_1_flush_in_trumps_wins_else_first_from_dealers_left(
    hands: tuple[str, str, str], trump: str, tricks: tuple[int, int, int]
) -> None:
    """FLY-12.1: among several flushes, a flush in trumps wins; else the first from the dealer's left."""
    d = stand_all(position(hands, trump, flush_wins=True))
    assert d.is_over
    assert d.tricks_taken == tricks


def test_fly_12_1_a_folded_flush_does_not_count() -> None:
    """FLY-12.1: only an active player's flush wins; a folded trump flush leaves the plain flush to win."""
    d = position(THREE_FLUSHES, "9H", flush_wins=True)
    d = stand_all(d.apply(fly.Stand()).apply(fly.Fold()))
    assert d.tricks_taken == (5, 0, 0)
