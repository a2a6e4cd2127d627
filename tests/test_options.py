"""One way to check options in both games, and constructors that raise only the library's errors.

The allowed values of an option come from its ``Literal`` annotation, a whole-number option is bounded by its
stated range, and the same fault gets the same words in Fly and Dreyfus. Every number is bounded where it enters
(REC-1.5), so no message is built from a number Python refuses to print.
"""

from __future__ import annotations

import typing
from typing import Any

import attrs
import pytest

from fly_rules import dreyfus, fly
from fly_rules.errors import InvalidRules, RuleViolation

RULES = (fly.FlyRules, dreyfus.DreyfusRules)


def _refusal(cls: type, **options: Any) -> InvalidRules:
    with pytest.raises(InvalidRules) as caught:
        cls(**options)
    return caught.value


def _literal_options(cls: type) -> dict[str, tuple[object, ...]]:
    """Each option of ``cls`` whose annotation is a ``Literal`` (or one or None), with its values."""
    found = {}
    for name, hint in typing.get_type_hints(cls).items():
        args = [a for a in typing.get_args(hint) if a is not type(None)] if typing.get_args(hint) else []
        if typing.get_origin(hint) is typing.Literal:
            found[name] = typing.get_args(hint)
        elif args and all(typing.get_origin(a) is typing.Literal for a in args):
            found[name] = (None, *(v for a in args for v in typing.get_args(a)))
    return found


@pytest.mark.parametrize("cls", RULES)
def test_rec_2_3_an_options_allowed_values_are_its_literal_annotation(cls: type) -> None:
    """REC-2.3: every value a ``Literal`` option names is accepted, and the refusal of another lists exactly
    those values; no table restates them."""
    literals = _literal_options(cls)
    assert "revoke_mode" in literals
    assert not hasattr(cls, "_CHOICES")
    for name, values in literals.items():
        for value in values:
            assert getattr(cls(**{name: value}), name) == value
        listed = ", ".join(map(repr, values))
        assert _refusal(cls, **{name: "nothing"}).detail == f"must be one of {listed}, not 'nothing'"


@pytest.mark.parametrize(
    ("option", "value", "detail"),
    [
        ("must_head_trick", 1, "must be True or False, not 1"),
        ("must_head_trick", None, "must be True or False, not None"),
        ("revoke_mode", "ignore", "must be one of 'prevent', 'penalize', not 'ignore'"),
        ("revoke_mode", 0, "must be one of 'prevent', 'penalize', not 0"),
        ("max_deals", 0, "must be None or a whole number from 1 to 1000000, not 0"),
        ("max_deals", 2.0, "must be None or a whole number from 1 to 1000000, not 2.0"),
        ("max_deals", True, "must be None or a whole number from 1 to 1000000, not True"),
        (
            "max_deals",
            10**200,
            "must be None or a whole number from 1 to 1000000, not a number of more than 100 digits",
        ),
        ("trump_duty", "sometimes", "must be one of 'any_trump', 'overtrump', 'overtrump_or_free', not 'sometimes'"),
    ],
)
def test_rec_1_5_the_same_fault_gets_the_same_message_in_both_games(option: str, value: object, detail: str) -> None:
    """REC-1.5, FLY-10.1, DRF-8.3: an option both games have refuses the same bad value in the same words
    (after the rule ID a range names), in both games."""
    details = [_refusal(cls, **{option: value}).detail.split(": ", 1)[-1] for cls in RULES]
    assert details == [detail, detail]


@pytest.mark.parametrize(
    ("cls", "option"),
    [
        (fly.FlyRules, "start_record"),
        (fly.FlyRules, "ace_bonus"),
        (fly.FlyRules, "remise"),
        (fly.FlyRules, "max_exchange"),
        (dreyfus.DreyfusRules, "target_lower"),
        (dreyfus.DreyfusRules, "revoke_upper_penalty"),
        (dreyfus.DreyfusRules, "par_tricks"),
    ],
)
@pytest.mark.parametrize(
    "value",
    [-(10**5000), 10**5000, 10**200, 1001, 3.0, True],
    ids=["-1e5000", "1e5000", "1e200", "1001", "3.0", "True"],
)
def test_rec_1_5_a_number_option_refuses_what_the_formats_cannot_carry(cls: type, option: str, value: object) -> None:
    """REC-1.5: a whole-number option refuses a value outside its range (``ace_bonus=10**200``, which no
    history could read back) or of the wrong type (3.0, True), with the library's error naming the option,
    never Python's 4,300-digit ValueError (``FlyRules(start_record=-10**5000)``)."""
    if value == 3.0 and option in ("max_exchange", "par_tricks"):
        value = 3.5
    refused = _refusal(cls, **{option: value})
    assert refused.option == option
    assert "must be a whole number from" in refused.detail
    assert len(str(refused)) < 200


def test_rec_1_5_fly_rules_start_record_of_5000_digits() -> None:
    """REC-1.5, FLY-8.1: ``FlyRules(start_record=-10**5000)`` is InvalidRules saying the number is too long."""
    refused = _refusal(fly.FlyRules, start_record=-(10**5000))
    assert refused.detail == "FLY-8.1: must be a whole number from 1 to 1000, not a number of more than 100 digits"


def test_rec_1_5_a_match_from_a_seed_of_5000_digits_is_refused_in_both_games() -> None:
    """REC-1.5: ``new_match(rules, seed=10**5000)`` is refused (REC-1.5) before the dealer is drawn, in both games."""
    for game, rules in ((fly, fly.FlyRules()), (dreyfus, dreyfus.DreyfusRules())):
        with pytest.raises(RuleViolation, match="^REC-1.5: a seed has at most 100 digits$"):
            game.new_match(rules, seed=10**5000)


