"""What a Dreyfus purchase is worth: standing against the rule of thumb's exchange, the play the same.

Usage: python benchmarks/dreyfus_standing.py [--deals 1000] [--seed strength]

On paired deals (fly_rules.bots.paired's protocol: deal ``i`` the first deal of the match seeded ``"SEED:i"``,
the seat rotating, the rule of thumb everywhere else), the seat is played twice by the rule of thumb: once as
it is, once standing wherever it may stand in the exchange. It prints the gain of standing a deal with its 95%
interval. The expert's Dreyfus hints keep standing as their default declaration because of this figure.
"""

from __future__ import annotations

import argparse
import random

from fly_rules import dreyfus
from fly_rules.actions import Stand
from fly_rules.bots import RuleOfThumbBot
from fly_rules.bots.paired import mean_interval, seat_under_test
from fly_rules.engine import Phase


def play(rules: dreyfus.DreyfusRules, seed: str, index: int, *, stand: bool) -> int:
    """Deal ``index``'s score change of the rotating seat, standing in the exchange or not."""
    seat = seat_under_test(index, rules.players)
    deal = dreyfus.new_match(rules, seed=f"{seed}:{index}", dealer=index % rules.players).deal
    bot = RuleOfThumbBot(rules.rank_order)
    rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(rules.players)]
    start = deal.scores[seat]
    while not deal.is_over:
        mover, legal = deal.to_move, deal.legal_actions()
        if stand and mover == seat and deal.phase is Phase.EXCHANGE and Stand() in legal:
            action = Stand()
        else:
            action = bot.choose(deal.view(mover), legal, rngs[mover])
        deal = deal.apply(action)
    return deal.scores[seat] - start


def main(argv: list[str] | None = None) -> None:
    """Play the deals both ways and print the gain of standing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="strength")
    args = parser.parse_args(argv)
    rules = dreyfus.DreyfusRules()
    gains = [play(rules, args.seed, i, stand=True) - play(rules, args.seed, i, stand=False) for i in range(args.deals)]
    mean, low, high = mean_interval(gains)
    print(f"Dreyfus, {args.deals} paired deals: standing, against the rule of thumb's exchange (the play the same):")
    print(f"  {mean:+.2f} a deal [{low:+.2f}, {high:+.2f}]")


if __name__ == "__main__":
    main()
