"""What the opt-in compiled build (``scripts/build_compiled``, mypyc) needs to know about a class.

mypyc turns each class of a compiled module into a C extension class unless it carries a decorator it
does not know; a game's deal is a named tuple with Python bases, which an extension class cannot be, so
it is marked :func:`python_class`. In the pure build the decorator does nothing.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["python_class"]

_C = TypeVar("_C", bound=type)


def python_class(cls: _C) -> _C:
    """Return ``cls`` unchanged: in a module mypyc compiles, the class stays a Python class (its methods are
    still compiled), as a named tuple's subclass or a subclass of Python classes must.

    >>> @python_class
    ... class Pair(tuple[int, int]): ...
    >>> Pair((1, 2))
    (1, 2)
    """
    return cls
