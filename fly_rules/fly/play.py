"""Trick play: the lead, the duties, the ace-of-spades privilege, the trick's
winner and revokes [FLY-6.1] [FLY-6.2] [FLY-6.3] [FLY-6.4] [FLY-6.5] [FLY-6.6]
[FLY-6.7] [FLY-7.1] [FLY-7.2] [FLY-7.3] [FLY-7.4] [FLY-7.5] [FLY-7.6]
[FLY-11.1] [FLY-11.2] [FLY-5.5] [FLY-12.1].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fly_rules.actions import Play
from fly_rules.cards import ALL_CARDS, SUIT_MASKS, Suit
from fly_rules.errors import RuleViolation
from fly_rules.fly import scoring
from fly_rules.fly.state import ACE_OF_SPADES, Phase
from fly_rules.tricks import Duty, playable, trick_winner, unmet_duty

if TYPE_CHECKING:
    from fly_rules.fly.state import FlyDeal

__all__ = ["apply_play", "begin_play", "legal_plays", "playable_mask", "winning_position"]

_AS_BIT = 1 << ACE_OF_SPADES
_PLAYS = tuple(Play(card) for card in ALL_CARDS)
_DUTY_RULES = {Duty.FOLLOW: "FLY-6.3", Duty.HEAD: "FLY-6.3", Duty.TRUMP: "FLY-6.4", Duty.OVERTRUMP: "FLY-6.4"}


def _privileged(deal: FlyDeal) -> bool:
    """Whether the ace-of-spades privilege exists in this deal [FLY-7.1] [FLY-7.5]."""
    return deal.rules.ace_of_spades_mode != "none" and deal.trump_card.suit != Suit.SPADES


def _trump_ace(deal: FlyDeal) -> int:
    return deal.trump_card.suit * 13 + 12


def _situation(deal: FlyDeal) -> dict[str, Any]:
    """The trick, trump and duty options, as keyword arguments of :mod:`fly_rules.tricks`."""
    rules = deal.rules
    return {
        "trick": deal.trick_cards,
        "trump": deal.trump_card.suit,
        "order": rules.rank_order,
        "must_head": rules.must_head_trick,
        "trump_duty": rules.trump_duty,
    }


def _duties(deal: FlyDeal, hand: int) -> int:
    """The cards of ``hand`` allowed by the plain duties, before any A♠ privilege [FLY-6.3] [FLY-6.4]."""
    return playable(hand, **_situation(deal))


def playable_mask(deal: FlyDeal, seat: int) -> int:
    """The cards ``seat`` may play to the current trick [FLY-6.3] [FLY-6.4] [FLY-6.5] [FLY-7.2]."""
    hand = deal.hand_masks[seat]
    trick = deal.trick_cards
    if not trick or not _privileged(deal):
        return _duties(deal, hand)
    mode = deal.rules.ace_of_spades_mode
    if mode == "top_trump":
        return _top_trump_playable(deal, hand)
    allowed = _duties(deal, hand)
    if mode == "led_trump_ace" and trick[0] == _trump_ace(deal):
        # FLY-7.2: the holder may play the A♠ to a led trump ace whatever else he holds.
        allowed |= hand & _AS_BIT
    return allowed


def _top_trump_playable(deal: FlyDeal, hand: int) -> int:
    """Duties when the A♠ is a permanent top trump that may be played at any time [FLY-7.1]."""
    rules = deal.rules
    trump = deal.trump_card.suit
    trick = deal.trick_cards
    rest = hand & ~_AS_BIT
    if ACE_OF_SPADES in trick:
        # Nothing can beat the A♠ any more: only the plain duties remain.
        led = trump if trick[0] == ACE_OF_SPADES else trick[0] // 13
        in_suit = rest & SUIT_MASKS[led]
        if in_suit:
            return in_suit
        trumps = rest & SUIT_MASKS[trump]
        return trumps if trumps and rules.trump_duty != "overtrump_or_free" else rest
    allowed = _duties(deal, rest)
    led = trick[0] // 13
    if hand & _AS_BIT and not rest & (SUIT_MASKS[led] | SUIT_MASKS[trump]):
        return _AS_BIT  # void in the suit led, and the A♠ is his only trump
    return allowed | hand & _AS_BIT


def legal_plays(deal: FlyDeal) -> tuple[Play, ...]:
    """``Play`` for every card the player to move may play, in canonical order [FLY-6.2]."""
    mask = playable_mask(deal, deal.turn)
    plays = []
    while mask:
        low = mask & -mask
        plays.append(_PLAYS[low.bit_length() - 1])
        mask ^= low
    return tuple(plays)


def winning_position(deal: FlyDeal, cards: tuple[int, ...]) -> int:
    """The position in ``cards`` (a full trick) of the card that wins it [FLY-6.6] [FLY-7.3] [FLY-7.4]."""
    if _privileged(deal) and ACE_OF_SPADES in cards:
        mode = deal.rules.ace_of_spades_mode
        if mode == "top_trump" or cards[0] == _trump_ace(deal):
            return cards.index(ACE_OF_SPADES)
    return trick_winner(cards, deal.trump_card.suit, deal.rules.rank_order)


def _why_not(deal: FlyDeal, card: int, action: Play) -> RuleViolation:
    seat = deal.turn
    hand = deal.hand_masks[seat]
    if not hand >> card & 1:
        return RuleViolation("FLY-6.2", f"seat {seat} does not hold {ALL_CARDS[card]}", action)
    top_trump = deal.rules.ace_of_spades_mode == "top_trump" and _privileged(deal)
    duty = unmet_duty(hand & ~_AS_BIT if top_trump else hand, card, **_situation(deal))
    led = ALL_CARDS[deal.trick_cards[0]]
    if duty is None:
        return RuleViolation("FLY-7.1", f"the ace of spades must be played here ({ALL_CARDS[card]} refused)", action)
    return RuleViolation(_DUTY_RULES[duty], f"must {duty.value} ({led} led, {ALL_CARDS[card]} played)", action)


def apply_play(deal: FlyDeal, action: Play) -> FlyDeal:
    """The deal after the player to move plays ``action.card`` [FLY-6.2] [FLY-11.1] [FLY-11.2]."""
    seat = deal.turn
    card = action.card.index
    records = deal.records
    revokes = deal.revokes
    if not playable_mask(deal, seat) >> card & 1:
        refusal = _why_not(deal, card, action)
        if deal.rules.revoke_mode != "adjudicate" or refusal.rule == "FLY-6.2":
            raise refusal
        # FLY-11.2: the revoke stands, the offender writes a remise at once.
        records = scoring.add_points(records, seat, deal.rules.remise)
        revokes = (*revokes, len(deal.trick_cards))
    hands = list(deal.hand_masks)
    hands[seat] &= ~(1 << card)
    trick = (*deal.trick_cards, card)
    seats = (*deal.trick_seats, seat)
    history = deal._record(action)
    if len(trick) < sum(deal.active):
        return deal._next(
            hand_masks=tuple(hands),
            trick_cards=trick,
            trick_seats=seats,
            revokes=revokes,
            records=records,
            turn=_next_active(deal, seat),
            history=history,
        )
    # FLY-11.2: a revoked card cannot win; the trick goes to the best lawful card.
    lawful = tuple(c for i, c in enumerate(trick) if i not in revokes)
    winner = seats[trick.index(lawful[winning_position(deal, lawful)])]
    after = deal._next(
        hand_masks=tuple(hands),
        trick_cards=(),
        trick_seats=(),
        revokes=(),
        records=records,
        completed=(*deal.completed, tuple(zip(seats, trick, strict=True))),
        history=history,
    )
    return scoring.take_trick(after, winner)


def _next_active(deal: FlyDeal, seat: int) -> int:
    seat = deal.rules.left_of(seat)
    while not deal.active[seat]:
        seat = deal.rules.left_of(seat)
    return seat


def begin_play(deal: FlyDeal) -> FlyDeal:
    """Start the play once every declaration is made [FLY-5.4] [FLY-5.5] [FLY-6.1] [FLY-12.1]."""
    rules = deal.rules
    count = sum(deal.active)
    if count == 0:
        # FLY-5.4: everyone folded.
        return deal._next(phase=Phase.OVER, turn=-1, void=True, redeal=rules.all_fold == "redeal_same_dealer")
    if count == 1 and rules.lone_player == "void":
        return deal._next(phase=Phase.OVER, turn=-1, void=True)
    ace_holder = -1
    for seat, mask in enumerate(deal.hand_masks):
        if deal.active[seat] and mask & _AS_BIT:
            ace_holder = seat
    leader = _next_active(deal, deal.dealer)
    started = deal._next(
        phase=Phase.PLAY,
        turn=leader,
        leader=leader,
        ace_holder=ace_holder,
        ace_bonus_due=ace_holder >= 0,
        tricks_taken=(0,) * rules.players,
        last_trick_of=(0,) * rules.players,
    )
    if count == 1:
        return scoring.award_all_tricks(started, leader)  # FLY-5.5
    if rules.flush_wins:
        seat = leader
        for _ in range(rules.players):
            mask = started.hand_masks[seat]
            if started.active[seat] and any(mask & ~suit_mask == 0 for suit_mask in SUIT_MASKS):
                return scoring.award_all_tricks(started, seat)  # FLY-12.1
            seat = rules.left_of(seat)
    return started
