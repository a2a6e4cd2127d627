"""FLY-4, The exchange (specs/fly.md §4): each test named after the rule it checks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fly_rules import CardSet, RuleViolation, fly
from fly_rules.cards import ALL_CARDS
from fly_rules.fly.deal import refill_order
from tests.fly.helpers import (
    ACE_BONUS,
    AS,
    BASE,
    DEALER_HOLDS_ACE,
    ELDEST_HOLDS_ACE,
    REVOKE_HANDS,
    STOCK_SIZE,
    _fold_two_then_exchange_all,
    _stock_of_one,
    apply_all,
    assert_refused,
    card,
    first_cards,
    position,
    sliced,
    stand_all,
)


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


def test_fly_4_6_two_round_declarations_exchange_then_a_stand_only_confirmation() -> None:
    """FLY-4.6 (Decision) with FLY-4.1: under ``may_fold_after_exchange`` and the two-round declarations a
    player who exchanged in the exchange round is asked once more, and may only stand; a fold is refused
    under FLY-4.6, and his Stand passes the turn on."""
    d = position(REVOKE_HANDS, "9H", declaration_mode="fold_round_then_exchange", may_fold_after_exchange=True).apply(
        fly.Stand()
    )
    d = d.apply(fly.Stand()).apply(fly.Stand())  # the fold round: everyone plays
    assert d.to_move == 0
    d = d.apply(fly.Exchange(CardSet.parse("7D 8D")))
    assert d.to_move == 0
    assert d.legal_actions() == (fly.Stand(),)
    assert_refused(d, fly.Fold(), "FLY-4.6")
    d = d.apply(fly.Stand())
    assert d.to_move == 1
    assert fly.Fold() not in d.legal_actions()
    # The same exchange in the combined mode is followed by a real choice.
    c = position(REVOKE_HANDS, "9H", may_fold_after_exchange=True).apply(fly.Exchange(CardSet.parse("7D 8D")))
    assert (c.to_move, tuple(c.legal_actions())) == (0, (fly.Stand(), fly.Fold()))


def test_fly_4_7_ace_of_spades_may_not_be_swapped_for_the_turn_up_when_not_discardable() -> None:
    """FLY-4.7: with ``ace_of_spades_discardable=False`` the dealer's trump swap may not give up the A♠
    either (the issue's reproducer: he swapped it, then folded); other cards may still be swapped."""
    d = position(DEALER_HOLDS_ACE, "9H", turnup_use="dealer_swap", ace_of_spades_discardable=False)
    d = d.apply(fly.Stand()).apply(fly.Stand())
    assert_refused(d, fly.SwapTrump(AS), "FLY-4.7")
    assert fly.SwapTrump(card("8S")) in d.legal_actions()
    assert_refused(d, fly.Fold(), "FLY-5.2")


def test_fly_4_6_discarding_the_ace_of_spades_does_not_free_a_fold_after_exchange() -> None:
    """FLY-4.6 / FLY-5.2: under ``may_fold_after_exchange`` the holder who discards the A♠ is asked
    again, but may only stand."""
    d = position(ELDEST_HOLDS_ACE, "9H", may_fold_after_exchange=True).apply(fly.Exchange(CardSet.parse("AS")))
    assert d.to_move == 0
    assert AS not in d.hands[0]
    assert d.legal_actions() == (fly.Stand(),)
    assert_refused(d, fly.Fold(), "FLY-5.2")


def test_fly_4_6_other_discards_still_allow_a_fold_after_exchange() -> None:
    """FLY-4.6: the option still lets a player without the A♠ fold after his exchange."""
    d = position(DEALER_HOLDS_ACE, "9H", may_fold_after_exchange=True).apply(fly.Exchange(CardSet.parse("7C")))
    assert d.legal_actions() == (fly.Stand(), fly.Fold())
    assert d.apply(fly.Fold()).active == (False, True, True)


def test_fly_4_5_folded_hands_refill_is_shuffled_from_the_seed_or_canonical_without_one() -> None:
    """FLY-4.5 (``stock_exhaustion="folded_hands"``): the folded hands become the new stock, shuffled
    from the match's seed (the same seed, the same order); an explicit position without a seed uses
    them in canonical order."""
    rules = fly.FlyRules(players=7, stock_exhaustion="folded_hands")
    dealt = fly.new_match(rules, seed=2, dealer=0).deal
    seeded = _fold_two_then_exchange_all(dealt)
    again = _fold_two_then_exchange_all(fly.new_match(rules, seed=2, dealer=0).deal)
    assert seeded.hands[6] == again.hands[6] == CardSet.parse("AC 5D 9D AH 9S")
    position = fly.new_deal(
        rules,
        hands=list(dealt.hands),
        trump_card=dealt.trump_card,
        stock=list(dealt.stock),
        dealer=0,
        records=dealt.records,
    )
    assert _fold_two_then_exchange_all(position).hands[6] == CardSet.parse("5D AC 4D 9D JD")


@pytest.mark.parametrize(
    ("deal", "cards", "rule", "detail"),
    [
        (lambda: position(BASE), "", "FLY-4.3", "an exchange discards at least one card; to keep the hand, stand"),
        (lambda: position(BASE), "AC 7C", "FLY-4.3", "seat 0 does not hold AC"),
        (lambda: position(BASE, max_exchange=3), "AH KH QH 7C", "FLY-4.3", "at most 3 cards may be exchanged, not 4"),
        (
            lambda: position(BASE, total_exchange_cap=5).apply(fly.Exchange("QH 7C 8C")),
            "7D 8D 9D",
            "FLY-4.3",
            "only 2 more cards may be exchanged in this deal, not 3",
        ),
        (
            lambda: position(ACE_BONUS, ace_of_spades_discardable=False),
            "7C AS",
            "FLY-4.7",
            "the ace of spades may not be discarded",
        ),
        (_stock_of_one, "", "FLY-4.5", "the stock can replace only 1 cards, not 2"),
        (
            lambda: position(BASE, may_fold_after_exchange=True).apply(fly.Exchange("7C")),
            "8C",
            "FLY-4.6",
            "no exchange is open now: stand or fold",
        ),
        (
            lambda: position(BASE, declaration_mode="fold_round_then_exchange"),
            "7C",
            "FLY-4.1",
            "no exchange is open now: stand or fold",
        ),
    ],
)
def test_fly_4_3_exchange_refusals_name_the_rule_and_what_is_wrong(
    deal: Callable[[], fly.FlyDeal], cards: str, rule: str, detail: str
) -> None:
    """FLY-4.3 / FLY-4.5 / FLY-4.6 / FLY-4.7 / FLY-4.1: each refused exchange names its rule, what
    is wrong (with the numbers) and carries the action."""
    d = deal()
    action = fly.Exchange(cards) if cards or rule != "FLY-4.5" else first_cards(d, 2)
    with pytest.raises(RuleViolation) as caught:
        d.apply(action)
    assert (caught.value.rule, caught.value.detail) == (rule, detail)
    assert caught.value.offending == action


def test_fly_4_5_the_discards_refill_the_stock_twice_in_one_deal() -> None:
    """FLY-4.5: seven players exchanging five cards each run the 16-card stock out twice; each time
    the discards so far become the new stock, shuffled from the seed and the refill's number, and
    the deal counts its refills."""
    d = fly.new_match(fly.FlyRules(players=7, stock_exhaustion="reshuffle_discards"), seed=1, dealer=0).deal
    seen = []
    for _ in range(7):
        pool, top = d.discards, d.stock
        d = d.apply(first_cards(d, 5))
        seen.append((len(d.stock), d.exchanges.refills, len(d.discards)))
    assert seen == [(11, 0, 5), (6, 0, 10), (1, 0, 15), (11, 1, 5), (6, 1, 10), (1, 1, 15), (11, 2, 5)]
    refilled = refill_order(pool.mask, 1, 0, 1)
    assert d.stock == tuple(ALL_CARDS[i] for i in refilled[4:])
    assert d.hands[0] == CardSet.of([*top, *(ALL_CARDS[i] for i in refilled[:4])])
