"""How much seeing every card is worth: a player that solves the real deal, against the rule of thumb.

Usage: python benchmarks/open_ceiling.py [--players 4] [--deals 400] [--workers 2] [--seed ceiling]

No bot may look at the hidden cards; this script's player does, to measure what the hidden cards are worth,
and so how much any honest bot can hope to gain. On paired deals (fly_rules.bots.paired's protocol: deal ``i`` the
first deal of the match seeded ``"SEED:i"``, the seat rotating, the rule of thumb in the other seats) the seat is
played three ways against the rule of thumb in it: **open play** (the rule of thumb's declarations, then every card
chosen by the max^n solver on the real deal), **open declarations** (each declaration valued by making it, letting
the later seats declare by the rule of thumb and solving the real play; then the rule of thumb's play), both, and
**open best response**: every decision by the seat's exact best response to the rule of thumb on the real deal
(:func:`fly_rules.solve.best_response`: it knows every card *and* how the others will play, so no player at that
table can gain more). It prints each one's gain a deal with its 95% interval.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _command import command_line

from fly_rules import fly
from fly_rules.bots import RuleOfThumbBot
from fly_rules.bots.paired import mean_interval, seat_under_test
from fly_rules.engine import Phase
from fly_rules.solve import Search, best_response, evaluate, kernel_of

_THUMB = RuleOfThumbBot()
_RNG = random.Random(0)  # the rule of thumb draws nothing from it
_MODES = {"play": "open play", "declare": "open declarations", "both": "both", "respond": "open best response"}


def _thumb(deal: Any) -> Any:
    return _THUMB.choose(deal.view(deal.to_move), deal.legal_actions(), _RNG)


def _open_declaration(deal: Any) -> Any:
    """The declaration whose real outcome (later seats by the rule of thumb, the play solved) is best."""
    seat, start = deal.to_move, deal.scores[deal.to_move]
    best, top = None, None
    for action in deal.legal_actions():
        after = deal.apply(action)
        while after.phase is Phase.EXCHANGE:
            after = after.apply(_thumb(after))
        if after.is_over:
            value = after.scores[seat] - start
        else:
            search = Search(kernel_of(after))
            value = search.maxn(search.kernel.node(after))[seat] - start
        if top is None or value > top:
            best, top = action, value
    return best


def play(rules: Any, seed: str, index: int, mode: str) -> int:
    """Deal ``index`` with the open player (``mode``: ``play``, ``declare``, ``both``, ``respond`` or ``none``) at
    its seat."""
    seat = seat_under_test(index, rules.players)
    deal = fly.new_match(rules, seed=f"{seed}:{index}", dealer=index % rules.players).deal
    start = deal.scores[seat]
    while not deal.is_over:
        legal = deal.legal_actions()
        if deal.to_move != seat or len(legal) == 1:
            action = _thumb(deal)
        elif mode == "respond":
            values = best_response(deal, seat, _THUMB)
            action = max(values, key=values.__getitem__)
        elif deal.phase is Phase.PLAY and mode in ("play", "both"):
            values = evaluate(deal, seat=seat)
            action = max(values, key=values.__getitem__)
        elif deal.phase is Phase.EXCHANGE and mode in ("declare", "both"):
            action = _open_declaration(deal)
        else:
            action = _thumb(deal)
        deal = deal.apply(action)
    change: int = deal.scores[seat] - start
    return change


def run(rules: Any, seed: str, indices: range) -> list[dict[str, int]]:
    """One worker's share: per deal, each mode's score change for the seat."""
    return [{mode: play(rules, seed, i, mode) for mode in ("none", *_MODES)} for i in indices]


def main(argv: list[str] | None = None) -> None:
    """Play the deals and print the gains."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="ceiling")
    parser.add_argument("--md", type=Path, default=None, help="also write the table as Markdown (for the docs)")
    args = parser.parse_args(argv)
    rules = fly.FlyRules(players=args.players)
    size = max(1, -(-args.deals // (args.workers * 8)))
    pieces = [range(i, min(args.deals, i + size)) for i in range(0, args.deals, size)]
    rows: list[dict[str, int]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(run, *zip(*[(rules, args.seed, p) for p in pieces], strict=True)):
            rows.extend(part)
    print(f"Fly, {args.players} players, {len(rows)} paired deals: a player who sees every card, against", end=" ")
    print("the rule of thumb")
    table = ["| seeing every card for | gain a deal | 95% interval |", "| --- | ---: | --- |"]
    for mode, words in _MODES.items():
        mean, low, high = mean_interval([row[mode] - row["none"] for row in rows])
        print(f"  {words:<19} {mean:+.2f} a deal [{low:+.2f}, {high:+.2f}]")
        table.append(f"| {words} | {mean:+.2f} | [{low:+.2f}, {high:+.2f}] |")
    if args.md is not None:
        command = command_line("open_ceiling.py", argv)
        table += ["", f"`{command}`: {len(rows):,} paired deals of {args.players}-player Fly, the rule of thumb in"]
        table[-1] += " the other seats (and, in the first two rows, in the seat's other decisions)."
        args.md.write_text("\n".join(table) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
