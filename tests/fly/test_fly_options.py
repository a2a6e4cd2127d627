"""Rules options of Fly and the engine mechanics around them: validation, seats and
direction, the deal, the dealer's rotation, the turn-up, declaration modes, the stock."""

from __future__ import annotations

from typing import Any

import pytest

from fly_rules import Card, CardSet, Exchange, Fold, InvalidRules, Play, RuleViolation, Stand, Suit
from fly_rules.cards import ALL_CARDS
from fly_rules.fly import FlyDeal, FlyRules, Phase, SwapTrump, new_deal, new_match
from fly_rules.fly.deal import deal_cards, draw_first_dealer
from tests.fly.helpers import play_out_first_deal

THREE = ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"]
RULES3 = FlyRules(players=3)


def deal3(rules: FlyRules | None = None, stock: str = "7H 7D 8C", **kw: object) -> FlyDeal:
    """A three-player position: hearts trump (8♥ turned), a short stock."""
    return new_deal(rules or FlyRules(players=3), hands=THREE, trump_card="8H", stock=stock, **kw)  # type: ignore[arg-type]


def test_fly_1_1_players_three_to_seven() -> None:
    """FLY-1.1: 3 to 7 players; anything else is refused naming the option and the rule."""
    for n in range(3, 8):
        assert FlyRules(players=n).players == n
    for bad in (2, 8, "4", 4.0):
        with pytest.raises(InvalidRules, match="FLY-1.1") as caught:
            FlyRules(players=bad)  # type: ignore[arg-type]
        assert caught.value.option == "players"


@pytest.mark.parametrize(
    ("option", "value", "detail"),
    [
        ("direction", "left", "must be one of 'clockwise', 'anticlockwise', not 'left'"),
        ("forced_player", "dealer", "must be one of None, 'dealer_if_all_passed', 'eldest', not 'dealer'"),
        ("deck_size", 40, "CARD-2.5: no standard deck has 40 cards (expected 32, 36, 48 or 52)"),
        ("deck_size", 32, "FLY-1.3: 7 hands of 5 and a trump card need 36 cards, the deck has 32"),
        ("deal_packets", (2, 2, 2), "FLY-3.1: packets, repeated, must make up exactly 5 cards, not (2, 2, 2)"),
        ("deal_packets", (0,), "must be whole numbers from 1 to 5, not (0,)"),
        ("deal_packets", (), "must be whole numbers from 1 to 5, not ()"),
        ("deal_packets", (2, 3.0), "must be whole numbers from 1 to 5, not (2, 3.0)"),
        ("deal_packets", 3, "must be a sequence of whole numbers, not 3"),
        ("max_exchange", 6, "FLY-4.3: must be a whole number from 1 to 5, not 6"),
        ("max_exchange", 0, "FLY-4.3: must be a whole number from 1 to 5, not 0"),
        ("max_exchange", True, "FLY-4.3: must be a whole number from 1 to 5, not True"),
        ("total_exchange_cap", 0, "FLY-4.3: must be None or a whole number from 1 to 52, not 0"),
        ("total_exchange_cap", 2.0, "FLY-4.3: must be None or a whole number from 1 to 52, not 2.0"),
        ("start_record", 0, "FLY-8.1: must be a whole number from 1 to 1000, not 0"),
        ("start_record", -3, "FLY-8.1: must be a whole number from 1 to 1000, not -3"),
        ("trick_value", 0, "FLY-8.2: must be a whole number from 1 to 1000, not 0"),
        ("must_head_trick", 1, "must be True or False, not 1"),
        ("flush_wins", None, "must be True or False, not None"),
        ("ace_of_spades_discardable", "yes", "must be True or False, not 'yes'"),
        ("may_fold_after_exchange", 0, "must be True or False, not 0"),
        ("trump_duty", "sometimes", "must be one of 'any_trump', 'overtrump', 'overtrump_or_free', not 'sometimes'"),
        ("max_deals", 0, "FLY-10.1: must be None or a whole number from 1 to 1000000, not 0"),
        ("max_deals", True, "FLY-10.1: must be None or a whole number from 1 to 1000000, not True"),
    ],
)
def test_fly_1_3_inconsistent_options_are_refused(option: str, value: object, detail: str) -> None:
    """FLY-1.3, FLY-3.1, FLY-4.3, FLY-8.1, FLY-8.2, FLY-10.1: out-of-range or inconsistent options
    raise InvalidRules naming the option, the value and what is allowed."""
    with pytest.raises(InvalidRules) as caught:
        FlyRules(players=7, **{option: value})  # type: ignore[arg-type]
    assert (caught.value.option, caught.value.detail) == (option, detail)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 7, "deck_size": 36},
        {"players": 3, "max_exchange": 1},
        {"players": 3, "max_exchange": 5},
        {"players": 3, "total_exchange_cap": 1},
        {"players": 3, "start_record": 1},
        {"players": 3, "trick_value": 1},
        {"players": 3, "max_deals": 1},
        {"players": 3, "deal_packets": (5,)},
        {"players": 3, "deal_packets": (1, 4)},
    ],
)
def test_fly_1_3_the_edge_values_of_each_range_are_accepted(options: dict[str, Any]) -> None:
    """FLY-1.3 / FLY-3.1 / FLY-4.3 / FLY-8.1 / FLY-8.2 / FLY-10.1: each range includes its ends:
    a deck exactly large enough, 1 and 5 cards exchanged, a cap, record, trick value and deal limit of 1."""
    rules = FlyRules(**options)
    assert {name: getattr(rules, name) for name in options} == options


