"""What the expert does: its declarations by hand and record, and whole matches against the rule of thumb.

Usage: python benchmarks/expert_habits.py [--players 4] [--matches 200] [--workers 2] [--seed habits]
       [--out docs/_static/expert-habits]

Plays ``--matches`` whole matches of Fly, the expert in one seat and the rule-of-thumb bot in the others (the
seats rotating from match to match, as ``fly-rules simulate`` does), and records every declaration of the expert
and of the rule of thumb in the expert's seat would have made in the same position (the same view): by how many
trumps the hand holds, how many plain aces and kings, whether it holds the A♠, and the seat's record. It prints
and writes (``OUT.md``, ``OUT.json``) how often each folds, stands or exchanges and how many cards, and the
expert's match wins with their Wilson interval. The docs' "Play well" page shows the table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _command import command_line

from fly_rules import fly
from fly_rules.actions import Exchange, Fold, Stand
from fly_rules.bots import ExpertBot, RuleOfThumbBot, wilson_interval
from fly_rules.cards import Rank
from fly_rules.engine import Phase


def features(view: Any) -> tuple[str, str, str, str]:
    """The hand's trumps, plain aces and kings, the A♠, and the record, as table labels."""
    trump = view.trump
    trumps = sum(card.suit == trump for card in view.hand)
    high = sum(card.suit != trump and card.rank >= Rank.KING and card.index != 51 for card in view.hand)
    ace = "A♠" if any(card.index == 51 for card in view.hand) else "-"
    record = view.records[view.seat]
    band = "1-5" if record <= 5 else "6-15" if record <= 15 else "16+"
    return (
        str(min(trumps, 3)) + ("+" if trumps >= 3 else ""),
        str(min(high, 2)) + ("+" if high >= 2 else ""),
        ace,
        band,
    )


def kind(action: Any) -> str:
    """``fold``, ``stand``, ``exchange N`` or ``swap``."""
    if isinstance(action, Fold):
        return "fold"
    if isinstance(action, Stand):
        return "stand"
    if isinstance(action, Exchange):
        return f"exchange {len(action.cards)}"
    return "swap"


def play(players: int, seed: str, indices: range) -> list[dict[str, Any]]:
    """The matches ``indices``: the expert's seat, the winner and each declaration of the expert's seat."""
    out = []
    for index in indices:
        rules = fly.FlyRules(players=players, max_deals=200)
        match = fly.new_match(rules, seed=f"{seed}:{index}")
        seat = index % players
        expert, thumb = ExpertBot(rules), RuleOfThumbBot(rules.rank_order)
        rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(players)]
        declarations = []
        while not match.is_over:
            mover = match.to_move
            assert mover is not None  # a match not over has a seat to move
            view, legal = match.view(mover), match.legal_actions()
            if mover == seat:
                action = expert.choose(view, legal, rngs[mover])
                if view.phase is Phase.EXCHANGE and not view.declarations[seat]:
                    other = thumb.choose(view, legal, random.Random(0))
                    declarations.append({"features": features(view), "expert": kind(action), "thumb": kind(other)})
            else:
                action = thumb.choose(view, legal, rngs[mover])
            match = match.apply(action)
        out.append({"index": index, "seat": seat, "winner": match.winner, "declarations": declarations})
    return out


def _order(key: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """Table rows in the order of their labels' numbers ("6-15" before "16+"), then by the label."""
    return tuple((int("".join(c for c in label.split("-")[0] if c.isdigit()) or -1), label) for label in key)


def table(matches: list[dict[str, Any]], part: slice, headers: list[str]) -> list[str]:
    """The habits as a Markdown table: per kind of hand (the ``part`` of its features, under ``headers``), the
    share of folds, stands and exchanges of each bot."""
    groups: dict[tuple[str, ...], dict[str, Counter[str]]] = defaultdict(
        lambda: {"expert": Counter(), "thumb": Counter()}
    )
    for match in matches:
        for d in match["declarations"]:
            key = tuple(d["features"][part])
            groups[key]["expert"][d["expert"]] += 1
            groups[key]["thumb"][d["thumb"]] += 1
    lines = [
        "| " + " | ".join(headers) + " | hands | expert folds | stands | exchanges (mean cards) "
        "| rule of thumb folds | stands | exchanges (mean cards) |",
        "| " + " | ".join(":---:" for _ in headers) + " | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key in sorted(groups, key=_order):
        cells = []
        for who in ("expert", "thumb"):
            count = groups[key][who]
            n = sum(count.values())
            exchanges = {k: v for k, v in count.items() if k.startswith("exchange")}
            swapped = sum(exchanges.values())
            mean = sum(int(k.split()[1]) * v for k, v in exchanges.items()) / swapped if swapped else 0.0
            cells += [
                f"{100 * count['fold'] / n:.0f}%",
                f"{100 * count['stand'] / n:.0f}%",
                f"{100 * swapped / n:.0f}% ({mean:.1f})",
            ]
        n = sum(groups[key]["expert"].values())
        lines.append("| " + " | ".join(key) + f" | {n} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play the matches, print and write the table and the win rate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="habits")
    parser.add_argument("--out", type=Path, default=Path("docs/_static/expert-habits"))
    args = parser.parse_args(argv)
    started = time.time()
    size = max(1, -(-args.matches // (args.workers * 8)))
    pieces = [range(i, min(args.matches, i + size)) for i in range(0, args.matches, size)]
    matches: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(play, *zip(*[(args.players, args.seed, p) for p in pieces], strict=True)):
            matches.extend(part)
            print(f"\r  {len(matches)}/{args.matches} matches", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = sum(match["winner"] == match["seat"] for match in matches)
    low, high = wilson_interval(wins, len(matches))
    lines = [
        *table(matches, slice(0, 3), ["trumps", "plain A, K", "A♠"]),
        "",
        *table(matches, slice(3, 4), ["record"]),
    ]
    declared = sum(len(match["declarations"]) for match in matches)
    summary = (
        f"The expert won {wins} of {len(matches)} matches against {args.players - 1} rule-of-thumb bots: "
        f"{100 * wins / len(matches):.1f}% [{100 * low:.1f}, {100 * high:.1f}] (an equal share is "
        f"{100 / args.players:.0f}%); {declared:,} declarations. `{command_line('expert_habits.py', argv)}`."
    )
    report = {
        "players": args.players,
        "matches": len(matches),
        "wins": wins,
        "ci95": [low, high],
        "declarations": declared,
        "table": lines,
        "wall_seconds": time.time() - started,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text("\n".join([*lines, "", summary]) + "\n")
    args.out.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    print("\n".join(lines))
    print(summary)
    print(f"({report['wall_seconds']:.0f} s wall, {args.workers} workers)")
    return report


if __name__ == "__main__":
    main()
