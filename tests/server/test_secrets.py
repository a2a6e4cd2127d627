"""TBL-2.1, TBL-1.2: the table server's secrets (seeds, nonces, tokens, table IDs) come from ``secrets``, never from
``random``, whose generator a player could predict."""

from __future__ import annotations

import ast
from pathlib import Path

import fly_rules.server

SERVER = Path(fly_rules.server.__file__).parent


def test_tbl_2_1_no_secret_of_the_server_comes_from_random() -> None:
    """TBL-2.1: the only use of ``random`` in the server is a bot's own ``random.Random(seed)``, its seed drawn with
    ``secrets``; every other random value is drawn by ``secrets``."""
    uses: list[str] = []
    for path in sorted(SERVER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                uses.append(f"{path.name}:{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                uses.append(f"{path.name}:from random import")
    assert uses == ["bots.py:Random"]
    source = (SERVER / "tables.py").read_text(encoding="utf-8")
    assert "secrets.randbits(128)" in source
    assert "secrets.token_hex(16)" in source
    assert "secrets.token_urlsafe(" in source