def test_fly_1_3_default_deck_by_players() -> None:
    """FLY-1.3: 32, 36, 52, 52, 52 cards for 3 to 7 players; the deck is the standard pack of that size."""
    assert [FlyRules(players=n).deck_size for n in range(3, 8)] == [32, 36, 52, 52, 52]
    assert len(FlyRules(players=4).deck) == 36
    assert min(c.rank for c in FlyRules(players=3).deck) == 7
    assert FlyRules(players=5, deck_size=48).non_default_options() == {"deck_size": 48}


def test_fly_1_4_ace_rank_sets_the_rank_order() -> None:
    """FLY-1.4: ace high by default; below_jack ranks K Q J A 10."""
    assert FlyRules().rank_order.beats(Card.parse("AH"), Card.parse("KH"))
    assert not FlyRules(ace_rank="below_jack").rank_order.beats(Card.parse("AH"), Card.parse("KH"))


def test_fly_1_2_direction_sets_left() -> None:
    """FLY-1.2: left of s is s+1 clockwise and s-1 anticlockwise; play and declarations follow it."""
    assert [FlyRules(players=4).left_of(s) for s in range(4)] == [1, 2, 3, 0]
    assert [FlyRules(players=4, direction="anticlockwise").left_of(s) for s in range(4)] == [3, 0, 1, 2]
    d = deal3(FlyRules(players=3, direction="anticlockwise"), dealer=0)
    assert d.to_move == 2
    d = d.apply(Stand())
    assert d.to_move == 1


def test_fly_1_2_views_need_a_real_seat() -> None:
    """FLY-1.2: a view is of a seat 0..n-1."""
    with pytest.raises(ValueError, match="FLY-1.2"):
        deal3().view(3)


def test_fly_2_1_first_dealer_by_lot_from_the_seed() -> None:
    """FLY-2.1: without a given dealer the first is drawn by lot, reproducibly from the seed."""
    rules = FlyRules(players=5)
    dealers = {draw_first_dealer(rules, seed) for seed in range(60)}
    assert dealers == set(range(5))
    assert new_match(rules, seed=9).dealer == draw_first_dealer(rules, 9)
    assert new_match(rules, seed=9, dealer=3).dealer == 3
    with pytest.raises(RuleViolation, match="FLY-1.2"):
        new_match(rules, seed=9, dealer=5)


