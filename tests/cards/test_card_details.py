"""Worked cases for the card types' edges: the lowest and highest card across suits, and the error
each bad input raises names what is wrong [CARD-1.3] [CARD-3.1] [CARD-4.1]."""

from __future__ import annotations

import itertools
import operator

import pytest

from fly_rules import InvalidNotation, RuleViolation
from fly_rules.cards import ACE_BELOW_JACK, ACE_HIGH, Card, CardSet, Suit


def test_card_4_1_a_card_set_yields_each_card_once_in_index_order() -> None:
    """CARD-4.1: iterating a card set yields each card once, in canonical index order, and stops
    (read through islice, so a set that never stopped would fail here rather than hang)."""
    assert list(itertools.islice(CardSet.parse("AS 3C 7H"), 4)) == [Card.parse(c) for c in ("3C", "7H", "AS")]
    assert list(itertools.islice(CardSet(), 1)) == []


def test_card_1_3_highest_and_lowest_across_suits_rank_first_then_suit() -> None:
    """CARD-1.3: without a suit, the highest and lowest card compare ranks first (under the order),
    then suits (clubs lowest): 2♠ is lower than 3♣, and of two aces the spade is higher."""
    cards = CardSet.parse("3C 2S AC AS JD")
    assert cards.lowest() == Card.parse("2S")
    assert cards.highest() == Card.parse("AS")
    assert cards.highest(ACE_BELOW_JACK) == Card.parse("JD")
    assert CardSet.parse("2S 2C").lowest() == Card.parse("2C")
    assert CardSet.parse("AS AC").lowest(ACE_HIGH) == Card.parse("AC")
    assert cards.lowest(suit=Suit.CLUBS) == Card.parse("3C")
    assert CardSet().lowest() is None
    assert CardSet().highest() is None


def test_card_3_1_bad_suit_names_the_expected_spellings() -> None:
    """CARD-3.1: a bad suit is refused with the text and the accepted spellings."""
    with pytest.raises(InvalidNotation, match=r"^invalid notation 'X': not a suit \(expected C, D, H, S, ♣, ♦, ♥, ♠"):
        Suit.parse("X")


def test_card_4_1_card_set_errors_name_the_card_and_the_problem() -> None:
    """CARD-4.1: removing a card not in the set raises KeyError naming that card; filtering needs a
    callable."""
    with pytest.raises(KeyError) as caught:
        CardSet.parse("7H").remove(Card.parse("8H"))
    assert caught.value.args == (Card.parse("8H"),)
    with pytest.raises(TypeError, match="^filter needs a callable predicate$"):
        CardSet.parse("7H").filter("hearts")
    for bad in (-1, 1 << 52, 3.0, True):
        with pytest.raises(RuleViolation) as refused:
            CardSet(bad)  # type: ignore[arg-type]
        assert str(refused.value) == f"CARD-4.1: a card-set mask must be an int in 0..2**52-1, not {bad!r}"
        assert refused.value.offending == bad


@pytest.mark.parametrize(
    ("read", "text", "message"),
    [
        (Card.parse, 5, "invalid notation '5': a card must be given as text"),
        (CardSet.parse, 5, "invalid notation '5': cards must be given as text"),
        (
            Card.parse,
            "1S",
            "invalid notation '1S': not a card (expected a rank 2-10, T, J, Q, K, A and a suit C, D, H, S or ♣♦♥♠)",
        ),
        (CardSet.parse, "AS as", "invalid notation 'AS as': card AS is listed twice"),
        (Suit.parse, "X", "invalid notation 'X': not a suit (expected C, D, H, S, ♣, ♦, ♥, ♠ or a name)"),
    ],
)
def test_card_3_1_bad_notation_messages_quote_the_input_and_say_what_is_expected(
    read: object, text: object, message: str
) -> None:
    """CARD-3.1, CARD-3.2: every refusal quotes the input as given and says what was expected."""
    with pytest.raises(InvalidNotation) as caught:
        read(text)  # type: ignore[operator]
    assert str(caught.value) == message


def test_card_4_1_cards_compare_in_canonical_order_and_only_with_cards() -> None:
    """CARD-4.1: cards compare by their canonical index (clubs first, 2 up to ace), each operator both
    ways; a card equals no other kind of value and does not order against one (TypeError)."""
    low, high = Card.parse("AC"), Card.parse("2D")  # indices 12 and 13
    assert (low < high, low <= high, low > high, low >= high) == (True, True, False, False)
    assert (high < low, high <= low, high > low, high >= low) == (False, False, True, True)
    assert (low <= Card.parse("AC"), low >= Card.parse("AC")) == (True, True)
    assert (low == "AC") is False
    assert (low != "AC") is True
    for compare in (operator.lt, operator.le, operator.gt, operator.ge):
        with pytest.raises(TypeError):
            compare(low, 12)
