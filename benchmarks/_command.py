"""The command a benchmark's Markdown table names as the one that made it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

WHERE = ("--md", "--json", "--out", "--pieces")
"""Options that say only where the output (or a cache of it) went: no part of what was measured."""


def command_line(script: str, argv: list[str] | None = None) -> str:
    """``python benchmarks/SCRIPT ARG...`` for ``argv`` (default: this process's arguments), without ``WHERE``."""
    args = list(sys.argv[1:] if argv is None else argv)
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in WHERE:
            skip = True
        elif not arg.startswith(tuple(f"{option}=" for option in WHERE)):
            kept.append(arg)
    return " ".join([f"python benchmarks/{script}", *kept])


def deals_parser(doc: str, *, deals: int, seed: str) -> argparse.ArgumentParser:
    """A parser with the options every paired-deal script takes: ``--deals``, ``--workers``, ``--seed`` and ``--md``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default=seed)
    parser.add_argument("--md", type=Path, default=None, help="also write the table as Markdown (for the docs)")
    return parser


def publish(table: str, args: argparse.Namespace, started: float) -> None:
    """Print ``table`` and the wall time since ``started``, and write the table to ``args.md`` if given."""
    print(table)
    print(f"({time.time() - started:.0f} s wall, {args.workers} workers)")
    if args.md:
        args.md.write_text(table)
