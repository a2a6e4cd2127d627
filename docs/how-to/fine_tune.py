"""Fine-tune the learned player by PPO on the batch engine, NumPy alone, then compare it with the rule of thumb
(paired: the same seat of the same deals, the same opponents) and its folds with the expert's on those deals.

    pip install -e '.[gymnasium]'
    python docs/how-to/fine_tune.py --minutes 4 --deals 2000 --fold-deals 500 --save fly_ppo.npz

PPO starts from the distilled policy (the network the ``learned`` bot plays, trained on the expert's decisions)
and keeps a behaviour-cloning term towards it, so that it improves on it instead of forgetting it; whether to fold
is the distilled policy's alone (PPO learns how to play on: the deal's score alone would have it fold more than
the expert, who plays for the match); its opponents are drawn at every deal from the rule of thumb, the learned
bot and past copies of itself. The page "Train an
agent" (docs/how-to/train-an-agent.md) shows this file and the figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: sums in the same order, run after run

import numpy as np

from fly_rules import batch
from fly_rules.actions import Fold
from fly_rules.adapters.fly_game import FOLD
from fly_rules.adapters.gymnasium import OpponentPool, batch_env
from fly_rules.adapters.learned import Network, shipped_network
from fly_rules.bots import RuleOfThumbBot, make_bot
from fly_rules.fly import FlyRules

sys.path.insert(0, str(Path(__file__).parent))  # the paired comparison of train_agent.py, beside this file
import train_agent

PLAYERS, SEAT = train_agent.PLAYERS, train_agent.SEAT
RULES = FlyRules(players=PLAYERS)
TEACHER_TEMPERATURE = 0.5  # the cloned ways to play on, sharpened towards the distilled network's own choice


class Agent:
    """The learned bot's network as trainable float32 arrays: its forward pass, and the backward pass of a loss
    given through the logits and the value."""

    def __init__(self, network: Network) -> None:
        self.meta = dict(network.meta)
        self.params = [layer.astype(np.float32) for layer in network.layers]
        self.size = self.meta["observation_size"]

    def forward(self, obs: Any, hints: Any) -> tuple[Any, Any, Any]:
        """Logits, values and what the backward pass needs, for a batch of observations and the rule of thumb's
        ids (one-hot inputs after the observation: a row of the first layer's weights)."""
        w0, b0, w1, b1, wp, bp, wv, bv = self.params
        pre1 = obs @ w0[: self.size] + w0[self.size + hints] + b0
        h1 = np.maximum(pre1, 0.0)
        pre2 = h1 @ w1 + b1
        h2 = np.maximum(pre2, 0.0)
        return h2 @ wp + bp, (h2 @ wv + bv)[:, 0], (obs, hints, pre1, h1, pre2, h2)

    def backward(self, cache: Any, dlogits: Any, dvalues: Any) -> list[Any]:
        """The gradients of the parameters, given those of the loss by the logits and the values."""
        obs, hints, pre1, h1, pre2, h2 = cache
        _, _, w1, _, wp, _, wv, _ = self.params
        dh2 = (dlogits @ wp.T + dvalues[:, None] @ wv.T) * (pre2 > 0)
        dh1 = (dh2 @ w1.T) * (pre1 > 0)
        dw0 = np.zeros_like(self.params[0])
        dw0[: self.size] = obs.T @ dh1
        np.add.at(dw0, self.size + hints, dh1)
        return [dw0, dh1.sum(0), h1.T @ dh2, dh2.sum(0), h2.T @ dlogits, dlogits.sum(0), h2.T @ dvalues[:, None],
                np.array([dvalues.sum()], np.float32)]  # fmt: skip

    def frozen(self) -> Network:
        """A copy of the network as it is now: a player that no later update changes (an opponent, a file)."""
        return Network({name: p.copy() for name, p in zip(("w0", "b0", "w1", "b1", "wp", "bp", "wv", "bv"),
                                                         self.params, strict=True)}, dict(self.meta))  # fmt: skip


def softmax(logits: Any, mask: Any) -> tuple[Any, Any]:
    """The probabilities and log-probabilities of the legal ids (zero and 0 elsewhere)."""
    masked = np.where(mask, logits, -np.inf)
    shifted = masked - masked.max(axis=1, keepdims=True)
    logp = np.where(mask, shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True)), 0.0)
    return np.where(mask, np.exp(logp), 0.0), logp


