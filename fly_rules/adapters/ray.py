"""The same simulation on one process or spread over a Ray cluster, with identical results.

Needs the ``ray`` extra (``pip install 'fly_rules[ray]'``). A simulation is a list of matches,
each fixed by ``(rules, seed, index)``: match ``index`` is shuffled from the seed
``f"{seed}:{index}"`` [FLY-10.1] [DRF-8.1] and its players choose among the legal actions with a
generator seeded the same way, so where a match is played (which process, which machine, which
chunk) cannot change it. :func:`simulate` cuts the matches into chunks and runs them with
:func:`run_chunks`, on the spot (``backend="local"``) or as Ray tasks (``backend="ray"``); either way
the results come back in match order.

:func:`run_chunks` is the part a command needs: it runs any picklable function over argument tuples
on the cluster ``ray.init`` connected to (a local one is started if none is).
"""

from __future__ import annotations

import logging
import os
import random
import socket
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs

try:
    import ray
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("fly_rules.adapters.ray needs Ray: pip install 'fly_rules[ray]'") from error

from fly_rules.engine.protocols import Rules
from fly_rules.errors import FlyRulesError
from fly_rules.notation.games import new_game

__all__ = ["PROBE_SECONDS", "MatchOutcome", "NoCluster", "play_random_matches", "run_chunks", "simulate"]

_T = TypeVar("_T")


class NoCluster(FlyRulesError, ConnectionError):
    """``ray.init()`` found no Ray cluster where ``RAY_ADDRESS`` points (``auto``: none running on this machine)."""


PROBE_SECONDS = 5.0
"""How long :func:`run_chunks` waits for ``RAY_ADDRESS``'s host and port to answer before saying there is no
cluster there (``ray.init`` itself retries for minutes)."""


def _probe(address: str) -> None:
    """Refuse a ``RAY_ADDRESS`` of the form ``host:port`` where nothing answers within :data:`PROBE_SECONDS`.
    ``auto``, ``local`` and ``ray://`` addresses are left to Ray (it finds those out at once)."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or "://" in address or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except (OSError, ValueError, OverflowError) as error:
        why = "no answer" if isinstance(error, TimeoutError) else getattr(error, "strerror", None) or str(error)
        raise NoCluster(
            f"no Ray cluster at RAY_ADDRESS={address!r} (nothing answers there within {PROBE_SECONDS:g} s: {why});"
            " start one (ray start --head) or unset RAY_ADDRESS to run on a local instance"
        ) from None


@attrs.frozen
class MatchOutcome:
    """How one simulated match ended."""

    index: int
    """The match's number in the simulation."""
    winner: int | None
    """The winning seat, or None (no winner within the deal limit)."""
    deals: int
    """Deals played."""
    scores: tuple[int, ...]
    """The match's ``scores``: one number per seat, higher is better (Fly: minus the record [FLY-8.1];
    Dreyfus: lower minus upper record [DRF-9.1])."""
    actions: int
    """Actions taken in the match."""


def play_random_matches(
    rules: Any,
    seed: int | str,
    indices: Sequence[int],
    max_deals: int | None = 3,  # Any: an attrs rules class
) -> list[MatchOutcome]:
    """Play matches ``indices`` of the simulation ``seed`` with uniformly random legal actions."""
    outcomes = []
    for index in indices:
        match_seed = f"{seed}:{index}"
        chooser = random.Random(f"fly_rules:simulate:{match_seed}")
        limited = attrs.evolve(rules, max_deals=max_deals)
        state: Any = new_game(limited, seed=match_seed)
        actions = 0
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[chooser.randrange(len(legal))])
            actions += 1
        outcomes.append(MatchOutcome(index, state.winner, state.deal_number + 1, state.scores, actions))
    return outcomes


def run_chunks(function: Callable[..., _T], chunks: Sequence[tuple[object, ...]]) -> list[_T]:
    """``[function(*chunk) for chunk in chunks]``, each call a Ray task; results in chunk order.

    Connects with ``ray.init()`` if Ray is not initialised yet (set ``RAY_ADDRESS`` to join a cluster;
    without it a local instance is started).

    Raises:
        NoCluster: ``RAY_ADDRESS`` names a cluster that cannot be reached (nothing answers at its host and port
            within :data:`PROBE_SECONDS`), or ``auto`` finds none.
    """
    if not ray.is_initialized():
        _probe(os.environ.get("RAY_ADDRESS", "").strip())
        try:
            ray.init(logging_level=logging.WARNING)  # not its INFO lines: the command prints its own
        except ConnectionError as error:
            address = os.environ.get("RAY_ADDRESS", "")
            raise NoCluster(
                f"no Ray cluster at RAY_ADDRESS={address!r} ({str(error).split('.')[0]}); start one "
                "(ray start --head) or unset RAY_ADDRESS to run on a local instance"
            ) from None
    task = ray.remote(function)
    return list(ray.get([task.remote(*chunk) for chunk in chunks]))


def simulate(
    rules: Rules,
    seed: int | str,
    matches: int,
    *,
    max_deals: int | None = 3,
    chunk_size: int = 25,
    backend: str = "local",
) -> list[MatchOutcome]:
    """Play ``matches`` random matches; the same list whatever the backend and the chunk size.

    >>> from fly_rules import fly
    >>> a = simulate(fly.FlyRules(players=3), 7, 4, max_deals=1, chunk_size=1)
    >>> a == simulate(fly.FlyRules(players=3), 7, 4, max_deals=1, chunk_size=3)
    True
    """
    if matches < 0 or chunk_size < 1:
        raise ValueError("matches must be >= 0 and chunk_size >= 1")
    chunks = [
        (rules, seed, range(start, min(matches, start + chunk_size)), max_deals)
        for start in range(0, matches, chunk_size)
    ]
    if backend == "local":
        pieces = [play_random_matches(*chunk) for chunk in chunks]
    elif backend == "ray":
        pieces = run_chunks(play_random_matches, chunks)
    else:
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    return [outcome for piece in pieces for outcome in piece]
