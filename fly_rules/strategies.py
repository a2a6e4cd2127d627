"""Hypothesis strategies for property-testing code built on fly_rules.

Needs the ``testing`` extra (``pip install fly_rules[testing]``), which brings
Hypothesis; the core library does not import this module.

>>> from hypothesis import given
>>> @given(card_sets(max_size=5))
... def test_hand_is_small(hand): assert len(hand) <= 5
>>> test_hand_is_small()
"""

from __future__ import annotations

try:
    from hypothesis import strategies as st
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("fly_rules.strategies needs Hypothesis: pip install 'fly_rules[testing]'") from error

from typing import Any

import attrs

from fly_rules import registry
from fly_rules._options import declared_options
from fly_rules.cards import DECK_52, Card, CardSet, Rank, Suit
from fly_rules.dreyfus import DreyfusMatch, DreyfusRules
from fly_rules.dreyfus import new_match as new_dreyfus_match
from fly_rules.fly import FlyRules, new_match

__all__ = [
    "card_notations",
    "card_sets",
    "cards",
    "dreyfus_rules_options",
    "dreyfus_states",
    "fly_rules_options",
    "fly_states",
    "game_states",
    "histories",
    "legal_action",
]


def cards(deck: CardSet = DECK_52) -> st.SearchStrategy[Card]:
    """Any card of ``deck``; shrinks towards the lowest card in canonical order."""
    return st.sampled_from(tuple(deck))


def card_sets(deck: CardSet = DECK_52, *, min_size: int = 0, max_size: int | None = None) -> st.SearchStrategy[CardSet]:
    """Sets of distinct cards from ``deck``."""
    return st.frozensets(cards(deck), min_size=min_size, max_size=max_size).map(CardSet.of)


def card_notations(card: Card) -> st.SearchStrategy[str]:
    """Every accepted spelling of ``card``: rank ``10``/``T``, suit letter or
    symbol, in any letter case, with surrounding blanks."""
    ranks = ["10", "T", "t"] if card.rank == 10 else [card.rank.letter, card.rank.letter.lower()]
    outlined = "♧♢♡♤"[card.suit]
    suits = [card.suit.letter, card.suit.letter.lower(), card.suit.symbol, outlined]
    return st.builds(
        lambda r, s, pad: f"{pad}{r}{s}{pad}",
        st.sampled_from(ranks),
        st.sampled_from(suits),
        st.sampled_from(["", " "]),
    )


def _declared(default: object, allowed: tuple[object, ...] | range | None) -> Any:
    """The values an option's declaration allows, the default first (so that draws shrink towards it): a
    ``Literal``'s, both of a ``bool``, a whole number's range (or None, where the default is None)."""
    if allowed is None:
        return st.sampled_from([default, not default])
    if isinstance(allowed, range):
        whole = st.integers(allowed.start, allowed.stop - 1)
        return st.one_of(st.none() if default is None else st.just(default), whole)
    return st.sampled_from([default, *(value for value in allowed if value != default)])


_FLY_CHOSEN: dict[str, Any] = {
    # options whose allowed values no annotation declares, or whose draws are kept small and varied
    "deal_packets": st.sampled_from([(1,), (3, 2), (2, 3), (5,)]),
    "max_exchange": st.integers(1, 5).map(lambda k: 6 - k),
    "total_exchange_cap": st.one_of(st.none(), st.integers(1, 12)),
    "trump_duty": st.sampled_from(["any_trump", "overtrump", "overtrump_or_free"]),
    "start_record": st.integers(1, 30).map(lambda r: 31 - r),
    "trick_value": st.integers(1, 3),
    "max_deals": st.one_of(st.none(), st.integers(1, 12)),
}


