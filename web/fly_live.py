"""The engine's side of the live pages: what the "try it" boxes and the play page ask of fly_rules.

The same module runs in the browser (Pyodide, in a Web Worker: ``docs/_static/live/worker.js``) and in
CPython (the Node and browser tests compare the two). Every function takes and returns plain JSON
values; cards and moves are written as in the position notation (REC-5.2: ``pAH``, ``xAH7C``, ``s``,
``f``, ``w9H``), and text for the reader is plain text (the page shows it with ``textContent``).
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from fly_rules import RuleViolation, fly, registry
from fly_rules.actions import Exchange
from fly_rules.analysis import Review, analyse, estimate_text, verdict
from fly_rules.bots import HINT_BOT, ExpertBot, hint_bot, hint_rng, make_bot
from fly_rules.errors import FlyRulesError
from fly_rules.narration import action_lines, action_shown, card_symbols, records_text, status_line
from fly_rules.narration import outcome_text as outcome
from fly_rules.notation import dump_history, load_history, parse_position
from fly_rules.notation.games import deal_of, finished_deal, make_rules, new_game
from fly_rules.notation.position import _move, _parse_move
from fly_rules.spec import RULE_ID, load_rules
from fly_rules.svg import deal_picture

_RULES = load_rules()
_LEADING_RULE = re.compile(rf"({RULE_ID.pattern}): ")


def refusal(error: FlyRulesError, move: str = "") -> dict[str, Any]:
    """A refused move or unreadable text: the rule (for a rule violation), its title and what was wrong."""
    rule = getattr(error, "rule", None)
    detail = str(getattr(error, "detail", error))
    cited = _LEADING_RULE.match(detail)
    if rule is None and cited:  # an option or notation error that names its rule at the start
        rule, detail = cited.group(1), detail[cited.end() :]
    found = _RULES.get(rule) if rule else None
    return {
        "move": move,
        "rule": rule,
        "title": found.title if found else "",
        "detail": card_symbols(detail),
        "href": f"rules/{found.file.removesuffix('.md')}.html#{found.id}" if found else None,  # from the site's root
    }


def try_position(position: str, moves: str = "") -> dict[str, Any]:
    """Replay ``moves`` (space or comma separated) from ``position``, stopping at the first refused one.

    Returns the moves taken with what each did, the refusal (rule, title, detail) if any, and the deal
    reached: the seat to move, its legal moves, the tricks taken, the records and its picture.
    """
    try:
        deal: Any = parse_position(position)
    except FlyRulesError as error:
        return {"error": refusal(error)}
    steps: list[dict[str, Any]] = []
    refused = None
    for token in moves.replace(",", " ").split():
        mover: int = deal.to_move
        try:
            action = _parse_move(token, moves, deal.game)
            after = deal.apply(action)
        except FlyRulesError as error:
            refused = refusal(error, token)
            break
        steps.append({"move": token, "seat": mover, "lines": _told(action_lines(deal, after, mover, action))})
        deal = after
    return {
        "error": None,
        "steps": steps,
        "refused": refused,
        "to_move": deal.to_move,
        "legal": [_move(a) for a in deal.legal_actions()],
        "tricks_taken": list(deal.tricks_taken),
        "records": records_text(deal),
        "over": deal.is_over,
        "outcome": outcome(deal),
        "position": _extended(position, [step["move"] for step in steps], deal),
        "picture": str(deal_picture(deal, last_trick=True)),
    }


def _extended(position: str, taken: list[str], deal: Any) -> str:
    """``position`` with the moves ``taken`` added and the turn of ``deal`` (REC-5.1)."""
    fields = position.strip().split(" ")
    old = [] if fields[7] == "-" else fields[7].split(",")
    fields[7] = ",".join(old + taken) or "-"
    fields[8] = "-" if deal.to_move is None else str(deal.to_move)
    return " ".join(fields)


def _told(lines: list[str]) -> list[str]:
    """The narration's lines for a page, each told once: stripped of the terminal's indent."""
    return [line.strip() for line in lines if line.strip()]


def _over(done: Any, after: Any) -> str:
    """The status line at the end of a deal."""
    said = f"{registry.game_of(done).title}, deal {done.deal_number + 1} is over"
    return " ".join([said + ".", *outcome(after)]) if after.is_over else said


class Session:
    """A match between one reader and the library's bots."""

    def __init__(self, state: Any, seat: int, bots: list[str]) -> None:
        """Seat the reader at ``seat`` of ``state``; the other seats get ``bots`` in turn (the last repeats)."""
        self.state = state
        self.seat = seat
        players = len(deal_of(state).hands)
        others = [s for s in range(players) if s != seat]
        self.bots = {s: make_bot(bots[min(k, len(bots) - 1)], state.rules) for k, s in enumerate(others)}
        self.rng = random.Random(f"{state.seed}:play:{len(state.actions)}")
        self.hint_bot = hint_bot(state.rules)
        self.hint_bots: dict[str, Any] = {HINT_BOT: self.hint_bot}  # the learned one made when first asked for
        previous = state.previous_deal
        first = deal_of(new_game(state.rules, seed=state.seed, dealer=state.first_dealer))
        self.deal_start = records_text(first if previous is None else previous)

    def _picture(self, deal: Any = None) -> str:
        """The table as the reader sees it: the current deal's, or the finished ``deal``'s last trick."""
        return str(deal_picture((deal or deal_of(self.state)).view(self.seat), last_trick=True, narrow=_narrow[0]))

    def _event(self, before: Any, after: Any, mover: int, action: Any) -> dict[str, Any]:
        old: Any = deal_of(before)
        done: Any = finished_deal(before, after)
        new: Any = deal_of(after) if done is None else done
        trick = None
        if old.game == "fly" and len(new.completed) > len(old.completed):
            cards = [[s, fly.FlyDeal.card_symbol(c)] for s, c in new.completed[-1]]
            trick = {"cards": cards, "taker": new.leader}
        elif old.game == "dreyfus" and len(new.tricks) > len(old.tricks):
            trick = {"cards": [[s, c.symbol] for s, c in new.tricks[-1]], "taker": new.leader}
        event = {
            "seat": mover,
            "move": _move(action) if mover == self.seat or not _hidden(action) else _hidden(action),
            "lines": _told(action_lines(before, after, mover, action, self.seat)),
            "trick": trick,
            "deal_over": done is not None,
            "deal_records": records_text(done) if done is not None else None,
            "deal_number": old.deal_number,
            "summary": None if done is None else self._summary(done, after),
            "status": status_line(after, self.seat) if done is None else _over(done, after),
            "picture": self._picture(done),
        }
        if done is not None:
            self.deal_start = records_text(done)
        return event

    def _summary(self, done: Any, after: Any) -> dict[str, Any]:
        """The end of a deal: each seat's tricks and record before and after it, and the match's outcome
        when it is over."""
        return {
            "deal_number": done.deal_number,
            "tricks": list(done.tricks_taken),
            "before": self.deal_start,
            "after": records_text(done),
            "label": "record" if done.game == "fly" else "upper/lower",
            "outcome": outcome(after),
            # The seats from first to last once the match is over (Fly's standings, FLY-10.2; Dreyfus's in seat order).
            "standings": _standings(after, len(done.hands)) if after.is_over else None,
        }

    def advance(self) -> list[dict[str, Any]]:
        """Let the bots move until the reader is to move or the match is over."""
        events = []
        while not self.state.is_over and self.state.to_move != self.seat:
            mover = self.state.to_move
            before = self.state
            action = self.bots[mover].choose(before.view(mover), before.legal_actions(), self.rng)
            self.state = before.apply(action)
            events.append(self._event(before, self.state, mover, action))
        return events

    def act(self, move: str) -> dict[str, Any]:
        """The reader's move: refused with the rule and reason, or taken, followed by the bots' moves."""
        before = self.state
        try:
            action = _parse_move(move, move, deal_of(before).game)
            if before.to_move != self.seat and not before.is_over:
                return {"refused": {"move": move, "rule": None, "title": "", "detail": "it is not your turn"}}
            self.state = before.apply(action)
        except FlyRulesError as error:
            return {"refused": refusal(error, move), "view": self.view()}
        events = [self._event(before, self.state, self.seat, action), *self.advance()]
        return {"refused": None, "events": events, "view": self.view()}

    def hint(self, name: str | None = None) -> dict[str, Any]:
        """What the hint bot (or the bot ``name`` of :data:`HINT_BOTS`) would do in the reader's place, from the
        reader's view only."""
        name = HINT_BOT if name is None else name
        if name not in HINT_BOTS:
            raise ValueError(f"the hint's bot is one of {', '.join(HINT_BOTS)}, not {name!r}")
        if self.state.is_over or self.state.to_move != self.seat:
            return {"move": None, "text": "", "bot": name}
        rng = hint_rng(self.state.seed, len(self.state.actions))
        if name not in self.hint_bots:
            self.hint_bots[name] = make_bot(name, self.state.rules)
        bot = self.hint_bots[name]
        started = time.monotonic()
        if isinstance(bot, ExpertBot):  # the page's bound: the guesses solved by then decide
            bot.seconds, bot.deadline, bot.keep_guesses = HINT_SECONDS, started + HINT_SECONDS, True
        action = bot.choose(self.state.view(self.seat), self.state.legal_actions(), rng)
        text = action_shown(action)
        if isinstance(bot, ExpertBot) and time.monotonic() - started >= HINT_SECONDS:
            found = len(bot.guesses)
            text += (
                f" (on the {found} deals it guessed within the hint's {HINT_SECONDS:g} s)"
                if found
                else f" (a quick choice: no guessed deal was searched within the hint's {HINT_SECONDS:g} s)"
            )
        return {"move": _move(action), "text": text, "bot": name}

    def review(self, deal_number: int, first: int = 0, count: int | None = None) -> dict[str, Any]:
        """The reader's decisions in deal ``deal_number`` graded as the hint would (:func:`fly_rules.analysis.analyse`
        with the hint's expert and randomness, so its best is the hint's): each with its verdict, the expert's
        estimates on the reader's knowledge, and beside them the open cards' hindsight (the solver's, within
        :data:`REVIEW_OPEN_LIMIT` positions). ``first`` and ``count`` grade a part of them (the page asks for one at
        a time and shows its progress); ``next`` is the index of the first decision not yet graded (None: all)."""
        state = new_game(self.state.rules, seed=self.state.seed, dealer=self.state.first_dealer)
        taken: list[Any] = []
        start = state
        total = 0
        for action in self.state.actions:
            deal = deal_of(state)
            if deal.deal_number > deal_number:
                break
            if deal.deal_number < deal_number:
                start = state = state.apply(action)
                continue
            total += deal.to_move == self.seat and len(deal.legal_actions()) > 1
            taken.append(action)
            state = state.apply(action)
        reviews = analyse(start, taken, seat=self.seat, first=first, count=count, open_limit=REVIEW_OPEN_LIMIT).reviews
        rows = [_review_row(r) for r in reviews]
        done = first + len(rows)
        return {
            "deal_number": deal_number,
            "decisions": rows,
            "first": first,
            "next": done if done < total else None,
            "total": total,
            "loss": sum(row["cost"] or 0 for row in rows),
            "open_loss": sum(row["open_cost"] or 0 for row in rows),
        }

    def view(self) -> dict[str, Any]:
        """What the reader sees: the hand, the legal moves, the trick, the records, the picture."""
        deal = deal_of(self.state)
        view = deal.view(self.seat)
        legal = [_move(a) for a in self.state.legal_actions()] if self.state.to_move == self.seat else []
        return {
            "game": deal.game,
            "seat": self.seat,
            "players": len(deal.hands),
            "deal_number": deal.deal_number,
            "dealer": deal.dealer,
            "phase": deal.phase.name.lower(),
            "to_move": self.state.to_move,
            "hand": [str(c) for c in view.hand.sorted(deal.rules.rank_order)],
            "legal": legal,
            "trick": [[s, str(c)] for s, c in view.trick],
            "tricks_taken": list(deal.tricks_taken),
            "records": records_text(deal),
            "over": self.state.is_over,
            "outcome": outcome(self.state),
            "status": status_line(self.state, self.seat),
            "picture": self._picture(),
            "hint_bot": HINT_BOT,
            "hint_bots": list(HINT_BOTS),
            "last_trick": _last_trick(deal, view),
        }

    def history(self) -> str:
        """The match so far as our TOML history, saved as ``fly-rules play`` saves one (REC-4.1: with its
        count of actions and digest while in progress), so that the terminal continues it."""
        return dump_history(self.state, saved=True)


