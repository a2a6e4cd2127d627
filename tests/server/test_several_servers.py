"""TBL-8.3: two ``fly-rules serve`` processes on one PostgreSQL database serve the same tables: players connected to
either see every action, the same ``seq`` offered through both is accepted once, and the log is the same from both."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from fly_rules.notation.games import parse_action
from fly_rules.server import create_app
from fly_rules.server.postgres import LISTENER, PostgresStorage
from fly_rules.server.tables import TableService
from tests.server.cluster import Cluster
from tests.server.helpers import (
    Client,
    check_frames,
    make_table,
    play_to_end,
    serve_process,
    serving,
    stop_process,
    verify_end,
)


@pytest.fixture
def servers(postgres_url: str) -> Iterator[list[str]]:
    """Two server processes on a fresh database; their base URLs."""
    started = [serve_process(postgres_url) for _ in range(2)]
    try:
        yield [url for _, url in started]
    finally:
        for process, _ in started:
            stop_process(process)


def test_tbl_8_3_four_players_on_two_servers_play_a_match(servers: list[str]) -> None:
    """TBL-8.3, TBL-5.1, TBL-2.3: a 4-seat match of Fly with seats 0 and 1 on one process and seats 2 and 3 on the
    other is played to the end; every frame stays within its seat's knowledge; the facts and the history are the
    same from both processes and replay from the revealed seed."""
    first, second = servers
    made = make_table(first, game="fly", players=4, options={"max_deals": 2})
    bases = [first, first, second, second]
    clients = [Client(bases[s["seat"]], made["table"], s["token"]) for s in made["seats"]]
    sent = play_to_end(clients, random.Random(50))
    assert sent > 20
    ends = [verify_end(base, made["table"]) for base in servers]
    assert ends[0][:3] == ends[1][:3]  # the same seed, nonce and history text
    seed, nonce, _, states = ends[0]
    for seat, client in enumerate(clients):
        assert check_frames(client, seat, states, seed, nonce) >= len(states) - 1
        assert client.view is not None
        assert client.view["seq"] == len(states) - 1
        client.close()


def _race(pair: list[Client], seq: int, rng: random.Random) -> int:
    """Both connections of the seat to move offer an action for ``seq`` at once; the errors they get."""
    legal = [client.wait(lambda v: v["seq"] == seq)["legal"] for client in pair]
    assert legal[0] == legal[1] != []
    before = [len(client.errors()) for client in pair]
    for client in pair:
        client.send({"type": "act", "seq": seq, "action": rng.choice(legal[0])})
    for client in pair:
        client.wait(lambda v: v["seq"] > seq)
    deadline = time.monotonic() + 10  # the loser's refusal may come after the winner's view
    while sum(len(client.errors()) for client in pair) == sum(before) and time.monotonic() < deadline:
        pair[0].pump(0.01)
        pair[1].pump(0.01)
    refused = [client.errors()[count:] for client, count in zip(pair, before, strict=True)]
    assert all(error["rule"] == "TBL-4.2" for errors in refused for error in errors), refused
    return sum(len(errors) for errors in refused)


def test_tbl_8_1_one_seq_offered_through_two_servers_is_accepted_once(servers: list[str]) -> None:
    """TBL-8.1, TBL-8.3, TBL-4.2: 100 times, the seat to move sends an action for the same seq through both processes
    at once: exactly one is accepted (the other is refused as stale), and the log grows by one entry each time."""
    made = make_table(servers[0], game="fly", players=4, options={"max_deals": 9})
    table = made["table"]
    pairs = [[Client(base, table, s["token"], picture=False) for base in servers] for s in made["seats"]]
    rng = random.Random(51)
    seq = races = 0
    while races < 100:
        view = pairs[0][0].wait(lambda v, seq=seq: v["seq"] == seq)
        if view["over"]:
            pairs[0][0].send({"type": "rematch", "seq": seq})
            seq += 1
            continue
        assert _race(pairs[view["to_move"]], seq, rng) == 1
        seq, races = seq + 1, races + 1
        for base in servers:
            assert httpx.get(f"{base}/api/tables/{table}", timeout=10).json()["seq"] == seq
    for pair in pairs:
        for client in pair:
            client.wait(lambda v, seq=seq: v["seq"] == seq)
            client.close()


def _play_until(clients: list[Client], rng: random.Random, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Each client acts when its view lets it until the table's latest view is ``done``; that view."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the table did not come there in time"
        for client in clients:
            client.pump(0.02)
        latest = max((c.view for c in clients if c.view is not None), key=lambda v: v["seq"])
        if done(latest):
            return latest
        for client in clients:
            view = client.view
            if view is not None and view["seq"] == latest["seq"] and view["legal"]:
                client.act(rng.choice(view["legal"]))
                client.wait(lambda v, s=view["seq"]: v["seq"] > s)


def _turn_of(seat: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a view has ``seat`` to move in a match going on."""
    return lambda view: view["to_move"] == seat and not view["over"]


