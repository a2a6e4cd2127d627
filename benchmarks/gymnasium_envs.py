"""Speed of the Gymnasium environments: the learning seat's steps per second of CPU time, random legal
actions for it from the mask, random opponents.

``fly_rules/Fly-v0`` (one deal at a time, the library's random bot in the other seats, episodes reset
by hand) against ``fly_rules/FlyVector-v0`` (the batch engine, ``num_envs`` deals per call, the
engine's own random opponents, deals dealt anew in the step that ends them).

    python benchmarks/gymnasium_envs.py --seconds 3 --players 3 5
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import fly_rules.adapters.gymnasium  # noqa: F401 - registers the environments


def single(players: int, seconds: float) -> tuple[float, float]:
    """Learner steps and deals per CPU second of ``fly_rules/Fly-v0``."""
    rng = np.random.default_rng(0)
    env = gym.make("fly_rules/Fly-v0", players=players, opponents="random")
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


def vector(players: int, num_envs: int, seconds: float) -> tuple[float, float]:
    """Learner steps and deals per CPU second of ``fly_rules/FlyVector-v0`` with ``num_envs`` deals."""
    rng = np.random.default_rng(0)
    envs = gym.make_vec("fly_rules/FlyVector-v0", num_envs=num_envs, players=players)
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
    """Print a Markdown table, one row per environment and size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--num-envs", type=int, nargs="+", default=[64, 1024, 4096])
    args = parser.parse_args()
    print("| environment | players | learner steps/s | deals/s |")
    print("| --- | ---: | ---: | ---: |")
    for players in args.players:
        steps, deals = single(players, args.seconds)
        print(f"| Fly-v0 | {players} | {steps:,.0f} | {deals:,.0f} |")
        for num_envs in args.num_envs:
            steps, deals = vector(players, num_envs, args.seconds)
            print(f"| FlyVector-v0, {num_envs:,} deals | {players} | {steps:,.0f} | {deals:,.0f} |")


if __name__ == "__main__":
    main()
