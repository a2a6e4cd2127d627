"""``fly-rules join``: the terminal's game as a client of a real table server (``fly_rules.server`` under
uvicorn on a free port, its tables in an SQLite file), in a real 80x24 terminal (tmux): the play screen,
the server's refusals naming their rule, a connection opened again after the server is killed and started
again, a watcher, and the shuffle checked at the end (specs/table.md)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fly_rules.cards import Card
from fly_rules.cli import main
from fly_rules.commands import CommandError, join
from tests.cli.test_terminal import ROOT, Terminal, _check_prompt, _check_unwrapped, _play_out, terminal

__all__ = ["terminal"]  # the fixture, imported for the tests here

_SERVE = (
    "import sys, uvicorn; from fly_rules.server import create_app; "
    "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')"
)


class Server:
    """The table server in a process of its own, on ``port``, keeping its tables in ``db``."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """The server's address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it answers."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-c", _SERVE, str(self.db), str(self.port)], env=env)
        deadline = time.monotonic() + 30
        while not self._answers():
            assert self.process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not answer within 30 s"
            time.sleep(0.1)

    def _answers(self) -> bool:
        """Whether the server answers (an unknown table: 404)."""
        try:
            urllib.request.urlopen(f"{self.base}/api/tables/none", timeout=1)
        except urllib.error.HTTPError as answered:
            return answered.code == 404
        except OSError:
            return False
        return False

    def kill(self) -> None:
        """SIGKILL the server: nothing of it runs on."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def table(self, body: dict[str, Any]) -> dict[str, Any]:
        """Make a table (``POST /api/tables``) and answer the server's answer."""
        request = urllib.request.Request(
            f"{self.base}/api/tables", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 201
            made: dict[str, Any] = json.loads(answer.read())
            return made

    def facts(self, table: str) -> dict[str, Any]:
        """The table's public facts."""
        with urllib.request.urlopen(f"{self.base}/api/tables/{table}", timeout=10) as answer:
            facts: dict[str, Any] = json.loads(answer.read())
            return facts


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A table server on a free port with its tables in a file; killed after the test."""
    running = Server(tmp_path / "tables.db", _free_port())
    running.start()
    yield running
    running.kill()


def _short_match(server: Server) -> tuple[dict[str, Any], str]:
    """A 3-seat Fly table of one deal with bots in seats 1 and 2; its answer and seat 0's invite link."""
    made = server.table(
        {"game": "fly", "players": 3, "bots": {"1": "rule-of-thumb", "2": "rule-of-thumb"}, "options": {"max_deals": 1}}
    )
    assert [seat["token"] is None for seat in made["seats"]] == [False, True, True]
    return made, f"{server.base}/table/{made['table']}?token={made['seats'][0]['token']}"


def test_tbl_3_5_join_plays_a_seat_at_80x24_to_the_end_through_a_server_restart(
    terminal: Callable[..., Terminal], server: Server, tmp_path: Path
) -> None:
    """TBL-3.5, TBL-4.4, TBL-2.4, FLY-4.3: ``fly-rules join`` on a seat's invite link plays a one-deal match
    against the server's bots in an 80x24 terminal on the play screen (status block, ``?`` list, no line
    over 80 columns); ``hint`` answers from the seat's view; an exchange of a card not held is refused by the
    server with its rule, which ``rules`` shows; the server is SIGKILLed at a prompt and started again on its
    database, the client connects again on the same link and the match goes on to the end; a watcher on the
    watch link sees it too, without any hand; at the end the seed and nonce are shown with the verify
    command, the history is saved and checks out against the commitment published at the start."""
    made, invite = _short_match(server)
    watched = tmp_path / "watcher.txt"
    with watched.open("w") as sink:
        watcher = subprocess.Popen(
            [sys.executable, "-m", "fly_rules", "join", f"{server.base}/table/{made['table']}"],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    saved = tmp_path / "match.toml"
    term = terminal("join", invite, "--save", saved.name, cwd=tmp_path)
    screen = term.prompt()
    _check_prompt(screen, term)
    assert "seats 0: you, 1: rule-of-thumb bot, 2: rule-of-thumb bot" in screen
    assert "   Goal: take your record from 25 to exactly 0" in screen
    term.type("hint")
    assert re.search(r"hint \(\S+ bot\): (stand|fold|x .+)\n", term.prompt())  # from the seat's view, here
    hand = {Card.parse(word) for word in screen.rsplit("your hand: ", 1)[1].split("\n", 1)[0].split()}
    missing = next(card for card in map(Card.parse, ("AS", "KS", "QS", "JS", "AH", "KH")) if card not in hand)
    term.type(f"x {str(missing).lower()}")
    screen = term.wait("not a legal action now")
    assert f"not a legal action now: x {str(missing).lower()}: FLY-4.3 (" in screen  # the server's refusal
    assert f"does not hold {missing.symbol}" in screen
    term.type("rules")
    term.wait("(its sources and tests: fly-rules rules FLY-4.3)")

    deadline = time.monotonic() + 30
    while server.facts(made["table"])["watchers"] < 1:  # the watcher too is connected when the server dies
        assert time.monotonic() < deadline, watched.read_text()
        time.sleep(0.1)
    server.kill()
    server.start()
    term.type("?")
    term.prompt()
    term.type("1")  # sent on a dropped connection: the client connects again and asks again on the new view
    screen = term.wait("connected again")
    assert "the connection dropped: connecting again" in screen
    screen = _play_out(term)
    assert "[exit 0]" in screen
    _check_unwrapped(term)

    facts = server.facts(made["table"])
    assert facts["over"]
    assert "== Match over after 1 deal(s)" in screen
    assert f"--nonce {facts['nonce']}" in screen
    assert f"--commitment {made['commitment']}" in screen
    assert f"ok: {saved.name} checks out [TBL-2.4]" in screen.replace("\n", " ")
    assert main(["verify", str(saved), "--commitment", made["commitment"], "--nonce", facts["nonce"]]) == 0

    assert watcher.wait(30) == 0
    told = watched.read_text()
    assert "watching" in told
    assert "== Match over after 1 deal(s)" in told
    assert f"--commitment {made['commitment']}" in told
    assert "your hand" not in told
    assert not re.search(r"^   seat \d: .*\(record \d+\)$", told, re.MULTILINE)  # no hand dealt is shown


def _connected(server: Server, table: str, seat: int) -> None:
    """Wait until ``seat`` of ``table`` has a connection."""
    deadline = time.monotonic() + 30
    while not server.facts(table)["seats"][seat]["connected"]:
        assert time.monotonic() < deadline, f"seat {seat} did not connect"
        time.sleep(0.1)


def test_tbl_3_2_two_terminal_players_share_a_table_and_see_each_other_come(server: Server, tmp_path: Path) -> None:
    """TBL-3.2, TBL-4.1, TBL-2.2: two ``fly-rules join`` players (answers piped in: ``?`` then the first of
    the list, each prompt) and a bot play one Dreyfus match at one table to the end; the first is told when
    the second connects, each was waited for by the other, and both end with the commitment published at
    the table's making and the same revealed nonce."""
    made = server.table({"game": "dreyfus", "bots": {"2": "rule-of-thumb"}, "options": {"max_deals": 1}})
    links = [f"{server.base}/table/{made['table']}?token={made['seats'][seat]['token']}" for seat in (0, 1)]
    answers = tmp_path / "answers.txt"
    answers.write_text("?\n1\n" * 200)
    outputs = [tmp_path / f"seat{seat}.txt" for seat in (0, 1)]
    players = []
    for seat, link in enumerate(links):
        with answers.open() as typed, outputs[seat].open("w") as shown:
            players.append(
                subprocess.Popen(
                    [sys.executable, "-m", "fly_rules", "join", link],
                    stdin=typed,
                    stdout=shown,
                    stderr=subprocess.STDOUT,
                    env={**os.environ, "PYTHONPATH": str(ROOT)},
                )
            )
        _connected(server, made["table"], seat)
    for player in players:
        player.wait(120)
    told = [output.read_text() for output in outputs]
    assert [player.returncode for player in players] == [0, 0], told
    facts = server.facts(made["table"])
    assert facts["over"]
    assert "seat 1 is connected" in told[0]
    for seat, text in enumerate(told):
        assert f"seats 0: {'you' if seat == 0 else 'a player'}, 1: {'you' if seat == 1 else 'a player'}" in text
        assert f"--commitment {made['commitment']}" in text
        assert f"--nonce {facts['nonce']}" in text
        assert "== Match over after 1 deal(s)" in text
        lines = text.replace("your choice> ", "").splitlines()  # piped in, the answers are not echoed after it
        assert max(map(len, lines)) <= 80
    assert "waiting for seat 1 to move" in told[0] or "waiting for seat 0 to move" in told[1]


def test_tbl_3_1_join_refuses_a_bad_link_a_bad_token_and_an_unknown_table(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """TBL-3.1, TBL-1.3: a link that is not a table's, a token that is not a seat's and an unknown table are
    each said in one line (exit 1), never a traceback."""
    made, _ = _short_match(server)
    cases = {
        "ftp://127.0.0.1/table/x": "not a table's link",
        f"{server.base}/lobby": "not a table's link",
        f"{server.base}/table/{made['table']}?token=not-a-token": "refused the connection (403)",
        f"{server.base}/table/no-such-table": "answered 404",
        f"http://127.0.0.1:{_free_port()}/table/x?token=t": "cannot reach the table server",
    }
    for link, said in cases.items():
        assert main(["join", link]) == 1
        err = capsys.readouterr().err
        assert said in err, (link, err)
        assert "Traceback" not in err


def test_join_without_the_websockets_package_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the ``websockets`` package (the ``server`` extra) ``join`` says what to install, before it asks
    anything of the server."""
    for name in ("websockets", "websockets.exceptions", "websockets.sync", "websockets.sync.client"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["join", f"http://127.0.0.1:{_free_port()}/table/x"]) == 1
    assert "pip install 'fly_rules[server]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"type": "view", "seq": "7"}', "without a readable seq, match"),
        ('{"type": "seats", "seats": null}', "without its list of seats"),
    ],
)
def test_tbl_3_3_a_server_message_the_client_cannot_read_is_said_in_one_line(sent: str, said: str) -> None:
    """TBL-3.3, TBL-3.2: a message from the server that is not JSON, not an object, or a view or seats message
    without the keys the client reads is a clear error naming what is wrong, never a traceback."""
    with pytest.raises(CommandError, match=said):
        join._message(sent)
    assert join._message('{"type": "news", "x": 1}') == {"type": "news", "x": 1}  # an unknown type passes
