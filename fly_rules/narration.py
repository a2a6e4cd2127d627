"""Telling a game as it goes, in words and card symbols: who deals, the hands, each declaration,
every trick with the seat that took it, the records after each deal and the winner.

One narration serves the ``fly-rules`` command's ``demo`` (bots play), ``replay`` (a saved history)
and ``play`` (you against bots). It tells everything, or only what one seat may know: told for a
seat, the other hands and the cards the others exchange stay hidden [FLY-4.2].

>>> import io
>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=3), seed=4, dealer=0)
>>> out = io.StringIO()
>>> end = narrate(match, lambda state, legal: legal[0], out)  # everyone stands, then plays his first card
>>> print("\\n".join(out.getvalue().splitlines()[1:9]))
== Deal 1: seat 0 deals; trump card Q♦
   seat 0: 9♣ 9♥ 10♥ J♥ Q♥   (record 25)
   seat 1: 7♣ 8♣ A♦ 7♠ J♠   (record 25)
   seat 2: 10♦ K♦ 8♠ 10♠ Q♠   (record 25)
   seat 1 stands
   seat 2 stands
   seat 0 stands
   trick 1: 1:7♣  2:10♦  0:9♣  -> seat 2 takes it (record 24)

Told to seat 1, the others' hands and exchanged cards stay hidden:

>>> out = io.StringIO()
>>> end = narrate(match, lambda state, legal: legal[-1], out, seat=1)  # everyone exchanges all five
>>> print("\\n".join(out.getvalue().splitlines()[1:6]))
== Deal 1: seat 0 deals; trump card Q♦
   seat 1: 7♣ 8♣ A♦ 7♠ J♠   (record 25)
   seat 1 exchanges 5: 7♣ 8♣ A♦ 7♠ J♠; draws 10♣ K♣ A♣ 9♠ A♠
   seat 2 exchanges 5
   seat 0 exchanges 5
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TextIO

from fly_rules import registry
from fly_rules.actions import Action, Exchange, Fold, Stand
from fly_rules.cards import Card, RankOrder
from fly_rules.engine import Phase
from fly_rules.engine.protocols import DealState, GameState, SeatView
from fly_rules.notation.games import action_text, deal_of, finished_deal
from fly_rules.registry import seat_text

__all__ = [
    "Chooser",
    "action_lines",
    "action_shown",
    "card_symbols",
    "deal_lines",
    "fitted",
    "narrate",
    "outcome_lines",
    "outcome_text",
    "records_text",
    "status_line",
    "view_deal_lines",
]

Chooser = Callable[[Any, Sequence[Any]], Any]
"""Picks the next action: ``choose(state, legal_actions)``; ``None`` ends the narration there."""


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards)


def action_shown(action: object) -> str:
    """An action as the screen writes it: cards in symbols (the history's text uses letters) [REC-3.2],
    an exchange as ``x`` and its cards.

    >>> from fly_rules.actions import Exchange, Play
    >>> action_shown(Exchange("9C TH")), action_shown(Play("AS")), action_shown(Stand())
    ('x 9♣ 10♥', 'play A♠', 'stand')
    """
    if isinstance(action, Exchange):
        return "x " + _cards(action.cards)
    card = getattr(action, "card", None)
    verb = action_text(action).split(" ", 1)[0]
    return verb if card is None else f"{verb} {card.symbol}"


_CARD_LETTERS: Final = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


def card_symbols(text: str) -> str:
    """``text`` (a refusal's detail, say) with the cards it names in letters written in symbols, the one
    notation of the screen [REC-3.2].

    >>> card_symbols("must follow suit (AC led, QD played)")
    'must follow suit (A♣ led, Q♦ played)'
    """
    return _CARD_LETTERS.sub(lambda m: Card.parse(m.group(0)).symbol, text)


def deal_lines(deal: DealState, seat: int | None = None) -> list[str]:
    """The start of a deal: a blank line, its number, the dealer, the trumps and the hands (only ``seat``'s
    when told to one seat)."""
    seats = range(len(deal.hands)) if seat is None else (seat,)
    return _deal_head(deal, [deal.view(s) for s in seats], deal.rules.rank_order)


def view_deal_lines(view: SeatView, order: RankOrder) -> list[str]:
    """The start of a deal told from a seat's view alone (a client of a table server has nothing else), as
    :func:`deal_lines` tells it to that seat: the hand is sorted by ``order``, the rules' rank order."""
    return _deal_head(view, [view], order)


def _deal_head(deal: DealState | SeatView, views: Sequence[SeatView], order: RankOrder) -> list[str]:
    """The lines of :func:`deal_lines` for ``deal`` (a deal or a seat's view: both have the dealer, the
    trumps and the records) and the hands of ``views``."""
    story = registry.game_of(deal).words
    lines = ["", f"== Deal {deal.deal_number + 1}: {seat_text(deal.dealer)} deals; {story.trumps(deal)}"]
    for view in views:
        lines.append(f"   {seat_text(view.seat)}: {_cards(view.hand.sorted(order))}{story.hand_note(deal, view.seat)}")
    return lines


def _drawn(old: Any, new: Any, mover: int, action: object) -> str:
    """The cards ``mover`` drew for an exchange: what his hand holds after it that it did not before
    [FLY-4.4] [DRF-4.3]; none when the stock ran out [FLY-4.5]."""
    before = set(old.view(mover).hand)
    drawn = [card for card in new.view(mover).hand.sorted(new.rules.rank_order) if card not in before]
    return f"; draws {_cards(drawn)}" if drawn else "; draws nothing"


def action_lines(before: GameState, after: GameState, mover: int, action: Action, seat: int | None = None) -> list[str]:
    """What one action did: the declaration, the trick it completed and who took it, the end of the deal.

    ``before`` and ``after`` are the states (deals or matches) around the action. The cards of an
    exchange or a discard are named only when told to everyone (``seat`` None) or to the seat that moved.
    """
    old, done = deal_of(before), finished_deal(before, after)
    new = deal_of(after) if done is None else done
    hidden = seat is not None and seat != mover
    game = registry.game_of(old)
    story = game.words
    lines: list[str] = []
    if isinstance(action, Exchange):
        verb, which = story.exchange_words
        told = "" if hidden else which + _cards(action.cards) + _drawn(old, new, mover, action)
        lines.append(f"   {seat_text(mover)} {verb} {len(action.cards)}{told}")
    elif isinstance(action, Stand | Fold):
        lines.append(f"   {seat_text(mover)} {'stands' if isinstance(action, Stand) else 'folds'}")
    else:
        forms = [form.told(action, hidden) for form in game.actions if type(action) is form.cls]
        lines += [f"   {seat_text(mover)} {text}" for text in forms]
    lines += story.tricks(old, new, action)
    if done is not None:
        lines += story.deal_end(done)
    return lines


def outcome_lines(state: GameState) -> list[str]:
    """How the match (or the one explicit deal) stands: the winner and the standings or settlement."""
    if not state.is_over:
        return ["", "== In progress"]
    if deal_of(state) is state:
        return ["", "== Deal over: " + ("no winner" if state.winner is None else f"{seat_text(state.winner)} wins")]
    winner = "no winner (deal limit reached)" if state.winner is None else f"{seat_text(state.winner)} wins the match"
    over = f"== Match over after {state.deal_number + 1} deal(s): {winner}"
    return ["", over, registry.game_of(state).words.match_end(state)]


def outcome_text(state: GameState) -> list[str]:
    """How a finished deal or match came out, as :func:`outcome_lines` tells it without the terminal's
    markers; nothing while it goes on."""
    return [s.strip().removeprefix("== ") for s in outcome_lines(state) if s.strip()] if state.is_over else []


def records_text(deal: DealState) -> list[str]:
    """Each seat's record as text: the game's record lines side by side (Dreyfus: ``upper/lower``)."""
    lines = list(deal.score_lines.values())
    return ["/".join(str(line[seat]) for line in lines) for seat in range(len(lines[0]))]


def status_line(state: GameState, seat: int | None, view: SeatView | None = None) -> str:
    """One line on what the table shows ``seat`` (None: a watcher): the game and deal, the trumps and stock or
    talon, the trick in progress and whose turn it is. ``view`` is the deal's view of any seat, when the caller
    has one already (only its public part is read)."""
    deal: DealState = deal_of(state)
    if state.is_over:
        return " ".join(outcome_text(state))
    if view is None:
        view = deal.view(0 if seat is None else seat)
    game = registry.game_of(deal)
    trick = ", ".join(f"{seat_text(s)} {c.symbol}" for s, c in view.trick)
    phase = "exchange" if deal.phase is Phase.EXCHANGE else "play"
    turn = f"{seat_text(state.to_move)} to move"
    if seat is not None and state.to_move == seat:
        legal = state.legal_actions()
        open_ = ["give up cards" if phase == "exchange" else "play a card"]
        open_ += [word for word, action in (("stand", Stand()), ("fold", Fold())) if action in legal]
        turn = "your turn: " + (", ".join(open_[:-1]) + " or " + open_[-1] if len(open_) > 1 else open_[0])
    parts = [
        f"{game.title}, deal {deal.deal_number + 1}, {phase}",
        game.words.describe(view)[0].strip(),
        f"trick: {trick}" if trick else "no trick in play",
        turn,
    ]
    return " · ".join(parts)


def fitted(line: str, width: int = 80) -> list[str]:
    """``line`` in lines of at most ``width`` columns (a terminal's), cut after a ``", "`` so that each reason
    of a record change stays whole, the lines after the first indented two more; a part longer than a line is
    cut between words. A line that fits is itself.

    >>> for cut in fitted("   seat 1: record 3 -> 0: " + ", ".join(["-1 for the trick [FLY-8.2]"] * 3), 60):
    ...     print(cut)
       seat 1: record 3 -> 0: -1 for the trick [FLY-8.2],
         -1 for the trick [FLY-8.2], -1 for the trick [FLY-8.2]
    """
    if len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    lines: list[str] = []
    current = ""
    for part in line.split(", "):
        joined = f"{current}, {part}" if current else part
        if len(joined) + 1 <= width or not current:  # room for the comma that may follow
            current = joined
            continue
        lines.append(current + ",")
        current = indent + part
    lines.append(current)
    return [cut for each in lines for cut in (textwrap.wrap(each, width, subsequent_indent=indent) or [each])]


def narrate(state: GameState, choose: Chooser, out: TextIO, *, seat: int | None = None) -> Any:
    """Play ``state`` (a match or a deal of either game) on with ``choose`` and tell it to ``out``.

    Args:
        state: where to start.
        choose: picks each action; ``None`` stops before the end (a history that ends in progress).
        out: where the lines go.
        seat: tell only what this seat may know; None (the default) tells every hand and exchange.

    Returns:
        The state reached.
    """
    told = -1
    while not state.is_over:
        deal = deal_of(state)
        if deal.deal_number != told:
            told = deal.deal_number
            print("\n".join(deal_lines(deal, seat)), file=out)
        mover = state.to_move
        assert mover is not None, "the game is not over: a seat is to move"
        action = choose(state, state.legal_actions())
        if action is None:
            break
        before, state = state, state.apply(action)
        for line in action_lines(before, state, mover, action, seat):
            print("\n".join(fitted(line)), file=out)
    print("\n".join(outcome_lines(state)), file=out)
    return state
