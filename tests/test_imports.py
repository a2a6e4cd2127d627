"""The package's import graph: no module imports, at load time, a module that imports it back, nor a module
of a layer above its own (import-linter's ``layers`` contract in ``pyproject.toml``)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "fly_rules"
PYPROJECT = ROOT.parent / "pyproject.toml"
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of ``root`` and the modules of the package it imports at module level."""
    graph: dict[str, set[str]] = {}
    base = root.parent
    for path in sorted(root.rglob("*.py")):
        name = ".".join(path.relative_to(base).with_suffix("").parts).removesuffix(".__init__")
        found: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(root.name):
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    is_module = (base / (submodule.replace(".", "/") + ".py")).exists()
                    found.add(submodule if is_module else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name.startswith(root.name))
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk of ``graph`` meets, each as the modules along it."""
    state: dict[str, int] = {}
    found: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in graph:
                continue
            if state.get(other) == 1:
                found.append([*path[path.index(other) :], other])
            elif other not in state:
                visit(other, path)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    return found


def test_no_import_cycle_in_the_package() -> None:
    """Section modules never import their game's state; nothing is imported at the bottom of a file."""
    graph = import_graph()
    assert "fly_rules.fly.state" in graph["fly_rules.fly.match"]
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    """The check has teeth: a graph where a section imports the state back is reported."""
    graph = {"game.state": {"game.play"}, "game.play": {"game.scoring"}, "game.scoring": {"game.state"}}
    assert cycles(graph) == [["game.play", "game.scoring", "game.state", "game.play"]]


def _lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    """import-linter run on the package found first from ``project``, with the contracts of its pyproject."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.run(
        [sys.executable, "-c", LINT], cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_layers_contract_holds() -> None:
    """Every module-level import of the package points down the layers of ``pyproject.toml``
    (``[tool.importlinter]``): the games import neither each other nor the notation, bots or adapters."""
    run = _lint_imports(ROOT.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 1 kept, 0 broken." in run.stdout


def test_the_layers_check_fails_on_an_upward_import(tmp_path: Path) -> None:
    """The check has teeth: a copy of the package where the cards import the notation at module level
    breaks the contract, and the report names the import and its line."""
    shutil.copytree(ROOT, tmp_path / "fly_rules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PYPROJECT, tmp_path / "pyproject.toml")
    cards = tmp_path / "fly_rules" / "cards.py"
    cards.write_text(cards.read_text(encoding="utf-8") + "\nimport fly_rules.notation  # upward\n", encoding="utf-8")
    run = _lint_imports(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "fly_rules.cards is not allowed to import fly_rules.notation" in run.stdout
    assert "Contracts: 0 kept, 1 broken." in run.stdout


def test_the_accepted_upward_imports_are_inside_functions() -> None:
    """The contract's ignored imports (a picture for Jupyter, ``_repr_svg_``) are each made inside a function,
    never at module level, and each is still made (an exception no longer needed is taken out)."""
    ignored = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"][0]
    graph = import_graph()
    assert ignored["ignore_imports"]
    for line in ignored["ignore_imports"]:
        importer, imported = (part.strip() for part in line.split("->"))
        assert imported not in graph[importer]
        source = ROOT.parent / (importer.replace(".", "/") + ".py")
        assert f"from {imported} import" in source.read_text(encoding="utf-8")
