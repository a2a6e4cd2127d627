"""How long the browser table's "Review my play" takes for one deal, natively (``web/fly_live.py``'s ``review``).

Usage: python benchmarks/review_time.py [--seed 5] [--rows fly4,dreyfus]

Each row plays one deal at the live page's table (the reader at seat 0 making its first legal move, the
rule-of-thumb bot in the other seats), then times the review of that deal: wall and CPU seconds, and the
number of the reader's decisions it graded.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))

import fly_live

ROWS = {"fly4": ("fly", 4), "fly3": ("fly", 3), "dreyfus": ("dreyfus", 3)}


def main() -> None:
    """Print one line per row: the game, its decisions graded and the review's wall and CPU time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="5")
    parser.add_argument("--rows", default="fly4,dreyfus")
    args = parser.parse_args()
    for row in args.rows.split(","):
        game, players = ROWS[row]
        fly_live.play_through(game, players, "default", args.seed, 0, "rule-of-thumb", 1)
        wall, cpu = time.perf_counter(), time.process_time()
        answer = fly_live.review(0)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{row:<8} seed {args.seed}: {len(answer['decisions'])} decisions, {wall:.1f} s wall, {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
