"""A dataset of the expert's decisions (issue 49): deals played with the expert, each of its decisions recorded.

Usage: python scripts/expert_dataset.py --game fly|dreyfus [--players N] [--seed S] [--seats one|all]
       [--deals-per-chunk 50] [--chunks 100] [--first-chunk 0] [--out DIR] [--workers 1]

Deal ``i`` of a run is dealt as ``benchmarks/strength.py`` deals it (``fly_rules.bots.paired.play_table``): a new
match shuffled from ``"SEED:i"`` with seat ``i % players`` dealing, every seat's bot drawing from
``random.Random("SEED:i:SEAT")``. With ``--seats one`` the expert sits at the rotating seat of the paired deals
(``seat_under_test``) and the rule of thumb at the others, the table the learned bot is measured at; with
``--seats all`` the expert sits everywhere. Each decision of an expert seat with more than one legal id is one row:

- ``obs`` (float32, rows × ``observation_size``): the seat's observation in the library's one layout
  (``fly_rules.adapters.encoding.write_observation``, ``relative=True``: the seat's own blocks first), with the
  cards it has marked so far (Dreyfus's exchange is chosen card by card, one row per id);
- ``mask`` (bool, rows × action ids): the legal ids (``legal_mask``); ``action`` (int16): the expert's id;
- ``values`` (float32, rows × action ids): the expert's mean value of each id it searched, NaN elsewhere (an id
  that begins several exchanges has the best of theirs), in the expert's own units: in Fly the change of the seat's
  chance of winning the match to the deal's end (it plays for the match there), in Dreyfus record points;
- ``outcome`` (float32): the seat's score change over the deal (as ``paired.play_table`` counts it);
- ``deal``, ``seat``, ``phase`` (the index in ``PHASES``), ``marked`` (the marks as a 64-bit mask).

Chunk ``k`` holds deals ``k * D .. (k + 1) * D - 1`` (``D`` = ``--deals-per-chunk``) in one ``.npz`` file named by
the game, players, seats, seed, chunk size, the expert's samples if given, and index, written to a temporary file
and renamed, so a file that is there is whole. A run skips the chunks already written: stopped at any moment and
started again with the same arguments, it goes on where it stopped and writes the same files an uninterrupted run
would.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from fly_rules import registry
from fly_rules.actions import Exchange
from fly_rules.adapters.encoding import (
    PHASES,
    action_space,
    legal_mask,
    observation_size,
    write_observation,
)
from fly_rules.adapters.learned import thumb_id
from fly_rules.bots import ExpertBot, make_bot
from fly_rules.bots.paired import seat_under_test
from fly_rules.notation.games import deal_of

FORMAT = 1
"""The version of the chunk layout (in each chunk's ``meta``)."""


class Run(NamedTuple):
    """What names a run: its chunks are the same files whenever and however they are played."""

    game: str
    players: int | None
    seed: str
    seats: str
    deals_per_chunk: int
    samples: int | None = None
    """The expert's guessed deals per decision (None: the game's own)."""


def chunk_name(run: Run, players: int, index: int) -> str:
    """The file name of chunk ``index`` of ``run``."""
    samples = "" if run.samples is None else f"-s{run.samples}"
    return f"{run.game}{players}-{run.seats}-{run.seed}-d{run.deals_per_chunk}{samples}-{index:05d}.npz"


def _id_values(space: Any, deal: Any, marked: int, values: dict[Any, float]) -> dict[int, float]:
    """The expert's values by action id from ``marked``: each id the best value of the actions it begins."""
    out: dict[int, float] = {}
    for action, value in values.items():
        if marked and type(action) is not Exchange:
            continue  # a stand or play is no longer open once cards are marked
        try:
            first = space.ids(deal, action, marked)[0]
        except ValueError:
            continue  # an exchange the marks made so far do not begin
        out[first] = max(value, out.get(first, -np.inf))
    return out


class _Rows:
    """The rows of one chunk as they are recorded."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.size = observation_size(rules)
        self.ids = action_space(rules.game).size
        self.columns: dict[str, list[Any]] = {
            k: [] for k in ("obs", "mask", "action", "values", "deal", "seat", "phase", "marked")
        }
        self.outcome: list[float] = []

    def add(self, deal: Any, marked: int, action_id: int, values: dict[int, float], index: int) -> None:
        seat = deal.to_move
        obs = np.zeros(self.size, np.float32)
        write_observation(deal.view(seat), marked, self.rules, obs, relative=True)
        row = np.full(self.ids, np.nan, np.float32)
        for key, value in values.items():
            row[key] = value
        found: tuple[tuple[str, Any], ...] = (
            ("obs", obs),
            ("mask", legal_mask(deal, marked)),
            ("action", action_id),
            ("values", row),
            ("deal", index),
            ("seat", seat),
            ("phase", PHASES.index(deal.phase)),
            ("marked", marked),
        )
        for name, column in found:
            self.columns[name].append(column)

    def arrays(self) -> dict[str, Any]:
        c = self.columns
        n = len(c["action"])
        return {
            "obs": np.array(c["obs"], np.float32).reshape(n, self.size),
            "mask": np.array(c["mask"], np.bool_).reshape(n, self.ids),
            "action": np.array(c["action"], np.int16),
            "values": np.array(c["values"], np.float32).reshape(n, self.ids),
            "outcome": np.array(self.outcome, np.float32),
            "deal": np.array(c["deal"], np.int32),
            "seat": np.array(c["seat"], np.int8),
            "phase": np.array(c["phase"], np.int8),
            "marked": np.array(c["marked"], np.uint64),
        }


def play_deal(rules: Any, seed: str, index: int, seats: str, expert: ExpertBot, rows: _Rows) -> None:
    """Deal ``index`` of the run ``seed``, the expert's decisions recorded in ``rows``."""
    players = rules.players
    space = action_space(rules.game)
    deal = deal_of(registry.game_of(rules).new_match(rules, seed=f"{seed}:{index}", dealer=index % players))
    start = deal.scores
    chosen = range(players) if seats == "all" else [seat_under_test(index, players)]
    others = make_bot("rule-of-thumb", rules)
    rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(players)]
    first_row = len(rows.outcome)
    row_seats: list[int] = []
    while not deal.is_over:
        mover = deal.to_move
        legal = deal.legal_actions()
        if mover not in chosen:
            deal = deal.apply(others.choose(deal.view(mover), legal, rngs[mover]))
            continue
        if len(legal) == 1:
            deal = deal.apply(legal[0])
            continue
        action, values = expert.decide(deal.view(mover), legal, rngs[mover])
        marked = 0
        for step in space.ids(deal, action, 0):
            if int(legal_mask(deal, marked).sum()) > 1:
                rows.add(deal, marked, step, _id_values(space, deal, marked, values), index)
                row_seats.append(mover)
            meaning = space.meaning(deal, marked, step)
            marked = meaning.cards if meaning.kind == "mark" else marked
        deal = deal.apply(action)
    changes = [end - begin for end, begin in zip(deal.scores, start, strict=True)]
    rows.outcome.extend(float(changes[s]) for s in row_seats)
    assert len(rows.outcome) == first_row + len(row_seats)