HINT_BOTS = (HINT_BOT, "learned")
"""The bots the page's hint may ask: the expert (thinking up to :data:`HINT_SECONDS`), or the learned player (its
network in plain Python where NumPy is absent, as in the browser: milliseconds)."""

HINT_SECONDS = 1.5
"""The page's bound on the hint's search, in seconds: the expert stops guessing then and decides on the deals it
has searched (a Dreyfus decision, or a Fly exchange at a large table, can take it several seconds in the browser).
The review grades with the whole search, so where the bound cut a hint short the two may differ."""

REVIEW_OPEN_LIMIT = 200_000
"""The most positions the review's open-card (hindsight) values of one decision may visit: a Dreyfus deal's first
tricks need millions, a second or more each, and the hindsight is only the second column."""


def _review_row(found: Review) -> dict[str, Any]:
    """One graded decision for the page: what was played, the hint's best and the verdict; the expert's estimates of
    both (``cost``: how much less it expects of the action played, in its unit) and the open cards' best and cost."""
    values, unit = found.expert_values, found.expert_unit

    def estimate(action: Any) -> str | None:
        return estimate_text(values[action], found.expert_intervals.get(action), unit) if action in values else None

    cost = found.expert_cost
    return {
        "phase": found.phase.name.lower(),
        "trick": found.trick,
        "rules": list(found.rules),
        "played": action_shown(found.played),
        "best": action_shown(found.best),
        "verdict": verdict(found),
        "unit": unit,
        "played_value": estimate(found.played),
        "best_value": estimate(found.best),
        "cost": None if cost is None else round(cost, 3),
        "open_best": None if found.open_best is None else action_shown(found.open_best),
        "open_cost": found.cost,
    }


