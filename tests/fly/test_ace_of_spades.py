"""FLY-7, The ace of spades (specs/fly.md §7): each test named after the rule it checks."""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import Suit, fly
from tests.fly.helpers import (
    AS,
    CASE_1,
    CASE_2,
    OTHERS,
    P3_HEARTS,
    assert_refused,
    card,
    first_trick,
    play,
    plays,
    position,
    stand_all,
    top_trump,
)


def test_fly_7_3_trump_ace_led_ace_of_spades_wins() -> None:
    """FLY-7.2, FLY-7.3, FLY-8.3: case 1 — P1 leads A♥, P2 (holding K♥) plays A♠ and wins; 25 → 19."""
    d = play(stand_all(position(CASE_1, "8H")), "AH")
    assert fly.Play(AS) in d.legal_actions()
    assert fly.Play(card("KH")) in d.legal_actions()
    d = play(d, "AS 7H")
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 19, 25)
    assert d.leader == 1
    assert d.to_move == 1


@pytest.mark.parametrize("mode", ["led_trump_ace_void_only", "none"])
def test_fly_7_1_case_1_without_the_privilege_p1_wins(mode: str) -> None:
    """FLY-7.1, FLY-6.3: case 1 under "led_trump_ace_void_only" or "none" — P2 holds a trump, so his A♠ is
    refused; he must play K♥ and P1 takes the trick."""
    d = play(stand_all(position(CASE_1, "8H", ace_of_spades_mode=mode)), "AH")
    assert d.legal_actions() == plays("KH")
    assert_refused(d, fly.Play(AS), "FLY-6.3")
    d = play(d, "KH 7H")
    assert d.tricks_taken == (1, 0, 0)
    assert d.records == (24, 25, 25)


def test_fly_7_3_ace_of_spades_beats_trumps_played_after_it() -> None:
    """FLY-7.3: four players — A♥ led, A♠, then K♥: the A♠ still wins the trick."""
    hands = ("AH 6C 7C 8C 9C", "QH AS 6D 7D 8D", "KH TC JC QC KC", "6H 9D TD JD QD")
    d = play(stand_all(position(hands, "7H", dealer=3)), "AH AS KH 6H")
    assert d.tricks_taken == (0, 1, 0, 0)
    assert d.records == (25, 19, 25, 25)


def test_fly_7_4_covered_trick_ace_of_spades_loses() -> None:
    """FLY-7.4: case 2 — P1 leads 10♣, P2 trumps with A♥, P3 plays A♠: the trump ace was not led, P2 wins."""
    d = first_trick(CASE_2, "7H", "TC AH AS")
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 24, 25)
    assert d.ace_of_spades_holder == 2


def test_fly_7_1_top_trump_option_ace_of_spades_beats_every_trump() -> None:
    """FLY-7.1: under "top_trump" the A♠ is the highest trump — case 2 goes to P3, case 3 to P2."""
    d = play(stand_all(position(CASE_2, "7H", ace_of_spades_mode="top_trump")), "TC AH")
    assert d.legal_actions() == (fly.Play(AS),)
    d = play(d, "AS")
    assert d.tricks_taken == (0, 0, 1)
    assert d.records == (25, 25, 19)
    d = first_trick(("KH 7C 8C 9C TC", "AS 7D 8D 9D TD", P3_HEARTS), "8H", "KH AS 7H", ace_of_spades_mode="top_trump")
    assert d.tricks_taken == (0, 1, 0)


def test_fly_7_4_discarded_ace_of_spades_beats_no_trump() -> None:
    """FLY-7.4: case 3 — P1 leads K♥, P2 (no hearts) discards A♠, P3 plays 7♥: P1 wins."""
    d = play(stand_all(position(("KH 7C 8C 9C TC", "AS 7D 8D 9D TD", P3_HEARTS), "8H")), "KH")
    assert d.legal_actions() == plays("AS 7D 8D 9D TD")
    d = play(d, "AS 7H")
    assert d.tricks_taken == (1, 0, 0)
    assert d.records == (24, 25, 25)


def test_fly_7_4_ace_of_spades_can_be_trumped() -> None:
    """FLY-7.4, FLY-6.4: case 4 — P1 leads 9♠, P2 plays A♠, P3 (void in spades) must trump with 7♥ and wins."""
    d = play(stand_all(position(("9S 7C 8C 9C TC", "AS 7D 8D 9D TD", P3_HEARTS), "8H")), "9S")
    assert d.legal_actions() == (fly.Play(AS),)
    d = play(d, "AS")
    assert d.legal_actions() == plays("7H")
    d = play(d, "7H")
    assert d.tricks_taken == (0, 0, 1)
    assert d.records == (25, 25, 24)


