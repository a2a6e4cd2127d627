"""The Dreyfus section functions a program may call refuse arguments out of place: the removed rules-last call
``purchase_record(2, False, rules)`` returned ``False`` without a word [DRF-4.5] [DRF-9.1]."""

from __future__ import annotations

import pytest

from fly_rules import dreyfus, fly
from fly_rules.errors import FlyRulesError, RuleViolation

RULES = dreyfus.DreyfusRules()


def test_drf_4_5_purchase_record_takes_the_rules_first() -> None:
    """DRF-4.5: the rules-last call fails, naming the rules; the call in order counts the purchase."""
    with pytest.raises(TypeError, match="rules must be DreyfusRules, not int"):
        dreyfus.purchase_record(2, False, RULES)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be DreyfusRules, not FlyRules"):
        dreyfus.purchase_record(fly.FlyRules(), 2, False)  # type: ignore[arg-type]
    assert dreyfus.purchase_record(RULES, 2, True) == 2


@pytest.mark.parametrize(("bought", "recorded"), [(-1, True), (13, True), ("2", True), (True, True), (2, 1)])
def test_drf_4_5_purchase_record_refuses_a_count_or_flag_it_cannot_use(bought: object, recorded: object) -> None:
    """DRF-4.5: bought is 0 to 12 cards, recorded_before_lead True or False."""
    with pytest.raises(FlyRulesError, match="bought must be|recorded_before_lead must be"):
        dreyfus.purchase_record(RULES, bought, recorded)


def test_drf_9_1_settle_refuses_records_and_winners_it_cannot_use() -> None:
    """DRF-9.1: settle takes the rules, three upper and three lower records, and a seat or None."""
    assert dreyfus.settle(RULES, (8, 10, 9), (10, 3, 7), 0) == (29, -17, -12)
    with pytest.raises(TypeError, match="rules must be DreyfusRules, not NoneType"):
        dreyfus.settle(None, (0, 0, 0), (0, 0, 0), None)  # type: ignore[arg-type]
    with pytest.raises(FlyRulesError, match="upper must be three whole numbers"):
        dreyfus.settle(RULES, (0, 0), (0, 0, 0), None)
    with pytest.raises(FlyRulesError, match="lower must be three whole numbers"):
        dreyfus.settle(RULES, (0, 0, 0), ("1", 0, 0), 1)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match="DRF-9.1: the winner must be a seat 0 to 2, not 3"):
        dreyfus.settle(RULES, (0, 0, 0), (0, 0, 0), 3)
