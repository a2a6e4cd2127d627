"""One storage suite, run on both backends: SQLite (a file) and PostgreSQL (a fresh database on the session's
cluster). Each test runs its coroutine on a new event loop, as a server process would."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from fly_rules.server.postgres import PostgresStorage
from fly_rules.server.storage import (
    Entry,
    MatchRow,
    SQLiteStorage,
    Storage,
    StorageUnavailable,
    TableRow,
    storage_from_url,
)
from fly_rules.server.tables import commitment_of

Opener = Callable[[], Storage]


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens the test's database: every call a new storage (a new connection) on the same data."""
    where = str(tmp_path / "tables.sqlite3") if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    return lambda: storage_from_url(where)


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


def _row(table_id: str = "t1", **changes: Any) -> TableRow:
    values: dict[str, Any] = {
        "table_id": table_id,
        "game": "fly",
        "players": 4,
        "options": {"max_deals": 2, "names": ["a", "b"]},
        "preset": "default",
        "bots": {2: "rule-of-thumb", 3: "random"},
        "token_digests": ("ab" * 32, "cd" * 32, None, None),
        "turn_seconds": None,
    }
    return TableRow(**(values | changes))


def _match(number: int = 0, start: int = 0, dealer: int | None = None) -> MatchRow:
    seed = 2**127 + number  # a 128-bit seed survives the round trip whole
    return MatchRow(number, seed, f"{number:032x}", commitment_of(seed, f"{number:032x}"), dealer, start)


async def _closing(storages: list[Storage], body: Callable[[], Awaitable[None]]) -> None:
    try:
        await body()
    finally:
        for storage in storages:
            await storage.close()


def test_tbl_8_1_a_table_and_its_matches_come_back_as_kept(opener: Opener) -> None:
    """TBL-8.1: a table's row, its first match and a rematch's match read back equal, from a second connection."""

    async def body() -> None:
        first, second = opener(), opener()

        async def check() -> None:
            row = _row(turn_seconds=30)
            await first.create(row, _match())
            assert await second.table("t1") == row
            assert await second.table("nobody") is None
            assert await second.matches("t1") == [_match()]
            assert await first.append("t1", Entry(1, "rematch", 1, "1"), _match(1, 1, dealer=2))
            assert await second.matches("t1") == [_match(), _match(1, 1, dealer=2)]
            assert await second.matches("nobody") == []

        await _closing([first, second], check)

    run(body)


def test_tbl_8_1_only_the_next_seq_is_appended(opener: Opener) -> None:
    """TBL-8.1: an entry is appended only at the table's next seq; a taken seq or a gap is refused with nothing
    written (a rematch's match neither); tables' logs are apart."""

    async def body() -> None:
        storage = opener()

        async def check() -> None:
            await storage.create(_row("t1"), _match())
            await storage.create(_row("t2"), _match())
            assert await storage.append("t1", Entry(1, "act", 0, "exchange 2"))
            assert not await storage.append("t1", Entry(1, "act", 1, "exchange 0"))
            assert not await storage.append("t1", Entry(3, "act", 1, "exchange 0"))
            assert not await storage.append("t1", Entry(1, "rematch", 1, "1"), _match(1, 1))
            assert await storage.append("t2", Entry(1, "act", 3, "stand"))
            assert await storage.append("t1", Entry(2, "act", 1, "exchange 0"))
            assert await storage.entries("t1") == [Entry(1, "act", 0, "exchange 2"), Entry(2, "act", 1, "exchange 0")]
            assert await storage.entries("t1", 1) == [Entry(2, "act", 1, "exchange 0")]
            assert await storage.entries("t1", 2) == []
            assert await storage.entries("t2") == [Entry(1, "act", 3, "stand")]
            assert await storage.matches("t1") == [_match()]

        await _closing([storage], check)

    run(body)


def test_tbl_8_1_two_writers_at_one_seq_one_wins(opener: Opener) -> None:
    """TBL-8.1: two connections offer entries for the same seq at once, 100 times over: each time exactly one is
    appended, and the log is the winners' entries without a gap."""

    async def body() -> None:
        first, second = opener(), opener()

        async def check() -> None:
            await first.create(_row(), _match())
            winners = []
            for seq in range(1, 101):
                offers = [Entry(seq, "act", 0, f"a{seq}"), Entry(seq, "act", 1, f"b{seq}")]
                results = await asyncio.gather(first.append("t1", offers[0]), second.append("t1", offers[1]))
                assert sorted(results) == [False, True]
                winners.append(offers[results.index(True)])
            assert await first.entries("t1") == winners
            assert await second.entries("t1") == winners

        await _closing([first, second], check)

    run(body)


