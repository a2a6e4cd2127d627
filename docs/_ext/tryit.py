"""Sphinx extension: the live engine in the pages (Pyodide), the "try it" boxes and the play page.

- the ``try-it`` directive is a "try it" box (:func:`box_html`) for a position and moves: ``catalogue.py``
  puts one under every worked example, and a page puts one anywhere (a rule's example with a position)::

      ```{try-it}
      :moves: pAH pAS p7H
      fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 s,s,s 0
      ```

- the ``play-table`` directive is the play page's table and its settings.
- The card table's module and style (``cardtable.js``, ``cardtable.css``) are the table server's page's
  (``fly_rules/server/static/``): the build copies them to ``_static/live/``, where the play page imports them.
- When the site is built, the Pyodide runtime, our wheel, the attrs and tomli-w wheels and their lock
  file (assembled in ``web/dist/pyodide`` by ``scripts/web-assets``) and ``web/fly_live.py`` are copied
  to ``_static/live/``, beside the pages' scripts (``docs/_static/live/``). The engine loads when the
  reader asks for it, never on page view, and nothing is fetched from outside the site. A build without
  those assets (no npm) leaves the boxes and the table out, with a notice, and still builds cleanly.
"""

from __future__ import annotations

import html
import shutil
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from fly_rules import dreyfus, fly
from fly_rules.bots import BOTS

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "web" / "dist" / "pyodide"
BRIDGE = ROOT / "web" / "fly_live.py"
STATIC = ROOT / "fly_rules" / "server" / "static"
SHARED = ("cardtable.js", "cardtable.css")
"""The card table's module and style, shared with the table server's page (``fly_rules/server/static/``)."""
NOTICE = (
    "The live engine is not part of this build of the site (it needs npm: run scripts/web-assets, "
    "then build the site again)."
)
_HTTP = (
    "A page opened as a file cannot start the engine: serve the site with "
    "<code>python -m http.server -b 127.0.0.1 -d docs/_build/html</code> and open it at http://127.0.0.1:8000/."
)
_logger = logging.getLogger(__name__)


def assets_ready() -> bool:
    """Whether the live engine's files are assembled (``scripts/web-assets`` has run)."""
    return (ASSETS / "pyodide-lock.json").is_file() and (ASSETS / "pyodide.asm.wasm").is_file()


def _notice() -> str:
    return f'<p class="fly-live-notice">{html.escape(NOTICE)}</p>'


def box_html(position: str, moves: str = "") -> str:
    """A "try it" box: the position and the moves, editable, and the engine's answer (built by tryit.js).

    Without the live engine's files, the notice that it is missing.
    """
    if not assets_ready():
        return _notice()
    return (
        f'<div class="fly-tryit" data-position="{html.escape(position, quote=True)}" '
        f'data-moves="{html.escape(moves, quote=True)}"><p class="fly-live-notice">'
        f"Try it live: this box needs JavaScript and the site served over http. {_HTTP}</p></div>"
    )


class TryIt(SphinxDirective):
    """A "try it" box for the position in the content, with the ``:moves:`` played from it."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"moves": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        """The box as raw HTML."""
        position = " ".join("\n".join(self.content).split())
        return [nodes.raw("", box_html(position, self.options.get("moves", "")), format="html")]


def _options(values: list[tuple[str, str]], selected: str) -> str:
    return "".join(
        f'<option value="{html.escape(v)}"{" selected" if v == selected else ""}>{html.escape(t)}</option>'
        for v, t in values
    )


PLAY_MAX_DEALS = 10
"""The play page's cap on a match's deals (the rules' ``max_deals``; FLY-10.1, DRF-8.3): a Fly match of six or
seven players can run to hundreds of deals, and a Dreyfus match need not end at all."""


def play_table_html() -> str:
    """The play page's settings (game, players, preset, seat, bots, seed, deals at most) and its empty table."""
    if not assets_ready():
        return _notice()
    fly_presets = [(f"fly:{name}", f"Fly: {name}") for name in fly.PRESETS]
    dreyfus_presets = [(f"dreyfus:{name}", f"Dreyfus: {name}") for name in dreyfus.PRESETS]
    bots = [(name, name) for name in BOTS]
    return (
        '<form class="fly-play-settings" id="fly-play-settings">'
        f'<label>Game <select name="game">{_options([("fly", "Fly"), ("dreyfus", "Dreyfus")], "fly")}</select></label>'
        f'<label>Players <select name="players">{_options([(str(n), str(n)) for n in range(3, 8)], "4")}'
        "</select></label>"
        f'<label>Preset <select name="preset">{_options(fly_presets + dreyfus_presets, "fly:default")}</select></label>'
        '<label>Your seat <input name="seat" type="number" min="0" max="6" value="0"></label>'
        f'<label>Bots <select name="bots">{_options(bots, "rule-of-thumb")}</select></label>'
        '<label>Seed <input name="seed" value="1" size="8"></label>'
        f'<label>Deals at most <input name="max_deals" type="number" min="1" max="1000000" value="{PLAY_MAX_DEALS}" '
        'size="5"></label>'
        '<button type="submit" name="start" class="fly-primary">Start a match</button>'
        '<label class="fly-play-load">Continue a saved history <input name="history" type="file" accept=".toml">'
        "</label></form>"
        f'<div class="fly-play" id="fly-play"><p class="fly-live-notice">The table needs JavaScript and the site '
        f"served over http. {_HTTP}</p></div>"
    )


class PlayTable(SphinxDirective):
    """The play page's table."""

    def run(self) -> list[nodes.Node]:
        """The table as raw HTML."""
        return [nodes.raw("", play_table_html(), format="html")]


def _copy_assets(app: Sphinx, exception: Exception | None) -> None:
    """Put the card table's shared files and the live engine's files beside the pages' scripts in the built site."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "live"
    if assets_ready():
        shutil.copytree(ASSETS, target / "pyodide", dirs_exist_ok=True)
        shutil.copy2(BRIDGE, target / "fly_live.py")
    else:
        # the last lines of the build, set apart: a site without its table is easy to take for the whole site
        for line in ("", "NOTE: this site has no card table (play.html) and no 'try it' boxes.", NOTICE, ""):
            _logger.info("tryit: %s", line)
    target.mkdir(parents=True, exist_ok=True)
    for name in SHARED:  # engine.js imports the table's module on every page (tryit.js): with or without the engine
        shutil.copy2(STATIC / name, target / name)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, the pages' scripts and the copying of the engine's files."""
    app.add_directive("try-it", TryIt)
    app.add_directive("play-table", PlayTable)
    app.add_css_file("live/cardtable.css")
    app.add_css_file("live/live.css")
    app.add_js_file("live/tryit.js", type="module")
    app.connect("build-finished", _copy_assets)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
