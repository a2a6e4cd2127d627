"""``fly-rules join``: a seat at a table of ``fly-rules serve`` in the terminal, on the screen ``fly-rules
play`` uses, or the table watched (specs/table.md).

The client knows what its seat's view says and nothing more: each view message of the server [TBL-3.3] is
read back into the library's view (:func:`~fly_rules.notation.views.view_from_data`), its ``last`` lines
are what happened, and the player's choice goes back as an action text of REC-3.2 on the view's ``seq``
[TBL-4.1]; the server judges it and a refusal names the rule [TBL-4.4]. A dropped connection is opened
again on the same link [TBL-3.5]. At the end the seed and nonce are revealed and the match can be checked
against the commitment seen at its start [TBL-2.4]. The WebSocket client is the ``websockets`` package of
the ``server`` extra.
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Final, TextIO
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import attrs

from fly_rules import registry
from fly_rules.commands import files
from fly_rules.commands.common import CommandError, InputEnded, seconds_argument
from fly_rules.commands.screen import WIDTH, Quit, Screen, Turn, wrapped
from fly_rules.commands.verify import check
from fly_rules.errors import FlyRulesError
from fly_rules.narration import view_deal_lines
from fly_rules.notation.games import action_text, make_rules, parse_action, upgrade_options
from fly_rules.notation.views import view_from_data

__all__ = ["add", "run"]

_INSTALL: Final = "fly-rules join needs the websockets package: pip install 'fly_rules[server]'"
_REFUSED: Final = {403: "the server refused the link: it is not a seat's link at this table", 404: "no such table"}
_STOP_CODES: Final = frozenset({1008, 1009})  # the server closed the connection for what it sent [TBL-6]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``join`` to the ``fly-rules`` parser's subparsers ``sub``."""
    join = sub.add_parser("join", help="play your seat at a table of fly-rules serve in the terminal, or watch it")
    join.add_argument(
        "url", help="your seat's invite link (http://HOST:PORT/table/ID?token=...), or the table's watch link"
    )
    join.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep the finished match's history in FILE and check its shuffle (as fly-rules verify does)",
    )
    join.add_argument("--force", action="store_true", help="let --save overwrite an existing file")
    join.add_argument(
        "--retry",
        type=seconds_argument,
        default=120.0,
        metavar="SECONDS",
        help="how long to keep opening the connection again after it drops (default 120)",
    )
    join.set_defaults(run=run)


@attrs.frozen
class _Link:
    """An invite or watch link, as the lobby hands it out: ``http://HOST:PORT/table/ID[?token=T]``."""

    base: str
    table: str
    token: str | None

    @classmethod
    def parse(cls, url: str) -> _Link:
        parts = urlsplit(url.strip())
        path = parts.path.rstrip("/").split("/")
        if parts.scheme not in ("http", "https") or not parts.netloc or len(path) != 3 or path[1] != "table":
            raise CommandError(
                f"not a table's link: {url[:60]!r}; an invite link looks like http://HOST:PORT/table/ID?token=..."
            )
        tokens = parse_qs(parts.query).get("token", [])
        if len(tokens) > 1:
            raise CommandError("the link names more than one token: use the link as the lobby gave it")
        return cls(f"{parts.scheme}://{parts.netloc}", path[2], tokens[0] if tokens else None)

    def api(self, tail: str = "") -> str:
        """The table's HTTP address (TBL-1.3), or one below it."""
        return f"{self.base}/api/tables/{quote(self.table, safe='')}{tail}"

    def socket(self) -> str:
        """The WebSocket address of the seat (or of a watcher), without pictures in the views [TBL-3.1]."""
        query = {"picture": "0", **({"token": self.token} if self.token is not None else {})}
        return self.api("/ws").replace("http", "ws", 1) + "?" + urlencode(query)


