"""The deal as a value: what one seat sees of it (``view``), its hidden cards placed otherwise
(``with_hidden``, which the sampling bots and the adapters use), equality, hashing and its printed
form [FLY-5.1] [FLY-4.2].

Positions as in ``test_fly_edge_cases``: three players, seat 2 deals, hearts trump (7♥ turned up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fly_rules import CardSet, RuleViolation, Suit, fly
from fly_rules.engine import Phase
from fly_rules.fly.exchange import Exchanges
from tests.fly.helpers import BASE, card, play, position

# Seat 0 exchanges 7♣ 8♣ (drawing 9♣ T♣), seat 1 folds, seat 2 stands; seat 0 wins A♥ 8♥ and leads K♥.
# Built inside each test, not at import, so that mutation testing links these tests to ``apply``.


def exchanged() -> fly.FlyDeal:
    """Seat 0 has exchanged 7♣ 8♣; seat 1 to declare."""
    return position(BASE).apply(fly.Exchange(CardSet.parse("7C 8C")))


def started() -> fly.FlyDeal:
    """Seat 1 has folded and seat 2 stood: the play begins, seat 0 to lead."""
    return exchanged().apply(fly.Fold()).apply(fly.Stand())


def played_out() -> fly.FlyDeal:
    """The deal played to its end."""
    return play(started(), "AH 8H KH 9H QH TH 9C 7S TC 8S")


def mid_trick() -> fly.FlyDeal:
    """Seat 0 has won A♥ 8♥ and led K♥; seat 2 to follow."""
    return play(started(), "AH 8H KH")


WITH_HIDDEN_REFUSED = (
    "with_hidden: each hand, the stock and the discards must keep their size and hold the same cards in all"
)


def mask(cards: str) -> int:
    """The mask of the cards listed."""
    return CardSet.parse(cards).mask


def test_fly_5_1_a_view_shows_the_seat_its_hand_and_everything_public() -> None:
    """FLY-5.1 / FLY-4.2: the view of seat 2 in the second trick: its own hand, the declarations by
    kind and count, who is in, the trick so far, the completed tricks, the records."""
    mid = mid_trick()
    view = mid.view(2)
    assert view.seat == 2
    assert view.players == 3
    assert view.dealer == 2
    assert view.deal_number == 0
    assert view.phase is Phase.PLAY
    assert view.to_move == 2
    assert view.hand == CardSet.parse("9H TH 7S 8S")
    assert view.trump_card == card("7H")
    assert view.trump is Suit.HEARTS
    assert view.stock_size == 14
    assert view.declarations == ((fly.Declared("exchange", 2),), (fly.Declared("fold"),), (fly.Declared("stand"),))
    assert [d.count for seat in view.declarations for d in seat] == [2, 0, 0]  # a fold or stand shows no count
    assert view.active == (True, False, True)
    assert view.trick == ((0, card("KH")),)
    assert view.tricks == (((0, card("AH")), (2, card("8H"))),)
    assert view.tricks_taken == (1, 0, 0)
    assert view.records == (24, 25, 25)
    assert view.scores == (-24, -25, -25)
    assert view.score_lines == {"records": (24, 25, 25)}
    assert view.winner is None
    assert view.game == "fly"
    assert mid.view(0).hand == CardSet.parse("9C TC QH")


def test_fly_3_3_a_view_shows_the_dealer_s_trump_swap_as_a_swap() -> None:
    """FLY-3.3 / FLY-4.2: the dealer's ``SwapTrump`` is shown as a swap, without the card discarded."""
    d = position(BASE, turnup_use="dealer_swap").apply(fly.Stand()).apply(fly.Stand())
    d = d.apply(fly.SwapTrump(card("7S")))
    assert d.view(0).declarations == ((fly.Declared("stand"),), (fly.Declared("stand"),), (fly.Declared("swap"),))
    assert d.view(0).declarations[2][0].count == 0  # the swap shows no count of cards


