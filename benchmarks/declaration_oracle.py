"""What the Fly expert's declarations are worth: every candidate declaration played out on the real deal.

Usage: python benchmarks/declaration_oracle.py [--deals 2000] [--workers 2] [--seed calib] [--pieces DIR] [--md FILE]

On the deals of ``benchmarks/strength.py`` (the same seed gives the same deals: 4-player Fly, the seat rotating,
the rule of thumb in the other seats), the seats before the seat declare as the rule of thumb, and then the seat's
first declaration is played out once for each declaration the expert searches (its hints' candidates): the seat
makes it, then plays on as the expert; the others play as the rule of thumb. Beside each candidate's realised
record points stand the expert's estimates of it on the same guesses, in match chance (what it ships with) and in
record points. Three tables come of it:

1. by the rule of thumb's declaration: the mean realised record points of each candidate (standing, folding,
   exchanging ``k`` of the weakest cards) and of the expert's own choice;
2. the expert's choice against the rule of thumb's (both played on by the expert), the hindsight bound (the best
   candidate on the real deal, which no player can know: the stock's order decides much of it), and choosing by
   the record-point estimate;
3. per kind of declaration, the straight line from the estimated difference from folding to the realised one
   (regression on every deal), and the expert choosing by the line fitted on the other half of the deals (odd
   against even indices), beside the expert as it ships. ``benchmarks/expert_parts.py --parts calibrated`` plays
   the line fitted on every deal of ``--seed calib``.

With ``--pieces DIR`` each deal's row is kept in ``DIR`` as soon as it is played, and a rerun takes it from there.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _command import command_line, deals_parser, publish

from fly_rules import fly
from fly_rules.bots import ExpertBot, RuleOfThumbBot
from fly_rules.bots.paired import mean_interval, seat_under_test
from fly_rules.engine import Phase
from fly_rules.notation.games import deal_of

RULES = fly.FlyRules(players=4)
KINDS = ("stand", "x1", "x2", "x3", "x4", "x5")
"""The kinds of declaration played besides folding: standing, and exchanging one to five of the weakest cards."""


def kind(action: str) -> str:
    """``fold``, ``stand`` or ``xK`` (an exchange of ``K`` cards) for an action as the notation writes it."""
    return f"x{len(action.split()) - 1}" if action.startswith("exchange") else action.split(maxsplit=1)[0]


def _row(seed: str, index: int) -> dict[str, Any]:
    """Deal ``index``: the seat's candidates, estimated and each played out (``skip`` if the seat never declares)."""
    thumb = RuleOfThumbBot()
    seat = seat_under_test(index, RULES.players)
    deal = deal_of(fly.new_match(RULES, seed=f"{seed}:{index}", dealer=index % RULES.players))
    start = deal.scores[seat]
    rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(RULES.players)]
    while not deal.is_over and not (deal.to_move == seat and deal.phase is not Phase.PLAY):
        mover = deal.to_move
        deal = deal.apply(thumb.choose(deal.view(mover), deal.legal_actions(), rngs[mover]))
    if deal.is_over:
        return {"index": index, "skip": True}
    view, legal = deal.view(seat), deal.legal_actions()
    state = rngs[seat].getstate()
    estimates: dict[str, dict[str, float]] = {}
    for objective, for_match in (("match", None), ("points", False)):
        estimator = ExpertBot(RULES, for_match=for_match)
        values = estimator.values(view, legal, _generator(state))
        estimates[objective] = {str(action): value for action, value in values.items()}
        if for_match is None:
            chosen, candidates = str(estimator.decide(view, legal, _generator(state))[0]), list(values)
    realised = {}
    for candidate in candidates:
        after = deal.apply(candidate)
        expert = ExpertBot(RULES)
        played = [random.Random(f"{seed}:{index}:{s}:{candidate}") for s in range(RULES.players)]
        while not after.is_over:
            mover = after.to_move
            bot: Any = expert if mover == seat else thumb
            after = after.apply(bot.choose(after.view(mover), after.legal_actions(), played[mover]))
        realised[str(candidate)] = after.scores[seat] - start
    return {
        "index": index,
        "place": (seat - index) % RULES.players,
        "thumb": str(thumb.choose(view, legal, random.Random(0))),
        "expert": chosen,
        "est": estimates,
        "realised": realised,
    }


def _generator(state: Any) -> random.Random:
    rng = random.Random()
    rng.setstate(state)
    return rng


def _rows(seed: str, indices: range, folder: Path | None) -> list[dict[str, Any]]:
    """The rows of ``indices``, each kept in ``folder`` (if given) and taken from there when it is."""
    out = []
    for index in indices:
        path = None if folder is None else folder / f"{seed}-{index}.json"
        if path is not None and path.exists():
            out.append(json.loads(path.read_text()))
            continue
        row = _row(seed, index)
        if path is not None:
            path.write_text(json.dumps(row))
        out.append(row)
    return out


