"""Regression tests for the rules-fidelity fixes of issue 13: each reproducer of the issue, named after
the rule it checks, through the public API only (positions built with ``fly.new_deal``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fly_rules
from fly_rules import CardSet, fly
from fly_rules.strategies import fly_rules_options
from tests.fly.test_fly_edge_cases import AS, assert_refused, card, play, position, stand_all

# The flush reproducer: clubs at seat 0, hearts at seat 1, spades at seat 2; dealer 2.
THREE_FLUSHES = ("7C 8C 9C TC JC", "7H 8H TH JH QH", "7S 8S 9S TS JS")
# The no-fold reproducers: the dealer (seat 2) or seat 0 holds the A♠.
DEALER_HOLDS_ACE = ("7C 8C 9C TC JC", "7H 8H TH JH QH", "AS 8S 9S TS JS")
ELDEST_HOLDS_ACE = ("AS 8C 9C TC JC", "7H 8H TH JH QH", "7S 8S 9S TS JS")


@pytest.mark.parametrize(
    ("hands", "trump", "tricks"),
    [
        pytest.param(THREE_FLUSHES, "9H", (0, 5, 0), id="trumps-beat-the-earlier-clubs"),
        pytest.param(("7C 8C 9C TC JC", "7D 8H 9D TH JH", "7S 8S 9S TS JS"), "9H", (5, 0, 0), id="first-plain"),
        pytest.param(("7C 8C 9C TC JC", "7D 8H 9D TH JH", "7S 8S 9S TS JS"), "QS", (0, 0, 5), id="spades-trump"),
        pytest.param(("7C 8C 9C TC JC", "7D 8H 9D TH JH", "7S 8S 9S TS JS"), "QC", (5, 0, 0), id="clubs-trump"),
    ],
)
def test_fly_12_1_flush_in_trumps_wins_else_first_from_dealers_left(
    hands: tuple[str, str, str], trump: str, tricks: tuple[int, int, int]
) -> None:
    """FLY-12.1: among several flushes, a flush in trumps wins; else the first from the dealer's left."""
    d = stand_all(position(hands, trump, flush_wins=True))
    assert d.is_over
    assert d.tricks_taken == tricks


def test_fly_12_1_a_folded_flush_does_not_count() -> None:
    """FLY-12.1: only an active player's flush wins; a folded trump flush leaves the plain flush to win."""
    d = position(THREE_FLUSHES, "9H", flush_wins=True)
    d = stand_all(d.apply(fly.Stand()).apply(fly.Fold()))
    assert d.tricks_taken == (5, 0, 0)


def test_fly_5_2_dealer_who_swapped_away_the_ace_of_spades_may_not_fold() -> None:
    """FLY-5.2 / FLY-4.6: the dealer held the A♠ when his turn began; taking the turn-up for it
    (``dealer_swap``) does not let him fold."""
    d = position(DEALER_HOLDS_ACE, "9H", turnup_use="dealer_swap").apply(fly.Stand()).apply(fly.Stand())
    d = d.apply(fly.SwapTrump(AS))
    assert AS not in d.hands[2]
    assert_refused(d, fly.Fold(), "FLY-5.2")


def test_fly_4_7_ace_of_spades_may_not_be_swapped_for_the_turn_up_when_not_discardable() -> None:
    """FLY-4.7: with ``ace_of_spades_discardable=False`` the dealer's trump swap may not give up the A♠
    either (the issue's reproducer: he swapped it, then folded); other cards may still be swapped."""
    d = position(DEALER_HOLDS_ACE, "9H", turnup_use="dealer_swap", ace_of_spades_discardable=False)
    d = d.apply(fly.Stand()).apply(fly.Stand())
    assert_refused(d, fly.SwapTrump(AS), "FLY-4.7")
    assert fly.SwapTrump(card("8S")) in d.legal_actions()
    assert_refused(d, fly.Fold(), "FLY-5.2")


