"""The table server: Fly and Dreyfus with friends, each player seeing only their own cards (specs/table.md).

``fly-rules serve`` runs it (the ``server`` extra: Starlette and uvicorn). :func:`create_app` is the ASGI
application; :class:`~fly_rules.server.tables.TableService` the tables without a web framework;
:class:`~fly_rules.server.storage.Storage` where they are kept. Only views cross the network, never a state
or a seed before the match is over [TBL-5.1].
"""

from __future__ import annotations

from fly_rules.server.app import create_app
from fly_rules.server.live import Limits
from fly_rules.server.storage import SQLiteStorage, Storage
from fly_rules.server.tables import TableService, commitment_of

__all__ = ["Limits", "SQLiteStorage", "Storage", "TableService", "commitment_of", "create_app"]
