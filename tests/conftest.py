"""Test configuration: Hypothesis profiles.

``default`` is fast for local runs; ``ci`` (selected by ``HYPOTHESIS_PROFILE=ci``,
which the README test command sets) runs more examples, derandomised so a CI
failure reproduces.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