def test_fly_9_1_a_view_names_the_winner() -> None:
    """FLY-9.1: seat 0, at 1, wins with the first trick; every seat's view names him."""
    d = play(position(BASE, records=(1, 25, 25)).apply(fly.Stand()).apply(fly.Stand()).apply(fly.Stand()), "AH 7D 8H")
    assert d.is_over
    assert [d.view(seat).winner for seat in range(3)] == [0, 0, 0]
    assert d.view(1).records == (0, 25, 25)


@pytest.mark.parametrize("seat", [3, -1, True, "0", None])
def test_fly_1_2_a_view_is_only_for_a_seat_at_the_table(seat: Any) -> None:
    """FLY-1.2: seats are 0 to players - 1; anything else is refused, naming the seats."""
    mid = mid_trick()
    with pytest.raises(RuleViolation, match=r"^FLY-1\.2: a view's seat must be a seat 0 to 2, not "):
        mid.view(seat)


def test_fly_5_1_with_hidden_moves_hands_and_stock_in_the_exchange() -> None:
    """FLY-5.1: in the exchange, other hands and another stock order; the seat to move, the
    declarations so far and the discards stay; the next exchange draws from the new stock's top."""
    deal = exchanged()
    h0, h1, h2 = deal.hand_masks
    stock = tuple(reversed(deal.exchanges.stock_indices))
    moved = deal.with_hidden(hand_masks=[h0, h2, h1], stock=stock)
    assert moved.phase is Phase.EXCHANGE
    assert moved.to_move == 1
    assert moved.hands == (deal.hands[0], deal.hands[2], deal.hands[1])
    assert moved.stock[0] == card("AS")
    assert moved.discards == CardSet.parse("7C 8C")
    assert moved.actions == deal.actions
    assert fly.Exchange(CardSet.parse("7S")) in moved.legal_actions()
    drawn = moved.apply(fly.Exchange(CardSet.parse("7S")))
    assert drawn.hands[1] == CardSet.parse("8H 9H TH 8S AS")
    assert drawn.discards == CardSet.parse("7C 8C 7S")


def test_fly_4_4_with_hidden_moves_cards_between_stock_and_discards() -> None:
    """FLY-4.4: the discards may be placed otherwise too, each place keeping its size."""
    deal = exchanged()
    stock = deal.exchanges.stock_indices
    moved = deal.with_hidden(stock=(card("8C").index, *stock[1:]), discards=mask("7C") | 1 << stock[0])
    assert moved.discards == CardSet.of([card("7C"), card("JC")])
    assert moved.stock[:2] == (card("8C"), card("QC"))
    assert moved.hands == deal.hands
    only_discards = deal.with_hidden(discards=mask("7C 8C"))
    assert only_discards == deal
    with_a_hand = deal.with_hidden(hand_masks=[mask("9C TC QH KH 8C"), *deal.hand_masks[1:]], discards=mask("7C AH"))
    assert with_a_hand.discards == CardSet.parse("7C AH")
    assert with_a_hand.hands[0] == CardSet.parse("8C 9C TC QH KH")
    assert with_a_hand.stock == deal.stock


def test_fly_5_1_with_hidden_moves_the_two_of_clubs_too() -> None:
    """FLY-5.1: in a 52-card deck the 2♣ (card 0) moves like any card, from the stock to a hand."""
    deal = fly.new_match(fly.FlyRules(players=5), seed=3, dealer=0).deal
    stock = deal.exchanges.stock_indices
    assert 0 in stock
    hands = list(deal.hand_masks)
    lowest = hands[1] & -hands[1]
    hands[1] ^= lowest | 1
    moved = deal.with_hidden(hand_masks=hands, stock=tuple(lowest.bit_length() - 1 if c == 0 else c for c in stock))
    assert card("2C") in moved.hands[1]
    assert card("2C") not in moved.stock


