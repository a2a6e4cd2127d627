"""Measure how clearly each bot beats the one below it, in both games.

Usage: python benchmarks/bot_margins.py [--quick] [--workers N]

Each line plays matches of one bot against copies of a weaker one (the seats rotate between
matches) and prints the stronger bot's win rate with its 95% Wilson interval, beside the rate
an equal player would have (1 / players). The Monte-Carlo bot is slow, so it plays fewer matches.
It takes about five minutes on two cores with the defaults (--quick: half a minute).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from fly_rules import dreyfus, fly
from fly_rules.bots import Tally, run_matches

PAIRS = [
    ("fly", "rule-of-thumb", "random", 1000),
    ("dreyfus", "rule-of-thumb", "random", 1000),
    ("fly", "monte-carlo", "rule-of-thumb", 200),
    ("dreyfus", "monte-carlo", "rule-of-thumb", 60),
]


def measure(game: str, strong: str, weak: str, matches: int, workers: int) -> dict[str, Any]:
    """Play ``matches`` matches of ``strong`` against copies of ``weak``; the strong bot's statistics."""
    rules: Any = fly.FlyRules(players=4) if game == "fly" else dreyfus.DreyfusRules()
    players = 4 if game == "fly" else 3
    names = [strong] + [weak] * (players - 1)
    max_deals = 100 if game == "fly" else None
    size = -(-matches // (workers * 4))
    pieces = [range(i, min(matches, i + size)) for i in range(0, matches, size)]
    tally = Tally(players, tuple(names))
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        for results in pool.map(
            run_matches, *zip(*[(rules, names, "margins", p, max_deals) for p in pieces], strict=True)
        ):
            for result in results:
                tally.add(result)
    row = tally.summary()["per_bot"][0]
    return {
        "game": game,
        "bots": f"{strong} vs {weak}",
        "matches": matches,
        "rate": row["rate"],
        "ci95": row["ci95"],
        "equal_share": 1 / players,
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    """Print one line per pair of bots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the matches")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args()
    for game, strong, weak, matches in PAIRS:
        n = max(10, matches // 10) if args.quick else matches
        row = measure(game, strong, weak, n, args.workers)
        low, high = row["ci95"]
        print(
            f"{game:8} {row['bots']:32} {n:5} matches: wins {100 * row['rate']:5.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}] vs equal share {100 * row['equal_share']:.1f}%  "
            f"({row['seconds']:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
