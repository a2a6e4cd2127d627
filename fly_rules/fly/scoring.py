"""Scoring: the records, the ace-of-spades bonus and penalty, the remise, exact
zero, overshoot and the exemption [FLY-8.1] [FLY-8.2] [FLY-8.3] [FLY-8.4]
[FLY-8.5] [FLY-8.6] [FLY-9.1] [FLY-9.2] [FLY-9.3] [FLY-11.3].

The functions take the deal's pieces (the :class:`~fly_rules.fly.deal.DealTable` and
the :class:`Score`) and return new pieces; they never see the deal itself.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from fly_rules.cards import Suit
from fly_rules.fly import end
from fly_rules.fly.deal import DealTable

__all__ = ["TRICKS_PER_DEAL", "Score", "add_points", "award_all_tricks", "finish_deal", "take_trick"]

TRICKS_PER_DEAL = 5
"""Five cards each, so five tricks [FLY-6.7]."""


class Score(NamedTuple):
    """What changes once per trick: the records, tricks, the lead, the A♠, winners [FLY-6.6] [FLY-8.1]."""

    records: tuple[int, ...]
    """Every seat's record [FLY-8.1]."""
    tricks_taken: tuple[int, ...]
    """Tricks taken per seat [FLY-8.2]."""
    last_trick_of: tuple[int, ...]
    """Per seat, the number (1-5) of the last trick it took; 0 for none [FLY-9.4]."""
    completed: tuple[tuple[tuple[int, int], ...], ...] = ()
    """Completed tricks as (seat, card index) pairs."""
    leader: int | None = None
    """The seat that led the current trick; None before the play."""
    ace_holder: int | None = None
    """The seat holding A♠ when play began; None for none [FLY-8.3]."""
    ace_bonus_due: bool = False
    """Whether the A♠ holder has yet to take his first trick [FLY-8.3]."""
    winners: tuple[int, ...] = ()
    """The seats that brought their record to zero [FLY-9.1]."""
    void: bool = False
    """The deal was void (everyone folded, or a lone player under ``lone_player="void"``) [FLY-5.4]."""
    redeal: bool = False
    """The next deal is by the same dealer (``all_fold="redeal_same_dealer"``) [FLY-5.4]."""
    in_play: int = 0
    """How many players play to each trick (the active ones) [FLY-6.2]."""
    next_in_play: tuple[int, ...] = ()
    """``next_in_play[s]``: the next active seat to the left of ``s`` [FLY-6.2]."""
    revokes: tuple[int, ...] = ()
    """Positions in the current trick that were revokes (adjudication mode) [FLY-11.2]."""

    @property
    def over(self) -> bool:
        """Whether the deal has ended: a winner, all five tricks played, or void [FLY-10.3]."""
        return bool(self.winners) or self.void or len(self.completed) == TRICKS_PER_DEAL


_new: Final = tuple.__new__  # a named tuple built without its keyword-handling __new__


def add_points(records: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    """``records`` with ``points`` added to ``seat``'s record [FLY-8.4]."""
    changed = list(records)
    changed[seat] += points
    return tuple(changed)


def take_trick(
    table: DealTable, score: Score, active: tuple[bool, ...], seat: int, trick: tuple[tuple[int, int], ...]
) -> Score:
    """``score`` with the completed ``trick`` credited to ``seat`` and its points written
    off [FLY-8.2] [FLY-8.3] [FLY-9.1]; after the fifth trick, the deal settled.

    An overshoot caused by the A♠ bonus on the holder's first trick counts as
    zero [FLY-9.3]; any other overshoot sends the record back to the start at
    once [FLY-9.2]. In ``stop_mode="immediate"`` a record that reaches exactly
    zero ends the deal and the match at once.
    """
    rules = table.rules
    completed = (*score.completed, trick)
    number = len(completed)
    taken = list(score.tricks_taken)
    taken[seat] += 1
    last = list(score.last_trick_of)
    last[seat] = number
    bonus = 0
    bonus_due = score.ace_bonus_due
    if bonus_due and seat == score.ace_holder:
        bonus = rules.ace_bonus_trumps if table.trump == Suit.SPADES else rules.ace_bonus  # FLY-8.3
        bonus_due = False
    records = list(score.records)
    record = records[seat] - rules.trick_value - bonus
    if record < 0:
        record = 0 if bonus else rules.start_record  # FLY-9.3, FLY-9.2
    records[seat] = record
    after = _new(
        Score,
        (
            tuple(records),
            tuple(taken),
            tuple(last),
            completed,
            seat,
            score.ace_holder,
            bonus_due,
            end.immediate_winners(rules, seat, record),
            score.void,
            score.redeal,
            score.in_play,
            score.next_in_play,
            (),  # the revokes of the next trick
        ),
    )
    if number == TRICKS_PER_DEAL and not after.winners:
        return finish_deal(table, after, active)
    return after


def finish_deal(table: DealTable, score: Score, active: tuple[bool, ...]) -> Score:
    """Settle the end of a completed deal [FLY-8.4] [FLY-8.5] [FLY-8.6].

    Active players with no trick write a remise (the A♠ holder the larger
    penalty); folded players are untouched. Then the winners at the end of the
    deal, if the rules wait for it (:func:`fly_rules.fly.end.winners_at_end`).
    """
    rules = table.rules
    records = list(score.records)
    spades = table.trump == Suit.SPADES
    for seat in range(rules.players):
        if active[seat] and score.tricks_taken[seat] == 0:
            if seat == score.ace_holder:
                records[seat] += rules.ace_no_trick_penalty_trumps if spades else rules.ace_no_trick_penalty
            else:
                records[seat] += rules.remise
    winners = end.winners_at_end(rules, records, score.last_trick_of)
    return score._replace(records=tuple(records), winners=winners)


def award_all_tricks(
    table: DealTable, score: Score, active: tuple[bool, ...], hand: int, seat: int
) -> tuple[Score, int]:
    """``seat`` takes all five tricks without play: the lone active player [FLY-5.5],
    or a flush under ``flush_wins`` [FLY-12.1]. His cards go to the tricks one by
    one, so the zero rule applies trick by trick; returns the score and what is
    left of his hand (cards not needed once his record reached zero)."""
    while not score.over:
        low = hand & -hand
        hand ^= low
        score = take_trick(table, score, active, seat, ((seat, low.bit_length() - 1),))
    return score, hand
