"""FLY-6, Trick play (specs/fly.md §6): each test named after the rule it checks."""

from __future__ import annotations

from typing import Any

import pytest

import fly_rules
from fly_rules import Card, RuleViolation, fly
from tests.fly.helpers import (
    BASE,
    BASE_TRICKS,
    OTHERS,
    TIE_HANDS,
    apply_all,
    assert_refused,
    card,
    play,
    plays,
    position,
    sliced,
    stand_all,
    top_trump,
    trick_by_trick,
)


def test_fly_6_1_first_active_player_leads_when_eldest_folded() -> None:
    """FLY-6.1: with the eldest folded, the next active player to the left leads the first trick."""
    d = apply_all(sliced(4, dealer=3), fly.Fold(), fly.Stand(), fly.Stand(), fly.Stand())
    assert d.phase is fly.Phase.PLAY
    assert d.leader == 1
    assert d.to_move == 1


def test_fly_6_2_play_goes_left_among_active_players() -> None:
    """FLY-6.2: a trick is played to the left, skipping a folded seat; a card not held is refused."""
    d = apply_all(sliced(4, dealer=3), fly.Stand(), fly.Stand(), fly.Fold(), fly.Stand())
    assert d.to_move == 0
    assert_refused(d, fly.Play(card("AH")), "FLY-6.2")
    order: list[int | None] = []
    for _ in range(3):
        order.append(d.to_move)
        d = d.apply(d.legal_actions()[0])
    assert order == [0, 1, 3]
    assert len(d.trick) == 0
    assert sum(d.tricks_taken) == 1


def test_fly_6_3_must_follow_suit_but_need_not_head() -> None:
    """FLY-6.3, FLY-11.1: holding the suit led one must follow, with any card of it; a revoke is refused."""
    d = play(stand_all(position(("9C 8D 9D TD JD", "7C KC 7S 8S 9S", "8H JC QC 7D AC"))), "9C")
    assert d.legal_actions() == plays("7C KC")
    assert_refused(d, fly.Play(card("7S")), "FLY-6.3")
    d = play(d, "7C")
    assert d.legal_actions() == plays("JC QC AC")
    assert_refused(d, fly.Play(card("8H")), "FLY-6.3")


def test_fly_6_3_must_head_trick_option() -> None:
    """FLY-6.3: with must_head_trick=True a follower must beat the best card of the suit led when able."""
    hands = ("9C 8D 9D TD JD", "7C KC 7S 8S 9S", "8H JC QC 7D AC")
    d = play(stand_all(position(hands, must_head_trick=True)), "9C")
    assert d.legal_actions() == plays("KC")
    assert_refused(d, fly.Play(card("7C")), "FLY-6.3")
    d = play(d, "KC")
    assert d.legal_actions() == plays("AC")


@pytest.mark.parametrize("mode", ["led_trump_ace", "none"])
@pytest.mark.parametrize(
    ("trump_duty", "allowed", "refused"),
    [("any_trump", "7H KH", "QD"), ("overtrump", "KH", "7H"), ("overtrump_or_free", "KH", "AD")],
)
def test_fly_6_4_void_player_must_trump(trump_duty: str, allowed: str, refused: str, mode: str) -> None:
    """FLY-6.4: void in the suit led, a player must trump (any trump by default; overtrump by option),
    with the A♠ privilege or without it (``ace_of_spades_mode="none"``)."""
    hands = ("9C 8D 9D TD JD", "9H 7S 8S 9S TS", "7H KH QD KD AD")
    d = play(stand_all(position(hands, "8H", trump_duty=trump_duty, ace_of_spades_mode=mode)), "9C 9H")
    assert d.legal_actions() == plays(allowed)
    assert_refused(d, fly.Play(card(refused)), "FLY-6.4")


@pytest.mark.parametrize(("trump_duty", "allowed"), [("any_trump", "7H"), ("overtrump_or_free", "7H QD KD AD JS")])
def test_fly_6_4_overtrump_or_free_when_unable_to_overtrump(trump_duty: str, allowed: str) -> None:
    """FLY-6.4: a player who cannot overtrump must still trump by default, but plays freely under
    "overtrump_or_free"."""
    hands = ("9C 8D 9D TD JD", "9H 7S 8S 9S TS", "7H QD KD AD JS")
    d = play(stand_all(position(hands, "8H", trump_duty=trump_duty)), "9C 9H")
    assert d.legal_actions() == plays(allowed)


def test_fly_6_5_void_in_suit_and_trumps_plays_anything() -> None:
    """FLY-6.5: holding neither the suit led nor a trump, any card may be played."""
    d = play(stand_all(position(("TC 7D 8D 9D TD", "AH 7S 8S 9S TS", "AS JD QD KD AD"))), "TC AH")
    assert d.legal_actions() == plays("JD QD KD AD AS")


