"""Plain whist for three, a third game written for the test suite only: 36 cards, twelve each, the
dealer's last card turned for trumps, follow suit, every trick over four scores a point, and the
first to ``target`` points (alone at the top) wins the match.

Its rules are not in ``specs/`` (its refusals name ``WHIST-1`` to ``WHIST-3``, rules of this file): it
exists to show that a game described once to :mod:`fly_rules.registry` runs through every client.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from fly_rules.actions import Action, Play
from fly_rules.cards import ACE_HIGH, ALL_CARDS, DECK_36, Card, CardSet, RankOrder, Suit
from fly_rules.engine import MatchBase, Phase, shuffled_indices
from fly_rules.errors import InvalidRules, RuleViolation
from fly_rules.tricks import playable, plays_of, trick_winner

__all__ = ["WhistDeal", "WhistMatch", "WhistRules", "WhistView", "new_deal", "new_match"]

SEATS = 3
HAND = 12
OVER = 4  # tricks a seat must take before it scores


def _at_least(name: str, value: object, low: int, *, none: bool = False) -> None:
    if none and value is None:
        return
    if type(value) is not int or value < low:
        raise InvalidRules(name, f"must be a whole number from {low}, not {value!r}")


@attrs.frozen
class WhistRules:
    """The rules of a match of plain whist for three."""

    players: int = attrs.field(
        default=SEATS, validator=lambda _rules, field, value: _at_least(field.name, value, SEATS)
    )
    target: int = attrs.field(default=5, validator=lambda _rules, field, value: _at_least(field.name, value, 1))
    max_deals: int | None = attrs.field(
        default=None, validator=lambda _rules, field, value: _at_least(field.name, value, 1, none=True)
    )

    def __attrs_post_init__(self) -> None:
        if self.players != SEATS:
            raise InvalidRules("players", f"WHIST-1: whist is for 3 players, not {self.players!r}")

    game = "whist"
    revoke_mode = "prevent"
    hand_size = HAND
    deck = DECK_36

    @property
    def rank_order(self) -> RankOrder:
        """Aces high."""
        return ACE_HIGH

    def left_of(self, seat: int) -> int:
        """The next seat in the order of play."""
        return (seat + 1) % SEATS

    def non_default_options(self) -> dict[str, object]:
        """The options that differ from the defaults."""
        defaults = WhistRules()
        return {
            f.name: getattr(self, f.name)
            for f in attrs.fields(WhistRules)
            if f.name != "players" and getattr(self, f.name) != getattr(defaults, f.name)
        }


def _winner(points: tuple[int, ...], target: int) -> int | None:
    best = max(points)
    return points.index(best) if best >= target and points.count(best) == 1 else None


@attrs.frozen
class WhistView:
    """What one seat may know: its hand, the trump card, the tricks, the points."""

    seat: int
    phase: Phase
    to_move: int | None
    dealer: int
    deal_number: int
    hand: CardSet
    trump_card: Card
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    tricks_taken: tuple[int, ...]
    leader: int
    points: tuple[int, ...] | None
    winner: int | None
    players: int = SEATS
    game = "whist"

    @property
    def trump(self) -> Suit:
        """The trump suit."""
        return self.trump_card.suit

    @property
    def scores(self) -> tuple[int, ...]:
        """The points."""
        return self.points or (0,) * SEATS

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """The points, by name."""
        return {"points": self.scores}


@attrs.frozen
class WhistDeal:
    """A deal: the hands now, the trump card, the tricks played, the points."""

    rules: WhistRules
    dealer: int
    deal_number: int
    hand_masks: tuple[int, ...]
    trump_card: Card
    start_points: tuple[int, ...]
    leader: int
    trick_cards: tuple[int, ...] = ()
    tricks: tuple[tuple[tuple[int, Card], ...], ...] = ()
    tricks_taken: tuple[int, ...] = (0, 0, 0)
    actions: tuple[Action, ...] = ()
    dealt: tuple[int, ...] = ()
    previous_deal: WhistDeal | None = None
    game = "whist"
    players = SEATS

    @property
    def trump(self) -> Suit:
        """The trump suit: the suit of the dealer's last card."""
        return self.trump_card.suit

    @property
    def is_over(self) -> bool:
        """Whether all twelve tricks are played."""
        return len(self.tricks) == HAND

    @property
    def phase(self) -> Phase:
        """Play, then over: there is no exchange."""
        return Phase.OVER if self.is_over else Phase.PLAY

    @property
    def to_move(self) -> int | None:
        """The seat to play, None once the deal is over."""
        return None if self.is_over else (self.leader + len(self.trick_cards)) % SEATS

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's points: its points before the deal and a point a trick over four."""
        return tuple(p + max(0, t - OVER) for p, t in zip(self.start_points, self.tricks_taken, strict=True))

    @property
    def winner(self) -> int | None:
        """The seat alone at the top with the target reached, once the deal is over."""
        return _winner(self.points, self.rules.target) if self.is_over else None

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's cards."""
        return tuple(CardSet(mask) for mask in self.hand_masks)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in play as (seat, card) pairs."""
        return tuple(((self.leader + i) % SEATS, ALL_CARDS[c]) for i, c in enumerate(self.trick_cards))

    @property
    def scores(self) -> tuple[int, ...]:
        """The points."""
        return self.points

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """The points, by name."""
        return {"points": self.points}

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The points, as a history states them at the end."""
        return {"points": self.points}

    def deal_head(self) -> dict[str, object]:
        """The dealer and the trump card."""
        return {"dealer": self.dealer, "trump_card": str(self.trump_card)}

    def deal_lines(self) -> dict[str, tuple[int, ...]]:
        """Tricks taken and the points after the deal."""
        return {"tricks": self.tricks_taken, "points": self.points}

    def start_fields(self) -> dict[str, object]:
        """This deal as dealt, as ``new_deal``'s arguments."""
        return {
            "dealer": self.dealer,
            "hands": [" ".join(str(c) for c in CardSet(mask)) for mask in self.dealt],
            "trump_card": str(self.trump_card),
            "points": list(self.start_points),
        }

    def legal_actions(self) -> tuple[Play, ...]:
        """The cards the seat to move may play: of the suit led if it has one [WHIST-2]."""
        seat = self.to_move
        if seat is None:
            return ()
        order = self.rules.rank_order
        return plays_of(playable(self.hand_masks[seat], self.trick_cards, int(self.trump), order))

    def apply(self, action: Action) -> WhistDeal:
        """The deal after ``action``, a play of a card the seat holds that follows suit if it can."""
        seat = self.to_move
        if seat is None:
            raise RuleViolation("WHIST-3", "the deal is over", action)
        if type(action) is not Play:
            raise RuleViolation("WHIST-2", f"only cards are played in whist, not {action!r}", action)
        card = action.card.index
        if not self.hand_masks[seat] >> card & 1:
            raise RuleViolation("WHIST-2", f"seat {seat} does not hold {action.card}", action)
        if action not in self.legal_actions():
            raise RuleViolation("WHIST-2", f"{action.card} does not follow the suit led", action)
        hands = list(self.hand_masks)
        hands[seat] &= ~(1 << card)
        trick = (*self.trick_cards, card)
        played = attrs.evolve(self, hand_masks=tuple(hands), trick_cards=trick, actions=(*self.actions, action))
        if len(trick) < SEATS:
            return played
        taker = (self.leader + trick_winner(trick, int(self.trump), self.rules.rank_order)) % SEATS
        taken = list(self.tricks_taken)
        taken[taker] += 1
        pairs = tuple(((self.leader + i) % SEATS, ALL_CARDS[c]) for i, c in enumerate(trick))
        return attrs.evolve(
            played, trick_cards=(), tricks=(*self.tricks, pairs), tricks_taken=tuple(taken), leader=taker
        )

    def view(self, seat: int) -> WhistView:
        """What ``seat`` may know."""
        return WhistView(
            seat=seat,
            phase=self.phase,
            to_move=self.to_move,
            dealer=self.dealer,
            deal_number=self.deal_number,
            hand=CardSet(self.hand_masks[seat]),
            trump_card=self.trump_card,
            trick=self.trick,
            tricks=self.tricks,
            tricks_taken=self.tricks_taken,
            leader=self.leader,
            points=self.points,
            winner=self.winner,
        )


