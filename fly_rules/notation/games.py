"""What the formats and the command need to know about each game, in one place [REC-1.3] [REC-1.4].

Both games speak the same engine protocol (:class:`fly_rules.engine.GameState`); this module
adds the little that differs between them: how to build the rules from options, how to start a
match, where a match keeps its deals, and the action text of ``specs/records.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import attrs

from fly_rules import registry
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import Card, CardSet, Suit
from fly_rules.engine import DealState, GameState, MatchBase
from fly_rules.engine import Rules as EngineRules
from fly_rules.errors import InvalidNotation, InvalidRules, shown
from fly_rules.tricks import TrumpDuty

__all__ = [
    "action_text",
    "deal_of",
    "finished_deal",
    "first_dealer",
    "game_of",
    "make_rules",
    "match_actions",
    "new_deal",
    "new_game",
    "option_value",
    "options_of",
    "parse_action",
    "rules_version",
    "upgrade_options",
]

Rules: TypeAlias = EngineRules
"""The rules options of any game (a :class:`fly_rules.engine.Rules`)."""
Match: TypeAlias = GameState
"""A match of any game (a :class:`fly_rules.engine.GameState`)."""
Deal: TypeAlias = DealState
"""A deal of any game (a :class:`fly_rules.engine.DealState`)."""


def game_of(value: object) -> str:
    """The name of the game of a rules object, match, deal or view (its ``game``), a registered game's.

    >>> from fly_rules import fly
    >>> game_of(fly.FlyRules())
    'fly'
    """
    return registry.game_of(value).name


def rules_version(game: str) -> int | str:
    """The engine's ``RULES_VERSION`` for ``game`` [REC-1.3]."""
    return registry.get(game).rules_version


def make_rules(game: str, *, players: int | None = None, preset: str = "default", **options: object) -> Rules:
    """The rules of ``game`` from a preset, a number of players (Fly) and options by name.

    Raises:
        InvalidRules: for an unknown game, preset or option, or a value out of range.

    >>> make_rules("fly", players=5, preset="mouche_1718").deck_size
    48
    >>> make_rules("dreyfus", target_lower=12).target_lower
    12
    """
    described = registry.get(game)
    rules: Rules = described.make_rules(preset, players, _known(described.rules_class, options))
    return rules


def upgrade_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with every former option name and value of ``game`` replaced by its current one [REC-2.3].

    >>> upgrade_options("dreyfus", {"revoke_handling": "penalize"})
    {'revoke_mode': 'penalize'}
    >>> upgrade_options("fly", {"revoke_mode": "adjudicate"})
    {'revoke_mode': 'penalize'}
    """
    described = registry.get(game)
    renamed = described.renamed_options
    upgraded = {renamed.get(name, name): value for name, value in options.items()}
    for name, values in described.renamed_values.items():
        if isinstance(upgraded.get(name), str):
            upgraded[name] = values.get(upgraded[name], upgraded[name])
    return upgraded


def _known(cls: type[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    names = {f.name for f in attrs.fields(cls) if f.init and not f.name.startswith("_")} - {"players"}
    for name in options:
        if name not in names:
            raise InvalidRules(name, f"not an option of {cls.__name__}")
    return dict(options)


def option_value(value: object) -> object:
    """An option's value as plain data (the form a history writes) [REC-2.3].

    >>> option_value((3, 2)), option_value(TrumpDuty.ANY_TRUMP)
    ([3, 2], 'any_trump')
    """
    if isinstance(value, TrumpDuty):
        return value.value
    if isinstance(value, frozenset):
        return sorted(int(rank) for rank in value)
    if isinstance(value, tuple):
        return [option_value(item) for item in value]
    if isinstance(value, Suit):
        return value.letter
    if value is None:
        return "none"
    return value


def options_of(rules: Rules) -> dict[str, object]:
    """The options of ``rules`` that differ from the game's defaults (for its number of players), by name
    [REC-2.3].

    Raises:
        TypeError: ``rules`` is not a registered game's rules.
    """
    registry.rules_game(rules)
    return {name: option_value(value) for name, value in sorted(rules.non_default_options().items())}


def new_game(rules: Rules, *, seed: int | str, dealer: int | None = None) -> Any:
    """A new match of the game ``rules`` belong to (every game keeps ``max_deals`` in its rules)."""
    return registry.game_of(rules).new_match(rules, seed=seed, dealer=dealer)


def new_deal(rules: Rules, **start: Any) -> Any:
    """An explicit deal of the game ``rules`` belong to, from the arguments its ``new_deal`` takes."""
    return registry.game_of(rules).new_deal(rules, **start)


def deal_of(state: Any) -> Any:
    """The deal in progress (or the last one) of a match, or the deal itself."""
    return state.deal if isinstance(state, MatchBase) else state


def finished_deal(before: Any, after: Any) -> Any:
    """The deal that ``before → after`` (one action) finished, or None."""
    old = deal_of(before)
    new = deal_of(after)
    if new.deal_number != old.deal_number:
        return after.previous_deal
    return new if new.is_over else None


def match_actions(state: Any) -> tuple[Any, ...] | None:
    """Every action taken in ``state``, oldest first, if the state keeps them (else None)."""
    actions = getattr(state, "actions", None)
    return None if actions is None else tuple(actions)


def first_dealer(match: Any) -> int:
    """The dealer of the match's first deal (every game's match keeps it)."""
    return int(match.first_dealer)


# --- action text [REC-3.2] -------------------------------------------------------


def _cards_text(cards: CardSet) -> str:
    return " ".join(str(card) for card in cards)


def _forms(game: str | None) -> tuple[registry.ActionForm, ...]:
    """The games' own actions on one card: ``game``'s, or every registered game's."""
    names = registry.games() if game is None else (game,)
    return tuple(form for name in names for form in registry.get(name).actions)


