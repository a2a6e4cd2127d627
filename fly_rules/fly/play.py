"""Trick play: the lead, the duties, the ace-of-spades privilege, the trick's
winner and revokes [FLY-6.1] [FLY-6.2] [FLY-6.3] [FLY-6.4] [FLY-6.5] [FLY-6.6]
[FLY-6.7] [FLY-7.1] [FLY-7.2] [FLY-7.3] [FLY-7.4] [FLY-7.5] [FLY-7.6]
[FLY-11.1] [FLY-11.2] [FLY-5.5] [FLY-12.1].
"""

from __future__ import annotations

from fly_rules.actions import Play
from fly_rules.cards import ALL_CARDS, SUIT_MASKS
from fly_rules.errors import RuleViolation
from fly_rules.fly import scoring
from fly_rules.fly.state import ACE_OF_SPADES, FlyDeal, Phase
from fly_rules.tricks import Duty, TrumpDuty, playable, trick_winner, unmet_duty

__all__ = ["apply_play", "begin_play", "legal_plays", "playable_mask", "winning_position"]

_AS_BIT = 1 << ACE_OF_SPADES
_PLAYS = tuple(Play(card) for card in ALL_CARDS)
_PLAY = Phase.PLAY
_DUTY_RULES = {Duty.FOLLOW: "FLY-6.3", Duty.HEAD: "FLY-6.3", Duty.TRUMP: "FLY-6.4", Duty.OVERTRUMP: "FLY-6.4"}


def _duties(deal: FlyDeal, hand: int) -> int:
    """The cards of ``hand`` allowed by the plain duties, before any A♠ privilege [FLY-6.3] [FLY-6.4]."""
    table = deal.table
    return playable(
        hand, deal.trick_cards, table.trump, table.order, must_head=table.must_head, trump_duty=table.trump_duty
    )


def playable_mask(deal: FlyDeal, seat: int) -> int:
    """The cards ``seat`` may play to the current trick [FLY-6.3] [FLY-6.4] [FLY-6.5] [FLY-7.2]."""
    hand = deal.hand_masks[seat]
    trick = deal.trick_cards
    if not trick:
        return hand
    table = deal.table
    if not table.privileged:
        return playable(hand, trick, table.trump, table.order, must_head=table.must_head, trump_duty=table.trump_duty)
    if table.top_trump:
        return _top_trump_playable(deal, hand)
    if trick[0] != table.trump_ace:
        return _duties(deal, hand)
    if ACE_OF_SPADES in trick:
        # FLY-7.3: the A♠ holds the trick, so no later card can head it: plain following only.
        return playable(hand, trick, table.trump, table.order, must_head=False, trump_duty=table.trump_duty)
    allowed = _duties(deal, hand)
    if table.rules.ace_of_spades_mode == "led_trump_ace":
        # FLY-7.2: the holder may play the A♠ to a led trump ace whatever else he holds.
        allowed |= hand & _AS_BIT
    return allowed


def _top_trump_playable(deal: FlyDeal, hand: int) -> int:
    """Duties when the A♠ is a permanent top trump that may also be played at any time [FLY-7.1].

    The A♠ counts as the highest trump for following, heading and overtrumping,
    so the ordinary duties are applied with its suit and rank changed; a rare
    option, so this is written plainly rather than with masks.
    """
    table = deal.table
    trump = table.trump
    strength = table.order.strength

    def suit(card: int) -> int:
        return trump if card == ACE_OF_SPADES else card // 13

    def power(card: int) -> int:
        return 99 if card == ACE_OF_SPADES else strength[card % 13 + 2]

    trick = deal.trick_cards
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


def _top_trump_duty(deal: FlyDeal, hand: int, card: int) -> Duty:
    """The duty a refused ``card`` breaks when the A♠ is a top trump [FLY-6.3] [FLY-6.4] [FLY-7.1].

    As in :func:`fly_rules.tricks.unmet_duty`, with the A♠ counted in the trump suit.
    """
    trump = deal.table.trump

    def suit(index: int) -> int:
        return trump if index == ACE_OF_SPADES else index // 13

    led = suit(deal.trick_cards[0])
    if any(hand >> c & 1 and suit(c) == led for c in range(52)):
        return Duty.HEAD if suit(card) == led else Duty.FOLLOW
    if suit(card) == trump or deal.table.trump_duty is TrumpDuty.OVERTRUMP_OR_FREE:
        return Duty.OVERTRUMP
    return Duty.TRUMP


_PLAYS_BY_MASK: dict[int, tuple[Play, ...]] = {}


