"""The shared engine: one Phase for both games, the seeded shuffle (CPython's ``random.Random.shuffle``
reproduced) and the matches' shared base."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fly_rules import fly
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
        shuffled(DECK_32, seed, 0)


@pytest.mark.parametrize("seed", [10**100, -(10**100), 10**5000], ids=["1e100", "-1e100", "1e5000"])
def test_rec_1_5_a_seed_of_more_than_100_digits_is_refused(seed: int) -> None:
    """REC-1.5: a seed the formats cannot write is refused with the library's error, never Python's
    4,300-digit ValueError; 100 digits are fine."""
    with pytest.raises(RuleViolation, match="at most 100 digits") as caught:
        shuffled(DECK_32, seed, 0)
    assert caught.value.rule == "REC-1.5"
    assert len(shuffled(DECK_32, 10**100 - 1, 0)) == 32


@pytest.mark.parametrize("game", ["fly", "dreyfus"])
def test_fly_10_1_drf_8_1_both_matches_hold_the_same_fields_and_step_the_same_way(game: str) -> None:
    """FLY-10.1, DRF-8.1: a Fly and a Dreyfus match are named tuples of the same fields, in the same order,
    and one ``apply`` (the engine's) steps both from deal to deal until ``match_stops``."""
    from fly_rules import dreyfus
    from fly_rules.engine import MATCH_FIELDS, MatchBase, match_stops

    match: Any = (
        fly.new_match(fly.FlyRules(players=3, max_deals=2), seed=5, dealer=0)
        if game == "fly"
        else dreyfus.new_match(dreyfus.DreyfusRules(max_deals=2), seed=5, dealer=0)
    )
    assert type(match)._fields == MATCH_FIELDS
    assert (match.seed, match.first_dealer, match.deals_played, match.previous_deal) == (5, 0, 0, None)
    assert type(match).apply is MatchBase.apply
    rng = random.Random(3)
    while not match.is_over:
        match = match.apply(rng.choice(match.legal_actions()))
    assert match.deals_played == 2
    assert match_stops(match.rules, match.winner, match.deals_played)
    assert match.previous_deal.deal_number == 0
    with pytest.raises(RuleViolation, match=f"^{type(match).over_rule}: the match is over"):
        match.apply(match.deal.actions[-1])


@pytest.mark.parametrize("game", ["fly", "dreyfus"])
def test_both_deals_are_equal_by_position_through_the_one_deal_base(game: str) -> None:
    """Both games' deals take equality, hashing and the names they read from their table from
    ``DealBase``: deals that differ only by history are equal (``==``, ``!=`` and ``hash`` agree),
    a deal differing in a field is not, nor is a plain tuple of the same fields."""
    from fly_rules import dreyfus
    from fly_rules.engine import DealBase

    deal: Any = (
        fly.new_match(fly.FlyRules(players=4), seed=9, dealer=2).deal
        if game == "fly"
        else dreyfus.new_match(dreyfus.DreyfusRules(), seed=9, dealer=2).deal
    )
    assert DealBase in type(deal).__mro__
    moved = deal.apply(deal.legal_actions()[0])
    same = deal._replace(history=moved.history)
    assert (same == deal, same != deal, hash(same) == hash(deal)) == (True, False, True)
    assert (moved == deal, moved != deal) == (False, True)
    assert (deal == tuple(deal), deal != tuple(deal)) == (False, True)
    assert (deal.rules, deal.dealer, deal.deal_number, deal.previous_deal) == (deal.table.rules, 2, 0, None)
    assert (moved.actions, deal.actions) == ((deal.legal_actions()[0],), ())
