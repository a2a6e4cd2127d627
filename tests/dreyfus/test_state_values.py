"""Deals and matches are immutable values that speak the engine's shared vocabulary."""

from __future__ import annotations

import random

import pytest

from fly_rules import CardSet
from fly_rules.dreyfus import DreyfusRules, Exchange, Stand, new_match
from fly_rules.engine import GameState, Phase

from .helpers import deal


def test_drf_1_4_a_state_cannot_be_changed_and_equals_any_state_of_the_same_position() -> None:
    """DRF-1.4: assignment to a deal or match raises; states are equal (and hash alike) by position only."""
    d = deal()
    with pytest.raises(AttributeError):
        d.to_move = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.extra = 1  # type: ignore[attr-defined]
    m = new_match(DreyfusRules(), seed=3, dealer=0)
    with pytest.raises(AttributeError):
        m.deal = m.deal  # type: ignore[misc]
    # the same position reached two ways: eldest exchanges, or a copy that forgets its history
    one = d.apply(Exchange("3S"))
    other = one._replace(history=None)
    assert one == other
    assert hash(one) == hash(other)
    assert not one != other  # noqa: SIM202 - __ne__ is defined and tested here
    assert one != d
    assert one != tuple(one)
    m2 = m.apply(Stand())
    assert m2 == m2._replace(history=("x", None))
    assert hash(m2) == hash(m2._replace(history=None))
    assert m2 != m
    assert m2 != tuple(m2)
    # different positions hash apart (states serve as keys of search tables): other records, a move on
    deals = (d, one, deal(upper=(1, 0, 0)), deal(lower=(0, 0, 1)), one.apply(Stand()))
    assert len({hash(x) for x in deals}) == len(deals)
    assert len({hash(x) for x in (m, m2, m2.apply(Stand()))}) == 3


def test_drf_4_4_the_exchange_choices_equal_the_tuple_of_the_same_actions() -> None:
    """DRF-4.4: the lazy exchange choices compare equal to the tuple of the same actions, in order."""
    choices = deal().legal_actions()
    listed = tuple(choices)
    assert listed[0] == Stand()
    assert len(listed) == len(choices) == 1 + 255
    assert choices == listed
    assert listed == choices
    assert choices == deal().legal_actions()
    assert choices != listed[:-1]
    assert choices != listed[::-1]
    assert choices != list(listed)  # type: ignore[comparison-overlap]
    with pytest.raises(TypeError):
        hash(choices)


def test_drf_11_1_a_deal_and_a_match_answer_the_shared_vocabulary() -> None:
    """DRF-11.1: hands as masks and card sets, the trick as (seat, card) pairs, phase, previous deal."""
    m = new_match(DreyfusRules(max_deals=2), seed=9, dealer=0)
    assert isinstance(m, GameState)
    assert isinstance(m.deal, GameState)
    assert m.players == m.deal.players == 3
    assert m.deal.previous_deal is None
    assert m.hands == tuple(CardSet(mask) for mask in m.hand_masks)
    assert m.deal.dealt == m.hands
    rng = random.Random(9)
    while m.phase is Phase.EXCHANGE:
        m = m.apply(rng.choice(m.legal_actions()))
    m = m.apply(m.legal_actions()[0])
    assert m.trick == ((m.leader, m.deal.trick[0][1]),)
    assert m.trick_cards == (m.trick[0][1].index,)
    while m.previous_deal is None:
        m = m.apply(rng.choice(m.legal_actions()))
    done = m.previous_deal
    assert done.phase is Phase.OVER
    assert len(done.tricks) == 12
    assert all(len({seat for seat, _ in trick}) == 3 for trick in done.tricks)