@st.composite
def fly_rules_options(draw: st.DrawFn, /, players: int | None = None, **fixed: object) -> FlyRules:
    """Valid :class:`~fly_rules.fly.FlyRules`, every option drawn from its allowed values: the list of options is
    the class's own fields (``attrs.fields``), each drawn from its declaration (a ``Literal``'s values, a
    ``bool``, a whole number's range) or, where that says too little or too much, from a chosen few. ``fixed``
    pins an option to a value, or to a strategy of its own. Shrinks towards the default profile."""
    n = draw(st.integers(3, 7)) if players is None else players
    declared = declared_options(FlyRules)
    default = FlyRules(players=n)
    options: dict[str, Any] = {}
    for field in attrs.fields(FlyRules):
        name = field.name
        if not field.init or name == "players":
            continue
        if name in fixed:
            value = fixed[name]
            options[name] = draw(value) if isinstance(value, st.SearchStrategy) else value
        elif name == "deck_size":
            sizes = [size for size in (32, 36, 48, 52) if size >= 5 * n + 1]
            options[name] = draw(st.sampled_from([default.deck_size, *sizes]))
        elif name in _FLY_CHOSEN:
            options[name] = draw(_FLY_CHOSEN[name])
        else:
            options[name] = draw(_declared(getattr(default, name), declared[name]))
    unknown = set(fixed) - set(options)
    if unknown:
        raise TypeError(f"fly_rules_options: no option {', '.join(sorted(unknown))} in FlyRules")
    return FlyRules(players=n, **options)


@st.composite
def fly_states(draw: st.DrawFn, /, rules: FlyRules | None = None, max_actions: int = 200) -> Any:
    """Reachable Fly match states: a seeded match played forward by drawn legal
    actions, so every state is consistent by construction."""
    rules = draw(fly_rules_options()) if rules is None else rules
    rules = attrs.evolve(rules, max_deals=draw(st.integers(1, 4)))
    state = new_match(rules, seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, max_actions))):
        if state.is_over:
            break
        state = state.apply(draw(legal_action(state)))
    return state


def legal_action(state: Any) -> st.SearchStrategy[Any]:
    """One of ``state.legal_actions()``, drawn by position, so that a lazy sequence (a Dreyfus
    exchange offers up to 4,096 discards [DRF-4.4]) is never built whole; shrinks towards the first."""
    legal = state.legal_actions()
    return st.integers(0, len(legal) - 1).map(legal.__getitem__)


_FOSK_RANKS = (frozenset(Rank(r) for r in range(3, 11)), frozenset(Rank(r) for r in range(3, 9)), "any")
_CYCLES = ((Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None), (None,), (Suit.HEARTS,))


@st.composite
def dreyfus_rules_options(draw: st.DrawFn, /, **fixed: object) -> DreyfusRules:
    """Valid :class:`~fly_rules.dreyfus.DreyfusRules`, every option drawn from its allowed values
    [DRF-1.1]. ``fixed`` pins an option to a value, or to a strategy of its own. Shrinks towards the
    defaults.

    >>> from hypothesis import given
    >>> @given(dreyfus_rules_options(exchange_mode="incremental"))
    ... def test_incremental(rules): assert rules.exchange_mode == "incremental"
    >>> test_incremental()
    """
    options: dict[str, Any] = {
        "par_tricks": draw(st.sampled_from([4, 3, 5, 0, 12])),
        "target_lower": draw(st.sampled_from([10, 1, 5, 30])),
        "contract_cycle": draw(st.sampled_from(_CYCLES)),
        "show_trump_indicator": draw(st.booleans().map(lambda b: not b)),
        "deal_packet_size": draw(st.sampled_from([3, 1, 2, 4, 6, 12])),
        "dealer_rotation": draw(st.sampled_from(["left", "right"])),
        "fosk_ranks": draw(st.sampled_from(_FOSK_RANKS)),
        "fosk_excludes_trump": draw(st.booleans()),
        "exchange_mode": draw(st.sampled_from(["batch", "incremental"])),
        "reveal_discards": draw(st.booleans()),
        "reveal_leftover_talon": draw(st.booleans()),
        "first_lead": draw(st.sampled_from(["eldest", "first_actual_buyer"])),
        "trump_duty": draw(st.sampled_from(["any_trump", "overtrump", "overtrump_or_free"])),
        "must_head_trick": draw(st.booleans()),
        "winner_rule": draw(st.sampled_from(["first_to_reach", "highest_lower"])),
        "max_deals": draw(st.one_of(st.none(), st.integers(1, 12))),
        "settlement": draw(st.sampled_from(["gross", "net_of_winner_upper", "pairwise"])),
        "shortfall_floor_zero": draw(st.booleans().map(lambda b: not b)),
        "revoke_mode": draw(st.sampled_from(["prevent", "penalize"])),
        "revoke_upper_penalty": draw(st.sampled_from([10, 0, 5])),
        "revoke_penalty_per": draw(st.sampled_from(["deal", "occurrence"])),
        "revoke_adds_undertricks": draw(st.booleans()),
        "forgot_record_penalty": draw(st.sampled_from([3, 0])),
    }
    for name, value in fixed.items():
        options[name] = draw(value) if isinstance(value, st.SearchStrategy) else value
    return DreyfusRules(**options)