def test_fly_4_6_discarding_the_ace_of_spades_does_not_free_a_fold_after_exchange() -> None:
    """FLY-4.6 / FLY-5.2: under ``may_fold_after_exchange`` the holder who discards the A♠ is asked
    again, but may only stand."""
    d = position(ELDEST_HOLDS_ACE, "9H", may_fold_after_exchange=True).apply(fly.Exchange(CardSet.parse("AS")))
    assert d.to_move == 0
    assert AS not in d.hands[0]
    assert d.legal_actions() == (fly.Stand(),)
    assert_refused(d, fly.Fold(), "FLY-5.2")


def test_fly_4_6_other_discards_still_allow_a_fold_after_exchange() -> None:
    """FLY-4.6: the option still lets a player without the A♠ fold after his exchange."""
    d = position(DEALER_HOLDS_ACE, "9H", may_fold_after_exchange=True).apply(fly.Exchange(CardSet.parse("7C")))
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    assert d.apply(fly.Fold()).active == (False, True, True)


def test_fly_6_3_top_trump_ace_of_spades_lead_is_a_trump_lead() -> None:
    """FLY-6.3 (not FLY-7.1): under ``top_trump`` the A♠ lead is a trump lead; a spade played while
    holding a heart (hearts trump) breaks the duty to follow."""
    hands = ("AS 8C 9C JC QC", "7H 8S 8D 9D TD", "KC 7S 9S TS JS")
    d = play(stand_all(position(hands, "9H", ace_of_spades_mode="top_trump")), "AS")
    assert_refused(d, fly.Play(card("8S")), "FLY-6.3")
    assert [str(a) for a in d.legal_actions()] == ["play 7H"]


def test_fly_6_5_top_trump_ace_of_spades_lead_leaves_a_player_without_trumps_free() -> None:
    """FLY-6.5: under ``top_trump`` the A♠ lead is a trump lead, so a player with spades but no heart
    (hearts trump) may play any card."""
    hands = ("AS 8C 9C JC QC", "8S 8D 9D TD JD", "KC 7S 9S TS JS")
    d = play(stand_all(position(hands, "9H", ace_of_spades_mode="top_trump")), "AS")
    assert len(d.legal_actions()) == 5


@pytest.mark.parametrize(
    ("trump_duty", "played", "duty"),
    [
        ("any_trump", "8S", "must play a trump"),
        ("overtrump", "8S", "must play a trump"),
        ("overtrump_or_free", "8S", "must beat the highest trump"),
        ("overtrump", "7H", "must beat the highest trump"),
    ],
)
def test_fly_6_4_top_trump_refusals_name_the_trump_duty(trump_duty: str, played: str, duty: str) -> None:
    """FLY-6.4: under ``top_trump``, void in clubs, holding 7♥ and the A♠ (a trump) after a ruff with
    8♥: the refusal names the duty broken — to trump, or to beat the highest trump."""
    hands = ("KD 8C 9C JC QC", "8H 7D 9D TD JD", "7H 8S 9S TS AS")
    d = play(stand_all(position(hands, "9H", ace_of_spades_mode="top_trump", trump_duty=trump_duty)), "8C 8H")
    assert_refused(d, fly.Play(card(played)), "FLY-6.4")
    with pytest.raises(fly_rules.RuleViolation, match=duty):
        d.apply(fly.Play(card(played)))


def _gives_up_the_ace(action: object) -> bool:
    """Whether a declaration discards the A♠ (an exchange of it, or the dealer's trump swap)."""
    if isinstance(action, fly.Exchange):
        return AS in action.cards
    return isinstance(action, fly.SwapTrump) and action.card == AS


@given(rules=fly_rules_options(), seed=st.integers(0, 2**32 - 1))
def test_fly_5_4_all_fold_only_when_nobody_was_dealt_the_ace_of_spades(rules: fly.FlyRules, seed: int) -> None:
    """FLY-5.4: under every option, a deal where everyone folds is one where no hand was dealt the A♠.

    Each player folds if he may, else discards the A♠ if he may (the escape FLY-5.2 closes), else stands.
    """
    d = fly.new_match(rules, seed=seed, dealer=0).deal
    dealt = any(AS in hand for hand in d.hands)
    while d.phase is fly.Phase.EXCHANGE:
        actions = d.legal_actions()
        escape = [a for a in actions if _gives_up_the_ace(a)][:1]
        d = d.apply(fly.Fold() if fly.Fold() in actions else (escape or [fly.Stand()])[0])
    assert any(d.active) or not dealt