def test_fly_6_3_with_hidden_in_play_recomputes_the_cards_the_seat_to_move_may_play() -> None:
    """FLY-6.3 / FLY-6.4: K♥ (trump) led; seat 2, given the folded seat's diamonds for his hearts, is
    void in the suit led and in trumps, so any card may follow."""
    mid = mid_trick()
    assert mid.legal_actions() == (fly.Play(card("9H")), fly.Play(card("TH")))
    assert mid.with_hidden(hand_masks=mid.hand_masks).legal_actions() == mid.legal_actions()
    moved = mid.with_hidden(hand_masks=[mid.hand_masks[0], mask("KC AC 9D 9H TH"), mask("7D 8D 7S 8S")])
    assert moved.phase is Phase.PLAY
    assert moved.to_move == 2
    assert moved.trick == ((0, card("KH")),)
    assert [a.card for a in moved.legal_actions()] == [card(c) for c in ("7D", "8D", "7S", "8S")]
    after = moved.apply(fly.Play(card("7D")))
    assert after.tricks_taken == (2, 0, 0)


def test_fly_10_3_with_hidden_leaves_a_finished_deal_finished() -> None:
    """FLY-10.3: a finished deal with its cards unchanged is the same finished deal."""
    over = played_out()
    assert over.is_over
    again = over.with_hidden(hand_masks=over.hand_masks)
    assert again.is_over
    assert again == over
    assert again.legal_actions() == ()
    assert again.actions == over.actions


def _hands(deal: fly.FlyDeal, change: dict[int, str]) -> list[int]:
    hands = list(deal.hand_masks)
    for seat, cards in change.items():
        hands[seat] = mask(cards)
    return hands


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param(lambda d: {"hand_masks": d.hand_masks[:2]}, id="a hand missing"),
        pytest.param(lambda d: {"hand_masks": [*d.hand_masks, 0]}, id="a hand too many"),
        pytest.param(
            lambda d: {"hand_masks": _hands(d, {1: "KC AC 7D 8D", 2: "9D 8H 9H TH 7S 8S"})}, id="a hand shorter"
        ),
        pytest.param(lambda d: {"hand_masks": _hands(d, {1: "KC AC 7D 8D 7H"})}, id="the turn-up in a hand"),
        pytest.param(lambda d: {"hand_masks": _hands(d, {1: "KC AC 7D 8D 8H"})}, id="a card in two hands"),
        pytest.param(lambda d: {"hand_masks": [CardSet(m) for m in d.hand_masks]}, id="not a mask"),
        pytest.param(lambda d: {"stock": [float(i) for i in d.exchanges.stock_indices]}, id="a stock index not an int"),
        pytest.param(lambda d: {"discards": str(d.exchanges.discard_mask)}, id="discards not a mask"),
        pytest.param(lambda d: {"stock": d.exchanges.stock_indices[1:]}, id="a stock card dropped"),
        pytest.param(lambda d: {"stock": (*d.exchanges.stock_indices, 0)}, id="a stock card added"),
        pytest.param(
            lambda d: {"stock": (*d.exchanges.stock_indices, d.exchanges.stock_indices[0])}, id="a stock card twice"
        ),
        pytest.param(
            lambda d: {"stock": (d.exchanges.stock_indices[1], *d.exchanges.stock_indices[1:])},
            id="a stock card in place of another",
        ),
        pytest.param(lambda d: {"discards": mask("7C")}, id="a discard dropped"),
        pytest.param(lambda d: {"discards": mask("7C 8C 7H")}, id="a discard added"),
    ],
)
def test_fly_5_1_with_hidden_keeps_every_place_s_size_and_the_cards(
    changes: Callable[[fly.FlyDeal], dict[str, Any]],
) -> None:
    """FLY-5.1: hidden cards may only move between the hidden places, each keeping its size."""
    deal = exchanged()
    with pytest.raises(ValueError, match=f"^{WITH_HIDDEN_REFUSED}$"):
        deal.with_hidden(**changes(deal))


def test_fly_5_1_deals_are_equal_when_their_positions_are() -> None:
    """FLY-5.1: equality and hashing look at the position, not at the actions that led to it."""
    deal = exchanged()
    forgetful = deal._replace(history=None)
    assert forgetful == deal
    assert (forgetful != deal) is False
    assert hash(forgetful) == hash(deal)
    other_turn = deal._replace(to_move=2)
    assert other_turn != deal
    assert position(BASE) != deal
    assert hash(position(BASE)) != hash(deal)
    assert tuple(deal) != deal
    assert len({deal, forgetful, started()}) == 2