def test_tbl_8_1_kept_after_the_storage_is_closed(opener: Opener) -> None:
    """TBL-8.2: what one storage committed, a new one (a restarted server) reads."""

    async def write() -> None:
        storage = opener()

        async def check() -> None:
            await storage.create(_row(), _match())
            assert await storage.append("t1", Entry(1, "act", 0, "pass"))

        await _closing([storage], check)

    async def read() -> None:
        storage = opener()

        async def check() -> None:
            assert await storage.table("t1") == _row()
            assert await storage.entries("t1") == [Entry(1, "act", 0, "pass")]

        await _closing([storage], check)

    run(write)
    run(read)


def test_tbl_8_3_one_leader_a_table(opener: Opener) -> None:
    """TBL-8.3: a storage that leads a table keeps leading it; on PostgreSQL a second process does not lead it until
    the first resigns (on SQLite, one process a file, the one process always leads)."""

    async def body() -> None:
        first, second = opener(), opener()

        async def check() -> None:
            await first.watch(lambda table_id, seq: None)
            await second.watch(lambda table_id, seq: None)
            await first.create(_row(), _match())
            assert await first.lead("t1")
            assert await first.lead("t1")
            shared = isinstance(first, PostgresStorage)
            assert await second.lead("t1") is not shared
            await first.resign("t1")
            assert await second.lead("t1")
            assert await first.lead("t1") is not shared

        await _closing([first, second], check)

    run(body)


def test_tbl_8_5_presence_is_shared_and_goes_with_its_process(opener: Opener) -> None:
    """TBL-8.5: on PostgreSQL the seats one storage says are connected are present to another, each change is
    notified to both, a seat held by two is present until both let it go, and a storage closed (as a killed process's
    connection ends) leaves none of its seats present; on SQLite nothing is shared: the one process knows its own."""

    async def body() -> None:
        first, second, third = opener(), opener(), opener()
        heard: list[str | None] = []

        async def check() -> None:
            await first.watch(lambda table_id, seq: None, heard.append)
            await second.watch(lambda table_id, seq: None)
            await third.watch(lambda table_id, seq: None)
            shared = isinstance(first, PostgresStorage)
            await first.connected("t1", 0, True)
            await second.connected("t1", 2, True)
            await first.connected("t1", 2, True)
            await third.connected("t2", 1, True)
            assert await second.present("t1", 4) == ({0, 2} if shared else set())
            await second.connected("t1", 2, False)
            assert await third.present("t1", 4) == ({0, 2} if shared else set())
            await first.connected("t1", 2, False)
            assert await third.present("t1", 4) == ({0} if shared else set())
            for _ in range(50):  # the notices of the five changes at t1, its own among them, reach the first
                if heard.count("t1") == 5 or not shared:
                    break
                await asyncio.sleep(0.1)
            assert heard.count("t1") == (5 if shared else 0)
            await first.close()
            assert await third.present("t1", 4) == set()
            assert await third.present("t2", 4) == ({1} if shared else set())

        await _closing([second, third], check)

    run(body)


def test_tbl_8_4_an_unreachable_database_is_said(tmp_path: Path) -> None:
    """TBL-8.4: a PostgreSQL URL nobody answers raises StorageUnavailable naming it, on every call; a SQLite path in
    a missing folder is refused at once."""

    async def body() -> None:
        storage = storage_from_url("postgresql://fly@127.0.0.1:1/none")
        try:
            with pytest.raises(StorageUnavailable, match="cannot be reached"):
                await storage.table("t1")
            with pytest.raises(StorageUnavailable, match="cannot be reached"):
                await storage.append("t1", Entry(1, "act", 0, "pass"))
            assert not await storage.lead("t1")
        finally:
            await storage.close()

    run(body)
    assert isinstance(storage_from_url(tmp_path / "x.sqlite3"), SQLiteStorage)
    with pytest.raises(Exception, match="unable to open"):
        storage_from_url(tmp_path / "no" / "such" / "x.sqlite3")


def test_tbl_8_1_random_offers_keep_the_log_gapless(opener: Opener) -> None:
    """TBL-8.1: offers at random seqs from two connections: accepted exactly when the seq was the next, and the log
    reads back as the accepted entries in order."""
    rng = random.Random(50)

    async def body() -> None:
        storages = [opener(), opener()]

        async def check() -> None:
            await storages[0].create(_row(), _match())
            log: list[Entry] = []
            for number in range(60):
                seq = len(log) + rng.choice([0, 1, 1, 1, 2])
                entry = Entry(seq, "act", number % 4, f"x{number}")
                accepted = await rng.choice(storages).append("t1", entry)
                assert accepted is (seq == len(log) + 1)
                if accepted:
                    log.append(entry)
            assert await storages[1].entries("t1") == log

        await _closing(storages, check)

    run(body)
