"""FLY-8, Scoring (specs/fly.md §8): each test named after the rule it checks."""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import fly
from tests.fly.helpers import (
    ACE_BONUS,
    ACE_BONUS_TRICKS,
    ACE_NO_TRICK,
    ACE_NO_TRICK_TRICKS,
    BASE,
    BASE_TRICKS,
    apply_all,
    play,
    position,
    stand_all,
    trick_by_trick,
)


def test_fly_8_1_records_start_at_start_record() -> None:
    """FLY-8.1: records start at 25, or at start_record."""
    assert fly.new_match(fly.FlyRules(players=3), seed=0, dealer=0).records == (25, 25, 25)
    assert fly.new_match(fly.FlyRules(players=3, start_record=30), seed=0, dealer=0).records == (30, 30, 30)


@pytest.mark.parametrize(
    ("hands", "first", "holder"),
    [(BASE, fly.Stand(), None), (ACE_BONUS, fly.Stand(), 0), (ACE_BONUS, fly.Exchange("AS"), None)],
    ids=["nobody", "seat 0", "discarded"],
)
def test_fly_8_3_the_score_names_the_ace_holder_or_none(
    hands: tuple[str, ...], first: fly.Stand | fly.Exchange, holder: int | None
) -> None:
    """FLY-8.3 / FLY-9.4: when the play begins the score names the player holding the A♠, or None when
    nobody does (not dealt, or discarded); nobody has taken a trick yet (trick number 0), and the
    first trick's winner has taken trick 1."""
    d = apply_all(position(hands), first, fly.Stand(), fly.Stand())
    assert d.phase is fly.Phase.PLAY
    assert d.score.ace_holder is holder
    assert d.ace_of_spades_holder is holder
    assert d.score.ace_bonus_due is (holder is not None)
    assert (d.score.tricks_taken, d.score.last_trick_of) == ((0, 0, 0), (0, 0, 0))
    d = play(d, "AH 7D 8H")
    assert (d.score.tricks_taken, d.score.last_trick_of) == ((1, 0, 0), (1, 0, 0))


def test_fly_8_3_ace_bonus_with_first_trick_only() -> None:
    """FLY-8.3: the A♠ holder writes off 5 more with his first trick (won with A♥, not the A♠), never again."""
    d = stand_all(position(ACE_BONUS))
    assert d.ace_of_spades_holder == 0
    states = trick_by_trick(d, ACE_BONUS_TRICKS)
    assert [s.records for s in states] == [(19, 25, 25), (18, 25, 25), (17, 25, 25), (17, 24, 25), (17, 23, 30)]
    assert states[-1].tricks_taken == (3, 2, 0)
    assert d.score.ace_bonus_due is True
    assert [s.score.ace_bonus_due for s in states] == [False] * 5  # a bool, as its field says


@pytest.mark.parametrize(("options", "final"), [({}, 35), ({"ace_no_trick_penalty": 12}, 37)])
def test_fly_8_5_ace_of_spades_holder_without_trick_adds_ten(options: dict[str, Any], final: int) -> None:
    """FLY-8.5, FLY-8.4: the A♠ holder who takes no trick adds 10 in all (not 5): 25 → 35."""
    d = stand_all(position(ACE_NO_TRICK, **options))
    assert d.ace_of_spades_holder == 2
    d = trick_by_trick(d, ACE_NO_TRICK_TRICKS)[-1]
    assert d.tricks_taken == (3, 2, 0)
    assert d.records == (22, 23, final)


def test_fly_8_4_remise_option_value() -> None:
    """FLY-8.4: the remise is paid at the end of the deal, remise points for each active player without a trick."""
    d = trick_by_trick(stand_all(position(BASE, remise=7)), BASE_TRICKS)
    assert d[3].records == (22, 24, 25)
    assert d[-1].records == (22, 23, 32)


def test_fly_8_6_folded_players_and_void_deals_change_no_record() -> None:
    """FLY-8.6, FLY-5.1: a folded player without a trick pays no remise."""
    d = apply_all(position(BASE, records=(25, 9, 25)), fly.Stand(), fly.Stand(), fly.Fold())
    d = trick_by_trick(d, ("AH 7D", "KH 8D", "QH 9D", "7C AC", "KC 8C"))[-1]
    assert d.is_over
    assert d.tricks_taken == (3, 2, 0)
    assert d.records == (22, 7, 25)


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
