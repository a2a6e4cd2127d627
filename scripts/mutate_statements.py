"""Mutation testing with the mutants mutmut 3 does not make: a whole statement deleted (replaced by
``pass``), a class-level default changed, a module constant changed.

mutmut mutates expressions inside function bodies only (``scripts/mutation``); this script widens the
run. Each mutant is the module's source with one change, written into a scratch copy of the project
(the package, ``tests``, ``specs``, ``seeds`` and ``pyproject.toml``), and judged by the same fast rules
subset of the tests as mutmut's (``[tool.mutmut] pytest_add_cli_args_test_selection``), cut down to the
tests that run the mutated line: one run of the subset under coverage, with each test as a context
(``--cov-context=test``), tells which tests execute each line; a deleted statement is judged by the tests
that run it (no other test can see the change), a changed constant or default by every test that runs
any line of its module, then, if it survives them, by the whole test files that import the module
(directly or through other modules of the project; the others are never collected). Each mutant's
tests run with ``-x`` under the ``mutation`` Hypothesis profile, in a process forked from one that
has already imported pytest and Hypothesis, and are stopped after ``--timeout`` seconds (a mutant that
hangs counts as detected, as in mutmut, and is shown apart).

Which statements: every statement in a function or method body, compound ones (``if``, ``for``, …) as a
whole and each statement inside them, except a docstring, ``pass``, ``...``, an ``assert`` (it only
guards an invariant: deleting it changes no result while the invariant holds) and a nested ``def`` or
``class``. Constants: a module-level ``NAME = constant`` and a class body's ``name = constant`` or
``name: T = constant`` (or ``attrs.field(default=constant)``), where the constant is a number (+1), a
bool (negated) or a string (``"XX"`` put before it); ``None`` and other values are left alone.

A mutant is named by its module, the function or class it is in, its kind and the first line of the code
it changes (``fly_rules.fly.play:playable_mask:delete:if not table.privileged:``), with ``#2``, ``#3`` for
repeats, so an edit elsewhere in the module does not rename it. Results are kept per module in
``mutants-statements/<module>.json`` with the module's hash, so a second run only redoes changed modules.
Equivalent mutants are listed in ``tests/mutation/equivalent_statements.md`` (``- `NAME` — reason``);
the score is detected / (mutants − equivalent), printed per module; the exit code is 1 under ``--target``.

Usage: python scripts/mutate_statements.py [MODULE_PATH ...] [--target 98] [--timeout 120] [--survivors]
       [--score-only] [--retry-survivors] [--list]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import coverage
import pytest  # imported once here, so that each forked run of a mutant starts with it loaded

RULE_MODULES = ("fly_rules/cards.py", "fly_rules/tricks.py", "fly_rules/fly/*.py", "fly_rules/dreyfus/*.py")
RESULTS = Path("mutants-statements")
EQUIVALENT = Path("tests/mutation/equivalent_statements.md")
COPIED = ("fly_rules", "tests", "specs", "seeds", "pyproject.toml")
ENTRY = re.compile(r"^- `([^`]+)`", re.MULTILINE)


@dataclass(frozen=True)
class Mutant:
    """One mutant of a module: its stable name, the line it changes, what it does and the mutated source."""

    name: str
    line: int
    change: str
    source: str
    end_line: int


@dataclass(frozen=True)
class _Site:
    scope: str
    kind: str
    node: ast.expr | ast.stmt
    replacement: str


def _byte_offsets(source: str) -> list[int]:
    """The byte offset of the start of each line (1-based index: offsets[lineno - 1])."""
    offsets = [0]
    for line in source.encode("utf-8").splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def _literal(node: ast.AST) -> object:
    """The value of a constant or a negated number, else a sentinel."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value
    return _literal


def _changed(value: object) -> str | None:
    """The source of a different constant of the same kind, or None when there is none to make."""
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, int | float):
        return repr(value + 1)
    if isinstance(value, str):
        return repr("XX" + value)
    return None


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


_SKIPPED = (ast.Pass, ast.Assert, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal)


