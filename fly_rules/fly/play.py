"""Trick play: the lead, the duties, the ace-of-spades privilege, the trick's
winner and revokes [FLY-6.1] [FLY-6.2] [FLY-6.3] [FLY-6.4] [FLY-6.5] [FLY-6.6]
[FLY-6.7] [FLY-7.1] [FLY-7.2] [FLY-7.3] [FLY-7.4] [FLY-7.5] [FLY-7.6]
[FLY-11.1] [FLY-11.2] [FLY-5.5] [FLY-12.1].

The functions take the deal's pieces (the :class:`~fly_rules.fly.deal.DealTable`, the
:class:`~fly_rules.fly.scoring.Score`, the hands as masks, the current trick as
card indices) and return new pieces; they never see the deal itself.
"""

from __future__ import annotations

import functools
from typing import Final

from fly_rules.actions import Play
from fly_rules.cards import ALL_CARDS, SUIT_MASKS
from fly_rules.errors import RuleViolation
from fly_rules.fly import scoring
from fly_rules.fly.deal import ACE_OF_SPADES, DealTable
from fly_rules.fly.scoring import Score
from fly_rules.tricks import Duty, TrumpDuty, playable, trick_winner, unmet_duty

__all__ = [
    "begin_play",
    "next_active",
    "play_card",
    "playable_mask",
    "refusal",
    "trick_seats",
    "winning_position",
]

_AS_BIT: Final = 1 << ACE_OF_SPADES
_new: Final = tuple.__new__
_DUTY_RULES: Final = {Duty.FOLLOW: "FLY-6.3", Duty.HEAD: "FLY-6.3", Duty.TRUMP: "FLY-6.4", Duty.OVERTRUMP: "FLY-6.4"}

_Played = tuple[int | None, tuple[int, ...], Score, tuple[int, ...]]
"""What playing a card leaves: the seat to move next (None when the deal is over),
the hands, the score and the current trick's cards."""