def _get(url: str, what: str) -> bytes:
    """The body answered to a GET of ``url``; a clear error when the server cannot be reached or refuses."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            body: bytes = answer.read()
            return body
    except urllib.error.HTTPError as error:
        raise CommandError(
            f"the server answered {error.code} for {what}: {_REFUSED.get(error.code, error.reason)}"
        ) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise CommandError(f"cannot reach the table server at {url.split('/api/', maxsplit=1)[0]}: {reason}") from None


def _rules(facts: dict[str, Any]) -> Any:
    """The table's rules from its public facts [TBL-1.3]."""
    try:
        game = registry.get(facts["game"])
        options = dict(facts["rules"])
        preset = options.pop("preset", "default")
        players = facts["players"] if game.seats[0] != game.seats[1] else None
        return make_rules(game.name, players=players, preset=preset, **upgrade_options(game.name, options))
    except (KeyError, TypeError, ValueError, FlyRulesError) as error:
        raise CommandError(f"the server's facts of the table are not a table's: {error}") from None


class _Client:
    """One seat (or a watcher) at the table: the messages read, told and answered."""

    def __init__(self, link: _Link, facts: dict[str, Any], out: TextIO, retry: float) -> None:
        self.link = link
        self.out = out
        self.retry = retry
        self.rules = _rules(facts)
        self.game = registry.game_of(self.rules)
        self.screen = (
            Screen(out, self.rules, link.table, quit_note="your seat is kept: join again") if link.token else None
        )
        self.bots: dict[int, str | None] = {s["seat"]: s.get("bot") for s in facts.get("seats", [])}
        self.connected: dict[int, bool] | None = None  # the players' seats connected, once told [TBL-3.2]
        self.began: dict[int, bool] = {}  # per match, whether its first view came before its end
        self.seq: int | None = None  # the latest view told
        self.told: tuple[int, int] | None = None  # the match and deal whose start is told
        self.waited: int | None = None  # the seq at which 'waiting for' was said
        self.commitments: dict[int, str] = {}  # per match, the commitment seen at its start
        self.pending: list[int] = []  # the seq of each action sent and not answered
        self.latest: dict[str, Any] | None = None
        self.greeting: list[str] = []  # said with the first view

    def say(self, *lines: str) -> None:
        if lines:
            print("\n".join(lines), file=self.out, flush=True)

    # --- the connection [TBL-3.1] [TBL-3.5] ---------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        """Play (or watch) until the match is over, opening the connection again when it drops; the last
        view."""
        connect, ConnectionClosed, InvalidHandshake, InvalidStatus = _websockets()
        lost: float | None = None
        pause = 0.25
        while True:
            try:
                with connect(self.link.socket(), max_queue=None, proxy=None, open_timeout=10) as socket:
                    if lost is not None:
                        self.say("   connected again")
                    lost, pause = None, 0.25
                    return self._session(socket)
            except InvalidStatus as refused:
                code = refused.response.status_code
                raise CommandError(f"the table refused the connection ({code}): {_why(refused)}") from None
            except ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code in _STOP_CODES:
                    raise CommandError(f"the server closed the connection: {closed.rcvd.reason}") from None
                problem = "the connection dropped"
            except (OSError, TimeoutError, InvalidHandshake) as error:
                problem = f"cannot connect ({error})"
            now = time.monotonic()
            if lost is None:
                lost = now
                self.say(f"   {problem}: connecting again (up to {self.retry:g} s)…")
            if now - lost > self.retry:
                raise CommandError(
                    f"{problem} and the table could not be reached again for {self.retry:g} s; "
                    "your seat is kept: run the same fly-rules join command again"
                )
            time.sleep(pause)
            pause = min(pause * 2, 4.0)

    def _session(self, socket: Any) -> dict[str, Any]:
        """One connection: every message until the match is over [TBL-3.2]."""
        self.pending.clear()  # nothing sent is kept across connections [TBL-3.5]
        while True:
            message = _message(socket.recv())
            kind = message.get("type")
            if kind == "view":
                self._show(message)
                if message["over"]:
                    return message
            elif kind == "error":
                self._refused(message)
            elif kind == "seats":
                self._seats(message["seats"], None if self.latest is None else self.latest["seat"])
            else:
                continue  # a type this client does not know [TBL-3.2]
            latest = self.latest
            if self.screen is not None and latest is not None and latest["legal"] and not self.pending:
                self._act(socket, latest)

    def _act(self, socket: Any, message: dict[str, Any]) -> None:
        """Ask the player for the seat's action on the view ``message`` and send it [TBL-4.1]."""
        assert self.screen is not None
        legal = [parse_action(text, self.game.name) for text in message["legal"]]
        turn = Turn(self._view(message), legal, message["seq"])
        action = self.screen.your_move(turn)
        self.pending.append(message["seq"])
        socket.send(json.dumps({"type": "act", "seq": message["seq"], "action": action_text(action)}))

    # --- what is told ---------------------------------------------------------------------------------------

    def _view(self, message: dict[str, Any]) -> Any:
        """The library's view in the message; a watcher's is the public view, told as from seat 0."""
        data = dict(message["view"])
        if data.get("seat") is None:
            data["seat"] = 0
        try:
            return view_from_data(data)
        except FlyRulesError as error:
            raise CommandError(f"the server sent a view this client cannot read: {error}") from None

    def _show(self, message: dict[str, Any]) -> None:
        """Tell what the view ``message`` adds: the latest action's lines, a new deal, whose turn it is."""
        seq, match = message["seq"], message["match"]
        self.commitments.setdefault(match, message["commitment"])
        self.began.setdefault(match, not message["over"])
        if "seats" in message:
            self._seats(message["seats"], message["seat"])
        self.pending = [sent for sent in self.pending if sent >= seq]  # older ones are answered by this view
        self.latest = message
        view = self._view(message)
        deal = (match, view.deal_number)
        last = [f"   {line}" for line in message["last"]]
        if self.seq is None or self.told is None or match != self.told[0]:
            if self.seq is None:
                self.say(*self.greeting, *self._seat_line(message))
            self._deal(message, view)
            self.say(*last)
        elif seq > self.seq:
            if seq > self.seq + 1:
                self.say(f"   ({seq - self.seq - 1} action(s) went by unseen while the connection was down)")
            self.say(*last)
            if deal != self.told:
                self._deal(message, view)
        self.told, self.seq = deal, seq
        mover = message["to_move"]
        if not message["over"] and mover != message["seat"] and self.bots.get(mover) is None and self.waited != seq:
            self.waited = seq
            away = "" if (self.connected or {}).get(mover, True) else " (not connected: a bot plays after a while)"
            self.say(f"   waiting for seat {mover} to move{away}")

    def _seats(self, seats: list[dict[str, Any]], mine: int | None) -> None:
        """Who is a bot and which players are connected; a player's coming and going is said [TBL-3.2]."""
        self.bots.update({s["seat"]: s.get("bot") for s in seats})
        now = {s["seat"]: bool(s.get("connected")) for s in seats if s.get("bot") is None}
        if self.connected is not None:
            for seat, here in sorted(now.items()):
                if seat != mine and here != self.connected.get(seat):
                    self.say(f"   seat {seat} {'is connected' if here else 'lost its connection'}")
        self.connected = now

    def _seat_line(self, message: dict[str, Any]) -> list[str]:
        """Who sits where: the player's seat, the bots."""
        seats = [
            f"{seat}: " + ("you" if seat == message["seat"] else f"{bot} bot" if bot else "a player")
            for seat, bot in sorted(self.bots.items())
        ]
        return [wrapped("seats " + ", ".join(seats))]

    def _deal(self, message: dict[str, Any], view: Any) -> None:
        """The start of the deal told from the view (a watcher sees no hand)."""
        lines = view_deal_lines(view, self.rules.rank_order)
        self.say(*(lines if message["seat"] is not None else lines[:2]))

    def _refused(self, message: dict[str, Any]) -> None:
        """A refusal [TBL-4.4]: the answer to the oldest action sent, or to one the table had moved past."""
        rule, text = message.get("rule"), str(message.get("message", ""))
        if self.screen is None:
            self.say(f"   the table refused: {rule or ''} {text}".rstrip())
        elif self.pending:
            self.pending.pop(0)
            self.screen.refused(self.screen.typed, rule, text)
        else:
            self.say(f"   (an earlier action of yours came too late: {rule or ''} {text})")

    def finish(self, final: dict[str, Any], save: Path | None) -> None:
        """The outcome, the seed and nonce revealed, and how to check the shuffle [TBL-2.3] [TBL-2.4]."""
        outcome = final.get("outcome") or ["the match is over"]
        self.say("", f"== {outcome[0]}", *(f"   {line}" for line in outcome[1:]))
        match = final["match"]
        committed = self.commitments[match]
        seed, nonce = final.get("seed"), final.get("nonce")
        if final["commitment"] != committed:
            self.say(f"   WARNING: the commitment changed during the match (it was {committed})")
        seen = "shown when the match began" if self.began[match] else "of the table (you came after the end)"
        self.say(
            "",
            f"The shuffle, revealed. The commitment {seen}:",
            f"   {committed}",
            f"   seed {seed}" if len(f"   seed {seed}") <= WIDTH else f"   seed\n   {seed}",
            f"   nonce {nonce}",
        )
        history = self.link.api("/history")
        if save is not None:
            text = _get(history, "the match's history").decode("utf-8")
            files.write_atomically(save, text)
            self.say(f"history saved to {save}", wrapped(check(text, committed, str(nonce), str(save)), ""))
        self.say(
            "Check it: SHA-256 of SEED:NONCE is the commitment and the history replays:",
            *([] if save is not None else [f"   (the history: {history})"]),
            f"fly-rules verify {save or 'HISTORY.toml'} \\",
            f"  --nonce {nonce} \\",
            f"  --commitment {committed}",
        )


