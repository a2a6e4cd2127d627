"""The edge-case catalogue's data (``tests/catalogue.toml``): every worked example replays through the engine
to the outcome it states, and names a test that exists and checks a rule."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

import pytest

from fly_rules.notation import parse_position
from fly_rules.spec import RULE_ID, load_rules, test_citations
from tests.docs.conftest import ROOT


def _catalogue() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogue", ROOT / "docs" / "_ext" / "catalogue.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CATALOGUE = _catalogue()
DATA: dict[str, Any] = CATALOGUE.load(ROOT)
EXAMPLES: list[dict[str, Any]] = DATA["example"]


def test_the_catalogue_lists_existing_test_files_and_names_cited_tests() -> None:
    """Every listed file exists; every example names a test in one of them that cites a rule."""
    files = [ROOT / name for name in DATA["files"]]
    assert all(path.is_file() for path in files)
    cited = {c.test for c in test_citations(files, ROOT)}
    for example in EXAMPLES:
        assert example["test"] in cited, example["test"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["title"] for e in EXAMPLES])
def test_a_worked_example_replays_to_its_stated_outcome(example: dict[str, Any]) -> None:
    """The position parses, the moves are legal, and each expectation (a value, or the rule a refused
    action breaks) is what the engine gives."""
    before, after, results = CATALOGUE.run_example(example)
    if "position" in example:
        assert before == parse_position(example["position"])
        assert after is not None
    assert results
    for expression, expected, got in results:
        if RULE_ID.fullmatch(expected):
            assert got.startswith(expected + "\n"), (expression, got)
        else:
            assert got == expected, expression


def test_move_code_reads_every_kind_of_move() -> None:
    """Stand, fold, exchange, play and the dealer's swap become engine calls; anything else is refused."""
    assert CATALOGUE.move_code("s", "dreyfus") == "dreyfus.Stand()"
    assert CATALOGUE.move_code("f", "fly") == "fly.Fold()"
    assert CATALOGUE.move_code("x7CTH", "fly") == 'fly.Exchange(CardSet.parse("7♣ 10♥"))'
    assert CATALOGUE.move_code("pAS", "fly") == 'fly.Play(Card.parse("A♠"))'
    assert CATALOGUE.move_code("w9H", "fly") == 'fly.SwapTrump(Card.parse("9♥"))'
    with pytest.raises(ValueError, match="not a move"):
        CATALOGUE.move_code("q", "fly")


def test_every_position_in_a_rule_example_replays_and_is_drawn() -> None:
    """A rule's Example may give a position and moves (``Position: `fly …`, moves `…`.``): each replays through
    the engine, and the rulebook draws it under the rule, before and after the moves (once without moves)."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    import rulebook  # the docs extension, importable once its folder is on the path

    drawn = 0
    for rule in load_rules(ROOT / "specs").values():
        found = [found for example in rule.examples for found in rulebook.EXAMPLE_POSITION.findall(example)]
        expected = 0
        for position, moves in found:
            before, _, _ = CATALOGUE.run_example({"position": position, "moves": moves})
            assert before == parse_position(position), rule.id
            figures = CATALOGUE.example_figures({"position": position, "moves": moves})
            assert len(figures) == (2 if moves else 1), rule.id
            assert f'data-position="{position}"' in figures[0][1], rule.id
            expected += len(figures)
        page = rulebook.rule_markdown(rule, [])
        assert page.count('<figure class="fly-table"') == expected, rule.id
        assert page.count("```{try-it}") == len(found), rule.id  # a box to try each position live
        drawn += expected
    assert drawn >= 15
