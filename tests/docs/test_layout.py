"""No page of the site scrolls sideways: headless Chromium lays out the key pages at a desktop and a phone
width and measures the document's scroll width against its visible width."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

KEY_PAGES = (
    "index.html",
    "how-to-play/fly.html",
    "how-to-play/dreyfus.html",
    "play.html",
    "explanation/defaults.html",
    "catalogue/fly.html",
    "catalogue/dreyfus.html",
    "rules/fly.html",
    "rules/dreyfus.html",
    "rules/decisions.html",
    "explanation/sources.html",
    "how-to/draw-a-card-table.html",
)
WIDTHS = (1200, 400)

# The probe page: each key page in an iframe of the given width; once all have loaded it writes, for each,
# the document's scrollWidth and clientWidth and, for each card-table picture, its drawn width, its own width,
# whether its figure scrolls sideways and its right edge, into the probe's own body, which --dump-dom prints.
PROBE = """<!doctype html><html><body><pre id="out"></pre><script>
const pages = PAGES, widths = WIDTHS, results = {}; let waiting = pages.length * widths.length;
for (const page of pages) for (const width of widths) {
  const frame = document.createElement("iframe");
  frame.style.width = width + "px"; frame.style.height = "800px";
  frame.onload = () => {
    const root = frame.contentDocument.documentElement;
    const pictures = [...frame.contentDocument.querySelectorAll(".fly-table > svg")].map((svg) => [
      svg.getBoundingClientRect().width, Number(svg.getAttribute("width")),
      svg.parentElement.scrollWidth > svg.parentElement.clientWidth, svg.getBoundingClientRect().right]);
    results[page + "@" + width] = [root.scrollWidth, root.clientWidth, pictures];
    if (--waiting === 0) document.getElementById("out").textContent = JSON.stringify(results);
  };
  frame.src = "/" + page; document.body.appendChild(frame);
}
</script></body></html>"""


class _Handler(SimpleHTTPRequestHandler):
    """Serves the built site, and the probe page at ``/__probe.html``."""

    def do_GET(self) -> None:
        if self.path != "/__probe.html":
            super().do_GET()
            return
        body = PROBE.replace("PAGES", json.dumps(KEY_PAGES)).replace("WIDTHS", json.dumps(WIDTHS)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def served(built_html: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a free port), for as long as the module's tests run."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(built_html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def measured(served: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    """The probe's measures of every key page at every width, from one run of headless Chromium."""
    tmp_path = tmp_path_factory.mktemp("layout")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "the layout check needs Debian's chromium (scripts/test installs it as root)"
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=20000",
        "--dump-dom",
        f"{served}/__probe.html",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    start, end = result.stdout.find('<pre id="out">'), result.stdout.find("</pre>")
    text = result.stdout[start + len('<pre id="out">') : end]
    assert text, f"the probe reported nothing: {result.stderr[-500:]}"
    measures: dict[str, list[Any]] = json.loads(text.replace("&quot;", '"'))
    return measures


def test_no_key_page_scrolls_sideways_at_desktop_or_phone_width(measured: dict[str, list[Any]]) -> None:
    """At 1200 and 400 pixels wide, no key page is wider than its window: long one-line positions wrap
    inside their box and the pictures scale down."""
    assert len(measured) == len(KEY_PAGES) * len(WIDTHS)
    for probe, (_, visible, _) in measured.items():
        width = int(probe.rsplit("@", 1)[1])
        assert width - 20 <= visible <= width, (probe, visible)  # the page was laid out at that width
    wide = {page: sizes for page, sizes in measured.items() if sizes[0] > sizes[1]}
    assert not wide, f"pages wider than their window (scrollWidth, clientWidth): {wide}"


def test_a_picture_scales_to_the_page_and_is_never_cropped(measured: dict[str, list[Any]]) -> None:
    """At 1200 pixels a picture is drawn at most at its own size; at 400 it scales down to the page's width
    (a Dreyfus table of twelve-card hands, wider than a phone, included): no figure scrolls sideways and
    every picture lies whole inside the window, every seat in view."""
    dreyfus = measured["how-to-play/dreyfus.html@400"][2]
    assert dreyfus, "the Dreyfus page has no card-table picture"
    assert max(own for _, own, _, _ in dreyfus) > 800  # twelve-card hands: wider than a phone
    for probe, (_, visible, pictures) in measured.items():
        for drawn, own, scrolls, right in pictures:
            assert drawn <= own + 0.5, (probe, drawn, own)
            assert not scrolls, (probe, drawn)  # scaled, not cropped in a scrolling figure
            assert right <= visible + 0.5, (probe, right, visible)
        if probe.endswith("@400"):
            assert all(drawn < own for drawn, own, _, _ in pictures if own > 400), probe
