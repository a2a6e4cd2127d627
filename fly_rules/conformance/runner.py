"""``fly-rules conform --engine COMMAND``: the kit's vectors and perft counts against any program that speaks
the line protocol of ``specs/conformance/README.md`` on its standard input and output.

The run never hangs and never crashes on what an engine does (:mod:`.process`): every answer has a
timeout and a size limit, and a fault is a one-line reason under the case it broke. An engine that
stops is started again for the cases left; one that fails :attr:`Settings.max_faults` cases in a row is
given up, the cases left reported as not run. The engine's ``hello`` says what it implements
(:class:`Capabilities`): the rest is skipped, never failed. A perft depth that differs is traced down
by ``divide`` to the position where the engine's legal actions differ, and the position stops there.

Each result is one :class:`Result`; :class:`KitRun` holds them all and gives the exit code: 0 when
everything run agrees, 1 when something differs, 3 when the engine failed (a fault, or cases not run).
:mod:`.report` writes them as text, JSON or JUnit XML.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TextIO

import attrs

from fly_rules.conformance import report
from fly_rules.conformance.answers import GAMES, KINDS
from fly_rules.conformance.capabilities import Capabilities
from fly_rules.conformance.depths import PerftCheck
from fly_rules.conformance.process import ANSWER_BYTES, Engine, EngineError, EngineFault
from fly_rules.conformance.vectors import differences, load_cases, load_perft, outcome
from fly_rules.conformance.wire import echo

__all__ = [
    "EXIT_CONFORMANT",
    "EXIT_ENGINE",
    "EXIT_NONCONFORMANT",
    "EXIT_USAGE",
    "STATUSES",
    "KitRun",
    "Result",
    "Settings",
    "conform",
    "context_of",
]

EXIT_CONFORMANT: Final = 0
"""The exit code when every case and perft depth run agrees."""
EXIT_NONCONFORMANT: Final = 1
"""The exit code when a case or a depth differs (and the engine never failed)."""
EXIT_USAGE: Final = 2
"""The exit code of a command line the runner cannot use."""
EXIT_ENGINE: Final = 3
"""The exit code when the engine or the run failed: it could not start, a fault, cases not run."""

STATUSES: Final = ("passed", "failed", "fault", "known", "fixed", "skipped", "not run")
"""What became of a case or a perft position: it agreed; it differed; the engine failed it (no answer in
time, a line too long, not a JSON object, the engine gone); it differed as the known-failures list says;
it agreed though listed there; it was skipped (not selected, or not implemented); it was never run."""

_GIVE_UP: Final = 100
"""The most times one run starts the engine again."""


@attrs.frozen
class Settings:
    """What a run checks and how patiently."""

    kinds: tuple[str, ...] = KINDS
    """The kinds of case to run."""
    games: tuple[str, ...] = GAMES
    """The games to run."""
    ids: str | None = None
    """A regular expression a case's (or perft position's) id must contain a match of."""
    rules: tuple[str, ...] = ()
    """Rule IDs or sections (``FLY-7``): only the cases and positions covering one of them run."""
    perft_nodes: int = 100_000
    """Check the perft depths of at most this many sequences (0: no perft)."""
    walk_nodes: int = 2_000
    """Without a ``perft`` command, count the depths of at most this many sequences through ``legal`` and
    ``apply``."""
    timeout: float = 10.0
    """Seconds an answer may take."""
    perft_timeout: float = 120.0
    """Seconds a ``perft`` or ``divide`` answer may take."""
    max_answer_bytes: int = ANSWER_BYTES
    """The longest answer line read."""
    known_failures: frozenset[str] = frozenset()
    """The ids of cases (and ``perft:ID`` of positions) expected to fail."""
    max_faults: int = 3
    """Give the engine up after this many cases in a row that it failed."""


@attrs.frozen
class Result:
    """What became of one case or perft position."""

    id: str
    """The case's id, or ``perft:`` and the position's id."""
    group: str
    """``vectors`` or ``perft``."""
    game: str
    """Its game."""
    kind: str
    """The kind of case, or ``perft``."""
    status: str
    """One of :data:`STATUSES`."""
    reason: str = ""
    """One line: why it failed, faulted or was skipped; what passed of a perft position."""
    details: tuple[str, ...] = ()
    """The differences, one line each (expected against got)."""
    context: tuple[tuple[str, str], ...] = ()
    """What the case asks, to reproduce it: its why, options, position, moves, ..."""
    covers: tuple[str, ...] = ()
    """The rule IDs it checks."""
    seconds: float = 0.0
    """How long it took."""


@attrs.define
class KitRun:
    """A whole run: the engine's hello, every result in order, and the problems of the run itself."""

    hello: dict[str, Any] | None = None
    """The engine's first ``hello`` answer (None if it gave none)."""
    results: list[Result] = attrs.Factory(list)
    """Every case, then every perft position."""
    problems: list[str] = attrs.Factory(list)
    """One line each: the engine's hello refused, the engine given up, ``quit`` ignored."""
    restarts: int = 0
    """How many times the engine was started again."""
    unselected: int = 0
    """How many cases and perft positions the id and rule filters left out."""

    @property
    def exit_code(self) -> int:
        """3 for an engine or run failure, else 1 if anything differed, else 0."""
        statuses = {result.status for result in self.results}
        if self.problems or statuses & {"fault", "not run"}:
            return EXIT_ENGINE
        return EXIT_NONCONFORMANT if "failed" in statuses else EXIT_CONFORMANT


