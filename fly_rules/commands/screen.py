"""The terminal's game screen, one for ``fly-rules play`` (a match on this machine) and ``fly-rules join`` (a
seat at a table server): the status block above each prompt, the prompt, ``?``, ``help``, ``hint``,
``rules``, card input with Tab completion, and refusals that name their rule.

The screen sees what a player sees: the seat's view and its legal actions (a :class:`Turn`), never the
state of the deal. Who judges an action that is not legal is the caller's: ``play`` asks the engine
(``Turn.judge``); ``join`` leaves it to the server, whose refusal comes back to :meth:`Screen.refused`.
"""

from __future__ import annotations

import contextlib
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TextIO

import attrs

from fly_rules import registry
from fly_rules.actions import Action, Exchange, Fold, Play, Stand
from fly_rules.bots import HINT_BOT, hint_bot, hint_rng
from fly_rules.cards import Card, CardSet, RankOrder
from fly_rules.commands.common import InputEnded
from fly_rules.engine import Phase
from fly_rules.engine.protocols import Rules, SeatView
from fly_rules.errors import InvalidNotation
from fly_rules.narration import action_shown, card_symbols
from fly_rules.notation.games import parse_action
from fly_rules.spec import load_rules

__all__ = ["WIDTH", "Quit", "Screen", "Turn", "describe", "reader", "wrapped"]

_MENU: Final = 40
_COMMANDS: Final = ("stand", "fold", "play", "exchange")  # the shared actions' words, read by parse_action
WIDTH: Final = 80
"""The terminal's columns: every line the screen prints fits."""


class Quit(Exception):
    """The player typed ``quit``."""


@attrs.frozen
class Turn:
    """A turn of the player's seat, as the screen sees it."""

    view: SeatView
    """The seat's view of the deal (its ``seat`` is the player's)."""
    legal: Sequence[Action]
    """The actions the seat may take now."""
    number: int
    """How many actions the match has had: with the screen's seed, the hint's randomness."""
    judge: Callable[[Action], tuple[str | None, str]] | None = None
    """The rule an action not in ``legal`` breaks and what is wrong; None: :meth:`Screen.ask` returns such an
    action for someone else (the table server) to refuse."""


def describe(view: SeatView, title: str, order: RankOrder) -> list[str]:
    """The status block reprinted above each of the player's prompts, a few lines that fit 80 columns:
    the deal and whose turn, the game's own lines (trumps, stock or talon, records), the trick so far and
    the hand (sorted by ``order``, the rules' rank order)."""
    phase = "exchange" if view.phase is Phase.EXCHANGE else "play"
    lines = [
        f"-- {title}, deal {view.deal_number + 1}, dealer seat {view.dealer}: your turn (seat {view.seat}), {phase}"
    ]
    lines += registry.game_of(view).words.describe(view)
    trick = "  ".join(f"{s}:{c.symbol}" for s, c in view.trick)
    lines.append(f"   trick so far: {trick or '(none)'}; tricks taken {' '.join(map(str, view.tricks_taken))}")
    lines.append(f"   your hand: {' '.join(c.symbol for c in view.hand.sorted(order))}")
    return lines


def _typed(text: str, view: Any, verbs: Sequence[str]) -> Any:
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
        return parse_action(text, view.game)
    if view.phase is Phase.EXCHANGE:
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


