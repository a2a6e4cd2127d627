"""Checks found missing by the statement mutation run (``scripts/mutate_statements.py``): bad options and
positions refused with the library's own error and message, and a default the scoring depends on."""

from __future__ import annotations

import random

import pytest

from fly_rules import InvalidRules, RuleViolation, Suit, dreyfus, registry
from fly_rules.bots.sampling import sample_deal
from fly_rules.dreyfus import DreyfusRules, new_deal
from fly_rules.dreyfus.hidden import DreyfusGuess
from fly_rules.engine import Phase

from .helpers import layout


@pytest.mark.parametrize(
    ("cycle", "message"),
    [
        ("SC", "must be a sequence of suits or None"),
        (5, "must be a sequence of suits or None"),
        ([Suit.SPADES, 1.5], "is not a suit or None"),
    ],
)
def test_drf_3_3_a_contract_cycle_must_be_a_sequence_of_suits(cycle: object, message: str) -> None:
    """DRF-3.3: ``contract_cycle`` is a sequence of suits or None; a string (not read letter by letter), a
    number, or an item that is neither is refused as InvalidRules naming the option."""
    with pytest.raises(InvalidRules, match=message) as caught:
        DreyfusRules(contract_cycle=cycle)  # type: ignore[arg-type]
    assert "contract_cycle" in str(caught.value)


def test_drf_4_2_fosk_ranks_a_string_other_than_any_is_refused() -> None:
    """DRF-4.2: ``fosk_ranks`` is a set of ranks or the word "any"; another string is refused saying so,
    not read letter by letter."""
    with pytest.raises(InvalidRules, match="give a set of ranks or 'any'"):
        DreyfusRules(fosk_ranks="3456")


def test_drf_10_1_the_revoke_penalty_replaces_the_undertricks_by_default() -> None:
    """DRF-10.1 (Options): by default a revoker's undertricks are not written on top of the penalty."""
    assert DreyfusRules().revoke_adds_undertricks is False
    assert DreyfusRules(revoke_adds_undertricks=True).revoke_adds_undertricks is True


@pytest.mark.parametrize("deal_number", [-1, 1.5])
def test_drf_2_4_a_position_with_a_bad_deal_number_is_refused(deal_number: object) -> None:
    """DRF-2.4: an explicit position's deal number is a whole number from 0; anything else is no deal."""
    hands, talon = layout()
    with pytest.raises(RuleViolation, match="deal_number must be a whole number") as caught:
        new_deal(DreyfusRules(), hands, talon, Suit.SPADES, 2, deal_number=deal_number)  # type: ignore[arg-type]
    assert caught.value.rule == "DRF-2.4"


def test_drf_2_4_a_position_with_a_contract_of_another_type_is_refused() -> None:
    """DRF-2.4: the contract of an explicit position is a suit, its letter, "NT" or None; a number is a
    TypeError naming the contract."""
    hands, talon = layout()
    with pytest.raises(TypeError, match="contract: expected a suit"):
        new_deal(DreyfusRules(), hands, talon, 5, 2)  # type: ignore[arg-type]


def _one_trick_and_a_lead() -> dreyfus.DreyfusMatch:
    """A match past the exchange (every seat stood), one whole trick played and the next one led."""
    match = dreyfus.new_match(DreyfusRules(), seed=7, dealer=0)
    while match.deal.phase is Phase.EXCHANGE:
        match = match.apply(dreyfus.Stand())
    while len(match.deal.view(0).tricks) < 1 or not match.deal.view(0).trick:
        match = match.apply(match.legal_actions()[0])
    return match


