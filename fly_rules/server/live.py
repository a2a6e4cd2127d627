"""The live side of the table server: who is connected to which table and seat, what each connection is sent,
and the bots' and stand-ins' turns (specs/table.md).

A :class:`TableServer` binds each WebSocket to the seat of the token it opened with [TBL-3.1], sends it only that
seat's view [TBL-5.1], enforces the limits of TBL-6 on what it sends, holds a dropped player's seat for the grace
time [TBL-7.2] and has bots choose in worker processes [TBL-7.1]. With several processes serving one table it reads
the others' entries from the storage, and only the table's leading process drives its bots and timers [TBL-8.3].
:mod:`fly_rules.server.app` puts it behind the HTTP addresses.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any
from urllib.parse import urlsplit

import attrs
from starlette.responses import PlainTextResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from fly_rules.server.bots import choose, new_seed
from fly_rules.server.storage import StorageUnavailable
from fly_rules.server.tables import Refusal, Table, TableService

__all__ = ["Limits", "TableServer"]

_log = logging.getLogger("fly_rules.server")


@attrs.frozen
class Limits:
    """The limits of TBL-6 and TBL-7, and how long bots wait before they play."""

    max_message: int = 4096
    """A client's message, in bytes [TBL-6.1]."""
    burst: int = 20
    """Messages a connection may send at once [TBL-6.2]."""
    rate: float = 10.0
    """Messages a second after the burst [TBL-6.2]."""
    connections: int = 32
    """Connections a table takes [TBL-6.3]."""
    grace: float = 30.0
    """Seconds a dropped player's seat is held before the stand-in plays it [TBL-7.2]."""
    stand_in: str = "rule-of-thumb"
    """The bot that plays for a dropped or timed-out player."""
    bot_delay: float = 0.0
    """Seconds a bot waits before it plays (so that people see each card land)."""
    max_body: int = 16384
    """The largest request body, in bytes."""
    lead_check: float = 2.0
    """Seconds between looks at the tables where a bot is to move, in case their leading process is gone [TBL-8.3]."""


@attrs.define(eq=False)
class _Connection:
    socket: WebSocket
    seat: int | None
    picture: bool | str
    tokens: float
    checked: float


