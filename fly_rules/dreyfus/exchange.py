"""The exchange: who exchanges when, what may be discarded, the draw [DRF-4.1] [DRF-4.2] [DRF-4.3].

Implements DRF §4 of ``specs/dreyfus.md``. Pure functions over a deal's pieces
(masks, the :class:`~fly_rules.dreyfus.deal.DealTable`, the :class:`Exchanges` and
the :class:`~fly_rules.dreyfus.scoring.Score`); the deal state calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from fly_rules._choices import SubsetChoices
from fly_rules.actions import Action, Exchange, Stand, exchange_of_mask
from fly_rules.cards import ALL_CARDS, CardSet
from fly_rules.dreyfus.deal import HAND_SIZE, DealTable, eldest, set_seat
from fly_rules.dreyfus.play import opening_leader
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.scoring import Score, buy
from fly_rules.engine import Phase
from fly_rules.errors import RuleViolation

__all__ = [
    "STAND",
    "Exchanges",
    "discardable",
    "end_turn",
    "exchange_cards",
    "exchange_choices",
    "next_exchanger_turn",
    "refuse_exchange",
]

STAND: Final = Stand()
"""The one stand action (end the exchange turn) [DRF-4.3]."""
_SINGLE: Final[tuple[Exchange, ...]] = tuple(Exchange(CardSet(1 << i)) for i in range(52))
_Triple = tuple[int, int, int]
_Exchanged = tuple[Phase, _Triple, int, int, int, "Exchanges", Score]


class Exchanges(NamedTuple):
    """How far the exchange has gone: whose turn, the talon taken, discards and purchases [DRF-4.1]."""

    step: int
    """0 eldest's turn, 1 the next player's, 2 the dealer's, 3 the exchange is over [DRF-4.1]."""
    talon_taken: int
    """Cards taken from the top of the talon so far [DRF-4.3]."""
    discards: tuple[int, int, int]
    """Each seat's discards, as a mask [DRF-4.2]."""
    bought: tuple[int, int, int]
    """Cards bought by each seat [DRF-4.5]."""


def _exchange_of(mask: int) -> Exchange:
    return _SINGLE[mask.bit_length() - 1] if mask & (mask - 1) == 0 else exchange_of_mask(mask)


def discardable(table: DealTable, hand: int, dealt: int) -> int:
    """The cards the player may discard: фоски still held of the twelve dealt to him [DRF-4.2]."""
    return hand & dealt & table.fosk


def exchange_choices(rules: DreyfusRules, eligible: int, talon_left: int) -> Sequence[Action]:
    """The stand, then every allowed exchange: a lazy sequence of all discard sets of at most
    ``talon_left`` cards in batch mode, one card at a time in incremental mode [DRF-4.4] [DRF-4.3]."""
    if rules.exchange_mode == "incremental":
        return SubsetChoices((STAND,), eligible, 1 if talon_left else 0, _exchange_of)
    return SubsetChoices((STAND,), eligible, talon_left, _exchange_of)


def refuse_exchange(rules: DreyfusRules, action: Exchange, hand: int, eligible: int, talon_left: int) -> RuleViolation:
    """Why the engine refuses ``action``, an exchange outside the allowed ones [DRF-4.2] [DRF-4.3] [DRF-4.4].

    Returns the error to raise: DRF-4.3 for an empty discard or one larger than the
    talon; DRF-4.4 for several cards at once in incremental mode; DRF-4.2 for a card
    not held or not a фоска of the dealt hand.
    """
    discard = action.cards.mask
    size = discard.bit_count()
    if size == 0:
        return RuleViolation("DRF-4.3", "an exchange discards at least one card; to keep the hand, stand", action)
    if rules.exchange_mode == "incremental" and size > 1:
        return RuleViolation("DRF-4.4", "in the incremental exchange one card is discarded at a time", action)
    missing = discard & ~hand
    if missing:
        return RuleViolation("DRF-4.2", f"only cards in the hand may be discarded, not {CardSet(missing)}", action)
    wrong = discard & ~eligible
    if wrong:
        card = ALL_CARDS[wrong.bit_length() - 1]
        return RuleViolation(
            "DRF-4.2", f"{card} is not a low card («фоска») of the dealt hand and may not be discarded", action
        )
    return RuleViolation("DRF-4.3", f"only {talon_left} cards are left in the talon, not {size}", action)


def next_exchanger_turn(turn: int, talon_left: int) -> int:
    """The next exchange turn (0 eldest, 1 the next, 2 the dealer, 3 play begins) after
    ``turn`` ends, skipping players facing an empty talon [DRF-4.1]."""
    turn += 1
    return 3 if talon_left == 0 else turn


def exchange_cards(
    table: DealTable, action: Exchange, seat: int, hands: _Triple, exchanges: Exchanges, score: Score
) -> _Exchanged:
    """``seat`` discards ``action``'s cards and draws as many from the top of the talon, writing
    them above; in batch mode his turn then ends [DRF-4.2] [DRF-4.3] [DRF-4.4] [DRF-4.5].

    Returns the deal's new pieces as :func:`end_turn` does.

    Raises:
        RuleViolation: naming the rule the exchange breaks (see :func:`refuse_exchange`).
    """
    discard = action.cards.mask
    eligible = discardable(table, hands[seat], table.dealt[seat])
    taken = exchanges.talon_taken
    left = HAND_SIZE - taken
    size = discard.bit_count()
    if not discard or discard & ~eligible or size > left or (table.incremental and size > 1):
        raise refuse_exchange(table.rules, action, hands[seat], eligible, left)
    drawn = 0
    for index in table.talon[taken : taken + size]:
        drawn |= 1 << index
    hand = hands[seat] & ~discard | drawn
    hands = set_seat(hands, seat, hand)
    step, _, discards, bought = exchanges
    discards = set_seat(discards, seat, discards[seat] | discard)
    exchanges = Exchanges(step, taken + size, discards, set_seat(bought, seat, bought[seat] + size))
    score = buy(score, seat, size)
    if table.incremental and size < left:
        return Phase.EXCHANGE, hands, seat, eldest(table.dealer), 0, exchanges, score
    return end_turn(table, hands, exchanges, score)


def end_turn(table: DealTable, hands: _Triple, exchanges: Exchanges, score: Score) -> _Exchanged:
    """Pass the exchange to the next player, or begin the play [DRF-4.1] [DRF-5.1].

    Returns the deal's new pieces: phase, hands, seat to move, leader, the mover's
    legal mask (the leader's hand once the play begins, else 0), exchanges and score.
    """
    step = next_exchanger_turn(exchanges.step, HAND_SIZE - exchanges.talon_taken)
    exchanges = exchanges._replace(step=step)
    if step < 3:
        return Phase.EXCHANGE, hands, (eldest(table.dealer) + step) % 3, eldest(table.dealer), 0, exchanges, score
    leader = opening_leader(table.rules, table.dealer, exchanges.bought)
    return Phase.PLAY, hands, leader, leader, hands[leader], exchanges, score
