"""What the table server's tests share: a real server on a free port, clients over real sockets, and the
check of every frame against what its seat may know (TBL-5.1)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from fly_rules import registry
from fly_rules.actions import Exchange, Play
from fly_rules.cards import ALL_CARDS, Card, CardSet
from fly_rules.notation import load_history
from fly_rules.notation.games import deal_of
from fly_rules.server import commitment_of

# a card in any of the forms a frame writes one: "AS", "TS" (the notation), "A♠", "10♠" (text and titles)
# Not inside a table id or token (token_urlsafe: letters, digits, "-" and "_"), where "-5S_" is no card.
_CODE = re.compile(r"(?<![A-Za-z0-9_-])([2-9TJQKA])([SHDC])(?![A-Za-z0-9_-])")
_SYMBOL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
ROOT = Path(__file__).resolve().parents[2]


# the names of two scoring rules (FLY-8.3, FLY-8.5): each is scored in public, so every seat learns from the records
# who held the A♠; the words name the rule, not a card the seat was shown
_RULE_NAMES = re.compile(r"A♠ bonus \[FLY-8\.3\]|A♠ holder without a trick \[FLY-8\.5\]")


def cards_in(text: str) -> set[Card]:
    """Every card a text names, in either notation (the names of scoring rules aside)."""
    text = _RULE_NAMES.sub("", text)
    found = {Card.parse(rank + suit) for rank, suit in _CODE.findall(text)}
    found |= {Card.parse(("T" if rank == "10" else rank) + _SUITS[suit]) for rank, suit in _SYMBOL.findall(text)}
    return found


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of 127.0.0.1 in a thread; yields its base URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws_max_size=4096, ws_per_message_deflate=False, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


def serve_process(db: str | Path, port: int = 0, *options: str) -> tuple[subprocess.Popen[str], str]:
    """``fly-rules serve`` on ``port`` (0: any) with ``db``, bots playing at once and a dropped seat held ten
    minutes unless ``options`` say otherwise; the process and its URL, read from its first line."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = ["serve", "--port", str(port), "--db", str(db), "--bot-delay", "0", "--grace", "600", *options]
    process = subprocess.Popen(
        [sys.executable, "-m", "fly_rules", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "open http://" in line, line
    url = line.split("open ")[1].split("/ ")[0]
    return process, url


def stop_process(process: subprocess.Popen[str], how: signal.Signals = signal.SIGTERM) -> None:
    """Send ``how`` to a server process and wait for it to end."""
    process.send_signal(how)
    process.wait(20)
    if process.stdout is not None:
        process.stdout.close()


def make_table(base: str, **body: Any) -> dict[str, Any]:
    """POST /api/tables; the answer (201 asserted)."""
    answer = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


class Client:
    """One connection to a table: every frame it receives is kept, with the latest view."""

    def __init__(self, base: str, table: str, token: str | None, *, picture: bool | str = True) -> None:
        query = [] if token is None else [f"token={token}"]
        if picture is not True:
            query.append(f"picture={picture or 0}")
        url = base.replace("http", "ws", 1) + f"/api/tables/{table}/ws" + ("?" + "&".join(query) if query else "")
        self._stack = contextlib.ExitStack()  # the client library wants its connections used as contexts
        self.socket: ClientConnection = self._stack.enter_context(connect(url, open_timeout=10, max_size=2**22))
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.closed: ConnectionClosed | None = None

    def pump(self, timeout: float = 0.0) -> bool:
        """Receive what has arrived (waiting up to ``timeout`` for the first); whether anything came."""
        got = False
        while True:
            try:
                text = self.socket.recv(timeout=timeout)
            except TimeoutError:
                return got
            except ConnectionClosed as closed:
                self.closed = closed
                return got
            frame = json.loads(text)
            frame["_text"] = text
            frame["_after"] = self.view["seq"] if self.view else 0
            self.frames.append(frame)
            if frame["type"] == "view":
                self.view = frame
            got, timeout = True, 0.0

    def wait_closed(self, timeout: float = 10.0) -> ConnectionClosed:
        """Receive until the server closes the connection; how it closed."""
        deadline = time.monotonic() + timeout
        while self.closed is None:
            assert time.monotonic() < deadline, "the connection stayed open"
            self.pump(0.2)
        return self.closed

    def send(self, data: object) -> None:
        """Send one message (a JSON value, or text as it is)."""
        self.socket.send(data if isinstance(data, str | bytes) else json.dumps(data))

    def act(self, action: str) -> None:
        """Send ``action`` on the latest view."""
        assert self.view is not None
        self.send({"type": "act", "seq": self.view["seq"], "action": action})

    def wait(self, check: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Receive until the latest view passes ``check``; that view."""
        deadline = time.monotonic() + timeout
        while self.view is None or not check(self.view):
            assert time.monotonic() < deadline, f"no view passed the check; last: {self.view and self.view['status']}"
            assert self.closed is None, f"closed: {self.closed}"
            self.pump(0.2)
        return self.view

    def errors(self, count: int = 0, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The error messages received, once there are at least ``count`` (or the connection closed)."""
        deadline = time.monotonic() + timeout
        while True:
            errors = [f for f in self.frames if f["type"] == "error"]
            if len(errors) >= count or self.closed is not None:
                return errors
            assert time.monotonic() < deadline, f"{len(errors)} errors, not {count}"
            self.pump(0.2)

    def close(self) -> None:
        """Close the connection."""
        self._stack.close()


def play_to_end(clients: list[Client], rng: random.Random, timeout: float = 240.0) -> int:
    """Each client acts (a legal action drawn by ``rng``) whenever its view lets it, until the match is over;
    the number of actions sent."""
    deadline = time.monotonic() + timeout
    sent = 0
    acted: dict[int, int] = {}
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        for client in clients:
            client.pump(0.0)
        views = [c.view for c in clients if c.view is not None]
        if views and all(v["over"] for v in views):
            return sent
        moved = False
        for number, client in enumerate(clients):
            view = client.view
            if view and view["legal"] and acted.get(number) != view["seq"]:
                client.act(rng.choice(view["legal"]))
                acted[number] = view["seq"]
                sent += 1
                moved = True
        if not moved:
            for client in clients:
                if client.pump(0.05):
                    break


def replayed_states(history: str) -> tuple[Any, list[Any]]:
    """A finished match's history: its match, and the state after each of its actions (index 0: the start)."""
    final: Any = load_history(history)  # a match: its seed and first dealer
    game = registry.game_of(final)
    state = game.new_match(final.rules, seed=final.seed, dealer=final.first_dealer)
    states = [state]
    for action in final.actions:
        state = state.apply(action)
        states.append(state)
    return final, states


def knowledge(states: list[Any], seq: int, seat: int | None) -> set[Card]:
    """The cards ``seat`` (None: a watcher) may know once the first ``seq`` actions of the match are taken: every
    card it held in the deal so far, every card played to a trick, the cards every seat sees face up."""
    now = deal_of(states[seq])
    number = now.deal_number
    known: set[Card] = set()
    for index in range(seq, -1, -1):
        state = states[index]
        deal = deal_of(state)
        if deal.deal_number != number:
            break
        view = deal.view(0 if seat is None else seat)
        if seat is not None:
            known |= set(deal.hands[seat])
        for name in ("trump_card", "trump_indicator"):
            card = getattr(view, name, None)
            if card is not None:
                known.add(card)
        for trick in (*view.tricks, view.trick):
            known |= {card for _, card in trick}
    return known


def played_at(states: list[Any], seq: int) -> set[Card]:
    """The card the action ``seq`` played, if it played one (it is told in that view's ``last``)."""
    action = states[seq].actions[-1] if seq > 0 else None
    return {action.card} if isinstance(action, Play) else set()


def check_frames(client: Client, seat: int | None, states: list[Any], seed: str, nonce: str) -> int:
    """Assert that every frame ``client`` received stays within ``seat``'s knowledge at that moment (TBL-5.1) and
    that the seed and nonce appear only once the match is over; the number of frames checked."""
    deck = set(ALL_CARDS)
    last_seq = len(states) - 1
    for frame in client.frames:
        text = frame["_text"]
        seq = frame["seq"] if frame["type"] == "view" else frame["_after"]
        over = frame.get("over", False) and seq == last_seq
        if not over:
            assert seed not in text, f"the seed before the end: {text[:200]}"
            assert nonce not in text, f"the nonce before the end: {text[:200]}"
        allowed = knowledge(states, seq, seat)
        if frame["type"] == "view":
            rest = {k: v for k, v in frame.items() if k not in ("last", "_text", "_after")}
            shown = cards_in(json.dumps(rest, ensure_ascii=False)) & deck
            assert shown <= allowed, f"seat {seat} at seq {seq} is shown {sorted(map(str, shown - allowed))}"
            told = cards_in(" ".join(frame["last"])) & deck
            before = knowledge(states, seq - 1, seat) | played_at(states, seq) if seq > 0 else set()
            assert told <= allowed | before, (
                f"seat {seat} at seq {seq} is told {sorted(map(str, told - allowed - before))}: {frame['last']}"
            )
        else:
            shown = cards_in(text) & deck
            assert shown <= allowed, (
                f"seat {seat} at seq {seq}: {frame['type']} names {sorted(map(str, shown - allowed))}"
            )
    return len(client.frames)


def verify_end(base: str, table: str) -> tuple[str, str, str, list[Any]]:
    """The finished table's facts and history: the commitment verifies and the history replays from the seed
    (TBL-2.3, TBL-2.4); the seed, nonce, history text and replayed states."""
    facts = httpx.get(f"{base}/api/tables/{table}", timeout=10).json()
    assert facts["over"] is True
    seed, nonce = facts["seed"], facts["nonce"]
    assert commitment_of(int(seed), nonce) == facts["commitment"]
    answer = httpx.get(f"{base}/api/tables/{table}/history", timeout=10)
    assert answer.status_code == 200
    final, states = replayed_states(answer.text)
    assert str(final.seed) == seed
    assert final.actions == states[-1].actions
    assert final == states[-1]
    assert len(states) - 1 == facts["seq"] - facts["match"]  # one log entry an action (and one a rematch)
    return seed, nonce, answer.text, states


def exchange_cards(action: object) -> CardSet:
    """The cards an exchange gives up (empty for another action)."""
    return action.cards if isinstance(action, Exchange) else CardSet()
