"""Load on one table server: N tables of scripted WebSocket players, accepted actions a second and the time from
an action sent to every seat's new view (p50, p99).

    python benchmarks/server_load.py --tables 10,100,500 --seconds 20

Starts ``fly-rules serve`` (a fresh SQLite file, bots never wait) as its own process, makes the tables (4-seat
Fly, every seat a scripted player on its own connection; ``--pictures`` asks for the SVG picture in every view,
as the browser does), and drives them from this process with asyncio: whenever a seat's view lets it act, it
sends a legal action drawn at random; a finished match is followed by a rematch.

Each table is paced at ``--rate`` actions a second (12): the seat to act waits until a 1/rate interval has passed
since the table's previous action, or acts at once when the table is behind. So the load offered is the tables
times the rate, and a slow server shows as latency, not as players who stop asking (a closed loop at full speed
would also break the server's flood limit of 10 messages a second a connection [TBL-6.2], as a seat leading
trick after trick does). The latency of an action is from its send to the moment the last seat of the table has
the view one seq higher. A connection the server closes is counted and its close reason printed: the figures of a
run with closed connections are not the server's. ``--profile FILE`` samples the server with py-spy (``pip install
py-spy``) over the warm-up and the measured seconds and writes where its time went to FILE: each function's share
of the samples by itself and with what it calls (a sampler, not cProfile: cProfile's own cost would be most of a
server's per-message time).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosedOK

ROOT = Path(__file__).resolve().parents[1]


class _Table:
    """One table's players, and its actions in flight."""

    def __init__(self, table: str, tokens: list[str]) -> None:
        self.table = table
        self.tokens = tokens
        self.sent: dict[int, float] = {}  # seq of the view acted on -> when the action was sent
        self.seen: dict[int, int] = {}  # seq -> seats that have its view
        self.latencies: list[float] = []
        self.accepted = 0
        self.next_action = 0.0  # perf_counter time before which no seat of the table acts


async def _seat(
    base: str, table: _Table, seat: int, rng: random.Random, sockets: list[Any], pictures: bool, rate: float
) -> None:
    """One scripted player, until its socket is closed (by the run's end: normally; by the server: raised)."""
    url = base.replace("http", "ws", 1) + f"/api/tables/{table.table}/ws?token={table.tokens[seat]}"
    if not pictures:
        url += "&picture=0"
    seats = len(table.tokens)
    async with websockets.connect(url, max_size=2**22, compression=None) as socket:
        sockets.append(socket)
        async for text in socket:
            message = json.loads(text)
            if message["type"] != "view":
                continue
            seq = message["seq"]
            table.seen[seq] = table.seen.get(seq, 0) + 1
            if table.seen[seq] == seats:
                del table.seen[seq]
                if seq - 1 in table.sent:
                    table.latencies.append(time.perf_counter() - table.sent.pop(seq - 1))
                    table.accepted += 1
            if message["legal"]:
                sent = {"type": "act", "seq": seq, "action": rng.choice(message["legal"])}
            elif message["over"] and seat == 0:
                sent = {"type": "rematch", "seq": seq}
            else:
                continue
            wait = table.next_action - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            now = time.perf_counter()
            table.next_action = now + 1 / rate
            table.sent[seq] = now
            await socket.send(json.dumps(sent))