def action_text(action: object) -> str:
    """The text of an action [REC-3.2]: ``stand``, ``fold``, ``exchange 7C 8D``, ``play AS``,
    ``swap-trump 9H``.

    >>> action_text(Exchange("8D 7C")), action_text(Play("10s"))
    ('exchange 7C 8D', 'play TS')
    """
    if isinstance(action, Exchange):
        return f"exchange {_cards_text(action.cards)}"
    if isinstance(action, Play | Stand | Fold):
        return str(action)
    for form in _forms(None):
        if type(action) is form.cls:
            return f"{form.verb} {form.card_of(action)}"
    raise TypeError(f"not an action: {action!r}")


def parse_action(text: str, game: str | None = None) -> Any:
    """The action written as ``text`` [REC-3.2]; cards in any notation :class:`~fly_rules.cards.Card` reads.
    A game's own verbs (``swap-trump``) are ``game``'s, or with ``game`` None any registered game's.

    Raises:
        InvalidNotation: for an unknown verb or unreadable cards.

    >>> parse_action("exchange 7c 8d"), parse_action("  stand ")
    (Exchange(cards=CardSet.parse('7C 8D')), Stand())
    """
    if not isinstance(text, str):
        raise InvalidNotation(shown(text), "an action must be given as text")
    verb, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    forms = {form.verb: form.cls for form in _forms(game)}
    try:
        if verb in ("stand", "fold") and not rest:
            return Stand() if verb == "stand" else Fold()
        if verb == "play" and rest:
            return Play(Card.parse(rest))
        if verb in forms and rest:
            return forms[verb](Card.parse(rest))
        if verb == "exchange" and rest:
            cards = rest.replace(",", " ").split()
            parsed = CardSet.of(Card.parse(c) for c in cards)
            if len(parsed) != len(cards):
                raise InvalidNotation(text, "a card is listed twice")
            return Exchange(parsed)
    except InvalidNotation as error:
        raise InvalidNotation(text, error.detail) from None
    except ValueError as error:
        raise InvalidNotation(text, str(error)) from None
    verbs = ["'stand'", "'fold'", "'exchange CARDS'", "'play CARD'", *(f"'{verb} CARD'" for verb in forms)]
    raise InvalidNotation(text, f"expected {', '.join(verbs[:-1])} or {verbs[-1]}")
