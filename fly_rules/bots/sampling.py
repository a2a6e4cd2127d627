"""Guess the cards a seat cannot see: a whole deal consistent with its view.

:func:`sample_deal` deals the hidden cards at random among the other hands, the discards and the
stock (Fly) or talon (Dreyfus), so that the deal it rebuilds through the public engine (``new_deal``,
then every declaration and card as the view shows them) looks exactly like the view to its seat:
the same hand, declarations, tricks and point of play. What the seat has seen rules cards out: the
cards played and where, the suits a seat has shown void in, the trump card, revealed discards and
talon, and (when given) the seat's own hand as dealt and its exchanges. A guess that the engine
refuses (it breaks a duty nobody could see) is drawn again. Monte-Carlo search (:class:`MonteCarloBot
<fly_rules.bots.MonteCarloBot>`) and OpenSpiel's information-set MCTS
(``CardGameState.resample_from_infostate`` in :mod:`fly_rules.adapters.openspiel`) both use it.

>>> import random
>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=4), seed=3, dealer=0)
>>> view = match.view(2)
>>> guess = sample_deal(view, match.rules, random.Random(1))
>>> guess.deal.view(2).hand == view.hand, guess.deal.hands == match.deal.hands
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from fly_rules import registry
from fly_rules._choices import bits
from fly_rules.actions import Play
from fly_rules.cards import ALL_CARDS, Card, CardSet
from fly_rules.errors import RuleViolation

__all__ = ["Guess", "Sample", "finish", "sample_deal"]

_SUITS = tuple(sum(1 << (suit * 13 + rank) for rank in range(13)) for suit in range(4))


@attrs.frozen
class Sample:
    """A deal consistent with a view, and how it came about."""

    hands: tuple[CardSet, ...]
    """Each seat's hand as dealt."""
    stock: tuple[Card, ...]
    """The stock (Fly) or talon (Dreyfus) as dealt, top first."""
    actions: tuple[Any, ...]
    """Every action of the deal up to the view's point, in order."""
    deal: Any
    """The deal after those actions: its view for the seat is the view sampled from."""


def sample_deal(
    view: Any,
    rules: Any,
    rng: random.Random,
    *,
    dealt: CardSet | None = None,
    exchanges: Sequence[tuple[CardSet, CardSet]] | None = None,
    records: Sequence[int] | None = None,
    tries: int = 50,
) -> Sample | None:
    """A random deal that shows ``view.seat`` exactly ``view``, or None if ``tries`` guesses all fail.

    Args:
        view: what the seat sees (``deal.view(seat)``).
        rules: the rules of the deal.
        rng: all randomness comes from here.
        dealt: the seat's hand as dealt, if known (a view only shows the hand now).
        exchanges: the seat's own exchanges (and Fly swaps) in order, as (cards given, cards received),
            if known; with ``dealt``, the guess keeps the seat's own history as it was.
        records: Fly: the records at the start of the deal; Dreyfus: the upper records then (the lower
            ones are taken as 0). Default: the engine's.
        tries: guesses to draw before giving up.

    Raises:
        ValueError: ``exchanges`` without ``dealt``.
    """
    if exchanges is not None and dealt is None:
        raise ValueError("a seat's own exchanges are only of use with its hand as dealt (dealt=)")
    game: Guess = registry.game_of(view).guesser(view, rules)
    own = None if dealt is None else (dealt.mask, [(g.mask, r.mask) for g, r in exchanges or ()])
    for _ in range(tries):
        try:
            sample: Sample | None = game.guess(rng, own, records)
        except RuleViolation:
            continue
        if sample is not None:
            return sample
    return None


class Guess:
    """What every game's guess shares: the seat's knowledge as masks, the dealing out of the hidden cards.

    A game's guesser (its descriptor's ``guesser``) fills in the methods below that raise
    ``NotImplementedError``, and the others where its rules differ.
    """

    def __init__(
        self,
        view: Any,
        rules: Any,
        players: int,
        tricks: list[list[tuple[int, Card]]],
        counts: list[int],
        trump: Any,
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
            trumped = False
            for k, (seat, card) in enumerate(trick):
                led = trick[0][1].suit
                if k and card.suit != led:
                    self.forbidden[seat] |= _SUITS[led]  # did not follow: void in the suit led
                    if trump is not None and duty is not None and card.suit != trump and not (free and trumped):
                        self.forbidden[seat] |= _SUITS[trump]  # nor trumped, as a void player must
                trumped |= card.suit == trump

    def hidden_hands(self, pool: int, need: dict[int, int], rng: random.Random) -> dict[int, int] | None:
        """Deal ``need[seat]`` cards of ``pool`` to each seat, none that it cannot hold."""
        hands: dict[int, int] = {}
        for seat in sorted(need, key=lambda s: -self.forbidden[s].bit_count()):
            chosen = self.pick(pool & ~self.forbidden[seat], need[seat], rng)
            if chosen is None:
                return None
            hands[seat] = chosen
            pool &= ~chosen
        return hands

    @staticmethod
    def pick(cards: int, count: int, rng: random.Random) -> int | None:
        """``count`` of the cards of the mask ``cards`` at random, as a mask; None if there are fewer."""
        choices = list(bits(cards))
        if not 0 <= count <= len(choices):
            return None
        return sum(1 << c for c in rng.sample(choices, count))

    def guess(self, rng: random.Random, own: Any, records: Sequence[int] | None) -> Sample | None:
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
        self, start: list[CardSet], stock: list[Card], events: list[list[tuple[int, int]]], records: Any
    ) -> tuple[Any, list[Any]]:
        """The new deal with the declarations replayed, and the actions taken."""
        raise NotImplementedError


def finish(guess: Guess, deal: Any, actions: list[Any], start: list[int], stock: list[Card]) -> Sample | None:
    """The end of :meth:`Guess.guess`: play the view's cards on ``deal``; the sample if the deal then
    looks to the seat as the view does."""
    for seat, card in guess.plays:
        if deal.to_move != seat:
            return None
        action = Play(card)
        actions.append(action)
        deal = deal.apply(action)
    view = guess.view
    if _public(deal.view(view.seat)) != _public(view):
        return None
    return Sample(tuple(CardSet(h) for h in start), tuple(stock), tuple(actions), deal)


def _public(view: Any) -> Any:
    """A view without what depends on the match around the deal: the records, the deal's number."""
    hidden = (*view.score_lines, "winner", "deal_number")
    return attrs.evolve(view, **dict.fromkeys(hidden))
