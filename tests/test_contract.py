"""``fly_rules.testing.check_game``: every registered game keeps the engine contract (the library's own here; the
whist test game in tests/thirdgame, with the broken copies it must catch)."""

from __future__ import annotations

import pytest

from fly_rules import registry
from fly_rules.testing import ContractBroken, check_game


@pytest.mark.parametrize("game", registry.games())
def test_every_registered_game_keeps_the_engine_contract(game: str) -> None:
    """Seeded matches of each game pass every check, and each kind of check ran."""
    report = check_game(game, seeds=(0, 1), max_actions=80, views_every=8)
    assert report.game == game
    assert report.positions > 0
    for kind in ("refusals", "views", "notation", "action_ids", "pictures", "bot_choices"):
        assert getattr(report, kind) > 0, kind


def test_a_refusal_naming_no_rule_of_the_spec_breaks_the_contract() -> None:
    """With no rule IDs allowed, the first refusal is reported, naming the check, the game and the seed."""
    with pytest.raises(
        ContractBroken, match=r"fly: refusal: .* refused with 'FLY-[0-9.]+', no rule of the spec"
    ) as caught:
        check_game("fly", seeds=(3,), max_actions=2, rule_ids=())
    assert caught.value.check == "refusal"
    assert "seed 3" in str(caught.value)
