"""Exhaustive endgames: every play sequence of small positions, engine against the naive reference.

At every node the legal action sets must agree; at every leaf the records, tricks and winners must agree.
The hand-picked positions also check the number of sequences against a count worked out by hand.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import fly
from tests.reference.driver import (
    STATS,
    assert_same_actions,
    assert_same_deal,
    fly_rules,
    plays,
    position,
    random_position,
    replay,
)
from tests.reference.fly_reference import RefDeal

Outcome = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def every_sequence(engine: fly.FlyDeal, ref: RefDeal) -> Counter[Outcome]:
    """Walk every legal continuation; count the leaves by (records, tricks taken, winners)."""
    assert_same_deal(engine, ref)
    if engine.is_over:
        return Counter({(engine.records, engine.tricks_taken, tuple(sorted(engine.winners))): 1})
    outcomes: Counter[Outcome] = Counter()
    for action in assert_same_actions(engine, ref):
        branch = ref.clone()
        branch.apply(action)
        outcomes += every_sequence(engine.apply(action), branch)
    return outcomes


def test_fly_6_3_6_5_6_6_free_discards_endgame_has_six_sequences() -> None:
    """FLY-6.3, FLY-6.5, FLY-6.6: 2 + 2·2 … the hand-counted 6 sequences of a last-two-tricks endgame.

    After three scripted tricks won by seat 0: seat 0 holds 9♣ 10♦, seat 1 ♠Q ♠J, seat 2 J♦ 9♠ (hearts trump).
    Lead 9♣: seats 1 and 2 discard freely (2·2), then trick 5 is forced: 4 sequences.
    Lead 10♦: seat 1 discards freely (2), seat 2 must follow with J♦ and wins, trick 5 forced: 2 sequences
    (seat 2 leads 9♠ and seat 1's last spade takes it).
    """
    rules = fly.FlyRules(players=3)
    start = position(rules, ["AC AD KS 9C TD", "7C 7D 7S QS JS", "8C 8D 8S JD 9S"], dealer=2)
    prefix = [fly.Stand()] * 3 + plays("AC 7C 8C AD 7D 8D KS 7S 8S")
    engine, ref = replay(rules, start, prefix)
    assert engine.tricks_taken == (3, 0, 0)
    outcomes = every_sequence(engine, ref)
    assert sum(outcomes.values()) == 2 * 2 + 2
    assert outcomes == Counter(
        {
            ((20, 30, 30), (5, 0, 0), ()): 2,  # 9♣ led, seat 2 kept 9♠: seat 0 takes all, two remises
            ((21, 30, 24), (4, 0, 1), ()): 2,  # 9♣ led, seat 2 kept J♦ and takes trick 5 on 10♦
            ((22, 24, 24), (3, 1, 1), ()): 2,  # 10♦ led: J♦ takes trick 4, seat 1's spade trick 5
        }
    )


def test_fly_7_2_7_3_9_3_ace_of_spades_endgame_stops_at_zero() -> None:
    """FLY-7.2, FLY-7.3, FLY-8.3, FLY-9.1, FLY-9.3: 2 + 1 = 3 sequences, each ending at once on a zero.

    Seat 0 (record 1 after three tricks) holds A♥ 7♣; seat 1 (A♠ holder, record 3) A♠ K♥; seat 2 9♥ 8♣.
    Lead A♥: seat 1 may play K♥ (seat 0 wins, reaches 0) or A♠ (seat 1 wins: 3 − 1 − 5 → exempt, 0).
    Lead 7♣: seat 1 must trump with K♥ and wins: exempt, 0. Every sequence stops after trick 4.
    """
    rules = fly.FlyRules(players=3)
    start = position(rules, ["AD KD KS AH 7C", "7D 8D 7S AS KH", "9D TD 8S 9H 8C"], dealer=2, records=[4, 3, 25])
    prefix = [fly.Stand()] * 3 + plays("AD 7D 9D KD 8D TD KS 7S 8S")
    engine, ref = replay(rules, start, prefix)
    assert engine.records == (1, 3, 25)
    outcomes = every_sequence(engine, ref)
    assert outcomes == Counter({((0, 3, 25), (4, 0, 0), (0,)): 1, ((1, 0, 25), (3, 1, 0), (1,)): 2})


def test_fly_7_4_8_5_ace_of_spades_endgame_played_out() -> None:
    """FLY-7.4, FLY-8.4, FLY-8.5: the same endgame at record 25 is played to the end: 3 sequences.

    After 7♣ led and K♥ winning, A♠ is led and A♥ (led by nobody) takes it: A♠ has no privilege.
    """
    rules = fly.FlyRules(players=3)
    start = position(rules, ["AD KD KS AH 7C", "7D 8D 7S AS KH", "9D TD 8S 9H 8C"], dealer=2)
    prefix = [fly.Stand()] * 3 + plays("AD 7D 9D KD 8D TD KS 7S 8S")
    engine, ref = replay(rules, start, prefix)
    outcomes = every_sequence(engine, ref)
    assert outcomes == Counter(
        {
            ((21, 35, 24), (4, 0, 1), ()): 1,  # A♥ led, K♥ under it: A♠ holder takes nothing, +10 (FLY-8.5)
            ((22, 18, 30), (3, 2, 0), ()): 1,  # A♥ led, A♠ takes it (−1 −5), then K♥ (−1)
            ((21, 19, 30), (4, 1, 0), ()): 1,  # 7♣ led, K♥ trumps; A♠ led, A♥ takes it: no privilege
        }
    )


def count_sequences(ref: RefDeal) -> int:
    """The number of complete play sequences from here, by the reference alone: the sum over legal actions."""
    if ref.is_over:
        return 1
    total = 0
    for action in ref.legal_actions():
        branch = ref.clone()
        branch.apply(action)
        total += count_sequences(branch)
    return total


@settings(max_examples=120)
@given(st.integers(3, 4).flatmap(lambda n: fly_rules(players=n)), st.randoms(), st.integers(1, 4))
def test_fly_6_7_every_sequence_of_random_endgames_agrees(rules: fly.FlyRules, rnd: random.Random, left: int) -> None:
    """FLY-6.1..6.7, FLY §7, FLY §8, FLY §9: all sequences of the last 1–4 tricks (3–4 players) agree, leaf by leaf."""
    if rules.players == 4 or rules.revoke_mode == "penalize":
        left = min(left, 3 if rules.players == 3 else 2)
    start = random_position(rules, rnd)
    engine = fly.new_deal(rules, **start)
    ref = RefDeal(rules, **start)
    while engine.phase == fly.Phase.EXCHANGE:
        action = fly.Stand() if fly.Stand() in engine.legal_actions() else engine.legal_actions()[0]
        engine = engine.apply(action)
        ref.apply(action)
    while not engine.is_over and len(engine.played) < rules.players * (5 - left):
        action = rnd.choice(engine.legal_actions())
        engine = engine.apply(action)
        ref.apply(action)
    expected = count_sequences(ref.clone())
    outcomes = every_sequence(engine, ref)
    assert sum(outcomes.values()) == expected
    STATS["endgames"] += 1
    STATS["endgame sequences"] += expected


def test_fly_6_7_last_three_tricks_of_one_hundred_default_deals() -> None:
    """FLY-6.1..6.7, FLY §8, FLY §9: default rules, 3 players, every standing; all sequences of the last three tricks.

    The two first tricks follow a fixed seeded random play; then the engine's sequence count must equal the
    reference's sum over legal actions, and every leaf's records, tricks and winners agree.
    """
    rules = fly.FlyRules(players=3)
    total = 0
    for seed in range(100):
        rnd = random.Random(seed)
        start = random_position(rules, rnd)
        engine, ref = replay(rules, start, [fly.Stand()] * 3)
        while len(engine.played) < 6 and not engine.is_over:
            action = rnd.choice(engine.legal_actions())
            engine = engine.apply(action)
            ref.apply(action)
        expected = count_sequences(ref.clone())
        assert sum(every_sequence(engine, ref).values()) == expected
        total += expected
    STATS["default endgame sequences (100 deals)"] += total