def _columns(items: list[str], width: int = WIDTH) -> list[str]:
    """``items`` in as many columns as fit ``width``, filled down each column."""
    cell = max(map(len, items)) + 2
    rows = -(-len(items) // max(1, (width - 3) // cell))
    return ["   " + "".join(items[i].ljust(cell) for i in range(r, len(items), rows)).rstrip() for r in range(rows)]


def wrapped(text: str, indent: str = "   ") -> str:
    """``text`` filled to the terminal's width after ``indent``, words never cut."""
    return textwrap.fill(" ".join(text.split()), WIDTH, initial_indent=indent, subsequent_indent=indent)


def _typed_cards(cards: Iterable[Card]) -> list[str]:
    """Cards as the player may type them: ``9c``, ``th`` and ``10h``."""
    names = [str(card).lower() for card in cards]
    return [*names, *(name.replace("t", "10", 1) for name in names if name.startswith("t"))]


class Screen:
    """The player's side of the game: the prompt, the answers to ``?``, ``help``, ``hint`` and ``rules``,
    what Tab completes, and refusals."""

    def __init__(
        self, out: TextIO, rules: Rules, seed: object, *, quit_note: str = "saved when --save is given"
    ) -> None:
        """A screen writing to ``out`` for a game of ``rules``; ``seed`` seeds the hints; ``quit_note`` says
        in ``help`` what ``quit`` keeps."""
        self.out = out
        self.rules = rules
        self.game = registry.game_of(rules)
        self.verbs = [*_COMMANDS, *(form.verb for form in self.game.actions)]
        self.read, self.offer = reader(out)
        self.hint_bot = hint_bot(rules)
        self.seed = seed
        self.quit_note = quit_note
        self.refused_rule: str | None = None  # the rule behind the last refusal, for 'rules'
        self.typed = ""  # what the player typed for the action :meth:`ask` returned last

    def say(self, *lines: str) -> None:
        """Print ``lines``."""
        print("\n".join(lines), file=self.out, flush=True)

    def _open(self, turn: Turn) -> tuple[list[str], list[Card]]:
        """The commands that may be typed now and the cards that may be named now."""
        legal = turn.legal
        exchanging = turn.view.phase is Phase.EXCHANGE
        words = ["help", "hint", "rules", "quit"]
        words += [w for w, action in (("stand", Stand()), ("fold", Fold())) if action in legal]
        cards: set[Card] = set()
        for action in legal:
            if isinstance(action, Exchange):
                cards |= set(action.cards)
            elif isinstance(card := getattr(action, "card", None), Card):  # a play, or a game's own card action
                cards.add(card)
        forms = [form.verb for form in self.game.actions if any(type(a) is form.cls for a in legal)]
        words += [*(["exchange"] if exchanging and cards else ["play"]), *forms]
        return words, sorted(cards)

    def help(self, turn: Turn, cards: Sequence[Card]) -> list[str]:
        """How to say each action that is open now, in this game only, and the commands."""
        legal = turn.legal
        lines = ["   Name cards as on screen or by letters, in any case: 9c, 10h, th, ks, a♠."]
        if turn.view.phase is Phase.EXCHANGE:
            declared = [
                w for w, a in (("'stand' keeps your hand", Stand()), ("'fold' sits the deal out", Fold())) if a in legal
            ]
            if any(isinstance(a, Exchange) for a in legal):
                lines.append("   Give up cards by naming them ('9c 10h' or 'x 9c 10h'); you draw as many.")
                lines.append(wrapped(f"You may give up: {' '.join(c.symbol for c in cards)}."))
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
            wrapped(
                "? lists the legal actions by number, then a number picks one; "
                f"hint asks the {HINT_BOT} bot; rules shows the rule of the last refusal, 'rules {example}' "
                f"any rule; quit stops the game ({self.quit_note}); Tab completes what you type."
            )
        )
        return lines

    def rule(self, text: str) -> list[str]:
        """``rules`` (the rule behind the last refusal) or ``rules ID``: its title and text, wrapped."""
        asked = text.split(maxsplit=1)[1].strip().upper() if " " in text.strip() else self.refused_rule
        if asked is None:
            return ["   no refusal yet: 'rules ID' shows a rule (e.g. 'rules FLY-6.3')"]
        found = load_rules().get(asked)
        if found is None:
            return [f"   no rule {asked} in the specification: 'rules FLY-6.3' names one"]
        body = [wrapped(paragraph, "      ") for paragraph in found.text.strip().split("\n\n")]
        return [f"   {found.id} {found.title}", *body, f"   (its sources and tests: fly-rules rules {found.id})"]

    def hint(self, turn: Turn) -> str:
        """What the hint bot would do, from the seat's view only, with randomness of its own."""
        rng = hint_rng(self.seed, turn.number)
        action = self.hint_bot.choose(turn.view, turn.legal, rng)
        return f"   hint ({HINT_BOT} bot): {action_shown(action)}"

    def your_move(self, turn: Turn) -> Action:
        """The player's action: the only legal one, said in a line; else asked below the status block."""
        if len(turn.legal) == 1:
            self.say(f"   you {action_shown(turn.legal[0])} (your only legal action)")
            self.typed = ""
            return turn.legal[0]
        status = describe(turn.view, self.game.title, self.rules.rank_order)
        self.say(*status)
        return self.ask(turn, status[-1])

    def ask(self, turn: Turn, hand: str) -> Action:
        """The human's action: read a choice (cards, a command, or a number of the list ``?`` shows) until
        one is legal, saying which rule refuses the others (or, for a turn without a judge, until one names
        an action)."""
        legal = turn.legal
        shown = [legal[i] for i in range(min(len(legal), _MENU))]
        words, cards = self._open(turn)
        self.offer([*words, *_typed_cards(cards)])
        if turn.view.phase is Phase.EXCHANGE:
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
            self.typed = text
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
            elif text and not self._answer(text, turn, hand, cards):
                action: Action | None = self._action(text, turn)
                if action is not None:
                    return action

    def _answer(self, text: str, turn: Turn, hand: str, cards: Sequence[Card]) -> bool:
        """Answer ``help``, ``hint``, ``rules`` or ``quit``; False for anything else."""
        if text in ("help", "h"):
            self.say(*self.help(turn, cards))
        elif text == "hint":
            self.say(self.hint(turn))
        elif text == "rules" or text.startswith("rules "):
            self.say(*self.rule(text), hand)
        elif text in ("quit", "q", "exit"):
            raise Quit
        else:
            return False
        return True

    def _action(self, text: str, turn: Turn) -> Any:
        """The action ``text`` names if it is legal (or the turn has no judge), else None (said why, with
        the rule)."""
        try:
            action = _typed(text, turn.view, self.verbs)
        except InvalidNotation as error:
            self.say(f"   not understood: {card_symbols(error.detail)} (help explains)")
            return None
        if action in turn.legal or turn.judge is None:
            return action
        self.refused(text, *turn.judge(action))
        return None

    def refused(self, text: str, rule: str | None, detail: str) -> None:
        """Say that the action typed as ``text`` is refused: by ``rule`` (its ID, with its title on screen)
        and why, on lines of their own; ``rules`` then shows the rule."""
        if rule is None:
            self.refused_rule = None
            self.say(f"   not a legal action now: {text}:", wrapped(card_symbols(detail), "      "))
            return
        found = load_rules().get(rule)
        self.refused_rule = rule
        title = found.title if found else "unknown rule"
        self.say(f"   not a legal action now: {text}: {rule} ({title}):", wrapped(card_symbols(detail), "      "))
        self.say("   ('rules' shows the rule)")


def reader(out: TextIO) -> tuple[Callable[[str], str], Callable[[list[str]], None]]:
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
