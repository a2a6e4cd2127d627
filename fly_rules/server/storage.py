"""Where the table server keeps its tables: one event log per table [TBL-8.1], behind a small interface.

:class:`Storage` is all the server asks of a database: make a table, append an entry if its ``seq`` is
the next, read a table's entries from a ``seq`` on. :class:`SQLiteStorage` is the default (one file, WAL,
the standard library's ``sqlite3``); the unique ``(table_id, seq)`` key is what serialises writers, so the
second backend, :class:`~fly_rules.server.postgres.PostgresStorage`, needs the same key and nothing else to stay
correct. :func:`storage_from_url` picks one from ``fly-rules serve --db``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeAlias

import attrs

from fly_rules.errors import FlyRulesError

__all__ = [
    "Entry",
    "MatchRow",
    "Moved",
    "Present",
    "SQLiteStorage",
    "Storage",
    "StorageUnavailable",
    "TableRow",
    "storage_from_url",
]

Moved: TypeAlias = Callable[[str | None, int], None]
"""Told ``(table_id, seq)`` when another process commits entry ``seq`` of a table, and ``(None, 0)`` when some such
news may have been missed (every table must then be read from its last ``seq``) [TBL-8.3]."""
Present: TypeAlias = Callable[[str | None], None]
"""Told a table whose seats' presence changed at some process, and None when such news may have been missed
(every table's presence must then be read again) [TBL-8.5]."""


class StorageUnavailable(FlyRulesError):
    """The database cannot be reached now; what was asked may not have been done [TBL-8.4]."""


@attrs.frozen
class TableRow:
    """What a table is made with and never changes."""

    table_id: str
    """The table's public ID."""
    game: str
    """The game's name."""
    players: int
    """The seats at the table."""
    options: dict[str, Any]
    """The rules options by name (REC-2.3), applied over the preset."""
    preset: str
    """The rules preset the options apply over."""
    bots: dict[int, str]
    """The bot seats, each with its bot's name."""
    token_digests: tuple[str | None, ...]
    """Per seat, the SHA-256 hex of its token (None for a bot seat) [TBL-1.2]."""
    turn_seconds: int | None
    """The turn timer, or None [TBL-7.3]."""


@attrs.frozen
class MatchRow:
    """One match of a table: its secret seed and nonce, and where its entries start [TBL-2.1]."""

    number: int
    """0 for the table's first match."""
    seed: int
    """The match's seed."""
    nonce: str
    """The nonce of the commitment."""
    commitment: str
    """SHA-256 hex of ``SEED:NONCE`` [TBL-2.2]."""
    first_dealer: int | None
    """The first dealer, or None to draw it by lot from the seed."""
    start_seq: int
    """The ``seq`` of the last entry before the match (0 for the first)."""


@attrs.frozen
class Entry:
    """One entry of a table's log [TBL-8.1]."""

    seq: int
    """Its place in the log, from 1."""
    kind: str
    """``"act"`` or ``"rematch"``."""
    seat: int | None
    """The seat that acted (None for a rematch)."""
    text: str
    """The action's text (REC-3.2), or the rematch's match number."""


class Storage(Protocol):
    """What the table server asks of a database."""

    async def create(self, table: TableRow, match: MatchRow) -> None:
        """Keep a new table and its first match."""

    async def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or None."""

    async def matches(self, table_id: str) -> list[MatchRow]:
        """The table's matches, first first."""

    async def append(self, table_id: str, entry: Entry, match: MatchRow | None = None) -> bool:
        """Add ``entry`` (with ``match``, the match a rematch starts, in the same transaction) if its ``seq`` is
        the table's next; False, and nothing written, if that ``seq`` is taken."""

    async def entries(self, table_id: str, after: int = 0) -> list[Entry]:
        """The table's entries with a ``seq`` above ``after``, in order."""

    async def watch(self, moved: Moved, present: Present | None = None) -> None:
        """Connect, and from now on call ``moved`` for the entries other processes commit [TBL-8.3] and
        ``present`` with a table whose presence changed at some process [TBL-8.5]."""

    async def connected(self, table_id: str, seat: int, here: bool) -> None:
        """A player of ``seat`` is now connected to this process (``here``), or its last connection here closed:
        told to the other processes [TBL-8.5]."""

    async def present(self, table_id: str, players: int) -> set[int]:
        """The seats of the table with a player connected to any process sharing the storage [TBL-8.5] (none
        for a storage one process serves alone: its own connections are all there are)."""

    async def lead(self, table_id: str) -> bool:
        """Whether this process runs the table's bots and timers, taking the lead if no process has it [TBL-8.3]."""

    async def resign(self, table_id: str) -> None:
        """Give up the lead of the table (its match is over)."""

    async def close(self) -> None:
        """Let go of the database."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
    preset TEXT NOT NULL, bots TEXT NOT NULL, token_digests TEXT NOT NULL, turn_seconds INTEGER
);
CREATE TABLE IF NOT EXISTS matches (
    table_id TEXT NOT NULL REFERENCES tables(table_id), number INTEGER NOT NULL, seed TEXT NOT NULL,
    nonce TEXT NOT NULL, commitment TEXT NOT NULL, first_dealer INTEGER, start_seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(table_id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    seat INTEGER, text TEXT NOT NULL, PRIMARY KEY (table_id, seq)
);
"""


def _table_values(table: TableRow) -> tuple[Any, ...]:
    """A table's row as the ``tables`` columns keep it (JSON text for the mappings and lists)."""
    bots = json.dumps({str(seat): bot for seat, bot in table.bots.items()})
    options, digests = json.dumps(table.options), json.dumps(list(table.token_digests))
    return (table.table_id, table.game, table.players, options, table.preset, bots, digests, table.turn_seconds)


def _table_of(row: Any) -> TableRow:
    """The table of a ``tables`` row (the columns in order)."""
    table_id, game, players, options, preset, bots, digests, turn_seconds = row
    return TableRow(
        table_id=table_id,
        game=game,
        players=players,
        options=json.loads(options),
        preset=preset,
        bots={int(seat): bot for seat, bot in json.loads(bots).items()},
        token_digests=tuple(json.loads(digests)),
        turn_seconds=turn_seconds,
    )


def _match_values(table_id: str, match: MatchRow) -> tuple[Any, ...]:
    """A match's row as the ``matches`` columns keep it (the 128-bit seed as text)."""
    return (table_id, match.number, str(match.seed), match.nonce, match.commitment, match.first_dealer, match.start_seq)


class SQLiteStorage:
    """The tables in one SQLite file (WAL): the default of ``fly-rules serve``.

    A commit is written to the file before :meth:`append` returns, so an accepted action survives the
    process being killed [TBL-8.2]. Calls run on the caller's thread: each is a short indexed statement.
    """

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the database at ``path`` (``":memory:"`` for one that lives with the object)."""
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a killed process
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def _insert_match(self, table_id: str, match: MatchRow) -> None:
        self._db.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?)", _match_values(table_id, match))

    async def create(self, table: TableRow, match: MatchRow) -> None:
        """Keep a new table and its first match."""
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)", _table_values(table))
            self._insert_match(table.table_id, match)

    async def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or None."""
        row = self._db.execute("SELECT * FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else _table_of(row)

    async def matches(self, table_id: str) -> list[MatchRow]:
        """The table's matches, first first."""
        rows = self._db.execute(
            "SELECT number, seed, nonce, commitment, first_dealer, start_seq FROM matches WHERE table_id = ? "
            "ORDER BY number",
            (table_id,),
        ).fetchall()
        return [MatchRow(n, int(seed), nonce, c, dealer, start) for n, seed, nonce, c, dealer, start in rows]

    async def append(self, table_id: str, entry: Entry, match: MatchRow | None = None) -> bool:
        """Add ``entry`` (and ``match``) if its ``seq`` is the table's next; False if that ``seq`` is taken."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                (last,) = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,)
                ).fetchone()
                if entry.seq != last + 1:
                    return False
                self._db.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                    (table_id, entry.seq, entry.kind, entry.seat, entry.text),
                )
                if match is not None:
                    self._insert_match(table_id, match)
        except sqlite3.IntegrityError:
            return False
        return True

    async def entries(self, table_id: str, after: int = 0) -> list[Entry]:
        """The table's entries with a ``seq`` above ``after``, in order."""
        rows = self._db.execute(
            "SELECT seq, kind, seat, text FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after)
        ).fetchall()
        return [Entry(*row) for row in rows]

    async def watch(self, moved: Moved, present: Present | None = None) -> None:
        """Nothing to watch: one process serves a SQLite file, and it commits every entry itself."""

    async def connected(self, table_id: str, seat: int, here: bool) -> None:
        """Nothing to tell: no other process serves the file."""

    async def present(self, table_id: str, players: int) -> set[int]:
        """None: the one process serving the file knows its own connections."""
        return set()

    async def lead(self, table_id: str) -> bool:
        """Always: the one process serving the file runs every table's bots."""
        return True

    async def resign(self, table_id: str) -> None:
        """Nothing to give up."""

    async def close(self) -> None:
        """Close the database file."""
        self._db.close()


def storage_from_url(db: str | Path) -> Storage:
    """The storage ``db`` names: a ``postgresql://`` (or ``postgres://``) URL, else a SQLite file (``":memory:"``).

    Raises:
        StorageUnavailable: a PostgreSQL URL without the ``postgres`` extra installed.
    """
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            from fly_rules.server.postgres import PostgresStorage  # noqa: PLC0415 - asyncpg is an optional extra
        except ImportError as missing:
            raise StorageUnavailable(
                f"a PostgreSQL database needs the postgres extra: pip install 'fly_rules[postgres]' ({missing})"
            ) from None
        return PostgresStorage(text)
    return SQLiteStorage(db)
