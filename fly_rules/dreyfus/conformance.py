"""Dreyfus's part of the conformance kit's answers (:mod:`fly_rules.conformance.answers`; the
``conformance`` of Dreyfus's descriptor in :mod:`fly_rules.registry`): its fields of a state, what its
match does after a deal, and a deal from a given pack.

It lives beside the game, as the game's other client parts do, and imports nothing of the kit: the kit
finds it through the descriptor, by its module's name."""

from __future__ import annotations

from typing import Any, Final

from fly_rules.cards import DECK_48, Card, CardSet
from fly_rules.dreyfus import DreyfusDeal, DreyfusRules, settle
from fly_rules.dreyfus.deal import contract_of, deal_cards, draw_first_dealer, next_dealer

__all__ = ["SEAT_RULE", "deal", "deck", "draw_first_dealer", "match_after", "state"]

SEAT_RULE: Final = "DRF-2.1"
"""The rule a dealer who is not at the table breaks."""


def _cards(cards: Any) -> str:
    return " ".join(map(str, cards))


def state(deal: DreyfusDeal) -> dict[str, object]:
    """Dreyfus's fields of the state the kit compares: the records above and below, the cards bought,
    the revokes, the talon and what the table shows [REC-5.1]."""
    view = deal.view(0)
    revealed = view.revealed_discards
    return {
        "records": {"upper": list(deal.upper), "lower": list(deal.lower)},
        "bought": list(deal.bought),
        "revokes": list(deal.revokes),
        "talon_left": deal.talon_left,
        "trump_indicator": None if view.trump_indicator is None else str(view.trump_indicator),
        "revealed_discards": None if revealed is None else [_cards(d) for d in revealed],
        "revealed_talon": None if view.revealed_talon is None else _cards(view.revealed_talon),
    }


def match_after(deal: DreyfusDeal, over: bool) -> dict[str, object]:
    """Who deals the next deal (None once the match is ``over``) and the settlement of a match over
    [DRF-8.1] [DRF-8.3] [DRF-2.1] [DRF-9.1]."""
    settled = settle(deal.rules, deal.upper, deal.lower, deal.winner) if over else None
    following = None if over else next_dealer(deal.rules, deal.dealer)
    return {"next_dealer": following, "settlement": None if settled is None else list(settled)}


def deck(rules: DreyfusRules) -> CardSet:
    """The 48 cards Dreyfus is played with [DRF-1.2]."""
    return DECK_48


def deal(rules: DreyfusRules, order: list[Card], pack: CardSet, dealer: int, deal_number: int) -> dict[str, object]:
    """The hands, talon and contract dealt by ``dealer`` from the pack ``order`` (its cards: ``pack``)
    as deal number ``deal_number`` of a match [DRF-2.2]; or the refusal of a pack that is not the 48
    cards [DRF-1.2]."""
    if len(order) != len(pack) or pack != DECK_48:
        return {"refused": {"rule": "DRF-1.2", "at": -1}}
    masks, talon = deal_cards(rules, order, dealer)
    contract = contract_of(rules, deal_number)
    return {
        "hands": [_cards(CardSet(mask)) for mask in masks],
        "talon": _cards(Card.from_index(i) for i in talon),
        "contract": "NT" if contract is None else contract.letter,
    }
