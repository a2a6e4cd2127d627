"""The built site: an anchor for every rule, the tests under each rule, and no broken internal link."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from fly_rules.spec import load_rules, test_citations
from tests.docs.conftest import ROOT


class _Page(HTMLParser):
    """The ids and the link targets of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _rule_sections(html: str) -> dict[str, str]:
    """The HTML of each rule's section on a rulebook page, by the section's id."""
    sections: dict[str, str] = {}
    for match in re.finditer(r'<section id="([^"]+)">', html):
        end = html.find("<section", match.end())
        sections[match.group(1)] = html[match.end() : end if end != -1 else len(html)]
    return sections


def test_every_rule_has_its_id_as_anchor_and_lists_its_tests(built_html: Path) -> None:
    """Every rule in specs/ has a section whose id is exactly its ID, on the page of its spec file,
    and that section links to the source of every test that cites the rule (at least one)."""
    rules = load_rules(ROOT / "specs")
    citations = test_citations(sorted((ROOT / "tests").rglob("test_*.py")), ROOT)
    assert rules
    for rule in rules.values():
        page = built_html / "rules" / (Path(rule.file).stem + ".html")
        sections = _rule_sections(page.read_text(encoding="utf-8"))
        assert rule.id in sections, f"{page.name} has no anchor #{rule.id}"
        section = sections[rule.id]
        cited_by = [c for c in citations if c.rule == rule.id]
        if rule.retired:
            continue
        assert cited_by, f"{rule.id} is cited by no test"
        for citation in cited_by:
            name = ".".join(citation.test.split("::")[1:])
            assert re.search(
                rf'<a class="reference internal" href="tests/[^"#]+\.html#test-[^"]+">.*?{re.escape(name)}', section
            ), f"{rule.id} does not link to {citation.test}"


def test_every_spec_file_has_a_rulebook_page(built_html: Path) -> None:
    """Each specs/*.md file (but the format description) has its page, listed on the rulebook index."""
    index = (built_html / "rules" / "index.html").read_text(encoding="utf-8")
    spec_files = [p for p in (ROOT / "specs").glob("*.md") if p.name != "README.md"]
    assert spec_files
    for spec_file in spec_files:
        assert (built_html / "rules" / f"{spec_file.stem}.html").is_file()
        assert f'href="{spec_file.stem}.html"' in index


def test_every_public_module_has_an_api_page(built_html: Path) -> None:
    """The API reference has a page for the package and for every public module in it."""
    modules = []
    for path in sorted((ROOT / "fly_rules").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if not any(part.startswith("_") for part in parts):
            modules.append(".".join(parts))
    assert "fly_rules" in modules
    for module in modules:
        page = built_html / "reference" / "api" / f"{module}.html"
        assert page.is_file(), f"no API page for {module}"
        assert f'id="module-{module}"' in page.read_text(encoding="utf-8")


def test_the_landing_page_leads_to_every_section(built_html: Path) -> None:
    """The landing page links to the tutorials, how-tos, rulebook, explanation and reference."""
    links = set(_parse(built_html / "index.html").links)
    for section in ("tutorials", "how-to", "rules", "catalogue", "explanation", "reference"):
        assert f"{section}/index.html" in links


def test_the_landing_page_says_how_to_install_and_start(built_html: Path) -> None:
    """A newcomer finds an install line from a checkout, how to build a wheel, a quick start and the changelog."""
    html = (built_html / "index.html").read_text(encoding="utf-8")
    assert 'id="install"' in html
    text = unescape(re.sub(r"<[^>]+>", "", html))  # the words, without the highlighting's markup
    assert "pip install -e '.[cli]'" in text
    assert "python -m build" in text
    assert "twine check" in text
    assert "Quick start" in text
    assert "fly-rules demo" in text
    assert "changelog.html" in set(_parse(built_html / "index.html").links)
    changelog = (built_html / "changelog.html").read_text(encoding="utf-8")
    assert "0.1.0" in changelog


def test_no_page_assumes_a_published_package() -> None:
    """The install lines name a checkout (``pip install -e '.[extra]'``), not a package on an index."""
    pages = [p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts]
    assert len(pages) > 20
    assert [str(p) for p in pages if "install 'fly_rules[" in p.read_text(encoding="utf-8")] == []


def test_the_api_index_describes_each_module_in_sections(built_html: Path) -> None:
    """The API index has sections, and each public module's row has a one-line description."""
    text = (built_html / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    for section in ("The games", "Shared by both games", "Bots", "Tools"):
        assert f'{section}<a class="headerlink"' in text
    rows = re.findall(
        r'<tr class="row-(?:odd|even)"><td><p><a [^>]*><code [^>]*><span class="pre">([^<]+)</span>'
        r"</code></a></p></td>\s*<td><p>(.+?)</p></td>",
        text,
    )
    described = dict(rows)
    assert "fly_rules.cards" in described
    assert described["fly_rules.bots.monte_carlo"].startswith("A determinised Monte-Carlo bot")
    assert len(described) == len(list((built_html / "reference" / "api").glob("fly_rules*.html")))


def test_the_test_sources_sit_under_one_rulebook_entry(built_html: Path) -> None:
    """The rulebook's sidebar lists the spec pages, the Decisions and one page for the test sources, under
    which the test files' pages are; the landing page's sidebar does not list test files at all."""
    rulebook = (built_html / "rules" / "index.html").read_text(encoding="utf-8")
    assert 'href="tests/index.html"' in rulebook
    tests_index = _parse(built_html / "rules" / "tests" / "index.html").links
    assert len([link for link in tests_index if link.startswith("tests-")]) >= 20
    home = (built_html / "index.html").read_text(encoding="utf-8")
    assert "rules/tests/index.html" in home
    assert "rules/tests/tests-" not in home


_OBJECT = re.compile(r'<dl class="py (class|function|data|exception)">\s*<dt class="sig[^"]*" id="([^"]+)"')


def test_every_documented_name_shows_when_it_was_added(built_html: Path) -> None:
    """Each object on an API page carries its "Added in version" note (from docs/versions.toml)."""
    checked = 0
    for page in sorted((built_html / "reference" / "api").glob("fly_rules*.html")):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(
            r'<dl class="py (class|function|data|exception)">\s*<dt class="sig[^"]*" id="([^"]+)"', text
        ):
            depth, position = 1, match.end()
            for tag in re.finditer(r"<(/?)dl[ >]", text[position:]):
                depth += -1 if tag.group(1) else 1
                if depth == 0:
                    break
            body = text[position : position + tag.end()]
            assert 'class="versionadded"' in body, f"{page.name}: {match.group(2)} has no versionadded note"
            checked += 1
        assert "versionadded" in text.split('<dl class="py', 1)[0], f"{page.name}: the module has no note"
    assert checked > 100


def test_internal_links_and_anchors_resolve(built_html: Path) -> None:
    """Every link between pages of the site points to a page that exists and to an id on it."""
    pages = {path: _parse(path) for path in built_html.rglob("*.html")}
    assert len(pages) > 10
    broken = []
    checked = 0
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("mailto:"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            fragment = unquote(parts.fragment)
            checked += 1
            if target not in pages and not target.is_file():
                broken.append(f"{path.relative_to(built_html)}: {link} (no such file)")
            elif fragment and target in pages and fragment not in pages[target].ids:
                broken.append(f"{path.relative_to(built_html)}: {link} (no such anchor)")
    assert checked > 100
    assert not broken, "\n".join(broken)
