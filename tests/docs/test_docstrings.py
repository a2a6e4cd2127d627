"""Every public name has a docstring: each name in a public module's ``__all__``, the public methods
and properties of public classes, and module constants (by the docstring under their assignment)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import tomllib
from types import ModuleType

import fly_rules
from tests.docs.conftest import ROOT


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


VERSIONS = ROOT / "docs" / "versions.toml"


def public_names() -> set[str]:
    """The full names the API reference documents: every public module, and each class, function and
    constant of a public module's ``__all__``, named where it is defined (or assigned)."""
    modules = [
        fly_rules,
        *(
            importlib.import_module(info.name)
            for info in pkgutil.walk_packages(fly_rules.__path__, prefix="fly_rules.")
            if not any(part.startswith("_") for part in info.name.split("."))
        ),
    ]
    public = {module.__name__ for module in modules}
    names = set(public)
    for module in modules:
        assigned = constants(inspect.getsource(module))
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if name.startswith("__"):
                continue
            if inspect.isclass(obj) or inspect.isfunction(obj):
                if obj.__module__ in public:
                    qualname = name if "<locals>" in obj.__qualname__ else obj.__qualname__  # decorated
                    names.add(f"{obj.__module__}.{qualname}")
            elif name in assigned:
                names.add(f"{module.__name__}.{name}")
    return names


def test_every_public_name_says_when_it_was_added() -> None:
    """Every public module, class, function and constant has a ``versionadded``: written in its
    docstring, or listed under its version in ``docs/versions.toml`` (which the docs build turns into
    the same note); the file names nothing that is not public."""
    with VERSIONS.open("rb") as handle:
        listed = {name for names in tomllib.load(handle)["added"].values() for name in names}
    missing = []
    for full in sorted(public_names() - listed):
        module_name, _, attribute = full.partition(".")
        obj: object = importlib.import_module(module_name)
        for part in attribute.split(".") if attribute else []:
            try:
                obj = getattr(obj, part)
            except AttributeError:
                obj = importlib.import_module(f"{getattr(obj, '__name__', '')}.{part}")
        if ".. versionadded::" not in (getattr(obj, "__doc__", None) or ""):
            missing.append(full)
    assert missing == [], f"add these to {VERSIONS.name} under the coming version: {missing}"
    assert listed <= public_names(), sorted(listed - public_names())
