"""The bots' arguments: each one a bot cannot use is refused by name when the bot is made, never left to fail
inside a decision or to fall silently to another bot (``samples=0`` left every decision to the Monte-Carlo bot)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fly_rules import dreyfus, fly
from fly_rules.bots import ExpertBot, MonteCarloBot
from fly_rules.errors import FlyRulesError

RULES = fly.FlyRules(players=3)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("samples", 0, "samples must be a whole number >= 1, not 0"),
        ("samples", -1, "samples must be a whole number >= 1, not -1"),
        ("samples", "3", "samples must be a whole number >= 1, not '3'"),
        ("samples", 2.5, "samples must be a whole number >= 1, not 2.5"),
        ("samples", True, "samples must be a whole number >= 1, not True"),
        ("budget", -1, "budget must be a whole number >= 0, not -1"),
        ("budget", "x", "budget must be a whole number >= 0, not 'x'"),
        ("seconds", 0, "seconds must be a number above 0, not 0"),
        ("seconds", "1", "seconds must be a number above 0, not '1'"),
        ("seconds", float("nan"), "seconds must be a number above 0, not nan"),
        ("seconds", float("inf"), "seconds must be a number above 0, not inf"),
        ("for_match", "yes", "for_match must be None, True or False, not 'yes'"),
        ("for_match", 1, "for_match must be None, True or False, not 1"),
    ],
)
def test_the_expert_refuses_an_argument_it_cannot_use(option: str, value: object, message: str) -> None:
    """Each refused argument names itself and the value given."""
    with pytest.raises(FlyRulesError) as caught:
        ExpertBot(RULES, **{option: value})  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_the_expert_refuses_a_model_that_is_not_a_bot() -> None:
    """``model`` must be a bot (with ``choose``) or None."""
    with pytest.raises(TypeError, match="model must be a bot"):
        ExpertBot(RULES, model=3)


def test_the_expert_reads_numpy_counts_and_plays_with_one_sample() -> None:
    """NumPy's integers are counts like ints, and one sample is enough to decide."""
    bot = ExpertBot(RULES, samples=np.int64(1), budget=np.int32(50_000), seconds=np.float64(5))  # type: ignore[arg-type]
    assert (bot.samples, bot.budget, bot.seconds) == (1, 50_000, 5.0)
    assert type(bot.samples) is int
    match = fly.new_match(RULES, seed=4, dealer=0)
    seat = match.to_move
    assert seat is not None
    assert bot.choose(match.view(seat), match.legal_actions(), random.Random(1)) in match.legal_actions()


@pytest.mark.parametrize("samples", [0, -2, "8", 1.5])
def test_the_monte_carlo_bot_refuses_samples_that_are_not_a_count(samples: object) -> None:
    """The Monte-Carlo bot's samples are a whole number >= 1 as well."""
    with pytest.raises(FlyRulesError, match="samples must be a whole number >= 1"):
        MonteCarloBot(dreyfus.DreyfusRules(), samples=samples)  # type: ignore[arg-type]
