"""Game histories: a whole match (or one explicit deal) as a versioned TOML text that replays
through the engine [REC-1.1] … [REC-4.3].

A history states how the game began (game, rules version, options, and a seed or an explicit
deal), every action in order, one a line, and the results each deal and the match came to.
:func:`load_history` replays it and refuses it, naming the field, the line and the rule, as soon
as an action is illegal or a stated result disagrees with the replay; :func:`dump_history` writes
the canonical text, so that ``dump_history(load_history(text)) == text`` for canonical text.

Reading, here, uses the standard library's ``tomllib``; writing (:mod:`fly_rules.notation.writing`) needs
the ``tomli-w`` package (the ``cli`` extra), imported only when a history is written.

>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=3), seed=5, dealer=0)
>>> match = match.apply(fly.Stand())
>>> text = dump_history(match)  # doctest: +SKIP
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any, Final

import attrs

from fly_rules import registry
from fly_rules._numbers import MAX_DEPTH, MAX_DIGITS, MAX_HISTORY_CHARS, is_whole_number
from fly_rules.engine import MatchBase
from fly_rules.errors import FlyRulesError, InvalidNotation, RuleViolation, shorten, shown
from fly_rules.notation.games import (
    Deal,
    Match,
    deal_of,
    finished_deal,
    make_rules,
    new_game,
    options_of,
    parse_action,
    rules_version,
    upgrade_options,
)
from fly_rules.notation.writing import (
    FORMAT,
    VERSION,
    _deal_head,
    _deal_results,
    _digest,
    _is_over,
    _match_results,
    _new_deal,
    dump_history,
    history_data,
)

__all__ = ["InvalidHistory", "dump_history", "history_data", "load_history"]


_TOP_KEYS: Final = ("format", "version", "game", "rules_version", "players", "seed", "dealer", "max_deals")
_TABLES: Final = ("options", "start", "deal", "result", "saved")
_SAVED_KEYS: Final = ("actions", "digest")


class InvalidHistory(InvalidNotation):
    """A history that cannot be read or does not replay [REC-4.3].

    Attributes:
        text: the offending value (an action line, a field's value), not the whole history.
        field: where it is, as a path: ``deal[2].actions[5]``, ``result.winner``.
        line: the line of the history it is on, when known (1 for the first line).
        rule: the ID of the rule the history breaks (``REC-…``, or the game's rule an action breaks).
        detail: why it was refused.
    """

    field: str
    line: int | None
    rule: str

    def __init__(self, text: str, field: str, detail: str, *, rule: str, line: int | None = None) -> None:
        where = field if line is None else f"line {line}, {field}"
        FlyRulesError.__init__(self, f"history {where}: {rule}: {shorten(detail)}")
        self.text = text
        self.detail = detail
        self.field = field
        self.line = line
        self.rule = rule

    def __reduce__(self) -> Any:
        return (_rebuild, (self.text, self.field, self.detail, self.rule, self.line))


def _rebuild(text: str, field: str, detail: str, rule: str, line: int | None) -> InvalidHistory:
    return InvalidHistory(text, field, detail, rule=rule, line=line)


# --- reading ---------------------------------------------------------------------------


class _Reader:
    """Replays one history's data, keeping what is needed to name a field's line.

    The text is indexed once, in one pass: the line of the first ``key = …`` of each section (the
    top level, each ``[table]``, each ``[[deal]]``), so that naming a line costs no rescan.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")  # TOML's lines: splitlines() would also split at \x0c, \u2028, …
        self._deal_lines: list[int] = []
        self._keys: dict[tuple[str, int], dict[str, int]] = {}
        section: tuple[str, int] = ("", -1)  # the top level
        keys = self._keys.setdefault(section, {})
        for number, line in enumerate(self.lines):
            if line.startswith("["):
                head = line.strip()
                if head == "[[deal]]":
                    self._deal_lines.append(number)
                    section = ("[[deal]]", len(self._deal_lines) - 1)
                else:
                    section = (head, number)
                keys = self._keys.setdefault(section, {})
            elif "=" in line:
                keys.setdefault(line.split("=", 1)[0].strip(), number + 1)

    def fail(self, value: object, field: str, detail: str, rule: str, line: int | None = None) -> InvalidHistory:
        return InvalidHistory(value if isinstance(value, str) else shown(value), field, detail, rule=rule, line=line)

    def key_line(self, key: str, table: str | None = None, deal: int | None = None) -> int | None:
        """The line of ``key = …`` at the top level, in ``[table]`` or in the ``deal``-th ``[[deal]]``."""
        if deal is not None:
            section = ("[[deal]]", deal)
        elif table is not None:
            heads = [s for s in self._keys if s[0] == f"[{table}]"]
            if not heads:
                return None
            section = min(heads, key=lambda s: s[1])
        else:
            section = ("", -1)
        return self._keys.get(section, {}).get(key)

    def action_line(self, deal: int, index: int, entry: str) -> int | None:
        """The line of the ``index``-th action of the ``deal``-th deal, if the text is laid out one a line."""
        head = self.key_line("actions", deal=deal)
        if head is None:
            return None
        line = head + index  # the array opens on ``head``; its items follow one a line
        if line < len(self.lines) and f'"{entry}"' in self.lines[line]:
            return line + 1
        return None


def _expect(
    reader: _Reader, data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], field: str, rule: str
) -> Any:
    value = data.get(key)
    if value is None:
        raise reader.fail("", field, "is missing", rule)
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise reader.fail(value, field, f"must be {_kind_name(kind)}, not {value!r}", rule)
    if not isinstance(value, kind):
        raise reader.fail(value, field, f"must be {_kind_name(kind)}, not {value!r}", rule)
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "a string", list: "an array", dict: "a table", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _int_list(reader: _Reader, value: object, field: str, rule: str, line: int | None) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise reader.fail(value, field, f"must be an array of whole numbers, not {value!r}", rule, line)
    return value


def _start_args(reader: _Reader, game: str, start: object) -> dict[str, Any]:
    """The keyword arguments of ``new_deal`` that the ``[start]`` table gives [REC-2.4]."""
    if not isinstance(start, dict):
        raise reader.fail(start, "start", "must be a table", "REC-2.4")
    keys = registry.get(game).start_keys
    for key in start:
        if key not in keys:
            raise reader.fail(key, f"start.{key}", f"is not a key of a {game} start", "REC-2.4")
    args: dict[str, Any] = {}
    for key, kind in keys.items():
        line = reader.key_line(key, table="start")
        value = start.get(key)
        if value is None:
            raise reader.fail("", f"start.{key}", "is missing", "REC-2.4", line)
        if kind == "seat":
            if type(value) is not int:
                raise reader.fail(value, f"start.{key}", "must be a whole number", "REC-2.4", line)
        elif kind == "hands":
            if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
                raise reader.fail(value, f"start.{key}", "must be an array of card lists", "REC-2.4", line)
        elif kind == "numbers":
            value = _int_list(reader, value, f"start.{key}", "REC-2.4", line)
        elif not isinstance(value, str):
            raise reader.fail(value, f"start.{key}", "must be a string", "REC-2.4", line)
        elif kind == "suit":
            value = None if value == "NT" else value
        args[key] = value
    return args


def load_history(text: str, *, resumable: bool = False) -> Match | Deal:
    """The match (or explicit deal) that ``text`` records, replayed through the engine [REC-1.1].

    Returns a :class:`~fly_rules.fly.FlyMatch` or :class:`~fly_rules.dreyfus.DreyfusMatch` for a
    history that starts from a seed, a :class:`~fly_rules.fly.FlyDeal` or
    :class:`~fly_rules.dreyfus.DreyfusDeal` for one that starts from an explicit deal. A ``saved``
    table must agree with the rest; with ``resumable`` (a game to be continued) a match in progress
    must have one [REC-4.1].

    Raises:
        InvalidHistory: naming the field, line and rule of the first thing wrong [REC-4.3].
    """
    if not isinstance(text, str):
        raise InvalidHistory(shown(text), "document", "a history must be given as text", rule="REC-1.1")
    if len(text) > MAX_HISTORY_CHARS:
        detail = f"has {len(text)} characters; a history has at most {MAX_HISTORY_CHARS}"
        raise InvalidHistory(text[:40], "document", detail, rule="REC-1.5")
    reader = _Reader(text)
    _check_keys(reader)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        line = int(found.group(1)) if found else None
        raise reader.fail(text[:40], "document", f"not valid TOML: {error}", "REC-1.1", line) from None
    except ValueError:  # tomllib's int() refusing a number of more than 4,300 digits
        raise reader.fail(text[:40], "document", f"a number has more than {MAX_DIGITS} digits", "REC-1.5") from None
    except RecursionError:
        raise reader.fail(text[:40], "document", f"nested more than {MAX_DEPTH} deep", "REC-1.5") from None
    _check_bounds(reader, data)
    for key in data:
        if key not in _TOP_KEYS and key not in _TABLES:
            field = key if key.isidentifier() else repr(key)  # a quoted key, even "", is named as such
            raise reader.fail(key, field, "is not a key of a history", "REC-1.4", reader.key_line(key))
    fmt = data.get("format")
    if fmt != FORMAT:
        raise reader.fail(fmt, "format", f"must be {FORMAT!r}", "REC-1.2", reader.key_line("format"))
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise reader.fail(version, "version", f"this reader knows version {VERSION} only", "REC-1.2", 2)
    game = data.get("game")
    if not isinstance(game, str) or game not in registry.games():
        known = " or ".join(repr(name) for name in registry.games())
        raise reader.fail(game, "game", f"must be {known}", "REC-1.3", reader.key_line("game"))
    if data.get("rules_version") != rules_version(game):
        raise reader.fail(
            data.get("rules_version"),
            "rules_version",
            f"this engine plays {game} rules version {rules_version(game)!r}; the outcome may differ",
            "REC-1.3",
            reader.key_line("rules_version"),
        )
    rules = _read_rules(reader, data, game)
    state = _read_start(reader, data, game, rules)
    state = _replay_deals(reader, data, state)
    _check_result(reader, data, state)
    _check_saved(reader, data, resumable=resumable and isinstance(state, MatchBase) and not _is_over(state))
    return state


def _check_saved(reader: _Reader, data: dict[str, Any], *, resumable: bool) -> None:
    """The ``saved`` table, if any, states the history's count of actions and digest [REC-4.1]."""
    saved = data.get("saved")
    if saved is None:
        if resumable:
            raise reader.fail(
                "",
                "saved",
                "is missing: only a game saved in progress with its count and digest is continued, so that "
                "a cut or edited copy is not (replay still reads this one)",
                "REC-4.1",
            )
        return
    if not isinstance(saved, dict) or sorted(saved) != sorted(_SAVED_KEYS):
        raise reader.fail(saved, "saved", f"must be a table of {' and '.join(_SAVED_KEYS)}", "REC-4.1")
    count = sum(len(deal["actions"]) for deal in data.get("deal", []))
    if saved["actions"] != count:
        line = reader.key_line("actions", "saved")
        detail = f"the history holds {count} actions, it was saved with {shown(saved['actions'])}: cut or edited"
        raise reader.fail(saved["actions"], "saved.actions", detail, "REC-4.1", line)
    rest = {key: value for key, value in data.items() if key != "saved"}
    if saved["digest"] != _digest(rest):
        line = reader.key_line("digest", "saved")
        detail = "the history differs from the one saved (edited after it was saved)"
        raise reader.fail(saved["digest"], "saved.digest", detail, "REC-4.1", line)


def _check_keys(reader: _Reader) -> None:
    """No line with a key of more than ``MAX_DEPTH`` dotted parts [REC-1.5], found before ``tomllib``
    reads the text (it takes time in the square of a key's parts: a 400 kB key, half a minute). Dots in
    quoted strings do not count; a line of fewer dots than that is passed over unscanned."""
    for number, line in enumerate(reader.lines):
        if line.count(".") > MAX_DEPTH and _dots_outside_strings(line) > MAX_DEPTH:
            detail = f"a key has more than {MAX_DEPTH} dotted parts (nested more than {MAX_DEPTH} deep)"
            raise reader.fail(line[:40], "document", detail, "REC-1.5", number + 1)


def _dots_outside_strings(line: str) -> int:
    """The dots of ``line`` outside its quoted strings ('…' and "…", with backslash escapes in the latter)."""
    dots = 0
    quote = ""
    escaped = False
    for char in line:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == ".":
            dots += 1
        elif char == "#":
            break
    return dots


def _check_bounds(reader: _Reader, data: dict[str, Any]) -> None:
    """No array or table nested more than ``MAX_DEPTH`` deep, no number of more than ``MAX_DIGITS``
    digits [REC-1.5]; walked without recursion, so that no depth can overflow the stack."""
    limit = 10**MAX_DIGITS
    pending: list[tuple[object, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise reader.fail("", "document", f"nested more than {MAX_DEPTH} deep", "REC-1.5")
        if isinstance(value, dict):
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)
        elif type(value) is int and not -limit < value < limit:
            raise reader.fail("", "document", f"a number has more than {MAX_DIGITS} digits", "REC-1.5")


def _cause(error: Exception, rule: str) -> tuple[str, str]:
    """The rule an engine error names (``rule`` if none) and what it says without that rule's ID."""
    if isinstance(error, RuleViolation):
        return error.rule, error.detail
    return rule, str(error)


def _read_rules(reader: _Reader, data: Mapping[str, Any], game: str) -> Any:
    """The rules: players and the options [REC-2.1] [REC-2.3]."""
    players = _expect(reader, data, "players", int, "players", "REC-2.1")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise reader.fail(options, "options", "must be a table", "REC-2.3")
    options = upgrade_options(game, options)
    try:
        rules = make_rules(game, players=players, **options)
    except (FlyRulesError, TypeError, ValueError) as error:
        name = getattr(error, "option", "")
        field = f"options.{name}" if name in options else "options" if name != "players" else "players"
        line = reader.key_line(name, table="options") if name in options else reader.key_line("players")
        raise reader.fail(options.get(name, players), field, str(error), "REC-2.3", line) from None
    if options_of(rules) != options:
        raise reader.fail(
            repr(options),
            "options",
            f"must list exactly the options that differ from the defaults, as plain values: {options_of(rules)!r}",
            "REC-2.3",
            reader.key_line("options") or None,
        )
    return rules


def _read_start(reader: _Reader, data: Mapping[str, Any], game: str, rules: Any) -> Match | Deal:
    """The starting state: from the seed, or the explicit deal [REC-2.2] [REC-2.4]."""
    if "start" in data:
        for key in ("seed", "dealer", "max_deals"):
            if key in data:
                raise reader.fail(key, key, "an explicit start has no seed, dealer or max_deals", "REC-2.2")
        args = _start_args(reader, game, data["start"])
        try:
            return _new_deal(rules, args)
        except (FlyRulesError, TypeError, ValueError) as error:
            rule, detail = _cause(error, "REC-2.4")
            raise reader.fail(repr(args), "start", detail, rule, reader.key_line("start")) from None
    seed = _expect(reader, data, "seed", (int, str), "seed", "REC-2.2")
    dealer = _expect(reader, data, "dealer", int, "dealer", "REC-2.2")
    if "max_deals" in data:
        # REC-2.2: the deal limit as Fly histories stated it before it became an option
        max_deals = data["max_deals"]
        line = reader.key_line("max_deals")
        if type(max_deals) is not int or max_deals < 1:
            raise reader.fail(max_deals, "max_deals", "must be a whole number >= 1", "REC-2.2", line)
        if rules.max_deals is not None:
            raise reader.fail(max_deals, "max_deals", "is also among the options; state it once", "REC-2.2", line)
        rules = attrs.evolve(rules, max_deals=max_deals)
    try:
        state: Match | Deal = new_game(rules, seed=seed, dealer=dealer)
        return state
    except (FlyRulesError, TypeError, ValueError) as error:  # only the dealer is left unchecked here
        rule, detail = _cause(error, "REC-2.2")
        raise reader.fail(dealer, "dealer", detail, rule, reader.key_line("dealer")) from None


def _replay_deals(reader: _Reader, data: Mapping[str, Any], state: Match | Deal) -> Match | Deal:
    """Apply every deal's actions, checking each deal's stated facts and results [REC-3.1] … [REC-3.4]."""
    deals = data.get("deal", [])
    if not isinstance(deals, list):
        raise reader.fail(deals, "deal", "must be an array of tables", "REC-3.1")
    for number, table in enumerate(deals):
        field = f"deal[{number}]"
        if not isinstance(table, dict):
            raise reader.fail(table, field, "must be a table", "REC-3.1")
        if deal_of(state).is_over or deal_of(state).deal_number != number:
            raise reader.fail(
                "", field, "no such deal: the game ended before it", "REC-3.1", _deal_line(reader, number)
            )
        state = _replay_deal(reader, table, number, state)
    return state


def _deal_line(reader: _Reader, number: int) -> int | None:
    lines = reader._deal_lines
    return lines[number] + 1 if number < len(lines) else None


def _replay_deal(reader: _Reader, table: Mapping[str, Any], number: int, state: Match | Deal) -> Match | Deal:
    field = f"deal[{number}]"
    deal = deal_of(state)
    head = _deal_head(deal)
    results_keys = tuple(_deal_results(deal))
    for key in table:
        if key not in head and key != "actions" and key not in results_keys:
            raise reader.fail(
                key, f"{field}.{key}", "is not a key of a deal", "REC-3.1", reader.key_line(key, deal=number)
            )
    for key, value in head.items():
        if table.get(key) != value:
            line = reader.key_line(key, deal=number)
            raise reader.fail(table.get(key), f"{field}.{key}", f"the replay has {value!r}", "REC-3.1", line)
    if "actions" not in table:  # a deal is written once it has an action [REC-3.1]
        raise reader.fail("", f"{field}.actions", "is missing", "REC-3.3", _deal_line(reader, number))
    entries = table["actions"]
    if not isinstance(entries, list):
        raise reader.fail(entries, f"{field}.actions", "must be an array of strings", "REC-3.3")
    done: Deal | None = None
    for index, entry in enumerate(entries):
        where = f"{field}.actions[{index}]"
        if not isinstance(entry, str):
            raise reader.fail(entry, where, "must be a string 'SEAT: ACTION'", "REC-3.3")
        line = reader.action_line(number, index, entry)
        if done is not None:
            raise reader.fail(entry, where, "the deal is already over", "REC-3.3", line)
        seat_text, colon, action_part = entry.partition(":")
        if not colon or not is_whole_number(seat_text.strip(), signed=False):
            raise reader.fail(entry, where, "must be 'SEAT: ACTION'", "REC-3.3", line)
        if int(seat_text) != state.to_move:
            raise reader.fail(
                entry, where, f"seat {state.to_move} is to move, not seat {int(seat_text)}", "REC-3.3", line
            )
        try:
            action = parse_action(action_part, deal.game)
            before = state
            state = state.apply(action)
        except RuleViolation as error:
            raise reader.fail(entry, where, error.detail, error.rule, line) from None
        except InvalidNotation as error:
            raise reader.fail(entry, where, error.detail, "REC-3.2", line) from None
        done = finished_deal(before, state)
    if done is None:
        for key in results_keys:
            if key in table:
                line = reader.key_line(key, deal=number)
                raise reader.fail(key, f"{field}.{key}", "the deal is not over: it has no results yet", "REC-3.4", line)
        return state
    for key, value in _deal_results(done).items():
        if table.get(key) != value:
            line = reader.key_line(key, deal=number)
            raise reader.fail(table.get(key), f"{field}.{key}", f"the replay gives {value!r}", "REC-3.4", line)
    return state


def _check_result(reader: _Reader, data: Mapping[str, Any], state: Match | Deal) -> None:
    """The stated result agrees with the replay, and is there exactly when the game is over [REC-4.1]."""
    result = data.get("result")
    if not _is_over(state):
        if result is not None:
            raise reader.fail("result", "result", "the game is not over: it has no result yet", "REC-4.1")
        return
    if not isinstance(result, dict):
        raise reader.fail("", "result", "the game is over: its result must be stated", "REC-4.1")
    expected = _match_results(state)
    for key in result:
        if key not in expected:
            raise reader.fail(
                key, f"result.{key}", "is not in this game's result", "REC-4.1", reader.key_line(key, "result")
            )
    for key, value in expected.items():
        if result.get(key) != value:
            line = reader.key_line(key, "result")
            raise reader.fail(result.get(key), f"result.{key}", f"the replay gives {value!r}", "REC-4.1", line)
