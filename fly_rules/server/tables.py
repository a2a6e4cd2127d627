"""The table service: tables made, seats checked, actions accepted or refused, and what each seat is shown.

No web framework here: :class:`TableService` works on a :class:`~fly_rules.server.storage.Storage` and
answers plain JSON values, so the same service runs behind the WebSocket app, in the tests' state machine and
in a second server process. A table's match is the replay of its log [TBL-8.1]; the service keeps the replay
of each table it has seen and reads only the entries it has not applied yet.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from typing import Any, Final

import attrs

from fly_rules import registry
from fly_rules.actions import Action
from fly_rules.bots import BOTS
from fly_rules.engine.protocols import GameState, Rules
from fly_rules.errors import FlyRulesError, RuleViolation
from fly_rules.narration import action_lines, outcome_text, records_text, status_line
from fly_rules.notation import dump_history
from fly_rules.notation.games import action_text, deal_of, make_rules, parse_action, upgrade_options
from fly_rules.notation.views import private_data, private_names, public_view, view_data
from fly_rules.server.storage import Entry, MatchRow, Storage, TableRow
from fly_rules.svg import deal_picture

__all__ = ["MAX_ACTION_TEXT", "BadRequest", "Last", "Refusal", "Table", "TableService", "commitment_of"]

MAX_ACTION_TEXT: Final = 200
"""The longest action text a client may send [TBL-6.4]."""
_NOBODY: Final = -1  # told as to a seat that is not at the table: every hidden card stays hidden
_TABLE_KEYS: Final = frozenset({"game", "players", "options", "preset", "bots", "turn_seconds"})


class BadRequest(FlyRulesError):
    """A request to make a table that cannot be met [TBL-1.1]: ``message`` names what was wrong."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        """``message`` says what was wrong; ``rule`` is the rule it breaks, if one does."""
        super().__init__(message)
        self.message = message
        self.rule = rule


class Refusal(FlyRulesError):
    """A message refused at the table [TBL-4.4]; nothing changed."""

    def __init__(self, rule: str | None, message: str) -> None:
        """``rule`` is the rule the message breaks (a game's or this protocol's), ``message`` what was wrong."""
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message


def commitment_of(seed: int, nonce: str) -> str:
    """The commitment to a match's seed: SHA-256 hex of ``SEED:NONCE`` [TBL-2.2].

    >>> commitment_of(1, "00")[:16]
    '0d3eefe364d48a95'
    """
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_match_row(number: int, first_dealer: int | None, start_seq: int) -> MatchRow:
    """A match with a fresh secret seed and nonce [TBL-2.1]."""
    seed = secrets.randbits(128)
    nonce = secrets.token_hex(16)
    return MatchRow(number, seed, nonce, commitment_of(seed, nonce), first_dealer, start_seq)


@attrs.define
class Last:
    """The latest accepted action, kept to tell each seat what it did."""

    before: GameState
    """The match before it."""
    after: GameState
    """The match after it."""
    mover: int
    """The seat that took it."""
    action: Action
    """The action."""


@attrs.define(eq=False)
class Table:
    """One table as the service holds it: what it was made with, its matches, and the replay of its log."""

    row: TableRow
    """What the table was made with."""
    rules: Rules
    """The rules in force."""
    matches: list[MatchRow]
    """Its matches, first first; the last is in play."""
    state: Any  # Any: the game's own match class (its over_rule, first_dealer), whichever game the table plays
    """The match in play, replayed from the log."""
    seq: int = 0
    """The entries of the log applied so far."""
    last: Last | None = None
    """The latest action of the match in play."""
    _told: dict[tuple[int | None, bool | str], dict[str, Any]] = attrs.field(factory=dict)
    """Each (seat, picture)'s view message at this seq."""
    _shared: dict[str, Any] | None = None
    """The part of the view messages told alike to every seat at this seq."""
    _texts: dict[str, str] = attrs.field(factory=dict)
    """The shared part's JSON members at this seq, encoded once for every connection."""

    def moved_on(self) -> None:
        """Forget what was told at the previous seq."""
        self._told.clear()
        self._shared = None
        self._texts.clear()

    @property
    def match(self) -> MatchRow:
        """The match in play."""
        return self.matches[-1]

    @property
    def over(self) -> bool:
        """Whether the match in play is over."""
        return bool(self.state.is_over)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None; every seat's digest is compared, in constant time [TBL-1.2]."""
        presented = _digest(token)
        found = None
        for seat, digest in enumerate(self.row.token_digests):
            if digest is not None and hmac.compare_digest(presented, digest):
                found = seat
        return found