def test_tbl_8_3_a_server_killed_mid_deal_its_players_go_on_through_the_other(postgres_url: str) -> None:
    """TBL-8.3, TBL-8.2, TBL-5.1: two processes, a 3-seat match with a bot; the process the table was made on is
    SIGKILLed mid-deal; its player connects to the other process, which runs the bot from then on (the killed one's
    advisory lock went with its connection), and the match is played to the end with every accepted action in the
    log once."""
    killed, killed_base = serve_process(postgres_url)
    other, other_base = serve_process(postgres_url)
    try:
        made = make_table(killed_base, game="fly", players=3, options={"max_deals": 2}, bots={"2": "rule-of-thumb"})
        tokens = [s["token"] for s in made["seats"]]
        first = [Client(killed_base, made["table"], tokens[0]), Client(other_base, made["table"], tokens[1])]
        rng = random.Random(52)
        at = _play_until(first, rng, lambda v: v["seq"] >= 8)["seq"]
        stop_process(killed, signal.SIGKILL)
        first[0].wait_closed()
        assert httpx.get(f"{other_base}/api/tables/{made['table']}", timeout=10).json()["seq"] >= at
        back = Client(other_base, made["table"], tokens[0])
        play_to_end([back, first[1]], rng)
        seed, nonce, _, states = verify_end(other_base, made["table"])
        for seat, client in [(0, first[0]), (0, back), (1, first[1])]:
            check_frames(client, seat, states, seed, nonce)
        texts = [str(a) for a in states[-1].actions]
        assert len(texts) == httpx.get(f"{other_base}/api/tables/{made['table']}", timeout=10).json()["seq"]
    finally:
        if killed.poll() is None:
            stop_process(killed, signal.SIGKILL)
        stop_process(other)


