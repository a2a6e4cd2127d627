"""``fly-rules conform --engine COMMAND``: the conformance kit's vectors and perft counts against any
program that speaks its line protocol (``specs/conformance/README.md``)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from fly_rules.commands.common import CommandError, whole_number_argument
from fly_rules.conformance.runner import conform
from fly_rules.conformance.vectors import KINDS

__all__ = ["add", "run"]


def add(sub: Any) -> None:
    """Add ``conform`` to the ``fly-rules`` parser's subparsers ``sub``."""
    conform_parser = sub.add_parser("conform", help="check an engine against the conformance vectors and perft")
    conform_parser.add_argument(
        "--engine", required=True, help='the command that starts the engine, e.g. "fly-rules engine"'
    )
    conform_parser.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help=f"the kinds of case to run, comma separated (default {','.join(KINDS)})",
    )
    conform_parser.add_argument(
        "--perft-nodes",
        type=whole_number_argument,
        default=100_000,
        help="check the perft depths with at most this many sequences (default 100000)",
    )
    conform_parser.add_argument(
        "--walk-nodes",
        type=whole_number_argument,
        default=2_000,
        help="for an engine without a perft command, count depths of at most this many sequences "
        "through its legal and apply answers (default 2000)",
    )
    conform_parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the kit against the engine; 0 when it agrees with every case and count, 1 otherwise."""
    kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or not kinds:
        raise CommandError(f"--kinds: {', '.join(unknown) or 'none given'}; the kinds are {', '.join(KINDS)}")
    return conform(args.engine, out, kinds=kinds, perft_nodes=args.perft_nodes, walk_nodes=args.walk_nodes)
