"""The learned player: a small network trained on the expert's decisions, evaluated with NumPy alone (issue 49).

A :class:`Network` reads one seat's observation in the library's one layout
(:func:`~fly_rules.adapters.encoding.write_observation`, ``relative=True``: the seat's own blocks first, so one
network plays every seat), followed, where its ``meta`` says ``thumb``, by the id the rule-of-thumb bot would take
there as one-hot over the action ids (:func:`thumb_id`: a strong hint the network learns when to overrule), through
two ReLU layers into a logit per action id of the game's space (:func:`~fly_rules.adapters.encoding.action_space`)
and a value: the seat's score change over the deal, divided by the ``value_scale`` its file names. Its weights
are a small ``.npz`` file shipped in the package, one per game and number of players (:func:`shipped_network`),
made by ``scripts/train_learned.py`` from the chunks of ``scripts/expert_dataset.py``; the file's ``meta`` says
what it was trained on and how.

:class:`LearnedBot` (``learned`` in :data:`~fly_rules.bots.arena.BOTS`) plays the legal id with the highest logit,
but folds only where the network rates folding more likely than playing on (:meth:`Network.choose`). It
sees only the view and the legal actions, and takes nothing from ``rng``: the same view gives the same action
(the rule of thumb's hint is asked with ``random.Random(0)``, as the expert asks its model). A
choice made in several ids (Dreyfus's discard, card by card [DRF-4.3]) is made id by id, each mark shown to the
network in the observation's marked cards, until the exchange. For rules no shipped network was trained for (other
numbers of players), the bot plays the game's rule of thumb, and says so (:attr:`LearnedBot.network` is None).

NumPy is optional here: without it (the browser table's Pyodide) the bot reads the same file into lists and runs
:class:`PlainNetwork`, the same forward pass in plain Python (a few milliseconds a decision). With it,
:func:`batch_ids` plays a network for thousands of games of the batch engine at once: the vector environment's
``"learned"`` opponents (:mod:`fly_rules.adapters.gymnasium`), or any :class:`Network` trained on the same inputs.

>>> import random
>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=4), seed=3, dealer=0)
>>> bot = LearnedBot(match.rules)
>>> bot.network is not None, bot.choose(match.view(1), match.legal_actions(), random.Random(0)) in match.legal_actions()
(True, True)
"""

from __future__ import annotations

import ast
import functools
import json
import math
import random
import struct
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from fly_rules import registry
from fly_rules.actions import Action, Exchange, Fold
from fly_rules.adapters.encoding import ActionSpace, action_space, observation_size, write_observation
from fly_rules.engine.protocols import Rules, SeatView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from fly_rules.batch import BatchEngine, BatchState

    Floats = npt.NDArray[np.float32]
else:
    try:
        import numpy as np
    except ModuleNotFoundError:  # the browser table's Pyodide: PlainNetwork plays
        np = None

__all__ = [
    "LAYERS",
    "WEIGHTS",
    "LearnedBot",
    "Network",
    "PlainNetwork",
    "batch_ids",
    "input_size",
    "shipped_network",
    "thumb_id",
    "weights_file",
]

WEIGHTS: Final = Path(__file__).with_name("weights")
"""The folder of the shipped networks' files."""
LAYERS: Final = ("w0", "b0", "w1", "b1", "wp", "bp", "wv", "bv")
"""The arrays of a network's file, in order: two hidden layers, the policy head, the value head."""