def test_tbl_8_4_postgresql_restarted_mid_deal_nothing_accepted_is_lost(postgres: Cluster) -> None:
    """TBL-8.4, TBL-8.2, TBL-8.3: PostgreSQL is stopped mid-deal under two processes; the action sent meanwhile is
    refused as not committed (send it again); once PostgreSQL is back the same action on the same seq is accepted,
    the players on both processes see it, and the match ends with every accepted action in the log exactly once."""
    url = postgres.database()
    started = [serve_process(url) for _ in range(2)]
    bases = [base for _, base in started]
    try:
        made = make_table(bases[0], game="fly", players=4, options={"max_deals": 2})
        clients = [Client(bases[s["seat"] // 2], made["table"], s["token"], picture=False) for s in made["seats"]]
        rng = random.Random(53)
        view = _play_until(clients, rng, lambda v: v["seq"] >= 9)
        accepted = view["seq"]
        mover = next(c for c in clients if c.view is not None and c.view["seq"] == accepted and c.view["legal"])
        action = rng.choice(mover.view["legal"])  # type: ignore[index]
        postgres.stop()
        try:
            before = len(mover.errors())
            mover.send({"type": "act", "seq": accepted, "action": action})
            refused = mover.errors(before + 1)[-1]
            assert refused["rule"] == "TBL-8.4"
            assert "send it again" in refused["message"]
            answer = httpx.get(f"{bases[1]}/api/tables/{made['table']}", timeout=10)
            assert answer.status_code == 503
        finally:
            postgres.start()
        mover.send({"type": "act", "seq": accepted, "action": action})
        for client in clients:
            client.wait(lambda v: v["seq"] == accepted + 1)
        play_to_end(clients, rng)
        ends = [verify_end(base, made["table"]) for base in bases]
        assert ends[0][:3] == ends[1][:3]
        states = ends[0][3]
        assert str(states[accepted + 1].actions[-1]) == str(parse_action(action, "fly"))
        for seat, client in enumerate(clients):
            check_frames(client, seat, states, *ends[0][:2])
    finally:
        for process, _ in started:
            stop_process(process)


def test_tbl_8_3_a_lost_notice_is_caught_up_by_seq(postgres: Cluster) -> None:
    """TBL-8.3: a server's listening connection is cut and kept from connecting again while another process commits
    an action, so that its notice is lost: the server's clients do not see it until the server listens again, then
    they do (the server read every table it holds from its last seq)."""
    url = postgres.database()
    database = url.rsplit("/", 1)[1]
    loop = asyncio.new_event_loop()
    other = TableService(PostgresStorage(url))
    admin = loop.run_until_complete(asyncpg.connect(postgres.url(), timeout=20))
    try:
        with serving(create_app(url)) as base:
            made = make_table(base, game="fly", players=4, options={"max_deals": 1})
            clients = [Client(base, made["table"], s["token"], picture=False) for s in made["seats"]]
            view = clients[0].wait(lambda v: True)
            table = loop.run_until_complete(other.table(made["table"]))
            assert table is not None
            loop.run_until_complete(admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS false"))
            cut = loop.run_until_complete(
                admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = $1 AND application_name = $2",
                    database,
                    LISTENER,
                )
            )
            assert cut == 1
            mover = view["to_move"]
            action = clients[mover].wait(lambda v: bool(v["legal"]))["legal"][0]
            loop.run_until_complete(other.act(table, mover, 0, action))
            assert table.seq == 1
            for client in clients:
                client.pump(0.5)
                assert client.view is not None
                assert client.view["seq"] == 0  # the notice was lost
            loop.run_until_complete(admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS true"))
            for client in clients:
                client.wait(lambda v: v["seq"] == 1, timeout=15)
                client.close()
    finally:
        loop.run_until_complete(admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS true"))
        loop.run_until_complete(admin.close())
        loop.run_until_complete(other.storage.close())
        loop.close()


def test_tbl_8_4_a_server_whose_database_is_down_says_so() -> None:
    """TBL-8.4: a server started on a PostgreSQL nobody answers keeps running: making a table and reading one answer
    503 with the rule, and a WebSocket handshake is refused with 503; nothing is made."""
    with serving(create_app("postgresql://fly@127.0.0.1:1/none")) as base:
        answer = httpx.post(f"{base}/api/tables", json={"game": "fly", "players": 4}, timeout=30)
        assert answer.status_code == 503
        assert answer.json()["rule"] == "TBL-8.4"
        assert "cannot be reached" in answer.json()["error"]
        facts = httpx.get(f"{base}/api/tables/abc", timeout=30)
        assert facts.status_code == 503
        with pytest.raises(InvalidStatus) as refused:
            connect(base.replace("http", "ws", 1) + "/api/tables/abc/ws", open_timeout=30)
        assert refused.value.response.status_code == 503


def _seats_connected(client: Client) -> dict[int, bool]:
    """The latest presence the client was told (a ``seats`` message or a view's ``seats``)."""
    told = [f for f in client.frames if f["type"] in ("seats", "view")]
    return {s["seat"]: s["connected"] for s in told[-1]["seats"]}


def _pump_for(client: Client, seconds: float) -> None:
    """Receive for ``seconds``."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        client.pump(min(left, 0.1))


def test_tbl_8_5_presence_is_the_same_at_every_process_and_the_leader_stands_in(postgres_url: str) -> None:
    """TBL-8.5, TBL-7.2: the process leading a table (its bot's turns) and another; seat 2's player moves from the
    leader to the other process: the leader's players still see seat 2 connected, and past the grace period seat
    2's turn waits for its player; once the player is gone from the other process too, the leader's players see
    seat 2 gone and, past the grace period, the leader's stand-in plays seat 2's turns."""
    leader, leader_base = serve_process(postgres_url, 0, "--grace", "1")
    other, other_base = serve_process(postgres_url, 0, "--grace", "1")
    try:
        made = make_table(leader_base, game="fly", players=4, options={"max_deals": 3}, bots={"3": "rule-of-thumb"})
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        players = [Client(leader_base, table, tokens[seat]) for seat in range(3)]
        rng = random.Random(53)
        _play_until(
            players, rng, _turn_of(3)
        )  # the bot's turn: the leader takes the table's lead (the other holds none)
        players[0].wait(lambda v: v["to_move"] != 3)
        moved = Client(other_base, table, tokens[2])
        moved.wait(lambda v: v["seq"] >= 0)
        players[2].close()
        _pump_for(players[0], 1.5)  # past the grace period
        assert _seats_connected(players[0]) == {0: True, 1: True, 2: True, 3: False}
        waiting = _play_until([*players[:2], moved], rng, _turn_of(2))
        _pump_for(players[0], 2.0)
        assert players[0].view is not None
        assert players[0].view["seq"] == waiting["seq"]  # nobody acted for seat 2: its player is at the other
        own = moved.wait(lambda v: v["seq"] == waiting["seq"])
        moved.act(rng.choice(own["legal"]))
        players[0].wait(lambda v: v["seq"] > waiting["seq"])
        moved.close()
        deadline = time.monotonic() + 10
        while _seats_connected(players[0]).get(2):
            assert time.monotonic() < deadline, "the leader's players still see seat 2 connected"
            players[0].pump(0.2)
        stood_in = _play_until(players[:2], rng, _turn_of(2))
        players[0].wait(lambda v: v["seq"] > stood_in["seq"] or v["over"], timeout=15)  # the stand-in played
    finally:
        stop_process(leader)
        stop_process(other)
