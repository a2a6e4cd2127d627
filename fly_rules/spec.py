"""Reading the rule specification in ``specs/`` and tracing rule IDs to tests.

The format is defined in ``specs/README.md``. In short: each rule is a level-3
Markdown heading ``### CARD-1.3 Title``; the paragraphs under it are its
normative text, and lines starting ``**Source:**``, ``**Decision:**``,
``**Options:**``, ``**Example:**`` or ``**Status:**`` are its fields.

This module is used by the traceability test, the ``fly-rules rules``
command and the documentation build.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

import attrs

__all__ = [
    "PREFIXES",
    "RULE_ID",
    "Citation",
    "Rule",
    "SpecError",
    "TraceReport",
    "cite_bibtex",
    "cite_text",
    "cited_ids",
    "find_spec_dir",
    "load_rules",
    "parse_spec",
    "rule_address",
    "test_citations",
    "trace",
]

PREFIXES: Final = ("CARD", "FLY", "DRF", "TRK", "REC", "TBL")
"""The rule-ID prefixes, one per spec file family."""

RULE_ID: Final = re.compile(r"\b(?:CARD|FLY|DRF|TRK|REC|TBL)-[0-9]+\.[0-9]+[a-z]?\b")
"""A rule ID anywhere in text: prefix, section, rule number, optional letter."""

_HEADING: Final = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_RULE_HEADING: Final = re.compile(r"^((?:CARD|FLY|DRF|TRK|REC|TBL)-[0-9]+\.[0-9]+[a-z]?)\s+(.+)$")
_FIELD: Final = re.compile(r"^\s*(?:[-*]\s+)?\*\*(Source|Decision|Options|Example|Status):\*\*\s*(.*)$")
_RULE_MARK: Final = re.compile(r"^(?:pytest\.)?mark\.rule\(")
_TEST_NAME_ID: Final = re.compile(r"(?:^|_)(card|fly|drf|trk|rec)((?:_(?:and_)?\d+_\d+[a-z]?(?=_|$))+)")
_NAME_NUMBERS: Final = re.compile(r"(\d+)_(\d+)([a-z]?)")


class SpecError(ValueError):
    """A spec file that breaks the format of ``specs/README.md``."""


@attrs.frozen
class Rule:
    """One rule clause of the specification."""

    id: str
    """The stable rule ID, such as ``CARD-1.3``."""
    title: str
    """The heading text after the ID."""
    text: str
    """The normative text, Markdown."""
    file: str
    """The spec file it is defined in (name only)."""
    line: int
    """The 1-based line of its heading."""
    sources: tuple[str, ...] = ()
    """Source citations: seed file, passage, quote in the original language."""
    decisions: tuple[str, ...] = ()
    """Decisions where the sources are silent or ambiguous."""
    options: tuple[str, ...] = ()
    """The rules options that select other readings."""
    examples: tuple[str, ...] = ()
    """Worked examples."""
    status: str = "active"
    """``active``, or ``retired …`` with the reason and successor."""

    @property
    def retired(self) -> bool:
        """Whether the rule is withdrawn (its ID stays listed, never reused)."""
        return self.status.lower().startswith("retired")


def parse_spec(text: str, file: str = "<spec>") -> list[Rule]:
    """Parse one spec file into its rules, checking the format.

    Raises:
        SpecError: naming the file and line of the first format error.
    """
    rules: list[Rule] = []
    current: dict[str, object] | None = None
    body: list[str] = []
    fields: dict[str, list[str]] = {}
    last_field: str | None = None

    def close() -> None:
        if current is None:
            return
        text_part = "\n".join(body).strip()
        status = " ".join(fields.get("Status", [])).strip() or "active"
        rule = Rule(
            id=str(current["id"]),
            title=str(current["title"]),
            text=text_part,
            file=file,
            line=int(str(current["line"])),
            sources=tuple(fields.get("Source", [])),
            decisions=tuple(fields.get("Decision", [])),
            options=tuple(fields.get("Options", [])),
            examples=tuple(fields.get("Example", [])),
            status=status,
        )
        if not rule.retired and not rule.text:
            raise SpecError(f"{file}:{rule.line}: rule {rule.id} has no normative text")
        if not rule.retired and not rule.sources and not rule.decisions:
            raise SpecError(f"{file}:{rule.line}: rule {rule.id} has neither a Source nor a Decision")
        rules.append(rule)

    in_fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING.match(line)
        if heading:
            close()
            current, body, fields, last_field = None, [], {}, None
            level, title = heading.groups()
            rule_heading = _RULE_HEADING.match(title)
            if len(level) == 3:
                if not rule_heading:
                    raise SpecError(f"{file}:{number}: a level-3 heading must start with a rule ID: {line!r}")
                current = {"id": rule_heading.group(1), "title": rule_heading.group(2), "line": number}
            elif rule_heading:
                raise SpecError(f"{file}:{number}: a rule heading must be level 3 (###): {line!r}")
            continue
        if current is None:
            continue
        field = None if in_fence else _FIELD.match(line)
        if field:
            last_field = field.group(1)
            fields.setdefault(last_field, []).append(field.group(2).strip())
        elif last_field is not None and line.strip() and (line.startswith("  ") or in_fence):
            fields[last_field][-1] += "\n" + line.strip()
        elif last_field is not None and not line.strip():
            last_field = None
        elif last_field is None:
            body.append(line)
        else:
            last_field = None
            body.append(line)
    close()
    return rules


def find_spec_dir() -> Path:
    """The ``specs/`` folder: beside the package in a checkout, else shipped inside it."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "specs", here / "_specs"):
        if (candidate / "README.md").is_file():
            return candidate
    raise FileNotFoundError("the specs/ folder was not found beside or inside the fly_rules package")


