"""``fly-rules play``: a match in the terminal against bots, saved as it goes and resumable."""

from __future__ import annotations

import argparse
import contextlib
import random
import signal
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.bots import HINT_BOT, make_bot
from fly_rules.cards import Card, CardSet
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
from fly_rules.narration import action_shown, card_symbols, narrate
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
_COMMANDS = ("stand", "fold", "play", "exchange")  # the shared actions' words, read by parse_action
_WIDTH = 80  # the terminal's columns: every line the prompt prints fits


class Quit(Exception):
    """The player typed ``quit``."""


def _typed(text: str, state: Any, verbs: Sequence[str]) -> Any:
    """The action the player typed: an action's text, ``x`` and cards, or bare cards (an exchange in the
    exchange, a play after it). Raises :class:`InvalidNotation` for text that names no action, or an
    exchange that names a card twice."""
    words = text.replace(",", " ").split()
    if words[0] in ("x", "exchange"):
        if len(words) == 1:
            raise InvalidNotation(text, "name the cards to give up, e.g. 'x 9c 9h'")
        return Exchange(_once(text, [Card.parse(w) for w in words[1:]]))
    try:
        cards = [Card.parse(w) for w in words]
    except InvalidNotation:
        if words[0] not in verbs:
            raise InvalidNotation(text, f"{words[0]!r} is neither a card nor a command") from None
        return parse_action(text, state.game)
    if deal_of(state).phase is Phase.EXCHANGE:
        return Exchange(_once(text, cards))
    if len(cards) != 1:
        raise InvalidNotation(text, "play one card at a time")
    return Play(cards[0])


def _once(text: str, cards: list[Card]) -> CardSet:
    """The cards of an exchange, each named once: a card named twice is refused, never read as one."""
    twice = sorted({card for card in cards if cards.count(card) > 1})
    if twice:
        raise InvalidNotation(text, f"{' '.join(c.symbol for c in twice)} named twice: name each card once")
    return CardSet.of(cards)


