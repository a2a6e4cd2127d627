"""TBL-8.3: two ``fly-rules serve`` processes on one PostgreSQL database serve the same tables: players connected to
either see every action, the same ``seq`` offered through both is accepted once, and the log is the same from both."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.server.helpers import Client, check_frames, make_table, play_to_end, serve_process, stop_process, verify_end


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
