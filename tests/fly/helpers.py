"""Positions and steps the tests of Fly share (specs/fly.md).

Positions are explicit (``fly.new_deal``). Most use three players with seat 2 dealing, so that the
research note's P1, P2, P3 are seats 0, 1, 2 in play order. Hearts are trump unless a test says
otherwise. The stock is the rest of the deck in canonical order, after any cards a test puts on top.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from fly_rules import Card, CardSet, RuleViolation, deck_of_size, fly
from fly_rules.actions import Action

STANDARD_DECK = {3: 32, 4: 36, 5: 52, 6: 52, 7: 52}


STOCK_SIZE = {3: 16, 4: 15, 5: 26, 6: 21, 7: 16}


AS = Card.parse("AS")


# A plain deal with no A♠ in any hand: seat 0 takes three tricks, seat 1 two, seat 2 none.
BASE = ("AH KH QH 7C 8C", "AC KC 7D 8D 9D", "8H 9H TH 7S 8S")


BASE_TRICKS = ("AH 7D 8H", "KH 8D 9H", "QH 9D TH", "7C AC 7S", "KC 8S 8C")


# The same, but seat 2 holds the A♠ and never takes a trick.
ACE_NO_TRICK = ("AH KH QH 7C 8C", "AC KC 7D 8D 9D", "8H 9H TH AS 8S")


ACE_NO_TRICK_TRICKS = ("AH 7D 8H", "KH 8D 9H", "QH 9D TH", "7C AC AS", "KC 8S 8C")


# The same, but seat 0 holds the A♠ and wins the first three tricks with hearts.
ACE_BONUS = ("AH KH QH 7C AS", "AC KC 7D 8D 9D", "8H 9H TH 7S 8S")


ACE_BONUS_TRICKS = ("AH 7D 8H", "KH 8D 9H", "QH 9D TH", "7C AC 7S", "KC 8S AS")


# Seat 2 can revoke on the first trick: he holds J♣ but may try to trump the 9♣ with 8♥.
REVOKE = ("9C 8D 9D TD JD", "KC 7S 8S 9S TS", "8H JC 7C 8C 7D")


REVOKE_TRICKS = ("9C KC 8H", "7S 7D 8D", "8S 7C 9D", "9S 8C TD", "TS JC JD")


# Seats 0 and 2 of the research note's A♠ cases (§5.3), with the led card first in seat 0.
P3_HEARTS = "7H JC QC KC AC"


def card(text: str) -> Card:
    """One card from its notation."""
    return Card.parse(text)


def position(
    hands: Sequence[str],
    trump: str = "7H",
    *,
    top: str = "",
    dealer: int = 2,
    records: Sequence[int] | None = None,
    **options: Any,
) -> fly.FlyDeal:
    """A deal in the exchange phase: the given hands, turn-up and stock top; the rest of the deck
    below the top in canonical order."""
    players = len(hands)
    rules = fly.FlyRules(players=players, **options)
    deck = deck_of_size(options.get("deck_size") or STANDARD_DECK[players])
    turnup = card(trump)
    top_cards = [card(t) for t in top.split()]
    used = CardSet.of([turnup, *top_cards])
    for hand in hands:
        assert used.isdisjoint(CardSet.parse(hand)), f"a card is given twice: {hand}"
        used = used | CardSet.parse(hand)
    assert len(used) == 5 * players + 1 + len(top_cards), "every hand must hold five cards"
    assert used <= deck, "every card must belong to the deck"
    stock = top_cards + [c for c in deck if c not in used]
    start = tuple(records) if records is not None else (rules.start_record,) * players
    return fly.new_deal(rules, hands=list(hands), trump_card=turnup, stock=stock, dealer=dealer, records=start)


def sliced(players: int, dealer: int = 0, **options: Any) -> fly.FlyDeal:
    """A deal of the standard deck in canonical order: seat i holds cards 5i to 5i+4, then the
    turn-up, then the stock (the A♠, the last card of every deck, is at the bottom of the stock)."""
    deck = list(deck_of_size(STANDARD_DECK[players]))
    hands = [" ".join(str(c) for c in deck[5 * i : 5 * i + 5]) for i in range(players)]
    return position(hands, str(deck[5 * players]), dealer=dealer, **options)


def apply_all(d: fly.FlyDeal, *actions: Action) -> fly.FlyDeal:
    """The deal after the given actions, in order."""
    for action in actions:
        d = d.apply(action)
    return d


def stand_all(d: fly.FlyDeal) -> fly.FlyDeal:
    """Every remaining declaration is Stand; the deal is then in play (or over)."""
    while d.phase is fly.Phase.EXCHANGE:
        d = d.apply(fly.Stand())
    return d


def play(d: fly.FlyDeal, cards: str) -> fly.FlyDeal:
    """The deal after the given cards are played, in order."""
    for token in cards.split():
        d = d.apply(fly.Play(card(token)))
    return d


def trick_by_trick(d: fly.FlyDeal, tricks: Sequence[str]) -> list[fly.FlyDeal]:
    """The deal after each of the given tricks."""
    states = []
    for trick in tricks:
        d = play(d, trick)
        states.append(d)
    return states


def plays(hand: str) -> tuple[Action, ...]:
    """Play actions for the given cards, in canonical card order."""
    return tuple(fly.Play(c) for c in CardSet.parse(hand))


def assert_refused(state: fly.FlyDeal | fly.FlyMatch, action: Action | fly.SwapTrump, rule: str) -> None:
    """The action is not offered, is refused with the given rule, and leaves the state unchanged."""
    before = copy.deepcopy(state)
    assert action not in state.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        state.apply(action)
    assert caught.value.rule == rule
    assert str(caught.value).startswith(rule)
    assert state == before


def first_cards(d: fly.FlyDeal, count: int) -> fly.Exchange:
    """An exchange of the first ``count`` cards (canonical order) of the hand of the seat to move."""
    seat = d.to_move
    assert seat is not None
    return fly.Exchange(CardSet.of(list(d.hands[seat])[:count]))


def play_out_first_deal(m: fly.FlyMatch) -> fly.FlyMatch:
    """The match after its current deal, every player taking his first legal action."""
    first = m.deal_number
    while m.deal_number == first and not m.is_over:
        m = m.apply(m.legal_actions()[0])
    return m


def exhaust_four_player_stock(**options: Any) -> fly.FlyDeal:
    """Four players, dealer 0: seats 1, 2 and 3 exchange five cards each, which empties the stock of 15."""
    d = sliced(4, dealer=0, **options)
    for _ in range(3):
        d = d.apply(first_cards(d, 5))
    assert d.to_move == 0
    assert d.stock == ()
    return d


def match_without_ace_of_spades_in_hand(**options: Any) -> fly.FlyMatch:
    """A three-player match whose first deal gives nobody the A♠, so everyone may fold."""
    rules = fly.FlyRules(players=3, **options)
    for seed in range(200):
        m = fly.new_match(rules, seed=seed, dealer=0)
        if all(AS not in hand for hand in m.deal.hands):
            return m
    raise AssertionError("no seed deals the A♠ outside the hands")


def first_trick(hands: Sequence[str], trump: str, cards: str, **options: Any) -> fly.FlyDeal:
    """Everyone stands, then the first trick is played with the given cards (seat 0 leads)."""
    return play(stand_all(position(hands, trump, **options)), cards)


CASE_1 = ("AH 7C 8C 9C TC", "KH AS 7D 8D 9D", P3_HEARTS)


CASE_2 = ("TC 7D 8D 9D TD", "AH 7S 8S 9S TS", "AS JD QD KD AD")


# The audit's reproducer: records (3, 25, 2), dealer 2; seat 2 takes the first trick and reaches 0,
# seat 0 takes the fourth and fifth and reaches 0 later.
TIE_HANDS = ("7C 7D KS AH KH", "8C 8D 8S 9S TS", "AC AD 7S JS QS")


TIE_PLAY = "7C 8C AC AD 7D 8D 7S KS 8S AH 9S JS KH TS QS"


# Hearts trump (turn-up 9H); seat 0 leads 9C, seat 1 holds the KC but may trump.
REVOKE_HANDS = ("9C 7D 8D 9D TD", "KC 8H 7S 8S 9S", "7C 8C TC JC QC")


# The flush reproducer: clubs at seat 0, hearts at seat 1, spades at seat 2; dealer 2.
THREE_FLUSHES = ("7C 8C 9C TC JC", "7H 8H TH JH QH", "7S 8S 9S TS JS")


# The no-fold reproducers: the dealer (seat 2) or seat 0 holds the A♠.
DEALER_HOLDS_ACE = ("7C 8C 9C TC JC", "7H 8H TH JH QH", "AS 8S 9S TS JS")


ELDEST_HOLDS_ACE = ("AS 8C 9C TC JC", "7H 8H TH JH QH", "7S 8S 9S TS JS")


def _gives_up_the_ace(action: object) -> bool:
    """Whether a declaration discards the A♠ (an exchange of it, or the dealer's trump swap)."""
    if isinstance(action, fly.Exchange):
        return AS in action.cards
    return isinstance(action, fly.SwapTrump) and action.card == AS


# BASE of test_fly_edge_cases turned one seat round: seat 2 (leading, dealer 1) takes tricks 1-3 and
# seat 0 tricks 4-5, so the higher seat is the earlier to reach zero.
TURNED = ("AC KC 7D 8D 9D", "8H 9H TH 7S 8S", "AH KH QH 7C 8C")


TURNED_TRICKS = ("AH 7D 8H", "KH 8D 9H", "QH 9D TH", "7C AC 7S", "KC 8S 8C")


def _fold_two_then_exchange_all(d: fly.FlyDeal) -> fly.FlyDeal:
    """Seven players, dealer 0: seats 1 and 2 fold, seats 3 to 6 each exchange their five cards; seat 6
    gets the last card of the stock and four from the refilled stock."""
    d = d.apply(fly.Fold()).apply(fly.Fold())
    for _ in range(4):
        seat = d.to_move
        assert seat is not None
        d = d.apply(fly.Exchange(d.hands[seat]))
    return d


def top_trump(hands: tuple[str, str, str], cards: str, **options: Any) -> fly.FlyDeal:
    """The deal under ``top_trump`` after every player stands and ``cards`` are played."""
    return play(stand_all(position(hands, "9H", ace_of_spades_mode="top_trump", **options)), cards)


OTHERS = "KC 7S 8S TS JS"


def _stock_of_one(**options: Any) -> fly.FlyDeal:
    """Four players, seat 0 dealing: seats 1, 2 and 3 exchange 5, 5 and 4 cards; one card is left."""
    d = sliced(4, dealer=0, **options)
    for size in (5, 5, 4):
        d = d.apply(first_cards(d, size))
    return d


def play_first_legal(m: fly.FlyMatch, limit: int) -> fly.FlyMatch:
    """The match after its first legal action is taken again and again, until it is over (at most ``limit``)."""
    for _ in range(limit):
        if m.is_over:
            break
        m = m.apply(m.legal_actions()[0])
    return m
