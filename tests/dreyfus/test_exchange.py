"""Section 4 of specs/dreyfus.md: the exchange (turns, фоски, the draw, the offer, records)."""

from __future__ import annotations

import re
from typing import Any

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
    with pytest.raises(RuleViolation, match="^DRF-4.1: no card is played before the exchange is over$") as caught:
        s.apply(Play("3S"))
    assert caught.value.offending == Play("3S")
    p = stand_all(s)
    for action in (Stand(), Exchange("3S")):
        with pytest.raises(RuleViolation, match="^DRF-4.1: the exchange is over$") as caught:
            p.apply(action)
        assert caught.value.offending == action


def test_drf_4_1_edge_1_eldest_buys_all_twelve_and_the_others_are_skipped() -> None:
    """DRF-4.1 (edge case 1): eldest holding 12 фоски may buy the whole talon, in stack order; the rest skip."""
    s = deal(*TWELVE_FOSKI, contract=Suit.CLUBS)
    everything = s.legal_actions()
    assert len(everything) == 4096
    talon = s.talon
    s = s.apply(Exchange(CardSet(s.hand_masks[0])))
    assert s.phase is Phase.PLAY
    assert s.exchanges.step == 3  # the exchange is over
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


def test_drf_4_3_exchanging_exactly_the_cards_left_in_the_talon() -> None:
    """DRF-4.3: a player may discard exactly as many cards as the talon still holds; he draws
    them all, the talon is empty, the players after him are skipped and the play begins."""
    s = deal().apply(Exchange("3S 4S 5S 6S 7S 8S 9S TS"))  # eldest draws 3♣–10♣; J♣ Q♣ K♣ A♣ are left
    assert s.talon_left == 4
    offer = s.legal_actions()
    assert len(offer) == 1 + 8 + 28 + 56 + 70  # the stand and every set of one to four of seat 1's фоски
    assert max(len(a.cards) for a in offer if isinstance(a, Exchange)) == 4
    s = s.apply(Exchange("3H 4H 5H 6H"))
    assert s.talon_left == 0
    assert CardSet.parse("JC QC KC AC") <= CardSet(s.hand_masks[1])
    assert len(CardSet(s.hand_masks[1])) == 12
    assert s.phase is Phase.PLAY
    assert s.exchanges.step == 3  # the exchange is over: the dealer never had his turn
    assert s.bought == (8, 4, 0)
    assert s.upper == (8, 4, 0)
    assert s.to_move == 0


@pytest.mark.parametrize(
    ("mode", "discard", "rule", "message"),
    [
        ("batch", "", "DRF-4.3", "an exchange discards at least one card; to keep the hand, stand"),
        ("batch", "3H 4H", "DRF-4.2", "only cards in the hand may be discarded, not 3H 4H"),
        ("batch", "3S JS QS", "DRF-4.2", "QS is not a low card («фоска») of the dealt hand and may not be discarded"),
        ("incremental", "3S 4S", "DRF-4.4", "in the incremental exchange one card is discarded at a time"),
        ("incremental", "JS", "DRF-4.2", "JS is not a low card («фоска») of the dealt hand and may not be discarded"),
        ("incremental", "3H", "DRF-4.2", "only cards in the hand may be discarded, not 3H"),
        ("incremental", "", "DRF-4.3", "an exchange discards at least one card; to keep the hand, stand"),
    ],
)
def test_drf_4_2_refused_exchanges_name_the_rule_and_the_card(mode: str, discard: str, rule: str, message: str) -> None:
    """DRF-4.2, DRF-4.3, DRF-4.4: a refused exchange names the rule, what was wrong (the card not
    held, the honour, the size) and holds the action; the state is unchanged."""
    s = deal(rules=DreyfusRules(exchange_mode=mode))  # type: ignore[arg-type]
    action = Exchange(discard)
    with pytest.raises(RuleViolation, match=f"^{rule}: {re.escape(message)}$") as caught:
        s.apply(action)
    assert caught.value.offending == action
    assert action not in s.legal_actions()


def test_drf_4_3_an_exchange_larger_than_the_talon_left_says_how_many_remain() -> None:
    """DRF-4.3: discarding more cards than the talon holds is refused with both counts."""
    s = deal().apply(Exchange("3S 4S 5S 6S 7S 8S 9S TS"))
    action = Exchange("3H 4H 5H 6H 7H")
    with pytest.raises(RuleViolation, match="^DRF-4.3: only 4 cards are left in the talon, not 5$") as caught:
        s.apply(action)
    assert caught.value.offending == action


def test_drf_4_4_incremental_single_card_exchanges_draw_one_card_each() -> None:
    """DRF-4.4: in the incremental mode every exchange offered is a single card; each one draws
    the next card of the talon, is bought at once, and the same player goes on until he stands."""
    s = deal(rules=DreyfusRules(exchange_mode="incremental"))
    offer = s.legal_actions()
    assert offer[0] == Stand()
    assert list(offer[1:]) == [Exchange(card) for card in ("3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS")]
    s = s.apply(Exchange("TS"))
    assert (s.phase, s.to_move, s.leader) == (Phase.EXCHANGE, 0, 0)
    assert CardSet(s.hand_masks[0]) == CardSet.parse("3S 4S 5S 6S 7S 8S 9S JS QS KS AS 3C")
    assert (s.talon_left, s.bought, s.upper) == (11, (1, 0, 0), (1, 0, 0))
    offer = s.legal_actions()
    assert len(offer) == 8  # the stand and the seven фоски still held of those dealt; 3♣ was bought
    assert Exchange("3C") not in offer
    s = s.apply(Exchange("3S"))
    assert CardSet.parse("3C 4C") <= CardSet(s.hand_masks[0])
    assert s.discards[0] == CardSet.parse("3S TS")
    assert (s.talon_left, s.bought, s.to_move) == (10, (2, 0, 0), 0)
    s = s.apply(Stand()).apply(Exchange("9H"))
    assert CardSet.parse("5C") <= CardSet(s.hand_masks[1])
    assert (s.to_move, s.talon_left, s.bought) == (1, 9, (2, 1, 0))


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
    assert repr(offer) == f"<32 choices: stand, {listed[1]}, {listed[2]}, …, {listed[31]}>"


class _Index:
    """An integer of another type (as NumPy's are): it has ``__index__`` only."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_drf_4_4_the_offer_takes_any_integer_type_as_a_tuple_does() -> None:
    """DRF-4.4: the lazy offer reads an index, and index()'s start and stop, through ``__index__`` (a NumPy
    integer, say), in the compiled build too; anything else is the TypeError a tuple raises."""
    offer: Any = deal(("8S", "JH"), ("9S", "QH"), ("TS", "KH")).legal_actions()  # typed for int indices
    listed = tuple(offer)
    assert offer[_Index(3)] == listed[3]
    assert offer[_Index(-1)] == listed[-1]
    assert offer.index(listed[5], _Index(2), _Index(6)) == 5
    with pytest.raises(ValueError, match="range"):
        offer.index(listed[5], _Index(6))
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        offer["3"]


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
