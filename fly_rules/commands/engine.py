"""``fly-rules engine``: this engine speaking the conformance kit's line protocol on standard input and
output (``specs/conformance/README.md``), for ``fly-rules conform`` and for other programs' tests."""

from __future__ import annotations

import argparse
import io
import sys
from typing import TextIO

from fly_rules.commands.common import CommandError, seconds_argument, whole_number_argument
from fly_rules.conformance.answers import LIMITS
from fly_rules.conformance.perft import Budget
from fly_rules.conformance.server import LINE_BYTES, ServerLimits, serve

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``engine`` to the ``fly-rules`` parser's subparsers ``sub``."""
    engine = sub.add_parser(
        "engine",
        help="speak the conformance kit's JSON line protocol on stdin and stdout",
        description="Answer each JSON request read from standard input with one JSON line, until "
        '{"cmd": "quit"} or the end of the input. A line that cannot be answered gets {"error": ...}, '
        "and the next line is read.",
    )
    engine.add_argument(
        "--max-nodes",
        type=whole_number_argument,
        default=LIMITS.nodes,
        help=f"refuse a perft or divide that visits more positions (default {LIMITS.nodes:,})",
    )
    engine.add_argument(
        "--max-seconds",
        type=seconds_argument,
        default=LIMITS.seconds,
        help=f"refuse a perft or divide that takes longer (default {LIMITS.seconds:g} s)",
    )
    engine.add_argument(
        "--max-line",
        type=whole_number_argument,
        default=LINE_BYTES,
        help=f"answer a longer request line with an error, unread (default {LINE_BYTES:,} bytes)",
    )
    engine.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Answer each JSON request read from standard input, one JSON line each, until ``quit`` or its end."""
    if not args.max_nodes or not args.max_line:
        raise CommandError("--max-nodes and --max-line must be at least 1")
    if out is sys.stdout and isinstance(out, io.TextIOWrapper):
        out.reconfigure(encoding="utf-8")  # the protocol is UTF-8 whatever the locale
    limits = ServerLimits(line_bytes=args.max_line, counts=Budget(nodes=args.max_nodes, seconds=args.max_seconds))
    return serve(sys.stdin.buffer, out, limits)
