"""The one-line position notation of a deal (the FEN of Fly and Dreyfus) [REC-5.1] [REC-5.2] [REC-5.3].

A position is the deal as dealt plus the moves taken since, so reading one replays it through the
engine: it cannot describe a position the rules never reach, and it does not depend on how the
engine stores a deal.

>>> from fly_rules import fly
>>> deal = fly.new_deal(fly.FlyRules(players=3), hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
...                     trump_card="8H", stock="7H 7D", dealer=0)
>>> text = position_of(deal.apply(fly.Stand()), start=deal)
>>> text
'fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s 2'
>>> parse_position(text) == deal.apply(fly.Stand())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from fly_rules import registry
from fly_rules._numbers import MAX_POSITION_CHARS, is_whole_number, whole_number
from fly_rules._options import MAX_COUNT
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import Card, CardSet, card_field, card_text
from fly_rules.engine import MatchBase
from fly_rules.engine.shuffle import check_seed
from fly_rules.errors import FlyRulesError, InvalidNotation, shown
from fly_rules.notation.games import (
    Deal,
    first_dealer,
    make_rules,
    new_game,
    options_of,
    upgrade_options,
)

__all__ = ["parse_position", "position_of"]


def _move(action: object) -> str:
    if isinstance(action, Stand):
        return "s"
    if isinstance(action, Fold):
        return "f"
    if isinstance(action, Exchange):
        return "x" + card_text(action.cards)
    if isinstance(action, Play):
        return "p" + str(action.card)
    for name in registry.games():
        for form in registry.get(name).actions:
            if type(action) is form.cls:
                return form.letter + str(form.card_of(action))
    raise TypeError(f"not an action: {action!r}")


def _option(value: object) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_option(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def position_of(state: Any, *, start: Deal | None = None, moves: Sequence[Any] | None = None) -> str:
    """The position notation of the deal in progress in ``state`` [REC-5.1].

    ``state`` is a match (its current deal is written, found by replaying the match's actions, or
    ``moves`` when given), or a deal together with ``start``, the same deal as dealt (not needed for
    a deal with no moves yet). The moves default to the deal's own ``actions``.

    Raises:
        ValueError: if the moves do not lead from the start to the deal.
    """
    if isinstance(state, MatchBase):
        start, moves = _current_deal_start(state, moves)
        deal: Any = state.deal
    else:
        deal = state
        if moves is None:
            moves = deal.actions
        if start is None:
            if moves:
                raise ValueError("pass start=, the deal as dealt, when moves were taken")
            start = deal
    first: Any = start
    moved: Any = first
    for action in moves:
        moved = moved.apply(action)
    if moved != deal:
        raise ValueError("the moves do not lead from the dealt position to this deal")
    options = options_of(first.rules)
    opts = ";".join(f"{k}={_option(v)}" for k, v in options.items()) or "-"
    turn = "-" if deal.to_move is None else str(deal.to_move)
    steps = ",".join(_move(a) for a in moves) or "-"
    hands = "/".join(card_text(h) for h in first.hands)
    game = first.game
    trump, undealt, records, *tail = registry.get(game).position.write(first)
    return " ".join([game, opts, str(first.dealer), trump, hands, undealt, records, steps, turn, *tail])


def _current_deal_start(match: Any, actions: Sequence[Any] | None) -> tuple[Any, list[Any]]:
    """The current deal of ``match`` as dealt, and the moves taken in it, by replaying the match."""
    taken = tuple(match.actions if actions is None else actions)
    dealer = first_dealer(match)
    replay: Any = new_game(match.rules, seed=match.seed, dealer=dealer)
    start = replay.deal
    moves: list[Any] = []
    for action in taken:
        replay = replay.apply(action)
        moves.append(action)
        if replay.deal.deal_number != start.deal_number:
            start, moves = replay.deal, []
    if replay != match:
        raise ValueError("the actions do not lead to this match")
    return start, moves


def _parse_option(text: str) -> object:
    if text.startswith("[") and text.endswith("]"):  # options' arrays are flat [REC-5.2]: items never nest
        return [_parse_value(v) for v in text[1:-1].split(",") if v]
    return _parse_value(text)


def _parse_value(text: str) -> object:
    if text in ("true", "false"):
        return text == "true"
    if is_whole_number(text):
        return int(text)
    return text


def _parse_move(token: str, line: str, game: str) -> Any:
    kind, rest = token[:1], token[1:]
    forms = {form.letter: form for form in registry.get(game).actions}
    if token == "s":
        return Stand()
    if token == "f":
        return Fold()
    if kind == "x" and rest:
        return Exchange(CardSet.of(card_field(rest, "moves", line)))
    if kind == "p" and len(rest) == 2:
        return Play(Card.parse(rest))
    if kind in forms and len(rest) == 2:
        return forms[kind].cls(Card.parse(rest))
    letters = "".join(f", {letter}CARD" for letter in forms)
    raise InvalidNotation(line, f"moves: {token!r} is not s, f, xCARDS or pCARD{letters}")


def parse_position(text: str, *, seed: int | str | None = None, deal_number: int | None = None) -> Deal:
    """The deal that the position ``text`` describes, replayed from its dealt position [REC-5.3].

    ``seed`` and ``deal_number`` give back the match identity a position leaves out: the match's seed and the
    deal's number in it. With them a match's deal is read back equal to it,
    ``parse_position(position_of(match), seed=match.seed, deal_number=match.deal_number) == match.deal``; a game
    whose deal keeps no seed (Dreyfus: only its match deals from it) needs none, and a game whose position
    writes the number (Dreyfus) is read with that number, which ``deal_number`` must then equal.

    Raises:
        InvalidNotation: for a malformed line (naming the field), or with the rule ID in its
            detail when the dealt position or a move breaks a rule; a ``deal_number`` other than the
            position's own.
        TypeError: ``seed`` is not an int or a str.

    >>> from fly_rules import fly
    >>> match = fly.new_match(fly.FlyRules(players=3), seed=4, dealer=0).apply(fly.Stand())
    >>> parse_position(position_of(match), seed=match.seed, deal_number=match.deal_number) == match.deal
    True
    """
    if not isinstance(text, str):
        raise InvalidNotation(shown(text), "a position must be given as text")
    if len(text) > MAX_POSITION_CHARS:  # before any work on it [REC-1.5]
        raise InvalidNotation(text[:40], f"has {len(text)} characters; a position has at most {MAX_POSITION_CHARS}")
    line = text.strip()
    fields = line.split(" ")
    game = fields[0] if fields else ""
    if game not in registry.games():
        raise InvalidNotation(text, f"a position starts with a game's name: {', '.join(registry.games())}")
    expected = registry.get(game).position.fields
    if len(fields) != expected:
        raise InvalidNotation(text, f"a {game} position has {expected} fields separated by single spaces")
    if seed is not None:
        check_seed(seed)
    if deal_number is not None and (type(deal_number) is not int or not 0 <= deal_number < MAX_COUNT):
        detail = f"deal_number must be a whole number from 0 to {MAX_COUNT - 1}, not {shown(deal_number)}"
        raise InvalidNotation(text, detail)
    try:
        deal: Deal = _parse(game, fields, text, seed, deal_number)
        return deal
    except InvalidNotation as error:
        if error.text == text:
            raise
        raise InvalidNotation(text, error.detail) from None
    except (FlyRulesError, TypeError, ValueError) as error:  # the engine's constructors refusing a value
        raise InvalidNotation(text, str(error)) from None


def _parse(game: str, fields: list[str], text: str, seed: int | str | None, number: int | None) -> Any:
    options: dict[str, Any] = {}
    if fields[1] != "-":
        for item in fields[1].split(";"):
            name, equals, value = item.partition("=")
            if not equals:
                raise InvalidNotation(text, f"options: {item!r} is not name=value")
            options[name] = _parse_option(value)
    options = upgrade_options(game, options)
    dealer = whole_number(fields[2], "dealer", signed=False)
    hand_texts = fields[4].split("/")
    hands = [card_field(h, "hands", text) for h in hand_texts]
    form = registry.get(game).position
    try:
        rules = make_rules(game, players=form.players(hands), **options)
    except TypeError as error:
        raise InvalidNotation(text, f"options: {error}") from None
    if options_of(rules) != options:
        raise InvalidNotation(text, "options: list exactly the options that differ from the defaults")
    deal: Any = form.read(rules, fields, hands, dealer, text)
    if seed is not None or number is not None:
        deal = _identified(deal, seed, number, text)
    if fields[7] != "-":
        for token in fields[7].split(","):
            deal = deal.apply(_parse_move(token, text, game))
    turn = "-" if deal.to_move is None else str(deal.to_move)
    if fields[8] != turn:
        raise InvalidNotation(text, f"turn: the replay has {turn} to move, not {fields[8]}")
    return deal


def _identified(dealt: Any, seed: int | str | None, number: int | None, text: str) -> Any:
    """The dealt deal with the match identity given (REC-5.3): the seed where the game's deal keeps one, the deal's
    number where the position does not write it (a number it writes must be the same)."""
    table: Any = getattr(dealt, "table", None)
    if not attrs.has(type(table)):
        raise InvalidNotation(text, f"a {dealt.game} deal keeps no seed or number beside its position")
    kept = attrs.fields_dict(type(table))
    change: dict[str, object] = {}
    if seed is not None and "seed" in kept:
        change["seed"] = seed
    if number is not None and number != table.deal_number:
        if registry.get(dealt.game).position.numbered:  # the position writes the number: it is the deal's
            raise InvalidNotation(text, f"deal_number: the position's deal is number {table.deal_number}, not {number}")
        change["deal_number"] = number
    return dealt._replace(table=attrs.evolve(table, **change)) if change else dealt