def _columns(items: list[str], width: int = _WIDTH) -> list[str]:
    """``items`` in as many columns as fit ``width``, filled down each column."""
    cell = max(map(len, items)) + 2
    rows = -(-len(items) // max(1, (width - 3) // cell))
    return ["   " + "".join(items[i].ljust(cell) for i in range(r, len(items), rows)).rstrip() for r in range(rows)]


def _wrapped(text: str, indent: str = "   ") -> str:
    """``text`` filled to the terminal's width after ``indent``, words never cut."""
    return textwrap.fill(" ".join(text.split()), _WIDTH, initial_indent=indent, subsequent_indent=indent)


def _typed_cards(cards: Iterable[Card]) -> list[str]:
    """Cards as the player may type them: ``9c``, ``th`` and ``10h``."""
    names = [str(card).lower() for card in cards]
    return [*names, *(name.replace("t", "10", 1) for name in names if name.startswith("t"))]


class _Table:
    """The player's side of the game: the prompt, the answers to ``?``, ``help``, ``hint`` and ``rules``,
    and what Tab completes."""

    def __init__(self, out: TextIO, rules: Any, seed: object) -> None:
        self.out = out
        self.game = registry.game_of(rules)
        self.verbs = [*_COMMANDS, *(form.verb for form in self.game.actions)]
        self.read, self.offer = _reader(out)
        self.hint_bot = make_bot(HINT_BOT, rules)
        self.seed = seed
        self.refused: str | None = None  # the rule behind the last refusal, for 'rules'

    def say(self, *lines: str) -> None:
        print("\n".join(lines), file=self.out)

    def _open(self, state: Any, legal: Sequence[Any]) -> tuple[list[str], list[Card]]:
        """The commands that may be typed now and the cards that may be named now."""
        exchanging = deal_of(state).phase is Phase.EXCHANGE
        words = ["help", "hint", "rules", "quit"]
        words += [w for w, action in (("stand", Stand()), ("fold", Fold())) if action in legal]
        cards: set[Card] = set()
        for action in legal:
            if isinstance(action, Exchange):
                cards |= set(action.cards)
            elif getattr(action, "card", None) is not None:
                cards.add(action.card)
        forms = [form.verb for form in self.game.actions if any(type(a) is form.cls for a in legal)]
        words += [*(["exchange"] if exchanging and cards else ["play"]), *forms]
        return words, sorted(cards)

    def help(self, state: Any, legal: Sequence[Any], cards: Sequence[Card]) -> list[str]:
        """How to say each action that is open now, in this game only, and the commands."""
        lines = ["   Name cards as on screen or by letters, in any case: 9c, 10h, th, ks, a♠."]
        if deal_of(state).phase is Phase.EXCHANGE:
            declared = [
                w for w, a in (("'stand' keeps your hand", Stand()), ("'fold' sits the deal out", Fold())) if a in legal
            ]
            if any(isinstance(a, Exchange) for a in legal):
                lines.append("   Give up cards by naming them ('9c 10h' or 'x 9c 10h'); you draw as many.")
                lines.append(_wrapped(f"You may give up: {' '.join(c.symbol for c in cards)}."))
            if declared:
                lines.append(f"   {'; '.join(declared)}.")
        else:
            lines.append("   Play a card by naming it ('ks') or with 'play ks'.")
        for form in self.game.actions:
            offered: list[Any] = [a for a in legal if type(a) is form.cls]
            if offered:
                lines.append(f"   '{form.verb} {str(offered[0].card).lower()}': {form.told(offered[0], False)}.")
        example = next(rule for rule in load_rules().values() if rule.file == f"{self.game.name}.md").id
        lines.append(
            _wrapped(
                "? lists the legal actions by number, then a number picks one; "
                f"hint asks the {HINT_BOT} bot; rules shows the rule of the last refusal, 'rules {example}' "
                "any rule; quit stops the game (saved when --save is given); Tab completes what you type."
            )
        )
        return lines

    def rule(self, text: str) -> list[str]:
        """``rules`` (the rule behind the last refusal) or ``rules ID``: its title and text, wrapped."""
        asked = text.split(maxsplit=1)[1].strip().upper() if " " in text.strip() else self.refused
        if asked is None:
            return ["   no refusal yet: 'rules ID' shows a rule (e.g. 'rules FLY-6.3')"]
        found = load_rules().get(asked)
        if found is None:
            return [f"   no rule {asked} in the specification: 'rules FLY-6.3' names one"]
        body = [_wrapped(paragraph, "      ") for paragraph in found.text.strip().split("\n\n")]
        return [f"   {found.id} {found.title}", *body, f"   (its sources and tests: fly-rules rules {found.id})"]

    def hint(self, state: Any, legal: Sequence[Any]) -> str:
        """What the hint bot would do, from the seat's view only, with randomness of its own."""
        rng = random.Random(f"{self.seed}:hint:{len(state.actions)}")
        action = self.hint_bot.choose(state.view(state.to_move), legal, rng)
        return f"   hint ({HINT_BOT} bot): {action_shown(action)}"

    def ask(self, state: Any, legal: Sequence[Any], hand: str) -> Any:
        """The human's action: read a choice (cards, a command, or a number of the list ``?`` shows) until
        one is legal, saying which rule refuses the others."""
        shown = [legal[i] for i in range(min(len(legal), _MENU))]
        words, cards = self._open(state, legal)
        self.offer([*words, *_typed_cards(cards)])
        if deal_of(state).phase is Phase.EXCHANGE:
            *some, last = ["cards to give up", *(w for w in ("stand", "fold") if w in words)]
            hint = f"{', '.join(some)} or {last}" if some else last
        else:
            hint = "a card to play"
        self.say(f"   your move: {hint}; ? lists, hint, help, quit")
        listed = False
        while True:
            line = self.read("your choice> ")
            if not line:
                raise InputEnded("input ended before the match did")
            text = line.strip().lower()
            if text in ("?", "list"):
                self.say(*_columns([f"{n:>2}. {action_shown(a)}" for n, a in enumerate(shown, start=1)]))
                if len(legal) > _MENU:
                    self.say(f"   … {len(legal) - _MENU} more: type the action, e.g. 'x 7c 8d'")
                self.say(hand)
                listed = True
            elif text.isascii() and text.isdigit():
                if listed and 1 <= int(text) <= len(shown):
                    return shown[int(text) - 1]
                self.say(f"   no {text} in the list" if listed else "   a number picks from the list: type ? to see it")
            elif text and not self._answer(text, state, legal, hand, cards):
                action = self._action(text, state, legal)
                if action is not None:
                    return action

    def _answer(self, text: str, state: Any, legal: Sequence[Any], hand: str, cards: Sequence[Card]) -> bool:
        """Answer ``help``, ``hint``, ``rules`` or ``quit``; False for anything else."""
        if text in ("help", "h"):
            self.say(*self.help(state, legal, cards))
        elif text == "hint":
            self.say(self.hint(state, legal))
        elif text == "rules" or text.startswith("rules "):
            self.say(*self.rule(text), hand)
        elif text in ("quit", "q", "exit"):
            raise Quit
        else:
            return False
        return True

    def _action(self, text: str, state: Any, legal: Sequence[Any]) -> Any:
        """The legal action ``text`` names, or None when it names none (said why, with the rule)."""
        try:
            action = _typed(text, state, self.verbs)
        except InvalidNotation as error:
            self.say(f"   not understood: {card_symbols(error.detail)} (help explains)")
            return None
        if action in legal:
            return action
        rule, said, detail = _why_not(state, action).partition("): ")  # the rule, then on its own line why
        self.refused = rule.split(" ", 1)[0] if said else None
        self.say(f"   not a legal action now: {text}: {rule}{said and '):'}", _wrapped(card_symbols(detail), "      "))
        if said:
            self.say("   ('rules' shows the rule)")
        return None


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
        # a bot's card shows in the trick so far and in the completed trick's line
        action = _your_move(state, legal, table) if seat == args.seat else bots[seat].choose(view, legal, rng)
        reached[0] = state.apply(action)  # chosen is as good as played: a stop from here on keeps it
        return action

    table = _Table(out, rules, start.seed)
    resumed = f" (resumed from {args.resume} after {taken} actions)" if args.resume is not None else ""
    table.say(
        f"{table.game.title}, {players} players, seed {start.seed}; you are seat {args.seat}{resumed}",
        *table.game.words.goal(rules),
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


def _reader(out: TextIO) -> tuple[Callable[[str], str], Callable[[list[str]], None]]:
    """How the player's lines are read, and how the words Tab completes are set for each prompt: with line
    editing and completion (readline) when standard input and output are a terminal, else line by line
    from standard input (and nothing to complete)."""
    words: list[str] = []

    def offer(now: list[str]) -> None:
        words[:] = now

    if not (sys.stdin.isatty() and out is sys.stdout):
        return (lambda prompt: print(prompt, end="", file=out, flush=True) or sys.stdin.readline()), offer
    with contextlib.suppress(ImportError):  # readline is missing on Windows: input() still edits lines
        import readline  # noqa: PLC0415 - only for a terminal

        readline.set_completer(lambda text, n: ([w for w in words if w.startswith(text.lower())] + [None])[n])
        readline.parse_and_bind("tab: complete")

    def read(prompt: str) -> str:
        try:
            return input(prompt) + "\n"
        except EOFError:
            return ""

    return read, offer


def _your_move(state: Any, legal: Sequence[Any], table: _Table) -> Any:
    """The player's action: the only legal one, said in a line; else asked below the status block."""
    if len(legal) == 1:
        table.say(f"   you {action_shown(legal[0])} (your only legal action)")
        return legal[0]
    seat = state.to_move
    status = _describe(state.view(seat), seat, table.game.title, deal_of(state).rules.rank_order)
    table.say(*status)
    return table.ask(state, legal, status[-1])


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
