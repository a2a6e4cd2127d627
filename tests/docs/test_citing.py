"""Rules cited for good: the release and the rules versions in the site's addresses and its versions page, a
cite line and a BibTeX entry under each rule (``fly-rules rules ID --cite`` prints the same), CITATION.cff."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import fly_rules
from fly_rules import dreyfus, fly
from fly_rules.commands.rules import citation
from fly_rules.notation.writing import VERSION
from fly_rules.spec import load_rules

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
sys.path.insert(0, str(ROOT / "scripts"))

from rulebook import rule_markdown  # noqa: E402
from site_layout import lay_out  # noqa: E402


def test_rec_1_3_the_cite_line_names_the_rule_the_release_the_rules_version_and_the_address() -> None:
    """REC-1.3: a rule's citation names its ID and title, this release, its game's RULES_VERSION and its address
    on the release's site; the BibTeX entry says the same, keyed by the release and the ID."""
    rules = load_rules()
    text, bibtex = citation(rules["FLY-7.2"]).split("\n\n")
    assert text == (
        f"FLY-7.2 “{rules['FLY-7.2'].title}”, fly_rules {fly_rules.__version__}, Fly rules version "
        f"{fly.RULES_VERSION}, {fly_rules.__version__}/rules/fly.html#FLY-7.2"
    )
    assert bibtex.startswith(f"@misc{{fly_rules-{fly_rules.__version__}-FLY-7.2,\n")
    assert f"url          = {{{fly_rules.__version__}/rules/fly.html#FLY-7.2}}" in bibtex
    assert f"Dreyfus rules version {dreyfus.RULES_VERSION}" in citation(rules["DRF-1.1"])
    assert "rules version" not in citation(rules["CARD-2.3"])  # the cards belong to no game
    assert bibtex.count("{") == bibtex.count("}")


def test_every_rule_of_the_rulebook_ends_with_its_cite_line_and_bibtex() -> None:
    """Each rule's section in the rulebook carries the cite line and the BibTeX entry of its citation."""
    for rule in load_rules().values():
        page = rule_markdown(rule, [])
        text, bibtex = citation(rule).split("\n\n")
        assert f"**Cite this rule:** {text}" in page
        assert f"```bibtex\n{bibtex}\n```" in page


def test_rules_cite_prints_the_citation_and_refuses_a_section() -> None:
    """``fly-rules rules ID --cite`` prints the citation; a section or an unknown ID is one line and code 1."""
    run = [sys.executable, "-m", "fly_rules", "rules"]
    done = subprocess.run([*run, "fly-7.2", "--cite"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert done.stdout == citation(load_rules()["FLY-7.2"]) + "\n"
    refused = subprocess.run([*run, "FLY-7", "--cite"], capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip() == "fly-rules: --cite takes a rule ID such as FLY-7.2, not 'FLY-7'"


def test_the_versions_page_states_this_release_s_rules_versions() -> None:
    """docs/versions.md has this release's row, with the games' rules versions and the history format's."""
    row = f"| {fly_rules.__version__} | {fly.RULES_VERSION} | {dreyfus.RULES_VERSION} | {VERSION} |"
    assert row in (ROOT / "docs" / "versions.md").read_text(encoding="utf-8")


def test_citation_cff_states_this_release() -> None:
    """CITATION.cff (validated by ``cffconvert --validate`` in scripts/test) names this release."""
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf"^version: {re.escape(fly_rules.__version__)}$", text, re.MULTILINE)
    assert re.search(r"^cff-version: 1\.2\.0$", text, re.MULTILINE)


def test_the_site_keeps_each_release_in_its_own_folder(tmp_path: Path) -> None:
    """The published site has the release in its addresses: each release's build in a folder of its name, the
    older ones kept, versions.json listing them newest first, the root leading to the newest."""
    html = tmp_path / "html"
    (html / "rules").mkdir(parents=True)
    (html / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (html / "rules" / "fly.html").write_text('<section id="FLY-7.2"></section>', encoding="utf-8")
    site = tmp_path / "site"
    lay_out(html, site, "0.1.0")
    releases = lay_out(html, site, "0.2.0")
    assert [entry["version"] for entry in releases] == ["0.2.0", "0.1.0"]
    assert 'id="FLY-7.2"' in (site / "0.1.0" / "rules" / "fly.html").read_text(encoding="utf-8")
    listed = json.loads((site / "versions.json").read_text(encoding="utf-8"))
    assert listed[0]["url"] == "0.2.0/index.html"
    assert listed[1]["rules_versions"]["fly"] == fly.RULES_VERSION
    assert listed[1]["rules_versions"]["dreyfus"] == dreyfus.RULES_VERSION
    assert 'url=0.2.0/index.html"' in (site / "index.html").read_text(encoding="utf-8")
