"""Section 4 of specs/dreyfus.md: the exchange (turns, фоски, the draw, the offer, records)."""

from __future__ import annotations

import pytest

from fly_rules import CardSet, RuleViolation, Suit
from fly_rules.dreyfus import DreyfusRules, Exchange, Play, Stand
from fly_rules.engine import Phase

from .helpers import deal, stand_all

TWELVE_FOSKI = (("JS", "3H"), ("QS", "4H"), ("KS", "5H"), ("AS", "6H"))
"""Swaps giving seat 0 twelve фоски: 3–10 of spades and 3–6 of hearts."""


def test_drf_4_1_eldest_then_left_then_dealer_then_play() -> None:
    """DRF-4.1: with the dealer at seat 1, seats 2, 0 and 1 exchange in that order, then play begins."""
    s = deal(dealer=1)
    order = []
    while s.phase is Phase.EXCHANGE:
        order.append(s.to_move)
        s = s.apply(Stand())
    assert order == [2, 0, 1]
    assert s.phase is Phase.PLAY


def test_drf_4_1_no_card_is_played_during_the_exchange() -> None:
    """DRF-4.1: a play before the exchange is over, or an exchange after it, is refused."""
    s = deal()
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play("3S"))
    assert caught.value.rule == "DRF-4.1"
    p = stand_all(s)
    for action in (Stand(), Exchange("3S")):
        with pytest.raises(RuleViolation) as caught:
            p.apply(action)
        assert caught.value.rule == "DRF-4.1"


def test_drf_4_1_edge_1_eldest_buys_all_twelve_and_the_others_are_skipped() -> None:
    """DRF-4.1 (edge case 1): eldest holding 12 фоски may buy the whole talon, in stack order; the rest skip."""
    s = deal(*TWELVE_FOSKI, contract=Suit.CLUBS)
    everything = s.legal_actions()
    assert len(everything) == 4096
    talon = s.talon
    s = s.apply(Exchange(CardSet(s.hand_masks[0])))
    assert s.phase is Phase.PLAY
    assert s.hands[0] == CardSet.of(talon)
    assert s.bought == (12, 0, 0)
    assert s.upper == (12, 0, 0)


def test_drf_4_2_edge_2_honours_are_never_discarded() -> None:
    """DRF-4.2 (edge case 2): a discard containing J, Q, K or A is refused; ranks 3–10 are allowed."""
    s = deal()
    for bad in ("JS", "3S QS", "AS"):
        with pytest.raises(RuleViolation) as caught:
            s.apply(Exchange(bad))
        assert caught.value.rule == "DRF-4.2"
    assert s.apply(Exchange("3S TS")).bought == (2, 0, 0)


def test_drf_4_2_only_cards_held_and_dealt() -> None:
    """DRF-4.2: a card not in the hand may not be discarded."""
    with pytest.raises(RuleViolation) as caught:
        deal().apply(Exchange("3H"))
    assert caught.value.rule == "DRF-4.2"
    assert caught.value.offending == Exchange("3H")


def test_drf_4_2_fosk_options_exclude_trumps_or_narrow_ranks() -> None:
    """DRF-4.2: with trumps excluded a trump фоска cannot go; the shram reading stops at eight."""
    with pytest.raises(RuleViolation, match=r"DRF-4.2"):
        deal(rules=DreyfusRules(fosk_excludes_trump=True)).apply(Exchange("3S"))
    assert deal(contract=Suit.HEARTS, rules=DreyfusRules(fosk_excludes_trump=True)).apply(Exchange("3S")).bought[0] == 1
    with pytest.raises(RuleViolation, match=r"DRF-4.2"):
        deal(rules=DreyfusRules.preset("shram")).apply(Exchange("9S"))


def test_drf_4_3_draw_from_the_top_in_order_and_later_players_use_the_rest() -> None:
    """DRF-4.3: k discarded, the top k talon cards are drawn; the next player draws on from there."""
    s = deal().apply(Exchange("3S 4S 5S"))
    assert CardSet(s.hand_masks[0]) >= CardSet.parse("3C 4C 5C")
    assert len(CardSet(s.hand_masks[0])) == 12
    s = s.apply(Exchange("3H"))
    assert CardSet(s.hand_masks[1]) >= CardSet.parse("6C")
    assert s.talon_left == 8


