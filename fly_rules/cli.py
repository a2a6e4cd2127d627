"""The ``fly-rules`` command: ``demo`` here, and ``play``, ``simulate``, ``replay``, ``show`` and
``rules`` from :mod:`fly_rules.commands`.

``fly-rules demo`` plays one match between bots and prints it as it
goes: each deal's trump card and hands, the declarations, every trick, the
records after each deal, and the winner. ``fly-rules demo --game dreyfus``
does the same for Dreyfus, ending with the settlement.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import attrs

from fly_rules import dreyfus, fly
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.bots import BOTS, make_bot
from fly_rules.cards import ALL_CARDS
from fly_rules.commands import register
from fly_rules.errors import FlyRulesError, InvalidRules

__all__ = ["main", "narrate_dreyfus_match", "narrate_fly_match"]


def _seat(seat: int) -> str:
    return f"seat {seat}"


def narrate_fly_match(match: fly.FlyMatch, choose: Callable[[Any, Sequence[Any]], Any], out: TextIO) -> fly.FlyMatch:
    """Play ``match`` to its end with ``choose(state, legal_actions)`` and print it readably."""
    rules = match.rules
    announced = -1
    while not match.is_over:
        deal = match.deal
        if deal.deal_number != announced:
            announced = deal.deal_number
            print(
                f"\n== Deal {deal.deal_number + 1}: {_seat(deal.dealer)} deals; trump card {deal.trump_card.symbol}",
                file=out,
            )
            for seat, hand in enumerate(deal.hands):
                cards = " ".join(c.symbol for c in hand.sorted(rules.rank_order))
                print(f"   {_seat(seat)}: {cards}   (record {deal.records[seat]})", file=out)
        mover = match.to_move
        assert mover is not None
        action = choose(match, match.legal_actions())
        before = match.deal
        match = match.apply(action)
        moved_on = match.deal.deal_number != before.deal_number
        after = match.previous_deal if moved_on else match.deal
        assert after is not None
        _narrate_action(before, after, mover, action, out)
        if after.is_over:
            _narrate_deal_end(after, out)
    winner = "no winner (deal limit reached)" if match.winner is None else f"{_seat(match.winner)} wins the match"
    print(f"\n== Match over after {match.deal_number + 1} deal(s): {winner}", file=out)
    print("   standings: " + ", ".join(f"{_seat(s)} {match.records[s]}" for s in match.standings()), file=out)
    return match


def _narrate_action(before: fly.FlyDeal, after: fly.FlyDeal, seat: int, action: Any, out: TextIO) -> None:
    if isinstance(action, Exchange):
        print(f"   {_seat(seat)} exchanges {len(action.cards)}: {' '.join(c.symbol for c in action.cards)}", file=out)
    elif isinstance(action, Stand):
        print(f"   {_seat(seat)} stands", file=out)
    elif isinstance(action, Fold):
        print(f"   {_seat(seat)} folds", file=out)
    elif isinstance(action, fly.SwapTrump):
        print(f"   {_seat(seat)} takes the trump card, discarding {action.card.symbol}", file=out)
    if before.phase is fly.Phase.EXCHANGE and after.phase is not fly.Phase.EXCHANGE and after.completed:
        for trick in after.completed:
            taker = trick[0][0]
            print(f"   {_seat(taker)} takes every trick without play", file=out)
            break
    if isinstance(action, Play) and len(after.completed) > len(before.completed):
        trick = after.completed[-1]
        cards = "  ".join(f"{s}:{fly.FlyDeal.card_symbol(c)}" for s, c in trick)
        taker = after.leader
        print(f"   trick {len(after.completed)}: {cards}  -> {_seat(taker)} (record {after.records[taker]})", file=out)


def _narrate_deal_end(deal: fly.FlyDeal, out: TextIO) -> None:
    if deal.void:
        print("   deal void: records unchanged", file=out)
    records = ", ".join(f"{_seat(s)} {r}" for s, r in enumerate(deal.records))
    print(f"   records: {records}", file=out)


def narrate_dreyfus_match(
    match: dreyfus.DreyfusMatch, choose: Callable[[Any, Sequence[Any]], Any], out: TextIO
) -> dreyfus.DreyfusMatch:
    """Play a Dreyfus ``match`` to its end with ``choose(state, legal_actions)`` and print it [DRF-8.1] [DRF-9.1]."""
    announced = -1
    while not match.is_over:
        deal = match.deal
        if deal.deal_number != announced:
            announced = deal.deal_number
            trumps = "no trumps" if deal.contract is None else f"{deal.contract.symbol} trumps"
            print(f"\n== Deal {deal.deal_number + 1}: {_seat(deal.dealer)} deals; {trumps}", file=out)
            for seat in range(3):
                hand = deal.view(seat).hand
                print(f"   {_seat(seat)}: {' '.join(c.symbol for c in hand.sorted())}", file=out)
        mover = match.to_move
        assert mover is not None
        action = choose(match, match.legal_actions())
        before = match.deal
        match = match.apply(action)
        after = match.deal if match.deal.deal_number == before.deal_number else match.last_deal
        assert after is not None
        if isinstance(action, Exchange):
            print(
                f"   {_seat(mover)} buys {len(action.cards)}, discarding {' '.join(c.symbol for c in action.cards)}",
                file=out,
            )
        elif isinstance(action, Stand):
            print(f"   {_seat(mover)} stands", file=out)
        elif len(after.tricks) > len(before.tricks):
            leader, cards = after.tricks[-1]
            shown = "  ".join(f"{(leader + k) % 3}:{ALL_CARDS[c].symbol}" for k, c in enumerate(cards))
            print(f"   trick {len(after.tricks)}: {shown}  -> {_seat(after.leader)}", file=out)
        if after.is_over:
            print(f"   tricks {after.tricks_taken}; upper {after.upper}, lower {after.lower}", file=out)
    winner = "no winner (deal limit reached)" if match.winner is None else f"{_seat(match.winner)} wins the match"
    print(f"\n== Match over after {match.deals_played} deal(s): {winner}", file=out)
    print(f"   settlement: {', '.join(f'{_seat(s)} {p:+d}' for s, p in enumerate(match.settlement()))}", file=out)
    return match


Chooser = Callable[[Any, Sequence[Any]], Any]
"""Picks an action: ``choose(state, legal_actions)``."""


def _bot_choice(names: str, rules: Any, players: int, rng: random.Random) -> tuple[str, Chooser]:
    """A chooser that lets the bot of each seat (names by seat, the last repeating) pick from its view."""
    listed = [name.strip() for name in names.split(",") if name.strip()]
    if not listed or any(name not in BOTS for name in listed):
        raise InvalidRules("bots", f"bots must be among {', '.join(BOTS)}, not {names!r}")
    by_seat = [listed[min(seat, len(listed) - 1)] for seat in range(players)]
    bots = [make_bot(name, rules) for name in by_seat]

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        seat = state.to_move
        return bots[seat].choose(state.view(seat), legal, rng)

    return ", ".join(f"seat {s}: {name}" for s, name in enumerate(by_seat)), choose


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    rng = random.Random(args.seed)
    if args.game == "dreyfus":
        drules = dreyfus.DreyfusRules.preset(args.preset)
        drules = attrs.evolve(drules, max_deals=args.max_deals)
        dmatch = dreyfus.new_match(drules, seed=args.seed)
        who, choose = _bot_choice(args.bots, drules, 3, rng)
        print(f"Dreyfus, 3 players, preset {args.preset!r}, seed {args.seed}; {who}", file=out)
        narrate_dreyfus_match(dmatch, choose, out)
        return 0
    rules = fly.FlyRules.preset(args.preset, players=args.players)
    match = fly.new_match(rules, seed=args.seed, max_deals=args.max_deals)
    who, choose = _bot_choice(args.bots, rules, rules.players, rng)
    print(f"Fly, {rules.players} players, preset {args.preset!r}, seed {args.seed}; {who}", file=out)
    narrate_fly_match(match, choose, out)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fly-rules", description="Rules engine for Fly (Муха) and Dreyfus.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play one match between bots and print it")
    demo.add_argument("--game", choices=["fly", "dreyfus"], default="fly", help="which game (default fly)")
    demo.add_argument("--players", type=int, default=4, help="number of players, 3 to 7 (default 4)")
    demo.add_argument("--preset", default="default", help="rules preset (default, mouche_1718)")
    demo.add_argument("--seed", type=int, default=1, help="seed of the shuffles and the players (default 1)")
    demo.add_argument("--max-deals", type=int, default=100, help="stop after this many deals (default 100)")
    demo.add_argument(
        "--bots",
        default="rule-of-thumb,random",
        help="bots by seat, comma-separated, the last repeating (random, rule-of-thumb, monte-carlo; "
        "default rule-of-thumb,random)",
    )
    demo.set_defaults(run=_cmd_demo)
    register(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; returns the exit code (0 ok, 1 invalid input, 2 usage)."""
    args = _parser().parse_args(argv)
    stream = sys.stdout if out is None else out
    try:
        code: int = args.run(args, stream)
    except FlyRulesError as error:
        print(f"fly-rules: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader (say `head`) stopped listening: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
