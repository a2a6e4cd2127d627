"""``fly-rules rules``: a rule of the specification, a section, or a search of the rules."""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import fly_rules
from fly_rules import registry
from fly_rules.cards import Card
from fly_rules.commands.common import CommandError
from fly_rules.spec import Rule, cite_bibtex, cite_text, find_spec_dir, load_rules, test_citations

__all__ = ["add", "citation", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``rules`` to the ``fly-rules`` parser's subparsers ``sub``."""
    rules = sub.add_parser("rules", help="print a rule of the specification, or search the rules")
    rules.add_argument(
        "id", nargs="?", default=None, help="a rule ID such as FLY-7.2, a section (FLY-7) or a file (FLY)"
    )
    rules.add_argument(
        "--search",
        nargs="+",
        default=None,
        metavar="WORD",
        help="the rules, sections and files that mention every word or quoted phrase, in any case, in their text, "
        "sources or decisions (card names find card symbols: 'ace of spades' finds A♠)",
    )
    rules.add_argument(
        "--cite",
        action="store_true",
        help="with a rule ID: how to cite the rule for good (a line and a BibTeX entry, with this release, the "
        "game's rules version and the rule's address on the site)",
    )
    rules.set_defaults(run=run)


_CARD_SYMBOL = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9TJQKA])([♠♥♦♣])")


def _searchable(*texts: str) -> str:
    """The texts as one lower-case line, each card symbol followed by its name (``A♠ ace of spades``),
    so that a search in words finds the rules written with symbols."""

    def named(match: re.Match[str]) -> str:
        card = Card.parse(match.group(0))
        return f"{match.group(0)} {card.rank.name} of {card.suit.name}"

    return _CARD_SYMBOL.sub(named, " ".join(" ".join(texts).split())).casefold()


def _outline(rules: dict[str, Rule]) -> dict[str, tuple[str, str]]:
    """The spec files and their numbered sections, by ID prefix (``FLY``, ``FLY-7``): each one's heading and
    its searchable text (a file's title and introduction, a section's heading)."""
    spec_dir = find_spec_dir()
    outline: dict[str, tuple[str, str]] = {}
    for file in dict.fromkeys(rule.file for rule in rules.values()):
        in_file = [rule for rule in rules.values() if rule.file == file]
        lines = (spec_dir / file).read_text(encoding="utf-8").splitlines()
        headings = [(n, line[3:].strip()) for n, line in enumerate(lines, start=1) if line.startswith("## ")]
        title = next((line[2:].strip() for line in lines if line.startswith("# ")), file)
        first = headings[0][0] if headings else len(lines)
        outline[in_file[0].id.split("-")[0]] = (f"{title} ({file})", _searchable(title, *lines[1 : first - 1]))
        for (start, heading), (end, _) in zip(headings, [*headings[1:], (len(lines) + 1, "")], strict=True):
            inside = [rule for rule in in_file if start < rule.line < end]
            if inside:
                name = re.sub(r"^[0-9]+\.\s*", "", heading)
                outline[inside[0].id.split(".")[0]] = (name, _searchable(name))
    return outline


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print a rule, a section or a file of the specification, or the result of a search."""
    rules = load_rules()
    if args.search:
        return _search(rules, args.search, out)
    if args.id is None:
        for each in rules.values():
            print(f"{each.id}  {each.title}", file=out)
        return 0
    key = args.id.strip().upper()
    if args.cite:
        if key not in rules:
            raise CommandError(f"--cite takes a rule ID such as FLY-7.2, not {args.id!r}")
        print(citation(rules[key]), file=out)
        return 0
    if key in rules:
        _print_rule(rules[key], out)
        return 0
    inside = [rule for rule in rules.values() if rule.id.startswith((key + ".", key + "-"))]
    if not inside:
        raise CommandError(f"no rule or section {args.id!r} in the specification (try: fly-rules rules --search WORDS)")
    heading = _outline(rules).get(key, (key, ""))[0]
    print(f"{key}  {heading}: {len(inside)} rules\n", file=out)
    for rule in inside:
        print(f"{rule.id}  {rule.title}", file=out)
        if "-" in key and rule.text:  # a section: each rule's text too; a whole file: the titles
            print(textwrap.indent(rule.text.strip(), "    ") + "\n", file=out)
    print(f"\nA rule in full, with its sources, decisions and tests: fly-rules rules {inside[0].id}", file=out)
    return 0


def citation(rule: Rule) -> str:
    """How to cite ``rule``: the line and the BibTeX entry of :func:`fly_rules.spec.cite_text` and
    :func:`~fly_rules.spec.cite_bibtex`, with this release and the rules version of the rule's game."""
    game = Path(rule.file).stem
    known = game in registry.games()
    version = registry.get(game).rules_version if known else None
    title = registry.get(game).title if known else ""
    text = cite_text(rule, fly_rules.__version__, version, game=title)
    return f"{text}\n\n{cite_bibtex(rule, fly_rules.__version__, version, game=title)}"


