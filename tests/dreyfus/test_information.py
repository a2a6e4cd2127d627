"""Section 11 of specs/dreyfus.md: what each seat may know."""

from __future__ import annotations

import attrs

from fly_rules import Card, CardSet
from fly_rules.dreyfus import DreyfusRules, Exchange, new_match
from fly_rules.engine import Phase

from .helpers import deal, run, stand_all


def test_drf_11_1_a_view_holds_own_cards_and_public_facts_only() -> None:
    """DRF-11.1: a seat sees his own hand and discards, bought counts, talon size, played cards and records."""
    s = stand_all(deal().apply(Exchange("3S 4S")))
    s = run(s, "5S", "3H")
    v = s.view(1)
    assert v.hand == CardSet(s.hand_masks[1])
    assert v.discarded == CardSet()
    assert v.bought == (2, 0, 0)
    assert v.talon_left == 10
    assert v.trick == ((0, Card.parse("5S")), (1, Card.parse("3H")))
    assert v.phase is Phase.PLAY
    assert v.to_move == 2
    assert (v.upper, v.lower, v.tricks_taken, v.winner) == ((2, 0, 0), (0, 0, 0), (0, 0, 0), None)
    assert hash(v) == hash(s.view(1))
    assert "hands" in repr(s)


def test_drf_11_1_permuting_hidden_cards_leaves_the_view_unchanged() -> None:
    """DRF-11.1: swapping cards between the other hands and the unseen talon does not change a seat's view."""
    m = new_match(DreyfusRules(), seed=12, dealer=0)
    d = m.deal
    a = d.hand_masks[1] & -d.hand_masks[1]
    b = d.hand_masks[2] & -d.hand_masks[2]
    swapped = d._replace(hand_masks=(d.hand_masks[0], d.hand_masks[1] ^ a | b, d.hand_masks[2] ^ b | a))
    assert swapped.view(0) == d.view(0)
    assert swapped.view(1) != d.view(1)
    talon = list(d.table.talon)
    talon.reverse()
    assert d._replace(table=attrs.evolve(d.table, talon=tuple(talon))).view(2) == d.view(2)


def test_drf_1_4_a_match_keeps_its_actions_in_order() -> None:
    """DRF-1.4: a match records every action taken, oldest first, across deals, and replays from them."""
    import random

    from fly_rules import dreyfus

    rules = dreyfus.DreyfusRules(max_deals=2)
    match = dreyfus.new_match(rules, seed=5, dealer=0)
    rng = random.Random(5)
    taken = []
    while not match.is_over:
        action = rng.choice(match.legal_actions())
        taken.append(action)
        match = match.apply(action)
    assert match.actions == tuple(taken)
    replay = dreyfus.new_match(rules, seed=5, dealer=0)
    for action in match.actions:
        replay = replay.apply(action)
    assert replay == match
    assert match.deal.actions == tuple(taken[len(taken) - len(match.deal.actions) :])
