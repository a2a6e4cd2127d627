"""What every game's guess of the hidden cards shares (:func:`fly_rules.bots.sampling.sample_deal` draws
with it): the seat's knowledge as masks, the dealing out of the cards it cannot see, the replay of the
cards played. A game's guesser (its descriptor's ``guesser``, in the game's ``hidden.py``) is a
:class:`Guess` that fills in what its rules decide.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import attrs

from fly_rules._choices import bits
from fly_rules.actions import Play
from fly_rules.cards import ALL_CARDS, Card, CardSet, Suit
from fly_rules.engine.protocols import DealState, Rules, SeatView

__all__ = ["Guess", "Sample", "finish"]

_V_co = TypeVar("_V_co", bound=SeatView, covariant=True)
_R_co = TypeVar("_R_co", bound=Rules, covariant=True)
_SUITS = tuple(sum(1 << (suit * 13 + rank) for rank in range(13)) for suit in range(4))


@attrs.frozen
class Sample:
    """A deal consistent with a view, and how it came about."""

    hands: tuple[CardSet, ...]
    """Each seat's hand as dealt."""
    stock: tuple[Card, ...]
    """The stock (Fly) or talon (Dreyfus) as dealt, top first."""
    actions: tuple[Any, ...]  # Any: the game's own actions, the game's own deal (the guesser of any game makes it)
    """Every action of the deal up to the view's point, in order."""
    deal: Any
    """The deal after those actions: its view for the seat is the view sampled from."""


