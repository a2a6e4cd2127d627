"""The seeded shuffle as specs/records.md section 6 states it, implemented here from that text alone (the Mersenne
Twister written out, no ``random`` module), against the engine's shuffle, lot and refills and the kit's shuffle
vectors (specs/conformance/shuffle.json and the ``shuffle`` cases)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

import pytest

from fly_rules import dreyfus, fly
from fly_rules.cards import ALL_CARDS, DECK_48, CardSet
from fly_rules.conformance.answers import answer
from fly_rules.conformance.vectors import kit_dir, load_cases
from fly_rules.engine import shuffled
from fly_rules.fly.deal import refill_order

N, M = 624, 397


class Twister:
    """MT19937 with ``init_by_array``, as REC-6.1 names it (the reference code of Matsumoto and Nishimura)."""

    def __init__(self, key: list[int]) -> None:
        mt = [0] * N
        mt[0] = 19650218
        for i in range(1, N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(N, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, N

    def next_word(self) -> int:
        """The next tempered 32-bit output."""
        if self.index >= N:
            mt = self.mt
            for k in range(N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7FFFFFFF)
                mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def bits(self, k: int) -> int:
        """A draw of ``k`` bits (1 to 32): the next output shifted right by 32 - k [REC-6.1]."""
        return self.next_word() >> (32 - k)

    def below(self, n: int) -> int:
        """A number below ``n`` by rejection [REC-6.3]."""
        k = n.bit_length()
        value = self.bits(k)
        while value >= n:
            value = self.bits(k)
        return value


def key_of(text: str) -> list[int]:
    """The key of a seed text: the 32-bit words of UTF-8 bytes and their SHA-512, least significant first [REC-6.1]."""
    data = text.encode("utf-8")
    whole = int.from_bytes(data + hashlib.sha512(data).digest(), "big")
    words = []
    while whole:
        words.append(whole & 0xFFFFFFFF)
        whole >>= 32
    return words or [0]


def seed_text(seed: int | str, *parts: object) -> str:
    """``fly_rules:S:...`` [REC-6.2]."""
    return ":".join(["fly_rules", str(seed), *map(str, parts)])


def shuffle(indices: list[int], text: str) -> list[int]:
    """Fisher-Yates from the top down with the generator of ``text`` [REC-6.4]."""
    twister = Twister(key_of(text))
    cards = list(indices)
    for i in range(len(cards) - 1, 0, -1):
        j = twister.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deck_indices(deck: CardSet) -> list[int]:
    return [card.index for card in deck]


def seeds() -> Iterator[int | str]:
    yield from (0, 1, 7, -3, 2**40 + 5, 10**99 - 1, "", "abc", "Муха", "fly_rules:1:2")


@pytest.mark.parametrize("seed", list(seeds()))
def test_rec_6_1_the_generator_is_the_mersenne_twister_seeded_from_the_text(seed: int | str) -> None:
    """The key and generator of REC-6.1 give random.Random(text)'s outputs, which the engine's shuffle uses."""
    text = seed_text(seed, 0)
    ours, theirs = Twister(key_of(text)), random.Random(text)
    assert [ours.next_word() for _ in range(700)] == [theirs.getrandbits(32) for _ in range(700)]


def test_rec_6_1_the_spec_example_values() -> None:
    """The example of REC-6.1 (fly_rules:7:0): 20 key words, the first and last, the first outputs and draws."""
    key = key_of("fly_rules:7:0")
    assert (len(key), key[0], key[-1]) == (20, 0x24158C01, 0x66)
    twister = Twister(key)
    assert [twister.next_word() for _ in range(3)] == [2246772997, 1633618528, 4255937138]
    fresh = Twister(key)
    assert [fresh.bits(5) for _ in range(3)] == [16, 12, 31]
    again = Twister(key)
    assert (again.bits(6), again.bits(6)) == (33, 24)
    assert Twister(key).below(32) == 24  # REC-6.3's example: 33 refused, 24 taken


@pytest.mark.parametrize("seed", list(seeds()))
def test_rec_6_2_and_rec_6_4_every_deal_is_shuffled_from_its_own_seed_text(seed: int | str) -> None:
    """Deal N of a match is the deck in canonical order shuffled by fly_rules:S:N, for every deck size."""
    for size, deck in ((32, fly.FlyRules(players=3).deck), (36, fly.FlyRules(players=4).deck), (48, DECK_48)):
        for number in (0, 1, 5):
            expected = [ALL_CARDS[i] for i in shuffle(deck_indices(deck), seed_text(seed, number))]
            assert list(shuffled(deck, seed, number)) == expected, (size, number)


def test_rec_6_3_a_number_below_n_is_drawn_by_rejection() -> None:
    """below(n) takes the bits of n and draws again while the value is n or more, as randrange does."""
    for n in (1, 2, 3, 5, 7, 33, 52, 2**31 + 1):
        ours, theirs = Twister(key_of(f"t{n}")), random.Random(f"t{n}")
        assert [ours.below(n) for _ in range(50)] == [theirs.randrange(n) for _ in range(50)]


@pytest.mark.parametrize("seed", list(seeds()))
def test_rec_6_5_the_first_dealer_by_lot(seed: int | str) -> None:
    """Fly: a number below players from fly_rules:S:first-dealer; Dreyfus: the low card of deal -1's first three."""
    for players in range(3, 8):
        rules = fly.FlyRules(players=players)
        assert fly.new_match(rules, seed=seed).deal.dealer == Twister(key_of(seed_text(seed, "first-dealer"))).below(
            players
        )
    lot = [ALL_CARDS[i] for i in shuffle(deck_indices(DECK_48), seed_text(seed, -1))[:3]]
    first = min(range(3), key=lambda seat: (lot[seat].rank, lot[seat].suit))
    assert dreyfus.new_match(dreyfus.DreyfusRules(), seed=seed).deal.dealer == first


