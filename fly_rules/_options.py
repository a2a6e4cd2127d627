"""Options helpers shared by the games' rules classes.

>>> import attrs
>>> @attrs.frozen
... class Options:
...     players: int = 4
...     speed: int = 1
>>> changed_options(Options(players=3, speed=2), Options())
{'speed': 2}
"""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["changed_options"]


def changed_options(rules: Any, default: Any) -> dict[str, object]:
    """The options (init fields, ``players`` aside) in which the attrs instance ``rules`` differs from
    ``default``, by name, in field order."""
    return {
        field.name: getattr(rules, field.name)
        for field in attrs.fields(type(rules))
        if field.init and field.name != "players" and getattr(rules, field.name) != getattr(default, field.name)
    }
