"""The edge-case catalogue, generated at build time from the tests and ``tests/catalogue.toml``.

Called by ``rulebook.py`` while it generates the rulebook (one generator, so that stale pages are
removed consistently). It writes ``catalogue/index.md`` and one page per game:

- every test that cites a rule in the edge-case test files listed in ``tests/catalogue.toml``, grouped
  by the first rule it cites, with its docstring and a link to its source on the rulebook's test pages;
- before them, under their rule, the worked examples of ``tests/catalogue.toml``: the position (a
  picture drawn by :func:`fly_rules.svg.deal_picture`), the moves and the outcome, as a ``{doctest}``
  block that ``sphinx-build -b doctest`` runs, a picture of the deal after the moves, and a "try it" box
  (the ``try-it`` directive of ``tryit.py``) to change the position or the moves and ask the engine live.

:func:`run_example` replays an example through the engine; ``tests/docs/test_catalogue.py`` uses it to
check every example against the engine and against the test it names.
"""

from __future__ import annotations

import html
import re
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

from fly_rules import Card, CardSet, RuleViolation, Suit, dreyfus, fly
from fly_rules.notation import parse_position
from fly_rules.spec import RULE_ID, Citation, Rule
from fly_rules.svg import deal_picture

CATALOGUE_DIR = "catalogue"
DATA = "tests/catalogue.toml"
GAMES = {"FLY": ("fly", "Fly"), "DRF": ("dreyfus", "Dreyfus")}
_ID = RULE_ID.pattern.removeprefix(r"\b").removesuffix(r"\b")
_LEADING_IDS = re.compile(rf"^{_ID}(?:,\s*{_ID})*:\s*")


def load(root: Path) -> dict[str, Any] | None:
    """The catalogue data of the repository at ``root``, or None when it has none."""
    path = root / DATA
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return tomllib.load(handle)


def game_of(position: str) -> str:
    """``"fly"`` or ``"dreyfus"``: the first field of a position."""
    return position.split(maxsplit=1)[0]


def move_code(token: str, game: str) -> str:
    """The Python expression of one position-notation move (``pAH`` → ``fly.Play(Card.parse("A♥"))``)."""
    kind, rest = token[0], token[1:]
    if kind == "s":
        return f"{game}.Stand()"
    if kind == "f":
        return "fly.Fold()"
    cards = [Card.parse(rest[i : i + 2]).symbol for i in range(0, len(rest), 2)]
    if kind == "x":
        return f'{game}.Exchange(CardSet.parse("{" ".join(cards)}"))'
    if kind == "p":
        return f'{game}.Play(Card.parse("{cards[0]}"))'
    if kind == "w":
        return f'fly.SwapTrump(Card.parse("{cards[0]}"))'
    raise ValueError(f"not a move: {token!r}")


def namespace(deal: Any) -> dict[str, Any]:
    """The names an example's expressions may use."""
    return {"deal": deal, "fly": fly, "dreyfus": dreyfus, "Card": Card, "CardSet": CardSet, "Suit": Suit}


def run_example(example: dict[str, Any]) -> tuple[Any, Any, list[tuple[str, str, str]]]:
    """Replay an example: the deal at its position, the deal after its moves (both None without a
    position), and for each expectation ``(expression, expected, got)``, where a refused action gives
    ``got`` as the rule it breaks and the message."""
    before = after = None
    if "position" in example:
        before = after = parse_position(example["position"])
        for token in example.get("moves", "").split():
            after = after.apply(eval(move_code(token, game_of(example["position"])), namespace(None)))
    results = []
    for expression, expected in example.get("expect", []):
        try:
            got = repr(eval(expression, namespace(after)))
        except RuleViolation as error:
            got = f"{error.rule}\n{error}"
        results.append((expression, expected, got))
    return before, after, results


def _figure(picture: str, caption: str) -> list[str]:
    return [
        "```{raw} html",
        f'<figure class="fly-table">{picture}<figcaption>{html.escape(caption)}</figcaption></figure>',
        "```",
        "",
    ]


