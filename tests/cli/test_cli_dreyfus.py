"""The demo command playing Dreyfus."""

from __future__ import annotations

import io

from fly_rules.cli import main


def test_drf_9_1_demo_plays_a_dreyfus_match_to_its_settlement() -> None:
    """DRF-9.1: ``fly-rules demo --game dreyfus`` prints the deals, the tricks, the winner and the settlement."""
    out = io.StringIO()
    assert main(["demo", "--game", "dreyfus", "--seed", "3", "--bots", "random"], out) == 0
    text = out.getvalue()
    assert text.startswith("Dreyfus, 3 players")
    assert "== Deal 1: seat 0 deals; ♠ trumps" in text
    assert "trick 12:" in text
    assert "stands" in text or "buys" in text
    assert "settlement: seat 0 +99, seat 1 -47, seat 2 -52" in text


def test_drf_8_3_demo_respects_the_deal_limit() -> None:
    """DRF-8.3: with one deal allowed the Dreyfus demo ends without a winner and nobody pays."""
    out = io.StringIO()
    assert main(["demo", "--game", "dreyfus", "--seed", "3", "--max-deals", "1"], out) == 0
    assert "no winner (deal limit reached)" in out.getvalue()
    assert "settlement: seat 0 +0, seat 1 +0, seat 2 +0" in out.getvalue()