def _standings(match: Any, players: int) -> list[int]:
    """The seats of a finished match from first to last: Fly's standings (FLY-10.2); Dreyfus's seats in order, its
    settlement told by the outcome."""
    order = getattr(match, "standings", None)
    return list(order()) if order is not None else list(range(players))


def _last_trick(deal: Any, view: Any) -> dict[str, Any] | None:
    """The deal's latest completed trick as the seat saw it: its number, its cards by seat in play order and who
    took it (the leader of the trick after it); None before the first."""
    if not view.tricks:
        return None
    taker = deal.leader if deal.leader is not None and deal.leader >= 0 else view.to_move
    cards = [[seat, card.symbol] for seat, card in view.tricks[-1]]
    return {"number": len(view.tricks), "cards": cards, "taker": taker}


def _hidden(action: Any) -> str:
    """How another seat's move is shown: an exchange or a trump swap hides its cards (FLY-4.2)."""
    if isinstance(action, Exchange):
        return f"x{len(action.cards)} cards"
    if isinstance(action, fly.SwapTrump):
        return "w"
    return ""


_session: Session | None = None
_narrow = [False]  # whether the pictures are laid out for a phone (the page says, by its width)


def layout(narrow: bool) -> dict[str, Any]:
    """Draw the pictures from now on for a narrow page (a phone) or a wide one; the current match's view so drawn
    (None before a match)."""
    _narrow[0] = bool(narrow)
    return {"view": None if _session is None else _session.view()}


