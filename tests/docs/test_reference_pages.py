"""The hand-written reference pages stay complete: every subcommand and option of ``fly-rules`` is in
``docs/reference/cli.md``, and every field of the position notation is in ``docs/reference/notation.md``."""

from __future__ import annotations

import argparse

from fly_rules.cli import _parser
from tests.docs.conftest import ROOT


def test_every_command_and_option_is_in_the_cli_reference() -> None:
    """Each subcommand has its section (``## `fly-rules NAME``) and each of its options is named."""
    text = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    subparsers = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert subparsers
    missing = []
    for name, sub in subparsers[0].choices.items():
        if f"## `fly-rules {name}" not in text:
            missing.append(name)
        for action in sub._actions:
            missing += [
                f"{name} {o}" for o in action.option_strings if o not in ("-h", "--help") and f"`{o}" not in text
            ]
    assert missing == []


def test_every_notation_field_is_in_the_notation_reference() -> None:
    """The position notation's table names each field, and the history keys are shown."""
    text = (ROOT / "docs" / "reference" / "notation.md").read_text(encoding="utf-8")
    for field in ("game", "options", "dealer", "trump / contract", "hands", "stock / talon", "records", "moves"):
        assert f"| {field} |" in text, field
    for key in ("format", "version", "game", "rules_version", "players", "seed", "dealer", "[[deal]]", "[result]"):
        assert key in text, key
