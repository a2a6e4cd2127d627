"""REC-4.2's canonical history text, written here from the rule's words alone (no TOML library), is byte for byte
what ``dump_history`` writes, for matches and explicit deals of both games, finished, in progress and saved."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.notation import dump_history, load_history
from fly_rules.notation.writing import history_data

TOP = ("format", "version", "game", "rules_version", "players", "seed", "dealer")
TABLES = ("options", "start", "deal", "result", "saved")
FIVE = fly.FlyRules(players=5, ace_rank="below_jack", deal_packets=(3, 2))
ESCAPES = {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def value_text(value: object) -> str:
    """A value as REC-4.2 writes it: a whole number, true/false, a quoted string, or an array one item a line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        out = []
        for char in value:
            if char in ESCAPES:
                out.append(ESCAPES[char])
            elif (ord(char) < 0x20 and char != "\t") or ord(char) == 0x7F:
                out.append(f"\\u{ord(char):04x}")
            else:
                out.append(char)
        return '"' + "".join(out) + '"'
    assert isinstance(value, list)
    if not value:
        return "[]"
    return "[\n" + "".join(f"    {value_text(item)},\n" for item in value) + "]"


def table_lines(table: Mapping[str, Any]) -> list[str]:
    return [f"{key} = {value_text(value)}" for key, value in table.items()]


def canonical(data: Mapping[str, Any]) -> str:
    """REC-4.2: the top-level keys in their order, then each table after an empty line under its header."""
    lines = table_lines({key: data[key] for key in TOP if key in data})
    for name in TABLES:
        if name not in data:
            continue
        for table in data[name] if name == "deal" else [data[name]]:
            header = "[[deal]]" if name == "deal" else f"[{name}]"
            keys = sorted(table) if name == "options" else list(table)
            lines += ["", header, *table_lines({key: table[key] for key in keys})]
    return "\n".join(lines) + "\n"


def played(state: Any, seed: int, moves: int) -> Any:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "state",
    [
        played(fly.new_match(fly.FlyRules(players=3), seed=1, dealer=0), 1, 400),
        played(fly.new_match(FIVE, seed='A "q"\t\\ é', dealer=2), 2, 60),
        played(fly.new_match(fly.FlyRules(players=4, max_deals=2), seed=-7), 3, 500),
        played(dreyfus.new_match(dreyfus.DreyfusRules(fosk_ranks=frozenset({3, 4, 5})), seed=5, dealer=1), 4, 90),
        played(dreyfus.new_match(dreyfus.DreyfusRules(max_deals=1), seed="\x01\x7f"), 5, 400),
    ],
    ids=["fly-finished", "fly-options-odd-seed", "fly-deal-limit", "dreyfus-options", "dreyfus-finished-control-seed"],
)
def test_rec_4_2_the_canonical_text_is_the_rules_form(state: Any) -> None:
    """dump_history's text is the text REC-4.2 describes for the same data, and reads back to an equal state."""
    text = dump_history(state)
    assert text == canonical(history_data(state))
    assert load_history(text) == state


def test_rec_4_2_an_explicit_deal_and_a_saved_game() -> None:
    """An explicit deal's start table in REC-2.4's order, and a game in progress with its saved table."""
    rules = fly.FlyRules(players=3)
    deal = fly.new_deal(
        rules, hands=["7C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KC AC 7H"], trump_card="8H", stock="TD JD QD", dealer=2
    )
    start = deal.start_fields()
    deal = played(deal, 6, 4)
    assert dump_history(deal, start=start) == canonical(history_data(deal, start=start))
    match = played(fly.new_match(rules, seed=9, dealer=1), 7, 7)
    saved = dump_history(match, saved=True)
    assert saved == canonical(history_data(match, saved=True))
    assert '\n[saved]\nactions = 7\ndigest = "sha256:' in saved