def _begin(rules: Any, game: str, match: MatchRow) -> Any:
    return registry.get(game).new_match(rules, seed=match.seed, dealer=match.first_dealer)


class TableService:
    """Tables on a storage: made, replayed, acted at, and shown seat by seat."""

    def __init__(self, storage: Storage) -> None:
        """The service of the tables in ``storage``."""
        self.storage = storage
        self._tables: dict[str, Table] = {}

    # --- making a table [TBL-1.1] --------------------------------------------------------------------------

    @staticmethod
    def _rules(body: Mapping[str, Any]) -> tuple[str, int, Any, dict[str, Any], str]:
        unknown = sorted(set(body) - _TABLE_KEYS)
        if unknown:
            raise BadRequest(f"unknown key {unknown[0]!r}: a table takes {', '.join(sorted(_TABLE_KEYS))}")
        name = body.get("game")
        if name not in registry.games():
            raise BadRequest(f"unknown game {name!r}: one of {', '.join(registry.games())}", "REC-1.3")
        game = registry.get(name)
        players = body.get("players", game.default_players)
        if type(players) is not int or not game.seats[0] <= players <= game.seats[1]:
            low, high = game.seats
            raise BadRequest(f"players must be a whole number from {low} to {high}, not {players!r}", "REC-2.1")
        preset = body.get("preset", "default")
        if not isinstance(preset, str) or preset not in game.presets:
            raise BadRequest(f"unknown preset {preset!r}: one of {', '.join(game.presets)}", "REC-2.3")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise BadRequest("options must be an object of rules options by name", "REC-2.3")
        try:
            rules = make_rules(
                name,
                players=players if game.seats[0] != game.seats[1] else None,
                preset=preset,
                **upgrade_options(name, options),
            )
        except (FlyRulesError, TypeError, ValueError) as error:
            raise BadRequest(f"options: {error}", "REC-2.3") from None
        return name, players, rules, dict(options), preset

    @staticmethod
    def _bots(body: Mapping[str, Any], players: int) -> dict[int, str]:
        bots = body.get("bots", {})
        if not isinstance(bots, dict):
            raise BadRequest('bots must be an object: {"SEAT": "BOT NAME"}')
        seats: dict[int, str] = {}
        for key, bot in bots.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < players):
                raise BadRequest(f"bots: {key!r} is not a seat (0 to {players - 1})", "TBL-1.1")
            if bot not in BOTS:
                raise BadRequest(f"bots: unknown bot {bot!r} for seat {key}: one of {', '.join(BOTS)}", "TBL-1.1")
            seats[int(key)] = bot
        return seats

    async def create(self, body: object) -> dict[str, Any]:
        """Make a table from the JSON ``body`` of ``POST /api/tables`` and answer its ID, commitment and tokens.

        Raises:
            BadRequest: the body names an unknown game, bot, option or key, or a bad value; nothing is made.
        """
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object", "TBL-1.1")
        name, players, rules, options, preset = self._rules(body)
        bots = self._bots(body, players)
        turn = body.get("turn_seconds")
        if turn is not None and (type(turn) is not int or not 5 <= turn <= 3600):
            raise BadRequest(f"turn_seconds must be null or a whole number from 5 to 3600, not {turn!r}", "TBL-1.1")
        tokens = [None if seat in bots else secrets.token_urlsafe(24) for seat in range(players)]
        row = TableRow(
            table_id=secrets.token_urlsafe(9),
            game=name,
            players=players,
            options=options,
            preset=preset,
            bots=bots,
            token_digests=tuple(None if t is None else _digest(t) for t in tokens),
            turn_seconds=turn,
        )
        match = _new_match_row(0, None, 0)
        await self.storage.create(row, match)
        self._tables[row.table_id] = Table(row, rules, [match], _begin(rules, name, match))
        return {
            "table": row.table_id,
            "commitment": match.commitment,
            "seats": [{"seat": seat, "token": token} for seat, token in enumerate(tokens)],
        }

    # --- the replay of a table's log [TBL-8.1] -------------------------------------------------------------

    async def table(self, table_id: str) -> Table | None:
        """The table ``table_id`` with every committed entry applied, or None for an unknown ID."""
        table = self._tables.get(table_id)
        if table is None:
            row = await self.storage.table(table_id) if isinstance(table_id, str) and len(table_id) <= 64 else None
            if row is None:
                return None
            game = registry.get(row.game)
            rules = make_rules(
                row.game,
                players=row.players if game.seats[0] != game.seats[1] else None,
                preset=row.preset,
                **upgrade_options(row.game, row.options),
            )
            matches = await self.storage.matches(table_id)
            table = Table(row, rules, matches[:1], _begin(rules, row.game, matches[0]))
            self._tables[table_id] = table
            pending = matches[1:]
        else:
            pending = []
        for entry in await self.storage.entries(table_id, table.seq):
            self._apply(table, entry, pending)
        return table

    def _apply(
        self, table: Table, entry: Entry, pending: list[MatchRow], applied: tuple[Any, Any] | None = None
    ) -> None:
        """Apply one committed entry to the table's replay (once: two readers of the log may both have read it);
        ``applied`` is the entry's action and the state after it when the caller has them already."""
        if entry.seq != table.seq + 1:
            return
        if entry.kind == "rematch":
            match = pending.pop(0) if pending else None
            if match is None:
                raise RuntimeError(f"table {table.row.table_id}: a rematch entry without its match")
            table.matches.append(match)
            table.state = _begin(table.rules, table.row.game, match)
            table.last = None
        else:
            before = table.state
            action, table.state = applied or (parse_action(entry.text, table.row.game), None)
            if table.state is None:
                table.state = before.apply(action)
            table.last = Last(before, table.state, entry.seat if entry.seat is not None else _NOBODY, action)
        table.seq = entry.seq
        table.moved_on()

    def held(self, table_id: str) -> Table | None:
        """The table if this service holds its replay now, else None (nothing is read)."""
        return self._tables.get(table_id)

    def forget(self, table_id: str) -> None:
        """Drop the replay of a table (it is read again from the storage when next asked for)."""
        self._tables.pop(table_id, None)

    async def refresh(self, table: Table) -> None:
        """Apply the entries another process committed since (none in one process)."""
        matches: list[MatchRow] = []
        for entry in await self.storage.entries(table.row.table_id, table.seq):
            if entry.kind == "rematch" and not matches:
                matches = (await self.storage.matches(table.row.table_id))[len(table.matches) :]
            self._apply(table, entry, matches)

    # --- acting [TBL-4] -------------------------------------------------------------------------------------

    async def act(self, table: Table, seat: int | None, seq: object, text: object) -> None:
        """Accept ``text`` as ``seat``'s action on the view ``seq``, or refuse it.

        Raises:
            Refusal: a watcher, a stale ``seq`` [TBL-4.2], an action text that is not one, or one the rules
                refuse (the rule's ID) [TBL-4.4]; nothing changed.
        """
        if seat is None:
            raise Refusal("TBL-4.3", "a watcher cannot act")
        if type(seq) is not int or not 0 <= seq < 2**53:
            raise Refusal("TBL-6.4", f"seq must be a whole number, not {str(seq)[:20]!r}")
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            raise Refusal("TBL-6.4", f"action must be an action text of at most {MAX_ACTION_TEXT} characters")
        if seq != table.seq:  # a view told by another process: the log may be further on than this replay
            await self.refresh(table)
        try:
            action, after = self._check_act(table, seat, seq, text)
        except Refusal:
            await self.refresh(table)  # refused on a replay another process had moved on from: the seq is stale
            if seq != table.seq:
                raise Refusal("TBL-4.2", f"seq {seq} is not the table's: the latest view has seq {table.seq}") from None
            raise
        entry = Entry(seq + 1, "act", seat, action_text(action))
        if not await self.storage.append(table.row.table_id, entry):
            await self.refresh(table)
            raise Refusal("TBL-4.2", f"seq {seq} is not the table's: the latest view has seq {table.seq}")
        self._apply(table, entry, [], (action, after))

    @staticmethod
    def _check_act(table: Table, seat: int, seq: int, text: str) -> tuple[Any, Any]:
        """The action ``text`` parsed and the state it leads to, if ``seat`` may take it on the view ``seq``.

        Raises:
            Refusal: as :meth:`act`; nothing changed.
        """
        if seq != table.seq:
            raise Refusal("TBL-4.2", f"seq {seq} is not the table's: the latest view has seq {table.seq}")
        state = table.state
        try:
            action = parse_action(text, table.row.game)
        except FlyRulesError as error:
            raise Refusal("REC-3.2", str(getattr(error, "detail", error))) from None
        if state.is_over:
            raise Refusal(state.over_rule, "the match is over; no action is accepted")
        if state.to_move != seat:
            raise Refusal("TBL-4.3", f"it is not your turn: seat {state.to_move} is to move")
        try:
            return action, state.apply(action)
        except RuleViolation as error:
            raise Refusal(error.rule, error.detail) from None

    async def rematch(self, table: Table, seat: int | None, seq: object) -> None:
        """Start the table's next match [TBL-4.5].

        Raises:
            Refusal: a watcher, a stale ``seq``, or a match that is not over.
        """
        if seat is None:
            raise Refusal("TBL-4.3", "a watcher cannot ask for a rematch")
        if type(seq) is not int or not 0 <= seq < 2**53:
            raise Refusal("TBL-6.4", f"seq must be a whole number, not {str(seq)[:20]!r}")
        await self.refresh(table)
        if seq != table.seq:
            raise Refusal("TBL-4.2", f"seq {seq} is not the table's: the latest view has seq {table.seq}")
        if not table.over:
            raise Refusal("TBL-4.5", "a rematch starts only once the match is over")
        dealer = (table.state.first_dealer + 1) % table.row.players
        match = _new_match_row(table.match.number + 1, dealer, seq + 1)
        entry = Entry(seq + 1, "rematch", seat, str(match.number))
        if not await self.storage.append(table.row.table_id, entry, match):
            await self.refresh(table)
            raise Refusal("TBL-4.2", f"seq {seq} is not the table's: the latest view has seq {table.seq}")
        self._apply(table, entry, [match])

    # --- what each seat is shown [TBL-3.3] [TBL-5.1] --------------------------------------------------------

    def facts(self, table: Table, connected: Mapping[int, bool], watchers: int) -> dict[str, object]:
        """The table's public facts [TBL-1.3]."""
        facts: dict[str, object] = {
            "table": table.row.table_id,
            "game": table.row.game,
            "players": table.row.players,
            "rules": {"preset": table.row.preset, **table.row.options},
            "commitment": table.match.commitment,
            "seats": self.seats(table, connected),
            "watchers": watchers,
            "seq": table.seq,
            "over": table.over,
            "match": table.match.number,
        }
        return facts | self._reveal(table)

    @staticmethod
    def _reveal(table: Table) -> dict[str, Any]:
        """The seed and nonce, once the match is over [TBL-2.3]; nothing before."""
        return {"seed": str(table.match.seed), "nonce": table.match.nonce} if table.over else {}

    @staticmethod
    def seats(table: Table, connected: Mapping[int, bool]) -> list[dict[str, object]]:
        """Each seat: its bot's name (None for a player) and whether a player is connected."""
        return [
            {"seat": seat, "bot": table.row.bots.get(seat), "connected": bool(connected.get(seat))}
            for seat in range(table.row.players)
        ]

    def _shared(self, table: Table) -> dict[str, Any]:
        """What every connection's view message shares at the table's seq: the public view's JSON form and the
        rest told alike to every seat but the mover."""
        shared = table._shared
        if shared is None:
            state = table.state
            deal = deal_of(state)
            public = public_view(deal.view(0))
            shared = {
                "type": "view",
                "seq": table.seq,
                "table": table.row.table_id,
                "game": table.row.game,
                "players": table.row.players,
                "seat": None,
                "match": table.match.number,
                "to_move": state.to_move,
                "hand": [],
                "legal": [],
                "view": view_data(public) | {"seat": None},
                "records": records_text(deal),
                "over": bool(state.is_over),
                "outcome": outcome_text(state),
                "status": status_line(state, None, public),
                "last": self._last(table, _NOBODY),
                "commitment": table.match.commitment,
                **self._reveal(table),
            }
            table._shared = shared
        return shared

    @staticmethod
    def _last(table: Table, seat: int) -> list[str]:
        """What the latest action did, told to ``seat`` (the cards of another seat's exchange stay hidden)."""
        last = table.last
        if last is None:
            return []
        lines = action_lines(last.before, last.after, last.mover, last.action, seat)
        return [line.strip() for line in lines if line.strip()]

    def view(self, table: Table, seat: int | None, *, picture: bool | str = True) -> dict[str, Any]:
        """The view message of ``seat`` (None: a watcher) at ``table`` as it stands [TBL-3.3] [TBL-3.4],
        without the ``seats`` key (the caller's); ``picture``: with the table's picture (``"narrow"``: laid out for
        a phone), or not.

        Every seat's message is the shared public one with the seat's own fields put in: its private view
        fields (its hand), its legal actions, and the status and latest action as told to it.
        """
        key = (seat, picture)
        told = table._told.get(key)
        if told is not None:
            return told
        shared = self._shared(table)
        state = table.state
        if seat is None:
            told = dict(shared)
            seen = public_view(deal_of(state).view(0))
        else:
            seen = deal_of(state).view(seat)
            mover = state.to_move == seat
            last = table.last
            told = shared | {
                "seat": seat,
                "view": shared["view"] | private_data(seen) | {"seat": seat},
                "legal": [action_text(a) for a in state.legal_actions()] if mover else [],
                "status": status_line(state, seat, seen) if mover else shared["status"],
                "last": self._last(table, seat) if last is not None and last.mover == seat else shared["last"],
            }
            told["hand"] = told["view"]["hand"]
        if picture:
            told["picture"] = str(
                deal_picture(seen, last_trick=True, own_hand=seat is not None, narrow=picture == "narrow")
            )
        table._told[key] = told
        return told

    def view_text(
        self, table: Table, seat: int | None, seats: list[dict[str, object]], *, picture: bool | str = True
    ) -> str:
        """The view message of ``seat`` as the JSON text a connection is sent, with ``seats`` (who is connected):
        :meth:`view` and ``"seats"``, the members shared by every seat encoded once a seq."""
        told = self.view(table, seat, picture=picture)
        view = told["view"]
        own_view = {name: view[name] for name in private_names(view["game"])} | {"seat": seat}
        texts = table._texts
        if not texts:
            shared = self._shared(table)
            texts["view"] = _members({k: v for k, v in shared["view"].items() if k not in own_view})
            texts["common"] = _members({k: v for k, v in shared.items() if k not in _OWN and k != "view"})
        own = {k: told[k] for k in _OWN if k in told} | {"seats": seats}
        return f'{{{_members(own)}, "view": {{{_members(own_view)}, {texts["view"]}}}, {texts["common"]}}}'

    def history(self, table: Table) -> str:
        """The finished match's whole history with its seed [TBL-2.3].

        Raises:
            Refusal: the match is not over (nothing of it is told).
        """
        if not table.over:
            raise Refusal("TBL-2.3", "the history is given once the match is over")
        return dump_history(table.state)


_OWN: Final = ("seat", "hand", "legal", "status", "last", "picture")
"""The members of a view message that differ from seat to seat (``view`` too, in part)."""


def _members(data: dict[str, Any]) -> str:
    """The members of ``data``'s JSON object, without the braces."""
    return json.dumps(data, ensure_ascii=False)[1:-1]
