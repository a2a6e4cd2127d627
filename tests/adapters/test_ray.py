"""The Ray backend gives the same simulation as one process, on a local Ray instance the test starts."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from fly_rules import cli, dreyfus, fly
from fly_rules.adapters.ray import play_random_matches, run_chunks, simulate


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A two-CPU Ray instance of the tests' own, shut down after the module: ``address="local"`` starts a new
    one whatever else runs on the machine (a cluster, or a stale cluster file left by one that has gone),
    and ``RAY_ADDRESS`` is set aside meanwhile."""
    address = os.environ.pop("RAY_ADDRESS", None)
    try:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        yield
        ray.shutdown()
    finally:
        if address is not None:
            os.environ["RAY_ADDRESS"] = address


@pytest.mark.usefixtures("local_ray")
@pytest.mark.parametrize(
    "rules", [fly.FlyRules(players=4), fly.FlyRules.preset("mouche_1718", players=6), dreyfus.DreyfusRules()]
)
def test_fly_10_1_ray_results_equal_the_single_process_run(rules: fly.FlyRules | dreyfus.DreyfusRules) -> None:
    """FLY-10.1, DRF-8.1: the same seed gives the same matches on Ray, in any chunking, as in one process."""
    local = simulate(rules, "ci", 12, max_deals=2, chunk_size=12)
    assert simulate(rules, "ci", 12, max_deals=2, chunk_size=5, backend="ray") == local
    assert [o.index for o in local] == list(range(12))
    assert local != simulate(rules, "other", 12, max_deals=2)


@pytest.mark.usefixtures("local_ray")
def test_run_chunks_keeps_the_chunk_order() -> None:
    """run_chunks returns one result per chunk, in order."""
    results = run_chunks(play_random_matches, [(fly.FlyRules(players=3), 1, [i], 1) for i in (3, 1, 2)])
    assert [r[0].index for r in results] == [3, 1, 2]


def test_simulate_refuses_bad_arguments() -> None:
    """An unknown backend or a chunk size below one is refused."""
    with pytest.raises(ValueError, match="backend"):
        simulate(fly.FlyRules(), 1, 1, backend="dask")
    with pytest.raises(ValueError, match="chunk_size"):
        simulate(fly.FlyRules(), 1, 1, chunk_size=0)


@pytest.mark.usefixtures("local_ray")
def test_fly_10_2_simulate_backend_ray_prints_what_the_local_run_prints() -> None:
    """FLY-10.2: ``fly-rules simulate --backend ray`` gives the same JSON statistics as the local run."""
    args = ["simulate", "-n", "6", "--players", "3", "--json", "--seed", "abc", "--no-progress"]
    local, remote = io.StringIO(), io.StringIO()
    assert cli.main(args, local) == 0
    assert cli.main([*args, "--backend", "ray", "--workers", "2"], remote) == 0
    assert json.loads(remote.getvalue()) == json.loads(local.getvalue())


def test_ray_address_auto_without_a_cluster_is_one_line(tmp_path: Path) -> None:
    """``RAY_ADDRESS=auto fly-rules simulate --backend ray`` where no cluster runs (a process namespace of its
    own, so that no Ray process is seen, and an empty temporary folder, so that no cluster file is found) is
    one line naming the address, exit code 1, not Ray's traceback."""
    command = [sys.executable, "-m", "fly_rules", "simulate", "-n", "2", "--players", "3", "--backend", "ray"]
    done = subprocess.run(
        ["unshare", "--mount", "--pid", "--fork", "--mount-proc", "--map-root-user", *command],
        env={**os.environ, "RAY_ADDRESS": "auto", "TMPDIR": str(tmp_path), "RAY_TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "fly-rules: no Ray cluster at RAY_ADDRESS='auto' (Could not find any running Ray instance); start one "
        "(ray start --head) or unset RAY_ADDRESS to run on a local instance"
    ]


def test_ray_address_where_nothing_answers_is_one_line_within_its_probe() -> None:
    """``RAY_ADDRESS=127.0.0.1:1`` (a port where nothing listens; Ray's own ``init`` retried for minutes) is one
    line naming the address and why, exit code 1, well within the start-up and the probe's bound."""
    command = [sys.executable, "-m", "fly_rules", "simulate", "-n", "2", "--players", "3", "--backend", "ray"]
    started = time.monotonic()
    done = subprocess.run(
        command,
        env={**os.environ, "RAY_ADDRESS": "127.0.0.1:1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert time.monotonic() - started < 60
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        "fly-rules: no Ray cluster at RAY_ADDRESS='127.0.0.1:1' (nothing answers there within 5 s: Connection"
        " refused); start one (ray start --head) or unset RAY_ADDRESS to run on a local instance"
    ]
