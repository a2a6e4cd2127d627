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


def figure(picture: str, caption: str, **data: str) -> list[str]:
    """The MyST lines of a picture in a figure with its caption; ``data`` become ``data-`` attributes of the
    figure (an example's position and moves, for a page script that lets the reader try it)."""
    attributes = "".join(f' data-{name}="{html.escape(value)}"' for name, value in data.items())
    return [
        "```{raw} html",
        f'<figure class="fly-table"{attributes}>{picture}<figcaption>{html.escape(caption)}</figcaption></figure>',
        "```",
        "",
    ]


def _trumps(deal: Any) -> str:
    return "no trumps" if deal.trump is None else f"{deal.trump.name.lower()} are trumps"


def situation(deal: Any) -> str:
    """What a picture of ``deal`` shows, in words: the trumps, who is to act and who led the trick in play."""
    if deal.is_over:
        return f"The deal is over; {_trumps(deal)}."
    doing = "play" if deal.phase.value == "play" else ("declare" if deal.game == "fly" else "buy")
    text = f"{_trumps(deal).capitalize()}; seat {deal.to_move} to {doing}"
    if deal.trick:
        text += f", in the trick seat {deal.trick[0][0]} led"
    return text + "."


def move_words(action: Any) -> str:
    """One action as a verb phrase: ``plays A♥``, ``stands``, ``exchanges 2``."""
    if isinstance(action, fly.Play | dreyfus.Play):
        return f"plays {action.card.symbol}"
    if isinstance(action, fly.Exchange | dreyfus.Exchange):
        return f"{'buys' if isinstance(action, dreyfus.Exchange) else 'exchanges'} {len(action.cards)}"
    if isinstance(action, fly.SwapTrump):
        return f"takes the trump card for {action.card.symbol}"
    return "folds" if isinstance(action, fly.Fold) else "stands"


def _tricks(count: int) -> str:
    return "a trick" if count == 1 else f"{count} tricks"


def replay(deal: Any, moves: list[Any]) -> tuple[Any, str]:
    """Play ``moves`` from ``deal``: the deal reached and what happened, in words (each move when there are
    few, then who took the tricks, the records and the winner)."""
    start, said = deal, []
    for action in moves:
        said.append(f"seat {deal.to_move} {move_words(action)}")
        deal = deal.apply(action)
    taken = [b - a for a, b in zip(start.tricks_taken, deal.tricks_taken, strict=True)]
    text = "; ".join(said) if len(said) <= 6 else f"{len(said)} moves are played"
    if any(taken):
        text += "; " + ", ".join(f"seat {s} takes {_tricks(n)}" for s, n in enumerate(taken) if n)
    if deal.game == "fly":
        text += "; records " + ", ".join(map(str, deal.records))
    else:
        text += f"; upper {', '.join(map(str, deal.upper))}, lower {', '.join(map(str, deal.lower))}"
    if deal.winner is not None:
        text += f"; seat {deal.winner} wins"
    return deal, text[0].upper() + text[1:] + "."


def try_it(example: dict[str, Any]) -> list[str]:
    """The MyST lines of a "try it" box for an example with a position (the try-it directive of tryit.py)."""
    if "position" not in example:
        return []
    return ["```{try-it}", f":moves: {example.get('moves', '')}", example["position"], "```", ""]


def example_figures(example: dict[str, Any]) -> list[list[str]]:
    """The pictures of an example with a position: before the moves (the figure carries the position and the
    moves as ``data-position`` and ``data-moves``) and after them, each captioned with what it shows."""
    if "position" not in example:
        return []
    deal = parse_position(example["position"])
    tokens = example.get("moves", "").split()
    game = game_of(example["position"])
    data = {"game": game, "position": example["position"], "moves": " ".join(tokens)}
    out = [figure(deal_picture(deal), f"Before: {situation(deal)}", **data)]
    if tokens:
        moves = [eval(move_code(token, game), namespace(None)) for token in tokens]
        after, told = replay(deal, moves)
        out.append(figure(deal_picture(after, last_trick=True), f"After: {told}"))
    return out


def example_label(example: dict[str, Any]) -> str:
    """The Sphinx label of a worked example on its catalogue page."""
    return "example-" + re.sub(r"[^a-z0-9]+", "-", example["test"].split("::")[-1].lower()).strip("-")


def example_markdown(example: dict[str, Any], link: str) -> str:
    """The MyST source of one worked example, under a level-3 heading, in a ``fly-example`` container."""
    before, _, results = run_example(example)
    out = [
        "::::{container} fly-example",
        f"({example_label(example)})=",
        f"### {example['title']}",
        "",
        f"Checked by {link}.",
        "",
        " ".join(example["outcome"].split()),
        "",
    ]
    code = [">>> from fly_rules import Card, CardSet, dreyfus, fly"]
    if before is not None:
        position = example["position"]
        game = game_of(position)
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
    figures = example_figures(example)
    out += figures[0] if figures else []  # the position
    out += ["```{doctest}", *code, "```", ""]
    for after in figures[1:]:
        out += after
    out += try_it(example)
    out += ["::::", ""]
    return "\n".join(out)


def examples_by_rule(root: Path, citations: list[Citation], rules: dict[str, Rule]) -> dict[str, list[dict[str, Any]]]:
    """The worked examples of the catalogue under the first rule their test cites (as the catalogue groups
    them), for the rulebook to show their pictures."""
    data = load(root)
    if data is None:
        return {}
    first = _first_rules([c for c in citations if c.rule in rules])
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for example in data.get("example", []):
        if example["test"] in first:
            found[first[example["test"]][0]].append(example)
    return found


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
