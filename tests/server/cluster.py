"""A throwaway PostgreSQL cluster for the tests: ``initdb`` and ``pg_ctl`` of the machine's PostgreSQL, on a free port
in a temporary folder, run as the ``postgres`` system user when the tests run as root (PostgreSQL refuses root)."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg


def _bindir() -> Path:
    """The newest PostgreSQL server binaries of the machine (Debian keeps them in /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError(
        "PostgreSQL's server binaries (initdb, pg_ctl) are missing: apt-get install postgresql "
        "(bash scripts/test installs it when run as root)"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL cluster in a temporary folder; :meth:`database` makes a fresh database on it."""

    def __init__(self) -> None:
        self.bindir = _bindir()
        self.folder = Path(tempfile.mkdtemp(prefix="fly-rules-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "fly", "--auth=trust", "-E", "UTF8", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [*self._as, str(self.bindir / tool), *args], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.folder} "
            "-c fsync=off -c max_connections=200 -c shared_buffers=32MB"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "60", "-o", options, "start"
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: every connection is ended, as at a restart of the machine's service)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        """The URL of one of its databases."""
        return f"postgresql://fly@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new, empty database; its URL."""
        name = "t_" + secrets.token_hex(6)

        async def create() -> None:
            connection = await asyncpg.connect(self.url(), timeout=20)
            try:
                await connection.execute(f"CREATE DATABASE {name}")
            finally:
                await connection.close()

        asyncio.run(create())
        return self.url(name)

    def remove(self) -> None:
        """Stop the server (if it runs) and remove its folder."""
        with contextlib.suppress(RuntimeError):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """A started cluster, removed afterwards."""
    made = Cluster()
    try:
        made.start()
        yield made
    finally:
        made.remove()
