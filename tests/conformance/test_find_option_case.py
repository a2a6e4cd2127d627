"""scripts/find_option_case.py: the search that finds a case for an option value, printed as an [[option]] entry that
the generator reads and proves."""

from __future__ import annotations

import io
import tomllib
from contextlib import redirect_stdout
from typing import Any

from tests.conformance.conftest import GENERATOR, load_script

FINDER: Any = load_script("scripts/find_option_case")


def test_a_found_case_is_an_entry_the_generator_proves() -> None:
    """For Fly's remise at 3 the search finds a position and moves whose outcome the default remise changes; its
    entry, read back as TOML, is a case the generator's proof accepts."""
    case = FINDER.search_option(GENERATOR, "fly", "remise", 3, tries=60)
    assert GENERATOR.differs_from_default(case, "remise")
    entry = tomllib.loads(FINDER.entry_text(case, "remise", 3))["option"][0]
    assert entry["id"] == "fly-option-remise-3"
    found = GENERATOR.option_case(entry)
    assert found["options"] == ["remise=3"]
    assert "FLY-8.4" in found["covers"]
    assert GENERATOR.differs_from_default(found, "remise")


def test_every_option_value_has_its_case_already() -> None:
    """Run on the data as it is, the finder prints nothing: every option value is shown."""
    with redirect_stdout(io.StringIO()) as out:
        assert FINDER.main(["dreyfus", "forgot_record_penalty"]) == 0
    assert out.getvalue() == ""
