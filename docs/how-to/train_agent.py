"""Train MaskablePPO (sb3-contrib) on the batch engine against rule-of-thumb opponents, then compare the
trained policy with the rule of thumb itself, paired: the same seat of the same deals, the same opponents.

    pip install -e '.[gymnasium]' sb3-contrib
    python docs/how-to/train_agent.py --minutes 60 --deals 2000

The page "Train an agent" (docs/how-to/train-an-agent.md) shows this file and the table of one run.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from fly_rules.adapters.fly_game import FOLD
from fly_rules.adapters.gymnasium import batch_env
from fly_rules.adapters.learned import Network

Policy = Callable[[Any, Any], Any]

PLAYERS = 4
SEAT = 0


def paired_results(policy: Policy | Network | None, *, deals: int, seed: int) -> dict[str, Any]:
    """Play ``deals`` deals (the batch's games of ``seed``, each once) with ``policy`` in the learning seat (a
    batched policy, a learned bot's network, or the rule-of-thumb bot for None), the rule of thumb in every other
    seat: the seat's result in each deal, and in which deals it could fold and in which it did."""
    # seat 0 counts the seats from itself either way; relative_seats says so for a network, which reads them so
    envs = batch_env(deals, "fly", PLAYERS, seat=SEAT, opponents="rule-of-thumb", relative_seats=True)
    observation, _ = envs.reset(seed=seed)
    done = np.zeros(deals, bool)
    results = np.zeros(deals)
    could_fold = np.zeros(deals, bool)
    folded = np.zeros(deals, bool)
    while not done.all():
        mask = envs.action_masks()
        asked = np.where(done[:, None], True, mask)  # a finished game's action is not used
        if policy is None:
            actions = envs.engine.rule_of_thumb(envs.state)
        elif isinstance(policy, Network):
            actions = policy.choose(observation["observation"], envs.engine.thumb_hint(envs.state), asked)
        else:
            actions = np.asarray(policy(observation["observation"], asked), dtype=np.int64)
        live = ~done
        could_fold |= live & mask[:, FOLD]
        folded |= live & mask[:, FOLD] & (actions == FOLD)
        observation, _, terminated, _, info = envs.step(actions)
        first = terminated & ~done
        if first.any():
            results[first] = info["result"][first]
        done |= terminated
    return {"results": results, "could_fold": could_fold, "folded": folded}


def folds(played: dict[str, Any], most: int | None = None) -> tuple[int, int]:
    """In how many of the (first ``most``) deals of :func:`paired_results` the seat folded, and could have."""
    return int(played["folded"][:most].sum()), int(played["could_fold"][:most].sum())


def compare(policy: Policy | Network, *, deals: int, seed: int) -> dict[str, Any]:
    """The policy against the rule of thumb in the same seat of the same deals: both means, the mean of
    the paired differences with its 95% interval, and the fold counts."""
    mine = paired_results(policy, deals=deals, seed=seed)
    theirs = paired_results(None, deals=deals, seed=seed)
    difference = mine["results"] - theirs["results"]
    half = 1.96 * difference.std(ddof=1) / np.sqrt(deals)
    return {
        "deals": deals,
        "policy_mean": float(mine["results"].mean()),
        "rule_of_thumb_mean": float(theirs["results"].mean()),
        "difference": float(difference.mean()),
        "interval": (float(difference.mean() - half), float(difference.mean() + half)),
        "policy_folds": folds(mine),
        "rule_of_thumb_folds": folds(theirs),
    }


def train(minutes: float, num_envs: int, seed: int, log: Callable[[str], None], save: str | None = None) -> Any:
    """MaskablePPO on ``num_envs`` games of the batch engine, for ``minutes`` of CPU time; the model (saved
    to ``save`` every ten CPU minutes, if given)."""
    # imported here, so that the comparison above runs without them (tests/docs/test_train_agent.py)
    import torch  # noqa: PLC0415
    from sb3_contrib import MaskablePPO  # noqa: PLC0415
    from stable_baselines3.common.callbacks import BaseCallback  # noqa: PLC0415
    from stable_baselines3.common.vec_env import VecMonitor  # noqa: PLC0415

    from fly_rules.adapters.sb3 import BatchVecEnv  # noqa: PLC0415

    torch.set_num_threads(1)
    envs = VecMonitor(BatchVecEnv.make("fly", num_envs, players=PLAYERS, seat=SEAT, opponents="rule-of-thumb"))
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=32,
        batch_size=4096,
        n_epochs=4,
        gamma=1.0,
        gae_lambda=0.95,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        verbose=0,
    )
    start = time.process_time()

    class Budget(BaseCallback):  # type: ignore[misc]
        saved = 0.0

        def _on_rollout_end(self) -> None:
            spent = (time.process_time() - start) / 60
            rewards = [episode["r"] for episode in self.model.ep_info_buffer]
            log(f"{self.num_timesteps:,} steps, {spent:.1f} CPU min, mean result {np.mean(rewards):+.3f}")
            if save and spent - self.saved >= 10:
                self.model.save(save)
                self.saved = spent

        def _on_step(self) -> bool:
            return (time.process_time() - start) / 60 < minutes

    model.learn(total_timesteps=10**10, callback=Budget())
    return model


def main() -> None:
    """Train, then compare with the rule of thumb; print the comparison as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="CPU minutes of training")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--deals", type=int, default=2000, help="deals of the paired comparison")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="where to save the trained model")
    args = parser.parse_args()
    model = train(args.minutes, args.num_envs, args.seed, lambda line: print(line, flush=True), args.save)
    if args.save:
        model.save(args.save)
    from fly_rules.adapters.sb3 import frozen_policy  # noqa: PLC0415

    report = compare(frozen_policy(model, deterministic=True), deals=args.deals, seed=10_000 + args.seed)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