def teacher_targets(logits: Any, mask: Any) -> Any:
    """What the agent is cloned towards: the distilled network's probability of folding as it is, and the rest
    shared among the ways to play on as its logits sharpened by ``TEACHER_TEMPERATURE`` share it. Sharpening all
    the ids at once would favour the fold, one id against 32 ways to play on: 114 expected folds would become 123
    on the 434 deals below where seat 0 may fold."""
    folding = softmax(logits, mask)[0][:, FOLD]
    playing = mask & (np.arange(mask.shape[1]) != FOLD)
    playing[~playing.any(axis=1)] = mask[~playing.any(axis=1)]  # folding alone legal: its probability is 1
    targets = softmax(logits / TEACHER_TEMPERATURE, playing)[0]
    targets[:, FOLD] = 0.0
    targets *= (1.0 - folding)[:, None]
    targets[:, FOLD] = folding
    return targets


def playing_on(mask: Any, action: Any) -> tuple[Any, Any]:
    """PPO's ids and rows: the legal ids but the fold, and every row but those where the agent folded. Its policy
    gradient is then that of how to play on, given that it does (a softmax over those ids): whether to fold is
    left to the cloning term."""
    ids = mask.copy()
    ids[:, FOLD] = False
    return ids, action != FOLD


class Adam:
    """Adam's steps for the agent's parameters, in place."""

    def __init__(self, params: list[Any], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]

    def step(self, grads: list[Any]) -> None:
        """Move every parameter against its gradient."""
        self.t += 1
        for param, grad, (first, second) in zip(self.params, grads, self.moments, strict=True):
            np.add(first, 0.1 * (grad - first), out=first)  # in place: the arrays are the agent's own
            np.add(second, 0.001 * (grad * grad - second), out=second)
            step = self.lr * (first / (1 - 0.9**self.t)) / (np.sqrt(second / (1 - 0.999**self.t)) + 1e-8)
            np.subtract(param, step, out=param)


def rollout(agent: Agent, teacher: Agent, envs: Any, observation: Any, steps: int, rng: Any) -> tuple[Any, ...]:
    """``steps`` steps of every game, the agent sampling its policy: the rows to learn from (with the teacher's
    probabilities), the values, the rewards (in the value's scale), the ends of games, the next observation and
    the results of the games that ended."""
    rows: dict[str, list[Any]] = {key: [] for key in ("obs", "hints", "mask", "action", "logp", "teacher")}
    values, rewards, dones, results = [], [], [], []
    every = np.arange(envs.num_envs)
    for _ in range(steps):
        obs, mask = observation["observation"], observation["action_mask"] == 1
        hints = np.maximum(envs.engine.thumb_hint(envs.state), 0)  # Fly's are never -1 (no marks)
        logits, value, _ = agent.forward(obs, hints)
        p, _ = softmax(logits, mask)
        action = np.minimum((p.cumsum(axis=1) < rng.random((len(every), 1))).sum(axis=1), p.shape[1] - 1)
        action = np.where(mask[every, action], action, p.argmax(axis=1))  # a rounding's edge
        taught = teacher_targets(teacher.forward(obs, hints)[0], mask)
        ids, counted = playing_on(mask, action)
        logp = np.where(counted, softmax(logits, ids | ~counted[:, None])[1][every, action], 0.0)
        for key, item in zip(rows, (obs, hints, mask, action, logp, taught), strict=True):
            rows[key].append(item)
        values.append(value)
        observation, reward, terminated, _, info = envs.step(action)
        rewards.append(reward / agent.meta["value_scale"])
        dones.append(terminated)
        if terminated.any():
            results.extend(info["final_info"]["result"][terminated])
    return rows, values, rewards, dones, observation, results


