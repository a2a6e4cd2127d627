"""TBL-8.2, TBL-7.1: a server killed while a bot's turn is pending and started again on the same database lets
the bot play on as soon as a player connects, so that a table of one person and bots does not stall."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import httpx

from tests.cli.test_join import _free_port
from tests.server.helpers import Client, make_table, play_to_end, serve_process, stop_process, verify_end


def test_tbl_8_2_a_server_killed_on_a_bots_turn_plays_on_when_a_player_comes_back(tmp_path: Path) -> None:
    """TBL-8.2, TBL-7.1, TBL-3.5: seat 0 plays against two bots; right after its action, while a bot's turn is
    pending, the server is SIGKILLed; started again on the same file, the player's link connects and the bot's
    turn is played without anyone acting, and the match goes on to the end and checks out."""
    db, port = tmp_path / "tables.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    process, _ = serve_process(db, port, "--bot-delay", "1")
    rng = random.Random(3)
    try:
        made = make_table(
            base,
            game="fly",
            players=3,
            options={"max_deals": 1},
            bots={"1": "rule-of-thumb", "2": "rule-of-thumb"},
        )
        player = Client(base, made["table"], made["seats"][0]["token"], picture=False)
        while True:  # until seat 0 has acted and a bot is to move
            view = player.wait(lambda v: bool(v["legal"]) or v["over"])
            assert not view["over"], "the match ended before a bot's turn came after seat 0's"
            player.act(rng.choice(view["legal"]))
            view = player.wait(lambda v, s=view["seq"]: v["seq"] > s)
            if view["to_move"] != 0 and not view["over"]:
                break
    finally:
        stop_process(process, signal.SIGKILL)
    killed_at = view["seq"]
    process, _ = serve_process(db, port, "--bot-delay", "1")
    try:
        assert httpx.get(f"{base}/api/tables/{made['table']}").json()["seq"] == killed_at  # the bot had not played
        back = Client(base, made["table"], made["seats"][0]["token"], picture=False)
        assert back.wait(lambda v: True)["seq"] == killed_at
        back.wait(lambda v: v["seq"] > killed_at, timeout=20)  # the bot plays on by itself
        play_to_end([back], rng)
        verify_end(base, made["table"])
    finally:
        stop_process(process, signal.SIGTERM)
