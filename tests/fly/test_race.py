"""The race model: a seat's chance of winning a Fly match from the records (fly_rules.fly.race)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import fly
from fly_rules.fly import race as race_module
from fly_rules.fly.race import DEALS, HORIZON, Race, race_of, record_changes

RULES = fly.FlyRules(players=4)
RACE = race_of(RULES)
RECORDS = st.lists(st.integers(1, 40), min_size=4, max_size=4)


def test_the_record_changes_are_those_of_rule_of_thumb_deals() -> None:
    """FLY-8.2, FLY-8.4: the changes are shares of seat-deals that sum to one; a trick writes one off, a seat that
    stands and takes none pays the remise, and no seat-deal writes off more than five tricks and the A♠ bonus."""
    changes = record_changes(RULES, deals=60)
    assert sum(changes.values()) == pytest.approx(1.0)
    assert {-1, RULES.remise} <= set(changes)
    assert min(changes) >= -(5 * RULES.trick_value + RULES.ace_bonus_trumps)
    counted = record_changes(RULES, deals=60)
    assert counted == changes  # seeded: the same deals every time


@pytest.mark.parametrize("players", range(3, 8))
def test_the_counted_changes_are_those_the_deals_give(players: int) -> None:
    """The changes kept for the plain rules of each size (so that a first hint need not play a thousand deals) are
    those the deals give when played again; other rules, or another number of deals, are played."""
    rules = fly.FlyRules(players=players)
    played = race_module._count_changes(rules, DEALS)
    assert dict(sorted(played.items())) == race_module._COUNTED[players]
    total = sum(played.values())
    assert record_changes(rules) == {change: count / total for change, count in sorted(played.items())}
    other = fly.FlyRules(players=players, remise=4)
    assert record_changes(other, deals=30) != record_changes(rules, deals=30)


@settings(max_examples=100)  # each new set of records is a fresh race to follow: a few ms
@given(RECORDS)
def test_the_chances_of_every_seat_sum_to_one(records: list[int]) -> None:
    """FLY-9.1: someone wins the race; the chances of all the seats sum to one."""
    assert RACE is not None
    assert sum(RACE.chance(records, seat) for seat in range(4)) == pytest.approx(1.0, abs=1e-6)


@settings(max_examples=100)
@given(RECORDS, st.integers(0, 3))
def test_a_lower_record_is_a_better_chance(records: list[int], seat: int) -> None:
    """FLY-9.1: nearer zero is nearer the win: lowering the seat's own record raises its chance, lowering
    another's lowers it."""
    assert RACE is not None
    before = RACE.chance(records, seat)
    mine = list(records)
    mine[seat] = max(1, mine[seat] - 3)
    assert RACE.chance(mine, seat) >= before - 1e-12
    other = (seat + 1) % 4
    theirs = list(records)
    theirs[other] = max(1, theirs[other] - 3)
    assert RACE.chance(theirs, seat) <= before + 1e-12


def test_equal_records_are_equal_chances_and_zero_has_won() -> None:
    """FLY-9.1: seats on the same record have the same chance; a seat at zero has won (chance 1, the others 0)."""
    assert RACE is not None
    for record in (1, 7, 25):
        assert RACE.chance((record,) * 4, 2) == pytest.approx(0.25)
    assert RACE.chance((0, 3, 3, 3), 0) == 1.0
    assert RACE.chance((0, 3, 3, 3), 1) == 0.0
    assert RACE.chance((2, 25, 25, 25), 0) > 0.8


def test_the_chances_agree_with_races_played_out() -> None:
    """The chances are those of the model's race played out: 4,000 races drawn from the same changes (each seat's
    record moved independently, seats reaching zero in the same deal sharing the win) agree within sampling error."""
    assert RACE is not None
    changes = record_changes(RULES)
    steps, weights = list(changes), list(changes.values())
    records = (6, 9, 14, 25)
    rng = random.Random(5)
    wins = [0.0] * 4
    races = 4_000
    for _ in range(races):
        now = list(records)
        while True:
            now = [
                min(record + step, RACE.cap) for record, step in zip(now, rng.choices(steps, weights, k=4), strict=True)
            ]
            done = [seat for seat, record in enumerate(now) if record <= 0]
            if done:
                for seat in done:
                    wins[seat] += 1 / len(done)
                break
    for seat in range(4):
        share = wins[seat] / races
        assert RACE.chance(records, seat) == pytest.approx(share, abs=4 * (share * (1 - share) / races) ** 0.5 + 0.005)


