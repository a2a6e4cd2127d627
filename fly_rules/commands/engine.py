"""``fly-rules engine``: this engine speaking the conformance kit's line protocol on standard input and
output (``specs/conformance/README.md``), for ``fly-rules conform`` and for other programs' tests."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from fly_rules.conformance.server import serve

__all__ = ["add", "run"]


def add(sub: Any) -> None:
    """Add ``engine`` to the ``fly-rules`` parser's subparsers ``sub``."""
    engine = sub.add_parser("engine", help="speak the conformance kit's JSON line protocol on stdin and stdout")
    engine.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Answer each JSON request read from standard input, one JSON line each, until ``quit`` or its end."""
    del args
    return serve(sys.stdin, out)
