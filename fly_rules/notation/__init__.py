"""Text formats of games: histories of whole matches (TOML) and the one-line position notation,
both specified in ``specs/records.md`` and read by replaying them through the engine.
"""

from __future__ import annotations

from fly_rules.notation.games import action_text, parse_action
from fly_rules.notation.history import InvalidHistory, dump_history, history_data, load_history
from fly_rules.notation.position import parse_position, position_of

__all__ = [
    "InvalidHistory",
    "action_text",
    "dump_history",
    "history_data",
    "load_history",
    "parse_action",
    "parse_position",
    "position_of",
]
