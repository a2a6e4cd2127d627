"""The tables in PostgreSQL, so that several ``fly-rules serve`` processes serve the same tables [TBL-8.3].

:class:`PostgresStorage` keeps the event log of :mod:`fly_rules.server.storage` with the same unique
``(table_id, seq)`` key in the same schema [TBL-8.1], on asyncpg alone (the ``postgres`` extra): six statements
need no ORM, and LISTEN/NOTIFY and session advisory locks are asyncpg's own. Every commit of an entry sends ``NOTIFY
fly_rules_tables, 'TABLE:SEQ'`` in its transaction, so PostgreSQL delivers it at commit and only then; the other
processes read the entries from their last ``seq``. One connection of each process listens, and holds the
advisory locks that say which process runs a table's bots and timers; PostgreSQL drops them when that
connection ends, the process killed included, and another process takes the lead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

import asyncpg

from fly_rules.server.storage import (
    _SCHEMA,
    Entry,
    MatchRow,
    Moved,
    Present,
    StorageUnavailable,
    TableRow,
    _match_values,
    _table_of,
    _table_values,
)

__all__ = ["CHANNEL", "LISTENER", "PRESENCE", "PostgresStorage"]

_log = logging.getLogger("fly_rules.server")
CHANNEL: Final = "fly_rules_tables"
"""The channel each committed entry is notified on, as ``TABLE:SEQ`` [TBL-8.3]."""
LISTENER: Final = "fly-rules listener"
"""The ``application_name`` of each process's listening connection (the one holding its advisory locks), as
``pg_stat_activity`` shows it."""
PRESENCE: Final = "fly_rules_presence"
"""The channel a change of a table's presence is notified on, as ``TABLE`` [TBL-8.5]."""
# a seat's presence lock: shared, keyed by the hash of TABLE/SEAT (seed 1; the leader's lock hashes TABLE, seed 0)
_SEAT_KEY: Final = "hashtextextended($1 || '/' || $2::INTEGER, 1)"
# the seats whose presence lock some session of this database holds: a bigint key shows in pg_locks in two halves
_PRESENT: Final = """
SELECT s FROM generate_series(0, $2 - 1) AS s WHERE EXISTS (
    SELECT 1 FROM pg_locks AS l, LATERAL (SELECT hashtextextended($1 || '/' || s, 1) AS k) AS key
    WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid = ((key.k >> 32) & 4294967295)::oid AND l.objid = (key.k & 4294967295)::oid
)
"""
_SCHEMA_LOCK: Final = 0x666C795F7275  # two processes starting at once create the schema one after the other
# the entry if its seq is the next, the match a rematch starts (when given), and the notice, all at one commit
_APPEND: Final = f"""
WITH added AS (
    INSERT INTO events SELECT $1, $2, $3, $4, $5
    WHERE $2 = (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE table_id = $1)
    RETURNING seq
), game AS (
    INSERT INTO matches SELECT $1, $6, $7, $8, $9, $10, $11 FROM added WHERE $6::INTEGER IS NOT NULL
)
SELECT pg_notify('{CHANNEL}', $1 || ':' || seq) FROM added
"""
# what a lost or refused connection raises: the database is down, restarting, or the network between
_GONE: Final = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
)
# what connecting may also raise: the database refuses connections for now (too many, not accepting them, ...)
_REFUSED: Final = (*_GONE, asyncpg.PostgresError)


