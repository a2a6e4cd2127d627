"""The conformance vectors (specs/conformance/vectors.jsonl): the engine gives every expected outcome, every
rule and option value has a case, every catalogue example is one, and an outcome cannot change unless the
game's RULES_VERSION does."""

from __future__ import annotations

import io
import json
import tomllib
from collections import Counter
from contextlib import redirect_stdout
from typing import Any

import jsonschema
import pytest

from fly_rules.conformance.answers import answer
from fly_rules.conformance.vectors import (
    differences,
    digest,
    kit_dir,
    load_cases,
    load_digests,
    outcome,
)
from fly_rules.notation.games import rules_version
from fly_rules.spec import find_spec_dir, load_rules
from tests.conformance.conftest import GENERATOR, ROOT

DATA = tomllib.loads((ROOT / "tests" / "vectors.toml").read_text(encoding="utf-8"))

CASES = load_cases()
RULES = load_rules()


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_the_engine_gives_every_case_its_expected_outcome(case: dict[str, Any]) -> None:
    """Each case's outcome, asked through the line protocol's answers, is the expected one (no difference)."""
    assert differences(case["expected"], outcome(case, answer)) == []


def test_every_case_follows_the_schema_and_names_its_rules_and_why() -> None:
    """Each line is a case of the schema, with a unique id, the game's current rules version, a one-line why,
    and rule IDs that specs/ defines."""
    schema = json.loads((kit_dir() / "case.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        validator.validate(case)
        assert case["rules_version"] == rules_version(case["game"]), case["id"]
        assert "\n" not in case["why"]
        assert set(case["covers"]) <= set(RULES), case["id"]
        if "refused" in case["expected"]:
            assert case["expected"]["refused"]["rule"] in case["covers"]


def test_the_schema_refuses_a_case_without_its_outcome() -> None:
    """The schema is not vacuous: a case without ``expected`` or with a multi-line why is refused."""
    schema = json.loads((kit_dir() / "case.schema.json").read_text(encoding="utf-8"))
    case = dict(CASES[0])
    del case["expected"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(case, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**CASES[0], "why": "two\nlines"}, schema)


def test_every_rule_of_the_spec_has_two_cases_or_a_reason() -> None:
    """Every active rule ID in specs/ is covered by two cases, or tests/vectors.toml says why one is enough or why
    no request of the protocol can test it."""
    coverage = DATA["coverage"]
    active = {rule_id for rule_id, rule in RULES.items() if not rule.retired}
    covered = Counter(rule_id for case in CASES for rule_id in case["covers"])
    assert active - set(covered) == set(coverage["outside"])
    assert {r for r in active if covered[r] == 1} == set(coverage["single"])
    assert all(reason.strip() for table in coverage.values() for reason in table.values())
    assert GENERATOR.check_coverage(CASES, coverage) == []


def test_the_coverage_check_tells_a_rule_with_one_case() -> None:
    """The two-case check is not vacuous: without its second case a rule is named, and so is an excuse that no
    longer fits."""
    alone = [case for case in CASES if case["id"] != "fly-revoker-without-a-trick"]
    problems = GENERATOR.check_coverage(alone, DATA["coverage"])
    assert any("FLY-11.3" in line and "one case" in line for line in problems)
    stale = {**DATA["coverage"], "single": {**DATA["coverage"]["single"], "FLY-7.3": "no"}}
    assert any("FLY-7.3" in line and "does not fit" in line for line in GENERATOR.check_coverage(CASES, stale))


def test_the_vectors_are_written_from_the_data_byte_for_byte() -> None:
    """scripts/conformance_vectors.py, run on tests/vectors.toml and tests/catalogue.toml, writes exactly the
    vectors and digests of specs/conformance (its --check), every check of the cases passing."""
    with redirect_stdout(io.StringIO()) as out:
        assert GENERATOR.main(["--check"]) == 0
    assert out.getvalue() == f"{len(CASES)} cases up to date\n"


def test_every_option_value_has_a_case_that_it_changes() -> None:
    """Every Literal value and bool of FlyRules and DreyfusRules, and each numeric option at a changed value,
    is shown by a case whose outcome differs under the option's default: the proof is rerun here."""
    wanted = {
        (game, f"{name}={GENERATOR._text(value)}")
        for game in ("fly", "dreyfus")
        for name, value in GENERATOR.option_values(game)
    }
    shown = {(case["game"], option) for case in CASES for option in case.get("options", [])}
    assert wanted == shown
    for case in CASES:
        for option in case.get("options", []):
            name = option.partition("=")[0]
            assert GENERATOR.differs_from_default(case, name), (case["id"], option)


def test_the_proof_tells_an_option_that_changes_nothing() -> None:
    """The option proof is not vacuous: flush_wins does not change a deal's first declaration."""
    case = next(c for c in CASES if c["id"] == "fly-start-declarations")
    flush = {**case, "rules": {**case["rules"], "flush_wins": True}}
    flush["position"] = GENERATOR._rewrite_options("fly", case["position"], flush["rules"])
    assert not GENERATOR.differs_from_default(flush, "flush_wins")


def test_every_catalogue_example_is_a_case() -> None:
    """Each worked example of tests/catalogue.toml is a case naming its test."""
    examples = tomllib.loads((ROOT / "tests" / "catalogue.toml").read_text(encoding="utf-8"))["example"]
    named = [case["catalogue"] for case in CASES if "catalogue" in case]
    assert named == [example["test"] for example in examples]


def test_an_outcome_does_not_change_without_the_rules_version() -> None:
    """Each case's outcome, as the engine gives it now, has the digest stored for its game's current
    RULES_VERSION: changing an outcome without bumping the version fails here."""
    stored = load_digests()
    for case in CASES:
        version = str(rules_version(case["game"]))
        assert stored[case["game"]][version][case["id"]] == digest(outcome(case, answer)), case["id"]


def test_the_generator_refuses_a_changed_outcome_under_the_same_version() -> None:
    """Regenerating after an outcome changed, with RULES_VERSION unchanged, stops and names the case; a new
    version keeps the old digests and adds the new ones."""
    case = {**CASES[0], "expected": {**CASES[0]["expected"], "turn": 99}}
    with pytest.raises(SystemExit, match=CASES[0]["id"]):
        GENERATOR.updated_digests([case], load_digests())
    bumped = {**case, "rules_version": case["rules_version"] + 1}
    digests = GENERATOR.updated_digests([bumped], load_digests())
    game = case["game"]
    assert digests[game][str(bumped["rules_version"])][case["id"]] == digest(case["expected"])
    assert digests[game][str(case["rules_version"])] == load_digests()[game][str(case["rules_version"])]


def test_the_kit_is_found_beside_the_package_and_shipped_in_the_wheel() -> None:
    """kit_dir() is specs/conformance in a checkout; the wheel force-includes specs/ (subfolders too) as
    fly_rules/_specs, where find_spec_dir looks next."""
    assert kit_dir() == find_spec_dir() / "conformance"
    assert (kit_dir() / "vectors.jsonl").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert included["specs"] == "fly_rules/_specs"


def test_differences_name_each_field_and_the_actions_missing_or_extra() -> None:
    """A failing outcome is described one line per field: missing and extra actions, changed values."""
    expected = {"legal": ["stand", "play AS"], "turn": 1}
    got = {"legal": ["play AS", "play KH", "play KH"], "turn": 2, "phase": "play"}
    assert differences(expected, got) == [
        'legal: missing ["stand"]; extra ["play KH", "play KH"]; listed twice ["play KH"]',
        'phase: not expected, got "play"',
        "turn: expected 1, got 2",
    ]
    assert differences(expected, {"turn": 1}) == ['legal: expected ["stand", "play AS"], missing']
    assert differences(expected, {"legal": ["play 10s", "stand"], "turn": 1}) == [
        'legal: missing ["play AS"]; extra ["play TS"]'
    ]
    assert differences(expected, {"error": "boom"}) == ["error: boom"]
    assert differences(expected, {"legal": ["jump"], "turn": 1})[0].startswith("legal: invalid notation 'jump'")
    assert differences(expected, {"legal": "stand", "turn": 1}) == [
        'legal: expected a list of action texts, got "stand"'
    ]


def test_each_games_part_of_the_kit_lives_beside_the_game_and_imports_no_kit_module() -> None:
    """The descriptors name ``fly_rules.fly.conformance`` and ``fly_rules.dreyfus.conformance``, and neither
    imports ``fly_rules.conformance`` at module level (a game package stays below the kit)."""
    from fly_rules import registry
    from tests.test_imports import import_graph

    graph = import_graph()
    for game in ("fly", "dreyfus"):
        part = registry.get(game).conformance
        assert part is not None
        module = part.module
        assert module == f"fly_rules.{game}.conformance"
        assert not {name for name in graph[module] if name.startswith("fly_rules.conformance")}
