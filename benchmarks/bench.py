"""Speed of the engines against OpenSpiel's C++ trick-taking games, measured in one run.

Usage::

    python benchmarks/bench.py [--seconds 3] [--repeats 3] [--clock cpu|wall] [--json out.json] [--quick]
                               [--openspiel-mode child|in-place]

Random legal play through the public API, one process. A *decision* is one
``apply`` of an action a player chose from ``legal_actions()``; deals are
shuffled from a fresh seed each time (the chance part), as OpenSpiel samples
its chance nodes. OpenSpiel rows run when ``open_spiel`` is installed (the
``bench`` extra); each of our rows is paired with the OpenSpiel row it is
compared against, and the table gives the ratio of decisions per second.
The rows run in interleaved rounds (each row once per round, ``--repeats``
rounds) and each row reports its median round, timed in CPU time by default so
that other load on the machine does not count against either side.
The engine measured is the one the running Python imports: the pure build, or the compiled build
(``scripts/build_compiled.py``) when run by a Python that has its wheel installed; the report's
``build`` says which.
Speed is measured here, never in the test suite.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import re
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from fly_rules import dreyfus, fly

Player = Callable[[], int]
"""Plays one complete game and returns the number of decisions made."""


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
"""``cpu``: this process's CPU time, fair on a loaded machine; ``wall``: elapsed time."""


def build_of_engine() -> str:
    """``compiled`` when the scalar engine's state modules load as extension modules (mypyc), else ``pure``."""
    from importlib.machinery import EXTENSION_SUFFIXES  # noqa: PLC0415

    from fly_rules.fly import state  # noqa: PLC0415

    return "compiled" if str(state.__file__).endswith(tuple(EXTENSION_SUFFIXES)) else "pure"


def one_round(play_one: Player, seconds: float, clock: Callable[[], float]) -> tuple[float, float]:
    """Decisions and games per second of ``clock`` time over one round of about ``seconds``."""
    games = decisions = 0
    start = clock()
    while True:
        decisions += play_one()
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return decisions / elapsed, games / elapsed


def summary(rounds: list[tuple[float, float]]) -> dict[str, Any]:
    """The median of the rounds' rates, their spread, and every round's rate."""
    rates = sorted(r[0] for r in rounds)
    median = statistics.median(rates)
    return {
        "decisions_per_s": round(median),
        "games_per_s": round(statistics.median(r[1] for r in rounds), 1),
        "spread_pct": round(100 * (rates[-1] - rates[0]) / median, 1),
        "repeats": [round(r[0]) for r in rounds],
    }


def measure_interleaved(
    players: dict[str, Player], seconds: float, repeats: int, clock: Callable[[], float]
) -> dict[str, dict[str, Any]]:
    """Every player warmed up, then ``repeats`` rounds in which each player runs once in turn,
    so that a change in the machine's load falls on all rows alike; the median round per player."""
    for play_one in players.values():
        for _ in range(5):
            play_one()
    rounds: dict[str, list[tuple[float, float]]] = {name: [] for name in players}
    for _ in range(repeats):
        for name, play_one in players.items():
            gc.collect()
            rounds[name].append(one_round(play_one, seconds, clock))
    return {name: summary(found) for name, found in rounds.items()}


def random_player(new_state: Callable[[int], Any], rng_seed: int) -> Player:
    """One random game per call: ``new_state(seed)`` with a fresh seed, random legal actions to the end."""
    rng = random.Random(rng_seed)
    counter = iter(range(10**12))

    def play_one() -> int:
        state = new_state(next(counter))
        choice = rng.choice
        n = 0
        while not state.is_over:
            state = state.apply(choice(state.legal_actions()))
            n += 1
        return n

    return play_one


def fly_player(players: int) -> Player:
    """One random deal of Fly (default rules) per call, each from a new seed."""
    rules = fly.FlyRules(players=players, max_deals=1)
    return random_player(lambda seed: fly.new_match(rules, seed=seed, dealer=0), players)


def dreyfus_player() -> Player:
    """One random deal of Dreyfus (default rules) per call, each from a new seed."""
    rules = dreyfus.DreyfusRules(max_deals=1)
    return random_player(lambda seed: dreyfus.new_match(rules, seed=seed, dealer=0), 3)


def openspiel_player(game_string: str, *, in_place: bool = False) -> Player | None:
    """One random game of an OpenSpiel game per call, ``state.child(a)`` each step (the immutable
    idiom), or ``state.apply_action(a)`` with ``in_place``."""
    try:
        import pyspiel  # noqa: PLC0415 - optional, the bench extra
    except ImportError:
        return None
    game = pyspiel.load_game(game_string)
    rng = random.Random(12345)

    def play_one() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                acc = 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        action = a
                        break
            else:
                action = rng.choice(state.legal_actions())
                n += 1
            if in_place:
                state.apply_action(action)
            else:
                state = state.child(action)
        return n

    return play_one


