"""Trick mechanics shared by every game: the duties when playing to a trick,
and who wins it.

Both games play tricks the same way (follow suit; if void, trump; else any
card; highest trump wins, else highest card of the suit led) and differ only in
options. The games' play modules cite their own rule IDs and call these
functions; nothing here knows a game.

Everything works on card indices and int masks (see :mod:`fly_rules.cards`),
because these functions sit on the hot path of every ``apply``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from operator import itemgetter
from typing import Final

from fly_rules.actions import Play
from fly_rules.cards import ACE_HIGH, ALL_CARDS, SUIT_MASKS, Card, RankOrder, Suit
from fly_rules.errors import InvalidRules, shown

__all__ = [
    "Duty",
    "TrumpDuty",
    "beaten_by_mask",
    "card_strength",
    "cheapest_winner",
    "playable",
    "plays_of",
    "trick_winner",
    "trump_duty_option",
    "unmet_duty",
]


class TrumpDuty(enum.StrEnum):
    """What a player void in the suit led must do when he holds trumps."""

    ANY_TRUMP = "any_trump"
    """Play some trump; no duty to beat a trump already played."""
    OVERTRUMP = "overtrump"
    """Beat the highest trump in the trick if able, else play any trump."""
    OVERTRUMP_OR_FREE = "overtrump_or_free"
    """Beat the highest trump in the trick if able, else play any card."""


def trump_duty_option(value: object) -> TrumpDuty:
    """The duty named ``value`` (a member or its text): the converter of the ``trump_duty`` option.

    Raises:
        InvalidRules: naming ``trump_duty`` and the known values, for anything else.
    """
    if isinstance(value, TrumpDuty):
        return value
    for duty in TrumpDuty:
        if isinstance(value, str) and value == duty.value:
            return duty
    known = ", ".join(repr(duty.value) for duty in TrumpDuty)
    raise InvalidRules("trump_duty", f"must be one of {known}, not {shown(value)}")


class Duty(enum.Enum):
    """The duty a refused card breaks; each game maps these to its rule IDs."""

    FOLLOW = "follow suit"
    HEAD = "head the trick in the suit led"
    TRUMP = "play a trump when void in the suit led"
    OVERTRUMP = "beat the highest trump in the trick"


_BEATEN_BY: Final[dict[RankOrder, tuple[int, ...]]] = {}


def beaten_by_mask(index: int, order: RankOrder) -> int:
    """The mask of cards of the same suit that outrank the card at ``index``."""
    table = _BEATEN_BY.get(order)
    if table is None:
        rows = []
        for i in range(52):
            suit, strength = divmod(i, 13)
            mine = order.strength[strength + 2]
            mask = 0
            for other in range(13):
                if order.strength[other + 2] > mine:
                    mask |= 1 << (suit * 13 + other)
            rows.append(mask)
        table = _BEATEN_BY[order] = tuple(rows)
    return table[index]


def playable(
    hand: int,
    trick: Sequence[int],
    trump: int | None,
    order: RankOrder,
    *,
    must_head: bool = False,
    trump_duty: TrumpDuty = TrumpDuty.ANY_TRUMP,
) -> int:
    """The mask of cards in ``hand`` that may be played to ``trick``.

    Args:
        hand: the player's cards as a mask.
        trick: indices of the cards already in the trick, in play order
            (empty when the player leads: any card may be led).
        trump: the trump suit, or None for no trump.
        order: the rank order within a suit.
        must_head: whether a player following suit must beat the best card
            of the suit led when able (only while the trick is not trumped).
        trump_duty: what a player void in the suit led owes when he has trumps.
    """
    if not trick:
        return hand
    led_suit = trick[0] // 13
    in_suit = hand & SUIT_MASKS[led_suit]
    if in_suit:
        if must_head:
            best = trick[trick_winner(trick, trump, order)]
            if best // 13 == led_suit:
                heading = in_suit & beaten_by_mask(best, order)
                if heading:
                    return heading
        return in_suit
    if trump is None:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if trump_duty is TrumpDuty.ANY_TRUMP:
        return trumps
    best = trick[trick_winner(trick, trump, order)]
    over = trumps & beaten_by_mask(best, order) if best // 13 == trump else trumps
    if over:
        return over
    return trumps if trump_duty is TrumpDuty.OVERTRUMP else hand


def unmet_duty(
    hand: int,
    card: int,
    trick: Sequence[int],
    trump: int | None,
    order: RankOrder,
    *,
    must_head: bool = False,
    trump_duty: TrumpDuty = TrumpDuty.ANY_TRUMP,
) -> Duty | None:
    """Which duty playing ``card`` (an index, held in ``hand``) would break, or None.

    Called only to explain a refusal, so it favours clarity over speed.
    """
    allowed = playable(hand, trick, trump, order, must_head=must_head, trump_duty=trump_duty)
    if allowed >> card & 1:
        return None
    if hand & SUIT_MASKS[trick[0] // 13]:
        return Duty.HEAD if card // 13 == trick[0] // 13 else Duty.FOLLOW
    # Void in the suit led, holding trumps (otherwise every card is allowed).
    if card // 13 == trump or trump_duty is TrumpDuty.OVERTRUMP_OR_FREE:
        return Duty.OVERTRUMP
    return Duty.TRUMP


def trick_winner(trick: Sequence[int], trump: int | None, order: RankOrder) -> int:
    """The position in ``trick`` of the winning card: the highest trump if any,
    else the highest card of the suit led; a card of another suit never wins [CARD-1.1]."""
    led_suit = trick[0] // 13
    found = _POWERS.get((id(order), trump, led_suit))
    if found is None or found[0] is not order:
        if len(_POWERS) >= 256:  # orders made on the fly: keep the table small
            _POWERS.clear()
        found = _POWERS[id(order), trump, led_suit] = (order, _powers(order, trump, led_suit))
    if len(trick) == 1:
        return 0
    return trick.index(max(itemgetter(*trick)(found[1])) & 63)


# per (rank order, trump, suit led): each card's power in the trick, so that the winner is one max();
# keyed by the order's id and holding the order, so that the id stays its own (at most a few orders)
_POWERS: Final[dict[tuple[int, int | None, int], tuple[RankOrder, tuple[int, ...]]]] = {}


def _powers(order: RankOrder, trump: int | None, led_suit: int) -> tuple[int, ...]:
    """Each card's power, times 64 plus the card's index (so that the strongest names itself): a trump
    beats the suit led, which beats the other suits (power 0, never winning)."""
    strength = order.strength
    powers = []
    for card in range(52):
        suit = card // 13
        if suit == trump:
            powers.append((32 + strength[card % 13 + 2]) * 64 + card)
        elif suit == led_suit:
            powers.append((16 + strength[card % 13 + 2]) * 64 + card)
        else:
            powers.append(card)
    return tuple(powers)


_PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in ALL_CARDS)
# the plays of every set of cards of one suit met so far (at most 4 x 8192 entries): a player's
# legal cards are most often one suit, so most calls are one lookup
_ONE_SUIT_PLAYS: Final[dict[int, tuple[Play, ...]]] = {}


def plays_of(mask: int) -> tuple[Play, ...]:
    """One :class:`~fly_rules.actions.Play` per card of ``mask``, in canonical card order.

    >>> plays_of(0b101)
    (Play(card=Card.parse('2C')), Play(card=Card.parse('4C')))
    """
    found = _ONE_SUIT_PLAYS.get(mask)
    if found is not None:
        return found
    if (mask & -mask).bit_length() - 1 >= (mask.bit_length() - 1) // 13 * 13:  # lowest card in the top suit
        found = _ONE_SUIT_PLAYS[mask] = tuple(_PLAYS[i] for i in range(mask.bit_length()) if mask >> i & 1)
        return found
    found = ()
    for suit in SUIT_MASKS:
        part = mask & suit
        if part:
            found += _ONE_SUIT_PLAYS.get(part) or plays_of(part)
    return found


def card_strength(card: Card, trump: Suit | None, order: RankOrder = ACE_HIGH) -> int:
    """How strong ``card`` is in play, for a bot's card sense: trumps above every plain card, then by rank.

    >>> card_strength(Card.parse("7H"), Suit.HEARTS) > card_strength(Card.parse("AS"), Suit.HEARTS)
    True
    """
    return order.strength[card.rank] + (100 if card.suit == trump else 0)


def cheapest_winner(
    plays: Sequence[Play], trick: Sequence[Card], trump: Suit | None, order: RankOrder = ACE_HIGH
) -> Play:
    """A bot's card sense: the weakest of ``plays`` that would take the trick ``trick`` as it stands, else the
    weakest play.

    Leading, the strongest card is played (it is the likeliest to take a trick).
    """
    if not trick:
        return max(plays, key=lambda p: card_strength(p.card, trump, order))
    cards = [c.index for c in trick]
    winners = [p for p in plays if trick_winner([*cards, p.card.index], trump, order) == len(cards)]
    pool = winners or list(plays)
    return min(pool, key=lambda p: card_strength(p.card, trump, order))
