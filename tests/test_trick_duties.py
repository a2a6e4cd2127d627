"""Worked cases of the shared trick duties and the card order, one per clause, so that each comparison
in ``fly_rules.tricks`` and ``fly_rules.cards`` is pinned by a position (the property tests in
``test_tricks.py`` cover the same ground at random; these fail on the first example)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fly_rules.cards import ACE_BELOW_JACK, ACE_HIGH, ALL_CARDS, Card, CardSet, Rank, RankOrder, Suit
from fly_rules.errors import InvalidRules
from fly_rules.tricks import Duty, TrumpDuty, beaten_by_mask, playable, trick_winner, trump_duty_option, unmet_duty

HEARTS = int(Suit.HEARTS)


def idx(cards: str) -> list[int]:
    """Card indices of a space-separated list of cards."""
    return [Card.parse(text).index for text in cards.split()]


def allowed(hand: str, trick: str, order: RankOrder = ACE_HIGH, **duties: object) -> str:
    """The cards of ``hand`` that may be played to ``trick`` (hearts trump), as text."""
    mask = playable(CardSet.parse(hand).mask, idx(trick), HEARTS, order, **duties)  # type: ignore[arg-type]
    return str(CardSet(mask))


def duty(hand: str, card: str, trick: str, order: RankOrder = ACE_HIGH, **duties: object) -> Duty | None:
    """The duty that playing ``card`` from ``hand`` to ``trick`` (hearts trump) breaks."""
    hand_mask = CardSet.parse(hand).mask
    return unmet_duty(hand_mask, Card.parse(card).index, idx(trick), HEARTS, order, **duties)  # type: ignore[arg-type]


def test_fly_6_3_must_head_means_beating_the_best_card_of_the_suit_led() -> None:
    """FLY-6.3 (must_head_trick): J♠ led, holding Q♠ and 7♠: only Q♠ heads; without the option either."""
    assert allowed("QS 7S 8D", "JS", must_head=True) == "QS"
    assert allowed("QS 7S 8D", "JS") == "7S QS"
    assert duty("QS 7S 8D", "7S", "JS", must_head=True) is Duty.HEAD
    assert duty("QS 7S 8D", "7S", "JS") is None
    assert duty("QS 7S 8D", "8D", "JS", must_head=True) is Duty.FOLLOW
    # The best card of the suit led, not the led card: J♠ then K♠; Q♠ no longer heads, so any spade.
    assert allowed("QS 7S", "JS KS", must_head=True) == "7S QS"
    # An equal card does not head: holding only lower spades, any spade.
    assert allowed("TS 7S", "JS", must_head=True) == "7S TS"


def test_card_1_3_must_head_follows_the_ace_below_jack_order() -> None:
    """CARD-1.3 / FLY-1.4: with the ace below the jack, A♥ led, holding K♥ and 7♥: K♥ heads (it beats
    the ace); ace high, nothing heads and either heart may be played."""
    assert allowed("KH 7H", "AH", ACE_BELOW_JACK, must_head=True) == "KH"
    assert allowed("KH 7H", "AH", ACE_HIGH, must_head=True) == "7H KH"
    assert allowed("JH 7H", "AH", ACE_BELOW_JACK, must_head=True) == "JH"
    assert allowed("TH 7H", "AH", ACE_BELOW_JACK, must_head=True) == "7H TH"


def test_fly_6_3_a_trumped_trick_need_not_be_headed_in_the_suit_led() -> None:
    """FLY-6.3: once the trick is trumped, a follower need not head the suit led (he cannot win)."""
    assert allowed("QS 7S", "JS 8H", must_head=True) == "7S QS"


@pytest.mark.parametrize(
    ("trump_duty", "hand", "expected"),
    [
        (TrumpDuty.ANY_TRUMP, "7H QH 2C", "7H QH"),
        (TrumpDuty.OVERTRUMP, "7H QH 2C", "QH"),
        (TrumpDuty.OVERTRUMP_OR_FREE, "7H QH 2C", "QH"),
        (TrumpDuty.OVERTRUMP, "7H 2C", "7H"),
        (TrumpDuty.OVERTRUMP_OR_FREE, "7H 2C", "2C 7H"),
        (TrumpDuty.OVERTRUMP, "2C 3D", "2C 3D"),
    ],
)
def test_fly_6_4_overtrump_duty_when_void_in_the_suit_led(trump_duty: TrumpDuty, hand: str, expected: str) -> None:
    """FLY-6.4 / DRF-6.3: 9♠ led and trumped with 8♥; a player void in spades."""
    assert allowed(hand, "9S 8H", trump_duty=trump_duty) == expected


def test_fly_6_4_overtrump_duty_before_any_trump_is_played() -> None:
    """FLY-6.4: with no trump in the trick yet, every trump overtrumps, so any trump will do."""
    assert allowed("7H QH 2C", "9S", trump_duty=TrumpDuty.OVERTRUMP) == "7H QH"
    assert allowed("7H QH 2C", "9S", trump_duty=TrumpDuty.OVERTRUMP_OR_FREE) == "7H QH"


def test_fly_6_4_refusals_name_the_trump_duty_broken() -> None:
    """FLY-6.4 / DRF-6.3: a plain card breaks the duty to trump, a low trump the duty to overtrump;
    under ``overtrump_or_free`` a plain card is refused only because an overtrump was possible."""
    over, free = TrumpDuty.OVERTRUMP, TrumpDuty.OVERTRUMP_OR_FREE
    assert duty("7H QH 2C", "7H", "9S 8H", trump_duty=over) is Duty.OVERTRUMP
    assert duty("7H QH 2C", "2C", "9S 8H", trump_duty=over) is Duty.TRUMP
    assert duty("7H QH 2C", "2C", "9S 8H", trump_duty=free) is Duty.OVERTRUMP
    assert duty("7H QH 2C", "2C", "9S 8H") is Duty.TRUMP
    assert duty("7H QH 2C", "7H", "9S 8H") is None  # by default any trump will do
    assert duty("7H QH 2C", "QH", "9S 8H", trump_duty=over) is None


def test_fly_6_3_follow_duty_for_every_suit_led() -> None:
    """FLY-6.3: the suit led is read from the led card for the low cards of each suit as well
    (index 13 × suit: 2♦, 2♥, 2♠), with no trump."""
    for led in ("2C", "2D", "2H", "2S", "AC", "AS"):
        suit = Card.parse(led).suit
        follow = next(c for c in ALL_CARDS if c.suit == suit and c.rank == Rank.FIVE)
        other = next(c for c in ALL_CARDS if c.suit != suit and c.rank == Rank.THREE)
        hand = CardSet.of([follow, other])
        assert playable(hand.mask, idx(led), None, ACE_HIGH) == follow.bit
        assert unmet_duty(hand.mask, other.index, idx(led), None, ACE_HIGH) is Duty.FOLLOW
        assert unmet_duty(hand.mask, follow.index, idx(led), None, ACE_HIGH, must_head=True) is None


def test_fly_6_6_trick_winner_examples() -> None:
    """FLY-6.6 / DRF-6.6: the highest trump wins, else the highest card of the suit led; a later
    equal-suit card must be higher to win; the winner can be in any place."""
    assert trick_winner(idx("9S AS 7H"), HEARTS, ACE_HIGH) == 2
    assert trick_winner(idx("9S AS 7H KH"), HEARTS, ACE_HIGH) == 3
    assert trick_winner(idx("9S 7H AS KH"), HEARTS, ACE_HIGH) == 3
    assert trick_winner(idx("KS QS JS"), HEARTS, ACE_HIGH) == 0
    assert trick_winner(idx("9S AD AC"), HEARTS, ACE_HIGH) == 0
    assert trick_winner(idx("AH KS"), HEARTS, ACE_HIGH) == 0
    assert trick_winner(idx("AH KH"), HEARTS, ACE_BELOW_JACK) == 1
    assert trick_winner(idx("2S 3S"), None, ACE_HIGH) == 1
    assert trick_winner(idx("2H 3S"), HEARTS, ACE_HIGH) == 0


_FRESH = itertools.count()


@given(st.permutations(list(Rank)))
def test_card_1_3_beaten_by_mask_in_any_rank_order(ranks: list[Rank]) -> None:
    """CARD-1.3: for any rank order, the mask of the cards beating a card holds exactly the cards of its
    suit that the order ranks higher. Each order gets a name never used before, so that its table is
    computed here and not taken from the cache (which a mutation run's parent process has filled)."""
    order = RankOrder(f"shuffled {next(_FRESH)}", tuple(ranks))
    for card in ALL_CARDS:
        expected = CardSet.of(c for c in ALL_CARDS if order.beats(c, card))
        assert CardSet(beaten_by_mask(card.index, order)) == expected


def test_card_4_1_first_and_last_index_and_direct_comparisons() -> None:
    """CARD-4.1: 0 is 2♣ and 51 is A♠; -1 and 52 are refused; cards compare by index, ties included."""
    assert Card.from_index(0) == Card.parse("2C")
    assert Card.from_index(51) == Card.parse("AS")
    for bad in (-1, 52):
        with pytest.raises(ValueError, match=r"0\.\.51"):
            Card.from_index(bad)
    two, three, ace = Card.parse("2C"), Card.parse("3C"), Card.parse("AS")
    assert two < three < ace
    assert not three < two
    assert not two < Card.parse("2C")
    assert two <= Card.parse("2C") <= three
    assert not three <= two
    assert ace > three > two
    assert not two > Card.parse("2C")
    assert ace >= Card.parse("AS") >= three
    assert not two >= three
    assert Card(Rank.TWO, Suit.DIAMONDS).index == 13
    assert Card(Rank.ACE, Suit.CLUBS).index == 12


def test_fly_6_4_a_low_spade_led_is_not_a_trump_in_a_full_deck() -> None:
    """FLY-6.4 (overtrump_or_free): 2♠ led, hearts trump; void in spades, holding 3♥ and 5♣: the 2♠ is
    no trump to beat, so the heart must be played; and a bad duty name is refused listing the known ones."""
    assert allowed("3H 5C", "2S", trump_duty=TrumpDuty.OVERTRUMP_OR_FREE) == "3H"
    with pytest.raises(InvalidRules) as caught:
        trump_duty_option("sometimes")
    assert caught.value.detail == "must be one of 'any_trump', 'overtrump', 'overtrump_or_free', not 'sometimes'"
