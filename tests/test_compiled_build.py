"""The modules the compiled build compiles (scripts/build_compiled.py, issue 51) stay compilable by mypyc.

The build itself (gcc, a fresh venv, the engine's tests against it) is ``scripts/test_compiled``, too slow
for the suite; these are its quick parts: mypyc's own checks and C generation (a few seconds, no gcc), and
the two things mypyc accepts that go wrong only when the compiled code runs.
"""

from __future__ import annotations

import ast
import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from mypyc.build import mypycify  # the test extra installs mypy, which ships mypyc

ROOT = Path(__file__).resolve().parents[1]


def _build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_compiled", ROOT / "scripts" / "build_compiled.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED: tuple[str, ...] = _build_script().COMPILED


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def compile_time_pitfalls(source: str) -> list[str]:
    """What in ``source`` mypyc compiles but the compiled module gets wrong at run time:

    - an ``else`` after ``if TYPE_CHECKING:`` (mypy takes the ``else`` for unreachable, so mypyc compiles it to
      "Reached allegedly unreachable code!", while the compiled code takes TYPE_CHECKING for false);
    - an attrs field's ``@name.default`` or ``@name.validator`` method (mypyc applies a class's method
      decorators after attrs has built the class, so the field is never set or checked).
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and _is_type_checking(node.test) and node.orelse:
            found.append(f"line {node.lineno}: else after if TYPE_CHECKING")
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Attribute) and decorator.attr in ("default", "validator"):
                    found.append(f"line {decorator.lineno}: @{ast.unparse(decorator)}")
    return found


def test_the_pitfall_check_tells_both_pitfalls() -> None:
    """The check names an else after TYPE_CHECKING and an attrs default method, and passes plain code."""
    source = """
if TYPE_CHECKING:
    x = 1
else:
    x = 2

class Table:
    trump = attrs.field(init=False)

    @trump.default
    def _trump(self) -> int:
        return 0
"""
    assert compile_time_pitfalls(source) == ["line 2: else after if TYPE_CHECKING", "line 10: @trump.default"]
    assert compile_time_pitfalls("if TYPE_CHECKING:\n    import os\n\n@functools.cache\ndef f(): ...\n") == []


@pytest.mark.parametrize("path", COMPILED)
def test_a_compiled_module_has_no_run_time_pitfall(path: str) -> None:
    """No module of the compiled build holds code that mypyc compiles but runs differently."""
    assert compile_time_pitfalls((ROOT / path).read_text(encoding="utf-8")) == []


def test_mypyc_compiles_the_hot_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mypyc accepts every module of the compiled build (its type checks, native classes, C generation): one
    extension module each, and the shared library."""
    shutil.copytree(ROOT / "fly_rules", tmp_path / "fly_rules", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["setup.py"])
    extensions = mypycify(list(COMPILED))
    names = {extension.name for extension in extensions}
    assert {path.removesuffix(".py").replace("/", ".") for path in COMPILED} < names
    assert len(names) == len(COMPILED) + 1
