"""The reproducers of "Nothing lost, no traceback": each bad input raises the library's own error,
naming what is wrong and where [REC-1.5] [REC-4.3] [CARD-3.1]."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from fly_rules import dreyfus, fly
from fly_rules._numbers import MAX_DIGITS, whole_number
from fly_rules.cards import Card, CardSet, RankOrder, Suit, deck_of_size
from fly_rules.errors import FlyRulesError, InvalidNotation, InvalidRules, RuleViolation
from fly_rules.notation.games import parse_action
from fly_rules.notation.history import InvalidHistory, dump_history, load_history
from fly_rules.notation.position import parse_position, position_of
from tests.notation.helpers import fly_start_deal, random_fly_match

FLY_POSITION = "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1"


def dreyfus_position() -> str:
    """The position of a fresh Dreyfus match's first deal."""
    return position_of(dreyfus.new_match(dreyfus.DreyfusRules(), seed=3, dealer=0), moves=[])


def fly_history() -> str:
    """A Fly history from real play (3 players, a deal limit, some deals played)."""
    return dump_history(random_fly_match(3, 80, 3))


@pytest.mark.parametrize("text", ["A\u017f", "\u212aS", "\u212a\u017f", "10\u017f"])
def test_card_3_1_look_alike_letters_are_not_cards(text: str) -> None:
    """CARD-3.1: the long s and the Kelvin sign, which case-fold to s and k, are refused as cards."""
    with pytest.raises(InvalidNotation, match="not a card") as caught:
        Card.parse(text)
    assert caught.value.text == text
    with pytest.raises(InvalidNotation, match="not a card"):
        parse_action(f"play {text}")
    with pytest.raises(InvalidNotation, match="not a card"):
        CardSet.parse(f"AS {text}")


