"""What the expert infers of the others' cards from how it takes them to play (the rule of thumb)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from fly_rules import fly
from fly_rules.bots import RandomBot
from fly_rules.bots.sampling import sample_deal
from fly_rules.cards import Card, CardSet
from fly_rules.engine import Phase
from fly_rules.fly.expert import FlyExpertHints, ThumbGuess, _alike
from fly_rules.fly.hidden import FlyGuess

THUMB = fly.FlyRuleOfThumbBot()


def _views(rules: Any, deals: int, seed: str, mixed: bool = False) -> Any:
    """Every view of the seat to move, with the deal it is of, over ``deals`` deals played by the rule of thumb
    (``mixed``: every other move at random instead)."""
    for n in range(deals):
        deal: Any = fly.new_match(rules, seed=f"{seed}{n}").deal
        rng = random.Random(n)
        while not deal.is_over:
            seat = deal.to_move
            view = deal.view(seat)
            yield view, deal
            legal = deal.legal_actions()
            mine = rng.choice(list(legal)) if mixed and rng.random() < 0.5 else THUMB.choose(view, legal, rng)
            deal = deal.apply(mine)


def _declaration_misses(view: Any, sample: Any, rules: Any) -> int:
    """How many of the other seats' declarations in ``sample`` the rule of thumb would have made otherwise (by
    kind, or by the number of cards exchanged)."""
    deal: Any = fly.new_deal(
        rules, hands=sample.hands, trump_card=view.trump_card, stock=sample.stock, dealer=view.dealer
    )
    misses = 0
    for action in sample.actions:
        if deal.phase is not Phase.EXCHANGE:
            break
        mover = deal.to_move
        if mover != view.seat:
            theirs = THUMB.choose(deal.view(mover), deal.legal_actions(), random.Random(0))
            misses += theirs != action and not _alike(theirs, action)
        deal = deal.apply(action)
    return misses


@pytest.mark.parametrize("mode", ["led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"])
def test_fly_7_2_no_void_is_inferred_from_a_card_its_holder_may_always_play(mode: Any) -> None:
    """FLY-7.1, FLY-7.2: the guess never rules out a card a seat really holds: the A♠ played to a led trump ace
    (or anywhere, where it is the top trump) shows no void, and where it is the top trump it counts as a trump,
    not a spade. Over 30 five-player deals, half the moves random, under each A♠ privilege."""
    rules = fly.FlyRules(players=5, ace_of_spades_mode=mode)
    checked = 0
    for view, deal in _views(rules, 30, f"void-{mode}-", mixed=True):
        guess = FlyGuess(view, rules)
        for seat in range(rules.players):
            if seat != view.seat:
                assert guess.forbidden[seat] & deal.hand_masks[seat] == 0
                checked += bool(guess.forbidden[seat])
    assert checked > 100  # voids were inferred, and none wrongly


def test_fly_7_2_the_ace_of_spades_to_a_led_trump_ace_leaves_the_trumps_possible() -> None:
    """FLY-7.2: a seat that plays the A♠ to the led ace of trumps may still hold trumps; one that plays a plain
    card to it holds none."""
    rules = fly.FlyRules(players=4)
    hands = ["AC 7D 8D 9D TD", "AS JC 6H 7H 8H", "QH 9S 6S 7S 8S", "TH JH KH 6D JD"]
    deal: Any = fly.new_deal(rules, dealer=3, hands=hands, trump_card="6C", stock="QC KC AD QD KD AH 9H TS JS")
    for action in ["stand", "stand", "stand", "stand", "AC", "AS", "QH"]:
        deal = deal.apply(fly.Stand() if action == "stand" else fly.Play(Card.parse(action)))
    guess = FlyGuess(deal.view(3), rules)
    clubs = CardSet.parse("JC").mask
    assert guess.forbidden[1] & clubs == 0
    assert guess.forbidden[2] & clubs == clubs


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_fly_4_2_a_guess_of_rule_of_thumb_players_keeps_every_card_they_can_hold(players: int) -> None:
    """FLY-4.2: what the guess of rule-of-thumb players rules out never holds a card they really hold, and
    each seat that kept only good cards holds no more weak ones than it exchanged: the seats that folded held
    only weak cards, those that stood only good ones. What is inferred from their plays rules out none either.
    Over 12 deals played by the rule of thumb, at every move; at nine in ten points of the play a guess is found
    within the bounds."""
    rules = fly.FlyRules(players=players)
    hints = FlyExpertHints(rules)
    guesser = hints.guesser(THUMB)
    assert guesser is not None
    bounded = inferred = playing = found = 0
    for view, deal in _views(rules, 12, f"keep-{players}-"):
        guess = ThumbGuess(view, rules, THUMB)
        others = [seat for seat in range(players) if seat != view.seat]
        for seat in others:
            assert guess.forbidden[seat] & deal.hand_masks[seat] == 0
            if seat in guess.weak_held:
                held = deal.hand_masks[seat] | guess.played[seat]
                assert (held & guess.weak).bit_count() <= guess.weak_held[seat]
                bounded += 1
        if view.phase is Phase.PLAY:
            playing += 1
            sample = sample_deal(view, rules, random.Random(1), guesser=guesser)
            if sample is None:
                continue  # the stock ran out and the bounds leave few deals (the expert then guesses as the game does)
            found += 1
            ruled_out = hints.inferred(view, sample, THUMB)
            assert ruled_out[view.seat] == 0
            for seat in others:
                assert ruled_out[seat] & deal.hand_masks[seat] == 0
                inferred += bool(ruled_out[seat])
    assert found >= 0.9 * playing
    assert bounded > 20
    assert inferred > 20


@pytest.mark.parametrize("players", [4, 6])
def test_fly_4_2_a_guess_of_rule_of_thumb_players_agrees_with_their_declarations(players: int) -> None:
    """FLY-4.2: of the guesses drawn for rule-of-thumb players, at least 95 in 100 are deals where the rule of
    thumb makes every declaration the others made (the game's own guess, which knows nothing of how they play,
    at most 80 in 100 at the same points once the play has begun)."""
    rules = fly.FlyRules(players=players)
    guesser = FlyExpertHints(rules).guesser(THUMB)
    agree = Counter[str]()
    for view, _ in _views(rules, 10, f"agree-{players}-"):
        if view.phase is not Phase.PLAY:
            continue
        for name, make in (("thumb", guesser), ("plain", None)):
            for k in range(3):
                sample = sample_deal(view, rules, random.Random(k), guesser=make)
                if sample is None:
                    continue
                agree[name] += _declaration_misses(view, sample, rules) == 0
                agree[name + " drawn"] += 1
    assert agree["thumb drawn"] >= 60
    assert agree["thumb"] >= 0.95 * agree["thumb drawn"]
    assert agree["plain"] <= 0.8 * agree["plain drawn"]


def test_fly_4_2_a_seat_that_kept_good_cards_is_dealt_them_as_often_as_deals_lead_there() -> None:
    """FLY-4.2: a seat that exchanged two cards and kept only good ones holds its three kept cards and the two it
    received; the guess deals it each number of weak cards as often as the deals that lead there. Counted
    here by listing every three good cards kept and every two cards received, from a pool of 5 good and 4
    weak cards."""
    rules = fly.FlyRules(players=4)
    deal: Any = fly.new_match(rules, seed=3, dealer=0).deal
    guess = ThumbGuess(deal.view(0), rules, THUMB)
    seat = 1
    good = [c for c in range(52) if guess.good >> c & 1 and guess.deck >> c & 1][:5]
    weak = [c for c in range(52) if guess.weak >> c & 1][:4]
    pool = sum(1 << c for c in good + weak)
    guess.counts[seat], guess.played[seat], guess.weak_held = 2, 0, {seat: 2}
    expected = Counter[int]()
    for kept in itertools.combinations(good, 3):
        rest = [c for c in good + weak if c not in kept]
        for received in itertools.combinations(rest, 2):
            expected[sum(c in weak for c in received)] += 1
    total = sum(expected.values())
    draws = 20_000
    rng = random.Random(5)
    dealt = Counter[int]()
    for _ in range(draws):
        hands = guess.hidden_hands(pool, {seat: 5}, rng)
        assert hands is not None
        dealt[(hands[seat] & guess.weak).bit_count()] += 1
    assert set(dealt) == set(expected) == {0, 1, 2}
    for count, ways in expected.items():
        assert dealt[count] / draws == pytest.approx(ways / total, abs=0.015)


def test_fly_6_3_a_plain_lead_by_the_rule_of_thumb_rules_out_its_trumps() -> None:
    """FLY-6.3: the rule of thumb leads its strongest card, so a seat that led a plain card holds no trump: every
    trump the view has not seen is ruled out of its hand; and a guess drawn with that never gives it one."""
    rules = fly.FlyRules(players=4)
    hints = FlyExpertHints(rules)
    hands = ["AD KD 7H 8H 9S", "QC JC AH KH 8D", "QH 9C 6S 7S 8S", "TH JH AS 6D JD"]
    stock = "QD JS 6H KC AC 9D TD TS 9H KS QS 7D 7C 8C TC"
    deal: Any = fly.new_deal(rules, dealer=3, hands=hands, trump_card="6C", stock=stock)
    while deal.phase is Phase.EXCHANGE:
        deal = deal.apply(THUMB.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0)))
    assert deal.to_move == 0
    deal = deal.apply(THUMB.choose(deal.view(0), deal.legal_actions(), random.Random(0)))
    led = deal.trick[0][1]
    assert led.suit != deal.trump
    view = deal.view(1)
    guesser = hints.guesser(THUMB)
    sample = sample_deal(view, rules, random.Random(2), guesser=guesser)
    assert sample is not None
    ruled_out = hints.inferred(view, sample, THUMB)
    seen = view.hand.mask | led.bit | view.trump_card.bit
    unseen_trumps = sum(c.bit for c in rules.deck if c.suit == deal.trump) & ~seen
    assert unseen_trumps
    assert ruled_out[0] & unseen_trumps == unseen_trumps
    for k in range(20):
        guessed = sample_deal(view, rules, random.Random(k), guesser=guesser, forbidden=ruled_out)
        assert guessed is not None
        assert guessed.deal.hand_masks[0] & unseen_trumps == 0


def test_a_guess_keeps_out_the_cards_it_is_told_a_seat_cannot_hold() -> None:
    """``sample_deal(forbidden=)``: no guess puts a forbidden card in that seat's hand; the seat's own entry is
    ignored; a list that is not one mask a seat is refused by name."""
    match = fly.new_match(fly.FlyRules(players=4), seed=6, dealer=0)
    view = match.view(0)
    spades = sum(1 << (39 + rank) for rank in range(13))
    forbidden = (spades, spades, 0, 0)
    for k in range(20):
        sample = sample_deal(view, match.rules, random.Random(k), forbidden=forbidden)
        assert sample is not None
        assert sample.deal.hand_masks[1] & spades == 0
        assert sample.deal.hand_masks[0] == view.hand.mask
    with pytest.raises(ValueError, match="one mask a seat, 4, not 3"):
        sample_deal(view, match.rules, random.Random(0), forbidden=(0, 0, 0))


def test_the_guided_guess_is_only_for_the_rule_of_thumb_under_plain_declarations() -> None:
    """The guess that deals as the rule of thumb declares is used only for it, and only where every seat declares
    once with no cap on the exchanges in all; elsewhere the expert draws the game's own guess."""
    assert FlyExpertHints(fly.FlyRules(players=4)).guesser(THUMB) is not None
    assert FlyExpertHints(fly.FlyRules(players=4)).guesser(RandomBot()) is None
    rounds = fly.FlyRules(players=4, declaration_mode="fold_round_then_exchange")
    assert FlyExpertHints(rounds).guesser(THUMB) is None
    capped = fly.FlyRules(players=4, total_exchange_cap=8)
    assert FlyExpertHints(capped).guesser(THUMB) is None
