"""Building Dreyfus positions for the tests: a base layout of one suit per place, with swaps.

In the base layout seat 0 holds the spades 3–A, seat 1 the hearts, seat 2 the
diamonds and the talon the clubs, 3♣ on top. With the dealer at seat 2, seat 0
is eldest: he exchanges first and leads.
"""

from __future__ import annotations

from fly_rules.actions import Action, Play, Stand
from fly_rules.cards import Suit
from fly_rules.dreyfus import DreyfusDeal, DreyfusMatch, DreyfusRules, new_deal
from fly_rules.engine import Phase

RANKS = "3456789TJQKA"


def suit(letter: str) -> list[str]:
    """The twelve cards of one suit in the 48-card deck, lowest first."""
    return [rank + letter for rank in RANKS]


def layout(*swaps: tuple[str, str]) -> tuple[list[list[str]], list[str]]:
    """The base layout (hands by seat, talon top first) with each pair of cards swapped."""
    places = [suit("S"), suit("H"), suit("D"), suit("C")]
    for a, b in swaps:
        pa = next((p, i) for p, cards in enumerate(places) for i, c in enumerate(cards) if c == a)
        pb = next((p, i) for p, cards in enumerate(places) for i, c in enumerate(cards) if c == b)
        places[pa[0]][pa[1]], places[pb[0]][pb[1]] = b, a
    return places[:3], places[3]


def deal(
    *swaps: tuple[str, str],
    contract: Suit | None = Suit.SPADES,
    dealer: int = 2,
    rules: DreyfusRules | None = None,
    upper: tuple[int, int, int] = (0, 0, 0),
    lower: tuple[int, int, int] = (0, 0, 0),
) -> DreyfusDeal:
    """A deal of the base layout with ``swaps``, at eldest's exchange turn."""
    hands, talon = layout(*swaps)
    return new_deal(rules or DreyfusRules(), hands, talon, contract, dealer, upper, lower)


def stand_all(state: DreyfusDeal) -> DreyfusDeal:
    """Everyone stands: the play begins."""
    while state.phase is Phase.EXCHANGE:
        state = state.apply(Stand())
    return state


def run(state: DreyfusDeal, *actions: Action | str) -> DreyfusDeal:
    """Apply the actions in order; a string is a card to play."""
    for action in actions:
        state = state.apply(Play(action) if isinstance(action, str) else action)
    return state


def play_out(state: DreyfusDeal) -> DreyfusDeal:
    """Take the first legal action until the deal is over."""
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


def finish_deal(m: DreyfusMatch) -> DreyfusMatch:
    """Play the current deal of ``m`` to its end with the first legal action each time."""
    number = m.deals_played
    while m.deals_played == number and not m.is_over:
        m = m.apply(m.legal_actions()[0])
    return m
