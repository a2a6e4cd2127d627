"""FLY-5, Folding (specs/fly.md §5): each test named after the rule it checks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fly_rules import CardSet, RuleViolation, fly
from fly_rules.strategies import fly_rules_options
from tests.fly.helpers import (
    ACE_BONUS,
    ACE_BONUS_TRICKS,
    ACE_NO_TRICK,
    AS,
    BASE,
    DEALER_HOLDS_ACE,
    _gives_up_the_ace,
    apply_all,
    assert_refused,
    card,
    match_without_ace_of_spades_in_hand,
    play,
    position,
    stand_all,
)


def test_fly_5_1_folded_player_is_skipped_and_his_record_unchanged() -> None:
    """FLY-5.1, FLY-6.2, FLY-8.6: a folded hand plays no card and its record does not move."""
    d = apply_all(position(BASE), fly.Stand(), fly.Fold(), fly.Stand())
    assert d.active == (True, False, True)
    movers = []
    for trick in ("AH 8H", "KH 9H", "QH TH", "7C 7S", "8C 8S"):
        for token in trick.split():
            movers.append(d.to_move)
            d = d.apply(fly.Play(card(token)))
    assert 1 not in movers
    assert d.is_over
    assert d.tricks_taken == (5, 0, 0)
    assert d.records == (20, 25, 30)


def test_fly_5_2_ace_of_spades_holder_may_not_fold() -> None:
    """FLY-5.2: a player holding the A♠ when he declares may not fold."""
    d = apply_all(position(ACE_NO_TRICK), fly.Stand(), fly.Stand())
    assert d.to_move == 2
    assert_refused(d, fly.Fold(), "FLY-5.2")
    assert d.legal_actions()[0] == fly.Stand()


def test_fly_5_2_holder_is_who_holds_it_when_play_begins() -> None:
    """FLY-5.2, FLY-8.3: a player who draws the A♠ in his exchange is its holder and earns the bonus."""
    d = position(BASE, top="AS").apply(fly.Exchange("8C"))
    assert d.hands[0] == CardSet.parse(ACE_BONUS[0])
    d = stand_all(d)
    assert d.ace_of_spades_holder == 0
    d = play(d, ACE_BONUS_TRICKS[0])
    assert d.records == (19, 25, 25)


@pytest.mark.parametrize(
    ("option", "folds", "rule"),
    [
        ({"forced_player": "dealer_if_all_passed"}, 2, "FLY-5.3"),
        ({"forced_player": "eldest"}, 0, "FLY-5.3"),
        ({"all_fold": "dealer_must_play"}, 2, "FLY-5.4"),
    ],
)
def test_fly_5_3_forced_players(option: dict[str, Any], folds: int, rule: str) -> None:
    """FLY-5.3, FLY-5.4: under the options the dealer (after all others folded) or the eldest may not fold."""
    d = apply_all(position(BASE, **option), *[fly.Fold()] * folds)
    assert_refused(d, fly.Fold(), rule)
    assert d.legal_actions()[0] == fly.Stand()


def test_fly_5_3_no_forced_player_by_default() -> None:
    """FLY-5.3, FLY-5.4: by default the dealer may fold after everyone else folded."""
    d = apply_all(position(BASE), fly.Fold(), fly.Fold())
    assert fly.Fold() in d.legal_actions()


def test_fly_5_4_all_fold_voids_the_deal() -> None:
    """FLY-5.4, FLY-8.6, FLY-10.3: if everyone folds the deal is void, no record changes, and it is over."""
    d = apply_all(position(BASE, records=(7, 12, 25)), fly.Fold(), fly.Fold(), fly.Fold())
    assert d.is_over
    assert d.void
    assert d.phase is fly.Phase.OVER
    assert d.records == (7, 12, 25)
    assert d.tricks_taken == (0, 0, 0)
    assert d.winner is None
    assert d.to_move is None
    assert_refused(d, fly.Stand(), "FLY-10.3")


@pytest.mark.parametrize(("all_fold", "next_dealer"), [("void", 1), ("redeal_same_dealer", 0)])
def test_fly_5_4_void_deal_passes_in_a_match(all_fold: str, next_dealer: int) -> None:
    """FLY-5.4, FLY-2.2: after a void deal the next deal is dealt by the next seat (or the same one)."""
    m = match_without_ace_of_spades_in_hand(all_fold=all_fold)
    first = m.deal_number
    m = m.apply(fly.Fold()).apply(fly.Fold()).apply(fly.Fold())
    assert not m.is_over
    assert m.deal_number == first + 1
    assert m.dealer == next_dealer
    assert m.records == (25, 25, 25)


def test_fly_5_5_lone_player_takes_all_five_tricks() -> None:
    """FLY-5.5: when only one player is active he takes the five tricks without play."""
    d = apply_all(position(BASE), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.is_over
    assert not d.void
    assert d.tricks_taken == (0, 0, 5)
    assert d.records == (25, 25, 20)
    assert d.winner is None


def test_fly_5_5_lone_ace_of_spades_holder_gets_the_bonus() -> None:
    """FLY-5.5, FLY-8.3: a lone A♠ holder writes off five tricks and the bonus of 5: 25 → 15."""
    d = apply_all(position(ACE_NO_TRICK), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.tricks_taken == (0, 0, 5)
    assert d.records == (25, 25, 15)


def test_fly_5_5_lone_player_stops_on_exact_zero() -> None:
    """FLY-5.5, FLY-9.1: the lone player's tricks are credited one by one, so from 3 he stops on 0."""
    d = apply_all(position(BASE, records=(25, 25, 3)), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.is_over
    assert d.tricks_taken == (0, 0, 3)
    assert d.records == (25, 25, 0)
    assert d.winner == 2


def test_fly_5_5_lone_player_options() -> None:
    """FLY-5.5: "void" voids a one-player deal; "last_speaker_must_play" bars the fold that would leave one."""
    d = apply_all(position(BASE, lone_player="void"), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.is_over
    assert d.void
    assert d.to_move is None
    assert d.records == (25, 25, 25)
    d = apply_all(position(BASE, lone_player="last_speaker_must_play"), fly.Fold(), fly.Stand())
    assert_refused(d, fly.Fold(), "FLY-5.5")
    d = apply_all(position(BASE, lone_player="last_speaker_must_play"), fly.Fold(), fly.Fold())
    assert fly.Fold() in d.legal_actions()


def test_fly_5_2_dealer_who_swapped_away_the_ace_of_spades_may_not_fold() -> None:
    """FLY-5.2 / FLY-4.6: the dealer held the A♠ when his turn began; taking the turn-up for it
    (``dealer_swap``) does not let him fold."""
    d = position(DEALER_HOLDS_ACE, "9H", turnup_use="dealer_swap").apply(fly.Stand()).apply(fly.Stand())
    d = d.apply(fly.SwapTrump(AS))
    assert AS not in d.hands[2]
    assert_refused(d, fly.Fold(), "FLY-5.2")


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


def test_fly_5_2_a_refused_fold_names_the_rule_and_carries_the_fold() -> None:
    """FLY-5.2: the A♠ holder's fold is refused, saying why, with the ``Fold`` as the value refused."""
    d = position(ACE_BONUS)
    with pytest.raises(RuleViolation) as caught:
        d.apply(fly.Fold())
    assert caught.value.rule == "FLY-5.2"
    assert caught.value.detail == "a player who held the ace of spades when his turn began may not fold"
    assert caught.value.offending == fly.Fold()


@pytest.mark.parametrize(
    ("hands", "options", "before", "rule", "detail"),
    [
        pytest.param(
            BASE,
            {"declaration_mode": "fold_round_then_exchange"},
            3,
            "FLY-4.6",
            "after the fold round a player who stayed in must play",
            id="exchange round",
        ),
        pytest.param(
            ACE_BONUS, {}, 0, "FLY-5.2", "a player who held the ace of spades when his turn began may not fold", id="A♠"
        ),
        pytest.param(
            BASE,
            {"forced_player": "eldest"},
            0,
            "FLY-5.3",
            "the player on the dealer's left may not fold (forced_player='eldest')",
            id="eldest",
        ),
        pytest.param(
            BASE,
            {"forced_player": "dealer_if_all_passed"},
            "folds",
            "FLY-5.3",
            "the dealer must play when everyone else has folded",
            id="dealer if all passed",
        ),
        pytest.param(
            BASE,
            {"all_fold": "dealer_must_play"},
            "folds",
            "FLY-5.4",
            "the dealer must play when everyone else has folded",
            id="all fold",
        ),
        pytest.param(
            BASE,
            {"lone_player": "last_speaker_must_play"},
            "stand, fold",
            "FLY-5.5",
            "the last to declare must play when only one other player stays in",
            id="lone player",
        ),
    ],
)
def test_fly_5_2_a_refused_fold_names_its_rule_and_reason(
    hands: tuple[str, ...], options: dict[str, Any], before: int | str, rule: str, detail: str
) -> None:
    """FLY-4.6 / FLY-5.2 / FLY-5.3 / FLY-5.4 / FLY-5.5: each reason a fold is refused is told apart,
    with the fold as the offending action; the fold is not offered and the deal is unchanged."""
    d = position(hands, **options)
    steps = {"folds": (fly.Fold(), fly.Fold()), "stand, fold": (fly.Stand(), fly.Fold())}
    d = apply_all(d, *(steps[before] if isinstance(before, str) else (fly.Stand(),) * before))
    fold = fly.Fold()
    assert fold not in d.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        d.apply(fold)
    assert (caught.value.rule, caught.value.detail, caught.value.offending) == (rule, detail, fold)
