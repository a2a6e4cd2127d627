"""Dreyfus's action ids and observation layout, NumPy-free: what every adapter, the batch engine, the table server
and the browser read (the ``action_ids`` of Dreyfus's descriptor in :mod:`fly_rules.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from fly_rules._choices import SubsetChoices, bits
from fly_rules.actions import Action, Exchange, Play, Stand
from fly_rules.cards import ALL_CARDS, CardSet
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.engine.encoding import STAND, ActionSpace, Marking, Position, Segment, cards_text, checked_id
from fly_rules.engine.protocols import DealState, Phase, Rules

__all__ = ["ACTIONS", "NUM_ACTIONS", "OBSERVATION_LAYOUT", "STAND", "DreyfusActions", "observation_layout"]

NUM_ACTIONS: Final = 53
"""Distinct action ids of Dreyfus."""


class DreyfusActions(ActionSpace[Action]):
    """Dreyfus's action ids (:data:`NUM_ACTIONS` = 53), so that a twelve-card hand's 4,096 discard sets need
    no more:

    - in the play, ``c`` (0..51) plays the card of index ``c`` [DRF-6.1];
    - in the exchange, ``c`` marks the card of index ``c`` for discard, each mark above the last, and
      ``52`` (:data:`~fly_rules.engine.encoding.STAND`) exchanges the marked cards, or stands when none
      is marked [DRF-4.3]: the marks of a set in ascending order then ``STAND`` are the engine's one
      ``Exchange`` of that set. A mark is legal exactly when the marked set with the new card is itself
      a legal exchange, so the marks reach every legal discard set and nothing else (the legal sets are
      closed under taking subsets). Under ``exchange_mode="incremental"`` [DRF-4.4] ``c`` is at once the
      one-card exchange of ``c``, as the rules say, and ``STAND`` ends the turn.

    >>> from fly_rules import dreyfus
    >>> deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=0).deal
    >>> [ACTIONS.text(deal, 0, i) for i in ACTIONS.legal_ids(deal)][:3]
    ['mark 8♣', 'mark 4♦', 'mark 8♦']
    >>> ACTIONS.text(deal, CardSet.parse("8C 4D").mask, STAND)
    'exchange 8♣ 4♦'
    >>> ACTIONS.id_of_text(deal, 0, "mark 4♦")
    15
    """

    size = NUM_ACTIONS
    marks = True

    def action_of(self, hand: int, action_id: int) -> Action:
        """The engine action of ``action_id`` in the play (a mark is no engine action by itself).

        Raises:
            ValueError: an id out of range.
        """
        action_id = checked_id(action_id, NUM_ACTIONS, "Dreyfus")
        return Stand() if action_id == STAND else Play(ALL_CARDS[action_id])

    def id_of(self, hand: int, action: object) -> int:
        """The id of a play or a stand (an exchange is :meth:`ids`: marks, then ``STAND``).

        Raises:
            ValueError: an exchange, or not a Dreyfus action.
        """
        if type(action) is Play:
            return action.card.index
        if type(action) is Stand:
            return STAND
        if type(action) is Exchange:
            raise ValueError(f"{action!r} has no single id: an exchange is marked card by card, then STAND")
        raise ValueError(f"{action!r} is not a Dreyfus action")

    def legal_ids(self, deal: DealState, marked: int = 0) -> list[int]:
        """The legal ids of the seat to move, ascending, given the cards it has marked so far."""
        seat = deal.to_move
        if seat is None or deal.phase is not Phase.EXCHANGE:
            return super().legal_ids(deal, marked)
        legal = deal.legal_actions()
        allowed: Callable[[int], bool]
        if isinstance(legal, SubsetChoices):
            allowed = legal.mask_in
        else:
            allowed = {a.cards.mask for a in legal if type(a) is Exchange}.__contains__
        floor = marked.bit_length()  # marks go up: only cards above the highest marked one
        ids = [card for card in bits(deal.hand_masks[seat] >> floor << floor) if allowed(marked | 1 << card)]
        return [*ids, STAND]

    def meaning(self, deal: Position, marked: int, action_id: int) -> Marking:
        """What ``action_id`` (legal) does: a mark, an exchange (``STAND`` after marks; any mark in the
        incremental mode) or a play or stand.

        Raises:
            ValueError: an id out of range.
        """
        action_id = checked_id(action_id, NUM_ACTIONS, "Dreyfus")
        if deal.phase is Phase.EXCHANGE and action_id != STAND:
            cards = marked | 1 << action_id
            if _immediate(deal.rules):
                return Marking("exchange", cards, Exchange(CardSet(cards)))
            return Marking("mark", cards)
        if action_id == STAND and marked:
            return Marking("exchange", marked, Exchange(CardSet(marked)))
        return Marking("act", action=self.action_of(0, action_id))

    def ids(self, deal: Position, action: object, marked: int = 0) -> list[int]:
        """The ids of ``action`` from the marks ``marked``: an exchange's cards still to mark, ascending,
        then ``STAND`` (in the incremental mode, its one card); a play's or a stand's one id.

        Raises:
            ValueError: an exchange the marks made so far do not begin.
        """
        if type(action) is not Exchange:
            return [self.id_of(0, action)]
        wanted = action.cards.mask
        rest = wanted & ~marked
        if marked & ~wanted or rest & ((1 << marked.bit_length()) - 1):
            raise ValueError(f"the cards marked, {CardSet(marked)}, do not begin {action}")
        marks = list(bits(rest))
        return marks if _immediate(deal.rules) else [*marks, STAND]

    def choices(self, deal: DealState, marked: int) -> Sequence[Action]:
        """The engine actions still open once ``marked`` is marked: the exchanges of those cards and more,
        each above the highest marked one (all the legal actions when nothing is marked)."""
        legal = deal.legal_actions()
        if not marked:
            return legal
        floor = marked.bit_length()
        return [
            action
            for action in legal
            if type(action) is Exchange
            and action.cards.mask & marked == marked
            and (action.cards.mask ^ marked) >> floor << floor == action.cards.mask ^ marked
        ]

    def text(self, deal: Position | None, marked: int, action_id: int) -> str:
        """``play 10♥``, ``stand``, ``mark 7♣``, ``exchange 7♣ 8♦``."""
        exchange = deal is not None and deal.phase is Phase.EXCHANGE
        if deal is not None and exchange and 0 <= action_id < STAND:
            verb = "exchange" if _immediate(deal.rules) else "mark"
            return f"{verb} {ALL_CARDS[action_id].symbol}"
        if action_id == STAND and marked:
            return "exchange " + cards_text(CardSet(marked))
        return super().text(deal, marked, action_id)


def _immediate(rules: Rules) -> bool:
    """Whether a mark is itself a one-card exchange (the incremental mode) [DRF-4.4]."""
    return isinstance(rules, DreyfusRules) and rules.exchange_mode == "incremental"


ACTIONS: Final = DreyfusActions()
"""Dreyfus's action space."""


