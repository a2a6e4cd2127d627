"""Test configuration: Hypothesis profiles.

``dev`` (the default) is fast for local runs; ``default`` is Hypothesis' usual 100
examples; ``ci`` (selected by ``HYPOTHESIS_PROFILE=ci``, which ``.ci/run`` and
``scripts/test`` under ``CI=true`` set) runs more examples, derandomised so a CI
failure reproduces; ``mutation`` is for ``scripts/mutation``.

Tests marked ``no_cover`` (pytest-cov's marker) run without the coverage tracer: they are long pure
computations (the solver against brute force, the reference models, whole matches of bots) over code that
other tests cover, and the tracer would make them three to four times slower. ``scripts/test`` runs the suite
on every core (pytest-xdist).
"""

from __future__ import annotations

import json
import os
import sys

import pytest
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


# Under scripts/mutation a mutant's run stops at the first failing test (-x), so the quick worked
# cases go first and the slow differential and stateful tests last; within each, the quickest first by the
# seconds mutmut measured (mutmut-stats.json, in the mutants/ folder the runs start in): a mutant is
# most often killed by several tests, and the quick one then ends its run.
_SLOW_LAST = ("tests/reference/", "test_reference.py", "test_stateful.py", "tests/stateful/", "test_endgames")


def _measured_seconds() -> dict[str, float]:
    try:
        with open("mutmut-stats.json", encoding="utf-8") as stats:
            seconds: dict[str, float] = json.load(stats)["duration_by_test"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return seconds


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the tests quick first when running mutants (``HYPOTHESIS_PROFILE=mutation``)."""
    if os.environ.get("HYPOTHESIS_PROFILE") == "mutation":
        seconds = _measured_seconds()
        items.sort(key=lambda item: (any(part in item.nodeid for part in _SLOW_LAST), seconds.get(item.nodeid, 0.0)))


_MUTANT_MEMORY = 2 << 30
"""Bytes of address space a mutant's test run may use (a normal run needs under 0.5 GB)."""

# Caches kept in module-level dicts, filled at run time: emptied with the functools caches.
_DICT_CACHES = {"fly_rules.tricks": ("_BEATEN_BY", "_POWERS", "_ONE_SUIT_PLAYS")}


@pytest.fixture(autouse=True)
def _fresh_caches_under_mutmut() -> None:
    """Under mutmut (``MUTANT_UNDER_TEST`` set) empty the library's function caches before each test,
    and cap the memory a runaway mutant may take.

    mutmut forks each mutant's run from a process that has already run the code, so a result
    cached there (``functools.cache``, or a dict of :data:`_DICT_CACHES`) would hide the mutant in
    the function that computed it.
    """
    if os.environ.get("MUTANT_UNDER_TEST"):
        # A mutant that never stops yielding (CardSet.__iter__) fills memory until its CPU time runs
        # out, many minutes later; with the address space capped it fails with MemoryError at the cap.
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (_MUTANT_MEMORY, resource.getrlimit(resource.RLIMIT_AS)[1]))
        for name, module in list(sys.modules.items()):
            if name.startswith("fly_rules"):
                for value in list(vars(module).values()):
                    clear = getattr(value, "cache_clear", None)
                    if callable(clear):
                        clear()
                for cache in _DICT_CACHES.get(name, ()):
                    getattr(module, cache).clear()


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """Run a ``no_cover`` test with no tracer at all. pytest-cov pauses its own coverage for it, but in an
    xdist worker a second coverage (started when the worker's plugin loads) then takes over the tracing."""
    if item.get_closest_marker("no_cover") is None:
        return (yield)
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)