def test_drf_11_1_the_picture_of_a_view_titles_the_deal_and_counts_hidden_cards_and_tricks() -> None:
    """DRF-11.1: the picture of a seat's view (the Dreyfus descriptor's picture) titles the deal with its
    number, phase and trumps, shows each hidden hand's card count (one fewer for a seat that has played to
    the trick on the table) and, once a trick is taken, each seat's tricks."""
    match = _one_trick_and_a_lead()
    leader = match.deal.view(0).trick[0][0]
    seat = (leader + 1) % 3
    view = match.deal.view(seat)
    picture = registry.game_of(match).picture(view, {seat: view.hand}, None)
    assert picture["title"] == "Dreyfus, deal 1: play, trumps ♠"
    assert picture["hands"][seat] == view.hand
    assert picture["hands"][leader] == 10  # twelve, less the whole trick and the card on the table
    assert picture["hands"][(leader + 2) % 3] == 11
    taken = view.tricks_taken
    assert picture["declarations"] == [f"bought none, {registry.tricks_text(taken[s])}" for s in range(3)]
    assert registry.game_of(match).picture(view, {seat: view.hand}, "mine")["title"] == "mine"


def test_drf_11_1_the_picture_before_any_trick_names_no_tricks() -> None:
    """DRF-11.1: before the first trick is taken the picture's notes say only what each seat bought."""
    match = dreyfus.new_match(DreyfusRules(), seed=7, dealer=0)
    while match.deal.phase is Phase.EXCHANGE:
        match = match.apply(dreyfus.Stand())
    view = match.deal.view(0)
    picture = registry.game_of(match).picture(view, {0: view.hand}, None)
    assert picture["declarations"] == ["bought none"] * 3
    assert picture["hands"][1:] == [12, 12]


@pytest.mark.parametrize("players", [2, 4, "3"])
def test_drf_1_1_the_descriptor_refuses_rules_for_other_than_three_players(players: object) -> None:
    """DRF-1.1: Dreyfus is for three players: its descriptor's rules maker refuses any other count,
    naming the rule, and makes the preset's rules for 3 or no count given."""
    game = registry.get("dreyfus")
    with pytest.raises(InvalidRules, match="DRF-1.1: Dreyfus is for 3 players"):
        game.make_rules("default", players, {})  # type: ignore[arg-type]  # a bad count on purpose
    assert game.make_rules("default", 3, {}) == game.make_rules("default", None, {}) == DreyfusRules()


def test_drf_11_1_a_guessed_deal_gives_every_hand_twelve_cards() -> None:
    """DRF-11.1 (with DRF-2.2's twelve cards a hand): a deal guessed from a seat's view at the start of the
    exchange (the descriptor's guesser, DreyfusGuess) deals each seat twelve cards and a talon of twelve."""
    match = dreyfus.new_match(DreyfusRules(), seed=3, dealer=0)
    view = match.deal.view(1)
    assert isinstance(registry.get("dreyfus").guesser(view, DreyfusRules()), DreyfusGuess)
    sample = sample_deal(view, DreyfusRules(), random.Random(5), tries=1)
    assert sample is not None
    assert [len(hand) for hand in sample.hands] == [12, 12, 12]
    assert len(sample.stock) == 12
    assert sample.hands[1] == view.hand


def test_drf_3_1_a_deal_s_trump_is_its_contract() -> None:
    """DRF-3.1: the deal's trump suit is the contract it was dealt with."""
    hands, talon = layout()
    for contract in (Suit.SPADES, Suit.HEARTS):
        assert new_deal(DreyfusRules(), hands, talon, contract, 2).trump is contract


def test_drf_9_1_a_deal_s_scores_are_lower_minus_upper() -> None:
    """DRF-9.1: each seat's score in a deal is its lower record minus its upper record."""
    hands, talon = layout()
    d = new_deal(DreyfusRules(), hands, talon, Suit.SPADES, 2, upper=(3, 0, 7), lower=(1, 5, 2))
    assert d.scores == (-2, 5, -5)


def test_drf_4_2_no_card_is_discardable_once_the_play_begins() -> None:
    """DRF-4.2: in the exchange the seat to move may discard its фоски; once every seat has stood and the
    play begins, no card is discardable."""
    hands, talon = layout()
    d = new_deal(DreyfusRules(), hands, talon, Suit.HEARTS, 2)
    assert d.discardable_mask != 0  # seat 0's low spades are фоски under hearts
    while d.phase is Phase.EXCHANGE:
        d = d.apply(dreyfus.Stand())
    assert d.to_move is not None
    assert d.discardable_mask == 0
