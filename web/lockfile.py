"""Write the Pyodide lock file of the live pages: our wheel, attrs and tomli-w, with their sha256.

Pyodide's own lock file (in the npm package) points at a CDN; ours lists only the wheels served beside
the runtime, so the pages load nothing from outside the site. A wrong sha256 makes the browser skip a
package silently, so the worker imports fly_rules right after loading and fails loudly.

Usage: python web/lockfile.py DIR (DIR holds the wheels; pyodide-lock.json is written there).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parent
PACKAGES = {  # lock name: (wheel name prefix, imports, dependencies)
    "attrs": ("attrs-", ["attr", "attrs"], []),
    "tomli-w": ("tomli_w-", ["tomli_w"], []),
    "fly-rules": ("fly_rules-", ["fly_rules"], ["attrs", "tomli-w"]),
}


def lock(folder: Path) -> dict[str, object]:
    """The lock file's content for the wheels in ``folder``."""
    upstream = json.loads((WEB / "node_modules/pyodide/pyodide-lock.json").read_text())
    packages = {}
    for name, (prefix, imports, depends) in PACKAGES.items():
        wheels = sorted(folder.glob(f"{prefix}*-py3-none-any.whl"))
        if len(wheels) != 1:
            raise SystemExit(f"{folder}: expected one {prefix}*.whl, found {[w.name for w in wheels]}")
        wheel = wheels[0]
        packages[name] = {
            "name": name,
            "version": wheel.name.split("-")[1],
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": imports,
            "depends": depends,
            "unvendored_tests": False,
        }
    return {"info": upstream["info"], "packages": packages}


if __name__ == "__main__":
    target = Path(sys.argv[1])
    (target / "pyodide-lock.json").write_text(json.dumps(lock(target), indent=1) + "\n")
