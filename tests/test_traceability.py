"""Traceability between specs/ and the code: every rule is tested, every cited ID exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fly_rules.spec import Rule, SpecError, find_spec_dir, load_rules, parse_spec, test_citations, trace

ROOT = Path(__file__).resolve().parent.parent


def fake(prefix: str, number: str) -> str:
    """A rule ID built at run time, so that this file does not itself cite it."""
    return f"{prefix}-{number}"


C1, C2, C3, C7 = (fake("CARD", f"9.{n}") for n in (1, 2, 3, 7))
F11, F31, F72A = fake("FLY", "1.1"), fake("FLY", "3.1"), fake("FLY", "7.2a")
D21, R11 = fake("DRF", "2.1"), fake("REC", "1.1")


def test_name(rule: str, words: str) -> str:
    """The name of a test function that cites ``rule``."""
    return "test_" + rule.lower().replace("-", "_").replace(".", "_") + "_" + words


test_name.__test__ = False  # type: ignore[attr-defined]


def _test_files() -> list[Path]:
    return sorted((ROOT / "tests").rglob("test_*.py"))


def _other_files() -> list[Path]:
    files = sorted((ROOT / "fly_rules").rglob("*.py"))
    for folder in ("docs", "benchmarks"):
        files += [p for p in sorted((ROOT / folder).rglob("*")) if p.suffix in {".py", ".md", ".rst"}]
    return files


def test_every_rule_is_tested_and_every_cited_id_is_defined() -> None:
    """Every active rule in specs/ is cited by a test, and every cited ID is defined."""
    rules = load_rules(ROOT / "specs")
    assert rules, "specs/ defines no rules"
    report = trace(rules, _test_files(), _other_files(), ROOT)
    assert report.ok, str(report)


def test_the_check_catches_an_uncited_rule_and_an_undefined_id(tmp_path: Path) -> None:
    """Adding an uncited rule, or citing an unknown ID, makes the check fail with the offenders."""
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "README.md").write_text("format\n")
    (specs / "cards.md").write_text(
        f"## 1. Demo\n\n### {C1} Tested\n\nText.\n\n**Decision:** ours.\n\n"
        f"### {C2} Untested\n\nText.\n\n**Decision:** ours.\n\n"
        f"### {C3} Gone\n\n**Status:** retired — folded into {C1}\n"
    )
    tests = tmp_path / "tests"
    tests.mkdir()
    test_file = tests / "test_demo.py"
    name = test_name(C1, "demo")
    test_file.write_text(f'def {name}():\n    """Checks it."""\n')
    code = tmp_path / "code.py"
    code.write_text(f"# implements {C1} and {C7}\n")
    rules = load_rules(specs)
    assert rules[C3].retired
    report = trace(rules, [test_file], [code], tmp_path)
    assert not report.ok
    assert report.untested == (C2,)
    assert len(report.undefined) == 1
    assert report.undefined[0].startswith(f"{C7} (")
    assert C2 in str(report)
    assert C7 in str(report)
    # and with the rule cited by a marker, nothing remains
    test_file.write_text(f'import pytest\n@pytest.mark.rule("{C2}")\ndef {name}():\n    pass\n')
    report = trace(rules, [test_file], [], tmp_path)
    assert report.ok
    assert str(report) == "every rule is tested and every cited ID is defined"


def test_citations_come_from_names_docstrings_and_markers(tmp_path: Path) -> None:
    """A test cites a rule by its name, its docstring or a rule marker, and nothing else."""
    test_file = tmp_path / "test_x.py"
    name = test_name(F72A, "ace_and_" + test_name(F31, "x")[5:-2])
    test_file.write_text(
        f"# {F11} in a comment is not a citation\n"
        "class TestMachine:\n"
        f'    def inv_cards(self):\n        """Checks {D21} and {R11}."""\n'
        f"def {name}(): pass\n"
        "def test_plain(): pass\n"
    )
    cited = {(c.rule, c.test) for c in test_citations([test_file], tmp_path)}
    assert cited == {
        (D21, "test_x.py::TestMachine::inv_cards"),
        (R11, "test_x.py::TestMachine::inv_cards"),
        (F72A, f"test_x.py::{name}"),
        (F31, f"test_x.py::{name}"),
    }


def test_a_citation_by_name_or_rule_marker_is_the_tests_own_one_by_docstring_a_mention(tmp_path: Path) -> None:
    """Citation.own: the rules a test's name carries (every pair of a run of numbers) or a ``rule`` marker
    names are its own; a rule named only in its docstring or another decorator is merely mentioned."""
    test_file = tmp_path / "test_x.py"
    run = test_name(F11, "") + F31.split("-")[1].replace(".", "_") + "_two_rules"
    test_file.write_text(
        "import pytest\n"
        f'@pytest.mark.rule("{D21}")\n'
        f'@pytest.mark.parametrize("rule", ["{R11}"])\n'
        f'def {run}(rule):\n    """Also see {F72A}."""\n'
    )
    own = {c.rule: c.own for c in test_citations([test_file], tmp_path)}
    assert own == {F11: True, F31: True, D21: True, R11: False, F72A: False}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("### Not a rule\n", "must start with a rule ID"),
        (f"## {F11} Wrong level\n", "must be level 3"),
        (f"### {F11} Empty\n\n**Decision:** x\n", "no normative text"),
        (f"### {F11} Unsourced\n\nText.\n", "neither a Source nor a Decision"),
    ],
)
def test_spec_format_errors_name_file_and_line(text: str, message: str) -> None:
    """The spec parser refuses malformed rules, naming the file, line and fault."""
    with pytest.raises(SpecError, match=message) as caught:
        parse_spec(text, "fly.md")
    assert "fly.md:" in str(caught.value)


def test_spec_duplicate_id_is_refused(tmp_path: Path) -> None:
    """The same ID defined twice is a format error naming both places."""
    (tmp_path / "a.md").write_text(f"### {F11} A\n\nText.\n\n**Decision:** x\n")
    (tmp_path / "b.md").write_text(f"### {F11} B\n\nText.\n\n**Decision:** x\n")
    with pytest.raises(SpecError, match=re.escape(f"b.md:1: {F11} is already defined at a.md:1")):
        load_rules(tmp_path)


def test_spec_fields_are_parsed() -> None:
    """Fields, continuation lines and fenced blocks are read as the format says."""
    text = (
        f"# Title\n\nIntro.\n\n## 1. Section\n\n### {F11} Something\n\nFirst paragraph.\n\n"
        "```\n### not a heading inside a fence\n```\n\n"
        "**Source:** seed, «quote»\n  continued.\n**Decision:** default x.\n"
        "**Options:** `x`: `a` (default), `b`.\n\nMore text.\n**Example:** one.\n"
    )
    (rule,) = parse_spec(text, "fly.md")
    assert isinstance(rule, Rule)
    assert rule.id == F11
    assert rule.title == "Something"
    assert rule.sources == ("seed, «quote»\ncontinued.",)
    assert rule.decisions == ("default x.",)
    assert rule.options == ("`x`: `a` (default), `b`.",)
    assert rule.examples == ("one.",)
    assert "More text." in rule.text
    assert "### not a heading" in rule.text
    assert rule.line == 7
    assert not rule.retired


def test_the_real_spec_folder_is_found() -> None:
    """The checkout's specs/ folder is found beside the package."""
    assert find_spec_dir() == ROOT / "specs"
    assert "CARD-3.1" in load_rules()
