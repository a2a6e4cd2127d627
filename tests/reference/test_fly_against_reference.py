"""The engine against the naive reference model (tests/reference/fly_reference.py), on random play.

Every step compares the legal action sets and, after every action, the observable state; illegal actions
(as the reference sees them) are tried on the engine and must be refused with a FLY- rule ID, state unchanged.
"""

from __future__ import annotations

import random
import types
import typing
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fly_rules import fly
from tests.reference.driver import (
    FLY_OPTIONS_DRAWN_ELSEWHERE,
    MODELLED_CHOICES,
    fly_rules,
    play_deal,
    play_match,
    plays,
    position,
    random_position,
    replay,
)
from tests.reference.fly_reference import RefDeal, RefMatch

pytestmark = pytest.mark.no_cover  # the rule modules' own tests cover them (tests/conftest.py)


@given(st.integers(3, 7).flatmap(lambda n: fly_rules(players=n)), st.integers(0, 2**32), st.randoms())
def test_fly_2_2_and_4_1_default_and_optional_matches_agree(rules: fly.FlyRules, seed: int, rnd: random.Random) -> None:
    """FLY-2.2, FLY-4.1..4.7, FLY §5, FLY §6, FLY §7, FLY §8, FLY §9, FLY-10.1: whole matches agree step by step."""
    dealer = rnd.randrange(rules.players)
    max_deals = rnd.choice([1, 2, 3, 5])
    match = fly.new_match(attrs.evolve(rules, max_deals=max_deals), seed=seed, dealer=dealer)
    play_match(match, RefMatch(rules, dealer=dealer, max_deals=max_deals, seed=seed), rnd)


@given(fly_rules(), st.randoms(), st.booleans())
def test_fly_4_5_6_3_7_2_9_3_explicit_positions_agree(rules: fly.FlyRules, rnd: random.Random, full: bool) -> None:
    """FLY-4.5, FLY-6.3..6.6, FLY-7.2, FLY-7.3, FLY-9.1..9.4: deals from shuffled decks with low records agree."""
    position = random_position(rules, rnd, full_stock=full)
    engine = fly.new_deal(rules, **position)
    play_deal(engine, RefDeal(rules, **position), rnd)


@given(fly_rules(stop_mode="end_of_deal"), st.randoms())
def test_fly_9_2_9_4_end_of_deal_stop_mode_agrees(rules: fly.FlyRules, rnd: random.Random) -> None:
    """FLY-9.2, FLY-9.4: with stop_mode="end_of_deal", overshoot resets and ties agree with the reference."""
    position = random_position(rules, rnd)
    engine = fly.new_deal(rules, **position)
    play_deal(engine, RefDeal(rules, **position), rnd)


@given(fly_rules(revoke_mode="penalize"), st.randoms())
def test_fly_11_2_11_3_adjudicated_revokes_agree(rules: fly.FlyRules, rnd: random.Random) -> None:
    """FLY-11.2, FLY-11.3: revokes under adjudication cost the remise at once and lose the trick."""
    position = random_position(rules, rnd)
    engine = fly.new_deal(rules, **position)
    play_deal(engine, RefDeal(rules, **position), rnd)


@pytest.mark.parametrize("refill", ["folded_hands", "reshuffle_discards"])
@pytest.mark.parametrize("turnup_use", ["none", "dealer_swap", "last_stock_card"])
@given(st.data(), st.randoms())
def test_fly_4_5_3_3_short_stocks_refill_and_the_turn_up_agree(
    refill: str, turnup_use: str, data: st.DataObject, rnd: random.Random
) -> None:
    """FLY-4.5, FLY-3.3: deals whose stock runs short (cut at random) refill it from the folded hands or the
    discards, after the turn-up under ``last_stock_card``; the dealer may swap for the turn-up."""
    rules = data.draw(fly_rules(stock_exhaustion=refill, turnup_use=turnup_use))
    position = random_position(rules, rnd, full_stock=False)
    engine = fly.new_deal(rules, **position)
    play_deal(engine, RefDeal(rules, **position), rnd)


