"""Bots: the protocol, legality, information hiding, and that each bot beats the one below it."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from fly_rules import dreyfus, fly
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.bots import (
    BOTS,
    Bot,
    ExpertBot,
    MonteCarloBot,
    RandomBot,
    RuleOfThumbBot,
    Tally,
    make_bot,
    play_match,
    wilson_interval,
)
from fly_rules.cards import CardSet
from fly_rules.dreyfus import DreyfusRuleOfThumbBot
from fly_rules.engine import Phase
from fly_rules.fly import FlyRuleOfThumbBot
from fly_rules.tricks import card_strength
from tests.notation.helpers import random_dreyfus_match, random_fly_match
from tests.solve.options import fly_rules


def fly_play_position(seed: int) -> fly.FlyMatch:
    """A Fly match some way into a deal's play."""
    rng = random.Random(seed)
    match = fly.new_match(fly.FlyRules(players=4), seed=seed, dealer=0)
    while match.deal.phase is not fly.Phase.PLAY or len(match.deal.completed) < 1 or not match.deal.trick:
        if match.deal.is_over:
            return fly_play_position(seed + 100)
        legal = match.legal_actions()
        plays = [a for a in legal if not isinstance(a, Fold)]
        match = match.apply(rng.choice(plays))
    return match


@pytest.mark.no_cover
@pytest.mark.parametrize("name", sorted(BOTS))
def test_fly_4_2_every_bot_plays_legal_actions_in_both_games(name: str) -> None:
    """FLY-4.2, DRF-4.4: every bot is a Bot and picks only legal actions, all match long."""
    rules = fly.FlyRules(players=3, deck_size=52)
    bot = make_bot(name, rules)
    assert isinstance(bot, Bot)
    match = fly.new_match(attrs.evolve(rules, max_deals=2), seed=4)
    rng = random.Random(0)
    while not match.is_over:
        legal = match.legal_actions()
        action = bot.choose(match.view(match.to_move), legal, rng)  # type: ignore[arg-type]
        assert action in legal
        match = match.apply(action)
    drules = dreyfus.DreyfusRules(max_deals=1)
    dbot = make_bot(name, drules)
    if isinstance(dbot, ExpertBot):  # two guesses a decision, not six: its whole deal at full strength is 25 CPU s
        dbot.samples = 2
    dmatch = dreyfus.new_match(drules, seed=4)
    while not dmatch.is_over:
        dlegal = dmatch.legal_actions()
        action = dbot.choose(dmatch.view(dmatch.to_move), dlegal, rng)  # type: ignore[arg-type]
        assert action in dlegal
        dmatch = dmatch.apply(action)


def twin_deals(seed: int, fixed: tuple[int, ...]) -> tuple[fly.FlyDeal, fly.FlyDeal]:
    """Two explicit Fly deals that differ only in the cards of the seats not in ``fixed`` and the stock."""
    rules = fly.FlyRules(players=4)
    cards = list(rules.deck)
    random.Random(seed).shuffle(cards)
    hands = [cards[5 * s : 5 * s + 5] for s in range(4)]
    loose = [s for s in range(4) if s not in fixed]
    pool = [c for s in loose for c in hands[s]] + cards[21:]
    random.Random(seed + 1).shuffle(pool)
    other = list(hands)
    for k, s in enumerate(loose):
        other[s] = pool[5 * k : 5 * k + 5]
    stock = pool[5 * len(loose) :]
    first = fly.new_deal(rules, hands=hands, trump_card=cards[20], stock=cards[21:], dealer=0)
    second = fly.new_deal(rules, hands=other, trump_card=cards[20], stock=stock, dealer=0)
    return first, second


@pytest.mark.parametrize("name", sorted(BOTS))
def test_fly_5_1_bot_choice_is_invariant_when_hidden_cards_are_permuted(name: str) -> None:
    """FLY-5.1: a bot given the same view chooses the same action whatever the hidden cards are."""
    for seed in range(3):
        # the first declaration: seat 1 sees only its own hand
        first, second = twin_deals(seed, fixed=(1,))
        # the second card of the first trick: seat 2 sees its hand and the card seat 1 led
        third, fourth = twin_deals(seed, fixed=(1, 2))
        for _ in range(4):
            third, fourth = third.apply(Stand()), fourth.apply(Stand())
        lead = third.legal_actions()[0]
        third, fourth = third.apply(lead), fourth.apply(lead)
        for a, b in ((first, second), (third, fourth)):
            seat = a.to_move
            assert seat is not None
            assert b.to_move == seat
            assert a.view(seat) == b.view(seat)
            assert a.hands != b.hands
            bot = make_bot(name, a.rules)
            chosen = bot.choose(a.view(seat), a.legal_actions(), random.Random(seed))
            assert chosen == bot.choose(b.view(seat), b.legal_actions(), random.Random(seed))