@pytest.mark.rule("FLY-1.5")  # each player's tricks count for him alone: three records move apart
def test_fly_6_6_and_8_2_three_tricks_write_off_25_to_22() -> None:
    """FLY-6.6, FLY-8.2, FLY-8.4, FLY-6.7, FLY-1.5: each trick writes off one at once (25 → 22 after three);
    the winner leads next; a player with no trick adds the remise of 5 at the end."""
    d = stand_all(position(BASE))
    states = trick_by_trick(d, BASE_TRICKS)
    assert [s.tricks_taken for s in states] == [(1, 0, 0), (2, 0, 0), (3, 0, 0), (3, 1, 0), (3, 2, 0)]
    assert [s.records for s in states] == [(24, 25, 25), (23, 25, 25), (22, 25, 25), (22, 24, 25), (22, 23, 30)]
    assert [s.leader for s in states[:4]] == [0, 0, 0, 1]
    assert not states[3].is_over
    final = states[-1]
    assert final.is_over
    assert final.phase is fly.Phase.OVER
    assert final.winner is None
    assert final.to_move is None


def test_fly_6_7_deal_ends_after_the_fifth_trick() -> None:
    """FLY-6.7, FLY-10.3: after five tricks the deal is over and accepts no action."""
    d = trick_by_trick(stand_all(position(BASE)), BASE_TRICKS)[-1]
    assert d.is_over
    assert all(len(hand) == 0 for hand in d.hands)
    assert d.legal_actions() == ()
    assert_refused(d, fly.Play(card("AH")), "FLY-10.3")


def test_fly_6_3_fly_7_5_led_trump_ace_must_be_headed_without_the_ace_of_spades_privilege() -> None:
    """FLY-6.3, FLY-7.5, FLY-7.1, FLY-1.4: spades trump (so the A♠ is an ordinary trump, FLY-7.1) and
    ``ace_rank="below_jack"``: the A♠ led is a low trump, and with ``must_head_trick`` seat 1 must head
    it with the K♠; the 8♠ follows suit but does not head the trick."""
    d = stand_all(
        position(
            ("AS 7C 8C 9C TC", "KS 8S 7D 8D 9D", "JH 9H 8H TH QH"), "7S", ace_rank="below_jack", must_head_trick=True
        )
    )
    assert not d.table.privileged
    d = d.apply(fly.Play(Card.parse("AS")))
    assert d.legal_actions() == plays("KS")


def test_fly_6_1_no_leader_before_play() -> None:
    """FLY-6.1 (``FlyDeal.leader``): None until the play begins, then the eldest hand, left of the dealer."""
    d = position(TIE_HANDS, "9H", dealer=1)
    assert d.phase is fly.Phase.EXCHANGE
    assert d.leader is None
    d = stand_all(d)
    assert (d.phase, d.leader, d.to_move) == (fly.Phase.PLAY, 2, 2)


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


@pytest.mark.parametrize(
    ("hands", "options", "played", "rule", "detail"),
    [
        (("8H 8C 9C JC QC", "AS 8D 9D TD JD", OTHERS), {}, "8D", "FLY-6.3", "must follow suit (8H led, 8D played)"),
        (
            ("8H 8C 9C JC QC", "TH 7H 8D 9D TD", OTHERS),
            {"must_head_trick": True},
            "7H",
            "FLY-6.3",
            "must head the trick in the suit led (8H led, 7H played)",
        ),
        (("8H 8C 9C JC QC", "TH 7H 8D 9D TD", OTHERS), {}, "JH", "FLY-6.2", "seat 1 does not hold JH"),
    ],
)
def test_fly_6_3_top_trump_refusals_name_the_duty_the_led_card_and_the_card(
    hands: tuple[str, str, str], options: dict[str, Any], played: str, rule: str, detail: str
) -> None:
    """FLY-6.3 / FLY-6.2: each refusal names its rule, the duty broken, the card led and the card
    played, and carries the action refused."""
    d = top_trump(hands, "8H", **options)
    action = fly.Play(card(played))
    with pytest.raises(RuleViolation) as caught:
        d.apply(action)
    assert (caught.value.rule, caught.value.detail) == (rule, detail)
    assert caught.value.offending == action


def test_fly_6_3_top_trump_refusal_in_a_full_deck() -> None:
    """FLY-6.3: with five players (52 cards) the 2♠ led is a spade, not a heart: a heart played while
    holding a spade breaks the duty to follow suit."""
    hands = ("2S 3C 4C 5C 6C", "3S 7H 3D 4D 5D", "4S 5S 6S 7S 8S", "2D 6D 7D 8D 9D", "TC JC QC KC AC")
    d = play(stand_all(position(hands, "9H", dealer=4, ace_of_spades_mode="top_trump")), "2S")
    with pytest.raises(RuleViolation) as caught:
        d.apply(fly.Play(card("7H")))
    assert (caught.value.rule, caught.value.detail) == ("FLY-6.3", "must follow suit (2S led, 7H played)")
