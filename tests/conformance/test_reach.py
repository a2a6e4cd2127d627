"""Do the vectors test what they claim (tests/conformance/reach.py)? Each case's moves reach the code of the rules
it claims, each deliberate bug is caught by a case claiming its rule, the checks are not vacuous, and the five bugs
of the outsider's first run are each caught through the runner by a failure that names the rule."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from fly_rules.conformance.runner import Settings, conform
from fly_rules.conformance.vectors import load_cases
from tests.conformance import reach
from tests.conformance.conftest import GENERATOR
from tests.conformance.mutants import FIRST_RUN, MUTANTS, applied, named

CASES = load_cases()
BY_ID = {case["id"]: case for case in CASES}
MUTANT_ENGINE = Path(__file__).parent / "engines" / "mutant.py"


def test_every_case_reaches_the_code_of_the_rules_it_claims() -> None:
    """No case claims a rule, cited by the engine's code, whose code its answer never runs."""
    untraced = GENERATOR.tomllib.loads(GENERATOR.DATA.read_text(encoding="utf-8"))["coverage"]["untraced"]
    assert reach.unreached(CASES, untraced) == []


def test_a_case_that_stops_before_its_rule_is_refused() -> None:
    """The flaw the check was made for: a case claiming FLY-7.3 (the A♠ wins a led trump ace) that stops after the
    lead, before the trick is won, never runs the code that decides the trick."""
    case = BY_ID["fly-ace-of-spades-led-to-trump-ace"]
    claiming = {**case, "covers": [*case["covers"], "FLY-7.3"]}
    assert reach.unreached([claiming]) == [
        "fly-ace-of-spades-led-to-trump-ace claims FLY-7.3 but never runs the code that cites it"
    ]
    assert "FLY-7.3" in reach.reached(BY_ID["fly-ace-of-spades-wins-led-trump-ace"])


def test_every_deliberate_bug_is_caught_by_a_case_claiming_its_rule() -> None:
    """Each mutant changes the outcome of at least one case that claims its rule."""
    assert reach.uncaught(CASES) == []


def test_a_case_that_lists_another_seats_actions_does_not_catch_the_bug() -> None:
    """The old case for FLY-4.7 listed the actions of a seat without the A♠: an engine that never lets the A♠ be
    discarded passes it, so with it alone the bug goes uncaught; the case of the A♠ holder catches it."""
    case = BY_ID["fly-ace-of-spades-discardable-by-default"]
    old = GENERATOR.written_case(
        {
            "id": "old",
            "why": "old",
            "covers": ["FLY-4.7"],
            "hands": ["7C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KC AC 7H"],
            "trump": "8H",
            "dealer": 0,
            "moves": "s",
        }
    )
    old["expected"] = GENERATOR.outcome(old, GENERATOR.answer)
    others = [c for c in CASES if "FLY-4.7" not in c["covers"]]
    bug = named("ace-of-spades-kept")
    assert any(bug.name in line for line in reach.uncaught([*others, old]))
    assert not any(bug.name in line for line in reach.uncaught([*others, old, case]))


def test_citations_come_from_docstrings_comments_and_refusals() -> None:
    """A function's docstring cites its body; a comment line cites the next line of code; a rule ID as a string
    cites its line and the test of the ``if`` that leads to it."""
    table = reach.citations()
    play = table[str(reach.PACKAGE / "fly" / "play.py")]
    source = (reach.PACKAGE / "fly" / "play.py").read_text(encoding="utf-8").splitlines()
    winning = next(i for i, line in enumerate(source, 1) if line.startswith("def winning_position"))
    assert {"FLY-6.6", "FLY-7.3", "FLY-7.4"} <= play[winning + 2]
    revoke = next(i for i, line in enumerate(source, 1) if "# FLY-11.2: the revoke stands" in line)
    assert "FLY-11.2" in play[revoke + 1]
    exchange = table[str(reach.PACKAGE / "fly" / "exchange.py")]
    lines = (reach.PACKAGE / "fly" / "exchange.py").read_text(encoding="utf-8").splitlines()
    test = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("if hands[seat] & _AS_BIT or"))
    assert "FLY-5.2" in exchange[test]
    assert not reach.cited_rules() & {"FLY-1.5"}  # a rule no code cites is not checked


@pytest.mark.parametrize("name", FIRST_RUN)
def test_each_bug_of_the_first_run_fails_a_case_that_names_its_rule(name: str) -> None:
    """This engine with the bug, run through the runner: at least one case fails, and a failing case's first line
    names the bug's rule among the rules it covers; the exit code is 1."""
    mutant = named(name)
    out = io.StringIO()
    command = f"{sys.executable} {MUTANT_ENGINE} {name}"
    run = conform(command, out, Settings(games=("fly",), kinds=("play",), perft_nodes=0))
    assert run.exit_code == 1, out.getvalue()
    failing = [line for line in out.getvalue().splitlines() if line.startswith("FAIL ")]
    assert failing
    named_rules = [line.partition("[")[2].rstrip("]").split() for line in failing]
    assert any(mutant.rule in rules for rules in named_rules), failing


def test_the_mutants_are_named_once_and_restore_the_engine() -> None:
    """Every mutant has a name of its own, a rule the spec defines, and leaves the engine as it was."""
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)
    case: dict[str, Any] = BY_ID["fly-ace-of-spades-wins-led-trump-ace"]
    before = GENERATOR.outcome(case, GENERATOR.answer)
    with applied(named("ace-of-spades-loses")):
        assert GENERATOR.outcome(case, GENERATOR.answer) != before
    assert GENERATOR.outcome(case, GENERATOR.answer) == before == case["expected"]


def test_a_bug_in_the_privilege_is_traced_by_divide_to_the_missing_action() -> None:
    """The perft position aimed at the A♠ privilege catches the bug that bars the A♠ from a led trump ace: depth 2
    differs, and divide follows the lead of the trump ace to the seat whose actions lack play AS."""
    out = io.StringIO()
    command = f"{sys.executable} {MUTANT_ENGINE} ace-of-spades-unplayable"
    run = conform(command, out, Settings(ids="^perft:fly-ace-of-spades$", perft_nodes=50_000))
    assert run.exit_code == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == "FAIL perft:fly-ace-of-spades [FLY-7.1 FLY-7.2 FLY-7.3 FLY-7.6 FLY-8.3]"
    assert lines[5] == "  depth 2: nodes expected 6, got 5; plays expected 6, got 5"
    assert lines[6] == "  divide 2: play AH: nodes expected 2, got 1; plays expected 2, got 1"
    assert lines[7] == '  divide 1 after play AH: the legal actions differ: missing ["play AS"]'
