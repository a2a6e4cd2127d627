"""Do the conformance cases test what they claim? Two checks that ``scripts/conformance_vectors.py`` runs before it
writes the vectors.

- **Reach.** Each rule a case claims (``covers``) that the engine's code cites must be cited by code the engine
  runs for that case: a function whose docstring cites it, or a line marked with it (``# FLY-7.3``). The
  engine's answer to the case is traced line by line (``sys.settrace``) through the rule modules. A case that
  claims FLY-7.3 but stops before the trick is won never runs the code that decides the trick, and is refused.
- **Decision.** Each deliberate bug of :mod:`tests.conformance.mutants` must change the outcome of at least one
  case that claims its rule: the rule the case names is then the one that decides it.
"""

from __future__ import annotations

import ast
import functools
import io
import sys
import tokenize
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import FrameType
from typing import Any

from fly_rules.conformance.answers import answer
from fly_rules.conformance.vectors import outcome
from fly_rules.spec import RULE_ID
from tests.conformance.mutants import MUTANTS, applied

PACKAGE = Path(__file__).resolve().parents[2] / "fly_rules"
RULE_CODE = ("cards.py", "tricks.py", "actions.py", "engine", "fly", "dreyfus", "notation")
"""Where the rules are implemented (the game packages' client parts, bots and the kit's own parts are not)."""
NOT_RULES = ("present.py", "bot.py", "solving.py", "hidden.py", "conformance.py")


def _rule_files() -> list[Path]:
    files = []
    for part in RULE_CODE:
        path = PACKAGE / part
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return [f for f in files if f.name not in NOT_RULES]


@functools.cache
def citations() -> dict[str, dict[int, frozenset[str]]]:
    """By file, each line of rule code with the rule IDs it is cited for: its function's docstring, a comment on
    the line or just above it, a string on it that is a rule ID (the rule a refusal names), and for the test of
    an ``if``, the rules its refusals name."""
    table: dict[str, dict[int, frozenset[str]]] = {}
    for path in _rule_files():
        text = path.read_text(encoding="utf-8")
        lines: dict[int, set[str]] = {}
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                cited = set(RULE_ID.findall(ast.get_docstring(node) or ""))
                if cited:
                    for line in range(node.body[0].lineno, (node.end_lineno or node.lineno) + 1):
                        lines.setdefault(line, set()).update(cited)
            elif isinstance(node, ast.If):  # the test that leads to a refusal naming a rule
                named = {
                    inner.value
                    for statement in node.body
                    for inner in ast.walk(statement)
                    if isinstance(inner, ast.Constant)
                    and isinstance(inner.value, str)
                    and RULE_ID.fullmatch(inner.value)
                }
                if named:
                    lines.setdefault(node.test.lineno, set()).update(named)
        pending: set[str] = set()
        code_lines = {
            t.start[0] for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME
        }
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and RULE_ID.search(token.string):
                row = token.start[0]
                if row in code_lines:
                    lines.setdefault(row, set()).update(RULE_ID.findall(token.string))
                else:  # a comment line: it marks the next line of code
                    pending.update(RULE_ID.findall(token.string))
            elif token.type == tokenize.NAME and pending:
                lines.setdefault(token.start[0], set()).update(pending)
                pending = set()
            elif token.type == tokenize.STRING and RULE_ID.fullmatch(token.string.strip("\"'")):
                lines.setdefault(token.start[0], set()).add(token.string.strip("\"'"))
        table[str(path)] = {line: frozenset(ids) for line, ids in lines.items()}
    return table


@functools.cache
def cited_rules() -> frozenset[str]:
    """Every rule ID the rule code cites."""
    return frozenset(rule for lines in citations().values() for ids in lines.values() for rule in ids)


def _caches() -> list[Any]:
    """Every ``functools`` cache of the package's modules and classes, so that a cached rule runs again."""
    found = []
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("fly_rules"):
            continue
        for value in list(vars(module).values()):
            holders = [value, *vars(value).values()] if isinstance(value, type) else [value]
            found += [h for h in holders if hasattr(h, "cache_clear") and hasattr(h, "cache_info")]
    return found


def reached(case: Mapping[str, Any]) -> set[str]:
    """The rule IDs cited by the lines of rule code the engine runs to answer ``case`` (its caches emptied
    first, so that what a case needs is computed for it)."""
    for cache in _caches():
        cache.cache_clear()
    table = citations()
    found: set[str] = set()

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            found.update(table[frame.f_code.co_filename].get(frame.f_lineno, ()))
        return local

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename in table else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        outcome(case, answer)
    finally:
        sys.settrace(previous)
    return found


def unreached(cases: Iterable[Mapping[str, Any]], untraced: Iterable[str] = ()) -> list[str]:
    """One line for each rule a case claims, and the code cites, that its answer never runs (the rule a case's
    expected refusal names is its outcome, so it is reached; ``untraced`` rules are not checked)."""
    problems = []
    cited = cited_rules() - set(untraced)
    for case in cases:
        claimed = set(case["covers"]) & cited
        refused = case["expected"].get("refused")
        if refused:
            claimed.discard(refused["rule"])
        if not claimed:
            continue
        missing = sorted(claimed - reached(case))
        if missing:
            problems.append(f"{case['id']} claims {' '.join(missing)} but never runs the code that cites it")
    return problems


def uncaught(cases: Iterable[Mapping[str, Any]]) -> list[str]:
    """One line for each deliberate bug that no case claiming its rule catches."""
    cases = list(cases)
    problems = []
    for mutant in MUTANTS:
        claiming = [case for case in cases if mutant.rule in case["covers"]]
        with applied(mutant):
            caught = any(_differs(case) for case in claiming)
        if not caught:
            problems.append(f"no case claiming {mutant.rule} catches the bug {mutant.name!r} ({mutant.bug})")
    return problems


def _differs(case: Mapping[str, Any]) -> bool:
    try:
        return bool(outcome(case, answer) != case["expected"])
    except Exception:
        return True


def problems(cases: list[dict[str, Any]], untraced: Iterable[str] = ()) -> list[str]:
    """Every way in which the cases do not test what they claim (empty when they do); ``untraced``: the rules whose
    code the trace cannot see."""
    return unreached(cases, untraced) + uncaught(cases)
