"""The exchange: who exchanges when, what may be discarded, the draw [DRF-4.1] [DRF-4.2] [DRF-4.3].

Implements DRF §4 of ``specs/dreyfus.md``. Pure functions over masks; the
deal state calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fly_rules._choices import SubsetChoices
from fly_rules.actions import Action, Exchange, Stand
from fly_rules.cards import ALL_CARDS, CardSet, Suit
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.errors import RuleViolation

__all__ = ["STAND", "check_exchange", "discardable", "exchange_choices", "next_exchanger_turn"]

STAND: Final = Stand()
"""The one stand action (end the exchange turn) [DRF-4.3]."""
_SINGLE: Final[tuple[Exchange, ...]] = tuple(Exchange(CardSet(1 << i)) for i in range(52))


def _exchange_of(mask: int) -> Exchange:
    return _SINGLE[mask.bit_length() - 1] if mask & (mask - 1) == 0 else Exchange(CardSet(mask))


def discardable(hand: int, dealt: int, contract: Suit | None, rules: DreyfusRules) -> int:
    """The cards the player may discard: фоски still held of the twelve dealt to him [DRF-4.2]."""
    return hand & dealt & rules.fosk_mask(contract)


def exchange_choices(eligible: int, talon_left: int, rules: DreyfusRules) -> Sequence[Action]:
    """The stand, then every allowed exchange: a lazy sequence of all discard sets of at most
    ``talon_left`` cards in batch mode, one card at a time in incremental mode [DRF-4.4] [DRF-4.3]."""
    if rules.exchange_mode == "incremental":
        return SubsetChoices((STAND,), eligible, 1 if talon_left else 0, _exchange_of)
    return SubsetChoices((STAND,), eligible, talon_left, _exchange_of)


def check_exchange(discard: int, hand: int, eligible: int, talon_left: int, rules: DreyfusRules) -> None:
    """Refuse an exchange that the rules forbid [DRF-4.2] [DRF-4.3] [DRF-4.4].

    Raises:
        RuleViolation: DRF-4.3 for an empty discard or one larger than the talon;
            DRF-4.4 for several cards at once in incremental mode; DRF-4.2 for a card
            not held or not a фоска of the dealt hand.
    """
    size = discard.bit_count()
    cards = CardSet(discard)
    if size == 0:
        raise RuleViolation("DRF-4.3", "an exchange discards at least one card; to keep the hand, stand", cards)
    if rules.exchange_mode == "incremental" and size > 1:
        raise RuleViolation("DRF-4.4", "in the incremental exchange one card is discarded at a time", cards)
    missing = discard & ~hand
    if missing:
        raise RuleViolation("DRF-4.2", "only cards in the hand may be discarded", CardSet(missing))
    wrong = discard & ~eligible
    if wrong:
        card = ALL_CARDS[wrong.bit_length() - 1]
        raise RuleViolation("DRF-4.2", f"{card} is not a фоска of the dealt hand and may not be discarded", card)
    if size > talon_left:
        raise RuleViolation("DRF-4.3", f"only {talon_left} cards are left in the talon, not {size}", cards)


def next_exchanger_turn(turn: int, talon_left: int) -> int:
    """The next exchange turn (0 eldest, 1 the next, 2 the dealer, 3 play begins) after
    ``turn`` ends, skipping players facing an empty talon [DRF-4.1]."""
    turn += 1
    return 3 if talon_left == 0 else turn
