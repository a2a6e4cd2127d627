"""``fly-rules serve``: the table server (specs/table.md), so that friends play Fly or Dreyfus at one table.

It needs the ``server`` extra (Starlette, uvicorn). The tables are kept in one SQLite file (``--db``): a
server stopped and started again on the same file serves every accepted action and the same links [TBL-8.2].
``--db postgresql://…`` keeps them in PostgreSQL instead (the ``postgres`` extra), where several server
processes may serve the same tables [TBL-8.3].
"""

from __future__ import annotations

import argparse
import os
import socket
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit, urlunsplit

from fly_rules.bots import BOTS
from fly_rules.commands.common import CommandError

__all__ = ["add", "default_db", "run"]


def default_db() -> Path:
    """Where the tables are kept unless ``--db`` says: the user's data folder (``$XDG_DATA_HOME``)."""
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(home) / "fly-rules" / "tables.sqlite3"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"must be from 0 to 86400 seconds, not {text}")
    return value


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the ``fly-rules`` parser's subparsers ``sub``."""
    serve = sub.add_parser("serve", help="run a table server: play with friends in the browser or the terminal")
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    serve.add_argument(
        "--db",
        default=None,
        help=f"the SQLite file of the tables (default {default_db()}), or a postgresql:// URL several servers share",
    )
    serve.add_argument(
        "--grace",
        type=_seconds,
        default=30.0,
        help="seconds a dropped player's seat is held before a bot plays it (30)",
    )
    serve.add_argument(
        "--stand-in", default="rule-of-thumb", choices=sorted(BOTS), help="the bot that plays for a dropped player"
    )
    serve.add_argument("--bot-delay", type=_seconds, default=0.6, help="seconds a bot waits before it plays (0.6)")
    serve.add_argument("--bot-workers", type=int, default=1, help="worker processes the bots choose in (1)")
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a page origin allowed to open tables besides this server's own",
    )
    serve.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Serve until stopped (Ctrl-C)."""
    try:
        import uvicorn  # noqa: PLC0415 - the server extra is optional

        from fly_rules.server import Limits, create_app  # noqa: PLC0415
        from fly_rules.server.storage import StorageUnavailable  # noqa: PLC0415
    except ImportError as missing:
        raise CommandError(
            f"fly-rules serve needs the server extra: pip install 'fly_rules[server]' ({missing})"
        ) from None
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be from 0 to 65535, not {args.port}")
    if not 1 <= args.bot_workers <= 64:
        raise CommandError(f"--bot-workers must be from 1 to 64, not {args.bot_workers}")
    shared = args.db is not None and args.db.startswith(("postgresql://", "postgres://"))
    db: str | Path = args.db if shared else default_db() if args.db is None else Path(args.db)
    shown_db = _without_password(str(db))
    try:
        if isinstance(db, Path):
            db.parent.mkdir(parents=True, exist_ok=True)
        listener = socket.create_server((args.host, args.port))
    except OSError as error:
        raise CommandError(
            f"cannot serve on {args.host}:{args.port} with {shown_db}: {error.strerror or error}"
        ) from None
    limits = Limits(grace=args.grace, stand_in=args.stand_in, bot_delay=args.bot_delay)
    try:
        app = create_app(db, limits=limits, origins=args.allow_origin, bot_workers=args.bot_workers)
    except StorageUnavailable as error:
        listener.close()
        raise CommandError(str(error)) from None
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(
        f"fly-rules table server: open http://{shown}:{port}/ (tables kept in {shown_db}; Ctrl-C stops)",
        file=out,
        flush=True,
    )
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, ws_max_size=limits.max_message, ws_per_message_deflate=False
    )
    uvicorn.Server(config).run(sockets=[listener])
    return 0


def _without_password(db: str) -> str:
    """The database as it may be printed: a URL's password left out."""
    parts = urlsplit(db)
    if parts.password is None:
        return db
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
