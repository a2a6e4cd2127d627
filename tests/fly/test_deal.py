"""FLY-3, The deal and the trump card (specs/fly.md §3): each test named after the rule it checks."""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import Card, CardSet, RuleViolation, Suit, deck_of_size, fly
from fly_rules.engine import shuffled
from tests.fly.helpers import (
    BASE,
    _stock_of_one,
    apply_all,
    assert_refused,
    card,
    exhaust_four_player_stock,
    first_cards,
    position,
    stand_all,
)


@pytest.mark.parametrize(("packets", "seed"), [((1,), 11), ((3, 2), 12)])
def test_fly_3_1_cards_dealt_from_the_dealers_left_in_packets(packets: tuple[int, ...], seed: int) -> None:
    """FLY-3.1, FLY-2.1, FLY-3.2, FLY-3.4: the shuffled deck is dealt from the front, starting left of the
    dealer, packet by packet; the next card is the turn-up and the rest the stock, top first."""
    m = fly.new_match(fly.FlyRules(players=3, deal_packets=packets), seed=seed, dealer=0)
    order = shuffled(deck_of_size(32), seed, 0)
    expected: list[list[Card]] = [[], [], []]
    taken = 0
    for size in m.rules.packet_rounds:
        for step in range(3):
            expected[(1 + step) % 3].extend(order[taken : taken + size])
            taken += size
    assert taken == 15
    assert [m.deal.hands[seat] for seat in range(3)] == [CardSet.of(cards) for cards in expected]
    assert m.deal.trump_card == order[15]
    assert m.deal.trump == order[15].suit
    assert m.deal.stock == order[16:]


def test_fly_3_2_turned_card_sets_trump() -> None:
    """FLY-3.2: the suit of the turn-up is trump for the deal."""
    d = position(BASE, "7H")
    assert d.trump is Suit.HEARTS
    assert d.trump_card == card("7H")
    assert d.phase is fly.Phase.EXCHANGE


def test_fly_3_2_ace_of_spades_turned_up_has_no_holder() -> None:
    """FLY-3.2, FLY-5.2: when the A♠ is the turn-up, spades are trump, nobody holds it and all may fold."""
    d = position(BASE, "AS")
    assert d.trump is Suit.SPADES
    for _ in range(3):
        assert fly.Fold() in d.legal_actions()
        d = d.apply(fly.Stand())
    assert d.ace_of_spades_holder is None


def test_fly_3_3_turn_up_is_never_drawn() -> None:
    """FLY-3.3, FLY-4.5: with the stock empty the dealer may not take the turn-up; he may only stand or fold."""
    d = exhaust_four_player_stock()
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    assert_refused(d, first_cards(d, 1), "FLY-4.5")
    assert all(d.trump_card not in hand for hand in d.hands)


def test_fly_3_3_last_stock_card_option_draws_the_turn_up_last() -> None:
    """FLY-3.3: with turnup_use="last_stock_card" the turn-up is the last replacement; trump is unchanged."""
    d = exhaust_four_player_stock(turnup_use="last_stock_card")
    assert_refused(d, first_cards(d, 2), "FLY-4.5")
    d = d.apply(first_cards(d, 1))
    assert d.trump_card in d.hands[0]
    assert d.trump is d.trump_card.suit


def test_fly_3_3_dealer_swap_option_takes_the_turn_up() -> None:
    """FLY-3.3: with turnup_use="dealer_swap" the dealer first may swap one card for the turn-up, then declares."""
    d = apply_all(position(BASE, "7H", turnup_use="dealer_swap"), fly.Stand(), fly.Stand())
    assert d.to_move == 2
    d = d.apply(fly.SwapTrump("8S"))
    assert d.hands[2] == CardSet.parse("7H 8H 9H TH 7S")
    assert d.trump is Suit.HEARTS
    assert d.to_move == 2
    d = d.apply(fly.Stand())
    assert d.phase is fly.Phase.PLAY


def test_fly_3_4_replacements_come_from_the_top_of_the_stock() -> None:
    """FLY-3.4, FLY-4.4: replacements are the top cards in order; the discards are dead."""
    d = position(BASE, top="9C JS")
    assert d.stock[:2] == (card("9C"), card("JS"))
    assert len(d.stock) == 16
    d = d.apply(fly.Exchange("7C 8C"))
    assert d.hands[0] == CardSet.parse("AH KH QH 9C JS")
    assert len(d.stock) == 14
    assert card("9C") not in d.stock
    assert d.discards == CardSet.parse("7C 8C")
    d = stand_all(d)
    assert d.discards == CardSet.parse("7C 8C")
    assert all(c not in d.stock for c in d.discards)


