"""The shared engine: one Phase for both games, the seeded shuffle (CPython's ``random.Random.shuffle``
reproduced), and the names the engine package keeps for one release."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fly_rules import engine, fly
from fly_rules.actions import Play
from fly_rules.cards import ALL_CARDS, DECK_32, DECK_52, CardSet
from fly_rules.engine import Phase, shuffle, shuffled, shuffled_indices
from fly_rules.errors import RuleViolation


def test_fly_phase_is_the_engine_phase() -> None:
    """Fly re-exports the one Phase enum of the engine."""
    assert fly.Phase is Phase
    assert fly.new_match(fly.FlyRules(players=4), seed=1, dealer=0).deal.phase is Phase.EXCHANGE


@pytest.mark.parametrize("text", ["fly_rules:7:0", "fly_rules:abc:12", "fly_rules:é♠:-1", ""])
def test_the_shuffle_generator_is_random_random_of_the_same_text(text: str) -> None:
    """Seeded once from the text, the generator gives the words ``random.Random(text)`` gives."""
    assert shuffle._generator(text).getrandbits(4096) == random.Random(text).getrandbits(4096)


def _random_shuffle(mask: int, seed: int | str, number: int) -> list[int]:
    """What ``random.Random.shuffle`` gives for the card indices of ``mask``, lowest first."""
    expected = [i for i in range(52) if mask >> i & 1]
    random.Random(f"fly_rules:{seed}:{number}").shuffle(expected)
    return expected


@pytest.mark.parametrize("batch", [96, 128, 3])
def test_shuffled_is_random_shuffle_of_the_seeded_generator(monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    """REC-2.2: the written-out shuffle gives random.shuffle's order, so every saved history replays the same
    deals (also when the batch of drawn words runs out)."""
    monkeypatch.setattr(shuffle, "_BATCH", batch)
    for deck in (DECK_32, DECK_52):
        for seed in [*range(40), "abc"]:
            assert shuffled(deck, seed, 3) == tuple(ALL_CARDS[i] for i in _random_shuffle(deck.mask, seed, 3))


@given(
    mask=st.integers(min_value=0, max_value=(1 << 52) - 1),
    seed=st.integers(min_value=-(10**30), max_value=10**30) | st.text(max_size=20),
    number=st.integers(min_value=-1, max_value=10**6),
)
def test_rec_2_2_shuffled_indices_match_random_random_for_any_deck_and_seed(
    mask: int, seed: int | str, number: int
) -> None:
    """REC-2.2: for any set of cards (0 to 52 of them), any seed and any deal number, the order is
    ``random.Random(f"fly_rules:{seed}:{number}").shuffle`` of the indices, lowest first."""
    assert shuffled_indices(CardSet(mask), seed, number) == _random_shuffle(mask, seed, number)


@pytest.mark.parametrize("seed", [1.0, True, None, b"7", [1]])
def test_a_seed_of_the_wrong_type_is_a_type_error(seed: object) -> None:
    """A seed is an int or a str: anything else (a bool included) is a TypeError naming its type."""
    with pytest.raises(TypeError, match="a seed must be an int or a str"):
        shuffled(DECK_32, seed, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [10**100, -(10**100), 10**5000], ids=["1e100", "-1e100", "1e5000"])
def test_rec_1_5_a_seed_of_more_than_100_digits_is_refused(seed: int) -> None:
    """REC-1.5: a seed the formats cannot write is refused with the library's error, never Python's
    4,300-digit ValueError; 100 digits are fine."""
    with pytest.raises(RuleViolation, match="at most 100 digits") as caught:
        shuffled(DECK_32, seed, 0)
    assert caught.value.rule == "REC-1.5"
    assert len(shuffled(DECK_32, 10**100 - 1, 0)) == 32


def test_replace_is_deprecated_for_attrs_evolve() -> None:
    """``fly_rules.engine.replace`` answers for one release, with a DeprecationWarning naming attrs.evolve."""
    with pytest.warns(DeprecationWarning, match=r"fly_rules\.engine\.replace is deprecated; use attrs\.evolve"):
        replace = engine.replace
    assert replace is attrs.evolve
    assert replace(Play("AS"), card="KS") == Play("KS")
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        engine.nothing  # noqa: B018
