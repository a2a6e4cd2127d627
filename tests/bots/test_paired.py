"""Paired deals: the same deal played once per bot in the seat under test."""

from __future__ import annotations

from collections import Counter

import pytest

from fly_rules import fly
from fly_rules.bots.paired import paired_deals, play_deal, seat_under_test


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_seat_under_test_takes_every_place_from_the_dealer_as_often(players: int) -> None:
    """Over each ``players ** 2`` deals (deal ``i`` dealt by seat ``i % players``) the seat under test is every
    seat at every place from the dealer exactly once, so no seat and no place is favoured."""
    for block in range(3):
        places = Counter(
            (seat_under_test(i, players), (seat_under_test(i, players) - i) % players)
            for i in range(block * players**2, (block + 1) * players**2)
        )
        assert len(places) == players**2
        assert set(places.values()) == {1}


def test_a_paired_deal_is_the_same_deal_for_every_bot() -> None:
    """Each bot plays the deal in the seat under test, everything else the same: its change is the one of the
    deal played with that bot alone."""
    rules = fly.FlyRules(players=4)
    results = paired_deals(rules, ["rule-of-thumb", "random"], "rule-of-thumb", "pair", range(8))
    assert [r.seat for r in results] == [seat_under_test(i, 4) for i in range(8)]
    assert {(r.seat - r.index) % 4 for r in results} == {0, 1}
    for result in results:
        for bot, change in result.changes.items():
            assert play_deal(rules, result.seat, bot, "rule-of-thumb", "pair", result.index)[0] == change
    assert any(r.changes["random"] != r.changes["rule-of-thumb"] for r in results)
