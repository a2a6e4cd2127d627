"""Perft against an engine: each published depth of a position in turn, stopping at the first that differs,
which ``divide`` traces down to the position whose legal actions differ.

An engine counts with its own ``perft`` (within a node budget: twice what the published count needs), or,
without one, the runner counts the shallow depths through its ``legal`` and ``apply`` answers
(:func:`walk_perft`). The trace asks the engine's ``divide`` (or emulates it through ``perft``, or
``legal`` and ``apply``) and compares it with this engine's, first action by first action, following the
first whose count differs: the last line names the position (the moves after the published ones) and the
actions missing or extra there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from fly_rules.conformance.answers import ProtocolError, answer
from fly_rules.conformance.capabilities import Capabilities
from fly_rules.conformance.perft import COUNTS, visits
from fly_rules.conformance.wire import echo, words
from fly_rules.errors import InvalidNotation
from fly_rules.notation.games import action_text, parse_action

__all__ = ["PerftCheck", "count_difference", "walk_perft"]

Ask = Callable[..., dict[str, Any]]
"""The engine: ``ask(request, timeout=None)`` gives its answer (and raises ``EngineFault``)."""


def walk_perft(
    ask: Callable[[dict[str, Any]], dict[str, Any]], base: Mapping[str, Any], depth: int, budget: int | None = None
) -> dict[str, Any]:
    """The perft counts of a position got from ``legal`` and ``apply`` answers alone (or an ``error``), asking
    about at most ``budget`` positions."""
    counts = dict.fromkeys(COUNTS, 0)
    asked = 0

    def walk(moves: list[str], left: int) -> str | None:
        nonlocal asked
        legal = ask({"cmd": "legal", **base, "moves": moves})
        if not isinstance(legal.get("legal"), list):
            return f"legal after {echo(moves, 80)}: {echo(legal)}"
        for text in legal["legal"]:
            asked += 1
            if budget is not None and asked > budget:
                return f"more than {budget:,} positions, the most the published count needs"
            state = ask({"cmd": "apply", **base, "moves": [*moves, text]}).get("state")
            if not isinstance(state, dict):
                return f"apply {echo([*moves, text], 80)}: no state"
            over = state.get("phase") == "over"
            if left > 1:
                problem = None if over else walk([*moves, text], left - 1)
                if problem:
                    return problem
                continue
            counts["nodes"] += 1
            counts["plays" if str(text).startswith("play ") else "declarations"] += 1
            counts["deal_ends"] += over
        return None

    problem = walk(list(base.get("moves", [])), depth)
    return {"error": problem} if problem else counts


def count_difference(expected: Mapping[str, int], got: object) -> str:
    """Two counts' difference, field by field: ``nodes expected 13, got 12; plays expected 13, got 12`` (or the
    whole answer when it is not a count).

    >>> count_difference({"nodes": 5, "plays": 5, "declarations": 0, "deal_ends": 0}, {"nodes": 5, "plays": 4,
    ...                  "declarations": 1, "deal_ends": 0})
    'plays expected 5, got 4; declarations expected 0, got 1'
    """
    if not isinstance(got, Mapping) or set(got) != set(COUNTS):
        return f"expected {echo(dict(expected))}, got {echo(got)}"
    parts = [
        f"{key} expected {expected[key]:,}, got {echo(got[key], 30)}" for key in COUNTS if got[key] != expected[key]
    ]
    return "; ".join(parts) or "the same counts"


class PerftCheck:
    """Checks an engine's perft counts, position by position.

    ``ask`` is the engine, ``capabilities`` what its hello declares (updated when a protocol 1 engine turns out
    to have no ``perft``); depths of more than ``perft_nodes`` sequences are not checked, nor, without a
    ``perft`` command, those of more than ``walk_nodes``.
    """

    def __init__(
        self, ask: Ask, capabilities: Capabilities, *, perft_nodes: int, walk_nodes: int, perft_timeout: float
    ) -> None:
        self.ask = ask
        self.capabilities = capabilities
        self.perft_nodes = perft_nodes
        self.walk_nodes = walk_nodes
        self.perft_timeout = perft_timeout

    def check(self, entry: Mapping[str, Any]) -> tuple[str, str, tuple[str, ...]]:
        """The status (``passed``, ``failed``, ``skipped``), the one-line reason and the details of one
        position: each depth in turn, stopping at the first that differs (traced down with divide).

        Raises:
            EngineFault: the engine failed a request.
        """
        base = {key: entry[key] for key in ("game", "rules", "position", "moves")}
        rows = {row["depth"]: row["nodes"] for row in entry["depths"]}
        checked: list[int] = []
        for row in entry["depths"]:
            depth = row["depth"]
            if row["nodes"] > self.perft_nodes:
                continue
            expected = {key: row[key] for key in COUNTS}
            got = self._count(base, depth, 2 * visits(rows, depth) + 64, row["nodes"])
            if got is None:
                continue
            if got == expected:
                checked.append(depth)
                continue
            lines = [f"depth {depth}: {count_difference(expected, got)}"]
            if "error" not in got:
                lines += self._trace(base, depth)
            passed = f" (depths {checked[0]}-{checked[-1]} agree)" if checked else ""
            return "failed", f"depth {depth}{passed}: {lines[-1]}", tuple(lines)
        if not checked:
            return "skipped", "no depth within --perft-nodes (and --walk-nodes without perft)", ()
        return "passed", f"depths {checked[0]}-{checked[-1]}", ()

    def _count(self, base: dict[str, Any], depth: int, budget: int, nodes: int) -> dict[str, Any] | None:
        """The engine's counts at ``depth`` (None when it cannot be asked for them)."""
        assert self.capabilities is not None
        if "perft" in self.capabilities.commands:
            request = {"cmd": "perft", **base, "depth": depth, "max_nodes": budget}
            got = self.ask(request, self.perft_timeout)
            if isinstance(got.get("perft"), dict):
                return dict(got["perft"])
            if self.capabilities.protocol > 1:
                return {"error": words(got.get("error", got))}
            # protocol 1 has no capabilities: an engine without perft answers an error; walk from now on
            self.capabilities = attrs.evolve(self.capabilities, commands=self.capabilities.commands - {"perft"})
        if nodes > self.walk_nodes or "play" not in self.capabilities.kinds:
            return None
        return walk_perft(self.ask, base, depth, budget)

    def _trace(self, base: dict[str, Any], depth: int) -> list[str]:
        """Follow the first first action whose count differs, down to the position whose actions differ."""
        moves = list(base["moves"])
        lines = []
        for level in range(depth, 0, -1):
            extra_moves = moves[len(base["moves"]) :]
            where = f" after {', '.join(extra_moves)}" if extra_moves else ""
            try:
                mine = answer({"cmd": "divide", **base, "moves": moves, "depth": level})["divide"]
            except ProtocolError as error:
                lines.append(f"divide {level}{where}: {error}")
                break
            theirs = self._divide(base, moves, level)
            if isinstance(theirs, str):
                lines.append(f"divide {level}{where}: {theirs}")
                break
            missing = [text for text in mine if text not in theirs]
            extra = [text for text in theirs if text not in mine]
            if missing or extra:
                parts = [
                    f"missing {echo(missing, 200)}" if missing else "",
                    f"extra {echo(extra, 200)}" if extra else "",
                ]
                lines.append(f"divide {level}{where}: the legal actions differ: {'; '.join(p for p in parts if p)}")
                break
            differing = [text for text in mine if theirs[text] != mine[text]]
            if not differing:
                lines.append(f"divide {level}{where}: every first action's count agrees")
                break
            text = differing[0]
            lines.append(f"divide {level}{where}: {text}: {count_difference(mine[text], theirs[text])}")
            moves.append(text)
        return lines

    def _divide(self, base: dict[str, Any], moves: list[str], depth: int) -> dict[str, Any] | str:
        """The engine's counts by first action (its own divide, else through perft or legal and apply), their
        actions in canonical text; or what went wrong."""
        assert self.capabilities is not None
        if "divide" in self.capabilities.commands:
            got = self.ask({"cmd": "divide", **base, "moves": moves, "depth": depth}, self.perft_timeout)
            split = got.get("divide")
            if not isinstance(split, dict):
                return f"the engine answered {echo(got)}"
        else:
            legal = self.ask({"cmd": "legal", **base, "moves": moves}).get("legal")
            if not isinstance(legal, list):
                return "the engine lists no legal actions"
            split = {}
            for text in legal:
                after = {**base, "moves": [*moves, str(text)]}
                if depth == 1:
                    state = self.ask({"cmd": "apply", **after}).get("state", {})
                    play = str(text).startswith("play ")
                    over = int(isinstance(state, dict) and state.get("phase") == "over")
                    split[text] = {"nodes": 1, "plays": int(play), "declarations": int(not play), "deal_ends": over}
                elif "perft" in self.capabilities.commands:
                    got = self.ask({"cmd": "perft", **after, "depth": depth - 1}, self.perft_timeout)
                    split[text] = got.get("perft", got)
                else:
                    split[text] = walk_perft(self.ask, after, depth - 1)
        canonical: dict[str, Any] = {}
        for text, counts in split.items():
            try:
                canonical[action_text(parse_action(str(text)))] = counts
            except InvalidNotation as error:
                return f"not an action: {error}"
        return canonical
