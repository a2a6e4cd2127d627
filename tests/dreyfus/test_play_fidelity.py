"""Regression tests for the rule IDs of refused plays (issue 13): the overtrump duty is an option of
DRF-6.3, so its refusals cite DRF-6.3 and name the overtrump duty."""

from __future__ import annotations

import pytest

from fly_rules import RuleViolation, Suit
from fly_rules.dreyfus import DreyfusRules, Play

from .helpers import deal, run, stand_all

# Seat 2 holds 3♥ and A♥ and no spade; seat 0 leads 5♠ and seat 1 ruffs with 4♥.
ABLE = (("3D", "AH"), ("4D", "3H"))


@pytest.mark.parametrize(
    ("trump_duty", "card", "rule", "duty"),
    [
        ("overtrump", "3H", "DRF-6.3", "must beat the highest trump in the trick"),
        ("overtrump", "5D", "DRF-6.3", "must play a trump when void in the suit led"),
        ("overtrump_or_free", "3H", "DRF-6.3", "must beat the highest trump in the trick"),
        ("overtrump_or_free", "5D", "DRF-6.3", "must beat the highest trump in the trick"),
    ],
)
def test_drf_6_3_overtrump_refusal_cites_drf_6_3_and_names_the_overtrump_duty(
    trump_duty: str, card: str, rule: str, duty: str
) -> None:
    """DRF-6.3: under the overtrump duty a low trump (or, with ``overtrump_or_free``, a plain card) is
    refused as a breach of DRF-6.3's overtrump duty, not of DRF-6.4 (which only forbids a duty to head)."""
    s = run(stand_all(deal(*ABLE, contract=Suit.HEARTS, rules=DreyfusRules(trump_duty=trump_duty))), "5S", "4H")
    with pytest.raises(RuleViolation) as caught:
        s.apply(Play(card))
    assert caught.value.rule == rule
    assert str(caught.value) == f"{rule}: {duty}"
