"""``scripts/mutation_scores.py``: the per-module score, and the check that each entry of
``tests/mutation/equivalent.md`` still names the mutant whose change its reason argues for."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).parents[2] / "scripts" / "mutation_scores.py"

MUTATED = """\
def x_step__mutmut_orig(a):
    return a + 1


def x_step__mutmut_1(a):
    return a - 1


def x_step__mutmut_2(a):
    return a + 2
"""


def load_script() -> ModuleType:
    """The script as a module (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("mutation_scores", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: str, *args: str) -> tuple[int, str]:
    """Run the script on one mutated module (mutant 1 killed, 2 survived) and the given entries;
    return its exit code and equivalent.md afterwards."""
    (tmp_path / "mutants" / "fly_rules").mkdir(parents=True)
    (tmp_path / "mutants" / "fly_rules" / "step.py").write_text(MUTATED, encoding="utf-8")
    codes = {"fly_rules.step.x_step__mutmut_1": 1, "fly_rules.step.x_step__mutmut_2": 0}
    meta = tmp_path / "mutants" / "fly_rules" / "step.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    equivalent = tmp_path / "tests" / "mutation" / "equivalent.md"
    equivalent.parent.mkdir(parents=True)
    equivalent.write_text("# Mutants left out\n\n## Equivalent\n\n" + entries, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", ["mutation_scores.py", *args])
    script = load_script()
    code = script.main()
    return code, equivalent.read_text(encoding="utf-8")


def test_a_survivor_counts_against_the_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One killed and one surviving mutant, none listed: 50%, under the target, exit 1."""
    code, _ = run(tmp_path, monkeypatch, "", "--survivors", "--diff")
    out = capsys.readouterr().out
    assert code == 1
    assert "fly_rules/step.py                        2     0      1        1   50.0%" in out
    assert "survived: fly_rules.step.x_step__mutmut_2 (exit 0)" in out
    assert "+    return a + 2" in out


def test_a_listed_mutant_with_its_change_is_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The survivor listed with the change it makes: 100%, exit 0."""
    entry = "- `fly_rules.step.x_step__mutmut_2` — a reason.\n  Change: `return a + 2`\n"
    code, _ = run(tmp_path, monkeypatch, entry)
    out = capsys.readouterr().out
    assert code == 0
    assert "fly_rules/step.py                        2     1      1        0  100.0%" in out


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        pytest.param(
            "- `fly_rules.step.x_step__mutmut_2` — a reason.\n  Change: `return a - 1`\n",
            "stale entry in tests/mutation/equivalent.md: fly_rules.step.x_step__mutmut_2 now changes "
            "`return a + 2`, the entry says `return a - 1`",
            id="renumbered",
        ),
        pytest.param(
            "- `fly_rules.step.x_step__mutmut_2` — a reason.\n  Change: `return a + 2`\n"
            "- `fly_rules.step.x_step__mutmut_3` — gone.\n  Change: `return a * 1`\n",
            "stale entry in tests/mutation/equivalent.md: fly_rules.step.x_step__mutmut_3 "
            "is not a mutant of its module",
            id="no such mutant",
        ),
        pytest.param(
            "- `fly_rules.step.x_step__mutmut_2` — a reason.\n",
            "entry without its change in tests/mutation/equivalent.md: fly_rules.step.x_step__mutmut_2 "
            "(--record-changes writes it)",
            id="no change recorded",
        ),
    ],
)
def test_an_entry_that_no_longer_matches_its_mutant_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], entry: str, message: str
) -> None:
    """An entry whose name now carries another change, names no mutant, or records no change fails."""
    code, _ = run(tmp_path, monkeypatch, entry)
    assert code == 1
    assert message in capsys.readouterr().out.splitlines()


def test_record_changes_writes_only_the_missing_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--record-changes`` adds the Change line under an entry without one, keeping its reason."""
    entry = "- `fly_rules.step.x_step__mutmut_2` — a reason\n  on two lines.\n\n## Next\n"
    code, text = run(tmp_path, monkeypatch, entry, "--record-changes")
    assert code == 0
    assert text.endswith(
        "- `fly_rules.step.x_step__mutmut_2` — a reason\n  on two lines.\n  Change: `return a + 2`\n\n## Next\n"
    )
    assert "entry without" not in capsys.readouterr().out


def test_a_sample_takes_a_seeded_share_of_each_module_s_mutants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--sample`` draws the fraction of each module's mutants named by the prefix (at least one each), the same
    for the same seed, and only those."""
    for module, count in (("big", 40), ("small", 3)):
        codes = {f"fly_rules.batch.{module}.x_f__mutmut_{i}": None for i in range(1, count + 1)}
        (tmp_path / "mutants" / "fly_rules" / "batch").mkdir(parents=True, exist_ok=True)
        meta = tmp_path / "mutants" / "fly_rules" / "batch" / f"{module}.py.meta"
        meta.write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    script = load_script()
    drawn = script.sample(0.25, "fly_rules.batch", 47)
    assert len([name for name in drawn if ".big." in name]) == 10
    assert len([name for name in drawn if ".small." in name]) == 1
    assert len(set(drawn)) == 11
    assert drawn == script.sample(0.25, "fly_rules.batch", 47)
    assert drawn != script.sample(0.25, "fly_rules.batch", 48)
    assert script.sample(0.25, "fly_rules.batch.small", 47) == [name for name in drawn if ".small." in name]
    assert script.sample(0.25, "fly_rules.fly", 47) == []
