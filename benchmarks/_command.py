"""The command a benchmark's Markdown table names as the one that made it."""

from __future__ import annotations

import sys

WHERE = ("--md", "--json", "--out")
"""Options that say only where the output went: no part of what was measured."""


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