def test_drf_11_1_dreyfus_bot_choice_ignores_the_hidden_hands() -> None:
    """DRF-11.1: the Monte-Carlo bot chooses the same card whatever the opponents' hidden hands hold."""
    match, _ = random_dreyfus_match(3, 50)
    while match.deal.phase is not Phase.PLAY or not match.deal.trick:
        match = match.apply(match.legal_actions()[0])
    deal = match.deal
    seat = deal.to_move
    assert seat is not None
    others = [s for s in range(3) if s != seat]
    pooled = [c for s in others for c in deal.hands[s]]
    random.Random(1).shuffle(pooled)
    hands = list(deal.hand_masks)
    size = len(deal.hands[others[0]])
    hands[others[0]] = CardSet.of(pooled[:size]).mask
    hands[others[1]] = CardSet.of(pooled[size:]).mask
    other = deal._replace(hand_masks=(hands[0], hands[1], hands[2]))
    assert other.view(seat) == deal.view(seat)
    bot = MonteCarloBot(match.rules, samples=6)
    assert bot.choose(deal.view(seat), deal.legal_actions(), random.Random(2)) == bot.choose(
        other.view(seat), other.legal_actions(), random.Random(2)
    )


def test_fly_5_2_rule_of_thumb_folds_weak_hands_and_exchanges_low_cards() -> None:
    """FLY-5.2, FLY-4.3: no trump and no high card folds; low plain cards are exchanged; strong hands stand."""
    bot = FlyRuleOfThumbBot()
    rules = fly.FlyRules(players=3, deck_size=52)
    weak = fly.new_deal(rules, hands=["7C 8D 9C 7D 8C", "AH QH JH TH 9H", "7S 8S 9S TC JC"], trump_card="6H", dealer=2)
    assert bot.choose(weak.view(0), weak.legal_actions(), random.Random(0)) == Fold()
    mixed = fly.new_deal(
        rules,
        hands=["7C 8D 9C AH 8C", "KH QH JH TH 9H", "7S 8S 9S TC JC"],
        trump_card="6H",
        dealer=2,
        stock="AC KC QC QD",
    )
    choice = bot.choose(mixed.view(0), mixed.legal_actions(), random.Random(0))
    assert choice == Exchange("7C 8D 9C 8C")
    strong = fly.new_deal(
        rules, hands=["AC AD AH KS KH", "QH JH TH 9H 8H", "7S 8S 9S TC JC"], trump_card="6H", dealer=2
    )
    assert bot.choose(strong.view(0), strong.legal_actions(), random.Random(0)) == Stand()


def _scanned_declaration(bot: FlyRuleOfThumbBot, view: Any, legal: Any) -> Any:
    """The rule of thumb's declaration found by scanning every legal action, as the bot used to."""
    trump, strength = view.trump, bot.order.strength
    good = [c for c in view.hand if bot._good(c, trump)]
    swaps = [a for a in legal if isinstance(a, fly.SwapTrump)]
    if swaps and strength[view.trump_card.rank] >= strength[10]:
        return min(swaps, key=lambda a: card_strength(a.card, trump, bot.order))
    if not good and any(isinstance(a, Fold) for a in legal):
        return Fold()
    weak = CardSet.of(c for c in view.hand if not bot._good(c, trump))
    exchanges = [a for a in legal if isinstance(a, Exchange) and a.cards <= weak] if weak else []
    if exchanges:
        return max(exchanges, key=lambda a: (len(a.cards), -sum(strength[c.rank] for c in a.cards)))
    return Stand()


def test_fly_4_3_rule_of_thumb_declares_as_a_scan_of_every_legal_action() -> None:
    """FLY-4.2, FLY-4.3, FLY-3.3: the rule of thumb tries only the exchanges of its weak cards, largest first; it
    declares exactly what a scan of every legal action finds (the most weak cards, the weakest, the first in the
    legal order among equals), at every declaration of random deals under random rules options."""
    rng = random.Random("thumb declarations")
    compared = 0
    for _ in range(300):
        rules = fly_rules(rng)
        bot = FlyRuleOfThumbBot(rules.rank_order)
        deal = fly.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(rules.players)).deal
        while deal.phase is Phase.EXCHANGE:
            assert deal.to_move is not None
            view, legal = deal.view(deal.to_move), deal.legal_actions()
            chosen = bot.choose(view, legal, random.Random(0))
            assert chosen == _scanned_declaration(bot, view, legal), view
            compared += 1
            deal = deal.apply(chosen if rng.random() < 0.7 else rng.choice(list(legal)))
    assert compared > 1000


def test_fly_3_3_rule_of_thumb_takes_a_high_trump_card() -> None:
    """FLY-3.3: with dealer_swap, the dealer takes a trump card of ten or better, discarding his weakest card."""
    rules = fly.FlyRules(players=3, deck_size=52, turnup_use="dealer_swap")
    deal = fly.new_deal(rules, hands=["7C 8D 9C AH 8C", "KH QH JH TH 9H", "7S 8S 9S TC JC"], trump_card="AD", dealer=0)
    deal = deal.apply(Stand()).apply(Stand())
    choice = FlyRuleOfThumbBot().choose(deal.view(0), deal.legal_actions(), random.Random(0))
    assert choice == fly.SwapTrump("7C")