@st.composite
def dreyfus_states(draw: st.DrawFn, /, rules: DreyfusRules | None = None, max_actions: int = 200) -> DreyfusMatch:
    """Reachable Dreyfus match states: a seeded match played forward by drawn legal actions, so
    every state is consistent by construction [DRF-4.1] [DRF-6.7].

    >>> from hypothesis import given
    >>> @given(dreyfus_states(max_actions=40))
    ... def test_views_show_twelve_cards_at_most(match):
    ...     assert all(len(match.view(seat).hand) <= 12 for seat in range(3))
    >>> test_views_show_twelve_cards_at_most()
    """
    if rules is None:
        rules = draw(dreyfus_rules_options(max_deals=st.integers(1, 3)))
    state = new_dreyfus_match(rules, seed=draw(st.integers(0, 2**32)), dealer=draw(st.sampled_from([None, 0, 1, 2])))
    for _ in range(draw(st.integers(0, max_actions))):
        if state.is_over:
            break
        state = state.apply(draw(legal_action(state)))
    return state


@st.composite
def game_states(draw: st.DrawFn, /, game: str, max_actions: int = 200) -> Any:
    """Reachable matches of the registered game ``game``: its descriptor's ``strategies`` (Fly's
    :func:`fly_states`, Dreyfus's :func:`dreyfus_states`), or else a seeded match of its default rules
    played forward by drawn legal actions.

    >>> from hypothesis import given
    >>> @given(game_states("dreyfus", max_actions=10))
    ... def test_a_dreyfus_match(match):
    ...     assert match.game == "dreyfus"
    >>> test_a_dreyfus_match()
    """
    described = registry.get(game)
    if described.strategies is not None:
        return draw(described.strategies(max_actions=max_actions))
    rules = described.make_rules("default", None, {})
    state = described.new_match(rules, seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, max_actions))):
        if state.is_over:
            break
        state = state.apply(draw(legal_action(state)))
    return state


@st.composite
def histories(draw: st.DrawFn, /, game: str | None = None, max_actions: int = 120) -> str:
    """Canonical game-history texts (``specs/records.md``) of reachable matches of any registered game
    (or of ``game``) [REC-1.1]: a state from :func:`game_states`, written with
    :func:`~fly_rules.notation.writing.dump_history`. Needs the ``cli`` extra (``tomli-w``) too.

    >>> from hypothesis import given
    >>> from fly_rules.notation.history import load_history, dump_history
    >>> @given(histories(max_actions=30))
    ... def test_histories_round_trip(text):
    ...     assert dump_history(load_history(text)) == text
    >>> test_histories_round_trip()
    """
    from fly_rules.notation.history import dump_history  # noqa: PLC0415 - tomli-w is an optional extra

    names = registry.games()
    chosen = draw(st.sampled_from(names)) if game is None else game
    if chosen not in names:
        raise ValueError(f"game must be one of {', '.join(names)} or None, not {game!r}")
    return dump_history(draw(game_states(chosen, max_actions=max_actions)))
