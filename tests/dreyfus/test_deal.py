"""Sections 2 and 3 of specs/dreyfus.md: dealer, packets, talon, the contract cycle."""

from __future__ import annotations

import pytest

from fly_rules import Card, CardSet, RuleViolation, Suit
from fly_rules.cards import DECK_48
from fly_rules.dreyfus import DreyfusRules, Play, new_deal, new_match
from fly_rules.dreyfus.deal import contract_of, deal_cards, draw_first_dealer, next_dealer
from fly_rules.engine import shuffled

from .helpers import deal, finish_deal, layout, stand_all


def test_drf_2_1_first_dealer_by_lot_then_left() -> None:
    """DRF-2.1: without a dealer the lot decides (the lowest card), and the deal passes left."""
    lot = shuffled(DECK_48, 11, -1)[:3]
    lowest = min(range(3), key=lambda seat: (lot[seat].rank, lot[seat].suit))
    assert draw_first_dealer(DreyfusRules(), 11) == lowest
    assert new_match(DreyfusRules(), seed=11).first_dealer == lowest
    assert {draw_first_dealer(DreyfusRules(), seed) for seed in range(30)} == {0, 1, 2}
    assert next_dealer(DreyfusRules(), 2) == 0
    assert next_dealer(DreyfusRules(dealer_rotation="right"), 0) == 2


def test_drf_2_1_the_deal_passes_left_between_deals() -> None:
    """DRF-2.1: the second deal of a match is dealt by the first dealer's left neighbour."""
    m = finish_deal(new_match(DreyfusRules(), seed=5, dealer=1))
    assert m.deal.dealer == 2
    assert m.to_move == 0


def test_drf_2_2_packets_of_three_to_eldest_next_dealer_talon() -> None:
    """DRF-2.2: cards go three at a time to eldest, the next player, the dealer, then the talon."""
    cards = [Card.parse(c) for c in " ".join(" ".join(x) for x in layout()[0] + [layout()[1]]).split()]
    hands, talon = deal_cards(DreyfusRules(), cards, 1)
    order = [c.index for c in cards]
    assert hands[2] & (1 << order[0])
    assert hands[2] & (1 << order[2])
    assert hands[0] & (1 << order[3])
    assert hands[1] & (1 << order[6])
    assert talon[-1] == order[9]
    assert [h.bit_count() for h in hands] == [12, 12, 12]
    assert len(talon) == 12


def test_drf_2_2_other_packet_sizes() -> None:
    """DRF-2.2: with packets of twelve, eldest gets the first twelve cards dealt."""
    cards = shuffled(DECK_48, 1, 0)
    hands, _ = deal_cards(DreyfusRules(deal_packet_size=12), cards, 2)
    assert hands[0] == CardSet.of(cards[:12]).mask


def test_drf_2_3_the_last_card_dealt_to_the_talon_is_on_top() -> None:
    """DRF-2.3: the talon's top card is the last card dealt to it."""
    cards = shuffled(DECK_48, 9, 0)
    _, talon = deal_cards(DreyfusRules(), cards, 0)
    assert talon[0] == cards[-1].index
    assert talon[-1] == cards[9].index


def _masks(hands: list[list[str]]) -> tuple[int, ...]:
    return tuple(CardSet.parse(" ".join(hand)).mask for hand in hands)


def _indices(talon: list[str]) -> tuple[int, ...]:
    return tuple(Card.parse(card).index for card in talon)


@pytest.mark.parametrize(
    ("change", "rule", "message"),
    [
        ("short hand", "DRF-2.4", "hand 1 holds 11 cards, not 12"),
        ("long talon", "DRF-2.4", "the talon holds 13 distinct cards, not 12"),
        ("repeat in hand", "DRF-2.4", "5H appears twice in hand 1"),
        ("repeat across", "DRF-2.4", "a card is dealt twice"),
        ("four hands", "DRF-2.4", "a deal has three hands, not 4"),
        ("repeat in talon", "DRF-2.4", "the talon holds 11 distinct cards, not 12"),
        ("a two", "DRF-1.2", "the twos are not in play"),
    ],
)
def test_drf_2_4_irregular_deals_are_refused(change: str, rule: str, message: str) -> None:
    """DRF-2.4: hands or talon of the wrong size, or a card dealt twice, is no deal; the error
    says what is wrong and holds the offending part (DRF-1.2: a two is not in the deck)."""
    hands, talon = layout()
    if change == "short hand":
        hands[1] = hands[1][1:]
        offending: object = 1
    elif change == "long talon":
        talon = [*talon, "3S"]
        offending = _indices(talon)
    elif change == "repeat in hand":
        hands[1] = [*hands[1][1:], hands[1][2]]
        offending = Card.parse("5H")
    elif change == "repeat across":
        hands[1][0] = hands[0][0]
        offending = None
    elif change == "four hands":
        hands = [*hands, talon]
        offending = _masks(hands)
    elif change == "repeat in talon":
        talon = [*talon[1:], talon[1]]  # twelve cards, eleven distinct
        offending = _indices(talon)
    else:
        hands[2][0] = "2D"
        offending = Card.parse("2D")
    with pytest.raises(RuleViolation, match=f"^{rule}: {message}$") as caught:
        new_deal(DreyfusRules(), hands, talon, "S", 0)
    assert caught.value.rule == rule
    assert caught.value.offending == offending