def load_rules(spec_dir: Path | None = None) -> dict[str, Rule]:
    """Every rule of every spec file, by ID, in file order.

    Raises:
        SpecError: on a format error or an ID defined twice.
    """
    spec_dir = find_spec_dir() if spec_dir is None else spec_dir
    rules: dict[str, Rule] = {}
    for path in sorted(spec_dir.glob("*.md")):
        if path.name == "README.md":
            continue
        for rule in parse_spec(path.read_text(encoding="utf-8"), path.name):
            if rule.id in rules:
                first = rules[rule.id]
                raise SpecError(f"{path.name}:{rule.line}: {rule.id} is already defined at {first.file}:{first.line}")
            rules[rule.id] = rule
    return rules


@attrs.frozen
class Citation:
    """A test that cites a rule."""

    rule: str
    """The rule ID cited."""
    test: str
    """``path::Class::function`` of the test."""
    doc: str
    """The test's docstring (first paragraph), or ''."""
    line: int
    """The line the test is defined on."""
    own: bool = False
    """Whether the rule is the test's subject: its ID is in the test's name or in a ``pytest.mark.rule``
    marker. A test that only names the rule in its docstring or parameters merely mentions it."""


def _ids_in_name(name: str) -> Iterator[str]:
    """The rule IDs a test's name carries: ``test_fly_7_2_…`` names FLY-7.2, and a run of numbers names one
    rule per pair (``test_fly_7_2_7_3_…`` and ``test_fly_6_6_and_8_2_…`` name two)."""
    for match in _TEST_NAME_ID.finditer(name):
        prefix, numbers = match.groups()
        for section, number, letter in _NAME_NUMBERS.findall(numbers):
            yield f"{prefix.upper()}-{section}.{number}{letter}"


def test_citations(test_files: Iterable[Path], root: Path) -> list[Citation]:
    """Rule IDs cited by test functions: in the function's name
    (``test_card_1_3_…`` cites CARD-1.3), its docstring, or a
    ``pytest.mark.rule("…")`` marker (or any other decorator that names it).
    A citation by name or ``rule`` marker is the test's own (:attr:`Citation.own`).

    Every function or method in a test file counts (so state-machine rules and
    invariants count too).
    """
    citations: list[Citation] = []
    for path in test_files:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        relative = path.relative_to(root).as_posix()
        for qualname, node in _functions(tree):
            doc = ast.get_docstring(node) or ""
            found: dict[str, bool] = dict.fromkeys(_ids_in_name(node.name), True)
            for rule in RULE_ID.findall(doc):
                found.setdefault(rule, False)
            for decorator in node.decorator_list:
                marker = ast.unparse(decorator)
                for rule in RULE_ID.findall(marker):
                    found[rule] = found.get(rule, False) or _RULE_MARK.match(marker) is not None
            first_paragraph = doc.split("\n\n")[0].replace("\n", " ").strip()
            for rule, own in found.items():
                citations.append(Citation(rule, f"{relative}::{qualname}", first_paragraph, node.lineno, own))
    return citations


# Not a test: pytest must not collect the helper above.
test_citations.__test__ = False  # type: ignore[attr-defined]  # pytest reads it: not a test


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + node.name, node
            yield from _functions(node, prefix + node.name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + "::")


def cited_ids(files: Iterable[Path]) -> dict[str, list[str]]:
    """Every rule ID mentioned anywhere in the given files, with the files (and
    lines) mentioning it, for the check that no one cites an undefined rule."""
    where: dict[str, list[str]] = {}
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for rule in RULE_ID.findall(line):
                where.setdefault(rule, []).append(f"{path}:{number}")
            if path.name.startswith("test_"):
                for match in re.finditer(r"def (test_\w+)", line):
                    for rule in _ids_in_name(match.group(1)):
                        where.setdefault(rule, []).append(f"{path}:{number}")
    return where


