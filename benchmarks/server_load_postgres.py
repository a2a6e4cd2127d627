"""The load of server_load.py on three set-ups in one run: one ``fly-rules serve`` on SQLite, one on PostgreSQL,
and two on one PostgreSQL database with two seats of every table on each process (so every action crosses
processes by NOTIFY).

    python benchmarks/server_load_postgres.py --tables 100 --seconds 15

PostgreSQL is a throwaway cluster of the machine's PostgreSQL (tests/server/cluster.py: initdb and pg_ctl, fsync
off, as the postgres user when root). Figures: accepted actions a second, p50/p99 from an action sent to every
seat's new view, and each server process's resident memory before the tables are made and at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from server_load import _run, print_rows, run  # noqa: E402 - the scripted players of server_load.py

from tests.server.cluster import cluster  # noqa: E402
from tests.server.helpers import serve_process, stop_process  # noqa: E402


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _measure(name: str, dbs: list[str], tables: int, seconds: float, warmup: float, rate: float) -> dict[str, Any]:
    started = [serve_process(db, 0, "--grace", "30") for db in dbs]
    try:
        before = [_rss_mb(process.pid) for process, _ in started]
        servers = [process.pid for process, _ in started]
        row = run(_run([base for _, base in started], tables, seconds, warmup, False, rate, servers))
        after = [_rss_mb(process.pid) for process, _ in started]
    finally:
        for process, _ in started:
            stop_process(process)
    return {"setup": name, "tables": tables, **row, "rss_mb_before": before, "rss_mb_after": after}


def main() -> None:
    """Measure the three set-ups and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables (100), each four scripted players")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds of each set-up (15)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring (3)")
    parser.add_argument("--rate", type=float, default=12.0, help="actions a second offered by each table (12)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "load.sqlite3")
        rows.append(_measure("1 process, SQLite", [db], args.tables, args.seconds, args.warmup, args.rate))
    with cluster() as postgres:
        rows.append(
            _measure("1 process, PostgreSQL", [postgres.database()], args.tables, args.seconds, args.warmup, args.rate)
        )
        url = postgres.database()
        rows.append(_measure("2 processes, PostgreSQL", [url, url], args.tables, args.seconds, args.warmup, args.rate))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"4-seat Fly, {args.tables} tables ({4 * args.tables} connections), without pictures")
    print_rows(rows, "setup", 24)
    for row in rows:
        print(f"{row['setup']}: resident MB a process, before {row['rss_mb_before']}, at the end {row['rss_mb_after']}")


if __name__ == "__main__":
    main()
