"""Fly's action ids and observation layout, NumPy-free: what every adapter, the batch engine, the table server and
the browser read (the ``action_ids`` of Fly's descriptor in :mod:`fly_rules.registry`).

**Fly's action ids** (:data:`NUM_ACTIONS` = 90), one id per decision:

- ``0..51`` (:data:`PLAY`): play the card of that index [FLY-6.2];
- ``52`` (:data:`~fly_rules.engine.encoding.STAND`): stand, keeping the hand (or, after an exchange under
  ``may_fold_after_exchange``, stay in) [FLY-4.2]; ``53`` (:data:`FOLD`): fold [FLY-5.1];
- ``54..84`` (:data:`EXCHANGE`): id ``EXCHANGE - 1 + m`` exchanges the cards at the hand positions of
  the bits of ``m`` (1..31) [FLY-4.3], position ``j`` being the hand's ``j``-th lowest card index;
- ``85..89`` (:data:`SWAP`): id ``SWAP + j``: the dealer takes the trump card and discards the card at
  hand position ``j`` [FLY-3.3].

An exchange is one id, whatever its size: a hand holds five cards, so 31 ids name every discard set,
read against the hand the observation shows.
"""

from __future__ import annotations

from typing import Final

from fly_rules.actions import Action, Exchange, Fold, Play, Stand
from fly_rules.cards import ALL_CARDS, CardSet
from fly_rules.engine.encoding import STAND, ActionSpace, Segment, checked_id
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.rules import FlyRules

__all__ = [
    "ACTIONS",
    "EXCHANGE",
    "FOLD",
    "NUM_ACTIONS",
    "OBSERVATION_LAYOUT",
    "PLAY",
    "STAND",
    "SWAP",
    "FlyActions",
    "observation_layout",
]

PLAY: Final = 0
"""Id ``PLAY + c`` plays the card of index ``c``."""
FOLD: Final = 53
"""Fold."""
EXCHANGE: Final = 54
"""Id ``EXCHANGE - 1 + m`` exchanges the cards at the hand positions of the bits of ``m`` (1..31)."""
SWAP: Final = 85
"""Id ``SWAP + j``: the dealer takes the trump card and discards the card at hand position ``j``."""
NUM_ACTIONS: Final = 90
"""Distinct action ids of Fly."""


def _positions(hand: int) -> list[int]:
    """The hand's card indices, lowest first: position ``j`` is the ``j``-th."""
    return [card.index for card in CardSet(hand)]


class FlyActions(ActionSpace[Action | SwapTrump]):
    """Fly's action ids (see the module's introduction).

    >>> hand = CardSet.parse("7C 9H JH KS AS").mask
    >>> ACTIONS.action_of(hand, EXCHANGE - 1 + 0b00101), ACTIONS.action_of(hand, SWAP + 4)
    (Exchange(cards=CardSet.parse('7C JH')), SwapTrump(card=Card.parse('AS')))
    >>> ACTIONS.id_of(hand, Exchange("7C JH")), ACTIONS.id_of(hand, Play("9H")), ACTIONS.id_of(hand, Stand())
    (58, 33, 52)
    >>> ACTIONS.words(SwapTrump("AS"))
    'swap-trump A♠'
    """

    size = NUM_ACTIONS
    verbs = {SwapTrump: "swap-trump"}  # noqa: RUF012  # read only

    def action_of(self, hand: int, action_id: int) -> Action | SwapTrump:
        """The engine action of ``action_id`` for a seat holding ``hand`` (a mask).

        Raises:
            ValueError: an id out of range, or naming a hand position the hand does not have.
        """
        action_id = checked_id(action_id, NUM_ACTIONS, "Fly")
        if action_id < STAND:
            return Play(ALL_CARDS[action_id])
        if action_id == STAND:
            return Stand()
        if action_id == FOLD:
            return Fold()
        cards = _positions(hand)
        if action_id < SWAP:
            m = action_id - EXCHANGE + 1
            if m >> len(cards):
                raise ValueError(f"id {action_id} names a hand position past the hand's {len(cards)} cards")
            return Exchange(CardSet(sum(1 << card for j, card in enumerate(cards) if m >> j & 1)))
        if action_id - SWAP >= len(cards):
            raise ValueError(f"id {action_id} names a hand position past the hand's {len(cards)} cards")
        return SwapTrump(ALL_CARDS[cards[action_id - SWAP]])

    def id_of(self, hand: int, action: object) -> int:
        """The id of the engine ``action`` of a seat holding ``hand`` (an exchange or a swap by the
        positions of its cards in the hand).

        Raises:
            ValueError: an exchange or swap of a card not in the hand, or not a Fly action.
        """
        if type(action) is Play:
            return PLAY + action.card.index
        if type(action) is Stand:
            return STAND
        if type(action) is Fold:
            return FOLD
        if type(action) is Exchange and action.cards.mask and action.cards.mask & ~hand == 0:
            mask, positions = action.cards.mask, 0
            while mask:
                low = mask & -mask
                positions |= 1 << (hand & (low - 1)).bit_count()  # the card's place in the hand
                mask ^= low
            return EXCHANGE - 1 + positions
        if type(action) is SwapTrump and hand >> action.card.index & 1:
            below: int = hand & ((1 << action.card.index) - 1)
            return SWAP + below.bit_count()
        raise ValueError(f"{action!r} has no Fly action id for a hand of {CardSet(hand)}")


ACTIONS: Final = FlyActions()
"""Fly's action space."""


def observation_layout(rules: FlyRules) -> tuple[Segment, ...]:
    """The parts of a Fly seat's observation [FLY-5.1]: hand 52 | trump card 52 | current trick by seat
    ``n``×52 | cards each seat played to completed tricks ``n``×52 | declarations per seat (stood,
    folded, cards exchanged / 5, swapped) ``n``×4 | active ``n`` | tricks taken / 5 ``n`` | records /
    start record ``n`` | own seat ``n`` | seat to move ``n`` | dealer ``n`` | phase (exchange, play,
    over) 3 | stock size / 52; ``n`` the number of players.
    """
    return OBSERVATION_LAYOUT


OBSERVATION_LAYOUT: Final = (
    Segment("hand", 52),
    Segment("trump card", 52),
    Segment("current trick", 52, per_seat=True),
    Segment("completed tricks", 52, per_seat=True),
    Segment("declarations", 4, per_seat=True),
    Segment("active", 1, per_seat=True),
    Segment("tricks taken", 1, per_seat=True),
    Segment("records", 1, per_seat=True),
    Segment("own seat", 1, per_seat=True),
    Segment("seat to move", 1, per_seat=True),
    Segment("dealer", 1, per_seat=True),
    Segment("phase", 3),
    Segment("stock", 1),
)
"""The parts of a Fly seat's observation, whatever the rules (:func:`observation_layout`) [FLY-5.1]."""