@pytest.mark.parametrize(
    "options", [{"trick_value": 2}, {"stop_mode": "end_of_deal"}, {"max_deals": 10}], ids=lambda o: next(iter(o))
)
def test_there_is_no_race_where_a_match_is_not_one_of_whole_tricks_to_zero(options: dict[str, object]) -> None:
    """FLY-8.2, FLY-9.2, FLY-10.1: with tricks worth more than one (a record may overshoot and reset), a win
    only at the end of a deal, or a last deal that a match may well reach, the match is not a plain race to zero:
    no model."""
    assert race_of(fly.FlyRules(players=4, **options)) is None  # type: ignore[arg-type]


def test_a_deal_limit_a_match_almost_never_reaches_keeps_the_race() -> None:
    """FLY-10.1: a limit beyond the deals by which a match from the start records is over nine hundred and
    ninety-nine times in a thousand changes nothing: the same race as with no limit."""
    assert RACE is not None
    length = RACE.length((RULES.start_record,) * 4)
    assert 10 < length < 200
    for limit in (200, int(length)):
        race = race_of(fly.FlyRules(players=4, max_deals=limit))
        assert race is not None  # equal, not necessarily the same object: other tests empty the caches
        assert race.cap == RACE.cap
        assert race.chance((20, 12, 7, 3), 2) == RACE.chance((20, 12, 7, 3), 2)
    assert race_of(fly.FlyRules(players=4, max_deals=int(length) - 1)) is None
    assert RACE.length((1, 1, 1, 1)) <= RACE.length((25, 25, 25, 25))


def test_a_race_needs_a_change_that_writes_a_record_down() -> None:
    """A record that can only stay or grow never reaches zero: such changes are refused by name."""
    with pytest.raises(ValueError, match="writes a record down"):
        Race({0: 0.5, 5: 0.5}, 25)


def test_every_table_size_has_its_race() -> None:
    """FLY-1.1: from three to seven players, the race of equal records is fair (at seven a little of the chance lies
    beyond the deals the race is followed for)."""
    for players, record in itertools.product((3, 7), (5, 25)):
        race = Race(record_changes(fly.FlyRules(players=players), deals=150), 25)
        assert race.chance((record,) * players, 0) == pytest.approx(1 / players, rel=0.01)


def _first_by_expansion(race: Race, records: tuple[int, ...], seat: int) -> float:
    """The chance that ``seat`` reaches zero first, sharing a deal's win equally: the number of others that finish
    in the same deal counted by multiplying out the product of (stay + done x) over them, term by term."""
    alive = [[race._row(deal)[record] for deal in range(HORIZON + 1)] for record in records]
    mine = alive[seat]
    others = [row for s, row in enumerate(alive) if s != seat]
    total = 0.0
    for deal in range(1, len(mine)):
        shares = [1.0]
        for other in others:
            stay, done = other[deal], other[deal - 1] - other[deal]
            shares = [stay * a + done * b for a, b in zip([*shares, 0.0], [0.0, *shares], strict=True)]
        total += (mine[deal - 1] - mine[deal]) * sum(share / (k + 1) for k, share in enumerate(shares))
    return total


@pytest.mark.parametrize("players", [3, 7])
def test_the_shared_wins_are_counted_exactly(players: int) -> None:
    """FLY-9.1: a seat's chance is its share of the wins, seats finishing in the same deal sharing equally; the
    quadrature the race takes it by equals multiplying out the ways the other seats finish, to rounding, for three
    and for seven players (the highest degree the quadrature must be exact for), most of all where several seats
    may well finish in one deal (records of 1 and 2)."""
    race = race_of(fly.FlyRules(players=players))
    assert race is not None
    rng = random.Random(players)
    for _ in range(5):
        records = tuple(rng.choice([1, 2, 3, rng.randint(4, 30)]) for _ in range(players))
        raw = [_first_by_expansion(race, records, seat) for seat in range(players)]
        expected = [chance / sum(raw) for chance in raw]
        assert race.chance(records, 0) == pytest.approx(expected[0], abs=1e-12)
        assert [race.chance(records, seat) for seat in range(players)] == pytest.approx(expected, abs=1e-12)