class Network:
    """A policy and value network: observation → ReLU → ReLU → one logit per action id, and a value.

    Args:
        arrays: the weights by the names of :data:`LAYERS` (any float type; kept as float32).
        meta: what the file says of itself: at least ``observation_size`` and ``actions``, and ``thumb`` if the
            rule of thumb's id follows the observation in the input.

    Raises:
        ValueError: weights whose shapes do not chain, or do not match ``meta``'s sizes.
    """

    def __init__(self, arrays: Mapping[str, npt.ArrayLike], meta: dict[str, Any]) -> None:
        missing = [name for name in LAYERS if name not in arrays]
        if missing:
            raise ValueError(f"the network has no {', '.join(missing)}")
        self.layers = [np.asarray(arrays[name], np.float32) for name in LAYERS]
        self.meta = meta
        """What the file says of itself: the game, its sizes, and what it was trained on."""
        w0, b0, w1, b1, wp, bp, wv, bv = self.layers
        sizes = (input_size(meta), meta["actions"])
        if (
            (w0.shape[0], wp.shape[1]) != sizes
            or not w0.shape[1] == b0.shape[0] == w1.shape[0]
            or w1.shape[1] != b1.shape[0]
            or wp.shape[0] != w1.shape[1]
            or bp.shape != (wp.shape[1],)
            or wv.shape != (w1.shape[1], 1)
            or bv.shape != (1,)
        ):
            shapes = ", ".join(f"{name} {layer.shape}" for name, layer in zip(LAYERS, self.layers, strict=True))
            raise ValueError(f"the network's weights ({shapes}) do not chain from {sizes[0]} inputs to {sizes[1]} ids")

    @classmethod
    def load(cls, path: Path) -> Network:
        """The network of a file written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in LAYERS if name in data.files}
            meta = json.loads(str(data["meta"]))
        return cls(arrays, meta)

    def save(self, path: Path, dtype: npt.DTypeLike = "float16") -> None:
        """Write the network (weights as ``dtype``, half precision by default: half the size) and its ``meta``."""
        arrays: dict[str, Any] = {name: layer.astype(dtype) for name, layer in zip(LAYERS, self.layers, strict=True)}
        with path.open("wb") as handle:
            np.savez_compressed(handle, meta=np.array(json.dumps(self.meta, sort_keys=True)), **arrays)

    def forward(self, inputs: Floats) -> tuple[Floats, Floats]:
        """The logits (rows × ids) and values (rows) of a batch of inputs (rows × :func:`input_size`)."""
        w0, b0, w1, b1, wp, bp, wv, bv = self.layers
        hidden = np.maximum(inputs @ w0 + b0, 0.0)
        hidden = np.maximum(hidden @ w1 + b1, 0.0)
        return hidden @ wp + bp, (hidden @ wv + bv)[:, 0]

    def best(self, inputs: Floats, legal: Sequence[int]) -> int:
        """The legal id the network chooses for one input, as :meth:`choose` chooses (the first of equals)."""
        logits = self.forward(inputs[None, :])[0][0]
        return _declared(list(legal), [float(logits[i]) for i in legal], _fold_id(self.meta.get("game")))

    def hidden(self, observations: Floats, hints: npt.ArrayLike | None = None) -> Floats:
        """The last hidden layer of a batch of observations (rows × ``observation_size``) and, if the network reads
        the rule of thumb's id, ``hints`` (one id per row, -1 for none): its one-hot input is a row of the first
        layer's weights, added instead of multiplied."""
        w0, b0, w1, b1 = self.layers[:4]
        size = self.meta["observation_size"]
        first = observations @ w0[:size] + b0
        if self.meta.get("thumb"):
            hinted = np.asarray(hints) >= 0
            first[hinted] += w0[size + np.asarray(hints)[hinted]]
        second: Floats = np.maximum(np.maximum(first, 0.0) @ w1 + b1, 0.0)
        return second

    def choose(self, observations: Floats, hints: npt.ArrayLike | None, masks: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """The id of highest logit among each row's legal ones (``masks``: rows × ids, booleans; the first of
        equals), for a batch of observations and the rule of thumb's ids (see :meth:`hidden`), except a fold: where
        the game has one (Fly [FLY-5.1]), the network folds only if it gives folding more than half the probability
        of the legal ids (the softmax of their logits), and plays its best other id otherwise. Folding is one id,
        playing on many (standing and 31 exchanges), so the fold's logit can top each of theirs while the network
        rates playing more likely in all; the declaration is then whether to play, then how, as the rules' fold
        round has it [FLY-4.1]."""
        _, _, _, _, wp, bp, _, _ = self.layers
        logits = np.where(masks, self.hidden(observations, hints) @ wp + bp, -np.inf)
        chosen: npt.NDArray[np.intp] = logits.argmax(axis=1)
        fold = _fold_id(self.meta.get("game"))
        if fold is None:
            return chosen
        rows = np.flatnonzero(chosen == fold)  # only a fold can give way: to a play the network rates more likely
        others = logits[rows].copy()
        others[:, fold] = -np.inf
        best = others.argmax(axis=1)
        top = others[np.arange(len(rows)), best]
        with np.errstate(divide="ignore", invalid="ignore"):  # rows with no other legal id: -inf, kept a fold
            playing = top + np.log(np.exp(others - top[:, None]).sum(axis=1))  # log-sum-exp of the other ids
        plays = playing >= logits[rows, fold]
        chosen[rows[plays]] = best[plays]
        return chosen

    def copy(self) -> Network:
        """A copy that no later change to this network's weights reaches (a frozen opponent)."""
        return Network({name: layer.copy() for name, layer in zip(LAYERS, self.layers, strict=True)}, dict(self.meta))


def _read_npy(data: bytes) -> tuple[tuple[int, ...], list[Any]]:
    """The shape and values (row-major) of a little-endian ``.npy`` file of floats or a 0-d string."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy file")
    wide = data[6] != 1  # version 1 has a 2-byte header length, later versions 4
    start = 12 if wide else 10
    (length,) = struct.unpack("<I" if wide else "<H", data[8:start])
    header = ast.literal_eval(data[start : start + length].decode("latin1"))
    body, shape, descr = data[start + length :], tuple(header["shape"]), header["descr"]
    if header["fortran_order"]:
        raise ValueError("a .npy file in Fortran order")
    if descr.startswith("<U"):
        return shape, [body.decode("utf-32-le").rstrip("\0")]
    formats = {"<f2": "e", "<f4": "f", "<f8": "d"}
    if descr not in formats:
        raise ValueError(f"a .npy file of {descr}, not of floats")
    return shape, list(struct.unpack(f"<{len(body) // int(descr[2:])}{formats[descr]}", body))


class PlainNetwork:
    """The same network as :class:`Network`, read from the same file into lists and run in plain Python (where
    NumPy is absent: the browser table's engine). Its first layer adds the weight rows of the inputs that are not
    zero (an observation is mostly zeros), and its policy head is worked out for the legal ids alone.

    Args:
        path: a file written by :meth:`Network.save`.

    Raises:
        ValueError: a file without the arrays of :data:`LAYERS`, or whose shapes do not chain.
    """

    def __init__(self, path: Path) -> None:
        arrays: dict[str, tuple[tuple[int, ...], list[Any]]] = {}
        with zipfile.ZipFile(path) as archive:
            for name in (*LAYERS, "meta"):
                try:
                    arrays[name] = _read_npy(archive.read(f"{name}.npy"))
                except KeyError:
                    raise ValueError(f"{path.name}: the network has no {name}") from None
        self.meta: dict[str, Any] = json.loads(arrays["meta"][1][0])
        """What the file says of itself (as :attr:`Network.meta`)."""
        (inputs, width), w0 = arrays["w0"]
        (_, width1), w1 = arrays["w1"]
        actions = arrays["wp"][0][1]
        if (inputs, actions) != (input_size(self.meta), self.meta["actions"]) or arrays["w1"][0][0] != width:
            raise ValueError(f"{path.name}: the network's weights do not chain from {inputs} inputs to {actions} ids")
        self.w0 = [w0[row * width : (row + 1) * width] for row in range(inputs)]
        """The first layer's weights, a list per input."""
        self.w1 = [w1[row * width1 : (row + 1) * width1] for row in range(width)]
        """The second layer's weights, a list per unit of the first."""
        wp = arrays["wp"][1]
        self.wp = [wp[action::actions] for action in range(actions)]
        """The policy head's weights, a list per action id."""
        self.b0, self.b1, self.bp = arrays["b0"][1], arrays["b1"][1], arrays["bp"][1]

    def best(self, observation: Sequence[float], hint: int | None, legal: Sequence[int]) -> int:
        """The legal id the network chooses (as :meth:`Network.choose`) for one observation and the rule of thumb's
        id."""
        rows = [(value, self.w0[slot]) for slot, value in enumerate(observation) if value]
        if hint is not None and self.meta.get("thumb"):
            rows.append((1.0, self.w0[len(observation) + hint]))
        first = list(self.b0)
        for value, row in rows:
            first = [total + value * weight for total, weight in zip(first, row, strict=True)]
        second = list(self.b1)
        for unit, value in enumerate(first):
            if value > 0.0:
                second = [total + value * weight for total, weight in zip(second, self.w1[unit], strict=True)]
        active = [(unit, value) for unit, value in enumerate(second) if value > 0.0]
        logits = [self.bp[action] + sum(value * self.wp[action][unit] for unit, value in active) for action in legal]
        return _declared(list(legal), logits, _fold_id(self.meta.get("game")))


@functools.lru_cache(maxsize=8)
def _fold_id(game: str | None) -> int | None:
    """The id of ``Fold()`` in ``game``'s action space, or None: a game without one, or a network that names none."""
    if game is None:
        return None
    try:
        return action_space(game).id_of(0, Fold())
    except (KeyError, ValueError):
        return None


def _declared(legal: list[int], logits: list[float], fold: int | None) -> int:
    """The choice among ``legal`` (their ``logits``, in order): the id of highest logit (the first of equals), but a
    fold only if the network gives it more than half the probability of the legal ids (as :meth:`Network.choose`)."""
    best = legal[logits.index(max(logits))]
    if best != fold:
        return best
    others = [(logit, action) for action, logit in zip(legal, logits, strict=True) if action != fold]
    if not others:
        return best
    top = max(logit for logit, _ in others)
    playing = top + math.log(sum(math.exp(logit - top) for logit, _ in others))
    return best if logits[legal.index(fold)] > playing else next(a for logit, a in others if logit == top)


def input_size(meta: dict[str, Any]) -> int:
    """The floats a network of ``meta`` reads: the observation, then the rule of thumb's id if ``thumb``."""
    size: int = meta["observation_size"] + (meta["actions"] if meta.get("thumb") else 0)
    return size


def thumb_id(space: ActionSpace[Any], position: Any, action: Any, marked: int) -> int | None:
    """The id that takes the rule of thumb's ``action`` (its choice at the decision) from the marks ``marked`` in
    ``position``, or None if its action does not go on from them (another exchange was begun)."""
    if marked and not isinstance(action, Exchange):
        return None
    try:
        return space.ids(position, action, marked)[0]
    except ValueError:
        return None


def weights_file(game: str, players: int) -> Path:
    """The shipped network's file for ``game`` at ``players`` seats (it may not exist)."""
    return WEIGHTS / f"{game}{players}.npz"


@functools.lru_cache(maxsize=16)
def _shipped(game: str, players: int, inputs: int, actions: int) -> Network | PlainNetwork | None:
    path = weights_file(game, players)
    if not path.exists():
        return None
    network = Network.load(path) if np is not None else PlainNetwork(path)
    return network if (network.meta["observation_size"], network.meta["actions"]) == (inputs, actions) else None


def shipped_network(rules: Rules) -> Any:  # Any: a Network where NumPy is, else a PlainNetwork
    """The shipped network for the game and number of players of ``rules`` (a :class:`Network`, or without NumPy a
    :class:`PlainNetwork`), or None if none was trained for them (or the game's observation or action ids have
    changed since it was)."""
    return _shipped(rules.game, rules.players, observation_size(rules), action_space(rules.game).size)


class _Position:
    """What a seat's view and legal actions tell of the position, as the action space reads a deal: its legal ids
    and what an id does there (:class:`~fly_rules.adapters.encoding.ActionSpace` asks no more)."""

    def __init__(self, view: Any, legal_actions: Sequence[Any], rules: Any) -> None:
        self.rules = rules
        self.game = view.game
        self.phase = view.phase
        self.to_move = view.seat
        self.hand_masks = tuple(view.hand.mask if seat == view.seat else 0 for seat in range(rules.players))
        self._legal = legal_actions

    def legal_actions(self) -> Sequence[Any]:
        """The legal actions the bot was given."""
        return self._legal


class LearnedBot:
    """Plays the shipped network's choice (see the module's text).

    Args:
        rules: the rules of the game played.
        network: the network to play (default: the shipped one for the rules' game and players, if any).
    """

    name = "learned"
    """The bot's name in tables."""

    def __init__(self, rules: Rules, network: Network | PlainNetwork | None = None) -> None:
        self.rules = rules
        self.network = network if network is not None else shipped_network(rules)
        """The network played; None: none was trained for these rules, and the bot plays the rule of thumb."""
        if self.network is not None and self.network.meta["observation_size"] != observation_size(rules):
            raise ValueError(
                f"the network reads observations of {self.network.meta['observation_size']} floats; "
                f"{rules.game} with {rules.players} players has {observation_size(rules)}"
            )
        self.space = action_space(rules.game)
        self.fallback = registry.game_of(rules).rule_of_thumb(rules.rank_order)
        """The game's rule of thumb: the network's hint, and the bot's player where there is no network."""
        self._size = observation_size(rules)

    def choose(self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random) -> Any:
        """The legal action the network rates highest, a fold only if more likely than playing on
        (:meth:`Network.choose`; ``rng`` unused: the choice is the view's alone)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.network is None:
            return self.fallback.choose(view, legal_actions, rng)
        # legal_ids reads of a deal only what _Position has: the seat to move, its hand, the phase, the legal actions
        position: Any = _Position(view, legal_actions, self.rules)
        thumb = self.fallback.choose(view, legal_actions, random.Random(0)) if self.network.meta.get("thumb") else None
        marked = 0
        while True:
            hint = None if thumb is None else thumb_id(self.space, position, thumb, marked)
            chosen = self._best(view, marked, hint, self.space.legal_ids(position, marked))
            meaning = self.space.meaning(position, marked, chosen)
            if meaning.kind != "mark":
                break
            marked = meaning.cards
        action = meaning.action
        if action not in legal_actions:  # the action space gives only legal ids: a broken invariant, not a choice
            raise AssertionError(f"the learned bot chose {action!r}, not among the legal actions")
        return action

    def _best(self, view: Any, marked: int, hint: int | None, legal: list[int]) -> int:
        """The network's id among ``legal`` for the seat of ``view`` with ``marked`` cards marked."""
        if isinstance(self.network, PlainNetwork):
            plain = [0.0] * self._size
            write_observation(view, marked, self.rules, plain, relative=True)
            return self.network.best(plain, hint, legal)
        assert self.network is not None
        observation = np.zeros((1, self._size), np.float32)
        write_observation(view, marked, self.rules, observation[0], relative=True)
        mask = np.zeros((1, self.network.meta["actions"]), bool)
        mask[0, legal] = True
        return int(self.network.choose(observation, [-1 if hint is None else hint], mask)[0])


def batch_ids(
    network: Network | None, engine: BatchEngine, state: BatchState, seats: npt.ArrayLike, games: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """The ids ``network`` plays for the seats to move (``seats``, one per game) in the games of the ``bool[B]``
    mask ``games`` of a batch engine's ``state`` (:mod:`fly_rules.batch`), every game at once: the same choices
    as a :class:`LearnedBot` of the network from the same views. None: the shipped network of the engine's rules,
    or the rule of thumb where there is none (as the bot plays)."""
    if network is None:
        network = shipped_network(engine.rules)
        if network is None:
            return engine.rule_of_thumb(state, games)[games]
    observations = engine.observe(state, seats, relative=True, games=games)
    hints = engine.thumb_hint(state, games)[games] if network.meta.get("thumb") else None
    return network.choose(observations, hints, state.legal_action_mask[games])
