"""The table server over real sockets (uvicorn on a free port): whole matches played by one client a seat, every
frame read against what its seat may know, and every way a client may try to cheat or break it refused."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from fly_rules.cards import Card
from fly_rules.server import Limits, create_app
from tests.server.helpers import Client, cards_in, check_frames, make_table, play_to_end, serving, verify_end


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module, its tables in a fresh SQLite file; a dropped seat is held half a second."""
    db = tmp_path_factory.mktemp("tables") / "tables.sqlite3"
    with serving(create_app(db, limits=Limits(grace=0.5))) as url:
        yield url


def _seat_clients(base: str, made: dict[str, object], *, picture: bool = True) -> list[Client]:
    seats = made["seats"]
    assert isinstance(seats, list)
    return [Client(base, str(made["table"]), s["token"], picture=picture) for s in seats if s["token"] is not None]


def test_tbl_5_1_fly_four_players_and_a_watcher_see_only_their_own_cards(base: str) -> None:
    """TBL-5.1, TBL-2.3, TBL-3.3: four players and a watcher play a two-deal match of Fly; no frame shows a seat a
    card it cannot know at that moment, the seed appears in none before the end, and the revealed seed replays it."""
    made = make_table(base, game="fly", players=4, options={"max_deals": 2})
    clients = _seat_clients(base, made)
    watcher = Client(base, made["table"], None)
    sent = play_to_end([*clients, watcher], random.Random(46))
    assert sent > 20
    watcher.wait(lambda v: v["over"])
    seed, nonce, _, states = verify_end(base, made["table"])
    frames = sum(check_frames(c, seat, states, seed, nonce) for seat, c in enumerate(clients))
    frames += check_frames(watcher, None, states, seed, nonce)
    assert frames > 5 * len(states)
    assert all(c.view and c.view["seed"] == seed and c.view["commitment"] == made["commitment"] for c in clients)
    assert watcher.view is not None
    assert watcher.view["hand"] == []
    assert watcher.view["seat"] is None
    for client in [*clients, watcher]:
        client.close()


def test_tbl_5_1_dreyfus_three_players_see_only_their_own_cards(base: str) -> None:
    """TBL-5.1, TBL-2.4: a deal of Dreyfus played by three clients: every frame within its seat's knowledge (no
    talon card, no other hand, no other seat's discards), and the commitment verifies at the end."""
    made = make_table(base, game="dreyfus", options={"max_deals": 1})
    clients = _seat_clients(base, made)
    play_to_end(clients, random.Random(47))
    seed, nonce, history, states = verify_end(base, made["table"])
    assert 'game = "dreyfus"' in history
    for seat, client in enumerate(clients):
        check_frames(client, seat, states, seed, nonce)
        client.close()


def test_tbl_3_3_a_connection_asks_for_the_picture_laid_out_for_a_phone_or_none(base: str) -> None:
    """TBL-3.3: ``picture=narrow`` gets the picture laid out for a phone, the same seat's other connection keeps the
    wide one, ``picture=0`` none; a watcher may ask for the narrow one too."""
    made = make_table(base, game="fly", players=3, options={"max_deals": 1})
    token = made["seats"][0]["token"]
    narrow, wide, none = (Client(base, made["table"], token, picture=p) for p in ("narrow", True, False))
    watcher = Client(base, made["table"], None, picture="narrow")
    for client in (narrow, wide, none, watcher):
        client.wait(lambda v: True)
    assert narrow.view is not None
    assert wide.view is not None
    assert none.view is not None
    assert watcher.view is not None
    assert narrow.view["picture"].startswith('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="330"')
    assert 'class="narrow"' in narrow.view["picture"]
    assert 'class="narrow"' not in wide.view["picture"]
    assert "picture" not in none.view
    assert 'class="narrow"' in watcher.view["picture"]
    assert 'data-card="' not in watcher.view["picture"].split('class="middle"')[0]  # no hand face up to a watcher
    assert {k: v for k, v in narrow.view.items() if k not in ("picture", "seats", "_text", "_after")} == {
        k: v for k, v in wide.view.items() if k not in ("picture", "seats", "_text", "_after")
    }
    for client in (narrow, wide, none, watcher):
        client.close()


