"""A match as a value: how it starts, what it refuses once over, equality and hashing
[FLY-10.1] [FLY-10.3] [FLY-1.2] [FLY-2.1]."""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import RuleViolation, fly

RULES = fly.FlyRules(players=3)


def finished() -> fly.FlyMatch:
    """A match at 1 point each: the first trick's winner ends it."""
    match = fly.new_match(fly.FlyRules(players=3, start_record=1), seed=5, dealer=0)
    while not match.is_over:
        match = match.apply(match.legal_actions()[0])
    return match


def test_fly_10_3_a_finished_match_accepts_no_action() -> None:
    """FLY-10.3: once a record reaches zero the match is over; any action is refused, naming it."""
    match = finished()
    assert match.winners == (1,)
    for action in (fly.Stand(), *match.deal.actions[-1:]):
        with pytest.raises(RuleViolation) as caught:
            match.apply(action)
        assert caught.value.rule == "FLY-10.3"
        assert caught.value.detail == f"the match is over; no action is accepted ({action!r})"
        assert caught.value.offending == action


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"rules": {"players": 3}, "seed": 1}, "rules must be FlyRules, not dict"),
        ({"seed": True}, "a seed must be an int or a str, not True"),
        ({"seed": 1.5}, "a seed must be an int or a str, not 1.5"),
        ({"seed": None}, "a seed must be an int or a str, not None"),
    ],
)
def test_fly_10_1_a_match_needs_rules_and_a_whole_number_or_text_seed(arguments: dict[str, Any], message: str) -> None:
    """FLY-10.1: the rules must be ``FlyRules`` and the seed an int or a str (not a bool)."""
    arguments = {"rules": RULES} | arguments
    with pytest.raises(TypeError) as caught:
        fly.new_match(arguments.pop("rules"), **arguments)
    assert str(caught.value) == message


@pytest.mark.parametrize("dealer", [3, -1, True, "0"])
def test_fly_1_2_the_first_dealer_is_a_seat_at_the_table(dealer: Any) -> None:
    """FLY-1.2 / FLY-2.1: a first dealer outside seats 0 to 2 is refused, naming the seats."""
    with pytest.raises(RuleViolation) as caught:
        fly.new_match(RULES, seed=1, dealer=dealer)
    assert caught.value.rule == "FLY-1.2"
    assert caught.value.detail == f"the dealer must be a seat 0 to 2, not {dealer!r}"
    assert caught.value.offending is dealer


def test_fly_10_1_matches_are_equal_when_their_positions_are() -> None:
    """FLY-10.1: equality and hashing look at the deal in progress, the first dealer and the rest of the
    match's fields, not at the deal before it or the actions that led there."""
    match = fly.new_match(RULES, seed=4, dealer=0)
    stood = match.apply(fly.Stand())
    other_past = match._replace(previous_deal=stood.deal, history=(fly.Stand(), None))
    assert other_past == match
    assert hash(other_past) == hash(match)
    assert stood != match
    assert hash(stood) != hash(match)
    assert fly.new_match(RULES, seed=4, dealer=1) != match
    assert tuple(match) != match
    assert (other_past != match) is False
    assert len({match, other_past, stood}) == 2