def _search(rules: dict[str, Rule], terms: Sequence[str], out: TextIO) -> int:
    """Print the files, sections and rules whose text has every term (a word, or a phrase in quotes)."""
    wanted = [" ".join(term.split()).casefold() for term in terms]
    outline = _outline(rules)
    places = [(key, heading) for key, (heading, text) in outline.items() if all(term in text for term in wanted)]
    # a rule is searched with its file's title, which names the game in the language of the document its
    # sources translate (Fly (Муха)): the rules are found by the game's own name
    texts = {
        rule.id: _searchable(
            rule.id, rule.title, rule.text, *rule.sources, *rule.decisions, *rule.options, *rule.examples
        )
        + " "
        + _searchable(outline.get(rule.id.split("-")[0], ("", ""))[0])
        for rule in rules.values()
    }
    found = [rule for rule in rules.values() if all(term in texts[rule.id] for term in wanted)]
    if not places and not found:
        raise CommandError(f"no rule mentions {' '.join(terms)!r}")
    for key, heading in places:
        print(f"{key}  {heading}  (all of it: fly-rules rules {key})", file=out)
    for rule in found:
        print(f"{rule.id}  {rule.title}", file=out)
    return 0


def _print_rule(rule: Rule, out: TextIO) -> None:
    print(f"{rule.id} {rule.title}   ({rule.file}, line {rule.line}; {rule.status})\n", file=out)
    if rule.text:
        print(rule.text.strip() + "\n", file=out)
    for label, values in (("Source", rule.sources), ("Decision", rule.decisions), ("Options", rule.options)):
        for value in values:
            print(f"{label}: {value}\n", file=out)
    if any("seeds/" in source for source in rule.sources):
        print(f"(seeds/ is the folder of the source documents: {_seeds_dir()})\n", file=out)
    print("Tests that cite it:", file=out)
    for line in _citing_tests(rule.id):
        print(f"  {line}", file=out)


def _seeds_dir() -> Path:
    """The source documents' folder: ``seeds/`` beside ``specs/`` in a checkout, shipped in the wheel as
    ``fly_rules/_seeds``."""
    beside = find_spec_dir().parent / "seeds"
    return beside if beside.is_dir() else Path(__file__).resolve().parents[1] / "_seeds"


def _citing_tests(rule_id: str) -> list[str]:
    root = find_spec_dir().parent
    tests = root / "tests"
    if not tests.is_dir():
        return ["(the tests are not installed with the package; see the rulebook online)"]
    found = [c for c in test_citations(sorted(tests.rglob("test_*.py")), root) if c.rule == rule_id]
    found.sort(key=lambda c: not c.own)  # its own tests first, then those that only mention it
    return [("" if c.own else "(mentions it) ") + (f"{c.test}: {c.doc}" if c.doc else c.test) for c in found] or [
        "(none)"
    ]