class TableServer:
    """The live side of the tables: who is connected where, and the bots' turns."""

    def __init__(
        self, service: TableService, limits: Limits, pool: Callable[[], Executor], origins: Sequence[str]
    ) -> None:
        """Serve ``service``'s tables within ``limits``; bots run in the executor ``pool()`` makes when first needed;
        ``origins`` are the browser origins allowed besides the server's own."""
        self.service = service
        self.limits = limits
        self._make_pool = pool
        self._pool: Executor | None = None
        self.origins = frozenset(origin.rstrip("/") for origin in origins)
        self.connections: dict[str, set[_Connection]] = {}
        self.absent: dict[tuple[str, int], float] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._driving: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._turns: dict[str, float] = {}
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._sent: dict[str, int] = {}  # per table, the seq of the views last sent
        self._behind: set[str] = set()  # the tables with news from other processes not yet read
        self._elsewhere: dict[str, set[int]] = {}  # per table, the seats present at any process [TBL-8.5]
        self._looking: dict[str, asyncio.Task[None]] = {}  # per table, a read of its presence under way
        self._presence_behind: set[str] = set()  # the tables with presence news not yet read

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that orders this process's changes to one table."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    def here(self, table_id: str) -> set[int]:
        """The seats with a player connected to this process."""
        return {c.seat for c in self.connections.get(table_id, ()) if c.seat is not None}

    def connected(self, table_id: str) -> dict[int, bool]:
        """Which seats have a player connected, to this process or another serving the table [TBL-8.5]."""
        return dict.fromkeys(self.here(table_id) | self._elsewhere.get(table_id, set()), True)

    def watchers(self, table_id: str) -> int:
        """How many connections watch the table."""
        return sum(1 for c in self.connections.get(table_id, ()) if c.seat is None)

    # --- sending -------------------------------------------------------------------------------------------

    def message(
        self, table: Table, seat: int | None, picture: bool | str, seats: list[dict[str, Any]] | None = None
    ) -> str:
        """The view message of ``seat`` as text, with the seats' presence (``seats``, when the caller has it)."""
        if seats is None:
            seats = self.service.seats(table, self.connected(table.row.table_id))
        return self.service.view_text(table, seat, seats, picture=picture)

    async def broadcast(self, table: Table) -> None:
        """Send every connection of the table its seat's view."""
        self._sent[table.row.table_id] = table.seq
        texts: dict[tuple[int | None, bool | str], str] = {}
        seats = self.service.seats(table, self.connected(table.row.table_id))
        for connection in list(self.connections.get(table.row.table_id, ())):
            key = (connection.seat, connection.picture)
            if key not in texts:
                texts[key] = self.message(table, connection.seat, connection.picture, seats)
            with contextlib.suppress(Exception):  # a socket closing meanwhile is dropped by its own handler
                await connection.socket.send_text(texts[key])

    async def announce_seats(self, table: Table) -> None:
        """Tell every connection who is connected now [TBL-3.2]."""
        text = json.dumps({"type": "seats", "seats": self.service.seats(table, self.connected(table.row.table_id))})
        for connection in list(self.connections.get(table.row.table_id, ())):
            with contextlib.suppress(Exception):
                await connection.socket.send_text(text)

    # --- other processes' entries [TBL-8.3] -----------------------------------------------------------------

    def moved(self, table_id: str | None, seq: int) -> None:
        """Another process committed entry ``seq`` of ``table_id`` (None: any table may have moved): read the log
        from the table's last ``seq`` and send the connections their views."""
        if table_id is None:
            for known in list(self.service._tables):
                self._catch_up(known)
            return
        if table_id in self.service._tables and seq > self._sent.get(table_id, 0):
            self._catch_up(table_id)

    def _catch_up(self, table_id: str) -> None:
        self._behind.add(table_id)
        task = self._catching.get(table_id)
        if task is None or task.done():
            self._catching[table_id] = asyncio.get_running_loop().create_task(self._read_on(table_id))

    async def _read_on(self, table_id: str) -> None:
        table = self.service._tables[table_id]
        while table_id in self._behind:  # news that came while the log was being read: read on again
            self._behind.discard(table_id)
            async with self.lock(table_id):
                try:
                    await self.service.refresh(table)
                except StorageUnavailable:
                    return  # the storage tells moved(None, 0) once it listens again
            await self.sent_on(table)

    async def sent_on(self, table: Table) -> None:
        """If the table moved since its views were last sent (read from the log by any request), send them."""
        if table.seq > self._sent.get(table.row.table_id, 0):
            await self.broadcast(table)
            self.changed(table)

    async def look_for_leaders(self) -> None:
        """Forever: where a bot is to move at a table with connections here, let the bots look, so that a table
        whose leading process is gone is taken over [TBL-8.3]."""
        while True:
            await asyncio.sleep(self.limits.lead_check)
            for table_id in [t for t, held in self.connections.items() if held]:
                self.present_changed(table_id)  # a killed process sends no notice [TBL-8.5]
                table = self.service._tables.get(table_id)
                if table is not None and not table.over and table.state.to_move in table.row.bots:
                    self.drive(table_id)

    # --- presence at every process [TBL-8.5] ----------------------------------------------------------------

    def present_changed(self, table_id: str | None) -> None:
        """Some process's presence at ``table_id`` changed (None: any table's may have): read it again."""
        for known in [table_id] if table_id is not None else list(self.connections):
            if self.service.held(known) is None:
                continue
            self._presence_behind.add(known)
            task = self._looking.get(known)
            if task is None or task.done():
                self._looking[known] = asyncio.get_running_loop().create_task(self._read_presence(known))

    async def _read_presence(self, table_id: str) -> None:
        while table_id in self._presence_behind:  # news that came while it was read: read it again
            self._presence_behind.discard(table_id)
            table = self.service.held(table_id)
            if table is None:
                return
            before = set(self.connected(table_id))
            try:
                self._elsewhere[table_id] = await self.service.storage.present(table_id, table.row.players)
            except StorageUnavailable:
                return  # read again at the next notice or look
            await self._presence_moved(table, before, set(self.connected(table_id)))

    async def _presence_moved(self, table: Table, before: set[int], after: set[int]) -> None:
        """Seats came or went at some process: the absent ones are held, then stood in for [TBL-7.2]."""
        if after == before:
            return
        table_id = table.row.table_id
        now = time.monotonic()
        for seat in before - after:  # gone from every process: held for the grace period, then stood in for
            self.absent.setdefault((table_id, seat), now)
            asyncio.get_running_loop().call_later(self.limits.grace + 0.05, lambda: self.drive(table_id))
        for seat in after:
            self.absent.pop((table_id, seat), None)
        await self.announce_seats(table)

    # --- bots and stand-ins [TBL-7] -----------------------------------------------------------------------

    def _player_for(self, table: Table, seat: int, now: float) -> str | None:
        """The bot that plays ``seat``'s turn now, or None when a person does."""
        table_id = table.row.table_id
        if seat in table.row.bots:
            return table.row.bots[seat]
        absent = self.absent.get((table_id, seat))
        if absent is not None and now - absent >= self.limits.grace and not self.connected(table_id).get(seat):
            return self.limits.stand_in
        turn = table.row.turn_seconds
        started = self._turns.get(table_id)
        if turn is not None and started is not None and now - started >= turn:
            return self.limits.stand_in
        return None

    def changed(self, table: Table) -> None:
        """After a table moved: start its turn timer and let its bots look."""
        self._start_turn(table)

    def _start_turn(self, table: Table) -> None:
        """A new turn began: start its timer [TBL-7.3]."""
        table_id = table.row.table_id
        self._turns[table_id] = time.monotonic()
        if table.row.turn_seconds is not None and not table.over:
            seq = table.seq
            asyncio.get_running_loop().call_later(table.row.turn_seconds + 0.05, lambda: self._timed_out(table_id, seq))
        self.drive(table_id)

    def _timed_out(self, table_id: str, seq: int) -> None:
        table = self.service.held(table_id)
        if table is not None and table.seq == seq:
            self.drive(table_id)

    def drive(self, table_id: str) -> None:
        """Let the table's bots play while it is a bot's turn (one driver a table)."""
        task = self._driving.get(table_id)
        if task is not None and not task.done():
            self._again.add(table_id)
            return
        if self._person_to_move(table_id):
            return  # nothing to read (a move elsewhere comes as a notice, and drives again)
        self._driving[table_id] = asyncio.get_running_loop().create_task(self._drive(table_id))

    def _person_to_move(self, table_id: str) -> bool:
        """Whether the table held here goes on and a person (not a bot or stand-in) is to move in it now."""
        held = self.service.held(table_id)
        return (
            held is not None and not held.over and self._player_for(held, held.state.to_move, time.monotonic()) is None
        )

    async def _drive(self, table_id: str) -> None:
        while True:
            self._again.discard(table_id)
            if self._person_to_move(table_id):
                return  # nothing to read (a move elsewhere comes as a notice, and drives again)
            try:
                table = await self.service.table(table_id)
                if table is None or table.over:
                    if table is not None:
                        await self.service.storage.resign(table_id)
                    return
                seat = table.state.to_move
                bot = self._player_for(table, seat, time.monotonic())
                if bot is not None and not await self.service.storage.lead(table_id):
                    return  # another process runs this table's bots [TBL-8.3]
            except StorageUnavailable:
                return  # tried again at the next change, or by look_for_leaders
            if bot is None:
                if table_id in self._again:
                    continue
                return
            seq, view, legal = table.seq, table.state.view(seat), list(table.state.legal_actions())
            if self.limits.bot_delay:
                await asyncio.sleep(self.limits.bot_delay)
            if self._pool is None:
                self._pool = self._make_pool()
            try:
                text = await asyncio.get_running_loop().run_in_executor(
                    self._pool, choose, bot, table.rules, view, legal, new_seed()
                )
            except Exception:  # a bot that fails must not take the table down with it
                _log.exception("table %s: the %s bot failed at seat %s", table_id, bot, seat)
                return
            async with self.lock(table_id):
                try:
                    await self.service.act(table, seat, seq, text)
                except Refusal:
                    continue  # the seat's player acted first: look again
                except StorageUnavailable:
                    return
            await self.broadcast(table)
            self._start_turn(table)

    def forget(self, table_id: str) -> None:
        """Let go of a finished table nobody is at (its log stays; a later visit replays it)."""
        self.connections.pop(table_id, None)
        self._elsewhere.pop(table_id, None)
        self._locks.pop(table_id, None)
        self._turns.pop(table_id, None)
        self._driving.pop(table_id, None)
        self.service.forget(table_id)
        for key in [key for key in self.absent if key[0] == table_id]:
            del self.absent[key]

    def dropped(self, table: Table, seat: int) -> None:
        """The last connection of ``seat`` closed: hold the seat for the grace period, then stand in [TBL-7.2]."""
        table_id = table.row.table_id
        self.absent[table_id, seat] = time.monotonic()
        asyncio.get_running_loop().call_later(self.limits.grace + 0.05, lambda: self.drive(table_id))

    async def close(self) -> None:
        """Stop the bots' drivers and workers."""
        for task in self._driving.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # --- one connection [TBL-3] [TBL-4] [TBL-6] -------------------------------------------------------------

    def origin_allowed(self, socket: WebSocket) -> bool:
        """A browser's ``Origin`` is the server's own address or one allowed; a client without one is not a page."""
        origin = socket.headers.get("origin")
        if origin is None:
            return True
        host = socket.headers.get("host", "")
        parts = urlsplit(origin)
        return parts.netloc == host or origin.rstrip("/") in self.origins

    async def serve(self, socket: WebSocket) -> None:
        """One WebSocket: the handshake's checks, then the seat's messages until it closes."""
        table_id = socket.path_params["table_id"]
        try:
            table = await self.service.table(table_id)
        except StorageUnavailable:
            return await _deny(socket, 503, "the tables' database cannot be reached now: try again")
        if table is None:
            return await _deny(socket, 404, "no such table")
        if not self.origin_allowed(socket):
            return await _deny(socket, 403, "this page's origin may not open the table")
        token = socket.query_params.get("token")
        seat = None
        if token is not None:
            seat = table.seat_of(token)
            if seat is None:
                return await _deny(socket, 403, "not a seat's token at this table")
        if len(self.connections.get(table_id, ())) >= self.limits.connections:
            return await _deny(socket, 429, "the table takes no more connections")
        await socket.accept()
        now = time.monotonic()
        asked = socket.query_params.get("picture", "1")
        picture: bool | str = "narrow" if asked == "narrow" else asked != "0"  # TBL-3.3
        connection = _Connection(socket, seat, picture, float(self.limits.burst), now)
        first = seat is not None and not self.connected(table_id).get(seat)
        first_here = seat is not None and seat not in self.here(table_id)
        self.connections.setdefault(table_id, set()).add(connection)
        if seat is not None:
            self.absent.pop((table_id, seat), None)
        try:
            async with self.lock(table_id):
                with contextlib.suppress(StorageUnavailable):  # the view as this process has it
                    await self.service.refresh(table)
            await socket.send_text(self.message(table, seat, picture))
            if first_here and seat is not None:
                with contextlib.suppress(StorageUnavailable):
                    await self.service.storage.connected(table_id, seat, True)
            if first:
                await self.announce_seats(table)
            self.drive(table_id)  # a server started again: the table's bots go on once someone is back
            await self._listen(table, connection)
        except WebSocketDisconnect:
            pass
        finally:
            self.connections[table_id].discard(connection)
            if seat is not None and seat not in self.here(table_id):
                with contextlib.suppress(Exception):
                    await self.service.storage.connected(table_id, seat, False)
            if seat is not None and not self.connected(table_id).get(seat):
                self.dropped(table, seat)
                with contextlib.suppress(Exception):
                    await self.announce_seats(table)
            if not self.connections[table_id] and table.over:
                self.forget(table_id)
        return None

    def _spend(self, connection: _Connection) -> bool:
        """Take one message from the connection's allowance [TBL-6.2]; False when it has none left."""
        now = time.monotonic()
        allowance = connection.tokens + (now - connection.checked) * self.limits.rate
        connection.tokens = min(float(self.limits.burst), allowance) - 1
        connection.checked = now
        return connection.tokens >= 0

    async def _listen(self, table: Table, connection: _Connection) -> None:
        socket = connection.socket
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            data = message.get("bytes")
            size = len(text.encode()) if text is not None else len(data or b"")
            if size > self.limits.max_message:
                await socket.close(1009, f"a message may be at most {self.limits.max_message} bytes")
                return
            if not self._spend(connection):
                await socket.close(1008, f"more than {self.limits.rate:g} messages a second")
                return
            try:
                await self._handle(table, connection, text)
            except Refusal as refusal:
                await socket.send_text(json.dumps({"type": "error", "rule": refusal.rule, "message": refusal.message}))
                await self.sent_on(table)  # a stale seq: the log was read on, another process's action is news

    async def _handle(self, table: Table, connection: _Connection, text: str | None) -> None:
        if text is None:
            raise Refusal("TBL-6.4", "a message must be a JSON object in a text frame")
        try:
            data = json.loads(text)
        except ValueError:
            raise Refusal("TBL-6.4", "a message must be a JSON object; this is not JSON") from None
        if not isinstance(data, dict):
            raise Refusal("TBL-6.4", "a message must be a JSON object")
        if "seat" in data:
            raise Refusal("TBL-4.3", "a message never names its seat: the seat is the connection's")
        try:
            await self._change(table, connection, data)
        except StorageUnavailable:
            raise Refusal(
                "TBL-8.4", "not committed: the tables' database cannot be reached now; send it again on the latest view"
            ) from None
        await self.broadcast(table)
        self.changed(table)

    async def _change(self, table: Table, connection: _Connection, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "act":
            if set(data) != {"type", "seq", "action"}:
                raise Refusal("TBL-6.4", 'an act message has exactly the keys "type", "seq" and "action"')
            async with self.lock(table.row.table_id):
                await self.service.act(table, connection.seat, data["seq"], data["action"])
        elif kind == "rematch":
            if set(data) != {"type", "seq"}:
                raise Refusal("TBL-6.4", 'a rematch message has exactly the keys "type" and "seq"')
            async with self.lock(table.row.table_id):
                await self.service.rematch(table, connection.seat, data["seq"])
        else:
            shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
            raise Refusal("TBL-6.4", f"unknown message type {shown!r}: act or rematch")


async def _deny(socket: WebSocket, status: int, why: str) -> None:
    """Refuse a handshake with an HTTP status [TBL-3.1] (where the server cannot, a close before accepting)."""
    try:
        await socket.send_denial_response(PlainTextResponse(why, status_code=status))
    except RuntimeError:
        await socket.close(1008, why)
