"""The A♠ as a permanent top trump (``ace_of_spades_mode="top_trump"``): the duties it takes part in
and the refusals they give [FLY-7.1] [FLY-6.3] [FLY-6.4] [FLY-6.2].

Three players, seat 2 deals, hearts trump (9♥ turned up); seat 0 leads.
"""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import RuleViolation, fly
from tests.fly.test_fly_edge_cases import card, play, plays, position, stand_all


def top_trump(hands: tuple[str, str, str], cards: str, **options: Any) -> fly.FlyDeal:
    """The deal under ``top_trump`` after every player stands and ``cards`` are played."""
    return play(stand_all(position(hands, "9H", ace_of_spades_mode="top_trump", **options)), cards)


OTHERS = "KC 7S 8S TS JS"


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