def run(work: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the players on uvloop where it is installed (the server's loop too): the players' own time is part of
    every latency measured, so it is kept small."""
    try:
        import uvloop  # noqa: PLC0415 - the server extra's, on the platforms it supports
    except ImportError:
        return asyncio.run(work)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(work)


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user and system) the processes have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def _run(
    base: str | list[str],
    tables: int,
    seconds: float,
    warmup: float,
    pictures: bool,
    rate: float = 12.0,
    servers: list[int] | None = None,
) -> dict[str, Any]:
    # several bases (server processes on one PostgreSQL database, benchmarks/server_load_postgres.py): the tables
    # are made on each in turn, and two seats of every table play through each, so that every action crosses them
    bases = [base] if isinstance(base, str) else base
    async with httpx.AsyncClient(timeout=30) as client:
        made = []
        for number in range(tables):
            answer = await client.post(f"{bases[number % len(bases)]}/api/tables", json={"game": "fly", "players": 4})
            answer.raise_for_status()
            data = answer.json()
            made.append(_Table(data["table"], [s["token"] for s in data["seats"]]))
    sockets: list[Any] = []
    rng = random.Random(50)
    players = [
        asyncio.create_task(
            _seat(bases[seat // 2 % len(bases)], table, seat, random.Random(rng.random()), sockets, pictures, rate)
        )
        for table in made
        for seat in range(4)
    ]
    await asyncio.sleep(warmup)
    for table in made:
        table.latencies.clear()
        table.accepted = 0
    started, cpu = time.perf_counter(), cpu_seconds(servers or [])
    await asyncio.sleep(seconds)
    elapsed, cpu = time.perf_counter() - started, cpu_seconds(servers or []) - cpu
    latencies = sorted(x for table in made for x in table.latencies)
    accepted = sum(table.accepted for table in made)
    for socket in sockets:
        await socket.close()
    ended = await asyncio.gather(*players, return_exceptions=True)
    closed = [str(end) for end in ended if isinstance(end, BaseException) and not isinstance(end, ConnectionClosedOK)]
    quantiles = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("nan")] * 99
    return {
        "tables": tables,
        "connections": 4 * tables,
        "accepted_per_second": accepted / elapsed,
        "p50_ms": 1000 * quantiles[49],
        "p99_ms": 1000 * quantiles[98],
        "actions": accepted,
        "offered_per_second": tables * rate,
        "server_cpu_ms": 1000 * cpu / accepted if servers and accepted else float("nan"),
        "closed": len(closed),
        "closed_why": sorted(set(closed))[:3],
    }


def _serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "fly_rules", "serve", "--port", "0", "--db", str(db), "--bot-delay", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    line = process.stdout.readline()
    if "open http://" not in line:
        raise SystemExit(f"the server did not start: {line}")
    return process, line.split("open ")[1].split("/ ")[0]


def print_rows(rows: list[dict[str, Any]], first: str, width: int) -> None:
    """Print the figures a row a run, first column ``first``; then why any connection was closed."""
    print(
        f"{first:>{width}} {'conns':>6} {'offered/s':>10} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'CPU ms/action':>14} {'closed':>7}"
    )
    for row in rows:
        print(
            f"{row[first]:>{width}} {row['connections']:>6} {row['offered_per_second']:>10,.0f} "
            f"{row['accepted_per_second']:>10,.0f} {row['p50_ms']:>8.1f} {row['p99_ms']:>8.1f} "
            f"{row['server_cpu_ms']:>14.3f} {row['closed']:>7}"
        )
    for row in rows:
        for why in row["closed_why"]:
            print(f"closed at {row[first]}: {why}")


def _sampler(pid: int, seconds: float, raw: Path) -> subprocess.Popen[bytes]:
    """py-spy recording the process ``pid`` for ``seconds`` into ``raw`` (its collapsed stacks)."""
    spy = Path(sys.executable).with_name("py-spy")
    command = [str(spy), "record", "-p", str(pid), "-o", str(raw), "-f", "raw", "-r", "200", "-d", f"{seconds:.0f}"]
    try:
        return subprocess.Popen([*command, "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        raise SystemExit("--profile samples the server with py-spy: pip install py-spy") from None


def where_the_time_went(raw: Path, top: int = 25) -> str:
    """py-spy's collapsed stacks as two lists: the functions by their own share of the samples, and with callees."""
    own: dict[str, int] = {}
    under: dict[str, int] = {}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        total += int(count)
        own[frames[-1]] = own.get(frames[-1], 0) + int(count)
        for frame in set(frames):
            under[frame] = under.get(frame, 0) + int(count)
    lines = [f"{total} samples", "", "by itself:"]
    lines += [f"{100 * n / total:5.1f}%  {f}" for f, n in sorted(own.items(), key=lambda i: -i[1])[:top]]
    lines += ["", "with what it calls:"]
    lines += [f"{100 * n / total:5.1f}%  {f}" for f, n in sorted(under.items(), key=lambda i: -i[1])[: 2 * top]]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run the load at each table count and print a table of the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100,500", help="table counts, comma-separated (10,100,500)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds at each count (20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring (3)")
    parser.add_argument("--rate", type=float, default=12.0, help="actions a second offered by each table (12)")
    parser.add_argument("--pictures", action="store_true", help="every view with its SVG picture (as the browser)")
    parser.add_argument("--profile", type=Path, default=None, help="sample the server with py-spy, shares to FILE")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    rows = []
    for count in (int(n) for n in args.tables.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            process, base = _serve(Path(folder) / "load.sqlite3")
            raw = Path(folder) / "samples.txt"
            spy = None if args.profile is None else _sampler(process.pid, args.warmup + args.seconds, raw)
            try:
                rows.append(run(_run(base, count, args.seconds, args.warmup, args.pictures, args.rate, [process.pid])))
                if spy is not None and args.profile is not None:
                    spy.wait(60)
                    args.profile.with_suffix(f".{count}{args.profile.suffix}").write_text(where_the_time_went(raw))
            finally:
                process.send_signal(signal.SIGINT)
                process.wait(60)
                if process.stdout is not None:
                    process.stdout.close()
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"4-seat Fly, one server process, SQLite, {'with' if args.pictures else 'without'} pictures")
    print_rows(rows, "tables", 7)


if __name__ == "__main__":
    main()
