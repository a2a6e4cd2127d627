"""FLY-11, Revoke (specs/fly.md §11): each test named after the rule it checks."""

from __future__ import annotations

from fly_rules import Card, fly
from tests.fly.helpers import (
    REVOKE,
    REVOKE_HANDS,
    REVOKE_TRICKS,
    assert_refused,
    card,
    play,
    plays,
    position,
    stand_all,
    trick_by_trick,
)


def test_fly_11_2_revoke_adjudicated_trick_to_best_lawful_card() -> None:
    """FLY-11.1, FLY-11.2: under revoke_mode="penalize" P3 trumps while holding a club: he adds 5 and the
    trick goes to P2's K♣, the best card of the players who did not revoke."""
    d = play(stand_all(position(REVOKE, revoke_mode="penalize")), "9C KC")
    assert fly.Play(card("8H")) not in d.legal_actions()
    d = play(d, "8H")
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 24, 30)
    assert d.leader == 1


def test_fly_11_2_the_deal_shows_the_revokes_of_the_trick_in_progress() -> None:
    """FLY-11.2: ``FlyDeal.revokes`` lists the places in the trick in progress of the cards that broke a duty:
    none after the lead, the second card when P2 throws a spade holding K♣ (he adds 5 at once), none again
    once the trick is taken, by P3's J♣, the best card of those who did not revoke."""
    d = play(stand_all(position(REVOKE, revoke_mode="penalize")), "9C")
    assert d.revokes == ()
    d = play(d, "7S")
    assert d.revokes == (1,)
    assert d.records == (25, 30, 25)
    d = play(d, "JC")
    assert d.revokes == ()
    assert d.tricks_taken == (0, 0, 1)
    assert d.records == (25, 30, 24)


def test_fly_11_3_revoker_without_trick_also_pays_remise() -> None:
    """FLY-11.3, FLY-8.4: the revoker who then takes no trick pays the remise too: 25 + 5 + 5 = 35."""
    states = trick_by_trick(stand_all(position(REVOKE, revoke_mode="penalize")), REVOKE_TRICKS)
    assert [s.records for s in states] == [(25, 24, 30), (25, 23, 30), (25, 22, 30), (25, 21, 30), (30, 20, 35)]
    assert states[-1].tricks_taken == (0, 5, 0)


def test_fly_11_1_revoke_refused_by_default() -> None:
    """FLY-11.1, FLY-6.3: by default the same revoke is refused and nothing changes."""
    d = play(stand_all(position(REVOKE)), "9C KC")
    assert_refused(d, fly.Play(card("8H")), "FLY-6.3")


def test_fly_11_1_adjudication_lists_only_lawful_cards_but_accepts_a_revoke() -> None:
    """FLY-11.1 (Decision: revokes are not among the legal actions): under ``revoke_mode="penalize"``
    seat 1's legal actions are his club alone; his trump is accepted as a revoke all the same, costs
    the remise at once, and the trick goes to the best lawful card (FLY-11.2)."""
    d = stand_all(position(REVOKE_HANDS, "9H", revoke_mode="penalize"))
    d = d.apply(fly.Play(Card.parse("9C")))
    assert d.legal_actions() == plays("KC")
    d = d.apply(fly.Play(Card.parse("8H")))
    assert d.records == (25, 30, 25)
    d = d.apply(fly.Play(Card.parse("QC")))
    assert d.tricks_taken == (0, 0, 1)
