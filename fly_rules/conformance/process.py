"""The engine under test as a process: one request written, one answer read, within a time and a size.

An engine is a program the runner does not trust. :class:`Engine` reads its standard output in a
thread, a chunk at a time, so that the runner never blocks on it: an answer must arrive within the
timeout, and no line is kept past the size limit (an engine that writes 100 MB, or writes without a
line end, is stopped once it passes the limit, never read to the end). A fault that leaves the stream
out of step (no answer in time, a line too long, the engine gone) kills the engine
(:class:`EngineFault` with ``fatal``); a complete line that is not a JSON object is a fault of that
answer only. Nothing the engine sends reaches a message longer than :func:`~.wire.echo` shows.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
from typing import IO, Any, Final

from fly_rules.conformance.wire import LineFault, read_line, write_line
from fly_rules.errors import FlyRulesError

__all__ = ["ANSWER_BYTES", "Engine", "EngineError", "EngineFault", "argv_of"]

ANSWER_BYTES: Final = 1 << 20
"""The longest answer line read by default (1 MiB: the longest answer of the kit, a Dreyfus hand's 4,096
exchanges, is about 160 kB)."""

_CHUNK: Final = 1 << 16
_POSIX: Final = os.name == "posix"


class EngineError(FlyRulesError):
    """The engine's command cannot be read or started."""


class EngineFault(Exception):
    """The engine failed one request: ``reason`` is one line; ``fatal`` when the engine was stopped and
    must be started again for the next request."""

    def __init__(self, reason: str, *, fatal: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fatal = fatal


class _TooLong:
    """The reader's mark for a line past the limit (it stops reading there)."""

    def __init__(self, size: int, ended: bool) -> None:
        self.size = size
        self.ended = ended


_END: Final = object()
"""The reader's mark for the end of the engine's output."""


def argv_of(command: str) -> list[str]:
    """The arguments of an engine's command line, split as a POSIX shell would (without running one).

    Raises:
        EngineError: the command is empty or cannot be split.
    """
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise EngineError(f"cannot read the engine command {command!r}: {error}") from None
    if not argv:
        raise EngineError("give the engine's command, such as --engine 'fly-rules engine'")
    return argv


class Engine:
    """A program under test, started from ``command``, asked one JSON line at a time.

    Each answer must come within ``timeout`` seconds and be at most ``max_bytes`` bytes long; the
    engine's standard error goes to ``stderr`` (None: this process's own).

    Raises:
        EngineError: the command cannot be read or started.
    """

    def __init__(
        self, command: str, *, timeout: float = 10.0, max_bytes: int = ANSWER_BYTES, stderr: IO[Any] | int | None = None
    ) -> None:
        argv = argv_of(command)
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=_POSIX,  # its children are stopped with it
            )
        except (OSError, ValueError) as error:
            raise EngineError(f"cannot start the engine {command!r}: {error}") from None
        self.command = command
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.alive = True
        self._lines: queue.Queue[object] = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name="engine-output").start()

    def _read(self) -> None:
        """Put each line of the engine's output on the queue, then ``_END``; stop at a line past the limit.
        The thread owns the engine's output and closes it when it stops."""
        stdout = self._process.stdout
        assert stdout is not None
        with stdout:
            self._read_lines(stdout.fileno())

    def _read_lines(self, fd: int) -> None:
        pending = bytearray()
        searched = 0
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                if pending:
                    self._lines.put(bytes(pending))
                self._lines.put(_END)
                return
            pending += chunk
            while True:
                at = pending.find(b"\n", searched)
                if at < 0:
                    searched = len(pending)
                    break
                if at > self.max_bytes:
                    self._lines.put(_TooLong(at, ended=True))
                    return
                self._lines.put(bytes(pending[:at]).rstrip(b"\r"))
                del pending[: at + 1]
                searched = 0
            if len(pending) > self.max_bytes:
                self._lines.put(_TooLong(len(pending), ended=False))
                return

    def ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request and read its answer (within ``timeout`` seconds, default the engine's).

        Raises:
            EngineFault: no answer in time, a line too long, the engine gone (``fatal``: it is stopped), or
                a line that is not a JSON object.
        """
        if not self.alive:
            raise EngineFault("the engine was stopped", fatal=True)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(write_line(request))
            stdin.flush()
        except OSError:  # BrokenPipeError among them: it has stopped reading
            raise EngineFault(f"the engine stopped reading its input ({self._gone()})", fatal=True) from None
        wait = self.timeout if timeout is None else timeout
        try:
            got = self._lines.get(timeout=wait)
        except queue.Empty:
            self.kill()
            raise EngineFault(
                f"no answer within {wait:g} s (does the engine flush each answer? it was stopped)", fatal=True
            ) from None
        if got is _END:
            raise EngineFault(f"the engine stopped ({self._gone()})", fatal=True)
        if isinstance(got, _TooLong):
            self.kill()
            size = f"{got.size:,} bytes" if got.ended else f"more than {self.max_bytes:,} bytes without a line end"
            raise EngineFault(f"an answer longer than {self.max_bytes:,} bytes ({size}; it was stopped)", fatal=True)
        assert isinstance(got, bytes)
        answer = read_line(got)
        if isinstance(answer, LineFault):
            raise EngineFault(f"the answer is {answer}", fatal=False)
        return answer

    def _gone(self) -> str:
        """The engine's exit status, once it has gone (it is killed if it lingers a second)."""
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.kill()
            return "still running: stopped"
        self.kill()  # the pipes closed, the processes it started stopped
        if code < 0 and _POSIX:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exit code {code}"

    def kill(self) -> None:
        """Stop the engine (and the processes it started) at once."""
        self.alive = False
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                if _POSIX:
                    os.killpg(process.pid, signal.SIGKILL)
                else:  # pragma: no cover - the CI runs on Linux
                    process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        self._close_pipes()

    def _close_pipes(self) -> None:
        stdin = self._process.stdin
        with contextlib.suppress(OSError):
            if stdin is not None:
                stdin.close()

    def close(self, grace: float = 2.0) -> str | None:
        """Ask the engine to quit and wait ``grace`` seconds for it; None when it stopped, else why it was
        killed (it ignored ``quit`` and the end of its input)."""
        process = self._process
        if process.poll() is not None or not self.alive:
            self.kill()
            return None
        stdin = process.stdin
        assert stdin is not None
        with contextlib.suppress(OSError):
            stdin.write(b'{"cmd": "quit"}\n')
            stdin.flush()
        with contextlib.suppress(OSError):
            stdin.close()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()
            return f"the engine did not stop within {grace:g} s of quit and the end of its input: it was killed"
        self.alive = False
        self._close_pipes()
        return None
