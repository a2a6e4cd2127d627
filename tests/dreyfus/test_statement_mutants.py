"""Checks found missing by the statement mutation run (``scripts/mutate_statements.py``): bad options and
positions refused with the library's own error and message, and a default the scoring depends on."""

from __future__ import annotations

import pytest

from fly_rules import InvalidRules, RuleViolation, Suit
from fly_rules.dreyfus import DreyfusRules, new_deal

from .helpers import layout


@pytest.mark.parametrize(
    ("cycle", "message"),
    [
        ("SC", "must be a sequence of suits or None"),
        (5, "must be a sequence of suits or None"),
        ([Suit.SPADES, 1.5], "is not a suit or None"),
    ],
)
def test_drf_3_3_a_contract_cycle_must_be_a_sequence_of_suits(cycle: object, message: str) -> None:
    """DRF-3.3: ``contract_cycle`` is a sequence of suits or None; a string (not read letter by letter), a
    number, or an item that is neither is refused as InvalidRules naming the option."""
    with pytest.raises(InvalidRules, match=message) as caught:
        DreyfusRules(contract_cycle=cycle)  # type: ignore[arg-type]
    assert "contract_cycle" in str(caught.value)


def test_drf_4_2_fosk_ranks_a_string_other_than_any_is_refused() -> None:
    """DRF-4.2: ``fosk_ranks`` is a set of ranks or the word "any"; another string is refused saying so,
    not read letter by letter."""
    with pytest.raises(InvalidRules, match="give a set of ranks or 'any'"):
        DreyfusRules(fosk_ranks="3456")


def test_drf_10_1_the_revoke_penalty_replaces_the_undertricks_by_default() -> None:
    """DRF-10.1 (Options): by default a revoker's undertricks are not written on top of the penalty."""
    assert DreyfusRules().revoke_adds_undertricks is False
    assert DreyfusRules(revoke_adds_undertricks=True).revoke_adds_undertricks is True


@pytest.mark.parametrize("deal_number", [-1, 1.5])
def test_drf_2_4_a_position_with_a_bad_deal_number_is_refused(deal_number: object) -> None:
    """DRF-2.4: an explicit position's deal number is a whole number from 0; anything else is no deal."""
    hands, talon = layout()
    with pytest.raises(RuleViolation, match="deal_number must be a whole number") as caught:
        new_deal(DreyfusRules(), hands, talon, Suit.SPADES, 2, deal_number=deal_number)  # type: ignore[arg-type]
    assert caught.value.rule == "DRF-2.4"


def test_drf_2_4_a_position_with_a_contract_of_another_type_is_refused() -> None:
    """DRF-2.4: the contract of an explicit position is a suit, its letter, "NT" or None; a number is a
    TypeError naming the contract."""
    hands, talon = layout()
    with pytest.raises(TypeError, match="contract: expected a suit"):
        new_deal(DreyfusRules(), hands, talon, 5, 2)  # type: ignore[arg-type]
