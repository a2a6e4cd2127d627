"""The table server's web application: the HTTP addresses and the WebSocket of specs/table.md, on Starlette.

:func:`create_app` builds it over a storage; ``fly-rules serve`` runs it with uvicorn. The WebSocket is served by
:class:`~fly_rules.server.live.TableServer` (each connection bound to its seat by the token it opened with
[TBL-3.1] and sent only its seat's view [TBL-5.1]; bots and stand-ins choose in worker processes [TBL-7.1]); the
HTTP addresses check the limits of TBL-6 on what they take. Several processes may serve one table on PostgreSQL:
each hears of the others' entries from its storage and sends them on, and only the table's leading process runs
its bots and timers [TBL-8.3].
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from fly_rules import registry
from fly_rules.bots import BOTS
from fly_rules.server.bots import bot_pool
from fly_rules.server.live import Limits, TableServer
from fly_rules.server.storage import Storage, StorageUnavailable, storage_from_url
from fly_rules.server.tables import BadRequest, Refusal, Table, TableService

__all__ = ["create_app", "table_choices"]

_log = logging.getLogger("fly_rules.server")
STATIC: Final = Path(__file__).parent / "static"
"""The lobby's and the table's pages and scripts."""


def table_choices() -> dict[str, Any]:
    """What a table may be made with [TBL-1.1]: each game's seats, default size and presets, and the bots."""
    games = {
        name: {"players": list(game.seats), "default_players": game.default_players, "presets": list(game.presets)}
        for name, game in ((name, registry.get(name)) for name in registry.games())
    }
    return {"games": games, "bots": list(BOTS)}


def _error(status: int, message: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "rule": rule}, status_code=status)


async def _current(service: TableService, request: Request) -> Table | Response:
    """The request's table as the log has it now, or the error answer."""
    try:
        table = await service.table(request.path_params["table_id"])
        if table is not None:
            await service.refresh(table)
    except StorageUnavailable as error:
        return _error(503, str(error), "TBL-8.4")
    return _error(404, "no such table") if table is None else table


@contextlib.asynccontextmanager
async def _lifespan(server: TableServer, store: Storage) -> AsyncIterator[None]:
    """At start: hear of the other processes' entries [TBL-8.3]; at shutdown: the bots' workers and the database let
    go."""
    await store.watch(server.moved, server.present_changed)
    looking = asyncio.get_running_loop().create_task(server.look_for_leaders())
    yield
    looking.cancel()
    await server.close()
    await store.close()


def create_app(
    db: str | Path | None = None,
    *,
    storage: Storage | None = None,
    limits: Limits | None = None,
    origins: Sequence[str] = (),
    bot_workers: int = 1,
) -> Starlette:
    """The table server as an ASGI application.

    Args:
        db: the SQLite file the tables are kept in (``":memory:"`` for none), or a ``postgresql://`` URL
            (:func:`~fly_rules.server.storage.storage_from_url`); ignored when ``storage`` is given.
        storage: the tables' storage (default: the storage of ``db``).
        limits: the limits of TBL-6 and TBL-7 (default :class:`Limits`).
        origins: browser origins allowed besides the server's own [TBL-3.1].
        bot_workers: the worker processes bots choose in [TBL-7.1].

    Raises:
        ValueError: ``limits.stand_in`` is not a bot's name.
        StorageUnavailable: ``db`` is a PostgreSQL URL and the ``postgres`` extra is not installed.
    """
    limits = Limits() if limits is None else limits
    if limits.stand_in not in BOTS:
        raise ValueError(f"unknown stand-in bot {limits.stand_in!r}: one of {', '.join(BOTS)}")
    store: Storage = storage if storage is not None else storage_from_url(":memory:" if db is None else db)
    service = TableService(store)
    server = TableServer(service, limits, lambda: bot_pool(bot_workers), origins)

    async def make_table(request: Request) -> Response:
        """POST /api/tables [TBL-1.1]."""
        body = await request.body()
        if len(body) > limits.max_body:
            return _error(413, f"the body may be at most {limits.max_body} bytes")
        try:
            data = json.loads(body)
        except ValueError:
            return _error(400, "the body must be JSON", "TBL-1.1")
        try:
            made = await service.create(data)
            table = await service.table(made["table"])
        except BadRequest as error:
            return _error(400, error.message, error.rule)
        except StorageUnavailable as error:
            return _error(503, str(error), "TBL-8.4")
        assert table is not None
        server.changed(table)
        _log.info("table %s made: %s, %s seats", made["table"], table.row.game, table.row.players)
        return JSONResponse(made, status_code=201)

    async def table_facts(request: Request) -> Response:
        """GET /api/tables/ID [TBL-1.3]."""
        table = await _current(service, request)
        if not isinstance(table, Table):
            return table
        return JSONResponse(
            service.facts(table, server.connected(table.row.table_id), server.watchers(table.row.table_id))
        )

    async def table_history(request: Request) -> Response:
        """GET /api/tables/ID/history: the whole history once the match is over [TBL-2.3]."""
        table = await _current(service, request)
        if not isinstance(table, Table):
            return table
        try:
            text = service.history(table)
        except Refusal as refusal:
            return _error(409, refusal.message, refusal.rule)
        name = f"{table.row.game}-{table.row.table_id}-{table.match.number + 1}.toml"
        return PlainTextResponse(
            text, media_type="application/toml", headers={"content-disposition": f'attachment; filename="{name}"'}
        )

    def page(name: str) -> Callable[[Request], Any]:
        async def send(request: Request) -> Response:
            """The page, with headers that keep it to this server."""
            path = STATIC / name
            if not path.exists():
                return PlainTextResponse(f"{name} is not in this installation", status_code=404)
            return FileResponse(path, headers=_PAGE_HEADERS)

        return send

    routes: list[Any] = [
        Route("/", page("lobby.html")),
        Route("/table/{table_id}", page("table.html")),
        Route("/api/games", lambda request: JSONResponse(table_choices())),
        Route("/api/tables", make_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_facts),
        Route("/api/tables/{table_id}/history", table_history),
        WebSocketRoute("/api/tables/{table_id}/ws", server.serve),
    ]
    if STATIC.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, lifespan=lambda app: _lifespan(server, store))
    app.state.tables = server
    return app


_PAGE_HEADERS: Final = {
    # the pages load nothing from elsewhere and run no inline script; text goes in as text
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",  # an invite link's token never leaves in a Referer
    "x-content-type-options": "nosniff",
}
