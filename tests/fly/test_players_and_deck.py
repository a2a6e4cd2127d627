"""FLY-1, Players, deck and ranking (specs/fly.md §1): each test named after the rule it checks."""

from __future__ import annotations

import pytest

from fly_rules import CardSet, InvalidRules, deck_of_size, fly
from tests.fly.helpers import STANDARD_DECK, STOCK_SIZE, play, position, sliced, stand_all


@pytest.mark.parametrize("players", [0, 1, 2, 8, 9])
def test_fly_1_1_player_count_out_of_range_is_invalid(players: int) -> None:
    """FLY-1.1: fewer than 3 or more than 7 players is refused with InvalidRules."""
    with pytest.raises(InvalidRules):
        fly.FlyRules(players=players)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_fly_1_1_three_to_seven_players_are_valid(players: int) -> None:
    """FLY-1.1: 3 to 7 players are valid and every record starts at 25 (FLY-8.1)."""
    m = fly.new_match(fly.FlyRules(players=players), seed=1, dealer=0)
    assert m.records == (25,) * players
    assert len(m.deal.hands) == players


def test_fly_1_2_declarations_start_left_of_dealer_and_go_left() -> None:
    """FLY-1.2, FLY-4.1: seat (dealer + 1) % n declares first and the turn passes to the left."""
    d = sliced(4, dealer=0)
    seen = []
    while d.phase is fly.Phase.EXCHANGE:
        seen.append(d.to_move)
        d = d.apply(fly.Stand())
    assert seen == [1, 2, 3, 0]
    assert d.to_move == 1
    d = sliced(4, dealer=3)
    assert d.to_move == 0


def test_fly_1_2_anticlockwise_option_reverses_every_direction() -> None:
    """FLY-1.2: with direction="anticlockwise" the seat to the dealer's right declares, leads and plays first."""
    d = sliced(4, dealer=0, direction="anticlockwise")
    seen = []
    while d.phase is fly.Phase.EXCHANGE:
        seen.append(d.to_move)
        d = d.apply(fly.Stand())
    assert seen == [3, 2, 1, 0]
    order = []
    for _ in range(4):
        order.append(d.to_move)
        d = d.apply(d.legal_actions()[0])
    assert order == [3, 2, 1, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_fly_1_3_deck_by_players_and_stock_size(players: int) -> None:
    """FLY-1.3, FLY-3.4: 32/36/52 cards by players; five each, one turn-up, the rest is the stock."""
    m = fly.new_match(fly.FlyRules(players=players), seed=3, dealer=0)
    d = m.deal
    assert len(d.stock) == STOCK_SIZE[players]
    assert all(len(hand) == 5 for hand in d.hands)
    everything = CardSet.of([d.trump_card, *d.stock])
    for hand in d.hands:
        everything = everything | hand
    assert everything == deck_of_size(STANDARD_DECK[players])
    assert d.trump_card not in d.stock


def test_fly_1_3_deck_size_option_and_invalid_sizes() -> None:
    """FLY-1.3: deck_size picks another standard deck; it must hold 5n+1 cards and be a standard size."""
    m = fly.new_match(fly.FlyRules(players=4, deck_size=52), seed=3, dealer=0)
    assert len(m.deal.stock) == 31
    with pytest.raises(InvalidRules):
        fly.FlyRules(players=7, deck_size=32)
    with pytest.raises(InvalidRules):
        fly.FlyRules(players=4, deck_size=40)


@pytest.mark.parametrize(("ace_rank", "winner"), [("high", 1), ("below_jack", 0)])
def test_fly_1_4_ace_high_by_default_below_jack_as_option(ace_rank: str, winner: int) -> None:
    """FLY-1.4: K♣, A♣, 7♣: the ace wins when ace high, the king when the ace ranks below the jack."""
    d = stand_all(position(("KC 8D 9D TD JD", "AC 7S 8S 9S TS", "7C QD KD AD JS"), ace_rank=ace_rank))
    d = play(d, "KC AC 7C")
    expected = [0, 0, 0]
    expected[winner] = 1
    assert d.tricks_taken == tuple(expected)
    assert d.leader == winner