def test_fly_2_2_deal_passes_left_after_every_deal_even_void() -> None:
    """FLY-2.2: the next deal is dealt by the player on the dealer's left, also after a void deal."""
    m = new_match(FlyRules(players=4), seed=3, dealer=2)
    m = play_out_first_deal(m)
    assert m.deal_number == 1
    assert m.dealer == 3
    # a void deal (everyone folds) also passes the deal: find a deal where nobody holds the A♠
    seed = next(n for n in range(100) if all(Card.parse("AS") not in h for h in new_match(RULES3, seed=n).deal.hands))
    m2 = new_match(RULES3, seed=seed, dealer=0)
    for _ in range(3):
        m2 = m2.apply(Fold())
    assert m2.previous_deal is not None
    assert m2.previous_deal.void
    assert m2.deal_number == 1
    assert m2.dealer == 1
    assert m2.records == (25, 25, 25)


def test_fly_5_4_redeal_same_dealer_keeps_the_dealer() -> None:
    """FLY-5.4: under all_fold="redeal_same_dealer" a deal everyone folds is dealt again by the same dealer."""
    rules = FlyRules(players=3, all_fold="redeal_same_dealer")
    for seed in range(40):
        m = new_match(rules, seed=seed, dealer=1)
        while m.deal_number == 0 and Fold() in m.legal_actions():
            m = m.apply(Fold())
        if m.deal_number == 1:
            assert m.previous_deal is not None
            assert m.previous_deal.void
            assert m.previous_deal.redeal
            assert m.dealer == 1
            assert m.records == (25, 25, 25)
            return
    raise AssertionError("no all-fold deal found")


def test_fly_3_1_deal_order_one_at_a_time_or_in_packets() -> None:
    """FLY-3.1: one card at a time from the dealer's left; with packets (3, 2) three then two each."""
    order = ALL_CARDS[:16]
    hands, trump, stock = deal_cards(FlyRules(players=3), order, dealer=0)
    # seat 1 gets cards 0, 3, 6, 9, 12; seat 2 gets 1, 4, ...; the dealer last
    assert hands[1] == sum(1 << i for i in (0, 3, 6, 9, 12))
    assert hands[0] == sum(1 << i for i in (2, 5, 8, 11, 14))
    assert trump == ALL_CARDS[15]
    assert stock == ()
    hands, trump, _ = deal_cards(FlyRules(players=3, deal_packets=(3, 2)), order, dealer=2)
    assert hands[0] == sum(1 << i for i in (0, 1, 2, 9, 10))
    assert hands[2] == sum(1 << i for i in (6, 7, 8, 13, 14))
    assert FlyRules(deal_packets=(2, 3)).packet_rounds == (2, 3)


def test_fly_3_2_trump_is_the_turned_cards_suit() -> None:
    """FLY-3.2: the card after the hands is turned up and its suit is trump for the deal."""
    m = new_match(FlyRules(players=4), seed=5, dealer=0)
    d = m.deal
    assert d.trump == d.trump_card.suit
    assert d.trump_card not in CardSet.of(d.stock)
    assert all(d.trump_card not in hand for hand in d.hands)
    assert len(d.stock) == 36 - 21


def test_fly_3_3_dealer_swap_takes_the_turn_up() -> None:
    """FLY-3.3: under turnup_use="dealer_swap" the dealer may, once, take the turn-up for a card of his hand."""
    rules = FlyRules(players=3, turnup_use="dealer_swap")
    d = deal3(rules).apply(Stand()).apply(Stand())
    assert d.to_move == 0
    swaps = [a for a in d.legal_actions() if isinstance(a, SwapTrump)]
    assert len(swaps) == 5
    d2 = d.apply(SwapTrump("7C"))
    assert Card.parse("8H") in d2.hands[0]
    assert Card.parse("7C") in d2.discards
    assert d2.trump is Suit.HEARTS
    assert d2.to_move == 0
    assert not any(isinstance(a, SwapTrump) for a in d2.legal_actions())
    with pytest.raises(RuleViolation, match="FLY-3.3") as caught:
        d2.apply(SwapTrump("8D"))
    assert caught.value.rule == "FLY-3.3"
    with pytest.raises(RuleViolation, match="FLY-3.3"):
        d.apply(SwapTrump("QS"))
    with pytest.raises(RuleViolation, match="FLY-3.3"):
        deal3().apply(Stand()).apply(Stand()).apply(SwapTrump("7C"))
    assert d2.view(1).declarations[0] == (d2.view(1).declarations[0][0],)
    assert d2.view(1).declarations[0][0].kind == "swap"


