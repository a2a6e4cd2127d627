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
from tests.notation.fuzz import READERS, corpus, mutate, read

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
