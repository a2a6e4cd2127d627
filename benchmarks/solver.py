"""The exact solver's cost from the first lead: CPU time, positions searched, and the size of the whole game tree.

Usage: python benchmarks/solver.py [--deals N] [--rows fly3,fly5,fly7,dreyfus] [--json FILE]

Each row solves ``--deals`` seeded first deals from their first lead with :func:`fly_rules.solve.solve`'s search
(Fly: max^n, then the paranoid search of the seat on lead on the same deals; Dreyfus: the paranoid search only,
since max^n of twelve tricks is out of reach) and
prints the median and 95th percentile of the CPU time (``time.process_time``, one process), the median of the
positions the solver visited, and the median size of the whole game tree from the same position (every
legal action of every seat, no table, no equivalent cards: what a plain search would walk). Fly's rows are
dealt twice: everyone standing (the largest trees: every seat plays) and the declarations of the rule-of-thumb
bot (the deals a match meets). The tree is counted exactly where it can be (positions with the same relative
ranks have trees of the same shape, so each is counted once), else estimated by Knuth's method from random
descents (the mean of the product of the branching factors along random lines of play).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from fly_rules import dreyfus, fly
from fly_rules.bots import RuleOfThumbBot
from fly_rules.engine import Phase
from fly_rules.solve import Search, kernel_of

ROWS: dict[str, tuple[str, int]] = {
    "fly3": ("fly", 3),
    "fly5": ("fly", 5),
    "fly7": ("fly", 7),
    "dreyfus": ("dreyfus", 3),
}
CONCEPTS: dict[str, tuple[str, ...]] = {"fly": ("maxn", "paranoid"), "dreyfus": ("paranoid",)}
"""The solution concepts timed per game, on the same deals: max^n of a whole Dreyfus deal is out of reach."""


def first_lead(game: str, players: int, seed: int, declare: str) -> Any:
    """The first lead of the first deal of the match seeded ``seed``: everyone stands, or the rule of thumb declares."""
    rules: Any = fly.FlyRules(players=players) if game == "fly" else dreyfus.DreyfusRules()
    module: Any = fly if game == "fly" else dreyfus
    deal = module.new_match(rules, seed=f"solver:{seed}", dealer=seed % players).deal
    bot, rng = RuleOfThumbBot(rules.rank_order), random.Random(seed)
    while deal.phase is Phase.EXCHANGE:
        legal = deal.legal_actions()
        deal = deal.apply(legal[0] if declare == "stand" else bot.choose(deal.view(deal.to_move), legal, rng))
    return deal if deal.phase is Phase.PLAY else None


def tree_size(deal: Any, seconds: float, rng: random.Random) -> tuple[int, bool]:
    """The number of positions of the whole game tree from ``deal`` and whether it is exact: counted with the
    kernel's keys (same key, same shape of tree) within ``seconds`` of CPU, else Knuth's estimate."""
    kernel = kernel_of(deal)
    memo: dict[Any, int] = {}
    stop = time.process_time() + seconds

    def count(node: Any) -> int:
        if time.process_time() > stop:
            raise TimeoutError
        if kernel.mover(node) is None:
            return 1
        key = kernel.key(node)
        if key is not None and key in memo:
            return memo[key]
        total = 1 + sum(count(kernel.child(node, token)) for token in _all_tokens(kernel, node))
        if key is not None:
            memo[key] = total
        return total

    try:
        return count(kernel.node(deal)), True
    except TimeoutError:
        pass
    estimates = []
    for _ in range(2000):
        node, product, size = kernel.node(deal), 1, 1
        while kernel.mover(node) is not None:
            tokens = _all_tokens(kernel, node)
            product *= len(tokens)
            size += product
            node = kernel.child(node, rng.choice(tokens))
        estimates.append(size)
    return round(statistics.fmean(estimates)), False


def _all_tokens(kernel: Any, node: Any) -> list[Any]:
    """Every legal action's token (not one per class of equivalent cards)."""
    return [action.card.index for action, _ in kernel.actions(node)]


