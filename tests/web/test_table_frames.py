"""tests/web/table_frames.py, the check the Chromium table test runs on every frame: it finds a card a seat
could not know and a seed told before the end, and passes what the seat could know."""

from __future__ import annotations

import json
from typing import Any

from fly_rules import fly
from fly_rules.notation import dump_history
from fly_rules.notation.games import deal_of
from tests.web import table_frames  # a script beside the tests, run by table.test.mjs


def _match() -> Any:
    """A 3-seat Fly match of one deal, played to its end with each seat's first legal action."""
    state: Any = fly.new_match(fly.FlyRules(players=3, max_deals=1), seed=7)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


def _view(seq: int, over: bool, **fields: Any) -> str:
    return json.dumps({"type": "view", "seq": seq, "match": 0, "over": over, **fields})


def test_a_seats_own_hand_passes_another_seats_hand_and_an_early_seed_do_not() -> None:
    """TBL-5.1: the seat's own cards at the start are fine; a card of another seat's hand is a leak."""
    match = _match()
    start: Any = fly.new_match(match.rules, seed=7)
    hands = [deal_of(start).view(seat).hand for seat in range(3)]
    own, other = str(next(iter(hands[0]))), str(next(iter(hands[1])))
    data = {"history": dump_history(match), "seed": str(match.seed), "nonce": "ab" * 16, "seat": 0}
    frames = [_view(0, False, hand=[own], picture=f'<g data-card="{own}"/>')]
    assert table_frames.problems(data | {"frames": frames}) == []
    leaky = [_view(0, False, last=[f"seat 1 holds {other[0]}{'♠♥♦♣'['SHDC'.index(other[1])]}"])]
    assert table_frames.problems(data | {"frames": leaky}) == [f"frame 0 (seq 0, view): {other}"]
    assert table_frames.problems(data | {"seat": None, "frames": [_view(0, False, hand=[own])]}) == [
        f"frame 0 (seq 0, view): {own}"
    ]
    told = [_view(0, False, note=f"seed {match.seed}")]
    assert table_frames.problems(data | {"frames": told}) == ["frame 0: the seed or nonce before the end"]
    end = len(match.actions)
    assert table_frames.problems(data | {"frames": [_view(end, True, seed=str(match.seed))]}) == []


def test_the_names_of_the_ace_of_spades_scores_are_not_cards() -> None:
    """FLY-8.3, FLY-8.5: "A♠ bonus" names a score every seat sees in the records, not where the A♠ is."""
    told = {"last": ["seat 1: record 25 -> 19: -1 for the trick [FLY-8.2], -5 A♠ bonus [FLY-8.3]", "1:A♥ 2:10♣"]}
    assert table_frames.mentioned(told, set()) == {"AH", "TC"}
    assert table_frames.mentioned({"last": ["seat 2 plays A♠"], "table": "x-AS-y"}, set()) == {"AS"}