def new_match(
    game: str, players: int, preset: str, seed: str, seat: int, bots: str, max_deals: int | None = None
) -> dict[str, Any]:
    """Start a match for the reader at ``seat``, of at most ``max_deals`` deals (None: no limit; FLY-10.1,
    DRF-8.3); the bots move until it is the reader's turn."""
    global _session  # noqa: PLW0603 - one match per page
    try:
        rules = make_rules(game, players=players if game == "fly" else None, preset=preset, max_deals=max_deals)
        seats = players if game == "fly" else 3
        if not 0 <= seat < seats:
            raise RuleViolation(
                "FLY-1.2" if game == "fly" else "DRF-1.1", f"seat {seat} is not one of 0 to {seats - 1}"
            )
        state = new_game(rules, seed=int(seed) if seed.isdigit() else seed, dealer=None)
    except FlyRulesError as error:
        return {"refused": refusal(error), "view": None}
    _session = Session(state, seat, bots.split(","))
    return {"refused": None, "events": _session.advance(), "view": _session.view()}


def load_match(text: str, seat: int, bots: str) -> dict[str, Any]:
    """Continue the match of a history text (REC-4) with the reader at ``seat``."""
    global _session  # noqa: PLW0603 - one match per page
    try:
        state = load_history(text, resumable=True)
        if not hasattr(state, "deal") or not 0 <= seat < len(deal_of(state).hands):
            raise RuleViolation("REC-2.2", "the history must be a whole match with the given seat at its table")
    except FlyRulesError as error:
        return {"refused": refusal(error), "view": None}
    _session = Session(state, seat, bots.split(","))
    return {"refused": None, "events": _session.advance(), "view": _session.view()}