def advantages(values: list[Any], last: Any, rewards: list[Any], dones: list[Any]) -> Any:
    """Generalised advantage estimates (lambda 0.95, no discount: a deal's score is its reward)."""
    out = np.zeros((len(values), len(last)), np.float32)
    following = np.zeros(len(last), np.float32)
    for t in reversed(range(len(values))):
        next_value = last if t == len(values) - 1 else values[t + 1]
        delta = rewards[t] + (1 - dones[t]) * next_value - values[t]
        following = delta + 0.95 * (1 - dones[t]) * following
        out[t] = following
    return out


def gradients(agent: Agent, rows: dict[str, Any], adv: Any, returns: Any, clone: float, entropy: float) -> list[Any]:
    """The gradients of PPO's clipped loss on how to play on (:func:`playing_on`; advantages normalised), minus
    ``entropy`` times that policy's entropy, plus ``clone`` times the cross-entropy of the whole policy against the
    teacher's targets, plus half the values' squared error, on a minibatch of rows."""
    m = len(adv)
    logits, value, cache = agent.forward(rows["obs"], rows["hints"])
    ids, counted = playing_on(rows["mask"], rows["action"])
    q, logq = softmax(logits, ids | ~counted[:, None])  # a folded row counts for nothing below
    mean, spread = (adv[counted].mean(), adv[counted].std()) if counted.any() else (0.0, 1.0)
    adv = np.where(counted, (adv - mean) / (spread + 1e-8), 0.0)
    taken = np.arange(m), rows["action"]
    ratio = np.exp(logq[taken] - rows["logp"])
    unclipped = np.where(adv >= 0, ratio < 1.2, ratio > 0.8)
    onehot = np.zeros_like(q)
    onehot[taken] = 1.0
    dlogits = -(adv * ratio * unclipped)[:, None] * (onehot - q)
    dlogits += counted[:, None] * entropy * q * (logq + -(q * logq).sum(axis=1, keepdims=True))
    dlogits += clone * (softmax(logits, rows["mask"])[0] - rows["teacher"])
    return agent.backward(cache, dlogits / m, 0.5 * (value - returns) / m)


def learn(
    agent: Agent,
    minutes: float,
    *,
    num_envs: int = 512,
    steps: int = 16,
    seed: int = 0,
    lr: float = 3e-5,
    clone: float = 2.0,
    entropy: float = 0.003,
    snapshot_every: int = 50,
    most_updates: int | None = None,
    log: Callable[[str], None] = print,
) -> OpponentPool:
    """PPO for ``minutes`` of CPU time, from the agent as given (the distilled policy), ``clone`` weighing its
    cross-entropy against that policy; opponents drawn at every deal from the rule of thumb, the learned bot and
    a copy of the agent added every ``snapshot_every`` updates (self-play against its past selves); at most
    ``most_updates`` updates, if given. The pool."""
    rng = np.random.default_rng(seed)
    teacher, adam = Agent(agent.frozen()), Adam(agent.params, lr)
    pool = OpponentPool(["rule-of-thumb", "learned"], size=6, latest=0.3, keep=2)
    envs = batch_env(
        num_envs, "fly", PLAYERS, seat="random", opponents=pool, relative_seats=True, autoreset_mode="same_step"
    )
    observation, _ = envs.reset(seed=seed)
    start, updates, results = time.process_time(), 0, []
    while (time.process_time() - start) / 60 < minutes and updates != most_updates:
        rows, values, rewards, dones, observation, ended = rollout(agent, teacher, envs, observation, steps, rng)
        results.extend(ended)
        last = agent.forward(observation["observation"], np.maximum(envs.engine.thumb_hint(envs.state), 0))[1]
        adv = advantages(values, last, rewards, dones)
        returns = (adv + np.array(values)).reshape(-1)
        flat = {key: np.concatenate(items) for key, items in rows.items()}
        for _ in range(4):  # epochs over the rollout, in 4 minibatches each
            for part in np.array_split(rng.permutation(len(returns)), 4):
                picked = {key: value[part] for key, value in flat.items()}
                adam.step(gradients(agent, picked, adv.reshape(-1)[part], returns[part], clone, entropy))
        updates += 1
        if updates % snapshot_every == 0:
            pool.add(agent.frozen())  # self-play: a past copy of the agent joins the opponents
        if updates % 10 == 0:
            spent = (time.process_time() - start) / 60
            mean = np.mean(results[-2000:])
            log(f"{updates} updates, {updates * steps * num_envs:,} steps, {spent:.1f} CPU min, last deals {mean:+.3f}")
    return pool


