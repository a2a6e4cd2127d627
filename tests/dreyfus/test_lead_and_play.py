"""Sections 5 and 6 of specs/dreyfus.md: the lead, the order of play, the duties, the trick."""

from __future__ import annotations

import random

import pytest

from fly_rules import CardSet, RuleViolation, Suit
from fly_rules.dreyfus import DreyfusRules, Exchange, Play, Stand, new_match
from fly_rules.dreyfus.play import legal_play_mask, required_mask
from fly_rules.engine import Phase

from .helpers import deal, run, stand_all


def playable(state: object) -> CardSet:
    """The cards the state lets the player to move play."""
    return CardSet.of(a.card for a in state.legal_actions())  # type: ignore[attr-defined]


def test_drf_5_1_eldest_leads_whether_or_not_he_bought() -> None:
    """DRF-5.1: eldest leads to the first trick even when only the dealer bought."""
    s = deal(dealer=0).apply(Stand()).apply(Stand()).apply(Exchange("3S"))
    assert s.to_move == 1
    assert s.leader == 1


def test_drf_5_1_first_actual_buyer_option() -> None:
    """DRF-5.1: under "first_actual_buyer" the first player in turn who bought leads; nobody buying, eldest."""
    rules = DreyfusRules(first_lead="first_actual_buyer")
    s = deal(rules=rules).apply(Stand()).apply(Stand()).apply(Exchange("3D"))
    assert s.to_move == 2
    assert stand_all(deal(rules=rules)).to_move == 0


def test_drf_5_2_the_trick_winner_leads_next() -> None:
    """DRF-5.2: whoever takes a trick leads the next one."""
    s = run(stand_all(deal(("3S", "3H"))), "4S", "3S", "3D")
    assert s.tricks_taken == (1, 0, 0)
    assert s.to_move == 0
    s = run(stand_all(deal(("AS", "3H"))), "4S", "AS", "3D")
    assert s.to_move == 1
    assert s.leader == 1


def test_drf_5_3_play_goes_to_the_left() -> None:
    """DRF-5.3: after seat 1 leads, seat 2 then seat 0 play."""
    s = stand_all(deal(dealer=0))
    assert s.to_move == 1
    s = run(s, "3H")
    assert s.to_move == 2
    s = run(s, "3D")
    assert s.to_move == 0


def test_drf_6_1_a_card_not_in_hand_is_refused() -> None:
    """DRF-6.1: a player may play only a card he holds."""
    s = stand_all(deal())
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play("3H"))
    assert str(caught.value) == "DRF-6.1: the card is not in the player's hand"
    assert caught.value.offending == Play("3H")


def test_drf_6_2_must_follow_suit() -> None:
    """DRF-6.2: holding the suit led, a player must play it; anything else is refused."""
    s = run(stand_all(deal(("AS", "3H"), contract=Suit.HEARTS)), "5S")
    assert playable(s) == CardSet.parse("AS")
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play("4H"))
    assert caught.value.rule == "DRF-6.2"
    assert str(caught.value).startswith("DRF-6.2: must follow suit")


def test_drf_6_2_edge_5_a_trump_lead_must_be_followed_with_a_trump() -> None:
    """DRF-6.2 (edge case 5): when a trump is led, a player holding trumps must play one."""
    s = run(stand_all(deal(("3S", "3H"), contract=Suit.HEARTS)), "3H")
    assert playable(s) == CardSet.parse("4H 5H 6H 7H 8H 9H TH JH QH KH AH")


def test_drf_6_3_void_must_trump() -> None:
    """DRF-6.3: void in the suit led and holding a trump, a player must trump."""
    s = run(stand_all(deal(("3D", "3H"), contract=Suit.HEARTS)), "5S")
    assert CardSet.parse("3D") not in [CardSet.of([c]) for c in playable(s)]
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play("3D"))
    assert caught.value.rule == "DRF-6.3"


def test_drf_6_3_edge_3_lower_trump_after_a_higher_ruff_is_still_owed() -> None:
    """DRF-6.3 (edge case 3): a void player whose only trump is lower than the ruff must still play it."""
    s = run(stand_all(deal(("3D", "3H"), contract=Suit.HEARTS)), "5S", "AH")
    assert playable(s) == CardSet.parse("3H")


def test_drf_6_3_overtrump_options() -> None:
    """DRF-6.3: "overtrump" still forces a trump that cannot win; "overtrump_or_free" then frees any card."""
    hearts = Suit.HEARTS
    over = DreyfusRules(trump_duty="overtrump")
    free = DreyfusRules(trump_duty="overtrump_or_free")
    able = (("3D", "AH"), ("4D", "3H"))  # seat 2 holds AH and 3H; seat 1 ruffs with 4H
    assert playable(run(stand_all(deal(*able, contract=hearts)), "5S", "4H")) == CardSet.parse("3H AH")
    assert playable(run(stand_all(deal(*able, contract=hearts, rules=over)), "5S", "4H")) == CardSet.parse("AH")
    assert playable(run(stand_all(deal(*able, contract=hearts, rules=free)), "5S", "4H")) == CardSet.parse("AH")
    unable = (("3D", "3H"), ("4D", "4H"))  # seat 2 holds 3H and 4H; seat 1 ruffs with 5H
    assert playable(run(stand_all(deal(*unable, contract=hearts, rules=over)), "5S", "5H")) == CardSet.parse("3H 4H")
    assert len(playable(run(stand_all(deal(*unable, contract=hearts, rules=free)), "5S", "5H"))) == 12