def _shown(values: list[float]) -> str:
    mean, low, high = mean_interval(values)
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def _line(rows: list[dict[str, Any]], name: str) -> tuple[float, float]:
    """Intercept and slope of the realised difference from folding on the estimated one (record points)."""
    xs, ys = [], []
    for row in rows:
        for action, value in row["realised"].items():
            if kind(action) == name:
                xs.append(row["est"]["points"][action] - row["est"]["points"]["fold"])
                ys.append(value - row["realised"]["fold"])
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def _by_line(row: dict[str, Any], lines: dict[str, tuple[float, float]]) -> str:
    """The candidate the expert chooses by ``lines``: folding is 0, every other its line at its estimate."""
    values = {}
    for action, value in row["est"]["points"].items():
        intercept, slope = lines.get(kind(action), (0.0, 1.0))
        values[action] = 0.0 if kind(action) == "fold" else intercept + slope * (value - row["est"]["points"]["fold"])
    return _best(values)


def _best(values: dict[str, Any]) -> str:
    """The action of ``values`` with the greatest value (the first among equals)."""
    return max(values, key=values.__getitem__)


def report(rows: list[dict[str, Any]]) -> list[str]:
    """The three tables (see the module's text) of the rows where the seat declared and could fold, and the expert's
    gain where it could not (it held the A♠ [FLY-5.2])."""
    declared = [row for row in rows if not row.get("skip")]
    bound = [row for row in declared if "fold" not in row["realised"]]
    rows = [row for row in declared if "fold" in row["realised"]]
    names = ("fold", *KINDS)
    lines = [
        "Record points a deal of each declaration played out, the seat playing on as",
        "the expert (xK: exchanging the K weakest cards), by the rule of thumb's",
        f"declaration ({len(rows):,} deals):",
        "",
        "| rule of thumb | deals | " + " | ".join(names) + " | expert |",
        "| --- | ---: |" + " ---: |" * (len(names) + 1),
    ]
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        for action, value in row["realised"].items():
            table[kind(row["thumb"])][kind(action)].append(value)
        table[kind(row["thumb"])]["expert"].append(row["realised"][row["expert"]])
    for thumb in sorted(table, key=lambda name: (name != "fold", name)):
        cells = [f"{statistics.fmean(table[thumb][n]):+.2f}" if table[thumb][n] else "" for n in (*names, "expert")]
        lines.append(f"| {thumb} | {len(table[thumb]['expert'])} | " + " | ".join(cells) + " |")

    def against(pick: Any, base: str = "thumb") -> str:
        return _shown([row["realised"][pick(row)] - row["realised"][row[base]] for row in rows])

    fitted = {name: _line(rows, name) for name in KINDS}
    halves = [{name: _line([r for r in rows if r["index"] % 2 == parity], name) for name in KINDS} for parity in (0, 1)]
    crossed = [
        row["realised"][_by_line(row, halves[1 - row["index"] % 2])] - row["realised"][row["expert"]] for row in rows
    ]
    lines += [
        "",
        "| the seat's declaration (played on by the expert) | gain over the thumb's |",
        "| --- | --- |",
        f"| the expert's (match chance) | {against(lambda row: row['expert'])} |",
        f"| the best record-point estimate | {against(lambda row: _best(row['est']['points']))} |",
        f"| always fold | {against(lambda row: 'fold')} |",
        f"| where it may not fold ({len(bound)} deals), the expert's | "
        + _shown([row["realised"][row["expert"]] - row["realised"][row["thumb"]] for row in bound])
        + " |",
        f"| the best on the real deal (hindsight) | {against(lambda row: _best(row['realised']))} |",
        "",
        "| declaration | estimate less fold | realised less fold | intercept | slope |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name in KINDS:
        pairs = [
            (row["est"]["points"][a] - row["est"]["points"]["fold"], v - row["realised"]["fold"])
            for row in rows
            for a, v in row["realised"].items()
            if kind(a) == name
        ]
        intercept, slope = fitted[name]
        lines.append(
            f"| {name} | {statistics.fmean(p[0] for p in pairs):+.2f} | {statistics.fmean(p[1] for p in pairs):+.2f}"
            f" | {intercept:+.3f} | {slope:.3f} |"
        )
    lines += ["", f"Choosing by the line fitted on the other half, against the expert:\n{_shown(crossed)}"]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = deals_parser(__doc__, deals=2000, seed="calib")
    parser.add_argument("--pieces", type=Path, default=None, help="keep each deal's row here, and take it from here")
    args = parser.parse_args(argv)
    if args.pieces is not None:
        args.pieces.mkdir(parents=True, exist_ok=True)
    started = time.time()
    count = args.workers * 10
    shares = [range(i, args.deals, count) for i in range(count)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = [row for share in pool.map(_rows, [args.seed] * count, shares, [args.pieces] * count) for row in share]
    table = "\n".join([*report(rows), "", f"`{command_line('declaration_oracle.py', argv)}`"]) + "\n"
    publish(table, args, started)


if __name__ == "__main__":
    main()
