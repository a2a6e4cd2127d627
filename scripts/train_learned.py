"""Train the learned player's network on the expert's decisions (issue 49), with NumPy alone.

Usage: python scripts/train_learned.py --game fly|dreyfus [--players N] [--data /work/datasets/expert]
       [--chunks N] [--out fly_rules/adapters/weights/GAMEN.npz] [--hidden 128] [--epochs 40] [--batch 256]
       [--lr 0.001] [--decay 0.01] [--value-weight 0.25] [--soft 0.5] [--temperature 0.5] [--augment]
       [--no-thumb] [--seed 0] [--holdout 10]

It reads the chunks of ``scripts/expert_dataset.py`` for the game and players in ``--data`` (all, or the first
``--chunks``), replays them for the rule of thumb's id at each row (the network's input after the observation,
unless ``--no-thumb``), holds out the deals whose index is a multiple of ``--holdout`` to choose the epoch, and
trains :class:`fly_rules.adapters.learned.Network` by Adam on minibatches: cross-entropy of the expert's id under
the softmax of the legal ids' logits, plus ``--soft`` times the cross-entropy of the softmax of the expert's values
(each row's over their spread, divided by ``--temperature``: how much better the expert found each choice), plus
``--value-weight`` times the squared error of the value against the seat's score change over the deal (divided by
the outcomes' standard deviation, the ``value_scale`` in the file). ``--augment`` adds every row again with the
suits the rules treat alike renamed (Dreyfus: its play rows). The backward pass is written out below
(:func:`loss_and_grads`; its test checks it against finite differences). The weights of the epoch with the best
held-out agreement with the expert are written, in half precision, with what they were trained on in ``meta``.

Everything random comes from ``--seed`` (the first weights and the order of the minibatches), and NumPy's matrix
products run on one thread, so the same chunks and arguments give the same file on the same machine.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: the machine is shared, and sums keep their order
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from fly_rules import registry
from fly_rules.actions import Exchange
from fly_rules.adapters.encoding import action_space, observation_layout, observation_size
from fly_rules.adapters.learned import LAYERS, Network, weights_file
from fly_rules.cards import ALL_CARDS, CardSet

sys.path.insert(0, str(Path(__file__).parent))  # run as a script or loaded by the tests: the dataset script beside it
from expert_dataset import read_chunk, thumb_ids

Params = list[Any]


def load_rows(folder: Path, game: str, players: int, *, thumb: bool = True, most: int | None = None) -> dict[str, Any]:
    """The rows of every chunk of ``game`` at ``players`` seats in ``folder``, in the chunks' name order, with
    ``inputs``: each row's observation followed (``thumb``) by the rule of thumb's id there, one-hot (replayed:
    ``expert_dataset.thumb_ids``). With ``most``, only the first ``most`` chunks by name (chunk numbers are
    zero-padded: the run's first chunks), so that a training can be repeated while the run goes on.

    Raises:
        SystemExit: no chunk there.
    """
    paths = sorted(folder.glob(f"{game}{players}-*.npz"))[:most]
    if not paths:
        raise SystemExit(
            f"no chunk of {game} with {players} players in {folder} (scripts/expert_dataset.py writes them)"
        )
    keys = ("obs", "mask", "action", "values", "outcome", "deal", "seat", "phase")
    parts: dict[str, list[Any]] = {key: [] for key in keys}
    runs = set()
    hints = []
    for path in paths:
        chunk = read_chunk(path)
        for key in keys:
            parts[key].append(chunk[key])
        if thumb:
            hints.append(thumb_ids(chunk))
        runs.add(path.name.rsplit("-", 1)[0])
    rows: dict[str, Any] = {key: np.concatenate(value) for key, value in parts.items()}
    rows["chunks"] = len(paths)
    rows["runs"] = sorted(runs)
    if thumb:
        rows["hint"] = np.concatenate(hints)
    return rows


ROW_KEYS = ("obs", "mask", "action", "values", "outcome", "deal", "seat", "phase", "hint")
"""The arrays of a row."""


def subset(rows: dict[str, Any], index: Any) -> dict[str, Any]:
    """The rows ``index`` (the row arrays alone)."""
    return {key: rows[key][index] for key in ROW_KEYS if key in rows}


def joined(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The rows of ``parts`` one after another."""
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def inputs_of(rows: dict[str, Any]) -> Any:
    """The network's inputs of the rows: the observation, then the hint one-hot if the rows have hints."""
    if "hint" not in rows:
        return rows["obs"]
    hint = rows["hint"]
    extra = np.zeros((len(hint), rows["mask"].shape[1]), np.float32)
    extra[np.flatnonzero(hint >= 0), hint[hint >= 0]] = 1.0
    return np.concatenate([rows["obs"], extra], axis=1)


SYMMETRIC_SUITS = {"fly": (0, 1, 2), "dreyfus": (0, 1, 2, 3)}
"""The suits (♣ ♦ ♥ ♠ = 0..3) each game's default rules treat alike: in Fly the A♠ is a card of its own [FLY-7]."""


def suit_maps(game: str) -> list[tuple[int, ...]]:
    """Every other way to relabel the game's interchangeable suits: ``m[s]`` the suit ``s`` becomes."""
    alike = SYMMETRIC_SUITS[game]
    out = []
    for order in itertools.permutations(alike):
        relabel = list(range(4))
        for suit, new in zip(alike, order, strict=True):
            relabel[suit] = new
        if relabel != list(range(4)):
            out.append(tuple(relabel))
    return out


def _relabel_action(action: Any, moved: Any) -> Any:
    """``action`` with its cards relabelled (``moved[c]``: what card ``c`` becomes)."""
    if isinstance(action, Exchange):
        return Exchange(CardSet(sum(1 << int(moved[card.index]) for card in action.cards)))
    card = getattr(action, "card", None)
    return action if card is None else type(action)(ALL_CARDS[int(moved[card.index])])


def relabelled(rows: dict[str, Any], rules: Any, relabel: tuple[int, ...]) -> dict[str, Any]:
    """The rows with their suits relabelled: the same decisions in a deal dealt with the suits renamed, where the
    rules treat those suits alike. The observation's card parts (52 slots) and its contract (Dreyfus: 5 slots,
    ♣ ♦ ♥ ♠ then no trump) are relabelled; so are the ids, the mask and the hint, through the action space (an
    exchange by hand positions names other positions once the suits are renamed). A game that marks its discards
    card by card in ascending order keeps only its play rows: renamed, the marks would go in another order."""
    cards = np.arange(52)
    moved = np.array([relabel[c // 13] * 13 + c % 13 for c in cards])
    source = np.arange(rows["obs"].shape[1])
    at = 0
    for part in observation_layout(rules):
        for _ in range(rules.players if part.per_seat else 1):
            if part.width == 52:
                source[at + moved] = at + cards
            elif part.name == "contract":
                source[at + np.array(relabel)] = at + np.arange(4)
            at += part.width
    space = action_space(rules.game)
    kept = np.flatnonzero(rows["phase"] == 1) if space.marks else np.arange(len(rows["action"]))
    out = subset(rows, kept)
    out["obs"] = out["obs"][:, source]
    mask = np.zeros_like(out["mask"])
    values = np.full_like(out["values"], np.nan)
    hand_at = sum(
        part.width * (rules.players if part.per_seat else 1)
        for part in itertools.takewhile(lambda part: part.name != "hand", observation_layout(rules))
    )
    for k in range(len(kept)):
        hand = int(sum(1 << int(c) for c in np.flatnonzero(rows["obs"][kept[k], hand_at : hand_at + 52])))
        new_hand = int(sum(1 << int(moved[c]) for c in range(52) if hand >> c & 1))
        ids = {
            int(i): space.id_of(new_hand, _relabel_action(space.action_of(hand, int(i)), moved))
            for i in np.flatnonzero(out["mask"][k])
        }
        mask[k, list(ids.values())] = True
        values[k, list(ids.values())] = out["values"][k, list(ids)]
        out["action"][k] = ids[int(out["action"][k])]
        if "hint" in out:
            out["hint"][k] = ids.get(int(out["hint"][k]), -1)
    out["mask"] = mask
    out["values"] = values
    return out


def soft_targets(rows: dict[str, Any], weight: float, temperature: float) -> Any:
    """Per row, ``weight`` × the softmax of the expert's values (each row's values over their spread, divided by
    ``temperature``) over the ids it valued; rows it valued fewer than two ids of get none."""
    values = rows["values"]
    valued = ~np.isnan(values)
    count = valued.sum(axis=1, keepdims=True)
    filled = np.where(valued, values, 0.0)
    mean = filled.sum(axis=1, keepdims=True) / np.maximum(count, 1)
    spread = np.sqrt(np.where(valued, (filled - mean) ** 2, 0.0).sum(axis=1, keepdims=True) / np.maximum(count, 1))
    z = np.where(valued, (filled - mean) / np.maximum(spread, 1e-9) / temperature, -np.inf)
    z = z - np.where(count > 0, np.max(np.where(valued, z, -np.inf), axis=1, keepdims=True), 0.0)
    exp = np.where(valued, np.exp(np.where(valued, z, 0.0)), 0.0)
    total = exp.sum(axis=1, keepdims=True)
    soft = np.where(count >= 2, weight * exp / np.maximum(total, 1e-30), 0.0)
    return soft.astype(np.float32)


def initial(inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> Params:
    """He-initialised weights, zero biases, in the order of ``LAYERS``."""

    def he(rows: int, cols: int) -> Any:
        return (rng.standard_normal((rows, cols)) * np.sqrt(2.0 / rows)).astype(np.float32)

    return [
        he(inputs, hidden),
        np.zeros(hidden, np.float32),
        he(hidden, hidden),
        np.zeros(hidden, np.float32),
        (he(hidden, actions) * 0.1).astype(np.float32),
        np.zeros(actions, np.float32),
        (he(hidden, 1) * 0.1).astype(np.float32),
        np.zeros(1, np.float32),
    ]


def loss_and_grads(
    params: Params, obs: Any, mask: Any, action: Any, target: Any, value_weight: float, soft: Any = None
) -> Any:
    """The minibatch's mean loss (policy cross-entropy + ``value_weight`` × value squared error, + the
    cross-entropy of the ``soft`` targets where given: rows × ids, each row summing to its weight), its gradient
    for each of ``params``, and how many rows the legal logit of highest value agrees with ``action``."""
    w0, b0, w1, b1, wp, bp, wv, bv = params
    rows = len(action)
    z0 = obs @ w0 + b0
    h0 = np.maximum(z0, 0.0)
    z1 = h0 @ w1 + b1
    h1 = np.maximum(z1, 0.0)
    logits = np.where(mask, h1 @ wp + bp, -1e9)
    value = (h1 @ wv + bv)[:, 0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted) * mask
    total = exp.sum(axis=1, keepdims=True)
    probs = exp / total
    picked = np.arange(rows), action
    log_probs = np.where(mask, shifted - np.log(total), 0.0)
    policy_loss = float(np.mean(-log_probs[picked]))
    error = value - target
    loss = policy_loss + value_weight * float(np.mean(error**2))
    d_logits = probs.copy()
    d_logits[picked] -= 1.0
    if soft is not None:
        weight = soft.sum(axis=1, keepdims=True)
        loss -= float(np.sum(soft * log_probs)) / rows
        d_logits += probs * weight - soft
    d_logits /= rows
    d_value = (2.0 * value_weight / rows) * error[:, None]
    d_h1 = (d_logits @ wp.T + d_value @ wv.T) * (z1 > 0)
    d_h0 = (d_h1 @ w1.T) * (z0 > 0)
    grads = [
        obs.T @ d_h0,
        d_h0.sum(axis=0),
        h0.T @ d_h1,
        d_h1.sum(axis=0),
        h1.T @ d_logits,
        d_logits.sum(axis=0),
        h1.T @ d_value,
        d_value.sum(axis=0),
    ]
    agree = int(np.sum(np.argmax(logits, axis=1) == action))
    return loss, [g.astype(np.float32) for g in grads], agree


class Adam:
    """Adam over a list of arrays, updated in place."""

    def __init__(self, params: Params, lr: float, decay: float = 1e-5) -> None:
        self.params, self.lr, self.decay = params, lr, decay
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: Params) -> None:
        """One update from ``grads`` (with decoupled weight decay on the matrices)."""
        self.t += 1
        b1, b2 = 0.9, 0.999
        for i, grad in enumerate(grads):
            self.m[i] *= b1
            self.m[i] += (1 - b1) * grad
            self.v[i] *= b2
            self.v[i] += (1 - b2) * grad * grad
            step = self.lr * (self.m[i] / (1 - b1**self.t)) / (np.sqrt(self.v[i] / (1 - b2**self.t)) + 1e-8)
            if self.params[i].ndim == 2:
                self.params[i] -= self.lr * self.decay * self.params[i]
            self.params[i] -= step.astype(np.float32)


def evaluate(params: Params, rows: dict[str, Any], scale: float) -> tuple[float, float]:
    """Agreement with the expert and the value's mean squared error (in score units) over ``rows``."""
    if not len(rows["action"]):
        return float("nan"), float("nan")
    network = Network(dict(zip(LAYERS, params, strict=True)), _sizes(rows))
    logits, value = network.forward(inputs_of(rows))
    logits = np.where(rows["mask"], logits, -np.inf)
    agree = float(np.mean(np.argmax(logits, axis=1) == rows["action"]))
    error = float(np.mean((value * scale - rows["outcome"]) ** 2))
    return agree, error


def _sizes(rows: dict[str, Any]) -> dict[str, Any]:
    return {"observation_size": rows["obs"].shape[1], "actions": rows["mask"].shape[1], "thumb": "hint" in rows}


def train(
    args: argparse.Namespace, rows: dict[str, Any], rules: Any, log: Any = print
) -> tuple[Network, dict[str, Any]]:
    """Train on ``rows`` as the arguments say (with ``--augment``, the play rows also with their suits relabelled
    every other way the rules allow); the network of the best held-out epoch, and its figures."""
    rng = np.random.default_rng(args.seed)
    held = rows["deal"] % args.holdout == 0 if args.holdout else np.zeros(len(rows["deal"]), np.bool_)
    fit, check = subset(rows, ~held), subset(rows, held)
    if not len(fit["action"]):
        raise SystemExit("every row is held out: more deals, or a larger --holdout")
    seen = fit
    if args.augment:
        fit = joined([fit, *(relabelled(fit, rules, relabel) for relabel in suit_maps(rules.game))])
    scale = float(np.std(fit["outcome"])) or 1.0
    inputs = inputs_of(fit)
    target = (fit["outcome"] / scale).astype(np.float32)
    soft = soft_targets(fit, args.soft, args.temperature) if args.soft else None
    params = initial(inputs.shape[1], args.hidden, fit["mask"].shape[1], rng)
    adam = Adam(params, args.lr, args.decay)
    best: tuple[float, int, Params] = (-1.0, 0, [p.copy() for p in params])
    count = len(target)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(count)
        losses, agreed = [], 0
        for start in range(0, count, args.batch):
            batch = np.sort(order[start : start + args.batch])
            loss, grads, agree = loss_and_grads(
                params,
                inputs[batch],
                fit["mask"][batch],
                fit["action"][batch],
                target[batch],
                args.value_weight,
                None if soft is None else soft[batch],
            )
            adam.step(grads)
            losses.append(loss)
            agreed += agree
        held_agree, held_error = evaluate(params, check, scale)
        score = held_agree if len(check["action"]) else agreed / count
        if score > best[0]:
            best = (score, epoch, [p.copy() for p in params])
        log(
            f"epoch {epoch:3d}: loss {np.mean(losses):.4f}, agrees {agreed / count:.3f} "
            f"(held out {held_agree:.3f}, value error {held_error:.2f})"
        )
    _, epoch, kept = best
    held_agree, held_error = evaluate(kept, check, scale)
    held_rows = len(check["action"])
    figures = {
        "epoch": epoch,
        "held_out_rows": held_rows,
        "held_out_agreement": held_agree if held_rows else None,
        "held_out_value_mse": held_error if held_rows else None,
        "training_rows": len(seen["action"]),
        "training_rows_augmented": count,
        "training_agreement": evaluate(kept, seen, scale)[0],
        "held_out_thumb_agreement": float(np.mean(check["hint"] == check["action"]))
        if "hint" in check and held_rows
        else None,
    }
    return Network(dict(zip(LAYERS, kept, strict=True)), {**_sizes(fit), "value_scale": scale}), figures


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fly", choices=registry.games())
    parser.add_argument("--players", type=int, default=None, help="default: the game's (4 for Fly)")
    parser.add_argument("--data", type=Path, default=Path("/work/datasets/expert"))
    parser.add_argument("--chunks", type=int, default=None, help="only the first this many chunks (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="default: the shipped file of the game and players")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--decay", type=float, default=0.01, help="decoupled weight decay of the matrices (AdamW)")
    parser.add_argument("--value-weight", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-thumb", action="store_true", help="the observation alone, without the rule of thumb's id")
    parser.add_argument("--soft", type=float, default=0.0, help="weight of the expert's values as soft targets")
    parser.add_argument("--temperature", type=float, default=0.5, help="of the soft targets (values over their spread)")
    parser.add_argument("--augment", action="store_true", help="also the play rows with their suits relabelled")
    parser.add_argument("--holdout", type=int, default=10, help="hold out deals whose index is a multiple of this")
    return parser


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train and write the network; what its ``meta`` says."""
    args = _parser().parse_args(argv)
    if args.hidden < 1 or args.epochs < 1 or args.batch < 1 or args.lr <= 0 or args.holdout < 0:
        raise SystemExit("--hidden, --epochs and --batch must be at least 1, --lr above 0, --holdout at least 0")
    rules = registry.get(args.game).make_rules("default", args.players, {})
    began = time.process_time()
    rows = load_rows(args.data, args.game, rules.players, thumb=not args.no_thumb, most=args.chunks)
    if rows["obs"].shape[1] != observation_size(rules) or rows["mask"].shape[1] != action_space(args.game).size:
        raise SystemExit(f"the chunks in {args.data} are of another observation layout or action space")
    network, figures = train(args, rows, rules)
    network.meta.update(
        {
            "game": args.game,
            "players": rules.players,
            "hidden": args.hidden,
            "trained_on": {
                "runs": rows["runs"],
                "chunks": rows["chunks"],
                "rows": len(rows["action"]),
            },
            "training": {
                "command": " ".join(["python scripts/train_learned.py", *(argv if argv is not None else sys.argv[1:])]),
                "seed": args.seed,
                "epochs": args.epochs,
                "batch": args.batch,
                "lr": args.lr,
                "value_weight": args.value_weight,
                "decay": args.decay,
                "augment": args.augment,
                "soft": args.soft,
                "temperature": args.temperature,
                "holdout": args.holdout,
                **figures,
            },
        }
    )
    out = args.out if args.out is not None else weights_file(args.game, rules.players)
    out.parent.mkdir(parents=True, exist_ok=True)
    network.save(out)
    held = figures["held_out_agreement"]
    print(
        f"{out}: {out.stat().st_size:,} bytes; agrees with the expert on {figures['training_agreement']:.3f} of the "
        f"{figures['training_rows']:,} rows trained on and {'-' if held is None else f'{held:.3f}'} of "
        f"{figures['held_out_rows']:,} held out (epoch {figures['epoch']}; the rule of thumb: "
        f"{figures['held_out_thumb_agreement']}); {time.process_time() - began:.1f} CPU s"
    )
    return network.meta


if __name__ == "__main__":
    main(sys.argv[1:])