def test_card_4_1_constructors_refuse_bad_values_with_the_rule() -> None:
    """CARD-4.1, CARD-1.3, CARD-2.5: card indices, masks, rank orders and deck sizes out of range name the rule."""
    with pytest.raises(RuleViolation, match="0..51") as caught:
        Card.from_index(52)
    assert caught.value.rule == "CARD-4.1"
    with pytest.raises(RuleViolation, match="mask") as caught:
        CardSet(1 << 52)
    assert caught.value.rule == "CARD-4.1"
    with pytest.raises(RuleViolation) as caught:
        RankOrder("short", ())
    assert caught.value.rule == "CARD-1.3"
    for size in (40, "36"):
        with pytest.raises(RuleViolation) as caught:
            deck_of_size(size)  # type: ignore[arg-type]
        assert caught.value.rule == "CARD-2.5"
    with pytest.raises(InvalidNotation, match="not a suit"):
        Suit.parse(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("digit", ["²", "٣", "３", "1_0", " 1", "+1", ""])
def test_rec_1_5_only_ascii_digits_are_numbers(digit: str) -> None:
    """REC-1.5: superscripts, other scripts' digits, separators and signs are not whole numbers."""
    with pytest.raises(InvalidNotation, match="dealer: .* is not a non-negative whole number") as caught:
        whole_number(digit, "dealer", signed=False)
    assert caught.value.text == digit
    with pytest.raises(InvalidNotation, match="dealer|9 fields separated by single spaces"):
        parse_position(FLY_POSITION.replace(" 0 8H", f" {digit} 8H"))


def test_rec_1_5_numbers_are_bounded() -> None:
    """REC-1.5: a number of more than MAX_DIGITS digits is refused in a position, a history and by
    the reader of numbers, not with Python's 4,300-digit ValueError."""
    assert whole_number("9" * MAX_DIGITS, "seed") == int("9" * MAX_DIGITS)
    with pytest.raises(InvalidNotation, match=f"5000 digits \\(at most {MAX_DIGITS}\\)"):
        whole_number("9" * 5000, "seed")
    with pytest.raises(InvalidNotation, match="records: a number of 5000 digits"):
        parse_position(FLY_POSITION.replace("25,25,25", "9" * 5000 + ",25,25"))
    text = fly_history()
    for digits in (MAX_DIGITS + 1, 5000):
        error = _refused(text.replace("seed = 3", "seed = " + "9" * digits))
        assert (error.rule, error.field) == ("REC-1.5", "document")
        assert f"more than {MAX_DIGITS} digits" in str(error)
    assert _refused(text.replace('"1: ', '"' + "1" * 5000 + ": ", 1)).rule == "REC-3.3"


@pytest.mark.parametrize("depth", [33, 900, 5000])
def test_rec_1_5_deep_nesting_is_refused(depth: int) -> None:
    """REC-1.5: arrays nested past MAX_DEPTH (even 5,000 deep, which overflows tomllib's recursion)
    are refused as a history error."""
    nested = "[" * depth + "]" * depth
    for text in (f"x = {nested}\n", fly_history().replace("[options]\n", f"[options]\nx = {nested}\n", 1)):
        error = _refused(text)
        assert (error.rule, error.field) == ("REC-1.5", "document")
        assert "nested more than 32 deep" in str(error)


def test_rec_5_2_nested_option_arrays_in_a_position_are_refused() -> None:
    """REC-5.2, REC-1.5: an option's array nested 4,900 deep in a position (found by the fuzzer: it
    overflowed the stack) is an InvalidNotation naming the option."""
    nested = "[" * 4900 + "3,2" + "]" * 4900  # within a position's 10,000 characters
    with pytest.raises(InvalidNotation, match="deal_packets") as caught:
        parse_position(FLY_POSITION.replace("fly -", f"fly deal_packets={nested}"))
    assert len(caught.value.text) > 9_000
    assert len(str(caught.value)) < 500  # the message quotes the start and end of the input only
    assert "…" in str(caught.value)


def test_rec_2_3_bogus_trump_duty_is_invalid_rules_everywhere() -> None:
    """REC-2.3, FLY-6.4, DRF-6.4: trump_duty = "bogus" is InvalidRules in both rules objects, a
    history and a position."""
    for make in (fly.FlyRules, dreyfus.DreyfusRules):
        with pytest.raises(InvalidRules, match="must be one of 'any_trump'") as caught:
            make(trump_duty="bogus")
        assert caught.value.option == "trump_duty"
    error = _refused(fly_history().replace("[options]\n", '[options]\ntrump_duty = "bogus"\n', 1))
    assert error.field == "options.trump_duty"
    assert error.line is not None
    with pytest.raises(InvalidNotation, match="trump_duty: must be one of"):
        parse_position(FLY_POSITION.replace("fly -", "fly trump_duty=bogus"))


def test_drf_2_1_dreyfus_position_with_dealer_7_or_two_upper_records() -> None:
    """DRF-2.1, DRF-2.4: a Dreyfus position with dealer 7, or two upper records, is an InvalidNotation
    naming the rule (it was a plain ValueError from the engine)."""
    fields = dreyfus_position().split(" ")
    with pytest.raises(InvalidNotation, match="DRF-2.1: the dealer must be a seat 0 to 2, not 7"):
        parse_position(" ".join([*fields[:2], "7", *fields[3:]]))
    upper = "0,0/" + fields[6].split("/")[1]
    with pytest.raises(InvalidNotation, match="DRF-2.4: upper records must be three"):
        parse_position(" ".join([*fields[:6], upper, *fields[7:]]))
    with pytest.raises(RuleViolation) as caught:
        dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=7)
    assert caught.value.rule == "DRF-2.1"


def test_rec_2_2_max_deals_is_reported_as_max_deals_and_rules_are_not_doubled() -> None:
    """REC-2.2, FLY-1.2: max_deals = -1 is reported at max_deals (not at the dealer); a bad dealer of an
    explicit start names FLY-1.2 once."""
    text = (Path(__file__).parent / "data" / "fly_max_deals_top_level.toml").read_text(encoding="utf-8")
    for bad in ("-1", "0"):
        error = _refused(text.replace("max_deals = 2", f"max_deals = {bad}"))
        assert (error.field, error.rule) == ("max_deals", "REC-2.2")
    with pytest.raises(InvalidRules) as caught:
        fly.FlyRules(players=3, max_deals=-1)
    assert caught.value.option == "max_deals"
    start, deal = fly_start_deal()
    explicit = dump_history(deal, start=start).replace("dealer = 0", "dealer = 9", 1)
    error = _refused(explicit)
    assert error.rule == "FLY-1.2"
    assert str(error).count("FLY-1.2") == 1


def test_rec_1_4_an_empty_or_quoted_unknown_key_is_named() -> None:
    """REC-1.4: an unknown key that is empty or needs quotes is named in quotes (found by the fuzzer:
    the field was empty)."""
    for key, field in (('""', "''"), ('"a b"', "'a b'"), ("bogus", "bogus")):
        error = _refused(fly_history().replace("seed = 3\n", f"seed = 3\n{key} = 1\n"))
        assert (error.field, error.rule) == (field, "REC-1.4")