def test_fly_7_4_trump_ace_not_led_gives_no_privilege() -> None:
    """FLY-7.4: 7♥ led and covered with A♥: the A♠ holder who has a heart must follow; void, his A♠ loses."""
    d = play(stand_all(position(("7H 7C 8C 9C TC", "AH 7D 8D 9D TD", "AS 9H JC QC KC"), "8H")), "7H AH")
    assert d.legal_actions() == plays("9H")
    assert_refused(d, fly.Play(AS), "FLY-6.3")
    d = first_trick(("7H 7C 8C 9C TC", "AH 7D 8D 9D TD", "AS JC QC KC AC"), "8H", "7H AH AS")
    assert d.tricks_taken == (0, 1, 0)


def test_fly_7_5_spades_trump_ace_of_spades_is_trump_ace() -> None:
    """FLY-7.5, FLY-8.3: case 5 — spades trump, P1 leads K♠, P2 plays A♠ and wins; bonus 10: 25 → 14."""
    d = first_trick(("KS 7C 8C 9C TC", "AS 7D 8D 9D TD", "7S JC QC KC AC"), "8S", "KS AS 7S")
    assert d.trump is Suit.SPADES
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 14, 25)


def test_fly_7_6_privilege_is_optional() -> None:
    """FLY-7.6: case 6 — P1 leads A♥, the A♠ holder plays 8♥ instead, and P1 wins."""
    d = play(stand_all(position(("AH 7C 8C 9C TC", "8H AS 7D 8D 9D", P3_HEARTS), "9H")), "AH")
    assert d.legal_actions() == plays("8H AS")
    d = play(d, "8H 7H")
    assert d.tricks_taken == (1, 0, 0)
    assert d.records == (24, 25, 25)


@pytest.mark.parametrize(("second", "third"), [("JH", "KH"), ("AS", "KH 9H")])
def test_fly_7_2_a_led_trump_ace_must_be_headed_where_it_can_be(second: str, third: str) -> None:
    """FLY-7.2 / FLY-6.5 / FLY-7.3: with the ace below the jack and ``must_head_trick``, a led A♥
    can be headed: the next seat must play J♥ (not 8♥) or use his A♠. Once the A♠ is in the trick
    nothing can head it, so the last seat follows with any heart; otherwise he must head the J♥."""
    hands = ("AH 7C 8C 9C TC", "JH 8H AS 7D 8D", "KH 9H 7S 8S 9S")
    d = play(stand_all(position(hands, "7H", ace_rank="below_jack", must_head_trick=True)), "AH")
    assert d.legal_actions() == plays("JH AS")
    assert_refused(d, fly.Play(card("8H")), "FLY-6.3")
    d = play(d, second)
    assert d.legal_actions() == plays(third)


@pytest.mark.parametrize(
    ("hands", "cards", "options", "legal"),
    [
        # The A♠ is a heart here: holding no other, the holder must follow with it.
        (("8H 8C 9C JC QC", "AS 8D 9D TD JD", OTHERS), "8H", {}, "AS"),
        # Heading a trump lead: the A♠ beats the A♥.
        (("AH 8C 9C JC QC", "AS 7H 8D 9D TD", OTHERS), "AH", {"must_head_trick": True}, "AS"),
        (("8H 8C 9C JC QC", "TH 7H 8D 9D TD", OTHERS), "8H", {"must_head_trick": True}, "TH"),
        # Ace below the jack: A♥ does not head J♥, so either heart.
        (
            ("JH 8C 9C JC QC", "AH 7H 8D 9D TD", OTHERS),
            "JH",
            {"must_head_trick": True, "ace_rank": "below_jack"},
            "7H AH",
        ),
        # 9♠ led, ruffed with Q♥; the third player is void in spades.
        (("9S 8C 9C JC QC", "QH 7D 8D 9D TD", "KH 8H KC AC 7C"), "9S QH", {"trump_duty": "overtrump"}, "KH"),
        (("9S 8C 9C JC QC", "QH 7D 8D 9D TD", "KH 8H KC AC 7C"), "9S QH", {"trump_duty": "any_trump"}, "8H KH"),
        (("9S 8C 9C JC QC", "QH 7D 8D 9D TD", "8H TC KC AC 7C"), "9S QH", {"trump_duty": "overtrump"}, "8H"),
        (
            ("9S 8C 9C JC QC", "QH 7D 8D 9D TD", "8H TC KC AC 7C"),
            "9S QH",
            {"trump_duty": "overtrump_or_free"},
            "7C TC KC AC 8H",
        ),
        (
            ("9S 8C 9C JC QC", "QH 7D 8D 9D TD", "AD TC KC AC 7C"),
            "9S QH",
            {"trump_duty": "overtrump"},
            "7C TC KC AC AD",
        ),
    ],
)
def test_fly_7_1_the_top_trump_takes_part_in_every_duty(
    hands: tuple[str, str, str], cards: str, options: dict[str, Any], legal: str
) -> None:
    """FLY-7.1 / FLY-6.3 / FLY-6.4: under ``top_trump`` the A♠ is the highest heart for following,
    heading and overtrumping, and the ordinary duties hold for the other cards."""
    assert top_trump(hands, cards, **options).legal_actions() == plays(legal)