def expert_folds(*, deals: int, seed: int) -> tuple[int, int]:
    """The expert in seat 0 of the deals of ``train_agent.paired_results``, the rule of thumb in the others, up to
    seat 0's first decision where it may fold: in how many deals it folds there, and in how many it may."""
    envs = batch_env(deals, "fly", PLAYERS, seat=SEAT, opponents="rule-of-thumb")
    envs.reset(seed=seed)  # the same deals as play_seat, seat 0 to move in each
    expert, thumb = make_bot("expert", RULES), RuleOfThumbBot()
    folded = could = 0
    for game in range(deals):
        match = batch.to_scalar(envs.state, game)
        while not match.is_over and match.deal_number == 0:
            legal = match.legal_actions()
            if match.to_move != SEAT:
                match = match.apply(thumb.choose(match.view(match.to_move), legal, random.Random(0)))
                continue
            action = expert.choose(match.view(SEAT), legal, random.Random(game))
            if Fold() in legal:
                could += 1
                folded += action == Fold()
                break
            match = match.apply(action)
    return folded, could


def compare(
    network: Network, *, deals: int, seed: int, fold_deals: int, start: Network | None = None
) -> dict[str, Any]:
    """The network against the rule of thumb in the same seat of the same deals (``train_agent.compare``), and on
    the first ``fold_deals`` of those deals (a batch of ``seed`` deals its games alike at any size) the folds of the
    network, the rule of thumb and the expert (and the starting network's figures, if given)."""
    report = train_agent.compare(network, deals=deals, seed=seed)
    mine, theirs = (train_agent.paired_results(player, deals=fold_deals, seed=seed) for player in (network, None))
    report["fold_deals"] = fold_deals
    report["policy_folds_first"] = train_agent.folds(mine)
    report["rule_of_thumb_folds_first"] = train_agent.folds(theirs)
    report["expert_folds_first"] = expert_folds(deals=fold_deals, seed=seed)
    if start is not None:
        before = train_agent.compare(start, deals=deals, seed=seed)
        report["start_difference"], report["start_folds"] = before["difference"], before["policy_folds"]
    return report


def main() -> None:
    """Fine-tune, save, then compare; print the comparison as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="CPU minutes of training")
    parser.add_argument("--deals", type=int, default=2000, help="deals of the paired comparison")
    parser.add_argument(
        "--fold-deals", type=int, default=500, help="the first deals, where the expert's folds are counted"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--save", help="where to save the fine-tuned network (.npz: LearnedBot(rules, Network.load(...)))"
    )
    args = parser.parse_args()
    start = shipped_network(RULES)
    agent = Agent(start)
    learn(agent, args.minutes, seed=args.seed, log=lambda line: print(line, flush=True))
    network = agent.frozen()
    if args.save:
        network.save(Path(args.save))
    report = compare(network, deals=args.deals, seed=10_000 + args.seed, fold_deals=args.fold_deals, start=start)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
