"""scripts/expert_dataset.py: the expert's decisions recorded as they were made, and a stopped run resumed whole."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fly_rules import registry
from fly_rules.adapters.encoding import PHASES, action_space, legal_mask, observation_size, write_observation
from fly_rules.bots import make_bot
from fly_rules.bots.paired import seat_under_test
from fly_rules.notation.games import deal_of
from tests.conformance.conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "expert_dataset.py"


DATASET: Any = load_script("scripts/expert_dataset")


def _replay(chunk: dict[str, Any], run: Any) -> int:
    """Replay the chunk's deals through the action ids, each recorded row checked against the encoder where it was
    made; the rows checked."""
    rules = registry.get(run.game).make_rules("default", run.players, {})
    space = action_space(rules.game)
    rows = iter(range(len(chunk["action"])))
    others = make_bot("rule-of-thumb", rules)
    checked = 0
    for index in range(*chunk["meta"]["deals"]):
        deal = deal_of(
            registry.game_of(rules).new_match(rules, seed=f"{run.seed}:{index}", dealer=index % rules.players)
        )
        expert_seats = range(rules.players) if run.seats == "all" else [seat_under_test(index, rules.players)]
        rngs = [random.Random(f"{run.seed}:{index}:{s}") for s in range(rules.players)]
        marked = 0
        while not deal.is_over:
            mover = deal.to_move
            if mover not in expert_seats:
                deal = deal.apply(others.choose(deal.view(mover), deal.legal_actions(), rngs[mover]))
                continue
            mask = legal_mask(deal, marked)
            if mask.sum() == 1:
                action_id = int(np.flatnonzero(mask)[0])
            else:
                row = next(rows)
                expected = np.zeros(observation_size(rules), np.float32)
                write_observation(deal.view(mover), marked, rules, expected, relative=True)
                assert np.array_equal(chunk["obs"][row], expected)
                assert np.array_equal(chunk["mask"][row], mask)
                action_id = int(chunk["action"][row])
                assert mask[action_id], f"row {row}: the expert's id {action_id} is not legal"
                assert (chunk["deal"][row], chunk["seat"][row], chunk["marked"][row]) == (index, mover, marked)
                assert chunk["phase"][row] == PHASES.index(deal.phase)
                searched = ~np.isnan(chunk["values"][row])
                assert not (searched & ~mask).any(), "a value for an id that is not legal"
                checked += 1
            meaning = space.meaning(deal, marked, action_id)
            if meaning.kind == "mark":
                marked = meaning.cards
            else:
                deal, marked = deal.apply(meaning.action), 0
    assert next(rows, None) is None, "rows left over after the chunk's deals"
    return checked


@pytest.mark.parametrize(
    ("game", "seats", "deals"),
    [("fly", "one", 3), ("fly", "all", 1), ("dreyfus", "one", 1)],
)
def test_a_chunk_holds_the_encoders_observations_the_legal_masks_and_legal_actions(
    tmp_path: Path, game: str, seats: str, deals: int
) -> None:
    """Every row of a written chunk is the observation and legal mask of the position the replayed deal reaches,
    and the expert's id is legal there; the deal's outcome is the seat's."""
    run = DATASET.Run(game, None, "test", seats, deals, 2)
    line = DATASET.make_chunk(run, 1, tmp_path)
    assert "decisions" in line
    (path,) = tmp_path.glob("*.npz")
    assert path.name == DATASET.chunk_name(run, 4 if game == "fly" else 3, 1)
    chunk = DATASET.read_chunk(path)
    assert chunk["meta"]["deals"] == [deals, 2 * deals]
    assert _replay(chunk, run) == len(chunk["action"]) > 0
    if seats == "all":
        assert len(set(chunk["seat"].tolist())) > 1
    # every seat's outcome in a deal is one number: the seat's score change
    for deal, seat in set(zip(chunk["deal"].tolist(), chunk["seat"].tolist(), strict=True)):
        rows = (chunk["deal"] == deal) & (chunk["seat"] == seat)
        assert len(set(chunk["outcome"][rows].tolist())) == 1
    assert DATASET.make_chunk(run, 1, tmp_path).endswith("already there")


def _run(out: Path) -> subprocess.Popen[bytes]:
    args = ["--game", "fly", "--seed", "resume", "--deals-per-chunk", "1", "--chunks", "4", "--samples", "2"]
    return subprocess.Popen([sys.executable, str(SCRIPT), *args, "--out", str(out)], stdout=subprocess.DEVNULL)


def _contents(folder: Path) -> dict[str, dict[str, Any]]:
    return {path.name: DATASET.read_chunk(path) for path in sorted(folder.glob("*.npz"))}


def test_a_run_killed_and_started_again_writes_what_an_uninterrupted_run_writes(tmp_path: Path) -> None:
    """Killed while playing, the run leaves only whole chunks; run again it plays the rest, and the chunks are
    those of a run never stopped."""
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert _run(whole).wait(timeout=300) == 0
    process = _run(cut)
    deadline = time.monotonic() + 300
    while not list(cut.glob("*.npz")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    first = _contents(cut)
    assert 1 <= len(first) < 4, "the kill came too late to cut the run"
    assert _run(cut).wait(timeout=300) == 0
    expected, resumed = _contents(whole), _contents(cut)
    assert list(resumed) == list(expected)
    assert len(expected) == 4
    for name, chunk in expected.items():
        assert chunk["meta"] == resumed[name]["meta"]
        for key in chunk:
            if key != "meta":
                assert np.array_equal(chunk[key], resumed[name][key], equal_nan=key == "values"), (name, key)
    assert not list(cut.glob(".*.part"))


def test_bad_arguments_are_refused_with_a_message() -> None:
    """A chunk size of zero is named in the error, not a traceback."""
    with pytest.raises(SystemExit, match="deals-per-chunk"):
        DATASET.main(["--deals-per-chunk", "0", "--chunks", "1"])