def legal_plays(deal: FlyDeal) -> tuple[Play, ...]:
    """``Play`` for every card the player to move may play, in canonical order [FLY-6.2]."""
    mask = playable_mask(deal, deal.turn)
    plays = _PLAYS_BY_MASK.get(mask)
    if plays is None:
        found = []
        rest = mask
        while rest:
            low = rest & -rest
            found.append(_PLAYS[low.bit_length() - 1])
            rest ^= low
        if len(_PLAYS_BY_MASK) > 20_000:
            _PLAYS_BY_MASK.clear()  # bound the cache; it refills as needed
        plays = _PLAYS_BY_MASK[mask] = tuple(found)
    return plays


def winning_position(deal: FlyDeal, cards: tuple[int, ...]) -> int:
    """The position in ``cards`` (a full trick) of the card that wins it [FLY-6.6] [FLY-7.3] [FLY-7.4]."""
    table = deal.table
    if table.privileged and ACE_OF_SPADES in cards and (table.top_trump or cards[0] == table.trump_ace):
        return cards.index(ACE_OF_SPADES)
    return trick_winner(cards, table.trump, table.order)


def _why_not(deal: FlyDeal, card: int, action: Play) -> RuleViolation:
    seat = deal.turn
    hand = deal.hand_masks[seat]
    if not hand >> card & 1:
        return RuleViolation("FLY-6.2", f"seat {seat} does not hold {ALL_CARDS[card]}", action)
    table = deal.table
    if table.top_trump:
        duty: Duty | None = _top_trump_duty(deal, hand, card)
    else:
        trick, trump, order = deal.trick_cards, table.trump, table.order
        duty = unmet_duty(hand, card, trick, trump, order, must_head=table.must_head, trump_duty=table.trump_duty)
    # Outside top_trump the A♠ privilege only ever widens the plain duties, so a refused card breaks one.
    assert duty is not None
    led = ALL_CARDS[deal.trick_cards[0]]
    return RuleViolation(_DUTY_RULES[duty], f"must {duty.value} ({led} led, {ALL_CARDS[card]} played)", action)


def apply_play(deal: FlyDeal, action: Play) -> FlyDeal:
    """The deal after the player to move plays ``action.card`` [FLY-6.2] [FLY-11.1] [FLY-11.2]."""
    seat = deal.turn
    card = action.card.index
    bit = 1 << card
    records = deal.records
    revokes = deal.revokes
    if not playable_mask(deal, seat) & bit:
        refusal = _why_not(deal, card, action)
        if deal.table.rules.revoke_mode != "adjudicate" or refusal.rule == "FLY-6.2":
            raise refusal
        # FLY-11.2: the revoke stands, the offender writes a remise at once.
        records = scoring.add_points(records, seat, deal.table.rules.remise)
        revokes = (*revokes, len(deal.trick_cards))
    hands = list(deal.hand_masks)
    hands[seat] ^= bit
    trick = (*deal.trick_cards, card)
    history = (action, deal.history)
    tally = deal.tally
    if len(trick) < tally.in_play:
        return FlyDeal(
            deal.table,
            _PLAY,
            tally.next_in_play[seat],
            tuple(hands),
            records,
            deal.bidding,
            tally,
            trick,
            revokes,
            history,
        )
    # FLY-11.2: a revoked card cannot win; the trick goes to the best lawful card.
    seats = (*deal.trick_seats, seat)
    lawful = tuple(c for i, c in enumerate(trick) if i not in revokes)
    winner = seats[trick.index(lawful[winning_position(deal, lawful)])]
    return scoring.take_trick(
        deal,
        winner,
        tuple(zip(seats, trick, strict=True)),
        hand_masks=tuple(hands),
        trick_cards=(),
        revokes=(),
        records=records,
        history=history,
    )


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
        in_play=count,
        next_in_play=tuple(_next_active(deal, seat) for seat in range(rules.players)),
    )
    if count == 1:
        return scoring.award_all_tricks(started, leader)  # FLY-5.5
    if rules.flush_wins:
        holder = _flush_holder(started, leader)
        if holder >= 0:
            return scoring.award_all_tricks(started, holder)
    return started


def _flush_holder(deal: FlyDeal, leader: int) -> int:
    """The seat whose flush wins, or -1: a flush in trumps first, else the first from the dealer's left [FLY-12.1]."""
    trump_mask = SUIT_MASKS[deal.table.trump]
    first = -1
    seat = leader
    for _ in range(deal.rules.players):
        mask = deal.hand_masks[seat]
        if deal.active[seat]:
            if mask & ~trump_mask == 0:
                return seat
            if first < 0 and any(mask & ~suit_mask == 0 for suit_mask in SUIT_MASKS):
                first = seat
        seat = deal.rules.left_of(seat)
    return first
