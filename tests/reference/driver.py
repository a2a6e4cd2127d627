"""Drive the engine and the naive reference side by side and compare them at every step.

Shared by the random cross-checks and the exhaustive endgames.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import strategies as st

from fly_rules import Card, CardSet, InvalidRules, RuleViolation, deck_of_size, fly
from tests.reference.fly_reference import ACE_OF_SPADES, Action, RefDeal, RefMatch

STATS: Counter[str] = Counter()
"""How much the cross-checks ran: steps, deals, matches, illegal probes, rule IDs seen."""

MODELLED_CHOICES: dict[str, list[Any]] = {
    "direction": ["clockwise", "anticlockwise"],
    "ace_rank": ["high", "below_jack"],
    "deal_packets": [(1,), (3, 2), (2, 3)],
    "declaration_mode": ["combined", "fold_round_then_exchange"],
    "max_exchange": [1, 2, 3, 4, 5],
    "total_exchange_cap": [None, 1, 2, 5, 8],
    "may_fold_after_exchange": [False, True],
    "ace_of_spades_discardable": [True, False],
    "forced_player": [None, "dealer_if_all_passed", "eldest"],
    "all_fold": ["void", "dealer_must_play", "redeal_same_dealer"],
    "lone_player": ["takes_all", "last_speaker_must_play", "void"],
    "must_head_trick": [False, True],
    "trump_duty": ["any_trump", "overtrump", "overtrump_or_free"],
    "ace_of_spades_mode": ["led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"],
    "stop_mode": ["immediate", "end_of_deal"],
    "tie_break": ["earliest", "shared"],
    "revoke_mode": ["prevent", "penalize"],
    "flush_wins": [False, True],
    "start_record": [1, 3, 6, 10, 25],
    "ace_bonus": [0, 2, 5],
    "ace_bonus_trumps": [3, 10],
    "remise": [0, 5, 7],
    "ace_no_trick_penalty": [10, 12],
    "ace_no_trick_penalty_trumps": [10, 15],
    "trick_value": [0, 1, 2, 3],
    "turnup_use": ["none", "dealer_swap", "last_stock_card"],
    "stock_exhaustion": ["cap", "folded_hands", "reshuffle_discards"],
}
"""Every option of :class:`~fly_rules.fly.FlyRules` the reference models, with the values the cross-checks draw;
``players``, ``deck_size`` and ``max_deals`` are drawn by the tests themselves (FLY_OPTIONS_DRAWN_ELSEWHERE)."""

FLY_OPTIONS_DRAWN_ELSEWHERE = ("players", "deck_size", "max_deals")


KNOWN_ENGINE_BUGS = False
"""Keep the random rules away from combinations where a known (pinned) engine bug makes every run fail."""

FORCING_DEFAULTS: dict[str, Any] = {"forced_player": None, "all_fold": "void", "lone_player": "takes_all"}


@st.composite
def fly_rules(draw: st.DrawFn, /, **fixed: Any) -> fly.FlyRules:
    """Random rules from the options the reference models; each option keeps its default half the time."""
    players = fixed.pop("players", None) or draw(st.integers(3, 7))
    options: dict[str, Any] = {}
    for name, choices in MODELLED_CHOICES.items():
        if name in fixed:
            options[name] = fixed[name]
        elif draw(st.booleans()):
            options[name] = draw(st.sampled_from(choices))
    if options.get("may_fold_after_exchange") and KNOWN_ENGINE_BUGS:
        # engine bug pinned in test_fly_5_3_forced_player_may_not_fold_after_exchanging: forced players escape
        for name, default in FORCING_DEFAULTS.items():
            options[name] = fixed.get(name, default)
    if options.get("ace_of_spades_mode") == "top_trump" and KNOWN_ENGINE_BUGS:
        # engine bug pinned in test_fly_7_top_trump_ace_of_spades_heads_and_overtrumps: no heading/overtrump duty
        options["must_head_trick"] = fixed.get("must_head_trick", False)
        options["trump_duty"] = fixed.get("trump_duty", "any_trump")
    privileged = options.get("ace_of_spades_mode", "led_trump_ace") in ("led_trump_ace", "led_trump_ace_void_only")
    if privileged and options.get("ace_rank") == "below_jack" and KNOWN_ENGINE_BUGS:
        # engine bug pinned in test_fly_6_3_7_3_no_heading_duty_once_the_ace_of_spades_holds_the_trick
        options["must_head_trick"] = fixed.get("must_head_trick", False)
    if "deck_size" not in fixed and draw(st.booleans()):
        options["deck_size"] = draw(st.sampled_from([s for s in (32, 36, 48, 52) if s >= 5 * players + 1]))
    try:
        return fly.FlyRules(players=players, **options)
    except InvalidRules:
        # an inconsistent combination: fall back to the default profile for those players
        STATS["rules refused"] += 1
        return fly.FlyRules(players=players)


def random_position(rules: fly.FlyRules, rnd: random.Random, *, full_stock: bool = True) -> dict[str, Any]:
    """A shuffled deck dealt five each, a turn-up and a stock (possibly cut short), as new_deal arguments."""
    deck = list(deck_of_size(rules.deck_size))
    rnd.shuffle(deck)
    n = rules.players
    hands = [deck[5 * i : 5 * i + 5] for i in range(n)]
    trump_card = deck[5 * n]
    stock = deck[5 * n + 1 :]
    if not full_stock:
        stock = stock[: rnd.randint(0, len(stock))]
    records = [rnd.choice([1, 2, 3, 4, 5, 6, 7, 11, rules.start_record]) for _ in range(n)]
    return {"hands": hands, "trump_card": trump_card, "stock": stock, "dealer": rnd.randrange(n), "records": records}


def assert_same_deal(engine: fly.FlyDeal, ref: RefDeal) -> None:
    """The engine's observable deal state equals the reference's."""
    pairs: dict[str, tuple[object, object]] = {
        "to_move": (engine.to_move, ref.to_move),
        "is_over": (engine.is_over, ref.is_over),
        "phase": (engine.phase, ref.phase),
        "hands": (engine.hands, tuple(CardSet.of(h) for h in ref.hands)),
        "stock": (engine.stock, tuple(ref.stock)),
        "records": (engine.records, tuple(ref.records)),
        "tricks_taken": (engine.tricks_taken, tuple(ref.tricks_taken)),
        "trick": (engine.trick, tuple((seat, card) for seat, card, _ in ref.trick)),
        "discards": (engine.discards, CardSet.of(ref.discards)),
        "played": (engine.played, CardSet.of(ref.played | {card for _, card, _ in ref.trick})),
        "active": (engine.active, tuple(ref.active())),
        "void": (engine.void, ref.void),
        "winners": (tuple(sorted(engine.winners)), tuple(sorted(ref.winners))),
    }
    if ref.phase != fly.Phase.EXCHANGE:
        pairs["ace_of_spades_holder"] = (engine.ace_of_spades_holder, ref.ace_holder)
    differ = {name: pair for name, pair in pairs.items() if pair[0] != pair[1]}
    assert not differ, f"engine, reference: {differ}"


def assert_same_actions(engine: fly.FlyDeal | fly.FlyMatch, ref: RefDeal | None) -> tuple[Action, ...]:
    legal = tuple(engine.legal_actions())
    expected = set() if ref is None else ref.legal_actions()
    assert set(legal) == expected, (sorted(map(str, set(legal) - expected)), sorted(map(str, expected - set(legal))))
    assert len(legal) == len(set(legal))
    return legal


def illegal_candidates(ref: RefDeal, rnd: random.Random) -> list[Action]:
    """Actions a seat might try that are not all legal: the reference decides which are illegal."""
    seat = ref.to_move
    assert seat is not None
    hand = sorted(ref.hands[seat])
    outside = [c for c in deck_of_size(52) if c not in ref.hands[seat]]
    candidates: list[Action] = [
        fly.Play(rnd.choice(outside)),
        fly.Play(rnd.choice(hand)),
        fly.Fold(),
        fly.Stand(),
        fly.Exchange(CardSet.of(hand)),
        fly.Exchange(CardSet.of([])),
        fly.Exchange(CardSet.of([rnd.choice(outside), *hand[:1]])),
        fly.Exchange(CardSet.of(hand[: ref.rules.max_exchange])),
        fly.Exchange(CardSet.of(hand[: len(ref.stock) + 1])),
    ]
    if ACE_OF_SPADES in ref.hands[seat]:
        candidates.append(fly.Exchange(CardSet.of([ACE_OF_SPADES])))
    candidates.extend(fly.Play(c) for c in hand)
    candidates.append(fly.SwapTrump(rnd.choice(hand)))
    return [a for a in candidates if not ref.accepts(a)]


def probe_illegal(engine: fly.FlyDeal | fly.FlyMatch, ref: RefDeal, rnd: random.Random) -> None:
    """FLY-10.3, FLY-11.1: an action the reference calls illegal is refused with a FLY- rule, state unchanged."""
    candidates = illegal_candidates(ref, rnd)
    if not candidates:
        return
    action = rnd.choice(candidates)
    with pytest.raises(RuleViolation, match=r"^FLY-\d+\.\d+: ") as refused:
        engine.apply(action)
    STATS[f"refused {type(action).__name__} {refused.value.rule}"] += 1
    STATS["illegal probes"] += 1


def choose(legal: tuple[Action, ...], ref: RefDeal, rnd: random.Random) -> Action:
    """A random legal action, or (under adjudication, sometimes) a revoke."""
    seat = ref.to_move
    if ref.rules.revoke_mode == "penalize" and ref.phase == fly.Phase.PLAY and seat is not None:
        revokes = [fly.Play(c) for c in sorted(ref.hands[seat]) if fly.Play(c) not in legal]
        if revokes and rnd.random() < 0.3:
            STATS["revokes"] += 1
            return rnd.choice(revokes)
    # exchanges are most of the legal list: pick the kind of declaration first
    kinds = sorted({type(a).__name__ for a in legal})
    kind = rnd.choice(kinds)
    return rnd.choice([a for a in legal if type(a).__name__ == kind])


def play_deal(engine: fly.FlyDeal, ref: RefDeal, rnd: random.Random, *, probe: bool = True) -> fly.FlyDeal:
    """Random play to the end of the deal, comparing at every step."""
    assert_same_deal(engine, ref)
    while not engine.is_over:
        legal = assert_same_actions(engine, ref)
        if probe:
            before = engine
            probe_illegal(engine, ref, rnd)
            assert engine == before
        action = choose(legal, ref, rnd)
        engine = engine.apply(action)
        ref.apply(action)
        STATS["steps"] += 1
        assert_same_deal(engine, ref)
    assert engine.legal_actions() == ()
    assert ref.legal_actions() == set()
    count_outcome(ref)
    return engine


def count_outcome(ref: RefDeal) -> None:
    STATS["deals"] += 1
    if ref.void:
        STATS["deals void"] += 1
    if ref.winners:
        STATS[f"deals won by {len(ref.winners)}"] += 1
    if ref.ace_holder is not None:
        STATS["deals with an A♠ holder"] += 1
    if ref.credited is not None:
        STATS["deals credited without play"] += 1
    if ref.refills:
        STATS[f"deals with a stock refilled ({ref.rules.stock_exhaustion})"] += 1
    if not ref.turnup_here:
        STATS[f"deals with the turn-up taken ({ref.rules.turnup_use})"] += 1


def check_new_deal(match: fly.FlyMatch, ref: RefMatch) -> None:
    """FLY-1.3, FLY-2.2, FLY-3.1: the next deal has the right dealer and records, and the reference, dealing
    the same shuffled pack itself, gives the same hands, turn-up and stock."""
    deal = match.deal
    assert match.dealer == ref.dealer == deal.dealer
    assert match.deal_number == ref.deal_number
    assert deal.records == tuple(ref.records)
    hands, turnup, stock = ref.deal_pack()
    assert deal.hands == tuple(CardSet.of(h) for h in hands)
    assert (deal.trump_card, deal.stock) == (turnup, tuple(stock))
    everything = [c for h in deal.hands for c in h] + [deal.trump_card, *deal.stock]
    assert len(everything) == len(set(everything)) == len(deck_of_size(match.rules.deck_size))
    ref.start_deal(hands, turnup, stock)


def play_match(match: fly.FlyMatch, ref: RefMatch, rnd: random.Random, *, max_steps: int = 400) -> None:
    """Random play of a whole match (or ``max_steps`` actions), comparing at every step."""
    check_new_deal(match, ref)
    steps = 0
    while not match.is_over and steps < max_steps:
        deal_ref = ref.deal
        assert deal_ref is not None
        assert match.to_move == deal_ref.to_move
        legal = assert_same_actions(match, deal_ref)
        before = match
        probe_illegal(match, deal_ref, rnd)
        assert match == before
        action = choose(legal, deal_ref, rnd)
        number = match.deal_number
        match = match.apply(action)
        ref.apply(action)
        steps += 1
        STATS["steps"] += 1
        assert match.records == tuple(ref.records)
        assert match.is_over == ref.over
        assert match.winners == tuple(ref.winners)
        if ref.deal is not None:
            assert_same_deal(match.deal, ref.deal)
            continue
        # the deal just finished: the current one when the match is over, else the previous one
        finished = match.deal if match.is_over else match.previous_deal
        assert finished is not None
        assert ref.last_deal is not None
        assert_same_deal(finished, ref.last_deal)
        count_outcome(ref.last_deal)
        if not ref.over:
            assert match.deal_number == number + 1
            check_new_deal(match, ref)
    if match.is_over:
        assert match.to_move is None
        assert match.legal_actions() == ()
        assert match.winner == (ref.winners[0] if ref.winners else None)  # FLY-9.4: the earliest, when shared
    STATS["matches"] += 1
    if match.is_over:
        STATS["matches won" if ref.winners else "matches stopped by max_deals"] += 1


def card(text: str) -> Card:
    return Card.parse(text)


def position(
    rules: fly.FlyRules,
    hands: list[str],
    *,
    trump: str = "8H",
    dealer: int = 0,
    records: list[int] | None = None,
    stock_top: str = "",
) -> dict[str, Any]:
    """new_deal arguments: ``hands`` as text, the rest of the deck as the stock (``stock_top`` first)."""
    dealt = {Card.parse(t) for h in hands for t in h.split()} | {Card.parse(trump)}
    top = [Card.parse(t) for t in stock_top.split()]
    rest = [c for c in deck_of_size(rules.deck_size) if c not in dealt and c not in top]
    return {
        "hands": [[Card.parse(t) for t in h.split()] for h in hands],
        "trump_card": Card.parse(trump),
        "stock": top + rest,
        "dealer": dealer,
        "records": records or [rules.start_record] * rules.players,
    }


def replay(rules: fly.FlyRules, start: dict[str, Any], actions: Sequence[Action]) -> tuple[fly.FlyDeal, RefDeal]:
    """Apply scripted actions to the engine and the reference, comparing at every step."""
    engine = fly.new_deal(rules, **start)
    ref = RefDeal(rules, **start)
    assert_same_deal(engine, ref)
    for action in actions:
        assert_same_actions(engine, ref)
        engine = engine.apply(action)
        ref.apply(action)
        assert_same_deal(engine, ref)
    return engine, ref


def plays(text: str) -> list[Action]:
    """``"AH AS 7H"`` → three Play actions."""
    return [fly.Play(Card.parse(t)) for t in text.split()]
