"""Named edge cases of Fly (specs/fly.md): every worked case of the sources and the research note.

Positions are explicit (``fly.new_deal``). Most use three players with seat 2 dealing, so that the
research note's P1, P2, P3 are seats 0, 1, 2 in play order. Hearts are trump unless a test says
otherwise. The stock is the rest of the deck in canonical order, after any cards a test puts on top.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Literal

import pytest

from fly_rules import Card, CardSet, InvalidRules, RuleViolation, Suit, deck_of_size, fly
from fly_rules.actions import Action
from fly_rules.engine import shuffled

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


# 1. Players, deck and ranking


@pytest.mark.parametrize("players", [0, 1, 2, 8, 9])
def test_fly_1_1_player_count_out_of_range_is_invalid(players: int) -> None:
    """FLY-1.1: fewer than 3 or more than 7 players is refused with InvalidRules."""
    with pytest.raises(InvalidRules):
        fly.FlyRules(players=players)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_fly_1_1_three_to_seven_players_are_valid(players: int) -> None:
    """FLY-1.1: 3 to 7 players are valid and every record starts at 25 (FLY-8.1)."""
    m = fly.new_match(fly.FlyRules(players=players), seed=1, dealer=0)
    assert m.records == (25,) * players
    assert len(m.deal.hands) == players


def test_fly_1_2_declarations_start_left_of_dealer_and_go_left() -> None:
    """FLY-1.2, FLY-4.1: seat (dealer + 1) % n declares first and the turn passes to the left."""
    d = sliced(4, dealer=0)
    seen = []
    while d.phase is fly.Phase.EXCHANGE:
        seen.append(d.to_move)
        d = d.apply(fly.Stand())
    assert seen == [1, 2, 3, 0]
    assert d.to_move == 1
    d = sliced(4, dealer=3)
    assert d.to_move == 0


def test_fly_1_2_anticlockwise_option_reverses_every_direction() -> None:
    """FLY-1.2: with direction="anticlockwise" the seat to the dealer's right declares, leads and plays first."""
    d = sliced(4, dealer=0, direction="anticlockwise")
    seen = []
    while d.phase is fly.Phase.EXCHANGE:
        seen.append(d.to_move)
        d = d.apply(fly.Stand())
    assert seen == [3, 2, 1, 0]
    order = []
    for _ in range(4):
        order.append(d.to_move)
        d = d.apply(d.legal_actions()[0])
    assert order == [3, 2, 1, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_fly_1_3_deck_by_players_and_stock_size(players: int) -> None:
    """FLY-1.3, FLY-3.4: 32/36/52 cards by players; five each, one turn-up, the rest is the stock."""
    m = fly.new_match(fly.FlyRules(players=players), seed=3, dealer=0)
    d = m.deal
    assert len(d.stock) == STOCK_SIZE[players]
    assert all(len(hand) == 5 for hand in d.hands)
    everything = CardSet.of([d.trump_card, *d.stock])
    for hand in d.hands:
        everything = everything | hand
    assert everything == deck_of_size(STANDARD_DECK[players])
    assert d.trump_card not in d.stock


def test_fly_1_3_deck_size_option_and_invalid_sizes() -> None:
    """FLY-1.3: deck_size picks another standard deck; it must hold 5n+1 cards and be a standard size."""
    m = fly.new_match(fly.FlyRules(players=4, deck_size=52), seed=3, dealer=0)
    assert len(m.deal.stock) == 31
    with pytest.raises(InvalidRules):
        fly.FlyRules(players=7, deck_size=32)
    with pytest.raises(InvalidRules):
        fly.FlyRules(players=4, deck_size=40)


@pytest.mark.parametrize(("ace_rank", "winner"), [("high", 1), ("below_jack", 0)])
def test_fly_1_4_ace_high_by_default_below_jack_as_option(ace_rank: str, winner: int) -> None:
    """FLY-1.4: K♣, A♣, 7♣: the ace wins when ace high, the king when the ace ranks below the jack."""
    d = stand_all(position(("KC 8D 9D TD JD", "AC 7S 8S 9S TS", "7C QD KD AD JS"), ace_rank=ace_rank))
    d = play(d, "KC AC 7C")
    expected = [0, 0, 0]
    expected[winner] = 1
    assert d.tricks_taken == tuple(expected)
    assert d.leader == winner


# 2. Dealer and rotation


def test_fly_2_1_first_dealer_by_lot_from_the_seed() -> None:
    """FLY-2.1: without a dealer the seed draws one (the same for the same seed); dealer=k fixes it."""
    rules = fly.FlyRules(players=4)
    drawn = [fly.new_match(rules, seed=seed).dealer for seed in range(30)]
    assert drawn == [fly.new_match(rules, seed=seed).dealer for seed in range(30)]
    assert set(drawn) <= {0, 1, 2, 3}
    assert len(set(drawn)) > 1
    assert fly.new_match(rules, seed=5, dealer=2).dealer == 2
    assert fly.new_match(rules, seed=5, dealer=2).deal.dealer == 2


def play_out_first_deal(m: fly.FlyMatch) -> fly.FlyMatch:
    """The match after its current deal, every player taking his first legal action."""
    first = m.deal_number
    while m.deal_number == first and not m.is_over:
        m = m.apply(m.legal_actions()[0])
    return m


@pytest.mark.parametrize(("direction", "next_dealer"), [("clockwise", 1), ("anticlockwise", 3)])
def test_fly_2_2_deal_passes_to_the_left(direction: Literal["clockwise", "anticlockwise"], next_dealer: int) -> None:
    """FLY-2.2, FLY-1.2: after a deal the next is dealt by the player to the last dealer's left."""
    m = fly.new_match(fly.FlyRules(players=4, direction=direction), seed=9, dealer=0)
    first = m.deal_number
    m = play_out_first_deal(m)
    assert not m.is_over  # nobody can write off 25 in one deal
    assert m.deal_number == first + 1
    assert m.dealer == next_dealer
    assert m.deal.dealer == next_dealer
    assert m.deal.phase is fly.Phase.EXCHANGE


# 3. The deal and the trump card


@pytest.mark.parametrize(("packets", "seed"), [((1,), 11), ((3, 2), 12)])
def test_fly_3_1_cards_dealt_from_the_dealers_left_in_packets(packets: tuple[int, ...], seed: int) -> None:
    """FLY-3.1, FLY-2.1, FLY-3.2, FLY-3.4: the shuffled deck is dealt from the front, starting left of the
    dealer, packet by packet; the next card is the turn-up and the rest the stock, top first."""
    m = fly.new_match(fly.FlyRules(players=3, deal_packets=packets), seed=seed, dealer=0)
    order = shuffled(deck_of_size(32), seed, 0)
    expected: list[list[Card]] = [[], [], []]
    taken = 0
    for size in m.rules.packet_rounds:
        for step in range(3):
            expected[(1 + step) % 3].extend(order[taken : taken + size])
            taken += size
    assert taken == 15
    assert [m.deal.hands[seat] for seat in range(3)] == [CardSet.of(cards) for cards in expected]
    assert m.deal.trump_card == order[15]
    assert m.deal.trump == order[15].suit
    assert m.deal.stock == order[16:]


def test_fly_3_2_turned_card_sets_trump() -> None:
    """FLY-3.2: the suit of the turn-up is trump for the deal."""
    d = position(BASE, "7H")
    assert d.trump is Suit.HEARTS
    assert d.trump_card == card("7H")
    assert d.phase is fly.Phase.EXCHANGE


def test_fly_3_2_ace_of_spades_turned_up_has_no_holder() -> None:
    """FLY-3.2, FLY-5.2: when the A♠ is the turn-up, spades are trump, nobody holds it and all may fold."""
    d = position(BASE, "AS")
    assert d.trump is Suit.SPADES
    for _ in range(3):
        assert fly.Fold() in d.legal_actions()
        d = d.apply(fly.Stand())
    assert d.ace_of_spades_holder is None


def exhaust_four_player_stock(**options: Any) -> fly.FlyDeal:
    """Four players, dealer 0: seats 1, 2 and 3 exchange five cards each, which empties the stock of 15."""
    d = sliced(4, dealer=0, **options)
    for _ in range(3):
        d = d.apply(first_cards(d, 5))
    assert d.to_move == 0
    assert d.stock == ()
    return d


def test_fly_3_3_turn_up_is_never_drawn() -> None:
    """FLY-3.3, FLY-4.5: with the stock empty the dealer may not take the turn-up; he may only stand or fold."""
    d = exhaust_four_player_stock()
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    assert_refused(d, first_cards(d, 1), "FLY-4.5")
    assert all(d.trump_card not in hand for hand in d.hands)


def test_fly_3_3_last_stock_card_option_draws_the_turn_up_last() -> None:
    """FLY-3.3: with turnup_use="last_stock_card" the turn-up is the last replacement; trump is unchanged."""
    d = exhaust_four_player_stock(turnup_use="last_stock_card")
    assert_refused(d, first_cards(d, 2), "FLY-4.5")
    d = d.apply(first_cards(d, 1))
    assert d.trump_card in d.hands[0]
    assert d.trump is d.trump_card.suit


def test_fly_3_3_dealer_swap_option_takes_the_turn_up() -> None:
    """FLY-3.3: with turnup_use="dealer_swap" the dealer first may swap one card for the turn-up, then declares."""
    d = apply_all(position(BASE, "7H", turnup_use="dealer_swap"), fly.Stand(), fly.Stand())
    assert d.to_move == 2
    d = d.apply(fly.SwapTrump("8S"))
    assert d.hands[2] == CardSet.parse("7H 8H 9H TH 7S")
    assert d.trump is Suit.HEARTS
    assert d.to_move == 2
    d = d.apply(fly.Stand())
    assert d.phase is fly.Phase.PLAY


def test_fly_3_4_replacements_come_from_the_top_of_the_stock() -> None:
    """FLY-3.4, FLY-4.4: replacements are the top cards in order; the discards are dead."""
    d = position(BASE, top="9C JS")
    assert d.stock[:2] == (card("9C"), card("JS"))
    assert len(d.stock) == 16
    d = d.apply(fly.Exchange("7C 8C"))
    assert d.hands[0] == CardSet.parse("AH KH QH 9C JS")
    assert len(d.stock) == 14
    assert card("9C") not in d.stock
    assert d.discards == CardSet.parse("7C 8C")
    d = stand_all(d)
    assert d.discards == CardSet.parse("7C 8C")
    assert all(c not in d.stock for c in d.discards)


# 4. The exchange


def test_fly_4_1_one_declaration_each_then_play() -> None:
    """FLY-4.1: declarations go once round from the dealer's left; a card before play, or a declaration
    during play, is refused."""
    d = position(BASE)
    assert_refused(d, fly.Play(card("AH")), "FLY-4.1")
    seen = []
    while d.phase is fly.Phase.EXCHANGE:
        seen.append(d.to_move)
        d = d.apply(fly.Stand())
    assert seen == [0, 1, 2]
    assert d.phase is fly.Phase.PLAY
    assert d.to_move == 0
    assert d.declarations == (fly.Stand(), fly.Stand(), fly.Stand())
    assert_refused(d, fly.Exchange("8C"), "FLY-4.1")
    assert_refused(d, fly.Stand(), "FLY-4.1")


def test_fly_4_1_fold_round_then_exchange_option() -> None:
    """FLY-4.1: with declaration_mode="fold_round_then_exchange" everyone first plays or folds, then the
    active players exchange or stand in a second round."""
    d = position(BASE, declaration_mode="fold_round_then_exchange")
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    d = apply_all(d, fly.Stand(), fly.Fold(), fly.Stand())
    assert d.phase is fly.Phase.EXCHANGE
    assert d.to_move == 0
    assert fly.Fold() not in d.legal_actions()
    assert fly.Exchange("8C") in d.legal_actions()
    d = d.apply(fly.Exchange("8C"))
    assert d.to_move == 2  # seat 1 folded
    d = d.apply(fly.Stand())
    assert d.phase is fly.Phase.PLAY
    assert d.active == (True, False, True)


def test_fly_4_2_declarations_listed_stand_fold_then_exchanges() -> None:
    """FLY-4.2: the choices are Stand, Fold, then every exchange by size and then by card mask."""
    actions = position(BASE).legal_actions()
    assert actions[:2] == (fly.Stand(), fly.Fold())
    exchanges = actions[2:]
    assert len(exchanges) == 31
    assert all(isinstance(a, fly.Exchange) for a in exchanges)
    keys = [(len(a.cards), a.cards.mask) for a in exchanges if isinstance(a, fly.Exchange)]
    assert keys == sorted(keys)
    assert {a.cards for a in exchanges if isinstance(a, fly.Exchange)} >= {CardSet.parse("7C"), CardSet.parse(BASE[0])}


def test_fly_4_3_exchange_size_and_ownership() -> None:
    """FLY-4.3: an exchange takes 1 to max_exchange cards of one's own hand."""
    d = position(BASE)
    assert_refused(d, fly.Exchange(""), "FLY-4.3")
    assert_refused(d, fly.Exchange("9S"), "FLY-4.3")
    assert_refused(d, fly.Exchange("AC"), "FLY-4.3")  # seat 1's card
    d3 = position(BASE, max_exchange=3)
    assert_refused(d3, fly.Exchange("AH KH QH 7C"), "FLY-4.3")
    assert len([a for a in d3.legal_actions() if isinstance(a, fly.Exchange)]) == 5 + 10 + 10


def test_fly_4_3_total_exchange_cap_option() -> None:
    """FLY-4.3: with total_exchange_cap=5 the players together exchange at most five cards."""
    d = position(BASE, total_exchange_cap=5)
    d = d.apply(fly.Exchange("QH 7C 8C"))
    assert_refused(d, fly.Exchange("7D 8D 9D"), "FLY-4.3")
    d = d.apply(fly.Exchange("8D 9D"))
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    assert_refused(d, fly.Exchange("7S"), "FLY-4.3")


@pytest.mark.parametrize(("players", "plan"), [(4, (5, 5, 4)), (6, (5, 5, 5, 5)), (7, (5, 5, 5))])
def test_fly_4_5_stock_runs_out_at_four_six_and_seven_players(players: int, plan: tuple[int, ...]) -> None:
    """FLY-4.5, FLY-1.3: the stock of 15, 21 or 16 can run out; nobody may exchange more than it holds,
    and once it is empty the others may only stand or fold."""
    d = sliced(players, dealer=0)
    assert len(d.stock) == STOCK_SIZE[players]
    for size in plan:
        d = d.apply(first_cards(d, size))
    assert len(d.stock) == 1
    assert_refused(d, first_cards(d, 2), "FLY-4.5")
    assert_refused(d, first_cards(d, 5), "FLY-4.5")
    assert len(d.legal_actions()) == 2 + 5
    d = d.apply(first_cards(d, 1))
    assert d.stock == ()
    while d.phase is fly.Phase.EXCHANGE:
        assert d.legal_actions() == (fly.Stand(), fly.Fold())
        assert_refused(d, first_cards(d, 1), "FLY-4.5")
        d = d.apply(fly.Stand())
    assert d.phase is fly.Phase.PLAY


@pytest.mark.parametrize("players", [3, 5])
def test_fly_4_5_stock_never_runs_out_at_three_and_five_players(players: int) -> None:
    """FLY-4.5, FLY-1.3: with 3 players (stock 16) or 5 (stock 26) everyone may exchange five cards."""
    d = sliced(players, dealer=0)
    while d.phase is fly.Phase.EXCHANGE:
        d = d.apply(first_cards(d, 5))
    assert len(d.stock) == STOCK_SIZE[players] - 5 * players


def test_fly_4_5_folded_hands_option_refills_the_stock() -> None:
    """FLY-4.5: with stock_exhaustion="folded_hands" the dead hands of folded players refill an empty stock."""
    d = sliced(6, dealer=0, stock_exhaustion="folded_hands")
    folded = d.hands[1]
    d = d.apply(fly.Fold())
    for _ in range(4):
        d = d.apply(first_cards(d, 5))
    left = CardSet.of(d.stock)
    assert len(left) == 1
    kept = d.hands[0]
    d = d.apply(first_cards(d, 5))
    assert len(d.hands[0]) == 5
    assert d.hands[0] <= left | folded
    assert kept.isdisjoint(d.hands[0])


def test_fly_4_6_exchange_commits_the_player() -> None:
    """FLY-4.6: after exchanging a player is never offered a fold, and his Fold in play is refused."""
    d = position(BASE).apply(fly.Exchange("8C"))
    assert d.to_move == 1
    d = stand_all(d)
    assert d.phase is fly.Phase.PLAY
    assert d.to_move == 0
    assert_refused(d, fly.Fold(), "FLY-4.6")


def test_fly_4_6_may_fold_after_exchange_option() -> None:
    """FLY-4.6: with may_fold_after_exchange=True the exchanger decides at once to stand or fold."""
    d = position(BASE, may_fold_after_exchange=True).apply(fly.Exchange("8C"))
    assert d.to_move == 0
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    d = d.apply(fly.Fold())
    assert d.to_move == 1
    assert not d.active[0]


def test_fly_4_7_ace_of_spades_may_be_discarded() -> None:
    """FLY-4.7, FLY-8.3: the A♠ may be discarded; dead, it has no holder in the deal."""
    d = position(ACE_BONUS)
    assert fly.Fold() not in d.legal_actions()
    d = stand_all(d.apply(fly.Exchange("7C AS")))
    assert AS in d.discards
    assert d.ace_of_spades_holder is None


def test_fly_4_7_discarding_the_ace_of_spades_refused_by_option() -> None:
    """FLY-4.7: with ace_of_spades_discardable=False an exchange including the A♠ is refused."""
    d = position(ACE_BONUS, ace_of_spades_discardable=False)
    assert_refused(d, fly.Exchange("7C AS"), "FLY-4.7")
    assert fly.Exchange("7C") in d.legal_actions()


# 5. Folding


def test_fly_5_1_folded_player_is_skipped_and_his_record_unchanged() -> None:
    """FLY-5.1, FLY-6.2, FLY-8.6: a folded hand plays no card and its record does not move."""
    d = apply_all(position(BASE), fly.Stand(), fly.Fold(), fly.Stand())
    assert d.active == (True, False, True)
    movers = []
    for trick in ("AH 8H", "KH 9H", "QH TH", "7C 7S", "8C 8S"):
        for token in trick.split():
            movers.append(d.to_move)
            d = d.apply(fly.Play(card(token)))
    assert 1 not in movers
    assert d.is_over
    assert d.tricks_taken == (5, 0, 0)
    assert d.records == (20, 25, 30)


def test_fly_5_2_ace_of_spades_holder_may_not_fold() -> None:
    """FLY-5.2: a player holding the A♠ when he declares may not fold."""
    d = apply_all(position(ACE_NO_TRICK), fly.Stand(), fly.Stand())
    assert d.to_move == 2
    assert_refused(d, fly.Fold(), "FLY-5.2")
    assert d.legal_actions()[0] == fly.Stand()


def test_fly_5_2_holder_is_who_holds_it_when_play_begins() -> None:
    """FLY-5.2, FLY-8.3: a player who draws the A♠ in his exchange is its holder and earns the bonus."""
    d = position(BASE, top="AS").apply(fly.Exchange("8C"))
    assert d.hands[0] == CardSet.parse(ACE_BONUS[0])
    d = stand_all(d)
    assert d.ace_of_spades_holder == 0
    d = play(d, ACE_BONUS_TRICKS[0])
    assert d.records == (19, 25, 25)


@pytest.mark.parametrize(
    ("option", "folds", "rule"),
    [
        ({"forced_player": "dealer_if_all_passed"}, 2, "FLY-5.3"),
        ({"forced_player": "eldest"}, 0, "FLY-5.3"),
        ({"all_fold": "dealer_must_play"}, 2, "FLY-5.4"),
    ],
)
def test_fly_5_3_forced_players(option: dict[str, Any], folds: int, rule: str) -> None:
    """FLY-5.3, FLY-5.4: under the options the dealer (after all others folded) or the eldest may not fold."""
    d = apply_all(position(BASE, **option), *[fly.Fold()] * folds)
    assert_refused(d, fly.Fold(), rule)
    assert d.legal_actions()[0] == fly.Stand()


def test_fly_5_3_no_forced_player_by_default() -> None:
    """FLY-5.3, FLY-5.4: by default the dealer may fold after everyone else folded."""
    d = apply_all(position(BASE), fly.Fold(), fly.Fold())
    assert fly.Fold() in d.legal_actions()


def test_fly_5_4_all_fold_voids_the_deal() -> None:
    """FLY-5.4, FLY-8.6, FLY-10.3: if everyone folds the deal is void, no record changes, and it is over."""
    d = apply_all(position(BASE, records=(7, 12, 25)), fly.Fold(), fly.Fold(), fly.Fold())
    assert d.is_over
    assert d.void
    assert d.phase is fly.Phase.OVER
    assert d.records == (7, 12, 25)
    assert d.tricks_taken == (0, 0, 0)
    assert d.winner is None
    assert d.to_move is None
    assert_refused(d, fly.Stand(), "FLY-10.3")


def match_without_ace_of_spades_in_hand(**options: Any) -> fly.FlyMatch:
    """A three-player match whose first deal gives nobody the A♠, so everyone may fold."""
    rules = fly.FlyRules(players=3, **options)
    for seed in range(200):
        m = fly.new_match(rules, seed=seed, dealer=0)
        if all(AS not in hand for hand in m.deal.hands):
            return m
    raise AssertionError("no seed deals the A♠ outside the hands")


@pytest.mark.parametrize(("all_fold", "next_dealer"), [("void", 1), ("redeal_same_dealer", 0)])
def test_fly_5_4_void_deal_passes_in_a_match(all_fold: str, next_dealer: int) -> None:
    """FLY-5.4, FLY-2.2: after a void deal the next deal is dealt by the next seat (or the same one)."""
    m = match_without_ace_of_spades_in_hand(all_fold=all_fold)
    first = m.deal_number
    m = m.apply(fly.Fold()).apply(fly.Fold()).apply(fly.Fold())
    assert not m.is_over
    assert m.deal_number == first + 1
    assert m.dealer == next_dealer
    assert m.records == (25, 25, 25)


def test_fly_5_5_lone_player_takes_all_five_tricks() -> None:
    """FLY-5.5: when only one player is active he takes the five tricks without play."""
    d = apply_all(position(BASE), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.is_over
    assert not d.void
    assert d.tricks_taken == (0, 0, 5)
    assert d.records == (25, 25, 20)
    assert d.winner is None


def test_fly_5_5_lone_ace_of_spades_holder_gets_the_bonus() -> None:
    """FLY-5.5, FLY-8.3: a lone A♠ holder writes off five tricks and the bonus of 5: 25 → 15."""
    d = apply_all(position(ACE_NO_TRICK), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.tricks_taken == (0, 0, 5)
    assert d.records == (25, 25, 15)


def test_fly_5_5_lone_player_stops_on_exact_zero() -> None:
    """FLY-5.5, FLY-9.1: the lone player's tricks are credited one by one, so from 3 he stops on 0."""
    d = apply_all(position(BASE, records=(25, 25, 3)), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.is_over
    assert d.tricks_taken == (0, 0, 3)
    assert d.records == (25, 25, 0)
    assert d.winner == 2


def test_fly_5_5_lone_player_options() -> None:
    """FLY-5.5: "void" voids a one-player deal; "last_speaker_must_play" bars the fold that would leave one."""
    d = apply_all(position(BASE, lone_player="void"), fly.Fold(), fly.Fold(), fly.Stand())
    assert d.is_over
    assert d.void
    assert d.to_move is None
    assert d.records == (25, 25, 25)
    d = apply_all(position(BASE, lone_player="last_speaker_must_play"), fly.Fold(), fly.Stand())
    assert_refused(d, fly.Fold(), "FLY-5.5")
    d = apply_all(position(BASE, lone_player="last_speaker_must_play"), fly.Fold(), fly.Fold())
    assert fly.Fold() in d.legal_actions()


# 6. Trick play


def test_fly_6_1_first_active_player_leads_when_eldest_folded() -> None:
    """FLY-6.1: with the eldest folded, the next active player to the left leads the first trick."""
    d = apply_all(sliced(4, dealer=3), fly.Fold(), fly.Stand(), fly.Stand(), fly.Stand())
    assert d.phase is fly.Phase.PLAY
    assert d.leader == 1
    assert d.to_move == 1


def test_fly_6_2_play_goes_left_among_active_players() -> None:
    """FLY-6.2: a trick is played to the left, skipping a folded seat; a card not held is refused."""
    d = apply_all(sliced(4, dealer=3), fly.Stand(), fly.Stand(), fly.Fold(), fly.Stand())
    assert d.to_move == 0
    assert_refused(d, fly.Play(card("AH")), "FLY-6.2")
    order: list[int | None] = []
    for _ in range(3):
        order.append(d.to_move)
        d = d.apply(d.legal_actions()[0])
    assert order == [0, 1, 3]
    assert len(d.trick) == 0
    assert sum(d.tricks_taken) == 1


def test_fly_6_3_must_follow_suit_but_need_not_head() -> None:
    """FLY-6.3, FLY-11.1: holding the suit led one must follow, with any card of it; a revoke is refused."""
    d = play(stand_all(position(("9C 8D 9D TD JD", "7C KC 7S 8S 9S", "8H JC QC 7D AC"))), "9C")
    assert d.legal_actions() == plays("7C KC")
    assert_refused(d, fly.Play(card("7S")), "FLY-6.3")
    d = play(d, "7C")
    assert d.legal_actions() == plays("JC QC AC")
    assert_refused(d, fly.Play(card("8H")), "FLY-6.3")


def test_fly_6_3_must_head_trick_option() -> None:
    """FLY-6.3: with must_head_trick=True a follower must beat the best card of the suit led when able."""
    hands = ("9C 8D 9D TD JD", "7C KC 7S 8S 9S", "8H JC QC 7D AC")
    d = play(stand_all(position(hands, must_head_trick=True)), "9C")
    assert d.legal_actions() == plays("KC")
    assert_refused(d, fly.Play(card("7C")), "FLY-6.3")
    d = play(d, "KC")
    assert d.legal_actions() == plays("AC")


@pytest.mark.parametrize("mode", ["led_trump_ace", "none"])
@pytest.mark.parametrize(
    ("trump_duty", "allowed", "refused"),
    [("any_trump", "7H KH", "QD"), ("overtrump", "KH", "7H"), ("overtrump_or_free", "KH", "AD")],
)
def test_fly_6_4_void_player_must_trump(trump_duty: str, allowed: str, refused: str, mode: str) -> None:
    """FLY-6.4: void in the suit led, a player must trump (any trump by default; overtrump by option),
    with the A♠ privilege or without it (``ace_of_spades_mode="none"``)."""
    hands = ("9C 8D 9D TD JD", "9H 7S 8S 9S TS", "7H KH QD KD AD")
    d = play(stand_all(position(hands, "8H", trump_duty=trump_duty, ace_of_spades_mode=mode)), "9C 9H")
    assert d.legal_actions() == plays(allowed)
    assert_refused(d, fly.Play(card(refused)), "FLY-6.4")


@pytest.mark.parametrize(("trump_duty", "allowed"), [("any_trump", "7H"), ("overtrump_or_free", "7H QD KD AD JS")])
def test_fly_6_4_overtrump_or_free_when_unable_to_overtrump(trump_duty: str, allowed: str) -> None:
    """FLY-6.4: a player who cannot overtrump must still trump by default, but plays freely under
    "overtrump_or_free"."""
    hands = ("9C 8D 9D TD JD", "9H 7S 8S 9S TS", "7H QD KD AD JS")
    d = play(stand_all(position(hands, "8H", trump_duty=trump_duty)), "9C 9H")
    assert d.legal_actions() == plays(allowed)


def test_fly_6_5_void_in_suit_and_trumps_plays_anything() -> None:
    """FLY-6.5: holding neither the suit led nor a trump, any card may be played."""
    d = play(stand_all(position(("TC 7D 8D 9D TD", "AH 7S 8S 9S TS", "AS JD QD KD AD"))), "TC AH")
    assert d.legal_actions() == plays("JD QD KD AD AS")


@pytest.mark.rule("FLY-1.5")  # each player's tricks count for him alone: three records move apart
def test_fly_6_6_and_8_2_three_tricks_write_off_25_to_22() -> None:
    """FLY-6.6, FLY-8.2, FLY-8.4, FLY-6.7, FLY-1.5: each trick writes off one at once (25 → 22 after three);
    the winner leads next; a player with no trick adds the remise of 5 at the end."""
    d = stand_all(position(BASE))
    states = trick_by_trick(d, BASE_TRICKS)
    assert [s.tricks_taken for s in states] == [(1, 0, 0), (2, 0, 0), (3, 0, 0), (3, 1, 0), (3, 2, 0)]
    assert [s.records for s in states] == [(24, 25, 25), (23, 25, 25), (22, 25, 25), (22, 24, 25), (22, 23, 30)]
    assert [s.leader for s in states[:4]] == [0, 0, 0, 1]
    assert not states[3].is_over
    final = states[-1]
    assert final.is_over
    assert final.phase is fly.Phase.OVER
    assert final.winner is None
    assert final.to_move is None


def test_fly_6_7_deal_ends_after_the_fifth_trick() -> None:
    """FLY-6.7, FLY-10.3: after five tricks the deal is over and accepts no action."""
    d = trick_by_trick(stand_all(position(BASE)), BASE_TRICKS)[-1]
    assert d.is_over
    assert all(len(hand) == 0 for hand in d.hands)
    assert d.legal_actions() == ()
    assert_refused(d, fly.Play(card("AH")), "FLY-10.3")


# 7. The ace of spades (research §5.3 cases 1-6; hearts trump unless stated)


def first_trick(hands: Sequence[str], trump: str, cards: str, **options: Any) -> fly.FlyDeal:
    """Everyone stands, then the first trick is played with the given cards (seat 0 leads)."""
    return play(stand_all(position(hands, trump, **options)), cards)


CASE_1 = ("AH 7C 8C 9C TC", "KH AS 7D 8D 9D", P3_HEARTS)


def test_fly_7_3_trump_ace_led_ace_of_spades_wins() -> None:
    """FLY-7.2, FLY-7.3, FLY-8.3: case 1 — P1 leads A♥, P2 (holding K♥) plays A♠ and wins; 25 → 19."""
    d = play(stand_all(position(CASE_1, "8H")), "AH")
    assert fly.Play(AS) in d.legal_actions()
    assert fly.Play(card("KH")) in d.legal_actions()
    d = play(d, "AS 7H")
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 19, 25)
    assert d.leader == 1
    assert d.to_move == 1


@pytest.mark.parametrize("mode", ["led_trump_ace_void_only", "none"])
def test_fly_7_1_case_1_without_the_privilege_p1_wins(mode: str) -> None:
    """FLY-7.1, FLY-6.3: case 1 under "led_trump_ace_void_only" or "none" — P2 holds a trump, so his A♠ is
    refused; he must play K♥ and P1 takes the trick."""
    d = play(stand_all(position(CASE_1, "8H", ace_of_spades_mode=mode)), "AH")
    assert d.legal_actions() == plays("KH")
    assert_refused(d, fly.Play(AS), "FLY-6.3")
    d = play(d, "KH 7H")
    assert d.tricks_taken == (1, 0, 0)
    assert d.records == (24, 25, 25)


def test_fly_7_3_ace_of_spades_beats_trumps_played_after_it() -> None:
    """FLY-7.3: four players — A♥ led, A♠, then K♥: the A♠ still wins the trick."""
    hands = ("AH 6C 7C 8C 9C", "QH AS 6D 7D 8D", "KH TC JC QC KC", "6H 9D TD JD QD")
    d = play(stand_all(position(hands, "7H", dealer=3)), "AH AS KH 6H")
    assert d.tricks_taken == (0, 1, 0, 0)
    assert d.records == (25, 19, 25, 25)


CASE_2 = ("TC 7D 8D 9D TD", "AH 7S 8S 9S TS", "AS JD QD KD AD")


def test_fly_7_4_covered_trick_ace_of_spades_loses() -> None:
    """FLY-7.4: case 2 — P1 leads 10♣, P2 trumps with A♥, P3 plays A♠: the trump ace was not led, P2 wins."""
    d = first_trick(CASE_2, "7H", "TC AH AS")
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 24, 25)
    assert d.ace_of_spades_holder == 2


def test_fly_7_1_top_trump_option_ace_of_spades_beats_every_trump() -> None:
    """FLY-7.1: under "top_trump" the A♠ is the highest trump — case 2 goes to P3, case 3 to P2."""
    d = play(stand_all(position(CASE_2, "7H", ace_of_spades_mode="top_trump")), "TC AH")
    assert d.legal_actions() == (fly.Play(AS),)
    d = play(d, "AS")
    assert d.tricks_taken == (0, 0, 1)
    assert d.records == (25, 25, 19)
    d = first_trick(("KH 7C 8C 9C TC", "AS 7D 8D 9D TD", P3_HEARTS), "8H", "KH AS 7H", ace_of_spades_mode="top_trump")
    assert d.tricks_taken == (0, 1, 0)


def test_fly_7_4_discarded_ace_of_spades_beats_no_trump() -> None:
    """FLY-7.4: case 3 — P1 leads K♥, P2 (no hearts) discards A♠, P3 plays 7♥: P1 wins."""
    d = play(stand_all(position(("KH 7C 8C 9C TC", "AS 7D 8D 9D TD", P3_HEARTS), "8H")), "KH")
    assert d.legal_actions() == plays("AS 7D 8D 9D TD")
    d = play(d, "AS 7H")
    assert d.tricks_taken == (1, 0, 0)
    assert d.records == (24, 25, 25)


def test_fly_7_4_ace_of_spades_can_be_trumped() -> None:
    """FLY-7.4, FLY-6.4: case 4 — P1 leads 9♠, P2 plays A♠, P3 (void in spades) must trump with 7♥ and wins."""
    d = play(stand_all(position(("9S 7C 8C 9C TC", "AS 7D 8D 9D TD", P3_HEARTS), "8H")), "9S")
    assert d.legal_actions() == (fly.Play(AS),)
    d = play(d, "AS")
    assert d.legal_actions() == plays("7H")
    d = play(d, "7H")
    assert d.tricks_taken == (0, 0, 1)
    assert d.records == (25, 25, 24)


def test_fly_7_4_trump_ace_not_led_gives_no_privilege() -> None:
    """FLY-7.4: 7♥ led and covered with A♥: the A♠ holder who has a heart must follow; void, his A♠ loses."""
    d = play(stand_all(position(("7H 7C 8C 9C TC", "AH 7D 8D 9D TD", "AS 9H JC QC KC"), "8H")), "7H AH")
    assert d.legal_actions() == plays("9H")
    assert_refused(d, fly.Play(AS), "FLY-6.3")
    d = first_trick(("7H 7C 8C 9C TC", "AH 7D 8D 9D TD", "AS JC QC KC AC"), "8H", "7H AH AS")
    assert d.tricks_taken == (0, 1, 0)


def test_fly_7_5_spades_trump_ace_of_spades_is_trump_ace() -> None:
    """FLY-7.5, FLY-8.3: case 5 — spades trump, P1 leads K♠, P2 plays A♠ and wins; bonus 10: 25 → 14."""
    d = first_trick(("KS 7C 8C 9C TC", "AS 7D 8D 9D TD", "7S JC QC KC AC"), "8S", "KS AS 7S")
    assert d.trump is Suit.SPADES
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 14, 25)


def test_fly_7_6_privilege_is_optional() -> None:
    """FLY-7.6: case 6 — P1 leads A♥, the A♠ holder plays 8♥ instead, and P1 wins."""
    d = play(stand_all(position(("AH 7C 8C 9C TC", "8H AS 7D 8D 9D", P3_HEARTS), "9H")), "AH")
    assert d.legal_actions() == plays("8H AS")
    d = play(d, "8H 7H")
    assert d.tricks_taken == (1, 0, 0)
    assert d.records == (24, 25, 25)


@pytest.mark.parametrize(("second", "third"), [("JH", "KH"), ("AS", "KH 9H")])
def test_fly_7_2_a_led_trump_ace_must_be_headed_where_it_can_be(second: str, third: str) -> None:
    """FLY-7.2 / FLY-6.5 / FLY-7.3: with the ace below the jack and ``must_head_trick``, a led A♥
    can be headed: the next seat must play J♥ (not 8♥) or use his A♠. Once the A♠ is in the trick
    nothing can head it, so the last seat follows with any heart; otherwise he must head the J♥."""
    hands = ("AH 7C 8C 9C TC", "JH 8H AS 7D 8D", "KH 9H 7S 8S 9S")
    d = play(stand_all(position(hands, "7H", ace_rank="below_jack", must_head_trick=True)), "AH")
    assert d.legal_actions() == plays("JH AS")
    assert_refused(d, fly.Play(card("8H")), "FLY-6.3")
    d = play(d, second)
    assert d.legal_actions() == plays(third)


# 8. Scoring


def test_fly_8_1_records_start_at_start_record() -> None:
    """FLY-8.1: records start at 25, or at start_record."""
    assert fly.new_match(fly.FlyRules(players=3), seed=0, dealer=0).records == (25, 25, 25)
    assert fly.new_match(fly.FlyRules(players=3, start_record=30), seed=0, dealer=0).records == (30, 30, 30)


@pytest.mark.parametrize(
    ("hands", "first", "holder"),
    [(BASE, fly.Stand(), None), (ACE_BONUS, fly.Stand(), 0), (ACE_BONUS, fly.Exchange("AS"), None)],
    ids=["nobody", "seat 0", "discarded"],
)
def test_fly_8_3_the_score_names_the_ace_holder_or_none(
    hands: tuple[str, ...], first: fly.Stand | fly.Exchange, holder: int | None
) -> None:
    """FLY-8.3 / FLY-9.4: when the play begins the score names the player holding the A♠, or None when
    nobody does (not dealt, or discarded); nobody has taken a trick yet (trick number 0), and the
    first trick's winner has taken trick 1."""
    d = apply_all(position(hands), first, fly.Stand(), fly.Stand())
    assert d.phase is fly.Phase.PLAY
    assert d.score.ace_holder is holder
    assert d.ace_of_spades_holder is holder
    assert d.score.ace_bonus_due is (holder is not None)
    assert (d.score.tricks_taken, d.score.last_trick_of) == ((0, 0, 0), (0, 0, 0))
    d = play(d, "AH 7D 8H")
    assert (d.score.tricks_taken, d.score.last_trick_of) == ((1, 0, 0), (1, 0, 0))


def test_fly_8_3_ace_bonus_with_first_trick_only() -> None:
    """FLY-8.3: the A♠ holder writes off 5 more with his first trick (won with A♥, not the A♠), never again."""
    d = stand_all(position(ACE_BONUS))
    assert d.ace_of_spades_holder == 0
    states = trick_by_trick(d, ACE_BONUS_TRICKS)
    assert [s.records for s in states] == [(19, 25, 25), (18, 25, 25), (17, 25, 25), (17, 24, 25), (17, 23, 30)]
    assert states[-1].tricks_taken == (3, 2, 0)
    assert d.score.ace_bonus_due is True
    assert [s.score.ace_bonus_due for s in states] == [False] * 5  # a bool, as its field says


@pytest.mark.parametrize(("options", "final"), [({}, 35), ({"ace_no_trick_penalty": 12}, 37)])
def test_fly_8_5_ace_of_spades_holder_without_trick_adds_ten(options: dict[str, Any], final: int) -> None:
    """FLY-8.5, FLY-8.4: the A♠ holder who takes no trick adds 10 in all (not 5): 25 → 35."""
    d = stand_all(position(ACE_NO_TRICK, **options))
    assert d.ace_of_spades_holder == 2
    d = trick_by_trick(d, ACE_NO_TRICK_TRICKS)[-1]
    assert d.tricks_taken == (3, 2, 0)
    assert d.records == (22, 23, final)


def test_fly_8_4_remise_option_value() -> None:
    """FLY-8.4: the remise is paid at the end of the deal, remise points for each active player without a trick."""
    d = trick_by_trick(stand_all(position(BASE, remise=7)), BASE_TRICKS)
    assert d[3].records == (22, 24, 25)
    assert d[-1].records == (22, 23, 32)


def test_fly_8_6_folded_players_and_void_deals_change_no_record() -> None:
    """FLY-8.6, FLY-5.1: a folded player without a trick pays no remise."""
    d = apply_all(position(BASE, records=(25, 9, 25)), fly.Stand(), fly.Stand(), fly.Fold())
    d = trick_by_trick(d, ("AH 7D", "KH 8D", "QH 9D", "7C AC", "KC 8C"))[-1]
    assert d.is_over
    assert d.tricks_taken == (3, 2, 0)
    assert d.records == (22, 7, 25)


# 9. Exact zero, overshoot, exemption


def test_fly_9_1_exact_zero_ends_the_match_at_once() -> None:
    """FLY-9.1, FLY-10.2, FLY-10.3: a record reaching exactly 0 wins at once; the fifth trick is never played
    and nobody pays a remise."""
    d = stand_all(position(BASE, records=(25, 1, 25)))
    states = trick_by_trick(d, BASE_TRICKS[:4])
    assert [s.records for s in states] == [(24, 1, 25), (23, 1, 25), (22, 1, 25), (22, 0, 25)]
    assert not states[2].is_over
    final = states[-1]
    assert final.is_over
    assert final.winner == 1
    assert final.tricks_taken == (3, 1, 0)
    assert final.hands[1] == CardSet.parse("KC")
    assert final.to_move is None
    assert final.legal_actions() == ()
    assert_refused(final, fly.Play(card("KC")), "FLY-10.3")
    standings = sorted((s for s in range(3) if s != final.winner), key=lambda s: final.records[s])
    assert [final.winner, *standings] == [1, 0, 2]


@pytest.mark.parametrize(("start", "after", "over"), [(3, 0, True), (6, 0, True), (7, 1, False)])
def test_fly_9_3_exemption_ace_bonus_overshoot_scores_zero(start: int, after: int, over: bool) -> None:
    """FLY-9.3, FLY-9.1, FLY-8.3: record 3, A♠ holder, first trick: 3 − 1 − 5 < 0 becomes 0 and he wins;
    from 6 he lands on 0 exactly; from 7 he stands at 1."""
    d = play(stand_all(position(ACE_BONUS, records=(start, 25, 25))), ACE_BONUS_TRICKS[0])
    assert d.records == (after, 25, 25)
    assert d.tricks_taken == (1, 0, 0)
    assert d.is_over is over
    assert d.winner == (0 if over else None)


def test_fly_9_2_overshoot_resets_in_end_of_deal_mode() -> None:
    """FLY-9.2, FLY-9.1: with stop_mode="end_of_deal" a record of 1 goes 0, then back to 25, then 24."""
    d = stand_all(position(BASE, records=(1, 25, 25), stop_mode="end_of_deal"))
    states = trick_by_trick(d, BASE_TRICKS)
    assert [s.records for s in states] == [(0, 25, 25), (25, 25, 25), (24, 25, 25), (24, 24, 25), (24, 23, 30)]
    assert not states[0].is_over
    assert states[-1].is_over
    assert states[-1].winner is None


def test_fly_9_2_overshoot_resets_with_larger_trick_value() -> None:
    """FLY-9.2, FLY-8.2: with trick_value=2 a record of 1 overshoots on its first trick and goes back to 25."""
    d = stand_all(position(BASE, records=(1, 25, 25), trick_value=2))
    states = trick_by_trick(d, BASE_TRICKS)
    assert [s.records for s in states] == [(25, 25, 25), (23, 25, 25), (21, 25, 25), (21, 23, 25), (21, 21, 30)]
    assert all(min(s.records) >= 0 for s in states)


@pytest.mark.parametrize(
    ("stop_mode", "records", "over_after"), [("end_of_deal", (0, 0, 30), 5), ("immediate", (0, 2, 25), 3)]
)
def test_fly_9_4_earliest_to_zero_wins(stop_mode: str, records: tuple[int, ...], over_after: int) -> None:
    """FLY-9.4, FLY-9.1: records (3, 2, 25); seat 0 reaches 0 with the third trick, seat 1 with the fifth:
    seat 0 wins (at once by default, at the end of the deal with stop_mode="end_of_deal")."""
    d = stand_all(position(BASE, records=(3, 2, 25), stop_mode=stop_mode, tie_break="earliest"))
    states = trick_by_trick(d, BASE_TRICKS[:over_after])
    assert [s.is_over for s in states] == [False] * (over_after - 1) + [True]
    assert states[-1].records == records
    assert states[-1].winner == 0


# 10. End of match and standings


def test_fly_10_1_match_over_without_winner_after_max_deals() -> None:
    """FLY-10.1, FLY-10.3: with max_deals=1 the match is over after one deal with no winner."""
    m = fly.new_match(fly.FlyRules(players=3, max_deals=1), seed=4, dealer=0)
    for _ in range(100):
        if m.is_over:
            break
        m = m.apply(m.legal_actions()[0])
    assert m.is_over
    assert m.winner is None
    assert m.to_move is None
    assert m.legal_actions() == ()
    assert_refused(m, fly.Stand(), "FLY-10.3")


def test_fly_10_1_match_plays_until_a_winner() -> None:
    """FLY-10.1, FLY-10.2: a match without a limit ends when a record reaches 0, and that player wins."""
    m = fly.new_match(fly.FlyRules(players=3, start_record=5), seed=8, dealer=0)
    for _ in range(20_000):
        if m.is_over:
            break
        m = m.apply(m.legal_actions()[0])
    assert m.is_over
    assert m.winner is not None
    assert m.records[m.winner] == 0
    assert all(r > 0 for seat, r in enumerate(m.records) if seat != m.winner)


# 11. Revoke


def test_fly_11_2_revoke_adjudicated_trick_to_best_lawful_card() -> None:
    """FLY-11.1, FLY-11.2: under revoke_mode="penalize" P3 trumps while holding a club: he adds 5 and the
    trick goes to P2's K♣, the best card of the players who did not revoke."""
    d = play(stand_all(position(REVOKE, revoke_mode="penalize")), "9C KC")
    assert fly.Play(card("8H")) not in d.legal_actions()
    d = play(d, "8H")
    assert d.tricks_taken == (0, 1, 0)
    assert d.records == (25, 24, 30)
    assert d.leader == 1


def test_fly_11_2_the_deal_shows_the_revokes_of_the_trick_in_progress() -> None:
    """FLY-11.2: ``FlyDeal.revokes`` lists the places in the trick in progress of the cards that broke a duty:
    none after the lead, the second card when P2 throws a spade holding K♣ (he adds 5 at once), none again
    once the trick is taken, by P3's J♣, the best card of those who did not revoke."""
    d = play(stand_all(position(REVOKE, revoke_mode="penalize")), "9C")
    assert d.revokes == ()
    d = play(d, "7S")
    assert d.revokes == (1,)
    assert d.records == (25, 30, 25)
    d = play(d, "JC")
    assert d.revokes == ()
    assert d.tricks_taken == (0, 0, 1)
    assert d.records == (25, 30, 24)


def test_fly_11_3_revoker_without_trick_also_pays_remise() -> None:
    """FLY-11.3, FLY-8.4: the revoker who then takes no trick pays the remise too: 25 + 5 + 5 = 35."""
    states = trick_by_trick(stand_all(position(REVOKE, revoke_mode="penalize")), REVOKE_TRICKS)
    assert [s.records for s in states] == [(25, 24, 30), (25, 23, 30), (25, 22, 30), (25, 21, 30), (30, 20, 35)]
    assert states[-1].tricks_taken == (0, 5, 0)


def test_fly_11_1_revoke_refused_by_default() -> None:
    """FLY-11.1, FLY-6.3: by default the same revoke is refused and nothing changes."""
    d = play(stand_all(position(REVOKE)), "9C KC")
    assert_refused(d, fly.Play(card("8H")), "FLY-6.3")


# 12. Variants and presets


@pytest.mark.parametrize(("flush_wins", "over"), [(True, True), (False, False)])
def test_fly_12_1_flush_wins_the_deal(flush_wins: bool, over: bool) -> None:
    """FLY-12.1: with flush_wins=True five clubs win all five tricks without play; the others pay the remise."""
    d = stand_all(position(("7C 8C 9C TC JC", "KH 7D 8D 9D TD", "8H 9H QC 7S 8S"), flush_wins=flush_wins))
    assert d.is_over is over
    if over:
        assert d.tricks_taken == (5, 0, 0)
        assert d.records == (20, 30, 30)
    else:
        assert d.phase is fly.Phase.PLAY


@pytest.mark.parametrize(("players", "stock"), [(3, 16), (4, 15), (5, 22), (6, 21)])
def test_fly_12_2_mouche_1718_preset(players: int, stock: int) -> None:
    """FLY-12.2: the "mouche_1718" preset — ace below jack, decks 32/36/48/52, 3+2 deal, anticlockwise,
    dealer swaps the turn-up, flush wins, no A♠ rule."""
    rules = fly.FlyRules.preset("mouche_1718", players=players)
    assert rules.ace_rank == "below_jack"
    assert rules.deal_packets == (3, 2)
    assert rules.direction == "anticlockwise"
    assert rules.turnup_use == "dealer_swap"
    assert rules.flush_wins is True
    assert rules.ace_of_spades_mode == "none"
    assert len(fly.new_match(rules, seed=2, dealer=0).deal.stock) == stock


def test_fly_12_2_default_preset_and_unknown_name() -> None:
    """FLY-12.2: the "default" preset is FlyRules(players=n); an unknown preset name is invalid."""
    assert fly.FlyRules.preset("default", players=4) == fly.FlyRules(players=4)
    with pytest.raises(InvalidRules):
        fly.FlyRules.preset("no_such_preset", players=4)
    assert isinstance(fly.RULES_VERSION, int)


def test_fly_12_2_a_preset_s_deck_follows_the_players_unless_overridden() -> None:
    """FLY-12.2: "mouche_1718" picks its deck by the number of players, unless ``deck_size`` is
    given; "default" keeps the default decks; any option may be overridden; an unknown name or a
    bad number of players is refused, naming the option."""
    assert fly.FlyRules.preset("default", players=5).deck_size == 52
    assert fly.FlyRules.preset("mouche_1718", players=5).deck_size == 48
    assert fly.FlyRules.preset("mouche_1718", players=5, deck_size=52).deck_size == 52
    assert fly.FlyRules.preset("mouche_1718") == fly.FlyRules.preset("mouche_1718", players=4)
    clockwise = fly.FlyRules.preset("mouche_1718", players=4, direction="clockwise")
    assert (clockwise.direction, clockwise.ace_rank, clockwise.deck_size) == ("clockwise", "below_jack", 36)
    with pytest.raises(InvalidRules) as caught:
        fly.FlyRules.preset("mouche", players=4)
    assert caught.value.option == "preset"
    assert caught.value.detail == "FLY-12.2: unknown preset 'mouche' (known: default, mouche_1718)"
    for players in (8, [3], 3.0):
        with pytest.raises(InvalidRules) as caught:
            fly.FlyRules.preset("mouche_1718", players=players)  # type: ignore[arg-type]
        assert caught.value.option == "players"