def playable_mask(table: DealTable, hand: int, trick: tuple[int, ...]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` [FLY-6.3] [FLY-6.4] [FLY-6.5] [FLY-7.2]."""
    if not trick:
        return hand
    if not table.privileged:  # FLY-7.1: no privilege (spades trump, or ace_of_spades_mode="none")
        return playable(hand, trick, table.trump, table.order, must_head=table.must_head, trump_duty=table.trump_duty)
    if table.top_trump:
        return _top_trump_playable(table, hand, trick)
    if trick[0] != table.trump_ace:
        return playable(hand, trick, table.trump, table.order, must_head=table.must_head, trump_duty=table.trump_duty)
    if ACE_OF_SPADES in trick:
        # FLY-7.3: the A♠ holds the trick, so no later card can head it: plain following only.
        return playable(hand, trick, table.trump, table.order, must_head=False, trump_duty=table.trump_duty)
    allowed = playable(hand, trick, table.trump, table.order, must_head=table.must_head, trump_duty=table.trump_duty)
    if table.rules.ace_of_spades_mode == "led_trump_ace":  # FLY-7.1: else void only (judged as a spade)
        # FLY-7.2: the holder may play the A♠ to a led trump ace whatever else he holds.
        allowed |= hand & _AS_BIT
    return allowed


def _top_trump_playable(table: DealTable, hand: int, trick: tuple[int, ...]) -> int:
    """Duties when the A♠ is a permanent top trump that may also be played at any time [FLY-7.1].

    The A♠ counts as the highest trump for following, heading and overtrumping,
    so the ordinary duties are applied with its suit and rank changed; a rare
    option, so this is written plainly rather than with masks.
    """
    trump = table.trump
    strength = table.order.strength

    def suit(card: int) -> int:
        return trump if card == ACE_OF_SPADES else card // 13

    def power(card: int) -> int:
        return 99 if card == ACE_OF_SPADES else strength[card % 13 + 2]

    led = suit(trick[0])
    best = max(trick, key=lambda c: (suit(c) == trump, suit(c) == led, power(c)))
    cards = [c for c in range(52) if hand >> c & 1]
    allowed = [c for c in cards if suit(c) == led]
    if allowed:
        if table.must_head and suit(best) == led:
            allowed = [c for c in allowed if power(c) > power(best)] or allowed
    else:
        trumps = [c for c in cards if suit(c) == trump]
        if not trumps or table.trump_duty is TrumpDuty.ANY_TRUMP:
            allowed = trumps or cards
        else:
            over = [c for c in trumps if suit(best) != trump or power(c) > power(best)]
            allowed = over or (trumps if table.trump_duty is TrumpDuty.OVERTRUMP else cards)
    mask = 0
    for card in allowed:
        mask |= 1 << card
    return mask | hand & _AS_BIT  # like Pam, it may be played to any trick


def _top_trump_duty(table: DealTable, hand: int, trick: tuple[int, ...], card: int) -> Duty:
    """The duty a refused ``card`` breaks when the A♠ is a top trump [FLY-6.3] [FLY-6.4] [FLY-7.1].

    As in :func:`fly_rules.tricks.unmet_duty`, with the A♠ counted in the trump suit.
    """
    trump = table.trump

    def suit(index: int) -> int:
        return trump if index == ACE_OF_SPADES else index // 13

    led = suit(trick[0])
    if any(hand >> c & 1 and suit(c) == led for c in range(52)):
        return Duty.HEAD if suit(card) == led else Duty.FOLLOW
    if suit(card) == trump or table.trump_duty is TrumpDuty.OVERTRUMP_OR_FREE:
        return Duty.OVERTRUMP
    return Duty.TRUMP


def winning_position(table: DealTable, cards: tuple[int, ...]) -> int:
    """The position in ``cards`` (a full trick) of the card that wins it [FLY-6.6] [FLY-7.3] [FLY-7.4]."""
    if table.privileged and ACE_OF_SPADES in cards and (table.top_trump or cards[0] == table.trump_ace):
        return cards.index(ACE_OF_SPADES)
    return trick_winner(cards, table.trump, table.order)


def refusal(table: DealTable, hand: int, trick: tuple[int, ...], seat: int, action: Play) -> RuleViolation:
    """Why ``seat``, holding ``hand``, may not play ``action`` to ``trick`` (a card :func:`playable_mask` left out)
    [FLY-6.2] [FLY-6.3] [FLY-6.4] [FLY-7.1]."""
    card = action.card.index
    if not hand >> card & 1:
        return RuleViolation("FLY-6.2", f"seat {seat} does not hold {ALL_CARDS[card]}", action)
    if table.top_trump:
        duty: Duty | None = _top_trump_duty(table, hand, trick, card)
    else:
        trump, order = table.trump, table.order
        duty = unmet_duty(hand, card, trick, trump, order, must_head=table.must_head, trump_duty=table.trump_duty)
    # Outside top_trump the A♠ privilege only ever widens the plain duties, so a refused card breaks one.
    assert duty is not None
    led = ALL_CARDS[trick[0]]
    return RuleViolation(_DUTY_RULES[duty], f"must {duty.value} ({led} led, {ALL_CARDS[card]} played)", action)


def trick_seats(score: Score, cards: int) -> tuple[int, ...]:
    """The seats that played the first ``cards`` cards of the current trick, in play order [FLY-6.2]."""
    leader = score.leader  # None before the play, when no trick is under way
    return () if leader is None else _seats_in_turn(score.next_in_play, leader, cards)


@functools.lru_cache(maxsize=1024)
def _seats_in_turn(following: tuple[int, ...], seat: int, count: int) -> tuple[int, ...]:
    """``count`` seats in turn from ``seat``, ``following[s]`` after ``s`` (a few per table: cached)."""
    seats = []
    for _ in range(count):
        seats.append(seat)
        seat = following[seat]
    return tuple(seats)


def play_card(
    table: DealTable,
    score: Score,
    active: tuple[bool, ...],
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    seat: int,
    allowed: int,
    action: Play,
) -> _Played:
    """``seat`` plays ``action.card`` to ``trick``; ``allowed`` is his :func:`playable_mask`
    [FLY-6.2] [FLY-6.6] [FLY-11.1] [FLY-11.2].

    Raises:
        RuleViolation: the card is not in his hand, or breaks a duty and revokes are refused.
    """
    card = action.card.index
    bit = 1 << card
    if not allowed & bit:
        refused = refusal(table, hands[seat], trick, seat, action)
        if table.rules.revoke_mode != "penalize" or refused.rule == "FLY-6.2":
            raise refused
        # FLY-11.2: the revoke stands, the offender writes a remise at once.
        records = scoring.add_points(score.records, seat, table.rules.remise)
        score = score._replace(records=records, revokes=(*score.revokes, len(trick)))
    played = list(hands)
    played[seat] ^= bit
    after = tuple(played)
    trick = (*trick, card)
    if len(trick) < score.in_play:
        return score.next_in_play[seat], after, score, trick
    seats = trick_seats(score, len(trick))
    revokes = score.revokes
    if revokes:
        # FLY-11.2: a revoked card cannot win; the trick goes to the best lawful card.
        lawful = tuple(c for i, c in enumerate(trick) if i not in revokes)
        taker = seats[trick.index(lawful[winning_position(table, lawful)])]
    else:
        taker = seats[winning_position(table, trick)]
    score = scoring.take_trick(table, score, active, taker, tuple(zip(seats, trick)))  # noqa: B905 - both the trick's length; strict= would parse a keyword per trick
    return (None if score.over else taker), after, score, ()


def next_active(table: DealTable, active: tuple[bool, ...], seat: int) -> int:
    """The first seat to the left of ``seat`` still in the deal (``seat`` itself if no other is) [FLY-6.2]."""
    seat = table.left[seat]
    while not active[seat]:
        seat = table.left[seat]
    return seat


def begin_play(table: DealTable, score: Score, active: tuple[bool, ...], hands: tuple[int, ...]) -> _Played:
    """Start the play once every declaration is made [FLY-5.4] [FLY-5.5] [FLY-6.1] [FLY-12.1].

    Returns the seat to lead (None when the deal ends without play), the hands, the score and an empty trick.
    """
    rules = table.rules
    count = sum(active)
    if count == 0:  # FLY-5.4, FLY-8.6: a void deal, no card played and no record changed
        redeal = rules.all_fold == "redeal_same_dealer"
        return None, hands, score._replace(void=True, redeal=redeal), ()
    if count == 1 and rules.lone_player == "void":
        return None, hands, score._replace(void=True), ()
    ace_holder = None
    for seat, mask in enumerate(hands):
        if active[seat] and mask & _AS_BIT:
            ace_holder = seat
    leader = next_active(table, active, table.dealer)
    n = rules.players
    following = table.left if count == n else tuple(next_active(table, active, s) for s in range(n))
    # the fields in order (once a deal, on the hot path): records, tricks taken, last trick of, completed,
    # leader, A♠ holder, bonus due, winners, void, redeal, in play, next in play, revokes
    zeros = (0,) * n
    started = _new(
        Score,
        (
            score.records,
            zeros,
            zeros,
            (),
            leader,
            ace_holder,
            ace_holder is not None,
            (),
            False,
            False,
            count,
            following,
            (),
        ),
    )
    if count == 1:
        return _awarded(table, started, active, hands, leader)  # FLY-5.5
    if rules.flush_wins:
        holder = _flush_holder(table, active, hands, leader)
        if holder is not None:
            return _awarded(table, started, active, hands, holder)
    return leader, hands, started, ()


def _flush_holder(table: DealTable, active: tuple[bool, ...], hands: tuple[int, ...], leader: int) -> int | None:
    """The seat whose flush wins, or None: a flush in trumps first, else the first from the dealer's left [FLY-12.1].

    Under ``top_trump`` the A♠ counts as a trump only, never as a spade [FLY-7.1].
    """
    trump_mask = SUIT_MASKS[table.trump]
    top_trump = table.top_trump
    if top_trump:
        trump_mask |= _AS_BIT
    first = None
    seat = leader
    for _ in range(table.rules.players):
        mask = hands[seat]
        if active[seat]:
            if mask & ~trump_mask == 0:
                return seat
            plain = not (top_trump and mask & _AS_BIT)
            if first is None and plain and any(mask & ~suit_mask == 0 for suit_mask in SUIT_MASKS):
                first = seat
        seat = table.left[seat]
    return first


def _awarded(table: DealTable, score: Score, active: tuple[bool, ...], hands: tuple[int, ...], seat: int) -> _Played:
    score, hand = scoring.award_all_tricks(table, score, active, hands[seat], seat)
    changed = list(hands)
    changed[seat] = hand
    return None, tuple(changed), score, ()