def test_fly_5_1_a_deal_prints_its_phase_dealer_trump_turn_records_and_hands() -> None:
    """FLY-5.1: the printed form names what a reader needs to place the deal."""
    deal = exchanged()
    assert repr(deal) == (
        "<FlyDeal exchange dealer=2 trump=7H to_move=1 records=(25, 25, 25) "
        "hands=9C TC QH KH AH / KC AC 7D 8D 9D / 8H 9H TH 7S 8S>"
    )


def test_fly_5_5_a_lone_player_s_deal_ends_with_no_one_to_move() -> None:
    """FLY-5.5: when the others fold the lone player takes every trick at once; the deal is over and
    no one is to move (None), as for a deal played out."""
    d = position(BASE).apply(fly.Stand()).apply(fly.Fold()).apply(fly.Fold())
    assert d.is_over
    assert d.tricks_taken == (5, 0, 0)
    assert d.to_move is None
    assert played_out().to_move is None


@pytest.mark.parametrize(
    ("when", "action", "rule", "detail"),
    [
        pytest.param(
            "play", fly.Fold(), "FLY-4.6", "a player who exchanged or stood must play the deal out", id="fold"
        ),
        pytest.param(
            "play", fly.Stand(), "FLY-4.1", "the declarations are over; play a card, not Stand()", id="stand in play"
        ),
        pytest.param(
            "exchange",
            fly.Play(card("9H")),
            "FLY-4.1",
            "every player declares before the play begins, not Play(card=Card.parse('9H'))",
            id="play in the exchange",
        ),
        pytest.param("over", fly.Stand(), "FLY-10.3", "the deal is over; no action is accepted (Stand())", id="over"),
    ],
)
def test_fly_4_1_a_deal_refuses_an_action_of_the_wrong_phase(when: str, action: Any, rule: str, detail: str) -> None:
    """FLY-4.1 / FLY-4.6 / FLY-10.3: declarations in the play, a card in the exchange and anything
    after the deal are refused with the rule, what was wrong and the action itself; nothing changes."""
    deal = {"play": started, "exchange": exchanged, "over": played_out}[when]()
    before = (deal, deal.actions, deal.hands, deal.phase)
    with pytest.raises(RuleViolation) as caught:
        deal.apply(action)
    assert (caught.value.rule, caught.value.detail) == (rule, detail)
    assert caught.value.offending is action
    assert (deal, deal.actions, deal.hands, deal.phase) == before


def test_fly_8_1_a_new_deal_s_tally_starts_from_the_records_with_no_trick_taken() -> None:
    """FLY-8.1 / FLY-9.4: before the play the tally holds the records and, per seat, no trick taken
    and trick number 0 as the last one taken; each declaration leaves the deal's flags plain bools."""
    d = position(BASE, records=(7, 12, 25), turnup_use="dealer_swap")
    assert (d.score.records, d.score.tricks_taken, d.score.last_trick_of) == ((7, 12, 25), (0, 0, 0), (0, 0, 0))
    d = d.apply(fly.Stand())
    assert d.exchanges.must_confirm is False
    d = d.apply(fly.Fold())
    assert d.exchanges.must_confirm is False
    assert d.turnup_here is True
    d = d.apply(fly.SwapTrump(card("7S")))
    assert d.turnup_here is False
    assert d.exchanges.must_confirm is False


def test_fly_4_1_the_exchanges_defaults_describe_a_deal_before_any_declaration() -> None:
    """FLY-4.1: :class:`Exchanges` built from a stock, the active seats and the declarations alone (its
    defaults) is the record of a deal before any declaration: the turn-up still there, nothing discarded,
    the first round, no confirmation due, nothing exchanged or refilled."""
    fresh = fly.new_match(fly.FlyRules(), seed=1).deal.exchanges
    assert Exchanges(*fresh[:3]) == fresh
