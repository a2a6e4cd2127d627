"""docs/_ext/tryit.py: the "try it" boxes and the play table as the site's pages carry them, with the live
engine's files and without them (a build without npm)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from fly_rules import dreyfus, fly
from fly_rules.bots import BOTS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import tryit  # noqa: E402 - docs/_ext is not a package: Sphinx loads it from conf.py's path


@pytest.fixture
def assets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for web/dist/pyodide with the two files the build looks for."""
    (tmp_path / "pyodide-lock.json").write_text("{}")
    (tmp_path / "pyodide.asm.wasm").write_bytes(b"\0asm")
    monkeypatch.setattr(tryit, "ASSETS", tmp_path)
    return tmp_path


def test_a_box_carries_its_position_and_moves_as_escaped_attributes(assets: Path) -> None:
    """Text goes into attributes escaped: a quote or a tag in a position cannot become markup."""
    box = tryit.box_html('fly "><script>x</script>', "pAH pAS")
    assert 'data-position="fly &quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in box
    assert 'data-moves="pAH pAS"' in box
    assert "<script>" not in box
    assert "served over http" in box  # what a page opened as a file shows


def test_without_the_engines_files_the_boxes_and_the_table_are_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build without npm: no box, no table, the notice instead (and no warning, so -W passes)."""
    monkeypatch.setattr(tryit, "ASSETS", tmp_path)
    for html in (tryit.box_html("fly - 0 …", ""), tryit.play_table_html()):
        assert "fly-tryit" not in html
        assert 'id="fly-play"' not in html
        assert "scripts/web-assets" in html


def test_the_play_table_offers_every_game_preset_and_bot(assets: Path) -> None:
    """The settings list both games' presets (by game) and every bot."""
    html = tryit.play_table_html()
    for name in fly.PRESETS:
        assert f'value="fly:{name}"' in html
    for name in dreyfus.PRESETS:
        assert f'value="dreyfus:{name}"' in html
    for name in BOTS:
        assert f'value="{name}"' in html


def test_fly_10_1_the_play_table_caps_a_match_at_ten_deals_by_default(assets: Path) -> None:
    """FLY-10.1, DRF-8.3: the settings carry "deals at most" (the rules' max_deals), 10 unless changed."""
    html = tryit.play_table_html()
    assert tryit.PLAY_MAX_DEALS == 10
    assert '<input name="max_deals" type="number" min="1" max="1000000" value="10"' in html


def test_the_build_copies_the_engine_beside_the_pages_scripts(assets: Path, tmp_path: Path) -> None:
    """build-finished: the engine's files and web/fly_live.py land in _static/live/ of an html build."""
    (assets / "fly_rules-0-py3-none-any.whl").write_bytes(b"wheel")
    out = tmp_path / "site"
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(out))
    tryit._copy_assets(app, None)  # type: ignore[arg-type]
    live = out / "_static" / "live"
    assert (live / "pyodide" / "fly_rules-0-py3-none-any.whl").read_bytes() == b"wheel"
    assert (live / "fly_live.py").read_text() == (ROOT / "web" / "fly_live.py").read_text()
    for name in ("cardtable.js", "cardtable.css"):  # the card table's, shared with the table server's page
        assert (live / name).read_text() == (ROOT / "fly_rules" / "server" / "static" / name).read_text()
    tryit._copy_assets(SimpleNamespace(builder=SimpleNamespace(format="latex"), outdir=str(tmp_path / "x")), None)  # type: ignore[arg-type]
    assert not (tmp_path / "x").exists()


def test_without_the_engine_the_build_still_copies_the_card_table_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """engine.js, loaded on every page by tryit.js, imports the card table's module: it is there without npm too."""
    monkeypatch.setattr(tryit, "ASSETS", tmp_path / "none")
    out = tmp_path / "site"
    tryit._copy_assets(SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(out)), None)  # type: ignore[arg-type]
    live = out / "_static" / "live"
    assert sorted(path.name for path in live.iterdir()) == ["cardtable.css", "cardtable.js"]
