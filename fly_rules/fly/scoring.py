"""Scoring: the records, the ace-of-spades bonus and penalty, the remise, exact
zero, overshoot and the exemption [FLY-8.1] [FLY-8.2] [FLY-8.3] [FLY-8.4]
[FLY-8.5] [FLY-8.6] [FLY-9.1] [FLY-9.2] [FLY-9.3] [FLY-9.4] [FLY-11.3].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fly_rules.cards import Suit
from fly_rules.fly.state import Phase

if TYPE_CHECKING:
    from fly_rules.fly.state import FlyDeal

__all__ = ["TRICKS_PER_DEAL", "add_points", "award_all_tricks", "finish_deal", "take_trick"]

TRICKS_PER_DEAL = 5
"""Five cards each, so five tricks [FLY-6.7]."""


def add_points(records: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    """``records`` with ``points`` added to ``seat``'s record [FLY-8.4]."""
    changed = list(records)
    changed[seat] += points
    return tuple(changed)


def _ace_bonus(deal: FlyDeal) -> int:
    rules = deal.rules
    return rules.ace_bonus_trumps if deal.trump_card.suit == Suit.SPADES else rules.ace_bonus


def take_trick(deal: FlyDeal, seat: int, trick: tuple[tuple[int, int], ...], **changes: Any) -> FlyDeal:
    """``deal`` with ``changes``, the completed ``trick`` credited to ``seat`` and its
    points written off [FLY-8.2] [FLY-8.3] [FLY-9.1].

    An overshoot caused by the A♠ bonus on the holder's first trick counts as
    zero [FLY-9.3]; any other overshoot sends the record back to the start at
    once [FLY-9.2]. In ``stop_mode="immediate"`` a record that reaches exactly
    zero ends the deal and the match at once.
    """
    rules = deal.table.rules
    completed = (*deal.tally.completed, trick)
    number = len(completed)
    taken = list(deal.tally.tricks_taken)
    taken[seat] += 1
    last = list(deal.tally.last_trick_of)
    last[seat] = number
    bonus = 0
    bonus_due = deal.tally.ace_bonus_due
    if bonus_due and seat == deal.tally.ace_holder:
        bonus = _ace_bonus(deal)  # FLY-8.3
        bonus_due = False
    records = list(changes.pop("records", deal.records))
    record = records[seat] - rules.trick_value - bonus
    if record < 0:
        record = 0 if bonus else rules.start_record  # FLY-9.3, FLY-9.2
    winners: tuple[int, ...] = ()
    if record == 0 and rules.stop_mode == "immediate":
        winners = (seat,)  # FLY-9.1
    records[seat] = record
    after = deal._next(
        completed=completed,
        tricks_taken=tuple(taken),
        last_trick_of=tuple(last),
        records=tuple(records),
        ace_bonus_due=bonus_due,
        leader=seat,
        turn=-1 if winners else seat,
        winners=winners,
        phase=Phase.OVER if winners else Phase.PLAY,
        **changes,
    )
    if number == TRICKS_PER_DEAL and not winners:
        return finish_deal(after)
    return after


def finish_deal(deal: FlyDeal) -> FlyDeal:
    """Settle the end of a completed deal [FLY-8.4] [FLY-8.5] [FLY-8.6] [FLY-9.4].

    Active players with no trick write a remise (the A♠ holder the larger
    penalty); folded players are untouched. In ``stop_mode="end_of_deal"``
    the players at zero win, the earliest to get there first.
    """
    rules = deal.rules
    records = list(deal.records)
    spades = deal.trump_card.suit == Suit.SPADES
    for seat in range(rules.players):
        if deal.active[seat] and deal.tricks_taken[seat] == 0:
            if seat == deal.tally.ace_holder:
                records[seat] += rules.ace_no_trick_penalty_trumps if spades else rules.ace_no_trick_penalty
            else:
                records[seat] += rules.remise
    winners: tuple[int, ...] = ()
    if rules.stop_mode == "end_of_deal":
        zeros = sorted((deal.tally.last_trick_of[s], s) for s in range(rules.players) if records[s] == 0)
        winners = tuple(s for _, s in zeros)
        if rules.tie_break == "earliest":
            winners = winners[:1]
    return deal._next(records=tuple(records), winners=winners, phase=Phase.OVER, turn=-1)


def award_all_tricks(deal: FlyDeal, seat: int) -> FlyDeal:
    """``seat`` takes all five tricks without play: the lone active player [FLY-5.5],
    or a flush under ``flush_wins`` [FLY-12.1]. His cards go to the tricks one by
    one, so the zero rule applies trick by trick."""
    hand = deal.hand_masks[seat]
    while deal.phase is Phase.PLAY:
        low = hand & -hand
        hand ^= low
        hands = list(deal.hand_masks)
        hands[seat] = hand
        deal = take_trick(deal, seat, ((seat, low.bit_length() - 1),), hand_masks=tuple(hands))
    return deal
