"""Running many matches: in this process, on a pool of worker processes, or as Ray tasks; the results
are the same whichever runs them."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from typing import Any

from fly_rules.bots import run_matches
from fly_rules.commands.common import CommandError

__all__ = ["chunks", "run_jobs"]


def chunks(total: int, parts: int) -> list[range]:
    """``range(total)`` in at most ``parts`` pieces of nearly equal size, in order."""
    size = -(-total // parts)
    return [range(start, min(total, start + size)) for start in range(0, total, size)]


def run_jobs(
    backend: str, workers: int, jobs: list[tuple[Any, ...]], advance: Callable[[int], None] | None
) -> list[Any]:
    """Every job's results, in order: on Ray, on ``workers`` processes, or here."""
    results: list[Any] = []
    if backend == "ray":
        try:
            from fly_rules.adapters.ray import run_chunks  # noqa: PLC0415 - the optional 'ray' extra
        except ImportError as error:
            raise CommandError(str(error)) from None
        for piece_results in run_chunks(run_matches, jobs):
            results += piece_results
        if advance:
            advance(len(results))
    elif workers == 1:
        for job in jobs:
            results += run_matches(*job)
            if advance:
                advance(len(job[3]))
    else:
        pool = multiprocessing.Pool(workers, initializer=_leave_interrupts_to_the_parent)
        try:
            for job, piece_results in zip(jobs, pool.imap(_run_job, jobs), strict=True):
                results += piece_results
                if advance:
                    advance(len(job[3]))
        except BaseException:  # Ctrl-C or an error: stop the workers now, not after their pieces
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
    return results


def _leave_interrupts_to_the_parent() -> None:  # pragma: no cover - runs in the worker processes
    """A worker ignores Ctrl-C: the terminal sends it to the whole group, and the parent stops the pool;
    SIGTERM and SIGHUP end it at once (``Pool.terminate`` sends SIGTERM), not through the parent's handler."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _run_job(job: tuple[Any, ...]) -> Any:  # pragma: no cover - runs in the worker processes
    return run_matches(*job)
