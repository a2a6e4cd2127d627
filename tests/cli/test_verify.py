"""``fly-rules verify``: a finished match's history against the commitment published at its start and the
nonce revealed at its end [TBL-2.4]: SHA-256 of ``SEED:NONCE`` is the commitment and the history replays."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from fly_rules import fly
from fly_rules.cli import main
from fly_rules.notation.games import make_rules, new_game
from fly_rules.notation.history import dump_history

SEED = 2**127 + 12345  # 128 bits, as a table's seeds are [TBL-2.1]
NONCE = "0123456789abcdef0123456789abcdef"
COMMITMENT = hashlib.sha256(f"{SEED}:{NONCE}".encode()).hexdigest()


def _history(game: str, seed: int = SEED) -> str:
    """A finished one-deal match of ``game`` from ``seed``, each seat taking its first legal action."""
    state = new_game(make_rules(game, max_deals=1), seed=seed)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return dump_history(state)


@pytest.fixture(params=["fly", "dreyfus"])
def history(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A finished match's history in a file, of each game."""
    path = tmp_path / "match.toml"
    path.write_text(_history(request.param))
    return path


def _verify(path: Path, commitment: str = COMMITMENT, nonce: str = NONCE) -> int:
    return main(["verify", str(path), "--commitment", commitment, "--nonce", nonce])


def test_tbl_2_4_a_history_from_the_committed_seed_checks_out(
    history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TBL-2.4: the history of a match from the committed seed, with the right nonce, checks out (exit 0);
    the commitment may be given in capitals."""
    assert _verify(history) == 0
    out = capsys.readouterr().out
    assert f"ok: {history} checks out [TBL-2.4]" in out
    assert _verify(history, COMMITMENT.upper()) == 0


def test_tbl_2_4_a_wrong_nonce_does_not_check_out(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TBL-2.4: with another nonce the SHA-256 of ``SEED:NONCE`` is not the commitment: exit 1, a message
    naming the rule and both digests."""
    assert _verify(history, nonce=NONCE[::-1]) == 1
    err = capsys.readouterr().err
    assert "does not check out [TBL-2.4]" in err
    assert COMMITMENT in err
    assert hashlib.sha256(f"{SEED}:{NONCE[::-1]}".encode()).hexdigest() in err


def test_tbl_2_4_a_tampered_history_does_not_check_out(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TBL-2.4: a whole match dealt from another seed than the committed one does not check out; a history
    whose seed or whose actions were edited does not replay (its deals are recorded); each exits 1 with a
    message naming the rule, never a traceback."""
    text = history.read_text()
    game = "dreyfus" if 'game = "dreyfus"' in text else "fly"
    other = history.with_name("other.toml")
    other.write_text(_history(game, SEED + 1))
    assert _verify(other) == 1
    assert f"does not check out [TBL-2.4]: SHA-256 of 'SEED:NONCE' (its seed {SEED + 1}" in capsys.readouterr().err
    for tampered in (
        text.replace(f"seed = {SEED}", f"seed = {SEED + 1}"),
        text.replace(first := next(line for line in text.splitlines() if ": play " in line), first[:-4] + '2C",'),
    ):
        assert tampered != text
        history.write_text(tampered)
        assert _verify(history) == 1
        err = capsys.readouterr().err
        assert f"{history} does not replay [TBL-2.4]: history line" in err
        assert "Traceback" not in err


def test_tbl_2_4_verify_refuses_what_is_not_a_commitment_or_a_seeded_match(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TBL-2.4: a commitment that is not 64 hex digits, a missing file and a history of an explicit deal
    (no seed, so no shuffle to check) are each refused in one line (exit 1)."""
    assert _verify(history, "abc") == 1
    assert "--commitment must be the 64 hex digits of a SHA-256 digest" in capsys.readouterr().err
    assert _verify(tmp_path / "none.toml") == 1
    assert "none.toml" in capsys.readouterr().err
    dealt = tmp_path / "deal.toml"
    start: dict[str, Any] = {
        "hands": ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
        "trump_card": "8H",
        "stock": "7D",
    }
    dealt.write_text(
        dump_history(fly.new_deal(fly.FlyRules(players=3), dealer=0, **start), start={**start, "dealer": 0})
    )
    assert _verify(dealt) == 1
    assert "explicit deal, not a match from a seed" in capsys.readouterr().err
