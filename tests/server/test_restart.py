"""TBL-8.2: ``fly-rules serve`` killed mid-deal (SIGKILL) and started again on the same database loses no accepted
action, and the players carry on with the same links to the end of the match."""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import httpx

from tests.server.helpers import Client, make_table, play_to_end, serve_process, stop_process, verify_end


def test_tbl_8_2_a_server_killed_mid_deal_loses_no_accepted_action(tmp_path: Path) -> None:
    """TBL-8.2, TBL-8.1, TBL-3.5: players act, the server is killed with SIGKILL mid-deal, a new server on the same
    file and port serves every accepted action, and the same links finish the match."""
    db = tmp_path / "tables.sqlite3"
    process, base = serve_process(db, 0)
    port = int(base.rsplit(":", 1)[1])
    try:
        made = make_table(base, game="fly", players=3, options={"max_deals": 2}, bots={"2": "rule-of-thumb"})
        clients = [Client(base, made["table"], s["token"], picture=False) for s in made["seats"][:2]]
        rng = random.Random(8)
        deadline = time.monotonic() + 60
        while (clients[0].view or {"seq": 0})["seq"] < 7:  # into the first deal's play
            assert time.monotonic() < deadline
            for client in clients:
                client.pump(0.05)
                if client.view and client.view["legal"]:
                    client.act(rng.choice(client.view["legal"]))
                    client.wait(lambda v, s=client.view["seq"]: v["seq"] > s)
        accepted = httpx.get(f"{base}/api/tables/{made['table']}").json()["seq"]
        assert accepted >= 7
    finally:
        stop_process(process, signal.SIGKILL)
    for client in clients:
        client.wait_closed()
    process, again = serve_process(db, port)
    try:
        assert again == base
        facts = httpx.get(f"{base}/api/tables/{made['table']}").json()
        assert facts["seq"] >= accepted  # every accepted action is there (the bot may have played one more)
        assert facts["commitment"] == made["commitment"]
        back = [Client(base, made["table"], s["token"], picture=False) for s in made["seats"][:2]]
        assert back[0].wait(lambda v: True)["seq"] == facts["seq"]
        play_to_end(back, rng)
        verify_end(base, made["table"])
    finally:
        stop_process(process, signal.SIGTERM)
