"""The exchange under its options: when the dealer may take the trump card [FLY-3.3] [FLY-4.1]."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fly_rules import CardSet, RuleViolation, fly
from fly_rules.cards import ALL_CARDS
from fly_rules.fly.deal import refill_order
from tests.fly.test_fly_edge_cases import ACE_BONUS, BASE, apply_all, card, first_cards, position, sliced


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
    assert (d.to_move, d.exchanges.declaration_round) == (2, 1)
    # the exchange round: no fold, the swaps after the stand
    assert d.legal_actions()[:6] == (fly.Stand(), *(fly.SwapTrump(c) for c in CardSet.parse("8H 9H TH 7S 8S")))
    swapped = d.apply(swap)
    assert swapped.hands[2] == CardSet.parse("8H 9H TH 7H 8S")
    assert swapped.discards == CardSet.parse("7S")


def _stock_of_one(**options: Any) -> fly.FlyDeal:
    """Four players, seat 0 dealing: seats 1, 2 and 3 exchange 5, 5 and 4 cards; one card is left."""
    d = sliced(4, dealer=0, **options)
    for size in (5, 5, 4):
        d = d.apply(first_cards(d, size))
    return d


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


def test_fly_5_2_a_refused_fold_names_the_rule_and_carries_the_fold() -> None:
    """FLY-5.2: the A♠ holder's fold is refused, saying why, with the ``Fold`` as the value refused."""
    d = position(ACE_BONUS)
    with pytest.raises(RuleViolation) as caught:
        d.apply(fly.Fold())
    assert caught.value.rule == "FLY-5.2"
    assert caught.value.detail == "a player who held the ace of spades when his turn began may not fold"
    assert caught.value.offending == fly.Fold()


def test_fly_3_3_the_turn_up_as_the_last_stock_card_ends_the_draw() -> None:
    """FLY-3.3 / FLY-4.5: with one card left and ``turnup_use="last_stock_card"``, an exchange of two
    takes that card and the turn-up; nothing is refilled, even when discards could be."""
    d = _stock_of_one(turnup_use="last_stock_card", stock_exhaustion="reshuffle_discards")
    seat = d.to_move
    assert seat is not None
    after = d.apply(first_cards(d, 2))
    assert after.turnup_here is False
    assert after.stock == ()
    assert len(after.hands[seat]) == 5
    assert d.trump_card in after.hands[seat]
    assert after.exchanges.refills == 0
    assert len(after.discards) == len(d.discards) + 2


@pytest.mark.parametrize(
    ("hands", "options", "before", "rule", "detail"),
    [
        pytest.param(
            BASE,
            {"declaration_mode": "fold_round_then_exchange"},
            3,
            "FLY-4.6",
            "after the fold round a player who stayed in must play",
            id="exchange round",
        ),
        pytest.param(
            ACE_BONUS, {}, 0, "FLY-5.2", "a player who held the ace of spades when his turn began may not fold", id="A♠"
        ),
        pytest.param(
            BASE,
            {"forced_player": "eldest"},
            0,
            "FLY-5.3",
            "the player on the dealer's left may not fold (forced_player='eldest')",
            id="eldest",
        ),
        pytest.param(
            BASE,
            {"forced_player": "dealer_if_all_passed"},
            "folds",
            "FLY-5.3",
            "the dealer must play when everyone else has folded",
            id="dealer if all passed",
        ),
        pytest.param(
            BASE,
            {"all_fold": "dealer_must_play"},
            "folds",
            "FLY-5.4",
            "the dealer must play when everyone else has folded",
            id="all fold",
        ),
        pytest.param(
            BASE,
            {"lone_player": "last_speaker_must_play"},
            "stand, fold",
            "FLY-5.5",
            "the last to declare must play when only one other player stays in",
            id="lone player",
        ),
    ],
)
def test_fly_5_2_a_refused_fold_names_its_rule_and_reason(
    hands: tuple[str, ...], options: dict[str, Any], before: int | str, rule: str, detail: str
) -> None:
    """FLY-4.6 / FLY-5.2 / FLY-5.3 / FLY-5.4 / FLY-5.5: each reason a fold is refused is told apart,
    with the fold as the offending action; the fold is not offered and the deal is unchanged."""
    d = position(hands, **options)
    steps = {"folds": (fly.Fold(), fly.Fold()), "stand, fold": (fly.Stand(), fly.Fold())}
    d = apply_all(d, *(steps[before] if isinstance(before, str) else (fly.Stand(),) * before))
    fold = fly.Fold()
    assert fold not in d.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        d.apply(fold)
    assert (caught.value.rule, caught.value.detail, caught.value.offending) == (rule, detail, fold)


@pytest.mark.parametrize(
    ("hands", "options", "before", "swap", "rule", "detail"),
    [
        pytest.param(
            BASE, {}, 2, "7S", "FLY-3.3", "only the dealer, once, may take the trump card (turnup_use)", id="no option"
        ),
        pytest.param(
            BASE,
            {"turnup_use": "dealer_swap"},
            0,
            "7C",
            "FLY-3.3",
            "only the dealer, once, may take the trump card (turnup_use)",
            id="not the dealer",
        ),
        pytest.param(
            BASE,
            {"turnup_use": "dealer_swap"},
            2,
            "7C",
            "FLY-3.3",
            "the dealer does not hold 7C",
            id="a card not held",
        ),
        pytest.param(
            ("AH KH QH 7C 8C", "AC KC 7D 8D 9D", "8H 9H TH AS 8S"),
            {"turnup_use": "dealer_swap", "ace_of_spades_discardable": False},
            2,
            "AS",
            "FLY-4.7",
            "the ace of spades may not be discarded, even for the trump card",
            id="the A♠ kept",
        ),
    ],
)
def test_fly_3_3_a_refused_trump_swap_names_its_rule_and_reason(
    hands: tuple[str, ...], options: dict[str, Any], before: int, swap: str, rule: str, detail: str
) -> None:
    """FLY-3.3 / FLY-4.7: the trump card is the dealer's to take only under ``turnup_use='dealer_swap'``,
    for a card he holds, and never for a kept A♠; the refusal names the swap and changes nothing."""
    d = apply_all(position(hands, **options), *(fly.Stand(),) * before)
    action = fly.SwapTrump(card(swap))
    assert action not in d.legal_actions()
    hands_before = d.hands
    with pytest.raises(RuleViolation) as caught:
        d.apply(action)
    assert (caught.value.rule, caught.value.detail, caught.value.offending) == (rule, detail, action)
    assert d.hands == hands_before


def test_fly_3_3_the_dealer_swaps_the_trump_card_once() -> None:
    """FLY-3.3: after one swap the dealer may not take the trump card again (it is gone)."""
    d = apply_all(position(BASE, turnup_use="dealer_swap"), fly.Stand(), fly.Stand()).apply(fly.SwapTrump(card("7S")))
    again = fly.SwapTrump(card("8S"))
    assert d.to_move == 2
    assert again not in d.legal_actions()
    with pytest.raises(RuleViolation) as caught:
        d.apply(again)
    assert caught.value.detail == "only the dealer, once, may take the trump card (turnup_use)"


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