def observation_layout(rules: DreyfusRules) -> tuple[Segment, ...]:
    """The parts of a Dreyfus seat's observation [DRF-11.1]: hand 52 | marked 52 | own discards 52 | every
    seat's discards when revealed 3×52 | the talon left when revealed 52 | contract (♣ ♦ ♥ ♠, no trump) 5 |
    current trick by seat 3×52 | cards each seat played to completed tricks 3×52 | cards bought / 12, 3 |
    talon left / 12 | tricks taken / 12, 3 | upper records / target 3 | lower records / target 3 | leader 3 |
    own seat 3 | seat to move 3 | dealer 3 | phase (exchange, play, over) 3.
    """
    return OBSERVATION_LAYOUT


OBSERVATION_LAYOUT: Final = (
    Segment("hand", 52),
    Segment("marked", 52),
    Segment("own discards", 52),
    Segment("revealed discards", 52, per_seat=True),
    Segment("revealed talon", 52),
    Segment("contract", 5),
    Segment("current trick", 52, per_seat=True),
    Segment("completed tricks", 52, per_seat=True),
    Segment("bought", 1, per_seat=True),
    Segment("talon left", 1),
    Segment("tricks taken", 1, per_seat=True),
    Segment("upper", 1, per_seat=True),
    Segment("lower", 1, per_seat=True),
    Segment("leader", 1, per_seat=True),
    Segment("own seat", 1, per_seat=True),
    Segment("seat to move", 1, per_seat=True),
    Segment("dealer", 1, per_seat=True),
    Segment("phase", 3),
)
"""The parts of a Dreyfus seat's observation, whatever the rules (:func:`observation_layout`) [DRF-11.1]."""
