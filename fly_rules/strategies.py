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

from fly_rules.cards import DECK_52, Card, CardSet

__all__ = ["card_notations", "card_sets", "cards"]


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