def test_fly_6_2_rule_of_thumb_wins_cheaply_or_throws_its_lowest() -> None:
    """FLY-6.2: the bot takes the trick with its cheapest winning card, else plays its lowest."""
    rules = fly.FlyRules(players=3, deck_size=52)
    deal = fly.new_deal(rules, hands=["7C KC AC 8D 9D", "QC JH TH 9H 8H", "7S 8S 9S TC JC"], trump_card="6H", dealer=2)
    for _ in range(3):
        deal = deal.apply(Stand())
    deal = deal.apply(Play("9D"))
    bot = FlyRuleOfThumbBot()
    assert bot.choose(deal.view(1), deal.legal_actions(), random.Random(0)) == Play("8H")


def test_drf_4_2_dreyfus_rule_of_thumb_buys_low_plain_cards() -> None:
    """DRF-4.2: the Dreyfus bot discards its low plain фоски, never a trump, and stands without any."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=7, dealer=0)
    view = match.view(match.to_move)  # type: ignore[arg-type]
    choice = DreyfusRuleOfThumbBot().choose(view, match.legal_actions(), random.Random(0))
    if isinstance(choice, Exchange):
        assert all(c.suit != view.contract and c.rank <= 9 for c in choice.cards)
    none_low = DreyfusRuleOfThumbBot(highest_discard=2)  # type: ignore[arg-type]
    assert none_low.choose(view, match.legal_actions(), random.Random(0)) == Stand()


def test_drf_4_4_dreyfus_rule_of_thumb_respects_an_incremental_exchange() -> None:
    """DRF-4.4: when only one card at a time may be bought, the bot buys one."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(exchange_mode="incremental"), seed=7, dealer=0)
    view = match.view(match.to_move)  # type: ignore[arg-type]
    choice = RuleOfThumbBot().choose(view, match.legal_actions(), random.Random(0))
    assert choice == Stand() or (isinstance(choice, Exchange) and len(choice.cards) == 1)


def test_fly_10_1_rule_of_thumb_beats_random_clearly() -> None:
    """FLY-10.1, DRF-8.1: over 60 matches the rule-of-thumb bot wins far more than its share against random bots."""
    for rules, players in ((fly.FlyRules(players=4), 4), (dreyfus.DreyfusRules(), 3)):
        names = ["rule-of-thumb"] + ["random"] * (players - 1)
        tally = Tally(players, tuple(names))
        for i in range(60):
            tally.add(play_match(rules, names, 11, i, 60))
        rate = tally.summary()["per_bot"][0]["rate"]
        assert rate > 2 / players


def test_fly_10_1_matches_replay_from_their_seed_and_index() -> None:
    """FLY-10.1: a match between bots depends only on the run's seed and the match's index."""
    rules = fly.FlyRules(players=3, deck_size=52)
    first = play_match(rules, ["monte-carlo", "rule-of-thumb", "random"], 5, 2, 4)
    again = play_match(rules, ["monte-carlo", "rule-of-thumb", "random"], 5, 2, 4)
    assert first == again
    assert first.seats == ("rule-of-thumb", "random", "monte-carlo")


def test_monte_carlo_falls_back_when_no_guess_fits() -> None:
    """DRF-11.1: with no consistent guess of the hidden cards the Monte-Carlo bot plays the rule of thumb."""
    match = fly_play_position(1)
    bot = MonteCarloBot(match.rules, samples=3)
    bot._determinise = lambda view, rng: None  # type: ignore[method-assign]
    view = match.view(match.to_move)  # type: ignore[arg-type]
    legal = match.legal_actions()
    assert bot.choose(view, legal, random.Random(0)) == bot.policy.choose(view, legal, random.Random(0))


def test_wilson_interval_and_tally_summary() -> None:
    """FLY-10.2: the tally counts wins per seat and bot with 95% intervals; no matches gives [0, 1]."""
    assert wilson_interval(0, 0) == (0.0, 1.0)
    tally = Tally(3, ("random", "random", "random"))
    assert tally.summary()["deals_per_match"] == 0.0
    tally.add(play_match(fly.FlyRules(players=3), ["random"] * 3, 1, 0, 1))
    summary = tally.summary()
    assert summary["matches"] == 1
    assert summary["per_bot"][0]["seats_held"] == 3
    assert summary["no_winner"] + sum(s["wins"] for s in summary["seats"]) == 1


def test_random_bot_uses_only_its_generator() -> None:
    """FLY-10.1: the random bot's choice is a function of its generator's state."""
    match = random_fly_match(3, 10)
    legal = match.legal_actions()
    view: Any = match.view(match.to_move)  # type: ignore[arg-type]
    assert RandomBot().choose(view, legal, random.Random(9)) == RandomBot().choose(view, legal, random.Random(9))
