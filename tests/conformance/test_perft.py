"""The perft tables of specs/conformance/perft.json: the shallow depths recounted, every player count and
preset published, the documentation's tables the same as the file's."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from typing import Any

import pytest

from fly_rules.conformance.answers import replay
from fly_rules.conformance.perft import perft
from fly_rules.conformance.vectors import load_perft
from fly_rules.spec import load_rules
from tests.conformance.conftest import load_script

TABLE = load_perft()
BENCHMARK: Any = load_script("benchmarks/perft")
SHALLOW = [(entry, row) for entry in TABLE for row in entry["depths"] if row["nodes"] <= 3000]


def test_every_position_says_why_and_names_the_rules_it_covers() -> None:
    """Each position has a unique id, a one-line why and rule IDs that specs/ defines: the runner shows them
    with a failure and filters by them."""
    rules = load_rules()
    assert len({entry["id"] for entry in TABLE}) == len(TABLE)
    for entry in TABLE:
        assert entry["why"], entry["id"]
        assert "\n" not in entry["why"], entry["id"]
        assert entry["covers"], entry["id"]
        assert set(entry["covers"]) <= set(rules), entry["id"]


@pytest.mark.parametrize(
    ("entry", "row"), SHALLOW, ids=[f"{entry['id']}-depth-{row['depth']}" for entry, row in SHALLOW]
)
def test_a_shallow_depth_counts_as_published(entry: dict[str, Any], row: dict[str, int]) -> None:
    """The engine's count of legal action sequences, by kind and deal ends, is the published one."""
    state = replay(entry)
    assert not isinstance(state, dict)
    assert perft(state[0], row["depth"]) == {k: v for k, v in row.items() if k != "depth"}


def test_every_player_count_and_preset_has_published_positions() -> None:
    """Fly with 3 to 7 players and its preset, Dreyfus under every preset: each as dealt and at the start of play,
    with consecutive depths whose counts add up."""
    ids = {entry["id"] for entry in TABLE}
    names = [f"fly-{n}" for n in range(3, 8)] + ["fly-4-mouche_1718", "dreyfus"]
    names += [f"dreyfus-{p}" for p in ("shram", "whist_honours", "table")]
    assert {f"{name}-{stage}" for name in names for stage in ("start", "play")} <= ids
    for entry in TABLE:
        depths = [row["depth"] for row in entry["depths"]]
        assert depths == list(range(1, len(depths) + 1))
        assert len(depths) >= 2, entry["id"]
        for row in entry["depths"]:
            assert row["nodes"] == row["plays"] + row["declarations"] > 0
            assert row["deal_ends"] <= row["nodes"]
    assert BENCHMARK.positions() == [{k: v for k, v in e.items() if k != "depths"} for e in TABLE]


def test_the_documentation_shows_the_published_tables() -> None:
    """docs/reference/conformance.md holds the tables benchmarks/perft.py writes from perft.json."""
    assert BENCHMARK.markdown(TABLE) in BENCHMARK.DOCS.read_text(encoding="utf-8")


def test_the_benchmark_check_finds_a_wrong_count() -> None:
    """benchmarks/perft.py's check passes the published shallow counts and fails a count changed by one."""
    entry = next(e for e in TABLE if e["id"] == "fly-3-play")
    with redirect_stdout(io.StringIO()) as out:
        assert BENCHMARK.check([entry], 100, None) == 0
        wrong = {**entry, "depths": [{**entry["depths"][0], "nodes": entry["depths"][0]["nodes"] + 1}]}
        assert BENCHMARK.check([wrong], 100, "fly-3-play") == 1
        assert BENCHMARK.check([entry], 100, "dreyfus-play") == 0
    assert "MISMATCH" in out.getvalue()
    assert "nodes/s" in out.getvalue()
