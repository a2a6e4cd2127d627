"""The lead and the play: who leads, the duties, who wins a trick [DRF-5.1] [DRF-6.2] [DRF-6.6].

Implements DRF §5 and DRF §6 of ``specs/dreyfus.md`` on top of the shared trick
mechanics in :mod:`fly_rules.tricks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fly_rules.actions import Play
from fly_rules.cards import ACE_HIGH, ALL_CARDS
from fly_rules.dreyfus.deal import eldest
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.errors import RuleViolation
from fly_rules.tricks import Duty, playable, trick_winner, unmet_duty

__all__ = ["PLAYS", "check_play", "legal_play_mask", "opening_leader", "required_mask", "trick_taker"]

PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in ALL_CARDS)
"""One shared :class:`Play` per card index [DRF-6.1]."""

_DUTY_RULE: Final = {Duty.FOLLOW: "DRF-6.2", Duty.TRUMP: "DRF-6.3", Duty.HEAD: "DRF-6.4", Duty.OVERTRUMP: "DRF-6.3"}


def opening_leader(dealer: int, bought: Sequence[int], rules: DreyfusRules) -> int:
    """Who leads to the first trick: eldest, or the first in turn who bought [DRF-5.1]."""
    first = eldest(dealer)
    if rules.first_lead == "first_actual_buyer":
        for offset in range(3):
            seat = (first + offset) % 3
            if bought[seat]:
                return seat
    return first


def required_mask(hand: int, trick: Sequence[int], trump: int | None, rules: DreyfusRules) -> int:
    """The cards of ``hand`` that keep every duty of play [DRF-6.2] [DRF-6.3] [DRF-6.4] [DRF-6.5]."""
    return playable(hand, trick, trump, ACE_HIGH, must_head=rules.must_head_trick, trump_duty=rules.trump_duty)


def legal_play_mask(hand: int, trick: Sequence[int], trump: int | None, rules: DreyfusRules) -> int:
    """The cards the engine accepts: those keeping the duties, or the whole hand when
    revokes are penalised rather than prevented [DRF-6.1] [DRF-10.1]."""
    if rules.revoke_handling == "penalize":
        return hand
    return required_mask(hand, trick, trump, rules)


def check_play(card: int, hand: int, trick: Sequence[int], trump: int | None, rules: DreyfusRules) -> None:
    """Refuse a play the engine does not accept [DRF-6.1] [DRF-6.2] [DRF-6.3] [DRF-6.4].

    Raises:
        RuleViolation: DRF-6.1 for a card not in the hand; DRF-6.2, DRF-6.3 or DRF-6.4
            for the duty of play it breaks.
    """
    if not hand >> card & 1:
        raise RuleViolation("DRF-6.1", "the card is not in the player's hand", ALL_CARDS[card])
    duty = unmet_duty(hand, card, trick, trump, ACE_HIGH, must_head=rules.must_head_trick, trump_duty=rules.trump_duty)
    if duty is not None and rules.revoke_handling == "prevent":
        raise RuleViolation(_DUTY_RULE[duty], f"must {duty.value}", ALL_CARDS[card])


def trick_taker(leader: int, trick: Sequence[int], trump: int | None) -> int:
    """The seat that wins the trick led by ``leader``: highest trump, else highest of the suit led [DRF-6.6]."""
    return (leader + trick_winner(trick, trump, ACE_HIGH)) % 3
