"""Every public name has a docstring: each name in a public module's ``__all__``, the public methods
and properties of public classes, and module constants (by the docstring under their assignment)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from types import ModuleType

import fly_rules


def _public_modules() -> list[ModuleType]:
    names = [info.name for info in pkgutil.iter_modules(fly_rules.__path__) if not info.name.startswith("_")]
    return [fly_rules, *(importlib.import_module(f"fly_rules.{name}") for name in names)]


def constants(source: str) -> dict[str, bool]:
    """The module-level names a module's ``source`` assigns, each with whether a string literal follows it."""
    body = ast.parse(source).body
    found: dict[str, bool] = {}
    for index, node in enumerate(body):
        target: ast.expr | None = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        following = body[index + 1] if index + 1 < len(body) else None
        found[target.id] = (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        )
    return found


def _undocumented() -> list[str]:
    missing: list[str] = []
    for module in _public_modules():
        if not (module.__doc__ or "").strip():
            missing.append(module.__name__)
        names = getattr(module, "__all__", None)
        if names is None:
            missing.append(f"{module.__name__}.__all__")
            continue
        assigned = constants(inspect.getsource(module))
        for name in names:
            obj = getattr(module, name)
            if name.startswith("__"):
                continue
            if inspect.isclass(obj) or inspect.isfunction(obj):
                if obj.__module__ != module.__name__:
                    continue  # documented where it is defined
                if not (obj.__doc__ or "").strip():
                    missing.append(f"{module.__name__}.{name}")
                if inspect.isclass(obj):
                    for attr, value in vars(obj).items():
                        if attr.startswith("_"):
                            continue
                        function = value.fget if isinstance(value, property) else value
                        function = getattr(function, "__func__", function)
                        if callable(function) and not (getattr(function, "__doc__", None) or "").strip():
                            missing.append(f"{module.__name__}.{name}.{attr}")
            elif name in assigned and not assigned[name]:
                missing.append(f"{module.__name__}.{name}")  # imported names are checked where assigned
    return missing


def test_every_public_name_has_a_docstring() -> None:
    """Modules, classes, functions, methods, properties and constants named in ``__all__`` are documented."""
    assert _undocumented() == []


def test_the_constant_check_tells_documented_from_undocumented() -> None:
    """A constant counts as documented only when a string literal directly follows its assignment."""
    source = 'A = 1\n"""Documented."""\nB: int = 2\n"""Also."""\nC = 3\nD = 4\nx.y = 5\n'
    assert constants(source) == {"A": True, "B": True, "C": False, "D": False}