def test_tbl_2_1_nothing_of_the_deal_before_the_end(base: str) -> None:
    """TBL-2.1, TBL-2.3, TBL-1.3: during the match the history answers 409 and the facts carry no seed or nonce."""
    made = make_table(base, game="fly", players=3, bots={"2": "rule-of-thumb"})
    facts = httpx.get(f"{base}/api/tables/{made['table']}").json()
    assert "seed" not in facts
    assert "nonce" not in facts
    assert facts["over"] is False
    assert facts["seats"][2] == {"seat": 2, "bot": "rule-of-thumb", "connected": False}
    answer = httpx.get(f"{base}/api/tables/{made['table']}/history")
    assert answer.status_code == 409
    assert "seed" not in answer.text
    assert answer.json()["rule"] == "TBL-2.3"
    assert httpx.get(f"{base}/api/tables/nosuchtable").status_code == 404


@pytest.mark.parametrize(
    ("body", "named", "rule"),
    [
        ({"game": "chess"}, "chess", "REC-1.3"),
        ({"game": "fly", "players": 9}, "players", "REC-2.1"),
        ({"game": "fly", "players": True}, "players", "REC-2.1"),
        ({"game": "fly", "bots": {"1": "deep-blue"}}, "deep-blue", "TBL-1.1"),
        ({"game": "fly", "bots": {"7": "random"}}, "'7'", "TBL-1.1"),
        ({"game": "fly", "options": {"colour": "red"}}, "colour", "REC-2.3"),
        ({"game": "fly", "options": {"start_record": -4}}, "start_record", "REC-2.3"),
        ({"game": "fly", "preset": "nowhere"}, "nowhere", "REC-2.3"),
        ({"game": "fly", "seed": 4}, "seed", None),
        ({"game": "fly", "turn_seconds": 1}, "turn_seconds", "TBL-1.1"),
        ([1, 2], "object", "TBL-1.1"),
    ],
)
def test_tbl_1_1_a_bad_table_is_refused_naming_what_was_wrong(
    base: str, body: object, named: str, rule: str | None
) -> None:
    """TBL-1.1: an unknown game, bot, option or key, or a bad value, is answered 400 naming it, and no table is
    made (a client cannot choose the seed)."""
    answer = httpx.post(f"{base}/api/tables", json=body)
    assert answer.status_code == 400
    assert named in answer.json()["error"]
    assert answer.json()["rule"] == rule
    assert httpx.post(f"{base}/api/tables", content=b"{not json").status_code == 400


def _table_at_first_turn(base: str) -> tuple[dict[str, object], list[Client]]:
    made = make_table(base, game="fly", players=3)
    clients = _seat_clients(base, made, picture=False)
    for client in clients:
        client.wait(lambda v: True)
    return made, clients


def _mover(clients: list[Client]) -> tuple[Client, Client]:
    """The client whose turn it is, and another."""
    view = clients[0].view
    assert view is not None
    mover = clients[view["to_move"]]
    return mover, clients[(view["to_move"] + 1) % len(clients)]


def _seq(base: str, table: object) -> int:
    seq: int = httpx.get(f"{base}/api/tables/{table}").json()["seq"]
    return seq


def test_tbl_4_3_a_connection_cannot_act_for_another_seat(base: str) -> None:
    """TBL-4.3, TBL-4.4: a seat sending the mover's legal action, or a message naming a seat, is refused and the
    table does not move."""
    made, clients = _table_at_first_turn(base)
    mover, other = _mover(clients)
    assert mover.view is not None
    legal = mover.view["legal"][0]
    other.send({"type": "act", "seq": mover.view["seq"], "action": legal})
    other.send({"type": "act", "seq": mover.view["seq"], "action": legal, "seat": mover.view["seat"]})
    rules = [e["rule"] for e in other.errors(2)]
    assert rules == ["TBL-4.3", "TBL-4.3"]
    assert "not your turn" in other.errors()[0]["message"]
    assert _seq(base, made["table"]) == 0
    watcher = Client(base, str(made["table"]), None)
    watcher.wait(lambda v: True)
    watcher.send({"type": "act", "seq": 0, "action": legal})
    assert [e["rule"] for e in watcher.errors(1)] == ["TBL-4.3"]
    assert _seq(base, made["table"]) == 0