def _cards(value: Iterable[Card | str] | CardSet | str) -> list[Card]:
    if isinstance(value, str):
        return [Card.parse(token) for token in value.replace(",", " ").split()]
    return [Card.parse(c) if isinstance(c, str) else c for c in value]


def new_deal(
    rules: WhistRules,
    *,
    hands: Sequence[Iterable[Card | str] | CardSet | str],
    trump_card: Card | str,
    dealer: int = 0,
    points: Sequence[int] = (0, 0, 0),
    deal_number: int = 0,
) -> WhistDeal:
    """A deal as dealt: twelve cards of the 36 to each seat, the trump card among the dealer's [WHIST-1]."""
    if type(dealer) is not int or not 0 <= dealer < SEATS:
        raise RuleViolation("WHIST-1", f"the dealer must be a seat 0 to 2, not {dealer!r}", dealer)
    if isinstance(hands, str) or len(hands) != SEATS:
        raise RuleViolation("WHIST-1", "three hands are dealt", hands)
    masks = []
    seen = 0
    for hand in hands:
        cards = _cards(hand)
        mask = sum(card.bit for card in cards)
        if len(cards) != HAND or mask.bit_count() != HAND or mask & ~DECK_36.mask or mask & seen:
            raise RuleViolation("WHIST-1", "each hand is twelve different cards of the 36-card pack", hand)
        seen |= mask
        masks.append(mask)
    trump = Card.parse(trump_card) if isinstance(trump_card, str) else trump_card
    if not masks[dealer] & trump.bit:
        raise RuleViolation("WHIST-1", f"the trump card {trump} is the dealer's last card", trump)
    if len(points) != SEATS or any(type(p) is not int or p < 0 for p in points):
        raise RuleViolation("WHIST-1", f"points are three whole numbers, not {points!r}", points)
    return WhistDeal(
        rules=rules,
        dealer=dealer,
        deal_number=deal_number,
        hand_masks=tuple(masks),
        trump_card=trump,
        start_points=tuple(points),
        leader=rules.left_of(dealer),
        dealt=tuple(masks),
    )


