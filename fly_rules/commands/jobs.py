"""Running many matches: in this process, on a pool of worker processes, or as Ray tasks; the results
are the same whichever runs them, and they are handed on piece by piece as they come, so that memory
does not grow with the number of matches."""

from __future__ import annotations

import itertools
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from fly_rules.bots import run_matches
from fly_rules.commands.common import CommandError

__all__ = ["PIECE", "pieces", "run_jobs"]

PIECE: Final = 1000
"""The most matches one job plays: its results (some 220 bytes a match) are all that is kept at once."""


def pieces(total: int, workers: int) -> Iterator[range]:
    """``range(total)`` in order, in pieces of at most :data:`PIECE` matches, small enough for ``workers``
    to share the work evenly; made as they are needed, so that a huge ``total`` costs no memory."""
    size = max(1, min(PIECE, -(-total // (workers * 8)))) if workers > 1 else min(PIECE, total)
    return (range(start, min(total, start + size)) for start in range(0, total, size))


def run_jobs(
    backend: str,
    workers: int,
    jobs: Iterable[tuple[Any, ...]],
    take: Callable[[list[Any]], None],
    advance: Callable[[int], None] | None,
) -> None:
    """Hand every job's results to ``take``, in the jobs' order: on Ray, on ``workers`` processes, or
    here; a bounded number of jobs is in flight at a time."""
    if backend == "ray":
        try:
            from fly_rules.adapters.ray import run_chunks  # noqa: PLC0415 - the optional 'ray' extra
        except ImportError as error:
            raise CommandError(str(error)) from None
        for batch in _batches(jobs, 64):
            for piece_results in run_chunks(run_matches, batch):
                _hand_on(take, advance, piece_results)
    elif workers == 1:
        for job in jobs:
            _hand_on(take, advance, run_matches(*job))
    else:
        pool = multiprocessing.Pool(workers, initializer=_leave_interrupts_to_the_parent)
        try:
            for batch in _batches(jobs, workers * 8):
                for piece_results in pool.imap(_run_job, batch):
                    _hand_on(take, advance, piece_results)
        except BaseException:  # Ctrl-C or an error: stop the workers now, not after their pieces
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()


def _batches(jobs: Iterable[tuple[Any, ...]], size: int) -> Iterator[list[tuple[Any, ...]]]:
    """``jobs`` in lists of ``size`` (``itertools.batched`` is Python 3.12's)."""
    source = iter(jobs)
    while batch := list(itertools.islice(source, size)):
        yield batch


def _hand_on(take: Callable[[list[Any]], None], advance: Callable[[int], None] | None, results: list[Any]) -> None:
    take(results)
    if advance:
        advance(len(results))


def _leave_interrupts_to_the_parent() -> None:  # pragma: no cover - runs in the worker processes
    """A worker ignores Ctrl-C: the terminal sends it to the whole group, and the parent stops the pool;
    SIGTERM and SIGHUP end it at once (``Pool.terminate`` sends SIGTERM), not through the parent's handler."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _run_job(job: tuple[Any, ...]) -> Any:  # pragma: no cover - runs in the worker processes
    return run_matches(*job)