def test_fly_3_3_last_stock_card_is_the_turn_up() -> None:
    """FLY-3.3: under turnup_use="last_stock_card" the turn-up is drawn after the stock runs out."""
    rules = FlyRules(players=3, turnup_use="last_stock_card")
    d = deal3(rules, stock="7H")
    exchanges = [a for a in d.legal_actions() if isinstance(a, Exchange)]
    assert max(len(a.cards) for a in exchanges) == 2
    d = d.apply(Exchange("9H TH"))
    assert Card.parse("7H") in d.hands[1]
    assert Card.parse("8H") in d.hands[1]
    assert not d.turnup_here
    assert [a for a in d.legal_actions() if isinstance(a, Exchange)] == []


def test_fly_3_4_replacements_come_from_the_top() -> None:
    """FLY-3.4, FLY-4.4: replacements are the top cards of the stock, in order; discards are dead."""
    d = deal3(stock="7H 7D 8C").apply(Exchange("9H TH"))
    assert d.hands[1] == CardSet.parse("AH QH JH 7H 7D")
    assert d.stock == (Card.parse("8C"),)
    assert d.discards == CardSet.parse("9H TH")


def test_fly_4_1_fold_round_then_exchange() -> None:
    """FLY-4.1: under declaration_mode="fold_round_then_exchange" all decide play or fold first, then exchange."""
    rules = FlyRules(players=3, declaration_mode="fold_round_then_exchange")
    d = deal3(rules)
    assert d.legal_actions() == (Stand(), Fold())
    with pytest.raises(RuleViolation, match="FLY-4.1"):
        d.apply(Exchange("9H"))
    d = d.apply(Stand()).apply(Fold()).apply(Stand())  # seat 1 plays, seat 2 folds, seat 0 (holding A♠) plays
    assert d.exchanges.declaration_round == 1
    assert d.to_move == 1
    assert Fold() not in d.legal_actions()
    with pytest.raises(RuleViolation, match="FLY-4.6"):
        d.apply(Fold())
    d = d.apply(Exchange("9H")).apply(Stand())
    assert d.phase is Phase.PLAY
    assert d.active == (True, True, False)


def test_fly_4_6_may_fold_after_exchange_gives_a_second_decision() -> None:
    """FLY-4.6: with may_fold_after_exchange the exchanger then stands or folds; by default he is committed."""
    rules = FlyRules(players=3, may_fold_after_exchange=True)
    d = deal3(rules).apply(Exchange("9H"))
    assert d.to_move == 1
    assert d.legal_actions() == (Stand(), Fold())
    with pytest.raises(RuleViolation, match="FLY-4.6"):
        d.apply(Exchange("TH"))
    d = d.apply(Fold())
    assert d.to_move == 2
    assert d.active[1] is False
    committed = deal3().apply(Exchange("9H"))
    assert committed.to_move == 2


def test_fly_4_3_exchange_sizes_and_total_cap() -> None:
    """FLY-4.3: an exchange takes 1 to max_exchange cards of one's own hand, within any total cap."""
    d = deal3(FlyRules(players=3, max_exchange=2), stock="7H 7D 8C QC")
    sizes = {len(a.cards) for a in d.legal_actions() if isinstance(a, Exchange)}
    assert sizes == {1, 2}
    with pytest.raises(RuleViolation, match="FLY-4.3"):
        d.apply(Exchange("9H TH JH"))
    with pytest.raises(RuleViolation, match="FLY-4.3"):
        d.apply(Exchange(""))
    with pytest.raises(RuleViolation, match="FLY-4.3"):
        d.apply(Exchange("AS"))  # not his card
    capped = deal3(FlyRules(players=3, total_exchange_cap=3), stock="7H 7D 8C QC")
    capped = capped.apply(Exchange("9H TH"))
    assert {len(a.cards) for a in capped.legal_actions() if isinstance(a, Exchange)} == {1}
    with pytest.raises(RuleViolation, match="only 1 more"):
        capped.apply(Exchange("7S 8S"))


