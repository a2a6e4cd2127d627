"""The rules options object: defaults, validation and presets (every option names its rule)."""

from __future__ import annotations

import pickle

import pytest

from fly_rules import InvalidRules, Rank, Suit
from fly_rules.dreyfus import PRESETS, DreyfusRules
from fly_rules.tricks import TrumpDuty


def test_drf_1_1_default_rules_follow_the_spec_defaults() -> None:
    """DRF-1.1: the default options are the readings the spec recommends."""
    rules = DreyfusRules()
    assert rules.par_tricks == 4
    assert rules.target_lower == 10
    assert rules.contract_cycle == (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)
    assert rules.fosk_ranks == frozenset(Rank(r) for r in range(3, 11))
    assert rules.exchange_mode == "batch"
    assert rules.first_lead == "eldest"
    assert rules.trump_duty is TrumpDuty.ANY_TRUMP
    assert rules.settlement == "gross"
    assert rules.revoke_mode == "prevent"
    assert rules.max_deals is None
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert hash(rules) == hash(DreyfusRules())


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("deal_packet_size", 5),
        ("deal_packet_size", True),
        ("dealer_rotation", "up"),
        ("exchange_mode", "free"),
        ("first_lead", "dealer"),
        ("winner_rule", "co_winners"),
        ("settlement", "split"),
        ("revoke_mode", "ignore"),
        ("revoke_penalty_per", "trick"),
        ("par_tricks", 13),
        ("par_tricks", True),
        ("target_lower", 0),
        ("max_deals", 0),
        ("max_deals", True),
        ("show_trump_indicator", 1),
        ("contract_cycle", ()),
        ("contract_cycle", ("S", "X")),
        ("contract_cycle", (7,)),
        ("fosk_ranks", "low"),
        ("fosk_ranks", (2, 3)),
        ("fosk_ranks", ("x",)),
    ],
)
def test_drf_1_1_invalid_options_are_refused_naming_the_option(option: str, value: object) -> None:
    """DRF-1.1: an out-of-range option raises InvalidRules naming that option."""
    with pytest.raises(InvalidRules) as caught:
        DreyfusRules(**{option: value})  # type: ignore[arg-type]
    assert caught.value.option == option


@pytest.mark.parametrize(
    ("option", "value", "detail"),
    [
        ("dealer_rotation", "up", "must be one of 'left', 'right', not 'up'"),
        ("settlement", "split", "must be one of 'gross', 'net_of_winner_upper', 'pairwise', not 'split'"),
        ("par_tricks", 13, "DRF-7.1: must be a whole number from 0 to 12, not 13"),
        ("par_tricks", -1, "DRF-7.1: must be a whole number from 0 to 12, not -1"),
        ("target_lower", 0, "DRF-8.1: must be a whole number from 1 to 1000, not 0"),
        ("revoke_upper_penalty", 1001, "DRF-10.1: must be a whole number from 0 to 1000, not 1001"),
        ("forgot_record_penalty", 2.0, "DRF-10.2: must be a whole number from 0 to 1000, not 2.0"),
    ],
)
def test_drf_1_1_invalid_options_say_what_is_allowed(option: str, value: object, detail: str) -> None:
    """DRF-1.1: a refused option value is named with the values or the range allowed."""
    with pytest.raises(InvalidRules) as caught:
        DreyfusRules(**{option: value})  # type: ignore[arg-type]
    assert (caught.value.option, caught.value.detail) == (option, detail)
    assert DreyfusRules(par_tricks=0, target_lower=1000, revoke_upper_penalty=0).par_tricks == 0


def test_drf_3_1_contract_cycle_accepts_letters_and_no_trump_words() -> None:
    """DRF-3.1: the cycle may be written with suit letters, symbols and NT or None."""
    rules = DreyfusRules(contract_cycle=("H", "♠", "NT", None, "", " none ", "nt"))
    assert rules.contract_cycle == (Suit.HEARTS, Suit.SPADES, None, None, None, None, None)


def test_drf_4_2_presets_select_the_fosk_readings() -> None:
    """DRF-4.2: the shram and whist presets read фоски as 3–8 and 3–9; "any" allows every rank."""
    assert DreyfusRules.preset("default") == DreyfusRules()
    assert max(DreyfusRules.preset("shram").fosk_ranks) == Rank.EIGHT
    assert max(DreyfusRules.preset("whist_honours").fosk_ranks) == Rank.NINE
    assert DreyfusRules(fosk_ranks="any").fosk_ranks == frozenset(Rank(r) for r in range(3, 15))
    assert set(PRESETS) == {"default", "shram", "whist_honours", "table"}
    with pytest.raises(InvalidRules) as caught:
        DreyfusRules.preset("nope")
    assert caught.value.option == "preset"
    assert caught.value.detail == "unknown preset 'nope'; known: default, shram, table, whist_honours"


def test_drf_10_1_table_preset_penalises_revokes() -> None:
    """DRF-10.1: the table preset accepts revokes and penalises them."""
    assert DreyfusRules.preset("table").revoke_mode == "penalize"


def test_drf_1_1_every_option_docstring_names_a_rule() -> None:
    """DRF-1.1: every option's docstring cites the rule it selects."""
    import ast
    import inspect
    import itertools

    from fly_rules.dreyfus import rules as module

    tree = ast.parse(inspect.getsource(module.DreyfusRules))
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, following in itertools.pairwise(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            assert isinstance(following, ast.Expr), node.target.id
            assert "[DRF-" in following.value.value, node.target.id  # type: ignore[attr-defined]


def test_drf_5_3_the_next_player_is_on_the_left() -> None:
    """DRF-5.3: play (and dealing, DRF-2.2) goes round to the left: 0, 1, 2, then 0 again."""
    rules = DreyfusRules()
    assert [rules.left_of(seat) for seat in range(3)] == [1, 2, 0]
