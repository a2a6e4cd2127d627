"""The package's import graph: no module imports, at load time, a module that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "fly_rules"


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