def act(move: str) -> dict[str, Any]:
    """The reader's move in the current match."""
    assert _session is not None, "no match started"
    return _session.act(move)


def hint(bot: str | None = None) -> dict[str, Any]:
    """The hint bot's choice for the reader in the current match (:data:`fly_rules.bots.HINT_BOT`, or ``bot``, one
    of :data:`HINT_BOTS`)."""
    assert _session is not None, "no match started"
    return _session.hint(bot)


def review(deal_number: int, first: int = 0, count: int | None = None) -> dict[str, Any]:
    """The review of the reader's play in a deal of the current match (:meth:`Session.review`)."""
    assert _session is not None, "no match started"
    return _session.review(deal_number, first, count)


def history() -> str:
    """The current match's history text."""
    assert _session is not None, "no match started"
    return _session.history()


def play_events(
    game: str, players: int, preset: str, seed: str, seat: int, bots: str, max_deals: int | None = None
) -> list[dict[str, Any]]:
    """Every event of a whole match where the reader's seat makes its first legal move: the tests' reader."""
    answer = new_match(game, players, preset, seed, seat, bots, max_deals)
    events = list(answer["events"])
    while not answer["view"]["over"]:
        answer = act(answer["view"]["legal"][0])
        events += answer["events"]
    return events


def play_through(
    game: str, players: int, preset: str, seed: str, seat: int, bots: str, max_deals: int | None = None
) -> dict[str, Any]:
    """The tricks (each with its deal's number, cards and taker), the records after each deal and the
    outcome of the match :func:`play_events` plays."""
    events = play_events(game, players, preset, seed, seat, bots, max_deals)
    assert _session is not None
    view = _session.view()
    return {
        "tricks": [{"deal": e["deal_number"], **e["trick"]} for e in events if e["trick"]],
        "records": [e["deal_records"] for e in events if e["deal_over"]],
        "outcome": view["outcome"],
        "final": view["records"],
    }


def call(name: str, args_json: str) -> str:
    """Run one of this module's functions from JSON arguments and answer in JSON (the worker's entry)."""
    return json.dumps(_CALLS[name](*json.loads(args_json)), ensure_ascii=False)


_CALLS: dict[str, Callable[..., Any]] = {
    "try_position": try_position,
    "new_match": new_match,
    "load_match": load_match,
    "act": act,
    "hint": hint,
    "review": review,
    "history": history,
    "layout": layout,
    "play_through": play_through,
}

if __name__ == "__main__":  # python web/fly_live.py NAME JSON-ARGS: the tests' native answers
    print(call(sys.argv[1], sys.argv[2]))