def replay(chunk: dict[str, Any]) -> Iterator[tuple[int, Any, int, Any]]:
    """The chunk's deals replayed through its recorded ids: for each row, in order, the row, the deal and marks it
    was recorded at, and the rule of thumb's choice at that decision (what a row does not store)."""
    meta = chunk["meta"]
    rules = registry.get(meta["game"]).make_rules("default", meta["players"], {})
    space = action_space(rules.game)
    others = make_bot("rule-of-thumb", rules)
    thumb = registry.game_of(rules).rule_of_thumb(rules.rank_order)
    rows = iter(range(len(chunk["action"])))
    for index in range(*meta["deals"]):
        deal = deal_of(
            registry.game_of(rules).new_match(rules, seed=f"{meta['seed']}:{index}", dealer=index % rules.players)
        )
        chosen = range(rules.players) if meta["seats"] == "all" else [seat_under_test(index, rules.players)]
        rngs = [random.Random(f"{meta['seed']}:{index}:{s}") for s in range(rules.players)]
        marked, hint = 0, None
        while not deal.is_over:
            mover = deal.to_move
            if mover not in chosen:
                deal = deal.apply(others.choose(deal.view(mover), deal.legal_actions(), rngs[mover]))
                continue
            if not marked:
                hint = thumb.choose(deal.view(mover), deal.legal_actions(), random.Random(0))
            mask = legal_mask(deal, marked)
            if mask.sum() == 1:
                action_id = int(np.flatnonzero(mask)[0])
            else:
                row = next(rows)
                yield row, deal, marked, hint
                action_id = int(chunk["action"][row])
            meaning = space.meaning(deal, marked, action_id)
            if meaning.kind == "mark":
                marked = meaning.cards
            else:
                deal, marked = deal.apply(meaning.action), 0