# research §5.3 (hearts trump; seat 0 = P1 leads, dealer 2): (hands, plays, trump, tricks taken, records)
ACE_OF_SPADES_CASES = {
    "1_led_trump_ace": ("AH 7C 8C 9C TC / KH AS 7D 8D 9D / 7H JC QC KC AC", "AH AS 7H", "8H", (0, 1, 0), (25, 19, 25)),
    "2_covered_not_led": ("TC 7D 8D 9D TD / AH JD QD KD AD / AS 7S 8S 9S TS", "TC AH AS", "8H", (0, 1, 0), None),
    "3_beats_no_trump": ("KH 7C 8C 9C TC / AS 7D 8D 9D TD / 7H JC QC KC AC", "KH AS 7H", "8H", (1, 0, 0), None),
    "4_trumped_as_a_spade": ("9S 7C 8C 9C TC / AS 7D 8D 9D TD / 7H JC QC KC AC", "9S AS 7H", "8H", (0, 0, 1), None),
    "5_spades_trump": ("KS 7C 8C 9C TC / AS 7D 8D 9D TD / 7S JC QC KC AC", "KS AS 7S", "8S", (0, 1, 0), (25, 14, 25)),
    "6_optional": ("AH 7C 8C 9C TC / 8H AS 7D 8D 9D / 7H JC QC KC AC", "AH 8H 7H", "TH", (1, 0, 0), (24, 25, 25)),
}


@pytest.mark.parametrize("case", sorted(ACE_OF_SPADES_CASES))
def test_fly_7_2_7_3_7_4_7_5_7_6_research_ace_of_spades_cases(case: str) -> None:
    """FLY-7.2..7.6, FLY-8.3: the six A♠ cases of research §5.3, engine and reference step by step."""
    hands, played, trump, tricks, records = ACE_OF_SPADES_CASES[case]
    rules = fly.FlyRules(players=3)
    start = position(rules, hands.split(" / "), trump=trump, dealer=2)
    engine, _ref = replay(rules, start, [fly.Stand()] * 3 + plays(played))
    assert engine.tricks_taken == tricks
    if records is not None:
        assert engine.records == records


@pytest.mark.parametrize(
    ("options", "declarations", "void", "tricks"),
    [
        pytest.param({}, "FFF", True, (0, 0, 0), id="all_fold_void"),
        pytest.param({"all_fold": "dealer_must_play"}, "FFS", False, (0, 0, 5), id="dealer_must_play"),
        pytest.param({"forced_player": "eldest"}, "SFF", False, (5, 0, 0), id="eldest_forced"),
        pytest.param({}, "SFF", False, (5, 0, 0), id="lone_takes_all"),
        pytest.param({"lone_player": "void"}, "SFF", True, (0, 0, 0), id="lone_void"),
        pytest.param({"lone_player": "last_speaker_must_play"}, "SF", False, None, id="last_speaker_must_play"),
        pytest.param({"flush_wins": True}, "SSS", False, (0, 5, 0), id="flush"),
    ],
)
def test_fly_5_4_5_5_12_1_all_fold_lone_player_and_flush(
    options: dict[str, Any], declarations: str, void: bool, tricks: tuple[int, ...] | None
) -> None:
    """FLY-5.3, FLY-5.4, FLY-5.5, FLY-12.1: who must play, void deals, and five tricks credited without play."""
    rules = fly.FlyRules(players=3, **options)
    hands = ["7C 8C 9C TC KS", "7D 8D 9D TD JD", "QC KC QD KD 9S"]
    actions = [fly.Stand() if d == "S" else fly.Fold() for d in declarations]
    engine, _ref = replay(rules, position(rules, hands, dealer=2), actions)
    if tricks is None:
        assert tuple(engine.legal_actions()) == (fly.Stand(), *engine.legal_actions()[1:])
        assert fly.Fold() not in engine.legal_actions()
        return
    assert engine.is_over
    assert engine.void == void
    assert engine.tricks_taken == tricks


def test_fly_1_1_the_reference_models_and_the_cross_checks_draw_every_option() -> None:
    """FLY-1.1: every option of FlyRules is drawn by the cross-checks, each value the engine knows among the
    choices; so no option is left to the engine alone (the reference asserts nothing about one it ignores)."""
    fields = {field.alias for field in attrs.fields(fly.FlyRules) if field.init}
    assert {*MODELLED_CHOICES, *FLY_OPTIONS_DRAWN_ELSEWHERE} == fields
    for name, hint in typing.get_type_hints(fly.FlyRules).items():
        values = _literal_values(hint)
        if values and name in MODELLED_CHOICES:
            assert values <= set(MODELLED_CHOICES[name]), name


def _literal_values(hint: object) -> set[object]:
    """The values a ``Literal[...]`` annotation (or ``Literal[...] | None``) allows; empty for any other type."""
    if typing.get_origin(hint) is typing.Literal:
        return set(typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        parts = [_literal_values(arg) for arg in typing.get_args(hint)]
        if all(parts) or (type(None) in typing.get_args(hint) and any(parts)):
            return {None, *(value for part in parts for value in part)}
    return set()
