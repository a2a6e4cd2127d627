"""Text formats of games: histories of whole matches (TOML) and the one-line position notation,
both specified in ``specs/records.md`` and read by replaying them through the engine.
"""

from __future__ import annotations

from fly_rules.notation.history import InvalidHistory, dump_history, history_data, load_history
from fly_rules.notation.position import parse_position, position_of

__all__ = ["InvalidHistory", "dump_history", "history_data", "load_history", "parse_position", "position_of"]