def test_tbl_4_2_a_stale_or_repeated_action_is_refused(base: str) -> None:
    """TBL-4.2: the same action sent twice is accepted once; an action on an old view is refused, and a game's
    refusal names its rule; nothing changes."""
    made, clients = _table_at_first_turn(base)
    mover, _ = _mover(clients)
    assert mover.view is not None
    action = {"type": "act", "seq": mover.view["seq"], "action": mover.view["legal"][0]}
    mover.send(action)
    mover.send(action)
    mover.wait(lambda v: v["seq"] == 1)
    assert [e["rule"] for e in mover.errors(1)] == ["TBL-4.2"]
    assert _seq(base, made["table"]) == 1
    for client in clients:
        client.wait(lambda v: v["seq"] == 1)
    nxt, _ = _mover(clients)
    nxt.send({"type": "act", "seq": 0, "action": "stand"})
    nxt.send({"type": "act", "seq": 1, "action": "play 2C"})  # not in a 36-card deck, nor in the hand
    errors = nxt.errors(2)
    assert errors[0]["rule"] == "TBL-4.2"
    assert errors[1]["rule"] is not None
    assert errors[1]["rule"].startswith("FLY-")
    assert _seq(base, made["table"]) == 1


@pytest.mark.parametrize(
    ("message", "rule", "named"),
    [
        ("{not json", "TBL-6.4", "JSON"),
        ("[1, 2]", "TBL-6.4", "object"),
        ('{"type": "teleport"}', "TBL-6.4", "teleport"),
        ('{"type": "act", "seq": 0}', "TBL-6.4", "action"),
        ('{"type": "act", "seq": 1e999, "action": "stand"}', "TBL-6.4", "seq"),
        ('{"type": "act", "seq": ' + "9" * 3000 + ', "action": "stand"}', "TBL-6.4", "seq"),
        ('{"type": "act", "seq": 0, "action": "' + "x" * 300 + '"}', "TBL-6.4", "200"),
        ('{"type": "act", "seq": 0, "action": ["stand"]}', "TBL-6.4", "action"),
        ('{"type": "act", "seq": 0, "action": "castle kingside"}', "REC-3.2", "expected"),
        ('{"type": "rematch", "seq": 0}', "TBL-4.5", "over"),
    ],
)
def test_tbl_6_4_a_malformed_message_is_refused_and_the_connection_stays(
    base: str, message: str, rule: str, named: str
) -> None:
    """TBL-6.4, TBL-4.4: bad JSON, an unknown type, a missing key, a huge number or a wrong kind of value is
    refused with a message naming it, never a traceback; the table is unchanged and the connection open."""
    made, clients = _table_at_first_turn(base)
    mover, _ = _mover(clients)
    mover.send(message)
    (error,) = mover.errors(1)
    assert error["rule"] == rule
    assert named in error["message"]
    assert "Traceback" not in error["message"]
    assert _seq(base, made["table"]) == 0
    assert mover.view is not None
    mover.act(mover.view["legal"][0])
    mover.wait(lambda v: v["seq"] == 1)