@pytest.mark.parametrize("mode", ["folded_hands", "reshuffle_discards"])
def test_fly_4_5_stock_refills_from_folded_hands_or_discards(mode: str) -> None:
    """FLY-4.5: when the stock is short, folded hands or the discards become a new stock (by the option)."""
    rules = FlyRules(players=3, stock_exhaustion=mode)  # type: ignore[arg-type]
    d = deal3(rules, stock="7H")
    d = d.apply(Fold()) if mode == "folded_hands" else d.apply(Exchange("9H"))
    assert d.to_move == 2
    limit = max(len(a.cards) for a in d.legal_actions() if isinstance(a, Exchange))
    assert limit == (5 if mode == "folded_hands" else 1)
    d = d.apply(Exchange("7S 8S" if mode == "folded_hands" else "7S"))
    deck = CardSet.parse(" ".join(THREE) + " 8H 7H")
    everything = CardSet.of(d.stock) | d.discards | CardSet.of([d.trump_card])
    for hand in d.hands:
        everything |= hand
    assert everything == deck
    assert d.exchanges.refills == 1
    if mode == "folded_hands":
        assert len(d.hands[1]) == 0
    assert len(d.hands[2]) == 5


def test_fly_4_7_ace_of_spades_discard_option() -> None:
    """FLY-4.7: the A♠ may be discarded by default; with ace_of_spades_discardable=False it may not."""
    d = deal3().apply(Stand()).apply(Stand())
    assert Exchange("AS") in d.legal_actions()
    strict = deal3(FlyRules(players=3, ace_of_spades_discardable=False)).apply(Stand()).apply(Stand())
    assert all(Card.parse("AS") not in a.cards for a in strict.legal_actions() if isinstance(a, Exchange))
    with pytest.raises(RuleViolation, match="FLY-4.7"):
        strict.apply(Exchange("AS"))


def test_fly_5_3_forced_players() -> None:
    """FLY-5.3: forced_player makes eldest, or the dealer after everyone folded, play."""
    eldest = deal3(FlyRules(players=3, forced_player="eldest"))
    assert Fold() not in eldest.legal_actions()
    with pytest.raises(RuleViolation, match="FLY-5.3"):
        eldest.apply(Fold())
    hands = ["7S 8S 9C TC JC", "AH QH JH TH 9H", "KS KH 7C 8D 9S"]
    d = new_deal(FlyRules(players=3, forced_player="dealer_if_all_passed"), hands=hands, trump_card="8H", stock="7H")
    d = d.apply(Fold()).apply(Fold())
    assert d.to_move == 0
    with pytest.raises(RuleViolation, match="FLY-5.3"):
        d.apply(Fold())


def test_fly_5_5_last_speaker_must_play_with_one_other() -> None:
    """FLY-5.5: under lone_player="last_speaker_must_play" the last to declare may not leave one player alone."""
    hands = ["7S 8S 9C TC JC", "AH QH JH TH 9H", "KS KH 7C 8D 9S"]
    d = new_deal(FlyRules(players=3, lone_player="last_speaker_must_play"), hands=hands, trump_card="8H", stock="7H")
    d = d.apply(Stand()).apply(Fold())
    with pytest.raises(RuleViolation, match="FLY-5.5"):
        d.apply(Fold())
    voided = new_deal(FlyRules(players=3, lone_player="void"), hands=hands, trump_card="8H", stock="7H")
    voided = voided.apply(Stand()).apply(Fold()).apply(Fold())
    assert voided.void
    assert voided.is_over
    assert voided.records == (25, 25, 25)


def test_fly_5_1_view_shows_only_public_facts() -> None:
    """FLY-5.1: a seat sees its hand, the trump card, stock size and how many cards others exchanged, not which."""
    d = deal3().apply(Exchange("9H TH"))
    view = d.view(2)
    assert view.hand == d.hands[2]
    assert view.stock_size == 1
    assert view.declarations[1][0].kind == "exchange"
    assert view.declarations[1][0].count == 2
    assert view.trump is Suit.HEARTS
    assert "9H" not in repr(view)


