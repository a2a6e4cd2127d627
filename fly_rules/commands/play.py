"""``fly-rules play``: a match in the terminal against bots, saved as it goes and resumable."""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.actions import Exchange, Fold, Play
from fly_rules.bots import make_bot
from fly_rules.cards import ALL_CARDS, Card, CardSet
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
from fly_rules.engine import Phase
from fly_rules.errors import InvalidNotation, RuleViolation
from fly_rules.narration import action_shown, narrate
from fly_rules.notation.games import deal_of, new_game, parse_action
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


def _describe(view: Any, seat: int, title: str, order: Any) -> list[str]:
    """The status block reprinted above each of the player's prompts, a few lines that fit 80 columns:
    the deal and whose turn, the game's own lines (trumps, stock or talon, records), the trick so far and
    the hand."""
    phase = "exchange" if view.phase is Phase.EXCHANGE else "play"
    lines = [f"-- {title}, deal {view.deal_number + 1}, dealer seat {view.dealer}: your turn (seat {seat}), {phase}"]
    lines += registry.game_of(view).words.describe(view)
    trick = "  ".join(f"{s}:{c.symbol}" for s, c in view.trick)
    lines.append(f"   trick so far: {trick or '(none)'}; tricks taken {' '.join(map(str, view.tricks_taken))}")
    lines.append(f"   your hand: {' '.join(c.symbol for c in view.hand.sorted(order))}")
    return lines


_MENU = 40
_COMMANDS = ("stand", "fold", "play", "exchange", "help", "quit")
_HELP = """\
   Name cards as on screen or with letters, in any case: 9c, 10h, th, ks, a♠.
   In the exchange: the cards to give up ('9c 9h' or 'x 9c 9h'), 'stand' or 'fold'.
   In play: a card ('ks') or 'play ks'. Also 'swap-trump 9h' where the game has it.
   ? lists the legal actions by number (then a number picks one); quit stops the game
   (saved when --save is given); Tab completes cards and commands."""


class Quit(Exception):
    """The player typed ``quit``."""


def _typed(text: str, state: Any, verbs: Sequence[str]) -> Any:
    """The action the player typed: an action's text, ``x`` and cards, or bare cards (an exchange in the
    exchange, a play after it). Raises :class:`InvalidNotation` for text that names no action."""
    words = text.replace(",", " ").split()
    if words[0] in ("x", "exchange"):
        if len(words) == 1:
            raise InvalidNotation(text, "name the cards to give up, e.g. 'x 9c 9h'")
        return Exchange(CardSet.of(Card.parse(w) for w in words[1:]))
    try:
        cards = [Card.parse(w) for w in words]
    except InvalidNotation:
        if words[0] not in verbs:
            raise InvalidNotation(text, f"{words[0]!r} is neither a card nor a command") from None
        return parse_action(text, state.game)
    if deal_of(state).phase is Phase.EXCHANGE:
        return Exchange(CardSet.of(cards))
    if len(cards) != 1:
        raise InvalidNotation(text, "play one card at a time")
    return Play(cards[0])


def _example(actions: Sequence[Any], kind: type) -> str:
    """The cards of an action of ``kind`` among ``actions`` (two cards when it can), as the player may type
    them (``9c 10h``)."""
    found: list[Any] = [a for a in actions if isinstance(a, kind)]
    cards = [list(a.cards) if kind is Exchange else [a.card] for a in found]
    cards.sort(key=lambda c: len(c) != 2)
    return " ".join(str(card).lower().replace("t", "10") for card in cards[0]) if cards else ""


