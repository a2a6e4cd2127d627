"""Old names kept for one release: a module's ``__getattr__`` that answers each with a DeprecationWarning.

>>> import warnings
>>> __getattr__ = deprecated_names("example", {"old": ("new", 42)})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     __getattr__("old"), str(caught[0].message)
(42, 'example.old is deprecated; use new')
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["deprecated_names", "warn_renamed"]


def warn_renamed(old: str, new: str) -> None:
    """Warn that ``old`` is deprecated in favour of ``new`` (attributed to the caller's caller)."""
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=3)


def deprecated_names(module: str, aliases: Mapping[str, tuple[str, object]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` answering each old name of ``aliases`` (old name: (new name, value)) with
    its value and a DeprecationWarning naming the new one; any other name is an AttributeError."""

    def __getattr__(name: str) -> Any:
        try:
            new, value = aliases[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
        warn_renamed(f"{module}.{name}", new)
        return value

    return __getattr__
