"""This engine with one deliberate bug of tests/conformance/mutants.py, speaking the kit's line protocol, so that
the runner's output for a wrong engine can be checked: ``python mutant.py NAME``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from fly_rules.conformance.server import serve
from tests.conformance.mutants import applied, named


def main() -> int:
    """Serve the protocol on stdin and stdout with the mutant named by the first argument applied."""
    with applied(named(sys.argv[1])):
        return serve(sys.stdin.buffer, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