def test_tbl_3_1_a_bad_token_or_a_foreign_page_is_refused_at_the_handshake(base: str) -> None:
    """TBL-3.1, TBL-1.2: a token that is not the table's, another table's token, or a page of another origin
    gets no connection (HTTP 403), and an unknown table 404."""
    made = make_table(base, game="fly", players=3)
    other = make_table(base, game="fly", players=3)
    ws = base.replace("http", "ws", 1)
    tokens = ["not-a-token", other["seats"][0]["token"], made["seats"][0]["token"][:-1]]
    for token in tokens:
        with pytest.raises(InvalidStatus) as refused, connect(f"{ws}/api/tables/{made['table']}/ws?token={token}"):
            pass
        assert refused.value.response.status_code == 403
    url = f"{ws}/api/tables/{made['table']}/ws?token={made['seats'][0]['token']}"
    with pytest.raises(InvalidStatus) as refused, connect(url, origin=Origin("http://evil.example")):
        pass
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as refused, connect(f"{ws}/api/tables/nosuchtable/ws"):
        pass
    assert refused.value.response.status_code == 404
    with connect(f"{ws}/api/tables/{made['table']}/ws", origin=Origin(base)) as same:
        assert json.loads(same.recv(timeout=5))["type"] == "view"


def test_tbl_6_1_an_oversized_frame_closes_the_connection(base: str) -> None:
    """TBL-6.1: a message over 4,096 bytes closes the connection (1009) and changes nothing."""
    made, clients = _table_at_first_turn(base)
    mover, _ = _mover(clients)
    mover.send(json.dumps({"type": "act", "seq": 0, "action": "stand", "pad": "x" * 5000}))
    closed = mover.wait_closed()
    assert closed.rcvd is not None
    assert closed.rcvd.code == 1009
    assert _seq(base, made["table"]) == 0


def test_tbl_6_2_a_flood_closes_the_connection(base: str) -> None:
    """TBL-6.2: a connection sending far more than 10 messages a second is closed (1008); the table is
    unchanged and the seat may connect again."""
    made, clients = _table_at_first_turn(base)
    _, other = _mover(clients)  # not the mover: its seat stood in for after the grace would move the table
    sent = 0
    for _ in range(400):  # enough that a server slowed by a loaded machine still sees far more than 10 a second
        try:
            other.send('{"type": "ping"}')
        except Exception:  # the server may close it while we still send
            break
        sent += 1
    closed = other.wait_closed()
    assert closed.rcvd is not None
    assert closed.rcvd.code == 1008
    assert len(other.errors()) < sent  # closed before it answered them all
    assert _seq(base, made["table"]) == 0
    seats = made["seats"]
    assert isinstance(seats, list)
    again = Client(base, str(made["table"]), seats[other.view["seat"] if other.view else 0]["token"])
    again.wait(lambda v: v["seq"] == 0)