def test_drf_2_4_bad_dealer_records_or_rules_are_refused() -> None:
    """DRF-2.4: a seat out of range, records that are not three non-negative ints or a non-rules
    object are refused, each error naming what is wrong (DRF-2.1: the dealer is a seat)."""
    hands, talon = layout()
    with pytest.raises(RuleViolation, match=r"^DRF-2.1: the dealer must be a seat 0 to 2, not 3$") as caught:
        new_deal(DreyfusRules(), hands, talon, "S", 3)
    assert caught.value.offending == 3
    bad_records: tuple[tuple[str, tuple[object, ...]], ...] = (
        ("upper", (0, -1, 0)),
        ("lower", (0, 1.5, 0)),
        ("lower", (True, 0, 0)),
        ("upper", (0, 0)),
    )
    for name, bad in bad_records:
        with pytest.raises(
            RuleViolation, match=rf"^DRF-2.4: {name} records must be three whole numbers >= 0 of at most 100 digits"
        ) as caught:
            new_deal(DreyfusRules(), hands, talon, "S", 0, **{name: bad})  # type: ignore[arg-type]
        assert caught.value.offending == bad
    with pytest.raises(TypeError, match="^rules must be DreyfusRules, not object$"):
        new_deal(object(), hands, talon, "S", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^rules must be DreyfusRules, not object$"):
        new_match(object(), seed=1)  # type: ignore[arg-type]
    for seed, dealer in ((1.5, None), (True, 0), (None, 1)):
        with pytest.raises(TypeError, match=rf"^a seed must be an int or a str, not {seed!r}$"):
            new_match(DreyfusRules(), seed=seed, dealer=dealer)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"^DRF-2.1: the dealer must be a seat 0 to 2, not 5$") as caught:
        new_match(DreyfusRules(), seed=1, dealer=5)
    assert caught.value.offending == 5


def test_drf_2_4_an_explicit_deal_reads_cards_and_contracts_as_text() -> None:
    """DRF-2.4: an explicit deal takes card sets or text (spaces or commas) and the contract as
    a Suit, its letter, or None / "NT" for no trump."""
    hands, talon = layout()
    as_sets = [CardSet.parse(" ".join(hand)) for hand in hands]
    d = new_deal(DreyfusRules(), as_sets, ",".join(talon), None, 0)
    assert d.contract is None
    assert d.talon == tuple(Card.parse(card) for card in talon)
    assert d.hands == tuple(as_sets)
    assert new_deal(DreyfusRules(), hands, talon, "NT", 0).contract is None
    assert new_deal(DreyfusRules(), hands, talon, "h", 0).contract is Suit.HEARTS
    assert new_deal(DreyfusRules(), hands, talon, Suit.CLUBS, 0).contract is Suit.CLUBS


def test_drf_3_1_spades_clubs_diamonds_hearts() -> None:
    """DRF-3.1: the first four deals have spades, clubs, diamonds, hearts as trumps."""
    rules = DreyfusRules()
    assert [contract_of(rules, n) for n in range(4)] == [Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS]
    assert new_match(rules, seed=1, dealer=0).contract is Suit.SPADES


def test_drf_3_2_the_fifth_deal_is_no_trump() -> None:
    """DRF-3.2: the fifth deal is without trumps; a void player may then play any card."""
    assert contract_of(DreyfusRules(), 4) is None
    s = stand_all(deal(contract=None)).apply(Play("3S"))
    assert len(s.legal_actions()) == 12


def test_drf_3_3_cycle_repeats_and_dealer_of_deal_4_is_dealer_of_deal_1() -> None:
    """DRF-3.3 (edge case 6): deal 6 is spades again, and deal 4 has deal 1's dealer."""
    m = new_match(DreyfusRules(max_deals=6), seed=2, dealer=1)
    contracts, dealers = [m.contract], [m.deal.dealer]
    for _ in range(5):
        m = finish_deal(m)
        if m.is_over:
            break
        contracts.append(m.contract)
        dealers.append(m.deal.dealer)
    assert contracts[:6] == [Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None, Suit.SPADES][: len(contracts)]
    assert len(contracts) == 6
    assert dealers[3] == dealers[0]
    assert contract_of(DreyfusRules(), 5) is Suit.SPADES
