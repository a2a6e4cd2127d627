"""``scripts/mutate_statements.py``: the mutants it makes (a statement deleted, a constant or a class-level
default changed), the tests it picks for each, and a whole run on a tiny project in a temporary folder."""

from __future__ import annotations

import ast
import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).parents[2] / "scripts" / "mutate_statements.py"

STEP = '''\
"""A tiny module to mutate."""

import attrs

LIMIT = 3
NAME = "step"


@attrs.frozen
class Box:
    """A box."""

    size: int = 2
    full: bool = attrs.field(default=False)


def step(a):
    """One step up, at most LIMIT."""
    assert a >= 0
    if a >= LIMIT:
        return LIMIT
    a = a + 1
    return a


def unused(a):
    pass
'''

TESTS = """\
from tiny_pkg.step import LIMIT, Box, step


def test_step_adds_one():
    assert step(0) == 1


def test_step_stops_at_the_limit():
    assert step(LIMIT + 5) == 3


def test_box():
    assert Box().size == 2
"""


def load_script() -> ModuleType:
    """The script as a module (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("mutate_statements", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def tiny_project(root: Path) -> None:
    """A package ``tiny_pkg`` with ``step.py``, tests that import it and one that does not."""
    (root / "tiny_pkg").mkdir()
    (root / "tiny_pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "tiny_pkg" / "step.py").write_text(STEP, encoding="utf-8")
    (root / "tiny_checks").mkdir()
    (root / "tiny_checks" / "test_tiny_step.py").write_text(TESTS, encoding="utf-8")
    (root / "tiny_checks" / "test_tiny_other.py").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    config = """
        [tool.mutmut]
        pytest_add_cli_args_test_selection = ["tiny_checks"]
        pytest_add_cli_args = ["-p", "no:cacheprovider"]
    """
    (root / "pyproject.toml").write_text(textwrap.dedent(config), encoding="utf-8")


def test_the_mutants_of_a_module() -> None:
    """Each statement of a function body is deleted (compound ones whole, then inside), except the
    docstring, ``pass`` and ``assert``; each module constant and class-level default is changed; every
    mutant compiles, differs from the module, and has a name that says where it is and what it changes."""
    script = load_script()
    mutants = script.mutants_of(STEP, "tiny_pkg.step")
    names = [m.name for m in mutants]
    assert names == [
        "tiny_pkg.step:<module>:constant:LIMIT = 3",
        'tiny_pkg.step:<module>:constant:NAME = "step"',
        "tiny_pkg.step:Box:default:size: int = 2",
        "tiny_pkg.step:Box:default:full: bool = attrs.field(default=False)",
        "tiny_pkg.step:step:delete:if a >= LIMIT:",
        "tiny_pkg.step:step:delete:return LIMIT",
        "tiny_pkg.step:step:delete:a = a + 1",
        "tiny_pkg.step:step:delete:return a",
    ]
    changes = {m.name.split(":", 3)[3]: m.change for m in mutants}
    assert changes["LIMIT = 3"] == "3 → 4"
    assert changes["full: bool = attrs.field(default=False)"] == "False → True"
    assert changes['NAME = "step"'] == "\"step\" → 'XXstep'"
    original = ast.dump(ast.parse(STEP))
    for mutant in mutants:
        assert ast.dump(ast.parse(mutant.source)) != original
    deleted_if = mutants[4].source
    assert "return LIMIT" not in deleted_if
    assert "    pass\n    a = a + 1" in deleted_if


def test_repeated_statements_get_numbered_names() -> None:
    """Two identical statements in one function are told apart by ``#2``."""
    script = load_script()
    source = "def f(x):\n    x.append(1)\n    x.append(1)\n"
    assert [m.name for m in script.mutants_of(source, "m")] == ["m:f:delete:x.append(1)", "m:f:delete:x.append(1)#2"]


def test_a_whole_run_on_a_tiny_project(tmp_path: Path) -> None:
    """Only the test file importing the module is chosen; each deleted statement is judged by the tests that
    run its line, each constant and default by the tests running the module and then the whole file: the
    box's size (read by attrs' ``__init__``, no line of the module) is killed by the file, the untested
    ``NAME`` constant and ``full`` default survive; the table counts an equivalent apart."""
    script = load_script()
    tiny_project(tmp_path)
    assert script.tests_importing(tmp_path, "tiny_pkg.step", ["tiny_checks"], ("tiny_pkg",)) == [
        "tiny_checks/test_tiny_step.py"
    ]
    workspace = script.make_workspace(tmp_path, ("tiny_pkg", "tiny_checks", "pyproject.toml"))
    results = tmp_path / "results"
    covering = script.line_coverage(tmp_path, workspace, ["tiny_pkg/step.py"], results, ("tiny_pkg",))
    line_of_return_a = STEP.splitlines().index("    return a") + 1
    assert covering["tiny_pkg/step.py"][line_of_return_a] == ["tiny_checks/test_tiny_step.py::test_step_adds_one"]
    outcomes = script.mutate_module(
        tmp_path, workspace, "tiny_pkg/step.py", 60, results, covering["tiny_pkg/step.py"], ("tiny_pkg",)
    )
    status = {name.split(":", 2)[2]: outcome["status"] for name, outcome in outcomes.items()}
    assert status == {
        "constant:LIMIT = 3": "killed",
        'constant:NAME = "step"': "survived",
        "default:size: int = 2": "killed",
        "default:full: bool = attrs.field(default=False)": "survived",
        "delete:if a >= LIMIT:": "killed",
        "delete:return LIMIT": "killed",
        "delete:a = a + 1": "killed",
        "delete:return a": "killed",
    }
    assert (workspace / "tiny_pkg" / "step.py").read_text(encoding="utf-8") == STEP  # put back
    # a second call with the module unchanged reads the kept results instead of running again
    assert script.mutate_module(tmp_path, workspace, "tiny_pkg/step.py", 60, results, {}, ("tiny_pkg",)) == outcomes
    equivalent = {'tiny_pkg.step:<module>:constant:NAME = "step"'}
    lines, lowest = script.score_table({"tiny_pkg.step": outcomes}, equivalent, survivors=True)
    assert lines[1].split() == ["tiny_pkg.step", "8", "1", "6", "0", "1", "85.7%"]
    assert lines[2].startswith("    survived: `tiny_pkg.step:Box:default:full")
    assert round(lowest, 1) == 85.7


def test_a_mutant_patched_into_a_loaded_module_reaches_every_reference() -> None:
    """The fast path: the mutant's code replaces the code of the loaded module's functions and methods in
    place, so a reference taken before (``from m import f``, a cached wrapper, a method) runs the mutant."""
    script = load_script()
    source = textwrap.dedent("""
        import functools

        def step(a):
            a = a + 1
            return a

        @functools.cache
        def cached(a):
            a = a + 1
            return a

        class Box:
            def grow(self, a):
                a = a + 1
                return a
    """)
    module = ModuleType("tiny_loaded")
    module.__file__ = "tiny_loaded.py"
    exec(compile(source, "tiny_loaded.py", "exec"), module.__dict__)
    step, cached, box = module.step, module.cached, module.Box()
    assert (step(1), cached(1), box.grow(1)) == (2, 2, 2)
    script.patch_module(module, source.replace("a = a + 1", "pass"))
    cached.cache_clear()
    assert (step(1), cached(1), box.grow(1)) == (1, 1, 1)
