"""Regressions: the places where the engine once disagreed with the naive reference, each with a minimal position.

Every test asserts what the reference (read from the spec) says and what the engine now does. Three were
engine bugs, fixed; the fourth (records in ``stop_mode="end_of_deal"``) was settled by the spec: an
overshoot resets the record at the trick that causes it (FLY-9.2), so records are never negative.
"""

from __future__ import annotations

from typing import Any, Literal

import pytest

from fly_rules import RuleViolation, fly
from tests.reference.driver import plays, position
from tests.reference.fly_reference import RefDeal

HANDS = ["7C 8C 9C TC JC", "7D 8D 9D TD JD", "QC KC QD KD 9S"]
OVERTRUMP_HANDS = ["KC 7D 8D 9D TD", "QH 7S 8S 9S TS", "7H AS JD QD KD"]
PrivilegeMode = Literal["led_trump_ace", "led_trump_ace_void_only"]


@pytest.mark.parametrize(
    ("options", "before"),
    [
        pytest.param({"forced_player": "eldest"}, [], id="eldest"),
        pytest.param({"forced_player": "dealer_if_all_passed"}, [fly.Fold(), fly.Fold()], id="dealer_if_all_passed"),
        pytest.param({"all_fold": "dealer_must_play"}, [fly.Fold(), fly.Fold()], id="dealer_must_play"),
        pytest.param({"lone_player": "last_speaker_must_play"}, [fly.Fold(), fly.Stand()], id="last_speaker"),
    ],
)
def test_fly_5_3_forced_player_may_not_fold_after_exchanging(options: dict[str, Any], before: list[Any]) -> None:
    """FLY-4.6, FLY-5.3, FLY-5.4, FLY-5.5: with may_fold_after_exchange, a player who may not fold may not fold
    in his second decision either.

    Position (3 players, dealer 2, hearts trump): the forced seat exchanges one card and is then offered
    Stand() *and* Fold() by the engine; the reference offers only Stand(). FLY-5.2 (A♠) is enforced on the
    same second decision, which shows the intent.
    """
    rules = fly.FlyRules(players=3, may_fold_after_exchange=True, **options)
    start = position(rules, HANDS, dealer=2)
    engine = fly.new_deal(rules, **start)
    ref = RefDeal(rules, **start)
    for action in before:
        engine = engine.apply(action)
        ref.apply(action)
    seat = engine.to_move
    assert seat is not None
    exchange = fly.Exchange(min(engine.hands[seat]).__str__())
    engine = engine.apply(exchange)
    ref.apply(exchange)
    assert ref.legal_actions() == {fly.Stand()}
    assert engine.legal_actions() == (fly.Stand(),)
    with pytest.raises(RuleViolation):
        engine.apply(fly.Fold())


@pytest.mark.parametrize(
    ("options", "hands", "played", "expected"),
    [
        # hearts trump, K♥ led; seat 1 holds 7♥ and A♠ (a trump ranking above A♥): only A♠ heads the trick
        pytest.param(
            {"must_head_trick": True}, ["KH 7C 8C 9C TC", "7H AS 7D 8D 9D", "9H JC QC KC AC"], "KH", "AS", id="head"
        ),
        # K♣ led, seat 1 trumps with Q♥; seat 2 (no clubs) holds 7♥ and A♠: only A♠ overtrumps
        *(
            pytest.param({"trump_duty": duty}, OVERTRUMP_HANDS, "KC QH", "AS", id=duty)
            for duty in ("overtrump", "overtrump_or_free")
        ),
    ],
)
def test_fly_6_3_6_4_top_trump_ace_of_spades_heads_and_overtrumps(
    options: dict[str, Any], hands: list[str], played: str, expected: str
) -> None:
    """FLY-6.3, FLY-6.4, FLY-7.1 (ace_of_spades_mode="top_trump"): A♠ is the top trump, so it heads a trump lead
    and overtrumps any trump; when it is the only card that does, the duty leaves no other choice.

    The engine counts A♠ as a trump for following a trump lead (holding A♠ and no other trump, A♠ is forced)
    but ignores it for the heading and overtrumping duties: it allows 7♥ (and, with overtrump_or_free, any
    card), as if the player could not head/overtrump.
    """
    rules = fly.FlyRules(players=3, ace_of_spades_mode="top_trump", **options)
    start = position(rules, hands, dealer=2)
    engine = fly.new_deal(rules, **start)
    ref = RefDeal(rules, **start)
    for action in [fly.Stand()] * 3 + plays(played):
        engine = engine.apply(action)
        ref.apply(action)
    assert ref.legal_actions() == set(plays(expected))
    assert set(engine.legal_actions()) == set(plays(expected))


def test_fly_9_2_records_never_negative_in_end_of_deal_mode() -> None:
    """FLY-9.2 ("writing off below 0 is forbidden"), issue 3 invariant "records never negative".

    stop_mode="end_of_deal", seat 0 at record 2 takes all five tricks: 1, 0, then the third trick would go
    below 0, so the record starts again from 25 at once, then 24, 23. Never negative at any moment.
    """
    rules = fly.FlyRules(players=3, stop_mode="end_of_deal")
    start = position(rules, ["AC KC QC JC TC", "7C 8C 9C 7D 8D", "9D TD JD QD KD"], dealer=2, records=[2, 25, 25])
    engine = fly.new_deal(rules, **start)
    seen = []
    while not engine.is_over:
        engine = engine.apply(engine.legal_actions()[0])
        seen.append(engine.records[0])
    changes = [r for i, r in enumerate(seen) if i == 0 or r != seen[i - 1]]
    assert changes == [2, 1, 0, 25, 24, 23]
    assert engine.records == (23, 30, 30)


@pytest.mark.parametrize("mode", ["led_trump_ace", "led_trump_ace_void_only"])
def test_fly_6_3_7_3_no_heading_duty_once_the_ace_of_spades_holds_the_trick(mode: PrivilegeMode) -> None:
    """FLY-6.3 (must_head_trick), FLY-7.3: once A♠ has taken a led trump ace, no later card can head the trick.

    ace_rank="below_jack" (so Q♥ ranks above A♥), hearts trump, seat 0 leads A♥, seat 1 plays A♠ (which wins
    the trick, the engine agrees); seat 2 holds 7♥ Q♥. The reference lets seat 2 play either heart, as the
    engine itself does when a plain-suit trick has been trumped; the engine forces Q♥ "to head" a trick Q♥
    cannot win. (With ace_rank="high" nothing ranks above the trump ace, so only below_jack shows it.)
    For led_trump_ace_void_only, seat 1 holds no heart, so A♠ is his free choice and still wins.
    """
    rules = fly.FlyRules(players=3, ace_rank="below_jack", must_head_trick=True, ace_of_spades_mode=mode)
    hands = ["AH 7C 8C 9C TC", "JS AS 7D 8D 9D", "7H QH JC QC KC"]
    start = position(rules, hands, dealer=2)
    engine = fly.new_deal(rules, **start)
    ref = RefDeal(rules, **start)
    for action in [fly.Stand()] * 3 + plays("AH AS"):
        engine = engine.apply(action)
        ref.apply(action)
    assert ref.legal_actions() == set(plays("7H QH"))
    assert engine.apply(plays("QH")[0]).tricks_taken == (0, 1, 0)  # A♠ wins (FLY-7.3): both sides agree
    assert set(engine.legal_actions()) == set(plays("7H QH"))