def test_fly_3_3_the_dealer_swaps_the_trump_card_only_in_the_exchange_round() -> None:
    """FLY-3.3 / FLY-4.1: with a fold round before the exchange round, the dealer may not take the
    trump card while players are deciding to play or fold; in the exchange round he may."""
    d = apply_all(
        position(BASE, turnup_use="dealer_swap", declaration_mode="fold_round_then_exchange"), fly.Stand(), fly.Stand()
    )
    swap = fly.SwapTrump(card("7S"))
    assert swap not in d.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        d.apply(swap)
    assert caught.value.rule == "FLY-3.3"
    assert caught.value.offending == swap
    d = apply_all(d, fly.Stand(), fly.Stand(), fly.Stand())
    assert (d.to_move, d.exchanges.declaration_round) == (2, 1)
    # the exchange round: no fold, the swaps after the stand
    assert d.legal_actions()[:6] == (fly.Stand(), *(fly.SwapTrump(c) for c in CardSet.parse("8H 9H TH 7S 8S")))
    swapped = d.apply(swap)
    assert swapped.hands[2] == CardSet.parse("8H 9H TH 7H 8S")
    assert swapped.discards == CardSet.parse("7S")


def test_fly_3_3_the_turn_up_as_the_last_stock_card_ends_the_draw() -> None:
    """FLY-3.3 / FLY-4.5: with one card left and ``turnup_use="last_stock_card"``, an exchange of two
    takes that card and the turn-up; nothing is refilled, even when discards could be."""
    d = _stock_of_one(turnup_use="last_stock_card", stock_exhaustion="reshuffle_discards")
    seat = d.to_move
    assert seat is not None
    after = d.apply(first_cards(d, 2))
    assert after.turnup_here is False
    assert after.stock == ()
    assert len(after.hands[seat]) == 5
    assert d.trump_card in after.hands[seat]
    assert after.exchanges.refills == 0
    assert len(after.discards) == len(d.discards) + 2


@pytest.mark.parametrize(
    ("hands", "options", "before", "swap", "rule", "detail"),
    [
        pytest.param(
            BASE, {}, 2, "7S", "FLY-3.3", "only the dealer, once, may take the trump card (turnup_use)", id="no option"
        ),
        pytest.param(
            BASE,
            {"turnup_use": "dealer_swap"},
            0,
            "7C",
            "FLY-3.3",
            "only the dealer, once, may take the trump card (turnup_use)",
            id="not the dealer",
        ),
        pytest.param(
            BASE,
            {"turnup_use": "dealer_swap"},
            2,
            "7C",
            "FLY-3.3",
            "the dealer does not hold 7C",
            id="a card not held",
        ),
        pytest.param(
            ("AH KH QH 7C 8C", "AC KC 7D 8D 9D", "8H 9H TH AS 8S"),
            {"turnup_use": "dealer_swap", "ace_of_spades_discardable": False},
            2,
            "AS",
            "FLY-4.7",
            "the ace of spades may not be discarded, even for the trump card",
            id="the A♠ kept",
        ),
    ],
)
def test_fly_3_3_a_refused_trump_swap_names_its_rule_and_reason(
    hands: tuple[str, ...], options: dict[str, Any], before: int, swap: str, rule: str, detail: str
) -> None:
    """FLY-3.3 / FLY-4.7: the trump card is the dealer's to take only under ``turnup_use='dealer_swap'``,
    for a card he holds, and never for a kept A♠; the refusal names the swap and changes nothing."""
    d = apply_all(position(hands, **options), *(fly.Stand(),) * before)
    action = fly.SwapTrump(card(swap))
    assert action not in d.legal_actions()
    hands_before = d.hands
    with pytest.raises(RuleViolation) as caught:
        d.apply(action)
    assert (caught.value.rule, caught.value.detail, caught.value.offending) == (rule, detail, action)
    assert d.hands == hands_before


def test_fly_3_3_the_dealer_swaps_the_trump_card_once() -> None:
    """FLY-3.3: after one swap the dealer may not take the trump card again (it is gone)."""
    d = apply_all(position(BASE, turnup_use="dealer_swap"), fly.Stand(), fly.Stand()).apply(fly.SwapTrump(card("7S")))
    again = fly.SwapTrump(card("8S"))
    assert d.to_move == 2
    assert again not in d.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        d.apply(again)
    assert caught.value.detail == "only the dealer, once, may take the trump card (turnup_use)"
