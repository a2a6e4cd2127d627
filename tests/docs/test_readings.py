"""The Decisions stand on their own: each question a Decision names has its section on the site's
Sources and readings page, and nothing points the reader at notes outside the site."""

from __future__ import annotations

import re
import sys

from tests.docs.conftest import ROOT

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import rulebook  # the docs extension, importable once its folder is on the path

SOURCES = ROOT / "docs" / "explanation" / "sources.md"
_ANCHOR = re.compile(r"^\((reading-[a-z]+-a[0-9]+)\)=$", re.MULTILINE)


def _named() -> dict[str, list[str]]:
    """Each question label the specs name, with the files naming it."""
    named: dict[str, list[str]] = {}
    for path in sorted((ROOT / "specs").glob("*.md")):
        for match in rulebook.READING.finditer(path.read_text(encoding="utf-8")):
            named.setdefault(rulebook.reading_label(match.group(1), match.group(2)), []).append(path.name)
    return named


def test_every_question_a_decision_names_has_its_section_and_every_section_is_named() -> None:
    """A Decision's ``reading Fly A-19`` must have its anchor on the Sources and readings page (a missing one
    fails here, and the strict build fails on the link), and every question there is settled by some rule."""
    named = _named()
    anchors = set(_ANCHOR.findall(SOURCES.read_text(encoding="utf-8")))
    assert len(named) == 31 + 26
    missing = {label: files for label, files in named.items() if label not in anchors}
    assert not missing, f"Decisions name questions with no section in {SOURCES.name}: {missing}"
    assert anchors == set(named), f"sections no Decision names: {sorted(anchors - set(named))}"


def test_a_decision_links_to_its_question() -> None:
    """The rulebook turns the name of a question into a checked link to its anchor, outside code only."""
    text = "Default: R1 (reading Fly A-19; reading Dreyfus A3), as `reading Fly A-n` says."
    linked = rulebook.link_ids(text)
    assert "{ref}`reading Fly A-19 <reading-fly-a19>`" in linked
    assert "{ref}`reading Dreyfus A3 <reading-dreyfus-a3>`" in linked
    assert "`reading Fly A-n`" in linked


def test_nothing_sends_the_reader_to_notes_outside_the_site() -> None:
    """The specs, the hand-written pages and the catalogue data never cite the research notes."""
    files = [*sorted((ROOT / "specs").glob("*.md")), ROOT / "tests" / "catalogue.toml"]
    generated = {"rules", "catalogue"}
    files += [p for p in sorted((ROOT / "docs").rglob("*.md")) if p.parts[len(ROOT.parts) + 1] not in generated]
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bresearch\b", line, re.IGNORECASE)
    ]
    assert not offenders, offenders