# BASE of test_fly_edge_cases turned one seat round: seat 2 (leading, dealer 1) takes tricks 1-3 and
# seat 0 tricks 4-5, so the higher seat is the earlier to reach zero.
TURNED = ("AC KC 7D 8D 9D", "8H 9H TH 7S 8S", "AH KH QH 7C 8C")
TURNED_TRICKS = ("AH 7D 8H", "KH 8D 9H", "QH 9D TH", "7C AC 7S", "KC 8S 8C")


@pytest.mark.parametrize(("tie_break", "winners"), [("earliest", (2,)), ("shared", (2, 0))])
def test_fly_9_4_two_players_reach_zero_in_one_deal(tie_break: str, winners: tuple[int, ...]) -> None:
    """FLY-9.4: ``stop_mode="end_of_deal"``, records (2, 25, 3): seat 2 reaches 0 with the third trick,
    seat 0 with the fifth. The earlier (seat 2) wins although his seat number is higher; shared, both
    win, earliest first."""
    d = stand_all(position(TURNED, dealer=1, records=(2, 25, 3), stop_mode="end_of_deal", tie_break=tie_break))
    assert d.to_move == 2
    d = play(d, " ".join(TURNED_TRICKS))
    assert d.is_over
    assert d.records == (0, 30, 0)
    assert d.winner == 2
    assert d.winners == winners


def _fold_two_then_exchange_all(d: fly.FlyDeal) -> fly.FlyDeal:
    """Seven players, dealer 0: seats 1 and 2 fold, seats 3 to 6 each exchange their five cards; seat 6
    gets the last card of the stock and four from the refilled stock."""
    d = d.apply(fly.Fold()).apply(fly.Fold())
    for _ in range(4):
        seat = d.to_move
        assert seat is not None
        d = d.apply(fly.Exchange(d.hands[seat]))
    return d


def test_fly_4_5_folded_hands_refill_is_shuffled_from_the_seed_or_canonical_without_one() -> None:
    """FLY-4.5 (``stock_exhaustion="folded_hands"``): the folded hands become the new stock, shuffled
    from the match's seed (the same seed, the same order); an explicit position without a seed uses
    them in canonical order."""
    rules = fly.FlyRules(players=7, stock_exhaustion="folded_hands")
    dealt = fly.new_match(rules, seed=2, dealer=0).deal
    seeded = _fold_two_then_exchange_all(dealt)
    again = _fold_two_then_exchange_all(fly.new_match(rules, seed=2, dealer=0).deal)
    assert seeded.hands[6] == again.hands[6] == CardSet.parse("AC 5D 9D AH 9S")
    position = fly.new_deal(
        rules,
        hands=list(dealt.hands),
        trump_card=dealt.trump_card,
        stock=list(dealt.stock),
        dealer=0,
        records=dealt.records,
    )
    assert _fold_two_then_exchange_all(position).hands[6] == CardSet.parse("5D AC 4D 9D JD")


@pytest.mark.parametrize(("trump", "ace_holder_record"), [("7S", 40), ("QH", 35)])
def test_fly_8_5_ace_of_spades_holder_without_a_trick_pays_the_trump_penalty_when_spades_are_trump(
    trump: str, ace_holder_record: int
) -> None:
    """FLY-8.5, FLY-12.1: seat 0's club flush takes the five tricks; seat 1 holds the A♠ and takes none,
    so he pays ``ace_no_trick_penalty_trumps`` (15 here) when spades are trump, else
    ``ace_no_trick_penalty`` (10); seat 2 pays the remise."""
    hands = ("7C 8C 9C TC JC", "AS 7H 8H 9D TD", "7D 8D 9H TH JH")
    d = stand_all(position(hands, trump, flush_wins=True, ace_no_trick_penalty_trumps=15))
    assert d.tricks_taken == (5, 0, 0)
    assert d.records == (20, ace_holder_record, 30)