def _statement_sites(body: list[ast.stmt], scope: str) -> Iterator[_Site]:
    """Every statement of a function body that may be deleted, outer ones first, then those inside them."""
    for statement in body:
        if isinstance(statement, _SKIPPED) or _is_docstring(statement):
            continue
        yield _Site(scope, "delete", statement, "pass")
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list):
                yield from _statement_sites(inner, scope)
        for handler in getattr(statement, "handlers", ()):
            yield from _statement_sites(handler.body, scope)
        for case in getattr(statement, "cases", ()):
            yield from _statement_sites(case.body, scope)


def _constant_site(scope: str, kind: str, value_node: ast.expr | None) -> Iterator[_Site]:
    if value_node is None:
        return
    if isinstance(value_node, ast.Call):  # attrs.field(default=...) or field(default=...)
        for keyword in value_node.keywords:
            if keyword.arg == "default":
                yield from _constant_site(scope, kind, keyword.value)
        return
    replacement = _changed(_literal(value_node))
    if replacement is not None and _literal(value_node) is not _literal:
        yield _Site(scope, kind, value_node, replacement)


def _sites(tree: ast.Module) -> Iterator[_Site]:
    """The mutation sites of a module, in source order within each kind."""
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if all(isinstance(t, ast.Name) and not t.id.startswith("__") for t in targets):
                yield from _constant_site("<module>", "constant", node.value)
    for tree_node in ast.walk(tree):
        if isinstance(tree_node, ast.ClassDef):
            for item in tree_node.body:
                if isinstance(item, ast.Assign | ast.AnnAssign):
                    yield from _constant_site(tree_node.name, "default", item.value)
        if isinstance(tree_node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _statement_sites(tree_node.body, tree_node.name)


def mutants_of(source: str, module: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of module ``module``), named stably, each compiling."""
    tree = ast.parse(source)
    original = ast.dump(tree)
    offsets = _byte_offsets(source)
    data = source.encode("utf-8")
    lines = source.splitlines()
    seen: dict[str, int] = {}
    mutants = []
    for site in _sites(tree):
        node = site.node
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        mutated = (data[:start] + site.replacement.encode() + data[end:]).decode("utf-8")
        try:
            if ast.dump(ast.parse(mutated)) == original:
                continue
        except SyntaxError:
            continue
        segment = data[start:end].decode("utf-8").splitlines()[0].strip()
        # a statement names itself; a constant is named by its line (``NAME = 5``), without a comment
        first = segment if site.kind == "delete" else lines[node.lineno - 1].split("  #")[0].strip()
        base = f"{module}:{site.scope}:{site.kind}:{first}"
        seen[base] = seen.get(base, 0) + 1
        name = base if seen[base] == 1 else f"{base}#{seen[base]}"
        mutants.append(Mutant(name, node.lineno, f"{segment} → {site.replacement}", mutated, node.end_lineno))
    return mutants


# -- choosing the tests -------------------------------------------------------------------------------


def _module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name → file, for every module of the given top-level packages under ``root``."""
    files = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            files[name] = path
    return files


def _imports(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The project modules ``path`` (module ``name``) imports, and the packages above each."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = name.split(".") if is_package else name.split(".")[:-1]
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ too
                if ".".join(parts[:i]) in known:
                    found.add(".".join(parts[:i]))
    return found


def tests_importing(root: Path, module: str, test_paths: list[str], packages: tuple[str, ...]) -> list[str]:
    """The test files among ``test_paths`` (files or folders) that import ``module``, directly or not."""
    known = _module_files(root, (*packages, "tests"))
    graph = {name: _imports(path, name, known) for name, path in known.items()}
    reaches: dict[str, bool] = {}

    def imports_module(name: str, stack: frozenset[str] = frozenset()) -> bool:
        if name == module:
            return True
        if name not in reaches:
            reaches[name] = any(imports_module(dep, stack | {name}) for dep in graph.get(name, ()) if dep not in stack)
        return reaches[name]

    files = []
    for entry in test_paths:
        path = root / entry
        for file in sorted(path.rglob("test_*.py")) if path.is_dir() else [path]:
            parts = file.relative_to(root).with_suffix("").parts
            conftests = [".".join([*parts[:i], "conftest"]) for i in range(1, len(parts))]
            direct = _imports(file, ".".join(parts), known)
            if any(imports_module(dep) for dep in direct) or any(imports_module(c) for c in conftests if c in known):
                files.append(str(file.relative_to(root)))
    return files


# -- running --------------------------------------------------------------------------------------------


def make_workspace(root: Path, copied: tuple[str, ...] = COPIED) -> Path:
    """A scratch copy of the project (no byte-code caches) for the mutants to be written into."""
    workspace = Path(tempfile.mkdtemp(prefix="mutate-statements-"))
    for name in copied:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, workspace / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.exists():
            shutil.copy2(source, workspace / name)
    return workspace


_HARNESS_FAILED = 99
"""A forked run's exit code when the harness itself failed (not the tests)."""


class HarnessError(Exception):
    """A forked run failed for a reason of its own (pytest's usage or internal error, or this script's)."""


class _NeedsImport(Exception):
    """The mutant cannot be patched into the loaded module; it must be imported afresh."""


def patch_module(module: types.ModuleType, source: str) -> None:
    """Give the functions and methods of the loaded ``module`` the code of ``source`` (a mutant of it), in
    place, so every reference to them (``from m import f`` elsewhere, bound methods, caches' wrapped
    functions) runs the mutant.

    Raises:
        _NeedsImport: a function's closure differs, so its code cannot be swapped.
    """
    namespace: dict[str, object] = {"__name__": module.__name__, "__package__": module.__package__}
    exec(compile(source, str(module.__file__), "exec"), namespace)
    for name, new in namespace.items():
        old = module.__dict__.get(name)
        if isinstance(old, type) and isinstance(new, type):
            for attribute, value in vars(new).items():
                _swap(vars(old).get(attribute), value)
        else:
            _swap(old, new)


def _swap(old: object, new: object) -> None:
    if isinstance(old, staticmethod | classmethod) and isinstance(new, staticmethod | classmethod):
        old, new = old.__func__, new.__func__
    if isinstance(old, property) and isinstance(new, property):
        for accessor in ("fget", "fset", "fdel"):
            _swap(getattr(old, accessor), getattr(new, accessor))
        return
    wrapped = getattr(old, "__wrapped__", None)
    if wrapped is not None and not isinstance(old, types.FunctionType):
        _swap(wrapped, getattr(new, "__wrapped__", None))
        return
    if isinstance(old, types.FunctionType) and isinstance(new, types.FunctionType) and old is not new:
        if old.__code__.co_freevars != new.__code__.co_freevars:
            raise _NeedsImport(old.__qualname__)
        old.__code__ = new.__code__


def preload(workspace: Path, tests: list[str]) -> None:
    """Import the workspace's package and the test modules once, in this process, so that each forked run
    of a patched mutant (:func:`patch_module`) starts with them loaded and collects quickly."""
    os.chdir(workspace)
    sys.path.insert(0, str(workspace))
    sys.dont_write_bytecode = True
    os.environ["HYPOTHESIS_PROFILE"] = "mutation"
    os.environ["MUTANT_UNDER_TEST"] = "preload"
    for file in sorted({test.split("::", 1)[0] for test in tests}):
        parts = Path(file).with_suffix("").parts
        if all((workspace / Path(*parts[:i]) / "__init__.py").exists() for i in range(1, len(parts))):
            # the conftests first: a test's @settings(...) built at import inherits the profile loaded then
            for i in range(1, len(parts)):
                if (workspace / Path(*parts[:i]) / "conftest.py").exists():
                    importlib.import_module(".".join([*parts[:i], "conftest"]))
            importlib.import_module(".".join(parts))


def run_tests(
    workspace: Path,
    tests: list[str],
    pytest_args: list[str],
    timeout: float,
    name: str,
    patch: tuple[str, str] | None = None,
    packages: tuple[str, ...] = ("fly_rules",),
) -> str:
    """Run ``tests`` in ``workspace`` in a forked process: "killed", "survived" or "timeout".

    With ``patch`` (module name, mutated source) and that module loaded here (:func:`preload`), the child
    patches the mutant in (:func:`patch_module`); otherwise it forgets the package's and the tests' modules
    and imports them afresh from the workspace, where the mutant is written.
    """
    pid = os.fork()
    if pid == 0:  # the child: run the tests on the workspace's copy of the package, quietly
        code = _HARNESS_FAILED
        try:
            os.setpgid(0, 0)
            log = os.environ.get("MUTATE_STATEMENTS_LOG")  # a file for the runs' output, when debugging
            sink = os.open(log or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.dup2(sink, 1)
            os.dup2(sink, 2)
            os.chdir(workspace)
            sys.path.insert(0, str(workspace))
            sys.dont_write_bytecode = True
            os.environ["HYPOTHESIS_PROFILE"] = "mutation"
            os.environ["MUTANT_UNDER_TEST"] = name
            try:
                if patch is None or patch[0] not in sys.modules:
                    raise _NeedsImport(name)
                patch_module(sys.modules[patch[0]], patch[1])
            except Exception:  # not patchable, or the mutant breaks at import: import afresh
                for loaded in [m for m in sys.modules if m.split(".", 1)[0] in (*packages, "tests")]:
                    del sys.modules[loaded]
            # plain asserts: the preloaded modules cannot be rewritten (and -W error would make that fatal)
            plain = ["--assert=plain", "-W", "ignore::pytest.PytestAssertRewriteWarning"]
            code = int(pytest.main([*pytest_args, *plain, "-x", "-q", *tests]))
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            if code in (0, 5):  # passed, or no test collected
                return "survived"
            if code in (1, 2, 4):  # a test failed, or the mutant broke the collection or a conftest
                return "killed"
            raise HarnessError(f"{name}: the forked test run ended with exit code {code}")
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


def pytest_config(root: Path) -> tuple[list[str], list[str]]:
    """The test selection and the pytest arguments of ``[tool.mutmut]`` in pyproject.toml."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    return list(config["pytest_add_cli_args_test_selection"]), list(config.get("pytest_add_cli_args", []))


Covering = dict[str, dict[int, list[str]]]
"""For each module file (relative path), each line's covering tests (node ids), in the run's order."""


def _tree_hash(root: Path, entries: list[str]) -> str:
    """A hash of the Python files of ``entries`` (folders or files under ``root``)."""
    digest = hashlib.sha256()
    for entry in entries:
        path = root / entry
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            if file.exists():
                digest.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def line_coverage(
    root: Path, workspace: Path, paths: list[str], results: Path, packages: tuple[str, ...] = ("fly_rules",)
) -> Covering:
    """For each line of each module of ``paths``, the tests of the subset that execute it: one run of the
    whole subset under coverage, kept in ``results/coverage.json`` until the package or the tests change."""
    selection, pytest_args = pytest_config(root)
    conftests = [str(p.relative_to(root)) for p in sorted(root.rglob("conftest.py")) if ".venv" not in p.parts]
    digest = _tree_hash(root, [*packages, *selection, *conftests])
    record = results / "coverage.json"
    if record.exists():
        kept = json.loads(record.read_text(encoding="utf-8"))
        if kept.get("hash") == digest and set(paths) <= set(kept["files"]):
            return {p: {int(line): ids for line, ids in kept["files"][p].items()} for p in paths}
    data_file = workspace / ".coverage-mutation"
    cov = [f"--cov={package}" for package in packages]
    args = [*pytest_args, *cov, "--cov-context=test", "--cov-report=", *selection]
    env = {**os.environ, "HYPOTHESIS_PROFILE": "mutation", "MUTANT_UNDER_TEST": "coverage"}
    env["COVERAGE_FILE"] = str(data_file)
    env["PYTHONPATH"] = str(workspace)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args], cwd=workspace, env=env, stdout=subprocess.DEVNULL, check=False
    )
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    measured = data.measured_files()
    covering: Covering = {}
    for path in paths:
        filename = str((workspace / path).resolve())
        by_line = data.contexts_by_lineno(filename) if filename in measured else {}
        covering[path] = {
            line: sorted({c.rsplit("|", 1)[0] for c in contexts if c.endswith("|run")})
            for line, contexts in sorted(by_line.items())
        }
    results.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({"hash": digest, "files": covering}), encoding="utf-8")
    return covering


def _tests_for(mutant: Mutant, covering: dict[int, list[str]], end_line: int) -> list[str]:
    """The tests that can see ``mutant``: those running its statement, or, for a constant or default,
    every test that runs a line of the module."""
    if ":delete:" in mutant.name:
        lines = range(mutant.line, end_line + 1)
        return sorted({t for line in lines for t in covering.get(line, ())})
    return sorted({t for ids in covering.values() for t in ids})


def mutate_module(
    root: Path,
    workspace: Path,
    path: str,
    timeout: float,
    results: Path,
    covering: dict[int, list[str]],
    packages: tuple[str, ...] = ("fly_rules",),
    retry: bool = False,
    patching: bool = False,
) -> dict[str, dict[str, object]]:
    """Run every mutant of the module at ``path`` (relative to ``root``), each on the tests of
    ``covering`` (:func:`line_coverage`) that can see it; keep and return the results."""
    source = (workspace / path).read_text(encoding="utf-8")  # the snapshot, though the project moves on
    module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    digest = hashlib.sha256(source.encode()).hexdigest()
    record = results / f"{module}.json"
    outcomes: dict[str, dict[str, object]] = {}
    seconds = 0
    if record.exists():
        kept = json.loads(record.read_text(encoding="utf-8"))
        if kept.get("hash") == digest:
            if kept.get("complete") and not retry:
                return dict(kept["mutants"])
            # an interrupted run goes on; a retry judges the survivors again (after new tests)
            outcomes = {name: o for name, o in kept["mutants"].items() if not (retry and o["status"] == "survived")}
            seconds = int(kept["seconds"])
    selection, pytest_args = pytest_config(root)
    tests = tests_importing(root, module, selection, packages)
    started = time.monotonic()
    if not tests:  # no test file imports the module: no test can see a mutant
        covering = {}
    target = workspace / path
    results.mkdir(parents=True, exist_ok=True)

    def keep(complete: bool) -> None:
        elapsed = seconds + round(time.monotonic() - started)
        data = {"hash": digest, "complete": complete, "seconds": elapsed, "test_files": tests, "mutants": outcomes}
        record.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")

    everything = sorted({t for ids in covering.values() for t in ids})
    if everything and patching:
        # the harness itself must pass the unmutated module, else every mutant would look killed
        sane = run_tests(workspace, everything[:30], pytest_args, timeout, f"{module} unmutated", (module, source))
        if sane != "survived":
            raise HarnessError(f"the unmutated {module} fails its tests in the harness ({sane})")
    try:
        for mutant in mutants_of(source, module):
            if mutant.name in outcomes:
                continue
            chosen = _tests_for(mutant, covering, mutant.end_line)
            target.write_text(mutant.source, encoding="utf-8")
            deleted = ":delete:" in mutant.name
            patch = (module, mutant.source) if patching and deleted else None
            status = "survived"
            if chosen:
                status = run_tests(workspace, chosen, pytest_args, timeout, mutant.name, patch, packages)
            if status == "survived" and patch is not None:
                # patched into loaded modules, a statement run at import time (a table built once) is not
                # seen: a survivor is judged again, imported afresh
                status = run_tests(workspace, chosen, pytest_args, timeout, mutant.name, None, packages)
            if status == "survived" and not deleted and tests:
                # a default or constant may be read by a test that runs no line of its module (an attrs
                # class's generated __init__): the whole files that import the module judge it then
                status = run_tests(workspace, tests, pytest_args, timeout, mutant.name, None, packages)
            outcomes[mutant.name] = {
                "status": status,
                "line": mutant.line,
                "change": mutant.change,
                "tests": len(chosen),
            }
            keep(False)
    finally:
        target.write_text(source, encoding="utf-8")
    keep(True)
    return outcomes


def equivalent_names(path: Path = EQUIVALENT) -> set[str]:
    """The mutants listed as equivalent (``- `NAME` — reason``)."""
    return set(ENTRY.findall(path.read_text(encoding="utf-8"))) if path.exists() else set()


def score_table(
    results: dict[str, dict[str, dict[str, object]]], equivalent: set[str], survivors: bool
) -> tuple[list[str], float]:
    """The table's lines (one per module, survivors under it if asked) and the lowest score."""
    lines = [f"{'module':30} {'mutants':>7} {'equiv':>5} {'killed':>6} {'timeout':>7} {'survived':>8} {'score':>7}"]
    lowest = 100.0
    for module, outcomes in results.items():
        equiv = {name for name in outcomes if name in equivalent}
        detected = {name for name, o in outcomes.items() if o["status"] in ("killed", "timeout")}
        left = sorted(set(outcomes) - detected - equiv)
        counted = len(outcomes) - len(equiv)
        score = 100.0 * len(detected - equiv) / counted if counted else 100.0
        lowest = min(lowest, score)
        timeouts = sum(1 for o in outcomes.values() if o["status"] == "timeout")
        killed = len(detected) - timeouts
        row = f"{module:30} {len(outcomes):7} {len(equiv):5} {killed:6} {timeouts:7} {len(left):8} {score:6.1f}%"
        lines.append(row)
        if survivors:
            lines.extend(f"    survived: `{name}` ({outcomes[name]['change']})" for name in left)
    stale = sorted(equivalent - {name for outcomes in results.values() for name in outcomes})
    modules = set(results)
    lines.extend(f"stale entry (no such mutant): {name}" for name in stale if name.split(":", 1)[0] in modules)
    return lines, lowest


def _rule_modules(root: Path) -> list[str]:
    return sorted(
        str(p.relative_to(root)) for pattern in RULE_MODULES for p in root.glob(pattern) if p.name != "__init__.py"
    )


def main(argv: list[str] | None = None) -> int:
    """Mutate the rule modules (or the given ones), print the table; 1 if a module is under the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="module files (default: the rule modules)")
    parser.add_argument("--target", type=float, default=98.0)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per mutant")
    parser.add_argument("--survivors", action="store_true", help="list every undetected mutant")
    parser.add_argument("--score-only", action="store_true", help="print the kept results, run nothing")
    parser.add_argument("--retry-survivors", action="store_true", help="run the kept survivors again")
    parser.add_argument("--list", action="store_true", help="print the mutants' names and changes, run nothing")
    args = parser.parse_args(argv)
    root = Path.cwd()
    results_dir = root / RESULTS  # absolute: preload() moves into the workspace
    paths = args.paths or _rule_modules(root)
    if args.list:
        for path in paths:
            module = path.removesuffix(".py").replace("/", ".")
            for mutant in mutants_of((root / path).read_text(encoding="utf-8"), module):
                print(f"{mutant.name}  (line {mutant.line}: {mutant.change})")
        return 0
    results: dict[str, dict[str, dict[str, object]]] = {}
    workspace = None if args.score_only else make_workspace(root)
    covering: Covering | None = None
    try:
        for path in paths:
            module = path.removesuffix(".py").replace("/", ".")
            record = results_dir / f"{module}.json"
            if workspace is None:
                if record.exists():
                    results[module] = json.loads(record.read_text(encoding="utf-8"))["mutants"]
                continue
            if covering is None:  # every rule module's, so that later runs of other modules reuse it
                covering = line_coverage(root, workspace, sorted({*paths, *_rule_modules(root)}), results_dir)
                preload(workspace, sorted({t for lines in covering.values() for ids in lines.values() for t in ids}))
            results[module] = mutate_module(
                root,
                workspace,
                path,
                args.timeout,
                results_dir,
                covering[path],
                retry=args.retry_survivors,
                patching=True,
            )
            print(f"{module}: {len(results[module])} mutants", file=sys.stderr, flush=True)
    finally:
        if workspace is not None:
            shutil.rmtree(workspace, ignore_errors=True)
    lines, lowest = score_table(results, equivalent_names(root / EQUIVALENT), args.survivors)
    print("\n".join(lines))
    return 1 if lowest < args.target else 0


if __name__ == "__main__":
    sys.exit(main())
