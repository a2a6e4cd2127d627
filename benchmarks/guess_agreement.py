"""How well the expert's guesses agree with what the other seats did: drawn blind, and as the model implies.

Usage: python benchmarks/guess_agreement.py [--players 4] [--deals 30] [--seed agree]

Over ``--deals`` first deals of 4-player Fly (match ``"SEED:i"``) played by the rule of thumb, at every decision
with a choice of the seat under test (``fly_rules.bots.paired.seat_under_test``), the expert's guesses are drawn the
way :class:`fly_rules.bots.ExpertBot` draws them (``draws`` per guess wanted, the fewest misses kept) in two ways:
**blind** (the game's own guess: what the view shows, nothing of how the others play) and **as the model implies**
(the hints' ``guesser`` and ``inferred``). For each, and for the exchange and each trick of the play, the table
gives the share of the kept guesses in which the rule of thumb makes every one of the others' moves, and the mean
CPU milliseconds a draw."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from _command import command_line

from fly_rules import fly
from fly_rules.bots import ExpertBot
from fly_rules.bots.paired import seat_under_test
from fly_rules.engine import Phase


def _kept(bot: ExpertBot, view: Any, rng: random.Random, guided: bool) -> tuple[list[int], int]:
    """The misses of the guesses the expert would keep at ``view``, and how many it drew."""
    count = bot.samples if view.phase is Phase.PLAY else bot.declaration_samples
    kept, drawn = bot.kept_guesses(view, rng, count, guided=guided)
    return [misses for misses, _ in kept], drawn


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", default="agree")
    args = parser.parse_args(argv)
    rules = fly.FlyRules(players=args.players)
    bot = ExpertBot(rules)
    agree: dict[tuple[str, str], list[float]] = defaultdict(list)
    cost: dict[str, list[float]] = defaultdict(list)
    for index in range(args.deals):
        deal: Any = fly.new_match(rules, seed=f"{args.seed}:{index}", dealer=index % args.players).deal
        rng = random.Random(index)
        while not deal.is_over:
            mover = deal.to_move
            view = deal.view(mover)
            legal = deal.legal_actions()
            if mover == seat_under_test(index, args.players) and len(legal) > 1:
                point = "exchange" if view.phase is Phase.EXCHANGE else f"trick {len(view.tricks) + 1}"
                for way, guided in (("blind", False), ("as the model implies", True)):
                    started = time.process_time()
                    misses, drawn = _kept(bot, view, random.Random(index), guided)
                    cost[way].append((time.process_time() - started) / drawn)
                    if misses:
                        agree[(way, point)].append(misses.count(0) / len(misses))
            deal = deal.apply(bot.policy.choose(view, legal, rng))
    points = sorted({point for _, point in agree}, key=lambda p: (p != "exchange", p))
    print(f"| guesses drawn | {' | '.join(points)} | ms a draw |")
    print(f"| --- | {' | '.join('---:' for _ in points)} | ---: |")
    for way in ("blind", "as the model implies"):
        shares = [f"{100 * statistics.fmean(agree[(way, p)]):.0f}%" if agree[(way, p)] else "" for p in points]
        print(f"| {way} | {' | '.join(shares)} | {1000 * statistics.fmean(cost[way]):.2f} |")
    decisions = [len(agree[("blind", p)]) for p in points]
    print(
        f"\n`{command_line('guess_agreement.py', argv)}`: the share of the guesses the expert keeps in which the rule "
        f"of thumb makes every move the other seats made; {sum(decisions)} decisions of {args.deals} deals."
    )


if __name__ == "__main__":
    main()
