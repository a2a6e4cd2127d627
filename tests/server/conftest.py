"""The table server tests' fixtures: one PostgreSQL cluster a test session (a worker of pytest-xdist), started only
when a test asks for it, and a fresh database on it for each test that does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.cluster import Cluster, cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """The session's PostgreSQL cluster (started on first use, removed at the end)."""
    with cluster() as made:
        yield made


@pytest.fixture
def postgres_url(postgres: Cluster) -> str:
    """The URL of a new, empty database on the session's cluster."""
    return postgres.database()