def test_tbl_6_3_a_table_takes_a_bounded_number_of_connections(tmp_path: Path) -> None:
    """TBL-6.3: past the table's limit of connections the handshake is refused (429)."""
    with serving(create_app(tmp_path / "t.sqlite3", limits=Limits(connections=3))) as url:
        made = make_table(url, game="fly", players=3)
        watchers = [Client(url, made["table"], None) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            Client(url, made["table"], None)
        assert refused.value.response.status_code == 429
        for watcher in watchers:
            watcher.close()


def test_tbl_7_2_a_dropped_player_is_stood_in_for_and_comes_back_to_the_current_view(base: str) -> None:
    """TBL-7.2, TBL-3.5: when a player's connection closes, the seat is held for the grace period, then the
    stand-in plays its turns; reconnecting with the same link gives the current view at once."""
    made = make_table(base, game="fly", players=3, bots={"1": "rule-of-thumb", "2": "rule-of-thumb"})
    token = made["seats"][0]["token"]
    player = Client(base, made["table"], token, picture=False)
    player.wait(lambda v: True)
    watcher = Client(base, made["table"], None, picture=False)
    watcher.wait(lambda v: True)
    assert watcher.view is not None
    assert watcher.view["seats"][0]["connected"] is True
    player.close()
    watcher.wait(lambda v: v["seq"] >= 6, timeout=30)  # the stand-in played for seat 0 too
    back = Client(base, made["table"], token, picture=False)
    view = back.wait(lambda v: True)
    assert view["seq"] == _seq(base, made["table"]) or view["seq"] >= watcher.view["seq"]
    assert view["seat"] == 0
    assert view["seats"][0]["connected"] is True


def test_tbl_4_5_a_rematch_keeps_the_seats_and_moves_the_dealer_on(base: str) -> None:
    """TBL-4.5, TBL-2.2: once over, a rematch starts the next match with a new commitment, the same links, and
    the first dealer one seat on."""
    made = make_table(base, game="fly", players=3, options={"max_deals": 1}, bots={"1": "random", "2": "random"})
    player = Client(base, made["table"], made["seats"][0]["token"], picture=False)
    play_to_end([player], random.Random(3))
    seed, _, history, _ = verify_end(base, made["table"])
    first_dealer = int(history.split("dealer = ")[1].split("\n")[0])
    assert player.view is not None
    player.send({"type": "rematch", "seq": player.view["seq"]})
    view = player.wait(lambda v: v["match"] == 1)
    assert view["commitment"] != made["commitment"]
    assert "seed" not in view
    assert view["over"] is False
    assert view["view"]["dealer"] == (first_dealer + 1) % 3
    assert seed not in view["_text"]


def test_tbl_3_4_a_watcher_sees_the_public_table_and_who_is_connected(base: str) -> None:
    """TBL-3.4, TBL-3.2, TBL-4.1: a watcher's view has no hand, no legal actions and no seat; it is told when a
    player connects and leaves, and every accepted action reaches it as a view one seq higher."""
    made = make_table(base, game="fly", players=3, bots={"2": "rule-of-thumb"})
    watcher = Client(base, made["table"], None)
    view = watcher.wait(lambda v: True)
    assert view["seat"] is None
    assert view["hand"] == []
    assert view["legal"] == []
    assert view["view"]["hand"] == []
    assert [s["connected"] for s in view["seats"]] == [False, False, False]
    player = Client(base, made["table"], made["seats"][0]["token"])
    player.wait(lambda v: True)
    watcher.pump(1.0)
    seats = [f for f in watcher.frames if f["type"] == "seats"]
    assert seats
    assert seats[-1]["seats"][0]["connected"] is True
    assert cards_in(view["picture"]) == {Card.parse(view["view"]["trump_card"])}  # every hand drawn as backs
    other = Client(base, made["table"], made["seats"][1]["token"])
    # the dealer is drawn at random: the bot in seat 2 may declare first, so the mover is whoever is to move after it
    current = watcher.wait(lambda v: v["to_move"] in (0, 1))
    mover = player if current["to_move"] == 0 else other
    mover.wait(lambda v: bool(v["legal"]))
    assert mover.view is not None
    mover.act(mover.view["legal"][0])
    watcher.wait(lambda v: v["seq"] > current["seq"])
    assert current["seq"] + 1 in [f["seq"] for f in watcher.frames if f["type"] == "view"]
    player.close()
    watcher.wait(lambda v: True)
    deadline = 50
    while deadline and not any(f["type"] == "seats" and not f["seats"][0]["connected"] for f in watcher.frames):
        watcher.pump(0.2)
        deadline -= 1
    assert deadline, "the watcher was not told that seat 0 left"
    other.close()


def test_tbl_7_1_bots_play_a_whole_match_from_their_views(base: str) -> None:
    """TBL-7.1: a table of bots alone plays its match to the end in the bots' worker process, and its history
    replays from the revealed seed."""
    made = make_table(
        base, game="dreyfus", options={"max_deals": 1}, bots={"0": "rule-of-thumb", "1": "random", "2": "random"}
    )
    assert all(s["token"] is None for s in made["seats"])
    watcher = Client(base, made["table"], None, picture=False)
    watcher.wait(lambda v: v["over"], timeout=60)
    verify_end(base, made["table"])


def test_tbl_7_3_the_turn_timer_lets_the_stand_in_play(base: str) -> None:
    """TBL-7.3: at a table with a turn timer, a connected seat that does not act within it is played for."""
    made = make_table(base, game="fly", players=3, turn_seconds=5, bots={"1": "random", "2": "random"})
    player = Client(base, made["table"], made["seats"][0]["token"], picture=False)
    view = player.wait(lambda v: v["to_move"] == 0, timeout=30)
    waited = view["seq"]
    player.wait(lambda v: v["seq"] > waited and v["to_move"] != 0, timeout=15)