def test_drf_6_4_no_duty_to_head_the_trick() -> None:
    """DRF-6.4: a follower may play a lower card of the suit; with must_head_trick he must beat if able."""
    swaps = (("AS", "3H"), ("4S", "4H"))
    s = run(stand_all(deal(*swaps)), "5S")
    assert playable(s) == CardSet.parse("4S AS")
    strict = run(stand_all(deal(*swaps, rules=DreyfusRules(must_head_trick=True))), "5S")
    assert playable(strict) == CardSet.parse("AS")
    with pytest.raises(RuleViolation) as caught:
        strict.apply(Play("4S"))
    assert caught.value.rule == "DRF-6.4"


def test_drf_6_5_edge_4_void_without_trumps_or_in_no_trump_plays_anything() -> None:
    """DRF-6.5 (edge case 4): void in the suit led with no trump, or in no-trump, any card may be played."""
    assert len(playable(run(stand_all(deal(contract=Suit.CLUBS)), "5S"))) == 12
    assert len(playable(run(stand_all(deal(contract=None)), "5S"))) == 12


def test_drf_6_6_highest_trump_wins_else_highest_of_suit_led() -> None:
    """DRF-6.6: a low trump beats the ace led; without trumps the highest card of the suit led wins."""
    s = run(stand_all(deal(("3D", "3H"), contract=Suit.DIAMONDS)), "AS", "3D", "4D")
    assert s.tricks_taken == (0, 0, 1)
    s = run(stand_all(deal(("AS", "3H"), contract=Suit.CLUBS)), "5S", "AS", "AD")
    assert s.tricks_taken == (0, 1, 0)


def test_drf_6_7_drf_1_4_twelve_tricks_then_the_deal_is_over() -> None:
    """DRF-6.7: after twelve tricks the deal is over; DRF-1.4: any action after the deal is over is
    refused, citing DRF-1.4 (DRF-6.7 only says when the deal ends)."""
    s = stand_all(deal())
    while not s.is_over:
        s = s.apply(s.legal_actions()[0])
    assert len(s.tricks) == 12
    assert sum(s.tricks_taken) == 12
    assert s.legal_actions() == ()
    assert s.phase is Phase.OVER
    assert (s.to_move, s.legal_mask) == (None, 0)  # nobody to move, no card playable
    for action in (Play("3S"), Stand(), Exchange("3S")):
        with pytest.raises(RuleViolation, match="^DRF-1.4: the deal is over; no action is accepted$") as caught:
            s.apply(action)
        assert caught.value.offending == action


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"must_head_trick": True},
        {"trump_duty": "overtrump"},
        {"must_head_trick": True, "trump_duty": "overtrump_or_free"},
        {"revoke_mode": "penalize", "must_head_trick": True, "trump_duty": "overtrump"},
    ],
)
def test_drf_6_1_the_legal_cards_are_those_keeping_every_duty(options: dict[str, object]) -> None:
    """DRF-6.1 (DRF-6.2 to DRF-6.5, DRF-10.1): the cards the engine accepts are those keeping every duty of
    play under the options in force (the whole hand when revokes are penalised), as the play module tells."""
    rules = DreyfusRules(**options)  # type: ignore[arg-type]
    chooser = random.Random(4)
    narrowed = 0
    for seed in range(4):
        m = new_match(rules, seed=seed, dealer=seed % 3)
        s = stand_all(m.deal)
        while s.to_move is not None:
            hand = s.hand_masks[s.to_move]
            required = required_mask(s.table, hand, s.trick_cards)
            assert s.legal_mask == legal_play_mask(s.table, hand, s.trick_cards)
            assert s.legal_mask == (hand if rules.revoke_mode == "penalize" else required)
            assert CardSet(required) <= CardSet(hand)
            narrowed += required != hand
            s = s.apply(chooser.choice(s.legal_actions()))
    assert narrowed > 20  # the duties did bind often


def test_drf_1_4_no_action_after_the_match_is_over() -> None:
    """DRF-1.4: once a match is over (here after its one deal, ``max_deals=1``) every action is refused
    citing DRF-1.4, and the match is unchanged."""
    m = new_match(DreyfusRules(max_deals=1), seed=3, dealer=0)
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    for action in (Play("3S"), Stand(), Exchange("3S")):
        with pytest.raises(RuleViolation) as caught:
            m.apply(action)
        assert caught.value.rule == "DRF-1.4"
        assert str(caught.value).startswith("DRF-1.4: the match is over")
