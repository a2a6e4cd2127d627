"""Fly's part of the conformance kit's answers (:mod:`fly_rules.conformance.answers`; the ``conformance``
of Fly's descriptor in :mod:`fly_rules.registry`): its fields of a state, what its match does after a
deal, and a deal from a given pack.

It lives beside the game, as the game's other client parts do, and imports nothing of the kit: the kit
finds it through the descriptor, by its module's name."""

from __future__ import annotations

from typing import Final

from fly_rules.cards import Card, CardSet
from fly_rules.fly import FlyDeal, FlyMatch, FlyRules
from fly_rules.fly.deal import deal_cards, draw_first_dealer
from fly_rules.fly.end import next_dealer

__all__ = ["SEAT_RULE", "deal", "deck", "draw_first_dealer", "match_after", "state"]

SEAT_RULE: Final = "FLY-1.2"
"""The rule a dealer who is not at the table breaks."""


def state(deal: FlyDeal) -> dict[str, object]:
    """Fly's fields of the state the kit compares: records, active seats, void, redeal, the deal's
    winners and the stock [REC-5.1]."""
    return {
        "records": list(deal.records),
        "active": list(deal.active),
        "void": deal.void,
        "redeal": deal.redeal,
        "winners": list(deal.winners),
        "stock": " ".join(map(str, deal.stock)),
    }


def match_after(deal: FlyDeal, over: bool) -> dict[str, object]:
    """Who deals the next deal (None once the match is ``over``) and the standings [FLY-10.2] [FLY-2.2]."""
    standings = FlyMatch.starting(deal.rules, 0, deal.dealer, deal).standings()
    following = None if over else next_dealer(deal.rules, deal.dealer, deal.redeal)
    return {"next_dealer": following, "standings": list(standings)}


def deck(rules: FlyRules) -> CardSet:
    """The cards the rules play with [FLY-1.3]."""
    return rules.deck


def deal(rules: FlyRules, order: list[Card], pack: CardSet, dealer: int, deal_number: int) -> dict[str, object]:
    """The hands, turn-up and stock dealt by ``dealer`` from the pack ``order`` (its cards: ``pack``)
    [FLY-3.1]; or the refusal of a pack that is not the rules' deck [FLY-1.3]. Every deal of a Fly
    match is dealt alike, so ``deal_number`` changes nothing."""
    del deal_number
    if len(order) != len(pack) or pack != rules.deck:
        return {"refused": {"rule": "FLY-1.3", "at": -1}}
    hands, trump, stock = deal_cards(rules, order, dealer)
    return {
        "hands": [" ".join(map(str, CardSet(mask))) for mask in hands],
        "trump_card": str(trump),
        "stock": " ".join(str(Card.from_index(i)) for i in stock),
    }
