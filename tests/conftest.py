"""Test configuration: Hypothesis profiles.

``dev`` (the default) is fast for local runs; ``default`` is Hypothesis' usual 100
examples; ``ci`` (selected by ``HYPOTHESIS_PROFILE=ci``, which ``.ci/run`` and
``scripts/test`` under ``CI=true`` set) runs more examples, derandomised so a CI
failure reproduces; ``mutation`` is for ``scripts/mutation``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# scripts/mutation: few examples and no randomness, so that a mutant is killed or not on every run.
settings.register_profile(
    "mutation",
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
