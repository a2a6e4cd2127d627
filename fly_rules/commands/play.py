"""``fly-rules play``: a match in the terminal against bots, saved as it goes and resumable."""

from __future__ import annotations

import argparse
import contextlib
import random
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.actions import Play
from fly_rules.bots import make_bot
from fly_rules.commands import files
from fly_rules.commands.common import (
    CommandError,
    InputEnded,
    Stopped,
    bot_names,
    bots_help,
    game_options,
    outcome,
    players_of,
    rules_of,
    seat_of,
    seed_of,
)
from fly_rules.errors import InvalidNotation, RuleViolation
from fly_rules.narration import narrate
from fly_rules.notation.games import action_text, deal_of, new_game, parse_action
from fly_rules.notation.history import dump_history, load_history
from fly_rules.spec import load_rules

__all__ = ["add", "run"]


def add(sub: Any) -> None:
    """Add ``play`` to the ``fly-rules`` parser's subparsers ``sub``."""
    play = sub.add_parser("play", help="play a match in the terminal against bots")
    game_options(play)
    play.add_argument("--seat", default="0", help="your seat (default 0)")
    play.add_argument(
        "--bots", default="rule-of-thumb", help=bots_help("the other seats' bots (default rule-of-thumb)")
    )
    play.add_argument(
        "--save",
        type=Path,
        default=None,
        help="keep the game's history in this file, rewritten after every deal and when the game stops",
    )
    play.add_argument("--force", action="store_true", help="let --save overwrite an existing file")
    play.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="FILE",
        help="continue the game saved in FILE (its game, rules and seed; saved back to FILE unless --save)",
    )
    play.set_defaults(run=run)


def _describe(view: Any, seat: int) -> list[str]:
    """What the human player sees: hand, trump, the trick so far, the records."""
    lines = [f"-- deal {view.deal_number + 1}, dealer seat {view.dealer}; you are seat {seat}"]
    lines += registry.game_of(view).words.describe(view)
    trick = "  ".join(f"{s}:{c.symbol}" for s, c in view.trick)
    lines.append(f"   trick so far: {trick or '(none)'}; tricks taken {view.tricks_taken}")
    lines.append(f"   your hand: {' '.join(c.symbol for c in view.hand.sorted())}")
    return lines


_MENU = 40


def _ask(state: Any, read: Any, out: TextIO) -> Any:
    """The human's action: the only legal one without asking; else number the legal actions and read a choice
    (a number or an action's text, in any case) until one is legal, saying which rule refuses the others."""
    legal = state.legal_actions()
    if len(legal) == 1:
        print(f"   your only legal action: {action_text(legal[0])}", file=out)
        return legal[0]
    shown = [legal[i] for i in range(min(len(legal), _MENU))]
    for number, action in enumerate(shown, start=1):
        print(f"   {number:>2}. {action_text(action)}", file=out)
    if len(legal) > _MENU:
        print(f"   … {len(legal) - _MENU} more: type the action, e.g. 'exchange 7C 8D'", file=out)
    while True:
        print("your choice> ", end="", file=out, flush=True)
        line = read()
        if not line:
            raise InputEnded("input ended before the match did")
        text = line.strip()
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(shown):
            return shown[int(text) - 1]
        try:
            action = parse_action(text.lower(), state.game)
        except InvalidNotation as error:
            print(f"   not understood: {error.detail}; give a number 1-{len(shown)} or an action", file=out)
            continue
        if action in legal:
            return action
        print(f"   not a legal action now: {text}: {_why_not(state, action)}", file=out)


def _why_not(state: Any, action: Any) -> str:
    """The rule an action breaks, by ID and title, and what is wrong."""
    try:
        state.apply(action)
    except RuleViolation as error:
        rule = load_rules().get(error.rule)
        return f"{error.rule} ({rule.title if rule else 'unknown rule'}): {error.detail}"
    return "it is not among the legal actions"  # pragma: no cover - legal_actions lists every action apply takes


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the match, telling it from the player's seat; save it as ``--save`` asks, holding the
    file's lock from before it is read or checked until the last save."""
    if sys.stdin is None:  # started with standard input closed (`0<&-`)
        raise CommandError("standard input is closed: play reads your moves from it")
    save = args.resume if args.save is None else args.save
    with files.locked(save) if save is not None else contextlib.nullcontext():
        return _play(args, out)


