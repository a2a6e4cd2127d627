"""The narration says every record change beyond a trick's point in words, with its rule (what ``play``,
``demo`` and ``replay`` print)."""

from __future__ import annotations

import io
from typing import Any

from fly_rules import dreyfus, fly
from fly_rules.cards import Card
from fly_rules.narration import action_lines, narrate
from fly_rules.notation.games import parse_action


def _cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def _first_trick(records: list[int], seat_1: str = "AH 8S 9S TS AS", **options: Any) -> list[str]:
    """What the first trick of FLY-8.3's example deal says (hearts trump; everyone stands, seat 1 leads
    A♥ and takes the trick), from ``records``, seat 1 holding ``seat_1``."""
    rules = fly.FlyRules(players=3, **options)
    hands = [_cards("7C 8D 9D TD JD"), _cards(seat_1), _cards("QD KD AD 9H JS")]
    state: Any = fly.new_deal(
        rules, hands=hands, trump_card=Card.parse("8H"), stock=_cards("7H JH"), dealer=0, records=records
    )
    lines: list[str] = []
    for text in ("stand", "stand", "stand", "play AH", "play 9H", "play 7C"):
        action = parse_action(text, "fly")
        before, mover = state, state.to_move
        state = state.apply(action)
        lines = action_lines(before, state, mover, action)
    return lines


def test_fly_8_3_the_ace_of_spades_bonus_is_said_with_its_rule() -> None:
    """FLY-8.3: the A♠ holder's first trick: 25 -> 19, the bonus named."""
    told = _first_trick([25, 25, 25])
    assert told[0].endswith("-> seat 1 takes it (record 19)")
    assert told[1] == "      seat 1: record 25 -> 19: -1 for the trick [FLY-8.2], -5 A♠ bonus [FLY-8.3]"


def test_fly_9_3_the_exemption_and_fly_9_1_exact_zero_are_said() -> None:
    """FLY-9.3, FLY-9.1: from 3 the holder's first trick would go below 0: exactly 0, and he wins."""
    told = _first_trick([25, 3, 25])
    assert "below 0: exemption, 0 [FLY-9.3]" in told[1]
    assert told[2] == "      seat 1 reaches exactly 0 and wins [FLY-9.1]"


def test_fly_9_2_an_overshoot_is_said() -> None:
    """FLY-9.2: with trick_value 2 a record of 1 overshoots and goes back to 25; no A♠ in play."""
    told = _first_trick([25, 1, 25], seat_1="AH 8S 9S TS KS", trick_value=2)
    assert told[1] == "      seat 1: record 1 -> 25: -2 for the trick [FLY-8.2], overshoot: back to 25 [FLY-9.2]"


def test_fly_8_4_fly_8_5_the_remise_and_the_holders_penalty_are_said() -> None:
    """FLY-8.4, FLY-8.5: at the end of a played deal the seats without a trick are told their remise, and
    the A♠ holder his larger penalty; the narration's record lines add up."""
    out = io.StringIO()
    narrate(fly.new_match(fly.FlyRules(players=4, max_deals=6), seed=1, dealer=0), lambda s, legal: legal[0], out)
    text = out.getvalue()
    assert "+5 remise [FLY-8.4]" in text
    assert "+10 A♠ holder without a trick [FLY-8.5]" in text


def test_drf_4_5_drf_7_2_drf_7_3_dreyfus_records_are_said() -> None:
    """DRF-4.5, DRF-7.2, DRF-7.3: a purchase, each overtrick and the undertricks at the end of the deal are
    said with their rules."""
    out = io.StringIO()
    narrate(dreyfus.new_match(dreyfus.DreyfusRules(max_deals=1), seed=5), lambda s, legal: legal[-1], out)
    text = out.getvalue()
    assert "seat 0: upper 0 -> " in text
    assert ", the purchase [DRF-4.5]" in text
    assert ", a trick beyond four [DRF-7.2]" in text
    assert ", short of four tricks [DRF-7.3]" in text