_CONTEXT_FIELDS: Final = ("position", "moves", "pack", "dealer", "deal_number", "seed", "upper", "lower", "winner")
_CONTEXT_FIELDS_MORE: Final = ("bought", "recorded_before_lead", "text")


def context_of(case: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """What a failure shows of a case so that it can be reproduced: why, options (its rules), then its input."""
    lines = [("why", str(case["why"]))] if "why" in case else []
    lines.append(("options", echo(case.get("rules", {}), 400)))
    for name in (*_CONTEXT_FIELDS, *_CONTEXT_FIELDS_MORE):
        if name not in case:
            continue
        value = case[name]
        if name == "moves":
            lines.append((name, ", ".join(map(str, value)) or "none"))
        elif name in ("position", "pack", "text"):
            lines.append((name, str(value)))
        else:
            lines.append((name, echo(value)))
    return tuple(lines)


def _covering(settings: Settings, covers: Iterable[str]) -> bool:
    wanted = settings.rules
    return not wanted or any(c == w or c.startswith(f"{w}.") for c in covers for w in wanted)


class _Session:
    """The engine across a run: started again after a fatal fault, given up after too many in a row."""

    def __init__(self, command: str, settings: Settings, run: KitRun, stderr: Any) -> None:
        self.command = command
        self.settings = settings
        self.run = run
        self.stderr = stderr
        self.engine: Engine | None = None
        self.in_a_row = 0

    def start(self) -> dict[str, Any]:
        """Start the engine and read its hello.

        Raises:
            EngineError: the command cannot be started.
            EngineFault: no hello, or one that is not a JSON object.
        """
        settings = self.settings
        self.engine = Engine(
            self.command, timeout=settings.timeout, max_bytes=settings.max_answer_bytes, stderr=self.stderr
        )
        return self.engine.ask({"cmd": "hello"})

    def ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """One answer of the engine (started again first if the last fault stopped it).

        Raises:
            EngineFault: the engine failed this request (or could not be started again).
        """
        if self.engine is None or not self.engine.alive:
            if self.run.restarts >= _GIVE_UP:
                raise EngineFault(f"the engine was started {_GIVE_UP} times: given up", fatal=True)
            self.run.restarts += 1
            try:
                self.start()
            except EngineError as error:
                raise EngineFault(str(error), fatal=True) from None
        assert self.engine is not None
        return self.engine.ask(request, timeout)

    @property
    def given_up(self) -> bool:
        """Whether the engine failed too many cases in a row to go on."""
        return self.in_a_row >= self.settings.max_faults

    def close(self) -> None:
        if self.engine is not None:
            problem = self.engine.close(grace=min(self.settings.timeout, 5.0))
            if problem:
                self.run.problems.append(problem)


class _Progress:
    """A line on standard error: ``[12/143] vectors fly-follow-suit``, redrawn on a terminal, else every 25."""

    def __init__(self, stream: Any, total: int) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
        self.tty = stream is not None and getattr(stream, "isatty", lambda: False)()

    def step(self, label: str) -> None:
        self.done += 1
        if self.stream is None:
            return
        line = f"[{self.done}/{self.total}] {label}"
        if self.tty:
            self.stream.write(f"\r\x1b[K{line[:78]}")
        elif self.done % 25 == 0 or self.done == self.total:
            self.stream.write(line + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.stream is not None and self.tty and self.done:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class _Kit:
    """One run of the kit against one engine."""

    def __init__(
        self, command: str, settings: Settings, show: Callable[[Result], None], stderr: Any, progress: Any
    ) -> None:
        self.settings = settings
        self.show = show
        self.run = KitRun()
        self.session = _Session(command, settings, self.run, stderr)
        self.progress_stream = progress
        self.capabilities: Capabilities | None = None

    def go(self) -> KitRun:
        cases, positions = self._selected()
        try:
            hello = self.session.start()
        except (EngineError, EngineFault) as error:
            self.run.problems.append(f"the engine gave no hello: {error}")
            self._not_run(cases, positions, "not run: the engine gave no hello")
            self.session.close()
            return self.run
        self.run.hello = hello
        try:
            self.capabilities = Capabilities.of(hello)
        except ValueError as error:
            self.run.problems.append(f"the engine's hello: {error}")
            self._not_run(cases, positions, "not run: the engine's hello is refused")
            self.session.close()
            return self.run
        progress = _Progress(self.progress_stream, len(cases) + len(positions))
        try:
            for case, skipped in cases:
                progress.step(f"vectors {case['id']}")
                self._record(_result(case, "skipped", skipped) if skipped else self._case(case))
            for entry, skipped in positions:
                progress.step(f"perft {entry['id']}")
                self._record(_perft_result(entry, "skipped", skipped) if skipped else self._perft(entry))
        finally:
            progress.end()
            self.session.close()
        return self.run

    def _selected(self) -> tuple[list[tuple[dict[str, Any], str | None]], list[tuple[dict[str, Any], str | None]]]:
        """The cases and perft positions to consider, each with the reason it is skipped (None: run it); those
        the id and rule filters leave out are only counted."""
        settings = self.settings
        pattern = re.compile(settings.ids) if settings.ids else None

        def chosen(name: str, covers: Iterable[str]) -> bool:
            if (pattern is None or pattern.search(name)) and _covering(settings, covers):
                return True
            self.run.unselected += 1
            return False

        def skip(game: str, kind: str) -> str | None:
            if kind != "perft" and kind not in settings.kinds:
                return f"kind {kind}: not selected (--kinds)"
            return None if game in settings.games else f"game {game}: not selected (--game)"

        cases = [(c, skip(c["game"], c["kind"])) for c in load_cases() if chosen(c["id"], c["covers"])]
        positions = []
        if settings.perft_nodes > 0:
            positions = [
                (e, skip(e["game"], "perft")) for e in load_perft() if chosen(f"perft:{e['id']}", e.get("covers", ()))
            ]
        return cases, positions

    def _not_run(self, cases: list[Any], positions: list[Any], reason: str) -> None:
        for case, skipped in cases:
            self.run.results.append(_result(case, "skipped", skipped) if skipped else _result(case, "not run", reason))
        for entry, skipped in positions:
            self.run.results.append(
                _perft_result(entry, "skipped", skipped) if skipped else _perft_result(entry, "not run", reason)
            )

    def _record(self, result: Result) -> None:
        known = result.id in self.settings.known_failures
        if result.status == "failed" and known:
            result = attrs.evolve(result, status="known")
        elif result.status == "passed" and known:
            result = attrs.evolve(result, status="fixed", reason="passes, but is listed as a known failure")
        if result.status == "fault":
            self.session.in_a_row += 1
        elif result.status in ("passed", "failed", "known", "fixed"):
            self.session.in_a_row = 0
        self.run.results.append(result)
        self.show(result)

    def _give_up_reason(self) -> str | None:
        if not self.session.given_up:
            return None
        return f"not run: the engine failed {self.settings.max_faults} cases in a row"

    def _case(self, case: dict[str, Any]) -> Result:
        stopped = self._give_up_reason()
        if stopped:
            return _result(case, "not run", stopped)
        assert self.capabilities is not None
        missing = self.capabilities.missing(case["game"], case["kind"], case["rules"])
        if missing:
            return _result(case, "skipped", missing)
        started = time.perf_counter()
        try:
            got = outcome(case, self.session.ask)
        except EngineFault as fault:
            again = fault.fatal and self.run.restarts < _GIVE_UP
            note = " (the engine is started again for the next case)" if again else ""
            return _result(case, "fault", fault.reason + note, seconds=time.perf_counter() - started)
        lines = differences(case["expected"], got, case.get("moves"))
        seconds = time.perf_counter() - started
        if not lines:
            return _result(case, "passed", seconds=seconds)
        return _result(case, "failed", lines[0], tuple(lines), seconds)

    def _perft(self, entry: dict[str, Any]) -> Result:
        stopped = self._give_up_reason()
        if stopped:
            return _perft_result(entry, "not run", stopped)
        assert self.capabilities is not None
        missing = self.capabilities.missing(entry["game"], "perft", entry["rules"])
        if missing:
            return _perft_result(entry, "skipped", missing)
        started = time.perf_counter()
        check = PerftCheck(
            self.session.ask,
            self.capabilities,
            perft_nodes=self.settings.perft_nodes,
            walk_nodes=self.settings.walk_nodes,
            perft_timeout=self.settings.perft_timeout,
        )
        try:
            status, reason, details = check.check(entry)
        except EngineFault as fault:
            return _perft_result(entry, "fault", fault.reason, seconds=time.perf_counter() - started)
        finally:
            self.capabilities = check.capabilities
        return _perft_result(entry, status, reason, details, time.perf_counter() - started)


def _result(
    case: Mapping[str, Any],
    status: str,
    reason: str = "",
    details: tuple[str, ...] = (),
    seconds: float = 0.0,
) -> Result:
    return Result(
        case["id"],
        "vectors",
        case["game"],
        case["kind"],
        status,
        reason,
        details,
        context_of(case) if status in ("failed", "fault") else (),
        tuple(case["covers"]),
        seconds,
    )


def _perft_result(
    entry: Mapping[str, Any], status: str, reason: str, details: tuple[str, ...] = (), seconds: float = 0.0
) -> Result:
    context = context_of(entry) if status in ("failed", "fault") else ()
    return Result(
        f"perft:{entry['id']}",
        "perft",
        entry["game"],
        "perft",
        status,
        reason,
        details,
        context,
        tuple(entry["covers"]),
        seconds,
    )


def conform(
    command: str,
    out: TextIO,
    settings: Settings | None = None,
    *,
    stderr: Any = None,
    progress: Any = None,
) -> KitRun:
    """Run the kit against the engine started by ``command``: each failure is printed on ``out`` as it
    happens, then the summary (:func:`fly_rules.conformance.report.summary`); the engine's standard error
    goes to ``stderr`` (None: this process's), the progress to ``progress`` (None: none).
    ``settings.ids`` must be a regular expression (``fly-rules conform`` checks it first).
    """
    settings = settings or Settings()
    kit = _Kit(command, settings, lambda result: report.show(result, out), stderr, progress)
    run = kit.go()
    report.summary(run, kit.capabilities, out)
    return run
