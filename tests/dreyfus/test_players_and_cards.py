"""Section 1 of specs/dreyfus.md: players, deck, trump marker, the actions of the game."""

from __future__ import annotations

import pytest

from fly_rules import Card, CardSet, Fold, RuleViolation, Suit
from fly_rules.cards import DECK_48
from fly_rules.dreyfus import DreyfusRules, Exchange, Play, Stand, new_match

from .helpers import deal, stand_all


def test_drf_1_1_three_players_each_with_a_hand() -> None:
    """DRF-1.1: a match seats exactly three players, each dealt his own twelve cards."""
    m = new_match(DreyfusRules(), seed=1, dealer=0)
    hands = [m.view(seat).hand for seat in range(3)]
    assert [len(h) for h in hands] == [12, 12, 12]
    with pytest.raises(ValueError, match="seat"):
        m.view(3)


def test_drf_1_2_the_deck_is_48_cards_without_twos_ace_high() -> None:
    """DRF-1.2: every card dealt is from the 48-card deck, and the ace wins its suit."""
    m = new_match(DreyfusRules(), seed=3, dealer=1)
    d = m.deal
    everything = d.hand_masks[0] | d.hand_masks[1] | d.hand_masks[2] | CardSet.of(d.talon).mask
    assert everything == DECK_48.mask
    s = stand_all(deal())
    s = s.apply(Play("KS")).apply(Play("3H")).apply(Play("3D"))
    assert s.tricks_taken == (1, 0, 0)


def test_drf_1_2_a_two_in_a_hand_is_refused() -> None:
    """DRF-1.2: a deal holding a two is no Dreyfus deal."""
    from fly_rules.dreyfus import new_deal

    from .helpers import layout

    hands, talon = layout()
    hands[0][0] = "2S"
    with pytest.raises(RuleViolation) as caught:
        new_deal(DreyfusRules(), hands, talon, Suit.SPADES, 2)
    assert caught.value.rule == "DRF-1.2"


def test_drf_1_3_the_two_of_trumps_is_the_marker() -> None:
    """DRF-1.3: views show the two of the trump suit, none in no-trump or when switched off."""
    assert deal(contract=Suit.HEARTS).view(0).trump_indicator == Card.parse("2H")
    assert deal(contract=None).view(0).trump_indicator is None
    assert deal(rules=DreyfusRules(show_trump_indicator=False)).view(0).trump_indicator is None


def test_drf_1_4_only_exchange_stand_and_play() -> None:
    """DRF-1.4: any other action, such as a fold, is refused naming DRF-1.4."""
    s = deal()
    for state in (s, stand_all(s)):
        with pytest.raises(RuleViolation, match="^DRF-1.4: Dreyfus knows only exchange, stand and play$") as caught:
            state.apply(Fold())
        assert caught.value.offending == Fold()
    assert Exchange("3S").cards == CardSet.parse("3S")
    assert Stand() == Stand()