def test_fly_10_3_over_deal_accepts_nothing() -> None:
    """FLY-10.3: once a deal or match is over no action is accepted."""
    hands = ["7S 8S 9C TC JC", "AH QH JH TH 9H", "KS KH 7C 8D 9D"]
    d = new_deal(FlyRules(players=3), hands=hands, trump_card="8H", stock="7H")
    d = d.apply(Fold()).apply(Fold()).apply(Fold())
    assert d.is_over
    assert d.void
    assert d.legal_actions() == ()
    with pytest.raises(RuleViolation, match="FLY-10.3"):
        d.apply(Stand())
    m = new_match(FlyRules(players=3, start_record=1, max_deals=1), seed=1)
    while not m.is_over:
        m = m.apply(m.legal_actions()[-1])
    with pytest.raises(RuleViolation, match="FLY-10.3"):
        m.apply(Stand())


def test_fly_10_1_max_deals_ends_without_winner() -> None:
    """FLY-10.1: a match stops after max_deals deals even without a winner."""
    m = new_match(FlyRules(players=7, max_deals=1), seed=2, dealer=0)
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    assert m.deal_number == 0
    assert m.is_over
    assert m.winner is None  # one deal writes off at most 5 + 10 of 25
    with pytest.raises(ValueError, match="max_deals"):
        FlyRules(max_deals=0)


def test_fly_10_2_standings_rank_winner_then_records() -> None:
    """FLY-10.2: standings list the winner first, then the others by record, lowest first."""
    m = new_match(FlyRules(players=4, start_record=3), seed=4, dealer=0)
    while not m.is_over:
        m = m.apply(m.legal_actions()[0])
    order = m.standings()
    assert m.winner is not None
    assert order[0] == m.winner
    rest = [m.records[s] for s in order[1:]]
    assert rest == sorted(rest)


def test_fly_6_2_wrong_kind_of_action_in_each_phase() -> None:
    """FLY-4.1, FLY-4.6, FLY-6.2: no card in the exchange, no declaration or fold in the play."""
    d = deal3()
    with pytest.raises(RuleViolation, match="FLY-4.1"):
        d.apply(Play("AH"))
    d = d.apply(Stand()).apply(Stand()).apply(Stand())
    assert d.phase is Phase.PLAY
    with pytest.raises(RuleViolation, match="FLY-4.1"):
        d.apply(Stand())
    with pytest.raises(RuleViolation, match="FLY-4.6"):
        d.apply(Fold())
    with pytest.raises(RuleViolation, match="FLY-6.2") as caught:
        d.apply(Play("KS"))  # held by seat 0, not the leader
    assert "does not hold" in str(caught.value)


def test_fly_new_deal_refuses_bad_positions() -> None:
    """FLY-3.1, FLY-1.3, FLY-8.1, FLY-9.1: an explicit position must be a real deal."""
    rules = FlyRules(players=3)
    with pytest.raises(RuleViolation, match="FLY-3.1"):
        new_deal(rules, hands=THREE[:2], trump_card="8H")
    with pytest.raises(RuleViolation, match="FLY-3.1"):
        new_deal(rules, hands=[*THREE[:2], "7S 8S"], trump_card="8H")
    with pytest.raises(RuleViolation, match="FLY-1.3"):
        new_deal(rules, hands=THREE, trump_card="2H")
    with pytest.raises(RuleViolation, match="dealt twice"):
        new_deal(rules, hands=THREE, trump_card="AS")
    with pytest.raises(RuleViolation, match="FLY-8.1"):
        new_deal(rules, hands=THREE, trump_card="8H", records=(25, 25))
    with pytest.raises(RuleViolation, match="FLY-9.1"):
        new_deal(rules, hands=THREE, trump_card="8H", records=(25, 0, 25))
    with pytest.raises(RuleViolation, match="FLY-1.2"):
        new_deal(rules, hands=THREE, trump_card="8H", dealer=3)
    with pytest.raises(TypeError):
        new_deal("rules", hands=THREE, trump_card="8H")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        new_match("rules", seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        new_match(rules, seed=1.5)  # type: ignore[arg-type]
    ok = new_deal(rules, hands=[CardSet.parse(h) for h in THREE], trump_card=Card.parse("8H"), stock=["7H"])
    assert ok == deal3(stock="7H")
