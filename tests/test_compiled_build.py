"""The modules the compiled build compiles (scripts/build_compiled.py, issue 51) stay compilable by mypyc.

The build itself (gcc, a fresh venv, the engine's tests against it) is ``scripts/test_compiled``, too slow
for the suite; these are its quick parts: mypyc's own checks and C generation (a few seconds, no gcc), the
two things mypyc accepts that go wrong only when the compiled code runs, and the one rule that keeps a bad
argument's error the library's own in the compiled build.
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


# the annotations a compiled function checks (and converts) on entry: mypyc's primitive types
_CHECKED_ON_ENTRY = {"int", "bool", "str", "float", "bytes", "list", "dict", "set", "frozenset", "tuple"}


def _checked_on_entry(annotation: ast.expr) -> bool:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        annotation = ast.parse(annotation.value, mode="eval").body
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _checked_on_entry(annotation.left) or _checked_on_entry(annotation.right)
    if isinstance(annotation, ast.Subscript):
        annotation = annotation.value
    return isinstance(annotation, ast.Name) and annotation.id in _CHECKED_ON_ENTRY


def arguments_checked_twice(source: str) -> list[str]:
    """The arguments in ``source`` that a function checks itself (passes to a ``check_…`` function, or asks
    ``type()`` of) but annotates with a type the compiled function checks on entry (``int``, ``bool``, ``str``,
    a tuple, a union of them): compiled, mypyc's ``TypeError`` ("int object expected; got str") would come
    before the library's error and its rule ID, and a ``bool`` would pass as an ``int``. Such an argument is
    typed ``object``, and the check narrows it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        arguments = {a.arg: a for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        checked = set()
        for call in ast.walk(node):
            if isinstance(call, ast.Call):
                name = getattr(call.func, "id", getattr(call.func, "attr", ""))
                if name.startswith("check_") or name == "type":
                    checked |= {a.id for a in call.args if isinstance(a, ast.Name)}
        for name in sorted(checked & arguments.keys()):
            annotation = arguments[name].annotation
            if annotation is not None and _checked_on_entry(annotation):
                found.append(f"line {node.lineno}: {node.name}({name}: {ast.unparse(annotation)})")
    return found


def test_the_check_of_self_checked_arguments_tells_them() -> None:
    """An argument passed to a check function or to ``type()`` is named when it is typed int, str, bool or a
    union or tuple of them; not when it is typed ``object``, nor an argument nobody checks."""
    source = """
def view(self, seat: int, other: int) -> None:
    check_seat(seat, 3, "R-1", "a seat")

def start(seed: "int | str", deal_number: int, cards: tuple[int, ...]) -> None:
    if type(seed) is not int and type(cards) is not tuple:
        raise TypeError

def fine(seat: object, seed: object, masks: Sequence[int]) -> None:
    check_seat(seat, 3, "R-1", "a seat")
    check_seed(seed)
    if type(masks) is list: ...
"""
    assert arguments_checked_twice(source) == [
        "line 2: view(seat: int)",
        "line 5: start(cards: tuple[int, ...])",
        "line 5: start(seed: 'int | str')",
    ]


@pytest.mark.parametrize("path", COMPILED)
def test_a_compiled_function_checks_its_own_arguments_as_objects(path: str) -> None:
    """Every argument a function of the compiled build checks itself is typed ``object``, so that its error is
    the library's in both builds."""
    assert arguments_checked_twice((ROOT / path).read_text(encoding="utf-8")) == []


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
