"""Writing a game's history [REC-1.1] … [REC-4.3]: :func:`history_data` (the history as plain data) and
:func:`dump_history` (its canonical TOML text, read back by :func:`fly_rules.notation.history.load_history`).

Writing needs the ``tomli-w`` package (the ``cli`` extra), imported only when a history is written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from fly_rules.engine import MatchBase
from fly_rules.notation.games import (
    Deal,
    Match,
    action_text,
    deal_of,
    finished_deal,
    first_dealer,
    game_of,
    match_actions,
    new_deal,
    new_game,
    options_of,
    rules_version,
)

__all__ = ["FORMAT", "VERSION", "dump_history", "history_data"]

FORMAT: Final = "fly_rules history"
"""The value of a history's ``format`` key [REC-1.2]."""
VERSION: Final = 1
"""The format version written here and read by :mod:`fly_rules.notation.history` [REC-1.2]."""


def _lists(lines: Mapping[str, Sequence[int]]) -> dict[str, list[int]]:
    return {key: list(values) for key, values in lines.items()}


def _deal_head(deal: Deal) -> dict[str, Any]:
    """What a deal states before its actions [REC-3.1]."""
    return dict(deal.deal_head())


def _deal_results(deal: Deal) -> dict[str, Any]:
    """The results a finished deal states [REC-3.4]."""
    return _lists(deal.deal_lines())


def _match_results(state: Match | Deal) -> dict[str, Any]:
    """The results a finished match (or explicit deal) states [REC-4.1]."""
    out: dict[str, Any] = {}
    if state.winner is not None:
        out["winner"] = state.winner
    out.update(_lists(state.result_lines()))
    return out


def _is_over(state: Match | Deal) -> bool:
    return bool(state.is_over)


def history_data(
    state: Match | Deal,
    *,
    actions: Sequence[Any] | None = None,
    start: Mapping[str, Any] | None = None,
    saved: bool = False,
) -> dict[str, Any]:
    """The history of ``state`` as plain data, in canonical key order [REC-4.2].

    ``state`` is a match (started from a seed), or a deal made by ``new_deal`` together with
    ``start``, the keyword arguments it was made with (``hands``, ``trump_card``, … as text). The
    actions are the state's own (both games keep them) unless ``actions`` is given. With ``saved``,
    a game in progress also states its ``saved`` table (the count of its actions and the digest of
    the rest), by which a truncated or edited copy is refused [REC-4.1].

    Raises:
        ValueError: if the actions are unknown or do not lead to ``state``.
    """
    game = game_of(state)
    taken = match_actions(state) if actions is None else tuple(actions)
    if taken is None:
        raise ValueError(f"{type(state).__name__} does not keep its actions; pass actions=")
    rules = state.rules
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "rules_version": rules_version(game),
        "players": rules.players,
    }
    if isinstance(state, MatchBase):
        if start is not None:
            raise ValueError("a match starts from its seed; start= is for explicit deals")
        match = state
        data["seed"] = match.seed
        data["dealer"] = first_dealer(match)
        replay: Match | Deal = new_game(rules, seed=match.seed, dealer=data["dealer"])
    else:
        if start is None:
            raise ValueError("an explicit deal needs start=, the arguments new_deal was given")
        replay = _new_deal(rules, dict(start))
    options = options_of(rules)
    if options:
        data["options"] = options
    if start is not None:
        data["start"] = _canonical_start(deal_of(replay))
    deals: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for action in taken:
        if current is None:
            current = {**_deal_head(deal_of(replay)), "actions": []}
            deals.append(current)
        seat = replay.to_move
        before = replay
        replay = replay.apply(action)
        current["actions"].append(f"{seat}: {action_text(action)}")
        done = finished_deal(before, replay)
        if done is not None:
            current.update(_deal_results(done))
            current = None
    if replay != state:
        raise ValueError("the actions do not lead to this state")
    if deals:
        data["deal"] = deals
    if _is_over(replay):
        data["result"] = _match_results(replay)
    elif saved:
        data["saved"] = {"actions": len(taken), "digest": _digest(data)}
    return data


def _digest(data: Mapping[str, Any]) -> str:
    """``sha256:`` and the SHA-256 of ``data`` (a history's data without ``saved``) as compact JSON with
    sorted keys [REC-4.1]: the same for any layout of the same history's text."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _new_deal(rules: Any, start: dict[str, Any]) -> Deal:
    """``new_deal`` of the game of ``rules`` from a start table [REC-2.4]."""
    deal: Deal = new_deal(rules, **start)
    return deal


def _canonical_start(deal: Deal) -> dict[str, Any]:
    """An explicit deal's starting position, in canonical form [REC-2.4]."""
    return dict(deal.start_fields())


def dump_history(
    state: Match | Deal,
    *,
    actions: Sequence[Any] | None = None,
    start: Mapping[str, Any] | None = None,
    saved: bool = False,
) -> str:
    """The canonical history text of ``state`` [REC-4.2] (see :func:`history_data`); with ``saved``, a
    game in progress ends with its ``saved`` table [REC-4.1].

    Needs the ``tomli-w`` package (``pip install 'fly_rules[cli]'``).
    """
    import tomli_w  # noqa: PLC0415 - the optional writer (cli extra): only this function needs it

    return tomli_w.dumps(history_data(state, actions=actions, start=start, saved=saved))
