"""The shared engine vocabulary: one Phase for both games, and the guarded replace."""

from __future__ import annotations

import random

import pytest

from fly_rules import engine, fly
from fly_rules.actions import Play
from fly_rules.cards import DECK_32, DECK_52, Card
from fly_rules.engine import Phase, replace, shuffled


def test_fly_phase_is_the_engine_phase() -> None:
    """Fly re-exports the one Phase enum of the engine."""
    assert fly.Phase is Phase
    assert fly.new_match(fly.FlyRules(players=4), seed=1, dealer=0).deal.phase is Phase.EXCHANGE


def test_replace_changes_only_the_named_field() -> None:
    """A replaced value lands in the copy; the original is untouched."""
    old = Play("AS")
    new = replace(old, card=Card.parse("KS"))
    assert (old.card, new.card) == (Card.parse("AS"), Card.parse("KS"))


def test_replace_refuses_a_value_of_the_wrong_type() -> None:
    """Converters do not run in replace, so a str for a Card is refused, not stored."""
    with pytest.raises(TypeError, match=r"Play\.card must be Card, not 'KS'"):
        replace(Play("AS"), card="KS")


def test_replace_refuses_unknown_and_derived_fields() -> None:
    """Only fields set by ``__init__`` may be replaced."""
    with pytest.raises(TypeError, match="no field 'suit'"):
        replace(Play("AS"), suit=None)
    table = fly.new_match(fly.FlyRules(players=4), seed=1, dealer=0).deal.table
    with pytest.raises(TypeError, match="no field 'trump'"):
        replace(table, trump=0)


def test_replace_accepts_every_member_of_a_union() -> None:
    """A field typed ``X | None`` takes None and an X; a Literal field takes its values' type."""
    table = fly.new_match(fly.FlyRules(players=4), seed=1, dealer=0).deal.table
    assert replace(table, seed=None).seed is None
    assert replace(table, seed="s").seed == "s"
    with pytest.raises(TypeError, match=r"Table\.seed must be"):
        replace(table, seed=1.5)
    rules = fly.FlyRules(players=4)
    assert replace(rules, revoke_mode="adjudicate").revoke_mode == "adjudicate"
    with pytest.raises(TypeError, match="revoke_mode"):
        replace(rules, revoke_mode=1)


@pytest.mark.parametrize("text", ["fly_rules:7:0", "fly_rules:abc:12", "fly_rules:é♠:-1", ""])
def test_the_shuffle_generator_is_random_random_of_the_same_text(text: str) -> None:
    """Seeded once from the text, the generator gives the words ``random.Random(text)`` gives."""
    assert engine._generator(text).getrandbits(4096) == random.Random(text).getrandbits(4096)


@pytest.mark.parametrize("batch", [128, 3])
def test_shuffled_is_random_shuffle_of_the_seeded_generator(monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    """The written-out shuffle gives random.shuffle's order, so every saved history replays the same deals
    (also when the batch of drawn words runs out)."""
    monkeypatch.setattr(engine, "_BATCH", batch)
    for deck in (DECK_32, DECK_52):
        for seed in [*range(40), "abc"]:
            expected = list(deck)
            random.Random(f"fly_rules:{seed}:3").shuffle(expected)
            assert shuffled(deck, seed, 3) == tuple(expected)
