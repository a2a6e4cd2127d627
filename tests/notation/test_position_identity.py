"""REC-5.3: a position leaves out a deal's match identity (the seed, and in Fly the deal's number); given back
beside the line, a match's deal is read back equal to it (``==``), in both games, at any point of any deal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import dreyfus, fly
from fly_rules.errors import InvalidNotation, RuleViolation
from fly_rules.notation.position import parse_position, position_of


def _played(match: Any, steps: int, rng: random.Random) -> Any:
    """``match`` after up to ``steps`` random legal actions."""
    for _ in range(steps):
        if match.is_over:
            break
        match = match.apply(rng.choice(match.legal_actions()))
    return match


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(["fly", "dreyfus"]),
    seed=st.one_of(st.integers(0, 10**6), st.text("abc xyz", min_size=1, max_size=8)),
    steps=st.integers(0, 120),
    refill=st.booleans(),
)
def test_rec_5_3_a_match_s_deal_reads_back_equal_given_its_seed_and_number(
    game: str, seed: int | str, steps: int, refill: bool
) -> None:
    """REC-5.3, REC-6.6: ``parse_position(position_of(m), seed=m.seed, deal_number=m.deal_number) == m.deal``,
    also where the stock is refilled from the seed; without them a Fly deal differs (its seed orders a refill)."""
    if game == "fly":
        rules: Any = fly.FlyRules(players=5, stock_exhaustion="reshuffle_discards" if refill else "cap")
        match: Any = fly.new_match(rules, seed=seed, dealer=0)
    else:
        match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=seed, dealer=0)
    match = _played(match, steps, random.Random(steps))
    if match.is_over:
        return
    line = position_of(match)
    back = parse_position(line, seed=match.seed, deal_number=match.deal_number)
    assert back == match.deal
    assert back.legal_actions() == match.deal.legal_actions()
    if game == "fly":
        assert parse_position(line) != match.deal  # the seed is the deal's, not the line's
    else:
        assert parse_position(line) == match.deal  # a Dreyfus deal keeps no seed, and its line its number


def test_rec_5_3_new_deal_takes_the_match_identity() -> None:
    """REC-5.3: Fly's ``new_deal`` given the dealt cards, the seed and the number makes the match's deal itself."""
    match = fly.new_match(fly.FlyRules(players=3), seed="x", dealer=0)
    deal = match.deal
    made = fly.new_deal(
        match.rules,
        hands=[deal.view(seat).hand for seat in range(3)],
        trump_card=deal.trump_card,
        stock=deal.stock,
        dealer=deal.dealer,
        seed="x",
        deal_number=0,
    )
    assert made == deal
    with pytest.raises(TypeError, match="seed"):
        fly.new_deal(match.rules, hands=[deal.view(s).hand for s in range(3)], trump_card=deal.trump_card, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match="deal_number must be a whole number"):
        fly.new_deal(
            match.rules, hands=[deal.view(s).hand for s in range(3)], trump_card=deal.trump_card, deal_number=-1
        )


def test_rec_5_3_a_number_beside_a_line_that_writes_its_own_must_agree() -> None:
    """REC-5.3: a Dreyfus line writes its deal's number; another beside it is refused, naming both."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3, dealer=0)
    line = position_of(match)
    assert parse_position(line, deal_number=0) == match.deal
    with pytest.raises(InvalidNotation, match="the position's deal is number 0, not 2"):
        parse_position(line, deal_number=2)
    with pytest.raises(InvalidNotation, match="deal_number must be a whole number"):
        parse_position(line, deal_number="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_position(line, seed=[3])  # type: ignore[arg-type]
