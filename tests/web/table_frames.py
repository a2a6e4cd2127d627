"""Every WebSocket frame a table page received, checked against what its seat could know then (TBL-5.1).

Run by ``tests/web/table.test.mjs``: standard input is JSON ``{"history": TEXT, "seed": S, "nonce": N,
"frames": [{"seat": SEAT or null, "text": FRAME}, ...]}`` (one page's frames in the order received, the
match's history as the server gave it at the end); standard output is the JSON list of the problems found.
A card may appear in a frame of seat ``s`` at ``seq`` k when it was in ``s``'s hand at some point of the
deal up to k, or is public: the trump card, a card played in the deal (or in the action that ended the
previous one). Any other card (another seat's hand, the stock, another seat's discards) is a leak, and so
is the seed or nonce in a frame of a match not over.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from fly_rules import registry
from fly_rules.notation import load_history
from fly_rules.notation.games import deal_of

CODE = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][SHDC])(?![0-9A-Za-z])")
SYMBOL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
# The names of FLY-8.3's and FLY-8.5's scores, not a card: that the A♠ holder took (or missed) a trick is
# public by the rules (every seat sees the records move by them).
SCORE_NAMES = re.compile(r"A♠ (?:bonus|penalty|holder)")
UNSCANNED = frozenset({"table", "commitment", "seed", "nonce"})  # random hex and base64: no cards in them


def mentioned(value: Any, found: set[str]) -> set[str]:
    """The cards named in the strings of a JSON value, as codes (``AH``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in UNSCANNED:
                mentioned(item, found)
    elif isinstance(value, list):
        for item in value:
            mentioned(item, found)
    elif isinstance(value, str):
        value = SCORE_NAMES.sub("", value)
        found.update(CODE.findall(value))
        found.update(("T" if rank == "10" else rank) + SUITS[suit] for rank, suit in SYMBOL.findall(value))
    return found


def public(view: Any) -> set[str]:
    """The cards every seat has seen in the deal of ``view``: the trump card and the cards played."""
    cards = {str(view.trump_card)}
    for trick in (view.trick, *view.tricks):
        cards.update(str(card) for _, card in trick)
    return cards


def knowledge(history: str) -> tuple[list[set[str]], list[list[set[str]]]]:
    """Per ``seq``: the public cards and, per seat, the cards it may know."""
    match: Any = load_history(history)  # a match from a seed: the table server records no other
    state = registry.get(deal_of(match).game).new_match(match.rules, seed=match.seed)
    players = match.rules.players
    states = [state]
    for action in match.actions:
        state = state.apply(action)
        states.append(state)
    shown: list[set[str]] = []
    held: list[list[set[str]]] = []
    seen = [set[str]() for _ in range(players)]
    deal_number = None
    for k, state in enumerate(states):
        deal = deal_of(state)
        views = [deal.view(seat) for seat in range(players)]
        if views[0].deal_number != deal_number:
            deal_number = views[0].deal_number
            seen = [set[str]() for _ in range(players)]
        for seat, view in enumerate(views):
            seen[seat] |= {str(card) for card in view.hand}
        cards = public(views[0])
        if k:
            before = deal_of(states[k - 1]).view(0)
            cards |= public(before)
        shown.append(cards)
        held.append([set(cards) for cards in seen])
    return shown, held


def problems(data: dict[str, Any]) -> list[str]:
    """What leaked in the frames of ``data``, or nothing."""
    shown, held = knowledge(data["history"])
    seat = data["seat"]
    found: list[str] = []
    seq = 0
    for number, frame in enumerate(data["frames"]):
        message = json.loads(frame)
        over = message.get("type") == "view" and message.get("over")
        if not over and (data["seed"] in frame or data["nonce"] in frame):
            found.append(f"frame {number}: the seed or nonce before the end")
        if message.get("type") == "view":
            if message.get("match") != 0:
                continue  # the next match (a rematch): its history is not told yet
            seq = message["seq"]
        allowed = shown[seq] | (held[seq][seat] if seat is not None else set())
        leaked = mentioned(message, set()) - allowed
        if leaked:
            found.append(f"frame {number} (seq {seq}, {message.get('type')}): {' '.join(sorted(leaked))}")
            if data.get("verbose"):
                found.append(frame)
    return found


if __name__ == "__main__":
    print(json.dumps(problems(json.load(sys.stdin))))