class Guess(Generic[_V_co, _R_co]):
    """What every game's guess shares: the seat's knowledge as masks, the dealing out of the hidden cards.

    A game's guesser (its descriptor's ``guesser``) fills in the methods below that raise
    ``NotImplementedError``, and the others where its rules differ; it is typed by the game's view and rules
    classes (``Guess[FlyView, FlyRules]``).
    """

    def __init__(
        self,
        view: _V_co,
        rules: _R_co,
        players: int,
        tricks: list[list[tuple[int, Card]]],
        counts: list[int],
        trump: Suit | None,
    ) -> None:
        self.view = view
        self.rules = rules
        self.players = players
        self.plays = [play for trick in tricks for play in trick]
        self.played = [0] * players
        for seat, card in self.plays:
            self.played[seat] |= card.bit
        self.counts = counts  # cards each seat has given in exchanges (Fly swaps excluded)
        self.forbidden = [0] * players  # per seat, cards it cannot hold now
        duty = getattr(rules, "trump_duty", None)  # a game without the option owes no trump when void
        free = duty == "overtrump_or_free"
        for trick in tricks:
            if not trick:
                continue
            trumped = False
            led = self.suit_of(trick[0][1])
            for k, (seat, card) in enumerate(trick):
                suit = self.suit_of(card)
                if k and suit != led and not self.free_play(trick, k):
                    self.forbidden[seat] |= self.suit_mask(led)  # did not follow: void in the suit led
                    if trump is not None and duty is not None and suit != trump and not (free and trumped):
                        self.forbidden[seat] |= self.suit_mask(trump)  # nor trumped, as a void player must
                trumped |= suit == trump

    def suit_of(self, card: Card) -> Suit:
        """The suit ``card`` counts as for following and trumping (a game may count a card as another suit)."""
        return card.suit

    def suit_mask(self, suit: Suit) -> int:
        """The cards that count as ``suit`` for following and trumping, as a mask."""
        return _SUITS[suit]

    def free_play(self, trick: Sequence[tuple[int, Card]], k: int) -> bool:
        """Whether the ``k``-th card of ``trick`` could be played whatever else its seat held (so shows no void)."""
        return False

    def hidden_hands(self, pool: int, need: dict[int, int], rng: random.Random) -> dict[int, int] | None:
        """Deal ``need[seat]`` cards of ``pool`` to each seat, none that it cannot hold."""
        hands: dict[int, int] = {}
        for seat in sorted(need, key=lambda s: -self.forbidden[s].bit_count()):
            chosen = self.pick_hand(seat, pool & ~self.forbidden[seat], need[seat], rng)
            if chosen is None:
                return None
            hands[seat] = chosen
            pool &= ~chosen
        return hands

    def pick_hand(self, seat: int, allowed: int, count: int, rng: random.Random) -> int | None:
        """``count`` of the cards ``allowed`` for ``seat``'s hidden hand, as a mask (a guess that knows more of how
        a seat chose its cards draws them otherwise); None if there are fewer."""
        return self.pick(allowed, count, rng)

    @staticmethod
    def pick(cards: int, count: int, rng: random.Random) -> int | None:
        """``count`` of the cards of the mask ``cards`` at random, as a mask; None if there are fewer."""
        choices = list(bits(cards))
        if not 0 <= count <= len(choices):
            return None
        return sum(1 << c for c in rng.sample(choices, count))

    def guess(
        self, rng: random.Random, own: tuple[int, Sequence[tuple[int, int]]] | None, records: Sequence[int] | None
    ) -> Sample | None:
        """One guess: the discards, then the hidden hands, then each seat's exchanges; replayed."""
        seat = self.view.seat
        known = self.known() | sum(self.played) | self.view.hand.mask
        if own is not None:
            known |= own[0] | sum(g | r for g, r in own[1])
        pool = self.deck & ~known
        gives: dict[int, int] = {}
        for s in range(self.players):
            chosen = self.discards(s, pool, own is not None, rng)
            if chosen is None:
                return None
            gives[s] = chosen
            pool &= ~chosen
        need = {s: self.hand_size - self.played[s].bit_count() for s in range(self.players) if s != seat}
        hands = self.hidden_hands(pool, self.adjust(need), rng)
        if hands is None:
            return None
        pool &= ~sum(hands.values())
        hands[seat] = self.view.hand.mask
        events: list[list[tuple[int, int]]] = []  # per seat, (given, received) of each exchange or swap
        start = []
        for s in range(self.players):
            if s == seat and own is not None:
                events.append(list(own[1]))
                start.append(own[0])
                continue
            mine = self.exchanges(s, hands[s] | self.played[s] | self.taken(s), gives[s], rng)
            if mine is None:
                return None
            events.append(mine)
            start.append((hands[s] | self.played[s] | gives[s]) & ~sum(r for _, r in mine))
        order = [self.first]
        while len(order) < self.players:
            order.append(self.rules.left_of(order[-1]))
        drawn = [c for s in order for _, r in events[s] for c in bits(r & ~self.not_drawn)]
        rest = list(bits(self.leftover(pool)))
        rng.shuffle(rest)
        stock = [ALL_CARDS[c] for c in [*drawn, *rest]]
        deal, actions = self.replay([CardSet(h) for h in start], stock, events, records)
        return finish(self, deal, actions, start, stock)

    # What each game fills in.
    deck = 0
    hand_size = 0
    first = 0
    not_drawn = 0  # a card that comes to a hand in an exchange but not from the stock or talon

    def known(self) -> int:
        """The cards the seat has seen besides its hand and the cards played."""
        return 0

    def discards(self, seat: int, pool: int, own: bool, rng: random.Random) -> int | None:
        """The cards ``seat`` gave in its exchanges, unseen ones from ``pool`` (0 for the seat itself if ``own``)."""
        raise NotImplementedError

    def adjust(self, need: dict[int, int]) -> dict[int, int]:
        """How many unseen cards each other seat holds, from ``need`` (cards not played)."""
        return need

    def taken(self, seat: int) -> int:
        """Cards ``seat`` holds or played that are known to be in its hands though not seen there."""
        return 0

    def exchanges(self, seat: int, held: int, given: int, rng: random.Random) -> list[tuple[int, int]] | None:
        """``seat``'s exchanges in order, as (given, received): received among the cards it held later."""
        raise NotImplementedError

    def leftover(self, pool: int) -> int:
        """The stock or talon left undrawn, from the unseen cards nobody was given."""
        return pool

    def replay(
        self,
        start: list[CardSet],
        stock: list[Card],
        events: list[list[tuple[int, int]]],
        records: Sequence[int] | None,
    ) -> tuple[DealState, Sequence[object]]:
        """The new deal with the declarations replayed, and the actions taken."""
        raise NotImplementedError


def finish(
    guess: Guess[_V_co, _R_co], deal: DealState, actions: Sequence[object], start: list[int], stock: list[Card]
) -> Sample | None:
    """The end of :meth:`Guess.guess`: play the view's cards on ``deal``; the sample if the deal then
    looks to the seat as the view does."""
    taken = list(actions)
    for seat, card in guess.plays:
        if deal.to_move != seat:
            return None
        action = Play(card)
        taken.append(action)
        deal = deal.apply(action)
    view = guess.view
    if _public(deal.view(view.seat)) != _public(view):
        return None
    return Sample(tuple(CardSet(h) for h in start), tuple(stock), tuple(taken), deal)


def _public(view: Any) -> Any:  # a game's view: an attrs class, which SeatView does not say
    """A view without what depends on the match around the deal: the records, the deal's number."""
    hidden = (*view.score_lines, "winner", "deal_number")
    return attrs.evolve(view, **dict.fromkeys(hidden))
