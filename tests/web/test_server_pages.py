"""The table server's pages (fly_rules/server/static/): served at their addresses under the strict policy,
no script inline (the policy would refuse it), and the lobby's choices from GET /api/games [TBL-1.1]."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx

from fly_rules import registry
from fly_rules.bots import BOTS
from fly_rules.server import create_app
from fly_rules.server.app import STATIC


def _get(*addresses: str) -> list[httpx.Response]:
    """The answers of the app (over ASGI, in memory) to GETs of ``addresses``."""

    async def get() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return [await client.get(address) for address in addresses]

    return asyncio.run(get())


def test_the_lobby_and_a_table_page_are_served_with_the_strict_policy() -> None:
    """``/`` is the lobby, ``/table/ID`` the table page, their scripts under ``/static``; no script runs inline."""
    lobby, table = _get("/", "/table/any-id")
    for page, script in ((lobby, "/static/lobby.js"), (table, "/static/table.js")):
        assert page.status_code == 200
        assert f'<script type="module" src="{script}"></script>' in page.text
        assert "script-src" not in page.headers["content-security-policy"]  # default-src 'self': none inline
        assert "connect-src 'self'" in page.headers["content-security-policy"]
    names = ("lobby.js", "table.js", "cardtable.js", "cardtable.css", "socket.js", "pages.css")
    assert [answer.status_code for answer in _get(*(f"/static/{name}" for name in names))] == [200] * len(names)


def test_no_page_has_an_inline_script_or_handler() -> None:
    """Every <script> of the pages has a src, and no element has an on… attribute."""
    for page in sorted(Path(STATIC).glob("*.html")):
        text = page.read_text()
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", text) == [], page.name
        assert re.findall(r"\son[a-z]+=", text) == [], page.name


def test_tbl_1_1_the_lobby_is_offered_every_game_its_table_sizes_presets_and_every_bot() -> None:
    """``GET /api/games``: what a table may be made with, from the registry and the bots themselves."""
    choices = _get("/api/games")[0].json()
    assert choices["bots"] == list(BOTS)
    assert sorted(choices["games"]) == sorted(registry.games())
    for name, told in choices["games"].items():
        game = registry.get(name)
        assert told["players"] == list(game.seats)
        assert told["default_players"] == game.default_players
        assert told["presets"] == list(game.presets)
