"""Section 11 of specs/dreyfus.md: what each seat may know."""

from __future__ import annotations

import attrs

from fly_rules import Card, CardSet, Suit
from fly_rules.dreyfus import DreyfusRules, Exchange, new_deal, new_match
from fly_rules.engine import Phase

from .helpers import deal, layout, play_out, run, stand_all


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


def test_drf_11_1_a_view_carries_the_public_record_of_the_deal() -> None:
    """DRF-11.1: every seat's view names the seat, the deal's number, dealer and contract, the leader,
    the trick and the tricks played, and the match winner once known, as the deal itself does."""
    hands, talon = layout()
    s = new_deal(DreyfusRules(target_lower=2), hands, talon, "H", 1, lower=(1, 1, 1), deal_number=3)
    assert (s.to_move, s.leader) == (2, 2)  # eldest, left of the dealer, is to move and to lead
    states = [s]
    while not s.is_over:
        s = s.apply(s.legal_actions()[0])
        states.append(s)
    assert states[-1].winner is not None
    assert states[-1].tricks
    for state in states[::7] + states[-1:]:
        for seat in range(3):
            v = state.view(seat)
            assert (v.seat, v.deal_number, v.dealer, v.contract) == (seat, 3, 1, Suit.HEARTS)
            assert (v.phase, v.to_move, v.leader, v.winner) == (state.phase, state.to_move, state.leader, state.winner)
            assert (v.trick, v.tricks) == (state.trick, state.tricks)


def test_rec_3_4_a_deal_states_its_record_lines_and_shows_itself() -> None:
    """REC-3.4: a deal states its lines as a history records them (REC-3.1 its head, REC-4.1 its
    result, REC-2.4 its start), prints its phase, contract, hands and records, and draws itself."""
    d = deal()
    assert repr(d) == (
        "<Dreyfus deal 0 exchange, contract ♠, to move 0, hands 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS | "
        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH | 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD, tricks (0, 0, 0), "
        "upper (0, 0, 0), lower (0, 0, 0)>"
    )
    picture = d._repr_svg_()
    assert picture.startswith("<svg")
    assert picture.endswith("</svg>")
    assert d.start_fields()["contract"] == "S"
    assert deal(contract=None).start_fields()["contract"] == "NT"
    done = play_out(stand_all(deal(upper=(1, 2, 3))))
    records = {"upper": done.upper, "lower": done.lower}
    assert done.score_lines == records
    assert done.result_lines() == records
    assert done.deal_lines() == {"tricks": done.tricks_taken, **records}
    assert done.deal_head() == {"dealer": 2, "contract": "S"}
