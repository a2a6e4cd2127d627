"""Fuzzing every text reader with mutations of inputs from real play: each mutated card, card list,
action, position and history is accepted or refused with the library's own error, naming what is
wrong and where [REC-4.3] [REC-1.5] [CARD-3.1]. ``benchmarks/fuzz_inputs.py`` runs the same at scale."""

from __future__ import annotations

import functools
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules.errors import FlyRulesError, InvalidNotation
from fly_rules.notation.history import InvalidHistory
from tests.notation.fuzz import CALLS, ODD_VALUES, READERS, call, corpus, mutate, read

_RULE = re.compile(r"(REC|FLY|DRF|CARD)-\d+\.\d+")


@functools.cache
def inputs() -> dict[str, list[str]]:
    """The valid inputs the mutations start from (built once)."""
    return corpus(seed=0, matches=12)


def test_rec_4_3_the_fuzz_corpus_is_valid_and_covers_every_reader() -> None:
    """REC-4.3: every unmutated input of the corpus reads without error, for every reader."""
    found = inputs()
    assert set(found) == set(READERS)
    for kind, texts in found.items():
        assert len(texts) >= 3, kind
        assert [text for text in texts if read(kind, text) is not None] == [], kind


def check_refusal(kind: str, text: str, error: FlyRulesError) -> None:
    """A refusal names where: a history its field and a rule, the other readers the text at fault."""
    if kind == "history":
        assert isinstance(error, InvalidHistory)
        assert error.field
        assert _RULE.fullmatch(error.rule), error.rule
    else:
        assert isinstance(error, InvalidNotation)
        assert error.text in text or error.text == repr(text)
    assert error.detail


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(sorted(READERS)), pick=st.integers(0, 10_000), rng=st.randoms(use_true_random=False))
def test_rec_4_3_mutated_inputs_raise_only_library_errors(kind: str, pick: int, rng: random.Random) -> None:
    """REC-4.3, REC-1.5, CARD-3.1: a mutated input from real play is read or refused with a library
    error; nothing else (no KeyError, ValueError, RecursionError) escapes any reader."""
    texts = inputs()[kind]
    text = mutate(texts[pick % len(texts)], rng, texts)
    error = read(kind, text)
    if error is not None:
        check_refusal(kind, text, error)


def test_rec_1_5_the_fuzzer_reaches_the_known_traps() -> None:
    """REC-1.5: the mutations do produce the inputs that used to escape (look-alike letters and
    digits, 4,301-digit numbers, deep nesting), so a clean run means something."""
    rng = random.Random(5)
    texts = inputs()["history"] + inputs()["position"] + inputs()["card"]
    made = "".join(mutate(rng.choice(texts), rng, texts) for _ in range(3000))
    for trap in ("\u017f", "\u212a", "٣", "²", "9" * 4301, "[" * 5000):
        assert trap in made, trap


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(CALLS), rng=st.randoms(use_true_random=False))
def test_rec_1_5_odd_values_to_readers_constructors_and_apply_raise_only_library_errors(
    kind: str, rng: random.Random
) -> None:
    """REC-1.5, REC-4.3, REC-2.3: a reader given a value that is not text, a rules object an option value
    of the wrong type or size, a match an odd seed or dealer, a view an odd seat, apply an odd or mutated
    action: each is accepted or refused with the library's error; a TypeError only for a seed that is
    not an int or a str (documented by new_match), in both games alike."""
    refusal = call(kind, rng, inputs()["action"])
    if isinstance(refusal, TypeError):
        assert kind == "match"
        assert str(refusal).startswith("a seed must be an int or a str, not ")
    elif refusal is not None:
        assert refusal.detail if isinstance(refusal, InvalidNotation) else str(refusal)
        assert len(str(refusal)) < 1000  # never built from a 5,000-digit number


def test_rec_1_5_the_fuzzer_makes_dotted_keys_and_odd_values() -> None:
    """REC-1.5: the mutations make keys of many dotted parts, and the calls cover huge numbers and
    values of the wrong type, so a clean run means something."""
    rng = random.Random(7)
    texts = inputs()["history"]
    made = "".join(mutate(rng.choice(texts), rng, texts) for _ in range(3000))
    assert "a." * 2000 in made
    assert "[" + "a." * 40 in made
    assert {10**5000, None, 1.5, b"AS"} <= {v for v in ODD_VALUES if isinstance(v, int | float | bytes | None)}