def _columns(items: list[str], width: int = 80) -> list[str]:
    """``items`` in as many columns as fit ``width``, filled down each column."""
    cell = max(map(len, items)) + 2
    rows = -(-len(items) // max(1, (width - 3) // cell))
    return ["   " + "".join(items[i].ljust(cell) for i in range(r, len(items), rows)).rstrip() for r in range(rows)]


def _ask(state: Any, read: Any, out: TextIO, hand: str, verbs: Sequence[str]) -> Any:
    """The human's action: read a choice (cards, a command, or a
    number of the list ``?`` shows) until one is legal, saying which rule refuses the others."""
    legal = state.legal_actions()
    shown = [legal[i] for i in range(min(len(legal), _MENU))]
    hint = f"a card to play ({_example(shown, Play)})"
    if deal_of(state).phase is Phase.EXCHANGE:
        hint = f"cards to give up ({_example(shown, Exchange)}), stand" + (" or fold" if Fold() in legal else "")
    print(f"   your move: {hint}; ? lists, help, quit", file=out)
    while True:
        line = read("your choice> ")
        if not line:
            raise InputEnded("input ended before the match did")
        text = line.strip().lower()
        if not text:
            continue
        if text in ("?", "list"):
            print("\n".join(_columns([f"{n:>2}. {action_shown(a)}" for n, a in enumerate(shown, start=1)])), file=out)
            if len(legal) > _MENU:
                print(f"   … {len(legal) - _MENU} more: type the action, e.g. 'x 7c 8d'", file=out)
            print(hand, file=out)
            continue
        if text in ("help", "h"):
            print(_HELP, file=out)
            continue
        if text in ("quit", "q", "exit"):
            raise Quit
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(shown):
            return shown[int(text) - 1]
        try:
            action = _typed(text, state, verbs)
        except InvalidNotation as error:
            print(f"   not understood: {error.detail} (help explains)", file=out)
            continue
        if action in legal:
            return action
        rule, said, detail = _why_not(state, action).partition("): ")  # the rule, then on its own line why
        print(f"   not a legal action now: {text}: {rule}{said and '):'}\n      {_symbols(detail)}", file=out)


_CARD_LETTERS = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


def _symbols(text: str) -> str:
    """``text`` (a rule's refusal) with its cards in symbols, the one notation of the screen."""
    return _CARD_LETTERS.sub(lambda m: Card.parse(m.group(0)).symbol, text)


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
            action = _your_move(state, legal, out, read, verbs)
        else:  # a bot's card shows in the trick so far and in the completed trick's line
            action = bots[seat].choose(view, legal, rng)
        reached[0] = state.apply(action)  # chosen is as good as played: a stop from here on keeps it
        return action

    verbs = [*_COMMANDS, *(form.verb for form in registry.game_of(rules).actions)]
    read = _reader(out, verbs)
    resumed = f" (resumed from {args.resume} after {taken} actions)" if args.resume is not None else ""
    print(
        f"{registry.game_of(rules).title}, {players} players, seed {start.seed}; you are seat {args.seat}{resumed}",
        file=out,
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


def _reader(out: TextIO, verbs: Sequence[str]) -> Any:
    """How the player's lines are read: with line editing and Tab completion of cards and commands
    (readline) when standard input and output are a terminal, else line by line from standard input."""
    if not (sys.stdin.isatty() and out is sys.stdout):
        return lambda prompt: print(prompt, end="", file=out, flush=True) or sys.stdin.readline()
    with contextlib.suppress(ImportError):  # readline is missing on Windows: input() still edits lines
        import readline  # noqa: PLC0415 - only for a terminal

        cards = [str(card).lower() for card in ALL_CARDS]
        words = [*verbs, *cards, *(c.replace("t", "10", 1) for c in cards if c.startswith("t"))]
        readline.set_completer(lambda text, n: ([w for w in words if w.startswith(text.lower())] + [None])[n])
        readline.parse_and_bind("tab: complete")

    def read(prompt: str) -> str:
        try:
            return input(prompt) + "\n"
        except EOFError:
            return ""

    return read


def _your_move(state: Any, legal: Sequence[Any], out: TextIO, read: Any, verbs: Sequence[str]) -> Any:
    """The player's action: the only legal one, said in a line; else asked below the status block."""
    if len(legal) == 1:
        print(f"   you {action_shown(legal[0])} (your only legal action)", file=out)
        return legal[0]
    seat = state.to_move
    status = _describe(state.view(seat), seat, registry.game_of(state).title, deal_of(state).rules.rank_order)
    print("\n".join(status), file=out)
    return _ask(state, read, out, status[-1], verbs)


def _quit(save: Path | None, state: Any, out: TextIO) -> None:
    """The player typed ``quit``: save the game to ``save`` (if given) and say how to continue it."""
    if save is None:
        print("game stopped; not saved (give --save FILE to keep a game)", file=out)
        return
    _save_game(save, state)
    print(f"game stopped and saved to {save}\ncontinue it with: fly-rules play --resume {save}", file=out)


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