def _shuffled_deal(rules: WhistRules, seed: int | str, dealer: int, number: int, points: tuple[int, ...]) -> WhistDeal:
    order = shuffled_indices(DECK_36, seed, number)
    hands = [0, 0, 0]
    for i, card in enumerate(order):
        hands[(dealer + 1 + i) % SEATS] |= 1 << card
    deal = new_deal(rules, hands=[CardSet(h) for h in hands], trump_card=ALL_CARDS[order[-1]], dealer=dealer)
    return attrs.evolve(deal, deal_number=number, start_points=points)


@attrs.frozen
class WhistMatch(MatchBase[WhistDeal, WhistView]):
    """Deals until a seat wins or the deal limit is reached."""

    rules: WhistRules
    seed: int | str
    first_dealer: int
    deal: WhistDeal
    history: tuple[object, ...] | None = None
    previous_deal: WhistDeal | None = None

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
        return self.deal.is_over

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's points."""
        return self.deal.points

    def apply(self, action: Action) -> WhistMatch:
        """The match after ``action``; a finished deal without a winner deals the next one."""
        deal = self.deal.apply(action)
        limit = self.rules.max_deals
        if not deal.is_over or deal.winner is not None or (limit is not None and deal.deal_number + 1 >= limit):
            return attrs.evolve(self, deal=deal)
        history = self.history
        for taken in deal.actions:
            history = (taken, history)
        following = _shuffled_deal(
            self.rules, self.seed, self.rules.left_of(deal.dealer), deal.deal_number + 1, deal.points
        )
        return attrs.evolve(self, deal=following, history=history, previous_deal=deal)


def new_match(rules: WhistRules, *, seed: int | str, dealer: int | None = None) -> WhistMatch:
    """A match whose deals are shuffled from ``seed``; the first dealer is seat 0 unless given."""
    first = 0 if dealer is None else dealer
    if type(first) is not int or not 0 <= first < SEATS:
        raise RuleViolation("WHIST-1", f"the dealer must be a seat 0 to 2, not {dealer!r}", dealer)
    return WhistMatch(rules, seed, first, _shuffled_deal(rules, seed, first, 0, (0, 0, 0)))
