"""Count ``Any`` in the public signatures of fly_rules and the ``# type: ignore`` comments in it.

A public signature is an annotation of a public function or method (its parameters and its return) or of a
public field (a class-level or module-level annotated name) in a public module: no part of the module's dotted
name, and no enclosing class's or the function's own name, starts with an underscore (dunder methods such as
``__init__`` and ``__call__`` are public). Functions nested in functions are not public. A public type alias
(``Name = dict[str, Any]`` or ``Name: TypeAlias = ...`` at module level) counts too, so that hiding an ``Any``
behind an alias does not lower the count. String annotations are parsed. ``typing.Any`` and ``t.Any`` count as
``Any``.

Run from the repository's root::

    python scripts/count_any.py            # totals and a per-module breakdown
    python scripts/count_any.py --json     # the same as JSON
    python scripts/count_any.py --list     # every public Any and every type: ignore, one a line

Release 0.2's targets (issue 48): public ``Any`` below 200, ``# type: ignore`` below 20.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import sys
import tokenize
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "fly_rules"


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module at ``path`` (``root`` holds its top package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_public_module(name: str) -> bool:
    """No part of the dotted name starts with an underscore."""
    return not any(part.startswith("_") for part in name.split("."))


def is_public_name(name: str) -> bool:
    """A name outside the module's privacy: not ``_x``, but dunders (``__init__``) are public."""
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def count_in_annotation(node: ast.expr | None) -> int:
    """How many times ``Any`` appears in one annotation (a string annotation is parsed first)."""
    if node is None:
        return 0
    total = 0
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Name) and sub.id == "Any") or (isinstance(sub, ast.Attribute) and sub.attr == "Any"):
            total += 1
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                parsed = ast.parse(sub.value, mode="eval")
            except SyntaxError:
                continue
            total += count_in_annotation(parsed.body)
    return total


def function_anys(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
    """(line, where) for each ``Any`` in a function's parameters and return annotation."""
    found: list[tuple[int, str]] = []
    args = func.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    for arg in every:
        found += [(arg.lineno, f"{func.name}({arg.arg})")] * count_in_annotation(arg.annotation)
    found += [(func.lineno, f"{func.name} -> ")] * count_in_annotation(func.returns)
    return found


def is_alias_value(value: ast.expr | None) -> bool:
    """A module-level value that reads as a type: a subscript (``dict[str, Any]``), a union or a bare ``Any``."""
    return isinstance(value, ast.Subscript | ast.BinOp | ast.Name | ast.Attribute)


def body_anys(body: list[ast.stmt], *, in_class: bool) -> list[tuple[int, str]]:
    """(line, where) for each public ``Any`` among a module's or a class's statements."""
    found: list[tuple[int, str]] = []
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if is_public_name(stmt.name):
                found += function_anys(stmt)
        elif isinstance(stmt, ast.ClassDef):
            if not stmt.name.startswith("_"):
                found += [(line, f"{stmt.name}.{where}") for line, where in body_anys(stmt.body, in_class=True)]
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            if is_public_name(stmt.target.id):
                count = count_in_annotation(stmt.annotation)
                if not in_class and is_alias_value(stmt.value):
                    count += count_in_annotation(stmt.value)
                found += [(stmt.lineno, stmt.target.id)] * count
        elif isinstance(stmt, ast.Assign) and not in_class and is_alias_value(stmt.value):
            names = [t.id for t in stmt.targets if isinstance(t, ast.Name) and not t.id.startswith("_")]
            if names and not isinstance(stmt.value, ast.Name | ast.Attribute):
                found += [(stmt.lineno, names[0])] * count_in_annotation(stmt.value)
        elif isinstance(stmt, ast.If | ast.Try):  # definitions under `if TYPE_CHECKING:` or a guarded import
            found += body_anys(stmt.body, in_class=in_class)
            found += body_anys(stmt.orelse, in_class=in_class)
    return found


def type_ignores(source: str) -> list[int]:
    """The lines holding a ``# type: ignore`` comment."""
    lines: list[int] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and "type: ignore" in token.string:
            lines.append(token.start[0])
    return lines


def measure(package: Path = PACKAGE) -> tuple[dict[str, list[tuple[int, str]]], dict[str, list[int]]]:
    """Per module of ``package``: the public ``Any`` (line, where) and the ``# type: ignore`` lines."""
    anys: dict[str, list[tuple[int, str]]] = {}
    ignores: dict[str, list[int]] = {}
    for path in sorted(package.rglob("*.py")):
        name = module_name(path, package.parent)
        source = path.read_text(encoding="utf-8")
        if is_public_module(name):
            anys[name] = body_anys(ast.parse(source).body, in_class=False)
        ignores[name] = type_ignores(source)
    return anys, ignores


def main(argv: list[str] | None = None) -> int:
    """Print the counts; ``--json`` for a machine-readable copy, ``--list`` for every occurrence."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--list", action="store_true", help="print every public Any and type: ignore")
    options = parser.parse_args(argv)
    anys, ignores = measure()
    any_counts = Counter({name: len(found) for name, found in anys.items() if found})
    ignore_counts = Counter({name: len(lines) for name, lines in ignores.items() if lines})
    if options.json:
        print(
            json.dumps(
                {
                    "public_any": any_counts.total(),
                    "type_ignore": ignore_counts.total(),
                    "public_any_by_module": dict(any_counts.most_common()),
                    "type_ignore_by_module": dict(ignore_counts.most_common()),
                },
                indent=2,
            )
        )
        return 0
    if options.list:
        for name, found in anys.items():
            for line, where in found:
                print(f"Any          {name}:{line}  {where}")
        for name, lines in ignores.items():
            for line in lines:
                print(f"type: ignore {name}:{line}")
        return 0
    print(f"public Any: {any_counts.total()}    # type: ignore: {ignore_counts.total()}")
    print()
    width = max((len(name) for name in any_counts | ignore_counts), default=10)
    print(f"{'module':<{width}}  {'Any':>4}  {'ignore':>6}")
    for name in sorted(any_counts | ignore_counts, key=lambda n: (-any_counts[n], -ignore_counts[n], n)):
        print(f"{name:<{width}}  {any_counts[name]:>4}  {ignore_counts[name]:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