def test_rec_6_6_a_refilled_stock_is_the_pool_shuffled_or_in_canonical_order() -> None:
    """A seeded deal's refill R of deal N shuffles the pool by fly_rules:S:N:refill:R; without a seed the pool stays
    in canonical order."""
    pool = CardSet.parse("2C 9C 3D KH 4S AS 7H").mask
    indices = [i for i in range(52) if pool >> i & 1]
    for seed, number, refill in ((7, 0, 0), ("x", 3, 1), (-1, 2, 4)):
        text = seed_text(seed, number, "refill", refill)
        assert list(refill_order(pool, seed, number, refill)) == shuffle(indices, text)
    assert list(refill_order(pool, None, 0, 0)) == indices


def test_the_kits_shuffle_vectors_follow_the_spec() -> None:
    """Each shuffle case's pack and first dealer, and each entry of shuffle.json, are what the spec's algorithm gives
    (what tests/web/shuffle.test.mjs checks again in JavaScript)."""
    cases = [case for case in load_cases() if case["kind"] == "shuffle"]
    assert len(cases) >= 6
    for case in cases:
        got = answer({"cmd": "shuffle", **{k: case[k] for k in ("game", "rules", "seed", "deal_number")}})
        assert got == case["expected"]
        game, seed, number = case["game"], case["seed"], case["deal_number"]
        rules = fly.FlyRules(players=case["rules"]["players"]) if game == "fly" else None
        deck = rules.deck if rules is not None else DECK_48
        pack = " ".join(str(ALL_CARDS[i]) for i in shuffle(deck_indices(deck), seed_text(seed, number)))
        assert case["expected"]["pack"] == pack
    vectors = json.loads((kit_dir() / "shuffle.json").read_text(encoding="utf-8"))
    for entry in vectors["generators"]:
        twister = Twister(key_of(entry["text"]))
        assert entry["key_words"] == len(key_of(entry["text"]))
        assert entry["first_words"] == [twister.next_word() for _ in entry["first_words"]]
    for entry in vectors["shuffles"]:
        assert entry["order"] == shuffle(list(range(entry["cards"])), entry["text"])
