"""The plumbing of the "Train an agent" recipe (``docs/how-to/train_agent.py``), in seconds: its paired
comparison with the rule of thumb, on a few deals. The training itself needs Stable-Baselines3 and an
hour of CPU; the page reports a run of it."""

from __future__ import annotations

from typing import Any

import numpy as np

from fly_rules.adapters.fly_game import FOLD
from tests.conformance.conftest import load_script


def test_the_paired_comparison_plays_the_same_deals() -> None:
    """The rule of thumb against itself differs in no deal; a policy that folds wherever it may folds in
    every deal where it may, and its paired difference is the difference of the two means, inside its
    interval; a random policy does worse than the rule of thumb on these deals."""
    script: Any = load_script("docs/how-to/train_agent")
    again = script.paired_results(None, deals=48, seed=5)
    first = script.paired_results(None, deals=48, seed=5)
    assert np.array_equal(first["results"], again["results"])
    could, folded = script.folds(first)[::-1]
    assert 0 < could <= 48

    def fold(observations: Any, masks: Any) -> Any:
        ids = np.argmax(masks, axis=1)
        ids[masks[:, FOLD]] = FOLD
        return ids

    report = script.compare(fold, deals=48, seed=5)
    assert report["policy_folds"] == (could, could)
    assert report["rule_of_thumb_folds"] == (folded, could)
    assert report["difference"] == report["policy_mean"] - report["rule_of_thumb_mean"]
    low, high = report["interval"]
    assert low <= report["difference"] <= high
    rng = np.random.default_rng(0)
    random = script.compare(lambda o, m: np.argmax(rng.random(m.shape) * m, axis=1), deals=48, seed=5)
    assert random["difference"] < 0
