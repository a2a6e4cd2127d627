"""Lay out the published site with the release in its addresses: the html build of this release is copied
to OUT/RELEASE/ (the folder a cited address such as ``0.1.0/rules/fly.html#FLY-7.2`` names), the releases
already in OUT are kept as they are, and OUT/index.html leads to the newest; OUT/versions.json lists every
release with its games' rules versions (docs/versions.md says why).

Usage: python scripts/site_layout.py HTML_DIR OUT_DIR
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import fly_rules
from fly_rules import registry

REDIRECT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>fly_rules</title>
<meta http-equiv="refresh" content="0; url={release}/index.html">
</head><body><p>The newest release's site: <a href="{release}/index.html">fly_rules {release}</a>.
Every release: <a href="versions.json">versions.json</a>.</p></body></html>
"""


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", release))


def lay_out(html: Path, out: Path, release: str = fly_rules.__version__) -> list[dict[str, object]]:
    """Copy ``html`` to ``out/release`` and write ``out/index.html`` and ``out/versions.json``; the list of
    releases written, newest first."""
    if not (html / "index.html").is_file():
        raise SystemExit(f"{html} is not an html build (no index.html)")
    here = out / release
    if here.exists():
        shutil.rmtree(here)
    shutil.copytree(html, here)
    (here / "release.json").write_text(
        json.dumps(
            {"version": release, "rules_versions": {g: registry.get(g).rules_version for g in registry.games()}},
            sort_keys=True,
        )
        + "\n",
        encoding="utf-8",
    )
    releases = sorted(
        (
            json.loads((p / "release.json").read_text(encoding="utf-8"))
            for p in out.iterdir()
            if (p / "release.json").is_file()
        ),
        key=lambda entry: _key(str(entry["version"])),
        reverse=True,
    )
    for entry in releases:
        entry["url"] = f"{entry['version']}/index.html"
    (out / "versions.json").write_text(json.dumps(releases, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (out / "index.html").write_text(REDIRECT.format(release=releases[0]["version"]), encoding="utf-8")
    return releases


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    for entry in lay_out(Path(sys.argv[1]), Path(sys.argv[2])):
        print(f"{entry['version']}: {entry['url']}")