class PostgresStorage:
    """The tables in a PostgreSQL database, shared by every server process pointed at it [TBL-8.3].

    The schema is created on the first use. A call made while the database cannot be reached raises
    :class:`~fly_rules.server.storage.StorageUnavailable` and the next call connects again [TBL-8.4].
    """

    def __init__(self, url: str, *, pool_size: int = 10) -> None:
        """The database at ``url`` (``postgresql://USER@HOST:PORT/DB``); nothing is connected until first used."""
        self.url = url
        self._pool_size = pool_size
        self._pool: Any = None
        self._opening = asyncio.Lock()
        self._listener: Any = None
        self._listening: asyncio.Task[None] | None = None
        self._talk = asyncio.Lock()  # one statement at a time on the listening connection
        self._led: set[str] = set()
        self._seated: set[tuple[str, int]] = set()  # the seats whose presence lock this process holds [TBL-8.5]
        self._closed = False

    async def _ready(self) -> Any:
        async with self._opening:
            if self._pool is None:
                try:
                    pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self._pool_size, timeout=10)
                    async with pool.acquire() as connection, connection.transaction():
                        await connection.execute("SELECT pg_advisory_xact_lock($1)", _SCHEMA_LOCK)
                        await connection.execute(_SCHEMA)
                except _REFUSED as error:
                    raise StorageUnavailable(f"the database cannot be reached: {error}") from None
                self._pool = pool
            return self._pool

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        pool = await self._ready()
        try:
            connection = await pool.acquire(timeout=10)
        except _REFUSED as error:
            raise StorageUnavailable(f"the database cannot be reached: {error}") from None
        try:
            yield connection
        except _GONE as error:
            raise StorageUnavailable(f"the database cannot be reached: {error}") from None
        finally:
            with contextlib.suppress(*_GONE):
                await pool.release(connection)

    async def _insert_match(self, connection: Any, table_id: str, match: MatchRow) -> None:
        await connection.execute(
            "INSERT INTO matches VALUES ($1, $2, $3, $4, $5, $6, $7)", *_match_values(table_id, match)
        )

    async def create(self, table: TableRow, match: MatchRow) -> None:
        """Keep a new table and its first match."""
        async with self._connection() as connection, connection.transaction():
            values = _table_values(table)
            await connection.execute("INSERT INTO tables VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", *values)
            await self._insert_match(connection, table.table_id, match)

    async def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or None."""
        async with self._connection() as connection:
            row = await connection.fetchrow("SELECT * FROM tables WHERE table_id = $1", table_id)
        return None if row is None else _table_of(tuple(row))

    async def matches(self, table_id: str) -> list[MatchRow]:
        """The table's matches, first first."""
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT number, seed, nonce, commitment, first_dealer, start_seq FROM matches WHERE table_id = $1 "
                "ORDER BY number",
                table_id,
            )
        return [MatchRow(r[0], int(r[1]), r[2], r[3], r[4], r[5]) for r in rows]

    async def append(self, table_id: str, entry: Entry, match: MatchRow | None = None) -> bool:
        """Add ``entry`` (and ``match``) if its ``seq`` is the table's next, and notify it at commit; False if that
        ``seq`` is taken.

        Two processes offering the same ``seq`` both find it next, and the unique key lets one commit: the other's
        insert waits for it and fails [TBL-8.1].
        """
        offered = (table_id, entry.seq, entry.kind, entry.seat, entry.text)
        game = (None,) * 6 if match is None else _match_values(table_id, match)[1:]
        async with self._connection() as connection:
            try:  # one statement, so one round trip: its own transaction
                notified = await connection.fetch(_APPEND, *offered, *game)
            except asyncpg.UniqueViolationError:
                return False
        return len(notified) == 1

    async def entries(self, table_id: str, after: int = 0) -> list[Entry]:
        """The table's entries with a ``seq`` above ``after``, in order."""
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT seq, kind, seat, text FROM events WHERE table_id = $1 AND seq > $2 ORDER BY seq",
                table_id,
                after,
            )
        return [Entry(*row) for row in rows]

    # --- the other processes [TBL-8.3] ------------------------------------------------------------------------

    async def watch(self, moved: Moved, present: Present | None = None) -> None:
        """Create the schema, then listen on :data:`CHANNEL` for good: each ``TABLE:SEQ`` is told to ``moved``, and
        after the listening connection is lost and made again ``moved(None, 0)`` says some may have been missed;
        and on :data:`PRESENCE`: each ``TABLE`` is told to ``present`` [TBL-8.5]."""
        with contextlib.suppress(StorageUnavailable):  # not up yet: the listener keeps trying
            await self._ready()
        started = asyncio.Event()
        self._listening = asyncio.get_running_loop().create_task(self._listen(moved, present, started))
        await asyncio.wait_for(started.wait(), 15)

    async def _listen(self, moved: Moved, present: Present | None, started: asyncio.Event) -> None:
        def told(connection: Any, pid: int, channel: str, payload: str) -> None:
            table_id, _, seq = payload.rpartition(":")
            if table_id and seq.isdigit():
                moved(table_id, int(seq))

        def seated(connection: Any, pid: int, channel: str, payload: str) -> None:
            if present is not None and payload:
                present(payload)

        wait = 0.1
        missed = False
        while not self._closed:
            lost = asyncio.Event()
            try:
                connection = await asyncpg.connect(self.url, timeout=10, server_settings={"application_name": LISTENER})
                connection.add_termination_listener(lambda _, lost=lost: lost.set())
                await connection.add_listener(CHANNEL, told)
                await connection.add_listener(PRESENCE, seated)
                async with self._talk:  # the presence locks went with the lost connection: hold them again
                    for table_id, seat in self._seated:
                        await connection.execute(f"SELECT pg_advisory_lock_shared({_SEAT_KEY})", table_id, seat)
                    self._listener = connection
            except _REFUSED as error:
                _log.warning("listening on %s: %s; trying again in %.1f s", CHANNEL, error, wait)
                started.set()
                await asyncio.sleep(wait)
                wait = min(wait * 2, 2.0)
                missed = True
                continue
            wait = 0.1
            started.set()
            if missed:
                moved(None, 0)  # what was notified while nobody listened is read from the log by seq
                if present is not None:
                    present(None)
            await lost.wait()
            self._listener = None
            self._led.clear()  # PostgreSQL let go of the advisory locks with the connection
            missed = True

    async def lead(self, table_id: str) -> bool:
        """Whether this process runs the table's bots and timers: it holds the table's session advisory lock on its
        listening connection, taken now if no process holds it [TBL-8.3]."""
        if table_id in self._led:
            return True
        connection = self._listener
        if connection is None:
            return False
        try:
            async with self._talk:
                taken = await connection.fetchval("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", table_id)
        except _GONE:
            return False
        if taken and self._listener is connection:
            self._led.add(table_id)
            return True
        return False

    async def connected(self, table_id: str, seat: int, here: bool) -> None:
        """Hold (``here``) or let go of the seat's shared presence lock on the listening connection, and notify the
        change on :data:`PRESENCE` [TBL-8.5]. Without a listening connection the change is kept, and the locks are
        taken again when it is made again."""
        take = "pg_advisory_lock_shared" if here else "pg_advisory_unlock_shared"
        async with self._talk:  # the listener's making again takes the locks under it too: none is lost or doubled
            if here:
                self._seated.add((table_id, seat))
            else:
                self._seated.discard((table_id, seat))
            connection = self._listener
            if connection is None:
                return
            with contextlib.suppress(*_GONE):
                await connection.execute(f"SELECT {take}({_SEAT_KEY}), pg_notify('{PRESENCE}', $1)", table_id, seat)

    async def present(self, table_id: str, players: int) -> set[int]:
        """The seats of the table whose presence lock some process holds [TBL-8.5]."""
        async with self._connection() as connection:
            rows = await connection.fetch(_PRESENT, table_id, players)
        return {row[0] for row in rows}

    async def resign(self, table_id: str) -> None:
        """Let go of the table's advisory lock (its match is over), so that locks do not pile up."""
        connection = self._listener
        if table_id not in self._led or connection is None:
            return
        self._led.discard(table_id)
        with contextlib.suppress(*_GONE):
            async with self._talk:
                await connection.execute("SELECT pg_advisory_unlock(hashtextextended($1, 0))", table_id)

    async def close(self) -> None:
        """Stop listening and close every connection."""
        self._closed = True
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        if self._listener is not None:
            with contextlib.suppress(*_GONE):
                await self._listener.close(timeout=5)
        if self._pool is not None:
            with contextlib.suppress(*_GONE):
                await asyncio.wait_for(self._pool.close(), 5)