def test_drf_4_3_no_more_than_the_talon_holds_and_never_empty() -> None:
    """DRF-4.3: an exchange larger than the talon left, or of no card, is refused."""
    s = deal().apply(Exchange("3S 4S 5S 6S 7S 8S 9S TS"))
    with pytest.raises(RuleViolation) as caught:
        s.apply(Exchange("3H 4H 5H 6H 7H"))
    assert caught.value.rule == "DRF-4.3"
    assert Exchange("3H 4H 5H 6H 7H") not in s.legal_actions()
    assert s.apply(Exchange("3H 4H 5H 6H")).phase is Phase.PLAY
    with pytest.raises(RuleViolation) as caught:
        deal().apply(Exchange(""))
    assert caught.value.rule == "DRF-4.3"


def test_drf_4_4_the_offer_is_lazy_ordered_and_agrees_with_apply() -> None:
    """DRF-4.4: the stand comes first, then exchanges by size; membership, len and index agree."""
    s = deal(("8S", "JH"), ("9S", "QH"), ("TS", "KH"))  # five фоски left in seat 0's hand
    offer = s.legal_actions()
    assert offer[0] == Stand()
    assert len(offer) == 32
    listed = list(offer)
    assert len(set(listed)) == 32
    assert [len(a.cards) for a in listed[1:] if isinstance(a, Exchange)] == sorted(
        len(a.cards) for a in listed[1:] if isinstance(a, Exchange)
    )
    for i, action in enumerate(listed):
        assert offer.index(action) == i
        assert action in offer
        s.apply(action)
    assert offer[-1] == listed[-1]
    assert offer[1:3] == tuple(listed[1:3])
    assert offer.count(Stand()) == 1
    assert Play("3S") not in offer
    with pytest.raises(IndexError):
        offer[32]
    with pytest.raises(ValueError, match="not a choice"):
        offer.index(Exchange("AS"))
    with pytest.raises(ValueError, match="range"):
        offer.index(Stand(), 1)
    assert repr(offer) == "<32 choices>"


def test_drf_4_4_incremental_mode_one_card_at_a_time() -> None:
    """DRF-4.4: in the incremental mode each exchange is one card and draws one; standing ends the turn."""
    rules = DreyfusRules(exchange_mode="incremental")
    s = deal(rules=rules)
    assert len(s.legal_actions()) == 9
    with pytest.raises(RuleViolation) as caught:
        s.apply(Exchange("3S 4S"))
    assert caught.value.rule == "DRF-4.4"
    s = s.apply(Exchange("3S"))
    assert s.to_move == 0
    assert CardSet.parse("3C") <= CardSet(s.hand_masks[0])
    s = s.apply(Exchange("4S")).apply(Stand())
    assert s.to_move == 1
    assert s.bought == (2, 0, 0)


def test_drf_4_4_incremental_turn_ends_when_the_talon_runs_out() -> None:
    """DRF-4.4: an incremental exchanger who empties the talon ends the exchange."""
    s = deal(*TWELVE_FOSKI, rules=DreyfusRules(exchange_mode="incremental"))
    for card in CardSet(s.hand_masks[0]):
        s = s.apply(Exchange(CardSet.of([card])))
    assert s.phase is Phase.PLAY
    assert s.bought == (12, 0, 0)


def test_drf_4_5_each_card_bought_is_a_point_above_at_once() -> None:
    """DRF-4.5: buying k cards adds k to the buyer's upper record immediately."""
    s = deal(upper=(1, 2, 3)).apply(Exchange("3S 4S")).apply(Stand()).apply(Exchange("3D"))
    assert s.upper == (3, 2, 4)
    assert s.bought == (2, 0, 1)


def test_drf_4_6_discards_are_out_of_play_and_hidden() -> None:
    """DRF-4.6: discards leave the hand, and other seats see neither them nor the talon."""
    s = stand_all(deal().apply(Exchange("3S 4S")))
    assert s.discards == (CardSet.parse("3S 4S"), CardSet(), CardSet())
    assert s.view(0).discarded == CardSet.parse("3S 4S")
    assert s.view(1).discarded == CardSet()
    assert s.view(1).revealed_discards is None
    assert s.view(1).revealed_talon is None


def test_drf_4_6_reveal_options_show_discards_and_the_rest_of_the_talon() -> None:
    """DRF-4.6: with the reveal options everyone sees all discards and the leftover talon after the exchange."""
    rules = DreyfusRules(reveal_discards=True, reveal_leftover_talon=True)
    s = deal(rules=rules).apply(Exchange("3S 4S"))
    assert s.view(2).revealed_discards == (CardSet.parse("3S 4S"), CardSet(), CardSet())
    assert s.view(2).revealed_talon is None
    s = stand_all(s)
    assert s.view(2).revealed_talon == CardSet.parse("5C 6C 7C 8C 9C TC JC QC KC AC")
