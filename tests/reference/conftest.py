"""Print how much the reference cross-checks ran, when FLY_REF_STATS is set."""

from __future__ import annotations

import os

import pytest

from tests.reference.driver import STATS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if os.environ.get("FLY_REF_STATS"):
        for key, count in sorted(STATS.items()):
            terminalreporter.write_line(f"fly reference: {key}: {count}")
