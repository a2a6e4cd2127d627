"""``scripts/count_any.py``: which ``Any`` counts as public (public module, public function, method, field or
alias; parameters and returns; string annotations) and the ``# type: ignore`` comments, on a tiny package."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).parents[2] / "scripts" / "count_any.py"

PUBLIC = '''\
"""A public module."""

from typing import Any, TypeAlias
import typing

Table = dict[str, Any]
Named: TypeAlias = list[typing.Any]
_Hidden = dict[str, Any]
LIMIT = 3


def step(a: Any, *rest: Any, b: "list[Any]" = (), **more: int) -> Any:
    def inner(x: Any) -> Any:
        return x
    return inner(a)


def _private(a: Any) -> Any:
    return a


class Box:
    """A box."""

    size: Any
    _secret: Any

    def __init__(self, size: Any) -> None:
        self.size = size

    def _helper(self) -> Any:
        return None


class _Inner:
    def open(self) -> Any:
        return None


x = [1]  # type: ignore[assignment]
'''

PRIVATE = '''\
"""A private module."""

from typing import Any


def step(a: Any) -> Any:  # type: ignore[misc]
    return a
'''


def load() -> ModuleType:
    """The script as a module."""
    spec = importlib.util.spec_from_file_location("count_any", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_counts_public_any_and_every_type_ignore(tmp_path: Path) -> None:
    """Public signatures and aliases count; private names, nested functions and private modules do not; every
    ``# type: ignore`` counts, in private modules too."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""The package."""\n')
    (package / "public.py").write_text(textwrap.dedent(PUBLIC))
    (package / "_private.py").write_text(textwrap.dedent(PRIVATE))
    anys, ignores = load().measure(package)
    where = sorted(w for _, w in anys["pkg.public"])
    # Table, Named, step(a), step(rest), step(b) (a string), step's return, Box.size, Box.__init__(size)
    assert where == sorted(
        ["Table", "Named", "step(a)", "step(rest)", "step(b)", "step -> ", "Box.size", "Box.__init__(size)"]
    )
    assert "pkg._private" not in anys
    assert ignores["pkg.public"] == [PUBLIC.splitlines().index("x = [1]  # type: ignore[assignment]") + 1]
    assert ignores["pkg._private"] == [6]


def test_the_package_is_measured() -> None:
    """On fly_rules itself the script finds public modules and prints a total line."""
    anys, ignores = load().measure()
    assert "fly_rules.registry" in anys
    assert "fly_rules.cards" in ignores