def adapter_player(game_string: str) -> Player | None:
    """One random deal of our OpenSpiel adapter game per call, ``apply_action`` in place (a
    *decision* here is any player action, an exchange's marks included)."""
    try:
        import fly_rules.adapters.openspiel  # noqa: F401, PLC0415 - registers python_fly and python_dreyfus
    except ImportError:
        return None
    return openspiel_player(game_string, in_place=True)


def pettingzoo_player(game: str, players: int = 3) -> Player | None:
    """One random one-deal episode of our PettingZoo environment per call: ``last()`` with the
    observation and action mask, then ``step`` (a *decision* is one step)."""
    try:
        from fly_rules.adapters.pettingzoo import dreyfus_env, fly_env  # noqa: PLC0415 - the pettingzoo extra
    except ImportError:
        return None
    env = fly_env(fly.FlyRules(players=players)) if game == "fly" else dreyfus_env()
    rng = random.Random(12345)
    seeds = iter(range(10**9))

    def play_one() -> int:
        env.reset(seed=next(seeds))
        n = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return play_one


def batch_player(game: str, players: int, size: int, *, argmax: bool = False) -> Player | None:
    """One batch of ``size`` random deals per call through :mod:`fly_rules.batch` (a *decision* is one
    game's action in a step; dealing included, each game the scalar engine's match of its seed): actions
    from the engine's own sampler, or with ``argmax`` the argmax of random numbers times
    ``legal_action_mask``, as a learning loop would pick them."""
    try:
        import numpy as np  # noqa: PLC0415 - optional, the batch extra

        from fly_rules import batch  # noqa: PLC0415
    except ImportError:
        return None
    env = batch.make(game, size, players=players) if game == "fly" else batch.make(game, size)
    rng = np.random.default_rng(12345)
    noise = np.empty((size, env.num_actions))
    seeds = iter(range(10**9))

    def play_one() -> int:
        state = env.init(next(seeds))
        n = 0
        while True:
            live = size - int(state.terminated.sum())
            if not live:
                return n
            if argmax:
                rng.random(out=noise)
                actions = np.argmax(noise * state.legal_action_mask, axis=1)
            else:
                actions = env.sample_legal(state, rng)
            env.step_in_place(state, actions)  # the fast path: no copy of the old position
            n += live

    return play_one


def batch_bytes_per_game(game: str, players: int, size: int) -> int:
    """Bytes of state arrays one game of a batch holds."""
    from fly_rules import batch  # noqa: PLC0415 - optional, the batch extra

    env = batch.make(game, size, players=players) if game == "fly" else batch.make(game, size)
    return env.init(0).nbytes // size


BATCH_SIZES = (1, 64, 1024, 4096)
BATCH_GAMES = (("fly", 3), ("fly", 5), ("fly", 7), ("dreyfus", 3))


def batch_rows(reference: str) -> list[tuple[str, Player | None, str]]:
    """The batch engine's rows: Fly 3, 5 and 7 players and Dreyfus, each batch size, both ways of
    choosing actions, all against ``reference``."""
    rows: list[tuple[str, Player | None, str]] = []
    for game, players in BATCH_GAMES:
        label = f"fly {players}p" if game == "fly" else "dreyfus"
        for size in BATCH_SIZES:
            rows.append((f"{label} batch {size} sampler", batch_player(game, players, size), reference))
            rows.append((f"{label} batch {size} argmax", batch_player(game, players, size, argmax=True), reference))
    return [row for row in rows if row[1] is not None]


def retained_by_one_apply() -> dict[str, Any]:
    """Bytes newly allocated and kept alive by one ``apply`` on a mid-deal Fly state (tracemalloc)."""
    rules = fly.FlyRules(players=5, max_deals=1)
    sizes = []
    for seed in range(50):
        state = fly.new_match(rules, seed=seed, dealer=0)
        rng = random.Random(seed)
        while state.deal.phase is not fly.Phase.PLAY or len(state.deal.completed) < 2:
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        action = state.legal_actions()[0]
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        after_state = state.apply(action)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        own = [tracemalloc.Filter(False, tracemalloc.__file__)]  # not tracemalloc's own bookkeeping
        diff = after.filter_traces(own).compare_to(before.filter_traces(own), "filename")
        sizes.append(sum(stat.size_diff for stat in diff))
        del after_state
    return {"bytes_median": int(statistics.median(sizes)), "bytes_max": max(sizes), "samples": len(sizes)}


