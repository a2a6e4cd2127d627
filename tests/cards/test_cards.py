"""Tests of suits, ranks, cards, rank orders, card sets and decks (specs/cards.md)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fly_rules import InvalidNotation, RuleViolation
from fly_rules.cards import (
    ACE_BELOW_JACK,
    ACE_HIGH,
    ALL_CARDS,
    DECK_32,
    DECK_36,
    DECK_48,
    DECK_52,
    EMPTY,
    Card,
    CardSet,
    Rank,
    RankOrder,
    Suit,
    deck_of_size,
)
from fly_rules.strategies import card_notations, card_sets, cards


def test_card_1_1_four_suits_with_letters_and_symbols() -> None:
    """CARD-1.1: there are exactly four suits, each with one letter and one symbol."""
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert str(Suit.HEARTS) == "♥"
    assert Suit.parse(" Spades ") is Suit.SPADES
    assert Suit.parse("♢") is Suit.DIAMONDS
    with pytest.raises(InvalidNotation, match="'X'"):
        Suit.parse("X")


def test_card_1_2_thirteen_ranks() -> None:
    """CARD-1.2: thirteen ranks from 2 to ace, the ten written 10 for people and T in notation."""
    assert len(Rank) == 13
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert str(Rank.TEN) == "10"
    assert str(Rank.ACE) == "A"


def test_card_1_3_rank_orders() -> None:
    """CARD-1.3: ace high puts the ace on top; ace-below-jack puts it between ten and jack."""
    ah, kh, jh, th = (Card.parse(t) for t in ("AH", "KH", "JH", "TH"))
    assert ACE_HIGH.beats(ah, kh)
    assert not ACE_BELOW_JACK.beats(ah, kh)
    assert ACE_BELOW_JACK.beats(jh, ah)
    assert ACE_BELOW_JACK.beats(ah, th)
    assert not ACE_HIGH.beats(ah, Card.parse("2S"))  # never across suits
    hand = CardSet.parse("AH KH 7H 2C")
    assert hand.highest(ACE_BELOW_JACK, Suit.HEARTS) == kh
    assert hand.lowest(ACE_BELOW_JACK, Suit.HEARTS) == Card.parse("7H")
    assert hand.sorted(ACE_BELOW_JACK)[-1] == kh
    assert [c.rank for c in hand.sorted()] == [Rank.TWO, Rank.SEVEN, Rank.KING, Rank.ACE]
    assert "KQJA" not in repr(ACE_BELOW_JACK)
    assert repr(ACE_BELOW_JACK) == "RankOrder('ace_below_jack', '23456789TAJQK')"
    with pytest.raises(ValueError, match="each of the 13 ranks"):
        RankOrder("broken", (Rank.ACE, Rank.ACE))


@given(cards(), cards())
def test_card_1_3_rank_order_keys_agree_with_beats(a: Card, b: Card) -> None:
    """CARD-1.3: within a suit, `beats` is exactly the order of `key`."""
    for order in (ACE_HIGH, ACE_BELOW_JACK):
        assert order.beats(a, b) == (a.suit == b.suit and order.key(a) > order.key(b))


@pytest.mark.parametrize(
    ("deck", "size", "lowest"),
    [(DECK_52, 52, Rank.TWO), (DECK_48, 48, Rank.THREE), (DECK_36, 36, Rank.SIX), (DECK_32, 32, Rank.SEVEN)],
)
def test_card_2_1_2_2_2_3_2_4_decks_sizes_and_contents(deck: CardSet, size: int, lowest: Rank) -> None:
    """CARD-2.1, CARD-2.2, CARD-2.3, CARD-2.4: each deck has every rank from its lowest to the ace in every suit."""
    assert len(deck) == size
    assert deck_of_size(size) is deck
    expected = {Card(rank, suit) for suit in Suit for rank in Rank if rank >= lowest}
    assert set(deck) == expected
    for suit in Suit:
        assert len(deck.of_suit(suit)) == size // 4


def test_card_2_2_forty_eight_has_no_twos() -> None:
    """CARD-2.2: the 48-card deck is exactly the full deck less the four twos."""
    twos = CardSet.of(Card(Rank.TWO, s) for s in Suit)
    assert twos == DECK_52 - DECK_48


def test_card_2_5_no_other_deck_size() -> None:
    """CARD-2.5: a deck of any other size is refused, naming the size."""
    for size in (0, 28, 40, 44, 53, 48.0, "52"):
        with pytest.raises(RuleViolation, match=f"^CARD-2.5: no standard deck has {size!r} cards") as caught:
            deck_of_size(size)  # type: ignore[arg-type]
        assert caught.value.offending == size


@given(st.data())
def test_card_3_1_every_spelling_of_every_card_parses(data: st.DataObject) -> None:
    """CARD-3.1: every accepted spelling of every card parses to that card and prints canonically."""
    card = data.draw(cards())
    text = data.draw(card_notations(card))
    parsed = Card.parse(text)
    assert parsed == card
    assert Card.parse(str(card)) == card
    assert str(parsed) == card.rank.letter + card.suit.letter
    assert eval(repr(parsed), {"Card": Card}) == card


def test_card_3_1_canonical_and_display_forms() -> None:
    """CARD-3.1: the canonical form is two ASCII characters; the symbol form is for display."""
    assert [str(Card.parse(t)) for t in ("AS", "A♠", "10H", "TH", "7c", "qd")] == ["AS", "AS", "TH", "TH", "7C", "QD"]
    assert Card.parse("10h").symbol == "10♥"
    assert repr(Card.parse("as")) == "Card.parse('AS')"


@pytest.mark.parametrize("text", ["", "1S", "11H", "AX", "A", "S", "AS KS", "10", "♠A", "1O♠"])
def test_card_3_1_bad_notation_quotes_the_input(text: str) -> None:
    """CARD-3.1: anything but rank-then-suit is refused, and the error quotes the input."""
    with pytest.raises(InvalidNotation) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)
    assert caught.value.text == text


def test_card_3_1_non_text_is_refused() -> None:
    """CARD-3.1: a card must be given as text, not a number."""
    with pytest.raises(InvalidNotation, match="as text"):
        Card.parse(14)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotation, match="as text"):
        CardSet.parse(None)  # type: ignore[arg-type]


@given(card_sets())
def test_card_3_2_card_list_round_trip(cs: CardSet) -> None:
    """CARD-3.2: a card set prints in canonical order and parses back to itself."""
    text = str(cs)
    assert CardSet.parse(text) == cs
    assert CardSet.parse(text.replace(" ", ", ")) == cs
    assert eval(repr(cs), {"CardSet": CardSet}) == cs
    assert text == " ".join(str(c) for c in sorted(cs))


def test_card_3_2_repeated_card_is_refused() -> None:
    """CARD-3.2: a card listed twice is an error naming the card."""
    with pytest.raises(InvalidNotation, match="card TH is listed twice"):
        CardSet.parse("10H 7C th")
    assert CardSet.parse("") == EMPTY
    assert str(EMPTY) == ""


def test_card_4_1_canonical_index_order() -> None:
    """CARD-4.1: index = 13 × suit + rank − 2, clubs first, two to ace within a suit."""
    assert [c.index for c in ALL_CARDS] == list(range(52))
    assert ALL_CARDS[0] == Card.parse("2C")
    assert ALL_CARDS[51] == Card.parse("AS")
    assert Card.parse("TH").index == 2 * 13 + 8
    assert Card.from_index(12) == Card.parse("AC")
    assert Card.from_index(0) == Card.parse("2C")
    assert Card.from_index(51) == Card.parse("AS")
    for bad in (52, -1, True, 3.0):
        with pytest.raises(RuleViolation, match=rf"^CARD-4.1: a card index is 0\.\.51, not {bad!r}$") as caught:
            Card.from_index(bad)  # type: ignore[arg-type]
        assert caught.value.offending == bad
    assert list(DECK_52) == list(ALL_CARDS)


@given(cards(), cards())
def test_card_4_1_card_comparisons_follow_the_index(a: Card, b: Card) -> None:
    """CARD-4.1: cards compare and hash by their canonical index."""
    assert (a < b) == (a.index < b.index)
    assert (a <= b) == (a.index <= b.index)
    assert (a > b) == (a.index > b.index)
    assert (a >= b) == (a.index >= b.index)
    assert (a == b) == (hash(a) == hash(b))
    assert Card(a.rank, a.suit) == a
    assert a != str(a)
    assert a.__lt__("x") is NotImplemented  # type: ignore[operator]
    assert a.__le__("x") is NotImplemented  # type: ignore[operator]
    assert a.__gt__("x") is NotImplemented  # type: ignore[operator]
    assert a.__ge__("x") is NotImplemented  # type: ignore[operator]


def test_card_1_1_card_fields_are_validated() -> None:
    """CARD-1.1: a card needs a real rank and suit."""
    with pytest.raises(TypeError):
        Card(14, Suit.SPADES)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Card(Rank.ACE, "S")  # type: ignore[arg-type]


# --- CardSet against frozenset -------------------------------------------------


@given(card_sets(), card_sets())
def test_card_4_1_card_set_algebra_agrees_with_frozenset(a: CardSet, b: CardSet) -> None:
    """CARD-4.1: card-set algebra, comparison and membership agree with frozenset."""
    fa, fb = frozenset(a), frozenset(b)
    assert frozenset(a | b) == fa | fb
    assert frozenset(a & b) == fa & fb
    assert frozenset(a - b) == fa - fb
    assert frozenset(a ^ b) == fa ^ fb
    assert (a <= b) == (fa <= fb)
    assert (a < b) == (fa < fb)
    assert (a >= b) == (fa >= fb)
    assert (a > b) == (fa > fb)
    assert a.isdisjoint(b) == fa.isdisjoint(fb)
    assert (a == b) == (fa == fb)
    assert len(a) == len(fa)
    assert bool(a) == bool(fa)
    assert list(a) == sorted(fa)
    for card in ALL_CARDS:
        assert (card in a) == (card in fa)
    assert a.suits() == frozenset(c.suit for c in fa)


@given(card_sets(), cards())
def test_card_4_1_card_set_add_remove_discard(a: CardSet, card: Card) -> None:
    """CARD-4.1: adding and removing one card behave as on a frozenset."""
    fa = frozenset(a)
    assert frozenset(a.add(card)) == fa | {card}
    assert frozenset(a.discard(card)) == fa - {card}
    if card in fa:
        assert frozenset(a.remove(card)) == fa - {card}
    else:
        with pytest.raises(KeyError):
            a.remove(card)


@given(card_sets(), st.sampled_from(list(Suit)))
def test_card_1_3_highest_and_lowest_by_suit(a: CardSet, suit: Suit) -> None:
    """CARD-1.3: highest and lowest follow the rank order, within a suit when asked."""
    in_suit = [c for c in a if c.suit == suit]
    for order in (ACE_HIGH, ACE_BELOW_JACK):
        hi = a.highest(order, suit)
        lo = a.lowest(order, suit)
        if not in_suit:
            assert hi is None
            assert lo is None
        else:
            assert hi == max(in_suit, key=order.key)
            assert lo == min(in_suit, key=order.key)
    assert frozenset(a.of_suit(suit)) == frozenset(in_suit)
    assert frozenset(a.filter(lambda c: c.suit == suit)) == frozenset(in_suit)


def test_card_4_1_card_set_rejects_bad_masks_and_operands() -> None:
    """CARD-4.1: a mask outside 52 bits, or a non-card operand, is refused."""
    for bad in (-1, 1 << 52, 1.5, True):
        with pytest.raises(ValueError, match="mask"):
            CardSet(bad)  # type: ignore[arg-type]
    cs = CardSet.parse("AS")
    for op in ("__or__", "__and__", "__sub__", "__xor__", "__le__", "__lt__", "__ge__", "__gt__"):
        assert getattr(cs, op)(frozenset()) is NotImplemented
    with pytest.raises(TypeError, match="expected a Card"):
        cs.add("AS")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        cs.filter(3)
    assert "AS" not in cs
    assert CardSet.of(["AS", Card.parse("2C"), "AS"]) == CardSet.parse("2C AS")


def test_card_4_1_values_pickle_and_hash() -> None:
    """CARD-4.1: cards and card sets survive pickling and work as dict keys."""
    hand = CardSet.parse("AS KH 7C")
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert pickle.loads(pickle.dumps(Card.parse("AS"))) == Card.parse("AS")
    assert {hand: 1}[CardSet.parse("7C KH AS")] == 1