def test_drf_3_1_a_contract_cycle_that_is_not_a_sequence_is_refused() -> None:
    """DRF-3.1: ``DreyfusRules(contract_cycle=5)`` is InvalidRules naming the option, not a TypeError."""
    refused = _refusal(dreyfus.DreyfusRules, contract_cycle=5)
    assert (refused.option, refused.detail) == ("contract_cycle", "must be a sequence of suits or None, not 5")


@pytest.mark.parametrize("value", [3.0, True, 5, "3"])
def test_drf_2_2_a_packet_size_must_be_a_whole_number_dividing_12(value: object) -> None:
    """DRF-2.2: ``DreyfusRules(deal_packet_size=3.0)`` is refused when made (it equals 3, but is no int)."""
    refused = _refusal(dreyfus.DreyfusRules, deal_packet_size=value)
    assert refused.detail == f"DRF-2.2: must be a whole number dividing 12, not {value!r}"


@pytest.mark.parametrize("dealer", [1.0, True, 3, -1, "1"])
def test_drf_2_1_fly_1_2_a_dealer_that_is_not_a_seat_is_refused_alike_in_both_games(dealer: object) -> None:
    """DRF-2.1, FLY-1.2: ``new_match(rules, seed=1, dealer=1.0)`` is a RuleViolation in both games, in the
    same words."""
    for game, rules, rule in ((fly, fly.FlyRules(players=3), "FLY-1.2"), (dreyfus, dreyfus.DreyfusRules(), "DRF-2.1")):
        with pytest.raises(RuleViolation) as caught:
            game.new_match(rules, seed=1, dealer=dealer)
        assert (caught.value.rule, caught.value.detail) == (rule, f"the dealer must be a seat 0 to 2, not {dealer!r}")


def test_drf_1_1_fly_1_2_a_view_of_a_seat_that_is_not_at_the_table_is_a_rule_violation() -> None:
    """DRF-1.1, FLY-1.2: ``state.view(9)`` raises RuleViolation (the library's error), in both games."""
    for state, rule in (
        (fly.new_match(fly.FlyRules(players=3), seed=1), "FLY-1.2"),
        (dreyfus.new_match(dreyfus.DreyfusRules(), seed=1), "DRF-1.1"),
    ):
        for seat in (9, -1, True, 1.0):
            with pytest.raises(RuleViolation) as caught:
                state.view(seat)  # type: ignore[arg-type]
            assert (caught.value.rule, caught.value.detail) == (
                rule,
                f"a view's seat must be a seat 0 to 2, not {seat!r}",
            )


def test_fly_3_1_a_trump_card_of_none_is_a_type_error() -> None:
    """FLY-3.1: ``fly.new_deal(..., trump_card=None)`` is a TypeError naming the argument, not an AttributeError."""
    hands = ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"]
    with pytest.raises(TypeError, match="^trump_card: expected a card, got None$"):
        fly.new_deal(fly.FlyRules(players=3), hands=hands, trump_card=None)  # type: ignore[arg-type]


def test_drf_2_4_a_talon_card_that_is_not_a_card_is_a_type_error() -> None:
    """DRF-2.4: a Dreyfus position with a talon holding something that is no card is a TypeError, as in Fly."""
    deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=0).deal
    talon = [*deal.talon[:11], None]
    with pytest.raises(TypeError, match="^talon: expected a card, got None$"):
        dreyfus.new_deal(deal.rules, deal.dealt, talon, "S", 0)  # type: ignore[arg-type]


def test_fly_11_1_the_rules_take_only_the_current_revoke_mode_names() -> None:
    """FLY-11.1: ``revoke_mode`` is ``"prevent"`` or ``"penalize"`` (the names both games use); the former
    ``"forbid"`` and ``"adjudicate"`` are refused by the rules, naming the current values, and are read only
    from old histories and positions (REC-2.3, ``tests/notation/test_old_formats.py``)."""
    for old in ("forbid", "adjudicate"):
        with pytest.raises(InvalidRules, match=f"must be one of 'prevent', 'penalize', not '{old}'"):
            fly.FlyRules(revoke_mode=old)  # type: ignore[arg-type]
    assert (
        attrs.fields_dict(fly.FlyRules)["revoke_mode"].default
        == attrs.fields_dict(dreyfus.DreyfusRules)["revoke_mode"].default
    )


@pytest.mark.parametrize("value", [10**5000, (10**5000,), [10**5000], -(10**5000)], ids=["int", "tuple", "list", "neg"])
def test_rec_1_5_no_constructor_prints_a_number_of_5000_digits(value: Any) -> None:
    """REC-1.5: a 5,000-digit number given as a seed, a record, a contract, a card or a deal number, alone or
    inside a list, is refused with the library's error or a TypeError, never Python's 4,300-digit ValueError."""
    from fly_rules.actions import Exchange, Play

    hands = ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"]
    deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=0).deal
    attempts: list[Any] = [
        lambda: fly.new_match(fly.FlyRules(), seed=value),
        lambda: dreyfus.new_match(dreyfus.DreyfusRules(), seed=value),
        lambda: fly.new_deal(fly.FlyRules(players=3), hands=hands, trump_card="8H", records=(25, 25, value)),
        lambda: dreyfus.new_deal(deal.rules, deal.dealt, deal.talon, value, 0),
        lambda: dreyfus.new_deal(deal.rules, deal.dealt, deal.talon, "S", 0, deal_number=value),
        lambda: Play(value),
        lambda: Exchange(value),
    ]
    for attempt in attempts:
        with pytest.raises((RuleViolation, InvalidRules, TypeError)) as caught:
            attempt()
        assert "4300" not in str(caught.value)
