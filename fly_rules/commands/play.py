"""``fly-rules play``: a match in the terminal against bots, saved as it goes and resumable."""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

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
from fly_rules.commands.screen import Quit, Screen, Turn
from fly_rules.errors import RuleViolation
from fly_rules.narration import narrate
from fly_rules.notation.games import deal_of, new_game
from fly_rules.notation.history import dump_history, load_history

__all__ = ["add", "run"]


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def _why_not(state: Any, action: Any) -> tuple[str | None, str]:
    """The rule an action breaks, by ID, and what is wrong."""
    try:
        state.apply(action)
    except RuleViolation as error:
        return error.rule, error.detail
    return None, "it is not among the legal actions"  # pragma: no cover - legal_actions lists every action apply takes


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
        # a bot's card shows in the trick so far and in the completed trick's line
        action = _your_move(state, legal, screen) if seat == args.seat else bots[seat].choose(view, legal, rng)
        reached[0] = state.apply(action)  # chosen is as good as played: a stop from here on keeps it
        return action

    screen = Screen(out, rules, start.seed)
    resumed = [f"   (resumed from {args.resume} after {taken} actions)"] if args.resume is not None else []
    screen.say(  # the file's name on a line of its own: with it the first line would not fit 80 columns
        f"{screen.game.title}, {players} players, seed {start.seed}; you are seat {args.seat}",
        *resumed,
        *screen.game.words.goal(rules),
    )
    try:
        reached[0] = narrate(start, choose, out, seat=args.seat)
        if save is not None:
            _save_game(save, reached[0])
    except Quit:
        _quit(save, reached[0], out)
        return 0
    except InputEnded as error:
        if save is None:
            raise
        _save_game(save, reached[0])
        raise CommandError(f"{error}; {_continue_with(save)}") from None
    except (KeyboardInterrupt, BrokenPipeError) as stop:  # Ctrl-C, SIGTERM, SIGHUP, or the output closed
        if save is None:
            raise
        _save_game(save, reached[0])
        kept = f"the finished game is saved to {save}" if reached[0].is_over else _continue_with(save)
        raise _stopped(stop, f"; {kept}") from None
    if save is not None:
        print(f"history saved to {save}", file=out)
    return 0


def _your_move(state: Any, legal: Sequence[Any], screen: Screen) -> Any:
    """The player's action, asked on the screen from the seat's view; the engine says why it refuses one."""
    turn = Turn(state.view(state.to_move), legal, len(state.actions), functools.partial(_why_not, state))
    return screen.your_move(turn)


def _quit(save: Path | None, state: Any, out: TextIO) -> None:
    """The player typed ``quit``: save the game to ``save`` (if given) and say how to continue it."""
    if save is None:
        print("game stopped; not saved (give --save FILE to keep a game)", file=out)
        return
    _save_game(save, state)
    print(f"game stopped and saved to {save}\ncontinue it with: fly-rules play --resume {save}", file=out)


def _continue_with(save: Path) -> str:
    """How a stopped game's message ends: short, so that the whole line fits 80 columns with a short name."""
    return f"saved; continue: fly-rules play --resume {save}"


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
    state = load_history(files.read(path, regular_only=True), resumable=True)
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