def test_rec_4_3_a_history_or_position_that_is_not_text() -> None:
    """REC-4.3, REC-5.3: readers given something other than text raise their own error."""
    with pytest.raises(InvalidHistory, match="given as text"):
        load_history(b"format = 1")  # type: ignore[arg-type]
    with pytest.raises(InvalidNotation, match="given as text"):
        parse_position(None)  # type: ignore[arg-type]


def test_rec_4_3_library_errors_are_value_errors_and_name_the_place() -> None:
    """REC-4.3: every refusal above is a FlyRulesError (so a ValueError) with the offending text."""
    error = _refused(fly_history().replace('"1: ', '"٣: ', 1))
    assert isinstance(error, FlyRulesError)
    assert isinstance(error, ValueError)
    assert error.field.startswith("deal[0].actions[")
    assert error.line is not None
    assert error.text.startswith("٣: ")


def _refused(text: str) -> InvalidHistory:
    with pytest.raises(InvalidHistory) as caught:
        load_history(text)
    return caught.value


def test_rec_1_1_loading_is_linear_in_the_text() -> None:
    """REC-1.1: a history with megabytes of comments among a thousand actions loads in well under a
    second of CPU (the reader used to rescan the whole text for each action's line)."""
    rng = random.Random(1)
    match = fly.new_match(fly.FlyRules(players=4, start_record=500, max_deals=50), seed=1)
    while not match.is_over:
        legal = match.legal_actions()
        match = match.apply(legal[rng.randrange(len(legal))])
    padding = "\n" + "\n".join(["# " + "x" * 70] * 20)
    text = dump_history(match).replace("\n", padding + "\n")
    assert len(match.actions) > 800
    assert len(text) > 2_000_000
    started = time.process_time()
    assert load_history(text) == match
    assert time.process_time() - started < 1.0


@pytest.mark.parametrize(
    "shape",
    [
        "[{key}]\n",
        "[[{key}]]\n",
        "{key} = 1\n",
        "x = {{{key} = 1}}\n",
    ],
)
def test_rec_1_5_a_key_of_200000_parts_is_refused_before_parsing(shape: str) -> None:
    """REC-1.5 (issue 21, 9): a history whose key has 200,000 dotted parts (400 kB; Python's TOML reader
    took 37 s on the table header) is refused in a blink, naming the line; 32 parts are let through to
    the reader, and dots in quoted strings do not count."""
    key = ".".join(["a"] * 200_000)
    text = shape.format(key=key) + fly_history()
    started = time.process_time()
    error = _refused(text)
    assert time.process_time() - started < 0.5
    assert (error.rule, error.field) == ("REC-1.5", "document")
    assert error.line == 1
    assert "more than 32 dotted parts" in error.detail
    within = _refused(shape.format(key=".".join(["a"] * 32)) + fly_history())
    assert "dotted parts" not in within.detail
    for line in ('x = "' + "." * 1000 + '"', 'x = "\\"' + "." * 40 + '"', "x = '" + "\\" + "." * 40 + "'"):
        quoted = _refused(line + "\n" + fly_history())
        assert (quoted.rule, quoted.field) == ("REC-1.4", "x")
    assert load_history("# " + "." * 1000 + "\n" + fly_history()) == load_history(fly_history())  # a comment


def test_rec_1_5_a_history_or_position_over_its_size_is_refused_before_parsing() -> None:
    """REC-1.5: a history of more than 64 × 2**20 characters and a position of more than 10,000 are
    refused by their length, before any parsing."""
    big = fly_history() + "#" * (64 * 2**20)
    started = time.process_time()
    error = _refused(big)
    assert time.process_time() - started < 0.5
    assert (error.rule, error.field) == ("REC-1.5", "document")
    assert f"has {len(big)} characters; a history has at most {64 * 2**20}" in error.detail
    with pytest.raises(InvalidNotation, match="a position has at most 10000"):
        parse_position(FLY_POSITION + " " * 10_000)


@pytest.mark.parametrize(
    "value",
    [None, 3, 10**5000, b"stand", ["stand"], [10**5000], 1.5],
    ids=["None", "int", "huge", "bytes", "list", "list-huge", "float"],
)
def test_rec_4_3_every_reader_refuses_what_is_not_text(value: object) -> None:
    """REC-4.3 (issue 21, 10): each text reader given something other than text (a huge number
    among them, whose repr Python refuses) raises its own error naming the value's type, never an
    AttributeError or ValueError of Python's."""
    for reader in (Card.parse, CardSet.parse, parse_action, parse_position, load_history):
        with pytest.raises(InvalidNotation, match="given as text") as caught:
            reader(value)  # type: ignore[arg-type]
        assert len(str(caught.value)) < 200
