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

from fly_rules.cards import DECK_52, Card, CardSet
from fly_rules.fly import FlyRules, new_match

__all__ = ["card_notations", "card_sets", "cards", "fly_rules_options", "fly_states"]


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


@st.composite
def fly_rules_options(draw: st.DrawFn, /, players: int | None = None, **fixed: Any) -> FlyRules:
    """Valid :class:`~fly_rules.fly.FlyRules`, every option drawn from its allowed
    values. ``fixed`` pins an option to a value, or to a strategy of its own.
    Shrinks towards the default profile."""
    n = draw(st.integers(3, 7)) if players is None else players
    sizes = [size for size in (32, 36, 48, 52) if size >= 5 * n + 1]
    options: dict[str, Any] = {
        "deck_size": draw(st.sampled_from([FlyRules(players=n).deck_size, *sizes])),
        "direction": draw(st.sampled_from(["clockwise", "anticlockwise"])),
        "ace_rank": draw(st.sampled_from(["high", "below_jack"])),
        "deal_packets": draw(st.sampled_from([(1,), (3, 2), (2, 3), (5,)])),
        "turnup_use": draw(st.sampled_from(["none", "dealer_swap", "last_stock_card"])),
        "declaration_mode": draw(st.sampled_from(["combined", "fold_round_then_exchange"])),
        "max_exchange": draw(st.integers(1, 5).map(lambda k: 6 - k)),
        "total_exchange_cap": draw(st.one_of(st.none(), st.integers(1, 12))),
        "stock_exhaustion": draw(st.sampled_from(["cap", "folded_hands", "reshuffle_discards"])),
        "may_fold_after_exchange": draw(st.booleans()),
        "ace_of_spades_discardable": draw(st.booleans().map(lambda b: not b)),
        "forced_player": draw(st.sampled_from([None, "dealer_if_all_passed", "eldest"])),
        "all_fold": draw(st.sampled_from(["void", "dealer_must_play", "redeal_same_dealer"])),
        "lone_player": draw(st.sampled_from(["takes_all", "last_speaker_must_play", "void"])),
        "must_head_trick": draw(st.booleans()),
        "trump_duty": draw(st.sampled_from(["any_trump", "overtrump", "overtrump_or_free"])),
        "ace_of_spades_mode": draw(st.sampled_from(["led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"])),
        "start_record": draw(st.integers(1, 30).map(lambda r: 31 - r)),
        "trick_value": draw(st.integers(1, 3)),
        "stop_mode": draw(st.sampled_from(["immediate", "end_of_deal"])),
        "tie_break": draw(st.sampled_from(["earliest", "shared"])),
        "revoke_mode": draw(st.sampled_from(["forbid", "adjudicate"])),
        "flush_wins": draw(st.booleans()),
    }
    for name, value in fixed.items():
        options[name] = draw(value) if isinstance(value, st.SearchStrategy) else value
    return FlyRules(players=n, **options)


@st.composite
def fly_states(draw: st.DrawFn, /, rules: FlyRules | None = None, max_actions: int = 200) -> Any:
    """Reachable Fly match states: a seeded match played forward by drawn legal
    actions, so every state is consistent by construction."""
    rules = draw(fly_rules_options()) if rules is None else rules
    state = new_match(rules, seed=draw(st.integers(0, 2**32)), max_deals=draw(st.integers(1, 4)))
    for _ in range(draw(st.integers(0, max_actions))):
        if state.is_over:
            break
        state = state.apply(draw(st.sampled_from(state.legal_actions())))
    return state