def peak_memory_over_deals(deals: int) -> dict[str, Any]:
    """Peak traced memory over the first and second half of ``deals`` random Fly deals: no growth."""
    play = fly_player(5)
    peaks = []
    for _ in range(2):
        gc.collect()
        tracemalloc.start()
        for _ in range(deals // 2):
            play()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return {"deals": deals, "peak_first_half": peaks[0], "peak_second_half": peaks[1]}


def build_rows(args: argparse.Namespace, reference: str) -> list[tuple[str, Player | None, str]]:
    """Our rows as the options ask, each with the OpenSpiel game it is compared against."""
    rows: list[tuple[str, Player | None, str]] = [("fly 5p", fly_player(5), reference)]
    if args.batch_only:
        rows = []
    elif not args.quick:
        rows += [(f"fly {n}p", fly_player(n), f"oh_hell(players={n},num_tricks_fixed=5)") for n in (3, 4, 6, 7)]
    if not args.batch_only:
        rows.append(("dreyfus", dreyfus_player(), reference))
    if not args.quick and not args.batch_only:
        adapters = [
            ("fly 5p openspiel-adapter", adapter_player("python_fly(players=5)"), reference),
            ("fly 5p pettingzoo", pettingzoo_player("fly", 5), reference),
            ("dreyfus openspiel-adapter", adapter_player("python_dreyfus"), reference),
            ("dreyfus pettingzoo", pettingzoo_player("dreyfus"), reference),
        ]
        rows += [row for row in adapters if row[1] is not None]
    if not args.no_batch:
        rows += batch_rows(reference)
    if args.only:
        rows = [row for row in rows if re.search(args.only, row[0])]
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run every row, print the table and the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds (the median is reported)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall time")
    parser.add_argument("--deals", type=int, default=100_000, help="deals for the memory-growth check")
    parser.add_argument("--json", help="also write the JSON to this file")
    parser.add_argument("--quick", action="store_true", help="5-player Fly and Dreyfus only, no memory checks")
    parser.add_argument("--batch-only", action="store_true", help="the batch engine's rows and OpenSpiel's only")
    parser.add_argument("--no-batch", action="store_true", help="leave out the batch engine's rows")
    parser.add_argument("--only", help="only our rows whose name matches this regular expression")
    parser.add_argument(
        "--openspiel-mode",
        choices=("child", "in-place"),
        default="child",
        help="OpenSpiel's games by state.child(a) (default) or apply_action(a) in place",
    )
    args = parser.parse_args(argv)

    reference = "oh_hell(players=5,num_tricks_fixed=5)"
    rows = build_rows(args, reference)
    players: dict[str, Player] = {}
    for name, player, against in rows:
        assert player is not None
        players[name] = player
        if against not in players:
            other = openspiel_player(against, in_place=args.openspiel_mode == "in-place")
            if other is not None:
                players[against] = other
    measured = measure_interleaved(players, args.seconds, args.repeats, CLOCKS[args.clock])
    results = []
    for name, _player, against in rows:
        ours = measured[name]
        theirs = measured.get(against)
        ratio = None if theirs is None else round(ours["decisions_per_s"] / theirs["decisions_per_s"], 3)
        results.append({"row": name, "ours": ours, "openspiel_game": against, "openspiel": theirs, "ratio": ratio})
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "build": build_of_engine(),
        "openspiel_mode": "child (a new state per step)" if args.openspiel_mode == "child" else "in place",
        "clock": args.clock,
        "rounds": f"{args.repeats} interleaved rounds of {args.seconds} s each, median",
        "rows": results,
    }
    if not args.no_batch:
        report["batch_bytes_per_game"] = {
            f"{game} {players}p batch {size}": batch_bytes_per_game(game, players, size)
            for game, players in BATCH_GAMES
            for size in (1, 4096)
        }
    if not args.quick and not args.batch_only:
        report["retained_by_one_apply"] = retained_by_one_apply()
        report["peak_memory"] = peak_memory_over_deals(args.deals)
    print(f"fly_rules {report['build']} build, OpenSpiel {report['openspiel_mode']}")
    print(f"{'row':30} {'ours dec/s':>12} {'deals/s':>9} {'±%':>5}   {'OpenSpiel game':40} {'dec/s':>9} {'ratio':>6}")
    for r in results:
        theirs = r["openspiel"] or {}
        print(
            f"{r['row']:30} {r['ours']['decisions_per_s']:>12,} {r['ours']['games_per_s']:>9,.0f} "
            f"{r['ours']['spread_pct']:>5}   {r['openspiel_game']:40} {theirs.get('decisions_per_s', 0):>9,} "
            f"{r['ratio'] if r['ratio'] is not None else '-':>6}"
        )
    if "retained_by_one_apply" in report:
        print("retained by one apply:", report["retained_by_one_apply"])
        print("peak memory:", report["peak_memory"])
    if "batch_bytes_per_game" in report:
        print("batch state bytes per game:", report["batch_bytes_per_game"])
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
