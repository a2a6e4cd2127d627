"""``fly_rules.strategies``: the rules strategies draw every option of the rules classes (the list of options is
the classes' own fields), each taking more than one value."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import attrs
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from fly_rules.dreyfus import DreyfusRules
from fly_rules.fly import FlyRules
from fly_rules.strategies import dreyfus_rules_options, fly_rules_options


def _options(cls: type) -> list[str]:
    """The options of a rules class: its init fields, the number of players aside."""
    return [field.name for field in attrs.fields(cls) if field.init and field.name != "players"]


@pytest.mark.parametrize(("cls", "strategy"), [(FlyRules, fly_rules_options), (DreyfusRules, dreyfus_rules_options)])
def test_the_rules_strategies_draw_every_option(cls: type, strategy: Callable[[], st.SearchStrategy[object]]) -> None:
    """Across draws each option of the class takes at least two values: none is left at its default (the five of
    Fly's scoring options the hand-kept list missed, ace_bonus to ace_no_trick_penalty_trumps, included)."""
    seen: dict[str, set[str]] = defaultdict(set)

    @settings(max_examples=150, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(strategy())
    def collect(rules: object) -> None:
        for name in _options(cls):
            seen[name].add(repr(getattr(rules, name)))

    collect()
    assert sorted(name for name in _options(cls) if len(seen[name]) < 2) == []


def test_fly_rules_options_pins_a_named_option_and_refuses_an_unknown_one() -> None:
    """A pinned option keeps its value (or its strategy's); a name that is no option of FlyRules is refused."""
    rules = find(fly_rules_options(players=4, remise=0, ace_bonus=st.just(7)), lambda r: True)
    assert (rules.players, rules.remise, rules.ace_bonus) == (4, 0, 7)
    with pytest.raises(TypeError, match="no option remis in FlyRules"):
        find(fly_rules_options(remis=0), lambda r: True)