def thumb_ids(chunk: dict[str, Any]) -> Any:
    """For each row of the chunk, the id the rule of thumb would take there (-1: its choice does not go on from the
    cards marked), as ``fly_rules.adapters.learned.thumb_id`` gives the learned bot its hint."""
    space = action_space(chunk["meta"]["game"])
    out = np.full(len(chunk["action"]), -1, np.int16)
    for row, deal, marked, hint in replay(chunk):
        found = thumb_id(space, deal, hint, marked)
        out[row] = -1 if found is None else found
    return out


def write_chunk(path: Path, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    """Write one chunk whole or not at all: to a temporary file beside it, then renamed."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    with partial.open("wb") as handle:
        np.savez_compressed(handle, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        handle.flush()
        os.fsync(handle.fileno())
    partial.replace(path)
    for stale in path.parent.glob(f".{path.name}.*.part"):  # left by a run stopped while writing this chunk
        stale.unlink(missing_ok=True)


def read_chunk(path: Path) -> dict[str, Any]:
    """A chunk's arrays, and its ``meta`` as a dict."""
    with np.load(path, allow_pickle=False) as data:
        out: dict[str, Any] = {key: data[key] for key in data.files}
    out["meta"] = json.loads(str(out["meta"]))
    return out


def make_chunk(run: Run, index: int, out: Path) -> str:
    """Play and write chunk ``index`` of ``run`` unless it is there; what was done, as a line of text."""
    rules = registry.get(run.game).make_rules("default", run.players, {})
    path = out / chunk_name(run, rules.players, index)
    if path.exists():
        return f"{path.name}: already there"
    began = time.process_time()
    expert = ExpertBot(rules, samples=run.samples)
    rows = _Rows(rules)
    deals = range(index * run.deals_per_chunk, (index + 1) * run.deals_per_chunk)
    for deal in deals:
        play_deal(rules, run.seed, deal, run.seats, expert, rows)
    arrays = rows.arrays()
    meta = {
        "format": FORMAT,
        "game": run.game,
        "players": rules.players,
        "seed": run.seed,
        "seats": run.seats,
        "samples": run.samples,
        "chunk": index,
        "deals": [deals.start, deals.stop],
        "observation": "write_observation(view, marked, rules, out, relative=True)",
        "rows": len(arrays["action"]),
    }
    write_chunk(path, arrays, meta)
    return f"{path.name}: {meta['rows']} decisions, {time.process_time() - began:.0f} CPU s"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fly", choices=registry.games())
    parser.add_argument("--players", type=int, default=None, help="default: the game's (4 for Fly)")
    parser.add_argument("--seed", default="expert-data")
    parser.add_argument("--seats", choices=("one", "all"), default="one")
    parser.add_argument("--deals-per-chunk", type=int, default=50)
    parser.add_argument("--chunks", type=int, default=100, help="chunks of the run, from --first-chunk")
    parser.add_argument("--first-chunk", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("/work/datasets/expert"))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--samples", type=int, default=None, help="the expert's guesses a decision (default: the game's)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> list[str]:
    """Write the chunks of the run the arguments name that are not there yet; the lines it printed."""
    args = _parser().parse_args(argv)
    if args.deals_per_chunk < 1 or args.chunks < 0 or args.first_chunk < 0 or args.workers < 1:
        raise SystemExit("--deals-per-chunk and --workers must be at least 1, --chunks and --first-chunk at least 0")
    args.out.mkdir(parents=True, exist_ok=True)
    indices = range(args.first_chunk, args.first_chunk + args.chunks)
    run = Run(args.game, args.players, args.seed, args.seats, args.deals_per_chunk, args.samples)
    lines = []
    with ProcessPoolExecutor(args.workers) if args.workers > 1 else _InProcess() as pool:
        for line in pool.map(make_chunk, [run] * len(indices), indices, [args.out] * len(indices)):
            print(line, flush=True)
            lines.append(line)
    return lines


class _InProcess:
    """One worker: the chunks played in this process, in order."""

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, *iterables: Any) -> Any:
        return map(fn, *iterables)


if __name__ == "__main__":
    main(sys.argv[1:])
