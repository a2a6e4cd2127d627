"""The rulebook extension on a small made-up project: anchors, test lists, and failures on bad IDs."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.docs.conftest import ROOT, sphinx_build


def fake(prefix: str, number: str) -> str:
    """A rule ID built at run time, so that this file does not itself cite it."""
    return f"{prefix}-{number}"


GOOD, UNTESTED, UNKNOWN = fake("FLY", "9.1"), fake("FLY", "9.2"), fake("FLY", "9.9")


def _project(tmp_path: Path, *, index: str, cite_second: bool) -> Path:
    """A repository with a one-file spec, one test file and a docs folder using the real configuration."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "README.md").write_text("format\n", encoding="utf-8")
    (tmp_path / "specs" / "fly.md").write_text(
        f"# Fly\n\nIntro, see {GOOD}.\n\n## 9. Demo\n\n"
        f"### {GOOD} First\n\nText.\n\n**Source:** a «quote» — gloss.\n**Decision:** ours.\n"
        f"**Options:** `x`: `a` (default), `b`.\n**Example:** one, as in {UNTESTED}.\n\n"
        f"### {UNTESTED} Second\n\nMore text.\n\n**Decision:** ours.\n",
        encoding="utf-8",
    )
    (tmp_path / "tests").mkdir()
    second = f'\n\n@pytest.mark.rule("{UNTESTED}")\ndef test_second():\n    pass\n' if cite_second else ""
    name = "test_" + GOOD.lower().replace("-", "_").replace(".", "_") + "_works"
    (tmp_path / "tests" / "test_demo.py").write_text(
        f'import pytest\n\n\ndef {name}():\n    """It works.\n\n    More."""\n    assert True\n{second}',
        encoding="utf-8",
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    real_conf = ROOT / "docs" / "conf.py"
    (docs / "conf.py").write_text(
        f"__file__ = {str(real_conf)!r}\n"
        f"exec(compile(open(__file__, encoding='utf-8').read(), __file__, 'exec'))\n"
        "html_static_path = []\nhtml_css_files = []\nhtml_favicon = None\nrulebook_api_package = ''\n",
        encoding="utf-8",
    )
    (docs / "index.md").write_text(index + "\n\n```{toctree}\nrules/index\n```\n", encoding="utf-8")
    return tmp_path


def test_a_good_project_builds_with_rule_anchors_and_test_links(tmp_path: Path) -> None:
    """Rules get their ID as anchor, the rule role links to it, and each rule lists its tests."""
    project = _project(tmp_path, index=f"# Demo\n\nSee {{rule}}`{GOOD}`.", cite_second=True)
    result = sphinx_build(project / "docs", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "rules" / "fly.html").read_text(encoding="utf-8")
    assert f'<section id="{GOOD}">' in page
    assert f'<section id="{UNTESTED}">' in page
    assert "It works." in page
    assert "More." not in page  # only the first paragraph of the docstring
    assert "tests/tests-test_demo.html#test-tests-test-demo-py-test-" in page
    assert "«quote»" in page
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert f'href="rules/fly.html#{GOOD}"' in index
    source = (tmp_path / "out" / "rules" / "tests" / "tests-test_demo.html").read_text(encoding="utf-8")
    assert "assert" in source


def test_an_unknown_rule_id_fails_the_build(tmp_path: Path) -> None:
    """The rule role refuses an ID that specs/ does not define."""
    project = _project(tmp_path, index=f"# Demo\n\nSee {{rule}}`{UNKNOWN}`.", cite_second=True)
    result = sphinx_build(project / "docs", tmp_path / "out")
    assert result.returncode != 0
    assert UNKNOWN in result.stderr


def test_a_rule_without_tests_fails_the_build(tmp_path: Path) -> None:
    """A rule that no test cites is a warning, so an error in the strict build."""
    project = _project(tmp_path, index="# Demo", cite_second=False)
    result = sphinx_build(project / "docs", tmp_path / "out")
    assert result.returncode != 0
    assert f"rule {UNTESTED} (specs/fly.md:" in result.stderr
    assert "is cited by no test" in result.stderr


def test_a_public_module_that_cannot_be_imported_names_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The API reference imports every public module, the adapters too: one whose library is missing stops
    the build with a message naming the module and the extras the docs build needs."""
    package = tmp_path / "made_up_package"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package."""\n', encoding="utf-8")
    (package / "needs_more.py").write_text('"""Needs a library."""\nimport not_installed_anywhere\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "_ext"))
    rulebook = importlib.import_module("rulebook")
    with pytest.raises(
        RuntimeError,
        match=r"needs_more, which cannot be imported .*pip install -e '\.\[docs,adapters,cli,testing\]'",
    ):
        rulebook.public_modules("made_up_package")
    (package / "needs_more.py").write_text('"""Needs nothing now."""\n', encoding="utf-8")
    importlib.invalidate_caches()
    assert rulebook.public_modules("made_up_package") == ["made_up_package", "made_up_package.needs_more"]