def example_markdown(example: dict[str, Any], link: str) -> str:
    """The MyST source of one worked example, under a level-3 heading."""
    before, after, results = run_example(example)
    out = [f"### {example['title']}", "", f"Checked by {link}.", "", " ".join(example["outcome"].split()), ""]
    code = [">>> from fly_rules import Card, CardSet, dreyfus, fly"]
    if before is not None:
        position = example["position"]
        game = game_of(position)
        out += _figure(deal_picture(before), "The position.")
        code += [">>> from fly_rules.notation import parse_position", f'>>> deal = parse_position("{position}")']
        moves = example.get("moves", "").split()
        if moves:
            code.append(">>> for move in (")
            code += [f"...     {move_code(token, game)}," for token in moves]
            code += ["... ):", "...     deal = deal.apply(move)"]
    for expression, expected, got in results:
        code.append(f">>> {expression}")
        if RULE_ID.fullmatch(expected):
            message = got.split("\n", 1)[-1]
            code += ["Traceback (most recent call last):", "    ...", f"fly_rules.errors.RuleViolation: {message}"]
        else:
            code.append(expected)
    out += ["```{doctest}", *code, "```", ""]
    if after is not None and example.get("moves"):
        out += _figure(deal_picture(after), "After the moves.")
    if before is not None:  # the try-it directive of tryit.py
        out += ["```{try-it}", f":moves: {example.get('moves', '')}", example["position"], "```", ""]
    return "\n".join(out)


def _first_rules(citations: list[Citation]) -> dict[str, tuple[str, str, list[str]]]:
    """For each test, ``(first rule cited, first paragraph of the docstring, every rule cited)``."""
    found: dict[str, tuple[str, str, list[str]]] = {}
    for citation in citations:
        if citation.test in found:
            found[citation.test][2].append(citation.rule)
        else:
            found[citation.test] = (citation.rule, citation.doc, [citation.rule])
    return found


def catalogue_pages(
    root: Path,
    citations: list[Citation],
    rules: dict[str, Rule],
    *,
    marker: str,
    label: Any,
    link_ids: Any,
) -> dict[str, str]:
    """The catalogue pages by docname, or none when the repository has no catalogue data.

    ``label`` gives a test's label on its source page, ``link_ids`` turns rule IDs in text into links.
    """
    data = load(root)
    if data is None:
        return {}
    files = set(data["files"])
    tests = _first_rules([c for c in citations if c.test.split("::", 1)[0] in files and c.rule in rules])
    examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for example in data.get("example", []):
        examples[example["test"]].append(example)
    by_rule: dict[str, list[str]] = defaultdict(list)
    for test, (first, _, _) in tests.items():
        by_rule[first].append(test)
    pages: dict[str, str] = {}
    toc = []
    for prefix, (stem, name) in GAMES.items():
        ordered = sorted((r for r in by_rule if r.startswith(prefix + "-")), key=lambda r: rules[r].line)
        if not ordered:
            continue
        count = sum(len(by_rule[r]) for r in ordered)
        worked = sum(len(examples[t]) for r in ordered for t in by_rule[r])
        out = [
            marker,
            f"# {name}: the edge cases",
            "",
            f"The {count} named edge-case tests of {name}, grouped by the first rule each cites, and "
            f"{worked} worked examples. Each example is a position in the "
            "[position notation](../reference/notation.md), the moves played from it and their outcome; "
            "its code is a doctest, run when this site is built, and the test it names checks the same case.",
            "",
        ]
        for rule_id in ordered:
            rule = rules[rule_id]
            out += [f"## {rule_id} {rule.title}", "", f"The rule: {{rule}}`{rule_id}`.", ""]
            for test in by_rule[rule_id]:
                for example in examples[test]:
                    out.append(example_markdown(example, f"{{ref}}`{test.split('::')[-1]} <{label(test)}>`"))
            out += ["**The tests:**", ""]
            for test in by_rule[rule_id]:
                _, doc, cited = tests[test]
                also = [r for r in cited if r != rule_id]
                extra = f" (also {', '.join('{rule}`' + r + '`' for r in also)})" if also else ""
                where, text = test.split("::", 1)[0], link_ids(_LEADING_IDS.sub("", doc))
                out.append(f"- {{ref}}`{test.split('::')[-1]} <{label(test)}>` in `{where}`{extra}: {text}")
            out.append("")
        pages[f"{CATALOGUE_DIR}/{stem}"] = "\n".join(out)
        toc.append(stem)
    missing = sorted(set(examples) - set(tests))
    if missing:
        raise ValueError(f"{DATA}: examples name tests that are not in its files or cite no rule: {missing}")
    index = [
        marker,
        "# The edge-case catalogue",
        "",
        "How the library decides the cases the sources leave open or make hard: every named edge-case test, "
        "as a list under the rule it checks, and the main cases as worked examples with a picture of the "
        "position. Generated from the tests and `tests/catalogue.toml` when this site is built.",
        "",
        "```{toctree}",
        ":maxdepth: 2",
        "",
        *toc,
        "```",
        "",
    ]
    pages[f"{CATALOGUE_DIR}/index"] = "\n".join(index)
    return pages
