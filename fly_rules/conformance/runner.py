"""``fly-rules conform --engine COMMAND``: the kit's vectors and perft counts against any program that speaks
the line protocol of ``specs/conformance/README.md`` on its standard input and output.

Each failing case prints three or more lines: ``FAIL`` and its id, its rules, then one line per field
that differs. A perft depth the engine cannot count itself (no ``perft`` command) is counted by walking
its ``legal`` and ``apply`` answers, for depths of at most ``walk_nodes`` sequences.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import subprocess
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from fly_rules.conformance.vectors import KINDS, differences, load_cases, load_perft, outcome
from fly_rules.errors import FlyRulesError

__all__ = ["Engine", "EngineError", "conform", "walk_perft"]


class EngineError(FlyRulesError):
    """The engine under test could not be started, stopped, or answered a line that is not a JSON object."""


class Engine:
    """A program under test, started from a command line, asked one JSON line at a time."""

    def __init__(self, command: str) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise EngineError(f"cannot read the engine command {command!r}: {error}") from None
        if not argv:
            raise EngineError("give the engine's command, such as --engine 'fly-rules engine'")
        try:
            self._process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
            )
        except OSError as error:
            raise EngineError(f"cannot start the engine {command!r}: {error}") from None
        self.command = command

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read its answer.

        Raises:
            EngineError: if the engine has stopped or answers with something that is not a JSON object.
        """
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None
        assert stdout is not None
        try:
            stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"the engine {self.command!r} stopped (exit code {self._process.poll()})") from None
        line = stdout.readline()
        if not line:
            raise EngineError(f"the engine {self.command!r} stopped (exit code {self._process.wait()})")
        try:
            got = json.loads(line)
        except json.JSONDecodeError:
            raise EngineError(f"the engine answered a line that is not JSON: {line.strip()[:200]!r}") from None
        if not isinstance(got, dict):
            raise EngineError(f"the engine answered {got!r}, not a JSON object")
        return got

    def close(self) -> None:
        """Ask the engine to quit and wait for it (killing it after five seconds)."""
        process = self._process
        stdin = process.stdin
        assert stdin is not None
        try:
            stdin.write('{"cmd": "quit"}\n')
            stdin.flush()
        except OSError:  # the engine has already stopped
            pass
        with contextlib.suppress(OSError):
            stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def walk_perft(ask: Callable[[dict[str, Any]], dict[str, Any]], base: dict[str, Any], depth: int) -> dict[str, Any]:
    """The perft counts of a position got from ``legal`` and ``apply`` answers alone (or an ``error``)."""
    counts = {"nodes": 0, "plays": 0, "declarations": 0, "deal_ends": 0}

    def walk(moves: list[str], left: int) -> str | None:
        legal = ask({"cmd": "legal", **base, "moves": moves})
        if not isinstance(legal.get("legal"), list):
            return f"legal after {moves}: {legal}"
        for text in legal["legal"]:
            state = ask({"cmd": "apply", **base, "moves": [*moves, text]}).get("state")
            if not isinstance(state, dict):
                return f"apply {[*moves, text]}: no state"
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


def _perft(engine: Engine, entry: dict[str, Any], depth: int, walk_nodes: int, expected: int) -> dict[str, Any]:
    base = {k: entry[k] for k in ("game", "rules", "position", "moves")}
    got = engine.ask({"cmd": "perft", **base, "depth": depth})
    if isinstance(got.get("perft"), dict):
        return dict(got["perft"])
    if expected > walk_nodes:
        return {"skipped": f"no perft command, and {expected:,} sequences is more than --walk-nodes {walk_nodes:,}"}
    return walk_perft(engine.ask, {**base, "moves": list(entry["moves"])}, depth)


def conform(
    command: str,
    out: TextIO,
    *,
    kinds: Sequence[str] = KINDS,
    perft_nodes: int = 100_000,
    walk_nodes: int = 2_000,
) -> int:
    """Run the vectors of ``kinds`` and the perft depths of at most ``perft_nodes`` sequences against the
    engine started by ``command``; print each failure and a summary; 0 when everything agrees, else 1.

    Raises:
        EngineError: if the engine cannot be started or stops answering.
    """
    engine = Engine(command)
    try:
        hello = engine.ask({"cmd": "hello"})
        print(f"engine: {hello.get('engine', '?')} (protocol {hello.get('protocol', '?')})", file=out)
        passed = failed = 0
        for case in load_cases():
            if case["kind"] not in kinds:
                continue
            lines = differences(case["expected"], outcome(case, engine.ask))
            if not lines:
                passed += 1
                continue
            failed += 1
            print(f"FAIL {case['id']}", file=out)
            print(f"  rules: {json.dumps(case['rules'], ensure_ascii=False)}", file=out)
            for line in lines:
                print(f"  {line}", file=out)
        print(f"vectors: {passed} passed, {failed} failed", file=out)
        depths_ok = depths_failed = skipped = 0
        for entry in load_perft():
            for row in entry["depths"]:
                if row["nodes"] > perft_nodes:
                    continue
                expected = {k: v for k, v in row.items() if k != "depth"}
                got = _perft(engine, entry, row["depth"], walk_nodes, row["nodes"])
                if "skipped" in got:
                    skipped += 1
                    continue
                if got == expected:
                    depths_ok += 1
                    continue
                depths_failed += 1
                print(f"FAIL perft {entry['id']} depth {row['depth']}", file=out)
                print(f"  rules: {json.dumps(entry['rules'], ensure_ascii=False)}", file=out)
                print(f"  expected {json.dumps(expected)}, got {json.dumps(got)}", file=out)
        note = f", {skipped} skipped (no perft command; see --walk-nodes)" if skipped else ""
        print(f"perft: {depths_ok} depths passed, {depths_failed} failed{note}", file=out)
    finally:
        engine.close()
    return 0 if failed == 0 and depths_failed == 0 else 1
