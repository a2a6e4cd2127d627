"""The lead and the play: who leads, the duties, playing a card, who wins a trick [DRF-5.1] [DRF-6.1] [DRF-6.6].

Implements DRF §5 and DRF §6 of ``specs/dreyfus.md`` on top of the shared trick
mechanics in :mod:`fly_rules.tricks`. Pure functions over a deal's pieces (masks,
card indices, the :class:`~fly_rules.dreyfus.deal.DealTable` and the
:class:`~fly_rules.dreyfus.scoring.Score`); the deal state calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fly_rules.actions import Play
from fly_rules.cards import ACE_HIGH, ALL_CARDS
from fly_rules.dreyfus.deal import DealTable, eldest
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.scoring import Score, revoke, score_deal, take_trick
from fly_rules.engine import Phase
from fly_rules.errors import RuleViolation
from fly_rules.tricks import Duty, playable, trick_winner, unmet_duty

__all__ = [
    "PLAYS",
    "legal_play_mask",
    "opening_leader",
    "play_card",
    "refuse_play",
    "required_mask",
    "trick_taker",
]

PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in ALL_CARDS)
"""One shared :class:`Play` per card index [DRF-6.1]."""

_DUTY_RULE: Final = {Duty.FOLLOW: "DRF-6.2", Duty.TRUMP: "DRF-6.3", Duty.HEAD: "DRF-6.4", Duty.OVERTRUMP: "DRF-6.3"}
_TRICKS_PER_DEAL: Final = 12
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_Triple = tuple[int, int, int]
_Played = tuple[Phase, _Triple, tuple[int, ...], int | None, int, int, tuple[tuple[int, tuple[int, ...]], ...], Score]


def opening_leader(rules: DreyfusRules, dealer: int, bought: Sequence[int]) -> int:
    """Who leads to the first trick: eldest, or the first in turn who bought [DRF-5.1]."""
    first = eldest(dealer)
    if rules.first_lead == "first_actual_buyer":
        for offset in range(3):
            seat = (first + offset) % 3
            if bought[seat]:
                return seat
    return first


def required_mask(table: DealTable, hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that keep every duty of play [DRF-6.2] [DRF-6.3] [DRF-6.4] [DRF-6.5]; with no trump,
    any card when void in the suit led [DRF-3.2]."""
    return playable(hand, trick, table.trump, ACE_HIGH, must_head=table.must_head, trump_duty=table.trump_duty)


def legal_play_mask(table: DealTable, hand: int, trick: Sequence[int]) -> int:
    """The cards the engine accepts: those keeping the duties, or the whole hand when
    revokes are penalised rather than prevented [DRF-6.1] [DRF-10.1]."""
    if table.penalize:
        return hand
    return required_mask(table, hand, trick)


def refuse_play(table: DealTable, action: Play, hand: int, trick: Sequence[int]) -> RuleViolation:
    """Why the engine refuses ``action`` (a card outside the legal mask) [DRF-6.1] [DRF-6.2] [DRF-6.3] [DRF-6.4].

    Returns the error to raise: DRF-6.1 for a card not in the hand; DRF-6.2, DRF-6.3
    or DRF-6.4 for the duty of play it breaks.
    """
    card = action.card.index
    if not hand >> card & 1:
        return RuleViolation("DRF-6.1", "the card is not in the player's hand", action)
    duty = unmet_duty(hand, card, trick, table.trump, ACE_HIGH, must_head=table.must_head, trump_duty=table.trump_duty)
    assert duty is not None, "a held card outside the legal mask breaks a duty"
    return RuleViolation(
        _DUTY_RULE[duty], f"must {duty.value} ({ALL_CARDS[trick[0]]} led, {action.card} played)", action
    )


def trick_taker(leader: int, trick: Sequence[int], trump: int | None) -> int:
    """The seat that wins the trick led by ``leader``: highest trump, else highest of the suit led [DRF-6.6]."""
    return (leader + trick_winner(trick, trump, ACE_HIGH)) % 3


def play_card(
    table: DealTable,
    action: Play,
    seat: int,
    legal: int,
    hands: _Triple,
    trick: tuple[int, ...],
    leader: int,
    tricks: tuple[tuple[int, tuple[int, ...]], ...],
    score: Score,
) -> _Played:
    """``seat`` plays ``action``'s card; the third card completes the trick, which is taken
    and scored, and the twelfth trick ends the deal [DRF-6.1] [DRF-6.6] [DRF-6.7] [DRF-7.2] [DRF-10.1].

    ``legal`` is the mask of cards the engine accepts from ``seat`` now
    (:func:`legal_play_mask`). Returns the deal's new pieces: phase, hands, current
    trick, seat to move, leader, the next player's legal mask, completed tricks
    (leader, card indices) and score.

    Raises:
        RuleViolation: naming the rule the play breaks (see :func:`refuse_play`).
    """
    card = action.card.index
    hand = hands[seat]
    if not legal >> card & 1:
        raise refuse_play(table, action, hand, trick)
    if table.penalize and not required_mask(table, hand, trick) >> card & 1:
        score = revoke(table.rules, score, seat)
    hand ^= 1 << card  # held: the legal cards are all in the hand
    if seat == 0:
        hands = (hand, hands[1], hands[2])
    elif seat == 1:
        hands = (hands[0], hand, hands[2])
    else:
        hands = (hands[0], hands[1], hand)
    trick = (*trick, card)
    if len(trick) < 3:
        after = seat + 1 if seat < 2 else 0  # DRF-5.3: the next to the left
        hand = hands[after]
        if not table.penalize:  # the next player's duties [DRF-6.2] [DRF-6.3] [DRF-6.4] [DRF-6.5] [DRF-3.2]
            hand = playable(hand, trick, table.trump, ACE_HIGH, must_head=table.must_head, trump_duty=table.trump_duty)
        return _PLAY, hands, trick, after, leader, hand, tricks, score
    taker = trick_taker(leader, trick, table.trump)
    score = take_trick(table.rules, score, taker)
    tricks = (*tricks, (leader, trick))
    if len(tricks) < _TRICKS_PER_DEAL:
        return _PLAY, hands, (), taker, taker, hands[taker], tricks, score  # DRF-5.2: the taker leads, any card
    return _OVER, hands, (), None, taker, 0, tricks, score_deal(table.rules, score)
