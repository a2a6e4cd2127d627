"""The one-line position notation [REC-5.1] [REC-5.2] [REC-5.3]."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import dreyfus, fly
from fly_rules.errors import InvalidNotation
from fly_rules.notation.position import parse_position, position_of
from tests.notation.helpers import random_dreyfus_match, random_fly_match

HANDS = ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"]


def explicit_fly(seed: int, steps: int, players: int) -> tuple[fly.FlyDeal, fly.FlyDeal]:
    """A Fly deal made by new_deal from a shuffle, and the same deal after random moves."""
    rules = fly.FlyRules.preset("mouche_1718" if seed % 2 else "default", players=players)
    cards = list(rules.deck)
    random.Random(seed).shuffle(cards)
    hands = [cards[5 * s : 5 * s + 5] for s in range(players)]
    start = fly.new_deal(
        rules, hands=hands, trump_card=cards[5 * players], stock=cards[5 * players + 1 :], dealer=seed % players
    )
    rng = random.Random(seed)
    deal = start
    for _ in range(steps):
        if deal.is_over:
            break
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return start, deal


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), players=st.integers(3, 7))
def test_rec_5_3_fly_position_round_trips_to_an_equal_deal(seed: int, steps: int, players: int) -> None:
    """REC-5.3, REC-5.1: a Fly deal made by new_deal, after any moves, parses back equal."""
    start, deal = explicit_fly(seed, steps, players)
    text = position_of(deal, start=start)
    assert "\n" not in text
    assert parse_position(text) == deal
    assert position_of(parse_position(text), start=start) == text


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_rec_5_3_match_positions_read_back_as_the_same_deal_without_the_seed(seed: int, steps: int) -> None:
    """REC-5.3: a match's current deal reads back with the same hands, trick, turn and views."""
    match = random_fly_match(seed, steps, 4)
    deal = parse_position(position_of(match))
    assert isinstance(deal, fly.FlyDeal)
    assert deal.to_move == match.to_move
    assert deal.hands == match.deal.hands
    assert deal.records == match.records
    assert deal.trick == match.deal.trick
    for seat in range(4):
        assert deal.view(seat).hand == match.view(seat).hand
    drey, taken = random_dreyfus_match(seed, steps)
    deal2 = parse_position(position_of(drey, moves=taken))
    assert deal2 == drey.deal


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 50))
def test_rec_5_2_dreyfus_position_round_trips(seed: int, steps: int) -> None:
    """REC-5.2, REC-5.3: an explicit Dreyfus deal after random moves parses back equal, text stable."""
    full = dreyfus.new_match(dreyfus.DreyfusRules(exchange_mode="incremental"), seed=seed).deal
    start = dreyfus.new_deal(
        full.rules,
        [full.view(s).hand for s in range(3)],
        list(full.talon),
        None if seed % 5 == 0 else full.contract,
        full.dealer,
        (1, 2, 3),
        (0, 1, 2),
        deal_number=seed % 7,
    )
    deal = start
    rng = random.Random(seed)
    moves = []
    for _ in range(steps):
        if deal.is_over:
            break
        legal = deal.legal_actions()
        moves.append(legal[rng.randrange(len(legal))])
        deal = deal.apply(moves[-1])
    text = position_of(deal, start=start, moves=moves)
    assert parse_position(text) == deal
    assert position_of(parse_position(text), start=start, moves=moves) == text


def test_rec_5_1_notation_example() -> None:
    """REC-5.1: the dealt position, the moves and the turn, on one line."""
    start = fly.new_deal(fly.FlyRules(players=3), hands=HANDS, trump_card="8H", stock="7H 7D", dealer=0)
    deal = start.apply(fly.Exchange("9H TH")).apply(fly.Stand())
    assert position_of(deal, start=start) == "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 x9HTH,s 0"
    assert position_of(start) == "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1"
    with pytest.raises(ValueError, match="start="):
        position_of(deal)
    with pytest.raises(ValueError, match="do not lead"):
        position_of(deal, start=start, moves=[fly.Stand()])


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("chess - 0", "starts with"),
        ("fly - 0 8H", "9 fields"),
        ("fly x 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1", "name=value"),
        ("fly a=b 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1", "not an option"),
        ("fly remise=5 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1", "differ from the defaults"),
        ("fly - x 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1", "dealer"),
        ("fly - 0 8H 7C8DKH9SA/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1", "two characters"),
        ("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,x,25 - 1", "records: .x. is not a whole number"),
        ("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 q 1", "is not s, f"),
        ("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s 0", "turn"),
        ("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s,pAS 0", "FLY-4.1"),
        ("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 wAS 0", "FLY-3.3"),
        ("fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 xZZ 0", "not a card"),
        ("dreyfus - 0 S 7C/8C/9C - 0,0,0 - 1 0", "upper records"),
        ("dreyfus - 0 S 7C/8C/9C - 0,0,0/0,0,0 - 1 x", "number: .x. is not a non-negative whole number"),
        ("dreyfus - 0 S 7C/8C/9C - 0,0,0/0,0,0 - 1 0", "DRF-"),
    ],
)
def test_rec_5_2_malformed_positions_are_refused(text: str, detail: str) -> None:
    """REC-5.2: each malformed field is refused with an InvalidNotation naming what is wrong."""
    with pytest.raises(InvalidNotation, match=detail):
        parse_position(text)


def test_rec_5_2_options_and_moves_of_every_kind_round_trip() -> None:
    """REC-5.2: options with arrays and booleans, and swap and fold moves, are written and read back."""
    rules = fly.FlyRules.preset("mouche_1718", players=3, may_fold_after_exchange=True)
    start = fly.new_deal(rules, hands=HANDS, trump_card="8H", stock="7H 7D 8C", dealer=0)
    deal = start.apply(fly.Fold()).apply(fly.Stand()).apply(fly.SwapTrump("7C"))
    text = position_of(deal, start=start)
    assert "deal_packets=[3,2]" in text
    assert "flush_wins=true" in text
    assert "f,s,w7C" in text
    assert parse_position(text) == deal