def _play(args: argparse.Namespace, out: TextIO) -> int:
    """Play the match, the file to save it in (if any) locked."""
    start, save = _starting_state(args)
    rules = start.rules
    players = players_of(rules)
    args.seat = seat_of(args.seat, players)
    others = bot_names(args.bots, players - 1)
    bots = {s: make_bot(others[k], rules) for k, s in enumerate(x for x in range(players) if x != args.seat)}
    taken = len(start.actions)
    rng = random.Random(f"{start.seed}:play" if not taken else f"{start.seed}:play:{taken}")
    reached = [start]  # the state the match has reached, or will reach by the action just chosen: what a stop saves
    saved_deal = [deal_of(start).deal_number]

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        reached[0] = state
        if save is not None and deal_of(state).deal_number != saved_deal[0]:
            _save_game(save, state)  # a deal has ended
            saved_deal[0] = deal_of(state).deal_number
        seat = state.to_move
        view = state.view(seat)
        if seat == args.seat:
            print("\n".join(_describe(view, seat)), file=out)
            action = _ask(state, sys.stdin.readline, out)
        else:
            action = bots[seat].choose(view, legal, rng)
            if isinstance(action, Play):
                print(f"   seat {seat} plays {action.card.symbol}", file=out)
        reached[0] = state.apply(action)  # chosen is as good as played: a stop from here on keeps it
        return action

    resumed = f" (resumed from {args.resume} after {taken} actions)" if args.resume is not None else ""
    print(
        f"{registry.game_of(rules).title}, {players} players, seed {start.seed}; you are seat {args.seat}{resumed}",
        file=out,
    )
    try:
        reached[0] = narrate(start, choose, out, seat=args.seat)
        if save is not None:
            _save_game(save, reached[0])
    except InputEnded as error:
        if save is None:
            raise
        _save_game(save, reached[0])
        raise CommandError(f"{error}; the game so far is saved: fly-rules play --resume {save}") from None
    except (KeyboardInterrupt, BrokenPipeError) as stop:  # Ctrl-C, SIGTERM, SIGHUP, or the output closed
        if save is None:
            raise
        _save_game(save, reached[0])
        kept = (
            f"the finished game is saved to {save}"
            if reached[0].is_over
            else f"the game so far is saved: fly-rules play --resume {save}"
        )
        raise _stopped(stop, f"; {kept}") from None
    if save is not None:
        print(f"history saved to {save}", file=out)
    return 0


def _stopped(stop: BaseException, note: str) -> Stopped:
    """What stopped the game (a signal or the output closing), with ``note`` on the game saved."""
    if isinstance(stop, Stopped):
        return Stopped(stop.why, stop.code, note)
    if isinstance(stop, BrokenPipeError):
        return Stopped("the output closed (broken pipe)", 128 + signal.SIGPIPE, note)
    return Stopped("interrupted", 130, note)


def _starting_state(args: argparse.Namespace) -> tuple[Any, Path | None]:
    """The match to play (new, or resumed from ``--resume``) and the file to keep it in, checked
    before the first deal rather than after the whole match."""
    if args.resume is not None:
        state = _resumed(args.resume)
        save: Path = args.resume if args.save is None else args.save
        files.check_target(save, force=args.force or save == args.resume)
        return state, save
    rules = rules_of(args)
    seed = seed_of(args.seed)
    if args.save is not None:
        files.check_target(args.save, force=args.force)
    return new_game(rules, seed=seed), args.save


def _resumed(path: Path) -> Any:
    """The match saved in ``path``, to be continued: a match from a seed, not over [REC-1.1]."""
    state = load_history(files.read(path), resumable=True)
    if deal_of(state) is state:
        raise CommandError(f"{path} records an explicit deal, not a match from a seed: play cannot continue it")
    if state.is_over:
        raise CommandError(f"the match in {path} is over ({outcome(state)}): nothing to continue")
    return state


def _save_game(path: Path, state: Any) -> None:
    """Write the history of ``state`` to ``path``, with Ctrl-C, SIGTERM and SIGHUP held back from the
    first step (building the text of a long match takes a while) to the last."""
    with files.interrupts_held():
        files.write_atomically(path, dump_history(state, saved=True))
