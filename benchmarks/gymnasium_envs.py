"""Speed of the Gymnasium environments: the learning seat's decisions per second of CPU time, random legal
actions for it from the mask, against the rule-of-thumb bot (and random opponents), in one run.

``gymnasium.make("fly_rules/Fly-v0")`` (one game at a time, the library's bots in the other seats through
the scalar engine, episodes reset by hand) against ``gymnasium.make_vec("fly_rules/Fly-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` (the batch engine, ``N`` games per call, the other seats played
inside the engine for every game at once, finished games dealt anew in the step that ends them
(``SAME_STEP``), so that every learner step is a decision).

    python benchmarks/gymnasium_envs.py --seconds 3 --players 4 --num-envs 1024
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import fly_rules.adapters.gymnasium  # noqa: F401 - registers the environments


def single(game: str, players: int | None, opponents: str, seconds: float) -> tuple[float, float]:
    """Learner steps and deals per CPU second of the single environment."""
    rng = np.random.default_rng(0)
    env = gym.make(f"fly_rules/{game.title()}-v0", players=players, opponents=opponents)
    _, info = env.reset(seed=0)
    steps = deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        mask = info["action_mask"] == 1
        _, _, terminated, _, info = env.step(int(np.argmax(rng.random(mask.shape) * mask)))
        steps += 1
        if terminated:
            deals += 1
            _, info = env.reset()
    spent = time.process_time() - start
    return steps / spent, deals / spent


def vector(game: str, players: int | None, opponents: str, num_envs: int, seconds: float) -> tuple[float, float]:
    """Learner steps and deals per CPU second of the vector environment with ``num_envs`` games."""
    rng = np.random.default_rng(0)
    envs = gym.make_vec(
        f"fly_rules/{game.title()}-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        players=players,
        opponents=opponents,
        autoreset_mode="same_step",
    )
    observation, _ = envs.reset(seed=0)
    steps = deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        mask = observation["action_mask"] == 1
        observation, _, terminated, _, _ = envs.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
        steps += num_envs
        deals += int(terminated.sum())
    spent = time.process_time() - start
    return steps / spent, deals / spent


def main() -> None:
    """Print a Markdown table, one row per environment, opponents and size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    parser.add_argument("--game", default="fly", choices=["fly", "dreyfus"])
    parser.add_argument("--players", type=int, nargs="+", default=[4], help="Fly's table sizes")
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1024])
    parser.add_argument("--opponents", nargs="+", default=["rule-of-thumb", "random"])
    args = parser.parse_args()
    print("| environment | opponents | players | learner steps/s (CPU) | deals/s |")
    print("| --- | --- | ---: | ---: | ---: |")
    tables = args.players if args.game == "fly" else [None]
    for players in tables:
        shown = players or 3
        for opponents in args.opponents:
            steps, deals = single(args.game, players, opponents, args.seconds)
            print(f"| {args.game.title()}-v0, one game | {opponents} | {shown} | {steps:,.0f} | {deals:,.0f} |")
            for num_envs in args.num_envs:
                steps, deals = vector(args.game, players, opponents, num_envs, args.seconds)
                name = f"{args.game.title()}-v0 vector, {num_envs:,} games"
                print(f"| {name} | {opponents} | {shown} | {steps:,.0f} | {deals:,.0f} |")


if __name__ == "__main__":
    main()
