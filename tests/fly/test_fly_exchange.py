"""The exchange under its options: when the dealer may take the trump card [FLY-3.3] [FLY-4.1]."""

from __future__ import annotations

import pytest

from fly_rules import CardSet, RuleViolation, fly
from tests.fly.test_fly_edge_cases import BASE, apply_all, card, position


def test_fly_3_3_the_dealer_swaps_the_trump_card_only_in_the_exchange_round() -> None:
    """FLY-3.3 / FLY-4.1: with a fold round before the exchange round, the dealer may not take the
    trump card while players are deciding to play or fold; in the exchange round he may."""
    d = apply_all(
        position(BASE, turnup_use="dealer_swap", declaration_mode="fold_round_then_exchange"), fly.Stand(), fly.Stand()
    )
    swap = fly.SwapTrump(card("7S"))
    assert swap not in d.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        d.apply(swap)
    assert caught.value.rule == "FLY-3.3"
    assert caught.value.offending == swap
    d = apply_all(d, fly.Stand(), fly.Stand(), fly.Stand())
    assert (d.to_move, d.bidding.declaration_round) == (2, 1)
    swapped = d.apply(swap)
    assert swapped.hands[2] == CardSet.parse("8H 9H TH 7H 8S")
    assert swapped.discards == CardSet.parse("7S")
