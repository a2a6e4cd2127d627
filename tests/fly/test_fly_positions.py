"""Explicit positions (``fly.new_deal``): the cards as text, cards or card sets, and a clear
refusal of every position the rules do not allow, naming the rule, what is wrong and the value
[FLY-3.1] [FLY-1.2] [FLY-1.3] [FLY-8.1] [FLY-9.1]."""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import Card, CardSet, RuleViolation, fly

RULES = fly.FlyRules(players=3)
HANDS = ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"]


def new(rules: Any = RULES, **changes: Any) -> fly.FlyDeal:
    """``new_deal`` of the three-player position above, with some arguments changed."""
    arguments: dict[str, Any] = {"hands": HANDS, "trump_card": "8H", "stock": "7H 7D"} | changes
    return fly.new_deal(rules, **arguments)


def test_fly_3_1_cards_may_be_given_as_text_cards_or_card_sets() -> None:
    """FLY-3.1: a hand as text (spaces or commas), as Cards, or as a CardSet gives the same deal; the
    stock keeps the order given, its top first."""
    text = new(stock="7D, 7H")
    cards = new(
        hands=[[Card.parse(c) for c in h.split()] for h in HANDS], trump_card=Card.parse("8H"), stock=["7D", "7H"]
    )
    sets = new(hands=[CardSet.parse(h) for h in HANDS], stock=[Card.parse("7D"), "7H"])
    assert text == cards == sets
    assert text.hands[0] == CardSet.parse("AS KH 7C 8D 9S")
    assert text.stock == (Card.parse("7D"), Card.parse("7H"))
    assert text.to_move == 1
    assert text.records == (25, 25, 25)
    assert new(records=(3, 4, 5), dealer=1).records == (3, 4, 5)
    assert new(dealer=1).to_move == 2


NEED_RECORDS = "3 players need 3 whole-number records of at most 100 digits"
LIMIT = "more than 4,300 digits"


@pytest.mark.parametrize(
    ("changes", "rule", "detail", "offending"),
    [
        ({"dealer": 3}, "FLY-1.2", "the dealer must be a seat 0 to 2, not 3", 3),
        ({"dealer": -1}, "FLY-1.2", "the dealer must be a seat 0 to 2, not -1", -1),
        ({"dealer": True}, "FLY-1.2", "the dealer must be a seat 0 to 2, not True", True),
        ({"hands": HANDS[:2]}, "FLY-3.1", "3 players need 3 hands, got 2", HANDS[:2]),
        (
            {"hands": [*HANDS[:2], "7S 8S 9C TC"]},
            "FLY-3.1",
            "seat 2 must hold 5 cards, not 4",
            "7S 8S 9C TC",
        ),
        ({"hands": [*HANDS[:2], "7S 8S 9C TC 2C"]}, "FLY-1.3", "2C is not in the 32-card deck", Card.parse("2C")),
        ({"trump_card": "AH"}, "FLY-1.3", "AH is dealt twice", Card.parse("AH")),
        ({"stock": "7H 7H"}, "FLY-1.3", "7H is dealt twice", Card.parse("7H")),
        (
            {"hands": [*HANDS[:2], ["7S", "7S", "9C", "TC", "JC"]]},
            "FLY-1.3",
            "a card is dealt twice within one hand",
            [*HANDS[:2], ["7S", "7S", "9C", "TC", "JC"]],
        ),
        ({"records": (25, 25)}, "FLY-8.1", f"{NEED_RECORDS}, got (25, 25)", (25, 25)),
        ({"records": (25, 25, 2.5)}, "FLY-8.1", f"{NEED_RECORDS}, got (25, 25, 2.5)", None),
        ({"records": (25, 25, 10**5000)}, "FLY-8.1", f"{NEED_RECORDS}, got a tuple holding a number of {LIMIT}", None),
        (
            {"records": (25, 0, 25)},
            "FLY-9.1",
            "a record at or below zero has already ended the match: (25, 0, 25)",
            None,
        ),
    ],
)
def test_fly_3_1_a_position_the_rules_do_not_allow_is_refused(
    changes: dict[str, Any], rule: str, detail: str, offending: object
) -> None:
    """FLY-1.2 / FLY-3.1 / FLY-1.3 / FLY-8.1 / FLY-9.1: each refusal names its rule, says what is
    wrong and carries the value refused."""
    with pytest.raises(RuleViolation) as caught:
        new(**changes)
    assert caught.value.rule == rule
    assert caught.value.detail == detail
    expected = changes.get("records") if offending is None else offending
    assert caught.value.offending == expected


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rules": {"players": 3}}, "rules must be FlyRules, not dict"),
        ({"hands": "AS KH"}, "hands: expected one value per seat, got 'AS KH'"),
        ({"records": 25}, "records: expected one value per seat, got 25"),
        ({"trump_card": None}, "trump_card: expected a card, got None"),
        ({"stock": 7}, "stock: expected cards, got 7"),
        ({"hands": [*HANDS[:2], [1, 2, 3, 4, 5]]}, "hand 2: expected a card, got 1"),
        ({"stock": [Card.parse("7H"), 7]}, "stock: expected a card, got 7"),
    ],
)
def test_fly_3_1_what_is_not_cards_or_rules_is_a_type_error(changes: dict[str, Any], message: str) -> None:
    """FLY-3.1: rules that are not ``FlyRules``, cards that are not cards (``trump_card=None``) and hands or
    records that are not one value per seat are refused by type, never with an AttributeError."""
    with pytest.raises(TypeError, match=f"^{message}"):
        new(**changes)