@attrs.frozen
class TraceReport:
    """The result of :func:`trace`."""

    untested: tuple[str, ...]
    """Active rules that no test cites."""
    undefined: tuple[str, ...]
    """IDs cited in code, docs or tests that no spec defines (with where)."""

    @property
    def ok(self) -> bool:
        """Whether there is nothing to report."""
        return not self.untested and not self.undefined

    def __str__(self) -> str:
        lines = []
        if self.untested:
            lines.append("rules that no test cites: " + ", ".join(self.untested))
        if self.undefined:
            lines.append("IDs cited but not defined in specs/: " + "; ".join(self.undefined))
        return "\n".join(lines) or "every rule is tested and every cited ID is defined"


def trace(rules: dict[str, Rule], test_files: Iterable[Path], other_files: Iterable[Path], root: Path) -> TraceReport:
    """Check both directions of traceability between ``specs/`` and the code.

    Args:
        rules: the defined rules (:func:`load_rules`).
        test_files: test modules; their functions must cite every active rule.
        other_files: code and docs; any rule ID they mention must be defined.
        root: the folder test paths are reported relative to.
    """
    test_files = list(test_files)
    tested = {citation.rule for citation in test_citations(test_files, root)}
    untested = tuple(rule.id for rule in rules.values() if not rule.retired and rule.id not in tested)
    mentioned = cited_ids([*test_files, *other_files])
    undefined = tuple(
        f"{rule} ({', '.join(places[:3])})" for rule, places in sorted(mentioned.items()) if rule not in rules
    )
    return TraceReport(untested, undefined)


def rule_address(rule: Rule, release: str, site: str = "") -> str:
    """Where ``rule`` is on the documentation site of ``release``: the release's folder, the rulebook page of
    its spec file and its ID as the anchor, after ``site`` (the site's address, if known).

    >>> rule = Rule("FLY-7.2", "The ace of spades", "", "fly.md", 1)
    >>> rule_address(rule, "0.1.0")
    '0.1.0/rules/fly.html#FLY-7.2'
    """
    return f"{site}{release}/rules/{Path(rule.file).stem}.html#{rule.id}"


def _edition(release: str, rules_version: int | str | None, game: str) -> str:
    version = f", {game} rules version {rules_version}" if rules_version is not None else ""
    return f"fly_rules {release}{version}"


def cite_text(
    rule: Rule, release: str, rules_version: int | str | None = None, *, game: str = "", site: str = ""
) -> str:
    """One line citing ``rule`` for good: its ID and title, the release (and the game's ``RULES_VERSION``,
    which changes whenever an outcome does) and its permanent address.

    >>> rule = Rule("FLY-7.2", "The ace of spades", "", "fly.md", 1)
    >>> cite_text(rule, "0.1.0", 3, game="Fly")
    'FLY-7.2 “The ace of spades”, fly_rules 0.1.0, Fly rules version 3, 0.1.0/rules/fly.html#FLY-7.2'
    """
    return f"{rule.id} “{rule.title}”, {_edition(release, rules_version, game)}, {rule_address(rule, release, site)}"


def cite_bibtex(
    rule: Rule, release: str, rules_version: int | str | None = None, *, game: str = "", site: str = ""
) -> str:
    """A BibTeX ``@misc`` entry citing ``rule``, keyed by its ID and the release (``fly_rules-0.1.0-FLY-7.2``).

    >>> print(cite_bibtex(Rule("CARD-2.3", "The 36-card deck", "", "cards.md", 1), "0.1.0"))
    @misc{fly_rules-0.1.0-CARD-2.3,
      title        = {{CARD-2.3} The 36-card deck},
      author       = {{fly\\_rules developers}},
      howpublished = {fly\\_rules 0.1.0, specs/cards.md},
      version      = {0.1.0},
      url          = {0.1.0/rules/cards.html#CARD-2.3}
    }
    """

    def tex(text: str) -> str:
        return re.sub(r"([&%$#_{}])", r"\\\1", text)

    fields = [
        ("title", f"{{{rule.id}}} {tex(rule.title)}"),
        ("author", "{fly\\_rules developers}"),
        ("howpublished", tex(f"{_edition(release, rules_version, game)}, specs/{rule.file}")),
        ("version", tex(release)),
        ("url", rule_address(rule, release, site)),  # verbatim in BibTeX: not escaped
    ]
    body = ",\n".join(f"  {name:<12} = {{{value}}}" for name, value in fields)
    return f"@misc{{fly_rules-{release}-{rule.id},\n{body}\n}}"