_VIEW_KEYS: Final[dict[str, type | tuple[type, ...]]] = {
    "seq": int,
    "match": int,
    "seat": (int, type(None)),
    "to_move": (int, type(None)),
    "legal": list,
    "last": list,
    "view": dict,
    "over": bool,
    "commitment": str,
}
"""The keys of a view message this client reads [TBL-3.3], and their kinds."""


def _message(text: str | bytes) -> dict[str, Any]:
    """A message of the server, checked as far as this client reads it; a clear error for anything else."""
    try:
        message = json.loads(text)
    except ValueError:
        raise CommandError(f"the server sent a message that is not JSON: {str(text)[:60]!r}") from None
    if not isinstance(message, dict):
        raise CommandError(f"the server sent a message that is not a JSON object: {str(text)[:60]!r}")
    if message.get("type") == "view":
        wrong = [key for key, kind in _VIEW_KEYS.items() if not isinstance(message.get(key), kind)]
        if wrong:
            raise CommandError(f"the server sent a view without a readable {', '.join(wrong)} [TBL-3.3]")
    if message.get("type") == "seats" and not isinstance(message.get("seats"), list):
        raise CommandError("the server sent a seats message without its list of seats [TBL-3.2]")
    return message


def _websockets() -> tuple[Any, Any, Any, Any]:
    """The ``websockets`` client's ``connect`` and the exceptions it raises; a clear error without the package."""
    try:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus  # noqa: PLC0415
        from websockets.sync.client import connect  # noqa: PLC0415 - the server extra, for this command only
    except ImportError:
        raise CommandError(_INSTALL) from None
    return connect, ConnectionClosed, InvalidHandshake, InvalidStatus


def _why(refused: Any) -> str:
    """What the server said when it refused the handshake."""
    body = refused.response.body or b""
    said = body.decode("utf-8", "replace").strip()[:120]
    return said or _REFUSED.get(refused.response.status_code, "refused")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Take the seat of ``args.url`` (or watch the table) until the match is over."""
    link = _Link.parse(args.url)
    _websockets()  # before anything is asked of the server
    if args.save is not None:
        files.check_target(args.save, force=args.force)
    body = _get(link.api(), f"table {link.table}")
    try:
        facts = json.loads(body)
    except ValueError:
        raise CommandError(f"{link.base} did not answer as a table server (not JSON)") from None
    client = _Client(link, facts, out, args.retry)
    who = "watching" if link.token is None else "your seat"
    client.greeting = [
        f"{client.game.title}, {facts['players']} players, table {link.table}: {who}",
        *client.game.words.goal(client.rules),
    ]
    try:
        final = client.play()
    except Quit:
        client.say("you left the table; your seat is kept: the same fly-rules join command takes it again")
        return 0
    except InputEnded:
        raise CommandError("input ended before the match did; your seat is kept: join again to play on") from None
    client.finish(final, args.save)
    return 0