def measure(game: str, players: int, deals: int, declare: str, tree_seconds: float) -> list[dict[str, Any]]:
    """Solve ``deals`` first leads by each concept of the game (:data:`CONCEPTS`): one row of figures a concept."""
    concepts = CONCEPTS[game]
    times: dict[str, list[float]] = {concept: [] for concept in concepts}
    nodes: dict[str, list[int]] = {concept: [] for concept in concepts}
    trees: list[int] = []
    exact = 0
    rng = random.Random(0)
    seed = 0
    while len(trees) < deals:
        deal = first_lead(game, players, seed, declare)
        seed += 1
        if deal is None:
            continue
        for concept in concepts:
            search = Search(kernel_of(deal))
            root = search.kernel.node(deal)
            started = time.process_time()
            if concept == "maxn":
                search.maxn(root)
            else:
                search.paranoid_exact(root, deal.to_move)
            times[concept].append(time.process_time() - started)
            nodes[concept].append(search.nodes)
        size, counted = tree_size(deal, tree_seconds, rng)
        trees.append(size)
        exact += counted
        print(f"\r  {game} {players}p {declare}: {len(trees)}/{deals}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return [
        {
            "game": game,
            "players": players,
            "declarations": declare,
            "concept": concept,
            "deals": deals,
            "median_ms": 1000 * statistics.median(times[concept]),
            "p95_ms": 1000 * statistics.quantiles(times[concept], n=20)[-1],
            "median_nodes": statistics.median(nodes[concept]),
            "median_tree": statistics.median(trees),
            "trees_counted_exactly": exact,
        }
        for concept in concepts
    ]


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Measure every row and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--tree-seconds", type=float, default=20.0, help="CPU for counting one tree exactly")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--md", type=Path, default=None, help="also write the table as Markdown (for the docs)")
    args = parser.parse_args(argv)
    rows = []
    for name in args.rows.split(","):
        game, players = ROWS[name]
        for declare in ("stand", "rule-of-thumb") if game == "fly" else ("rule-of-thumb",):
            rows.extend(measure(game, players, args.deals, declare, args.tree_seconds))
    print(f"{'game':<8} {'players':>7} {'declared by':<14} {'concept':<9} {'median':>9} {'95th pct':>9}", end=" ")
    print(f"{'nodes':>9} {'whole tree':>14}")
    for row in rows:
        tree = f"{row['median_tree']:,.0f}" + ("" if row["trees_counted_exactly"] == row["deals"] else "*")
        print(
            f"{row['game']:<8} {row['players']:>7} {row['declarations']:<14} {row['concept']:<9} "
            f"{row['median_ms']:>7.0f}ms "
            f"{row['p95_ms']:>7.0f}ms {row['median_nodes']:>9,.0f} {tree:>14}"
        )
    print("(* some trees estimated by Knuth's method: too large to count within --tree-seconds)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    if args.md:
        args.md.write_text(markdown(rows, args))
    return rows


CONCEPT_NAMES = {"maxn": "max^n", "paranoid": "paranoid"}


def markdown(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    """The table for the docs, with the command that made it."""
    lines = [
        "| game | players | declared by | concept | median CPU | 95th percentile | positions searched (median) "
        "| whole game tree (median) |",
        "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        exact = row["trees_counted_exactly"] == row["deals"]
        tree = f"{row['median_tree']:,.0f}" if exact else f"about {row['median_tree']:.1e}"
        lines.append(
            f"| {row['game'].title()} | {row['players']} | {row['declarations']} | {CONCEPT_NAMES[row['concept']]} "
            f"| {row['median_ms']:,.0f} ms "
            f"| {row['p95_ms']:,.0f} ms | {row['median_nodes']:,.0f} | {tree} |"
        )
    lines += [
        "",
        f"`python benchmarks/solver.py --deals {args.deals} --tree-seconds {args.tree_seconds:g}`: {args.deals} "
        "seeded first deals a row, solved from the first lead (Fly by max^n and, on the same deals, by the paranoid "
        "search of the seat on lead; Dreyfus by the paranoid search); CPU time of one process. "
        '"about": Knuth\'s estimate, the tree being too large to count.',
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
