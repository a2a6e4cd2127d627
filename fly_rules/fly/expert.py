"""What the expert bot (:class:`fly_rules.bots.ExpertBot`) knows of Fly: its hints (:class:`FlyExpertHints`, an
:class:`~fly_rules.engine.hints.ExpertHints` and :class:`~fly_rules.engine.hints.ModelHints`) and the guess of
players who declare like the rule of thumb (:class:`ThumbGuess`). Beside the race model (:mod:`fly_rules.fly.race`)
and the rule of thumb (:mod:`fly_rules.fly.bot`), both of which it imports: neither imports it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from fly_rules._choices import bits
from fly_rules.actions import Action, Exchange, Play
from fly_rules.cards import Card, CardSet, RankOrder
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Guess, Sample
from fly_rules.engine.hints import Concept
from fly_rules.engine.protocols import Rules, SeatView
from fly_rules.errors import RuleViolation
from fly_rules.fly.bot import _ACE_OF_SPADES, FlyRuleOfThumbBot
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.hidden import FlyGuess
from fly_rules.fly.play import playable_mask
from fly_rules.fly.positions import new_deal
from fly_rules.fly.race import race_of
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.state import FlyDeal, FlyView
from fly_rules.tricks import card_strength

__all__ = ["FlyExpertHints", "ThumbGuess"]


class FlyExpertHints:
    """What the expert bot (:class:`fly_rules.bots.ExpertBot`) needs to know of Fly: which declarations are
    worth searching, and a seat's records when the deal began (the guessed deals are replayed from there).

    Args:
        rules: the rules played.
    """

    concept: Concept = "maxn"
    """The solver's concept of the open analysis: every seat for itself [FLY-1.5]."""
    expert_concept: Concept = "paranoid"
    """The concept the expert solves its guesses by: its own score against the rest. On the same deals its play is
    as strong as by max^n, and the search visits five to nine times fewer positions (alpha-beta prunes where max^n
    cannot)."""
    model_others = True
    """The expert takes the other seats to play like the rule of thumb: it values each guessed deal by its best
    response to them (:mod:`fly_rules.solve.respond`), and prefers the guesses where the rule of thumb would have
    made the others' moves."""
    samples = 12
    """Guessed deals per decision in the play by default."""
    declaration_samples = 64
    """Guessed deals per declaration by default."""
    sight_free_declarations = True
    """A declaration is valued with the seat playing the rest of each guessed deal like the model, as it could
    without seeing the guess's cards. A best response there would see them, and would value standing on a
    marginal hand as if it knew where every card lay (strategy fusion); played on like the model the values are
    cheaper too, which buys four times the guesses."""
    draws = 4
    """Guesses drawn per guessed deal wanted, to find those the model agrees with."""
    budget = 1_000_000
    """Positions the searches of one decision may visit in all, by default."""

    def __init__(self, rules: FlyRules) -> None:
        self.rules = rules
        self.order: RankOrder = rules.rank_order
        self._inferences: dict[Any, int] = {}  # the current deal's, by the plays up to each of the others'
        self._inferring: Any = None  # the deal they are of

    def guesser(self, model: object) -> Callable[[FlyView, FlyRules], Guess[SeatView, Rules]] | None:
        """How to guess the cards of players who play like ``model``: for the rule of thumb under the plain
        declarations (every seat declares once, no cap on the exchanges in all), a :class:`ThumbGuess`;
        otherwise None (the game's own guess)."""
        rules = self.rules
        if not isinstance(model, FlyRuleOfThumbBot) or rules.declaration_mode != "combined":
            return None
        if rules.total_exchange_cap is not None:
            return None
        return lambda view, rules: ThumbGuess(view, rules, model)

    def inferred(self, view: FlyView, sample: Sample, model: object) -> tuple[int, ...]:
        """Per seat, the cards it cannot hold now if it played its cards like ``model`` (0 for the view's own).

        At each card another seat played, a card ``x`` unseen by the view is ruled out of that seat's hand when,
        holding only ``x`` and the card it played, the model would have played ``x``. For a model that plays the
        best legal card by a fixed preference (the rule of thumb's cheapest winner, its strongest lead) nothing
        it could hold is ruled out: the card it played was its best, so also the better of any two it held. The
        replay of ``sample`` gives the position of each play; what is ruled out depends only on the public play
        up to it, and is kept for the rest of the deal."""
        seat = view.seat
        start = (seat, view.dealer, view.deal_number, view.trump_card, view.declarations)
        if start != self._inferring:
            self._inferences, self._inferring = {}, start
        played = sum(card.bit for trick in (*view.tricks, view.trick) for _, card in trick)
        unseen = sum(card.bit for card in self.rules.deck) & ~(played | view.hand.mask | view.trump_card.bit)
        out = [0] * view.players
        deal = self._dealt(view, sample, self.replay_records(view))  # records no replayed trick can end [FLY-9.1]
        plays: tuple[tuple[int, Card], ...] = ()
        for action in sample.actions:
            mover = deal.to_move
            if deal.phase is Phase.PLAY and mover is not None and mover != seat:
                key = (plays, mover)
                ruled_out = self._inferences.get(key)
                if ruled_out is None:
                    ruled_out = self._inferences[key] = self._ruled_out(deal, mover, action, unseen, model)
                out[mover] |= ruled_out
            if deal.phase is Phase.PLAY and mover is not None:
                plays = (*plays, (mover, action.card))
            try:
                deal = deal.apply(action)
            except RuleViolation:  # a replay that ends otherwise than the view: what was inferred so far stands
                break
        return tuple(out)

    @staticmethod
    def _ruled_out(deal: FlyDeal, mover: int, played: Play, unseen: int, model: Any) -> int:
        """The cards of ``unseen`` that ``mover``, holding one of them beside ``played``, would have played
        instead by ``model``."""
        table, trick, hands = deal.table, deal.trick_cards, list(deal.hand_masks)
        if played.card.bit == _ACE_OF_SPADES and table.privileged:
            led_ace = bool(trick) and trick[0] == table.trump_ace
            if table.top_trump or (led_ace and table.rules.ace_of_spades_mode == "led_trump_ace"):
                return 0  # FLY-7.2: played whatever else was held, so it says nothing of the rest
        ruled_out = 0
        for x in bits(unseen):
            hands[mover] = played.card.bit | 1 << x
            legal = playable_mask(table, hands[mover], trick)
            if not legal >> x & 1:
                continue
            trial = deal._replace(hand_masks=tuple(hands), legal_mask=legal)
            if model.choose(trial.view(mover), trial.legal_actions(), random.Random(0)) != played:
                ruled_out |= 1 << x
        return ruled_out

    def match_chance(self) -> Callable[[Sequence[int], int], float] | None:
        """A seat's chance of winning the match from the records (:func:`fly_rules.fly.race.race_of`), or None
        where the rules are not a race of whole tricks to zero."""
        race = race_of(self.rules)
        return None if race is None else race.chance

    def candidates(self, view: FlyView, legal_actions: Sequence[Action]) -> list[Action]:
        """The declarations worth searching, in ``legal_actions`` order: standing, folding, each swap of the
        trump card, and for each number of cards the exchange of that many of the weakest (plain low cards
        first, trumps and the A♠ last) [FLY-4.2]."""
        trump = view.trump
        weakest = sorted(view.hand, key=lambda card: (card.index == 51, card_strength(card, trump, self.order)))
        wanted = {Exchange(CardSet.of(weakest[:count])) for count in range(1, len(weakest) + 1)}
        return [a for a in legal_actions if not isinstance(a, Exchange) or a in wanted]

    def world(self, view: FlyView, sample: Sample) -> FlyDeal:
        """The guessed deal of ``sample`` with every record as ``view`` shows it now.

        The view does not show the records at the deal's start, so the guess is replayed from records high
        enough that no trick can end the match on the way (:meth:`replay_records`); the tricks replayed then
        wrote off what they wrote off in the guessed deal (which may give the A♠ to another seat). So the deal
        is dealt again from the records now plus what the replay wrote off, and its records come out as the
        view's [FLY-8.2] [FLY-8.3]. Where they cannot (in the real deal a record went past zero and started
        again, FLY-9.2) the first replay stands, and where no replay stands, the sample's own deal."""
        rebuilt = self._rebuilt(view, sample, None)
        return sample.deal if rebuilt is None else rebuilt[0]

    def modelled(self, view: FlyView, sample: Sample, model: object) -> tuple[FlyDeal, int] | None:
        """``sample``'s deal as players who play like ``model`` would have come to it, with every record as
        :meth:`world` gives it, and how many of the other seats' moves the model would have made otherwise;
        None if the model's declarations cannot lead to the view's play.

        Where the model makes an exchange (or a swap of the trump card) of as many cards as the guess, its
        own choice of cards replaces the guess's: the cards given are hidden, so the view is the same, and
        the guess then holds what the model would have kept [FLY-4.2] [FLY-4.4]."""
        return self._rebuilt(view, sample, model)

    def default_declaration(self, view: FlyView, legal_actions: Sequence[Action]) -> Action | None:
        """None: the expert keeps the rule of thumb's declaration unless its search finds a clearly better one."""
        return None

    def replay_records(self, view: FlyView) -> tuple[int, ...]:
        """The records to replay a guess of ``view``'s deal from: the records now, each raised by the most that the
        seat's tricks so far can have written off (every trick, and the A♠ bonus once) [FLY-8.2] [FLY-8.3].

        From the records now a replay writes the deal's tricks off a second time, and a low record then reaches
        zero and ends the replayed deal early [FLY-9.1], or goes past it and starts again [FLY-9.2]: no guess
        of the deal would be found. From these records no trick of the replay can."""
        rules = self.rules
        bonus = max(rules.ace_bonus, rules.ace_bonus_trumps)
        return tuple(
            now + (taken * rules.trick_value + bonus if taken else 0)
            for now, taken in zip(view.records, view.tricks_taken, strict=True)
        )

    def _rebuilt(self, view: FlyView, sample: Sample, model: object) -> tuple[FlyDeal, int] | None:
        """:meth:`world` (``model`` None: the sample's own moves) or :meth:`modelled`: replayed from
        :meth:`replay_records`, then again from the records worked back (the records now and what that replay
        wrote off), so that the records come out as the view's."""
        high = self.replay_records(view)
        first = self._replay(view, sample, high, model)
        if first is None or first[0].records == view.records:
            return first
        start = tuple(now + top - end for now, top, end in zip(view.records, high, first[0].records, strict=True))
        again = self._replay(view, sample, start, model)
        return again if again is not None and again[0].records == view.records else first

    def _dealt(self, view: FlyView, sample: Sample, records: tuple[int, ...]) -> FlyDeal:
        """The deal of ``sample`` before its first move, from ``records``."""
        return new_deal(
            self.rules,
            hands=sample.hands,
            trump_card=view.trump_card,
            stock=sample.stock,
            dealer=view.dealer,
            records=records,
        )

    def _replay(
        self, view: FlyView, sample: Sample, records: tuple[int, ...], model: Any
    ) -> tuple[FlyDeal, int] | None:
        """The sample dealt from ``records`` and its moves replayed, the others' as ``model`` would make them where
        the view cannot tell them apart (every move as guessed if ``model`` is None), and the model's misses."""
        deal = self._dealt(view, sample, records)
        misses = 0
        for guessed in sample.actions:
            mover = deal.to_move
            action = guessed
            if model is not None and mover is not None and mover != view.seat:
                theirs = model.choose(deal.view(mover), deal.legal_actions(), random.Random(0))
                if theirs != guessed:
                    if _alike(theirs, guessed):
                        action = theirs
                    else:
                        misses += 1
            try:
                deal = deal.apply(action)
            except RuleViolation:
                return None
        return deal, misses


class ThumbGuess(FlyGuess):
    """Fly's guess for players who declare like the rule of thumb (:class:`FlyRuleOfThumbBot`): it keeps its
    good cards (trumps, aces, kings) and exchanges the rest, or folds a hand with none [FLY-4.2].

    So, of another seat that made one declaration: one that folded held no good card, and one that stood with
    cards left in the stock held no other; one that exchanged gave only cards that are not good and, if it
    could have exchanged more, kept only good ones. The guess deals each seat's unseen cards within those
    bounds, each hand as often as the deals that lead to it. A dealer who took the trump card is guessed as usual.

    Args:
        view: what the seat sees.
        rules: the rules of the deal.
        model: the rule-of-thumb player the other seats are taken to be.
    """

    def __init__(self, view: FlyView, rules: FlyRules, model: FlyRuleOfThumbBot) -> None:
        super().__init__(view, rules)
        trump = view.trump
        self.good = sum(card.bit for card in rules.deck if model._good(card, trump))
        self.weak = self.deck & ~self.good
        self.gives_weak: set[int] = set()  # seats whose discards are all weak
        self.weak_held: dict[int, int] = {}  # per seat that kept only good cards, the weak ones it may hold
        stock = view.stock_size + sum(self.counts)  # the stock before the first exchange
        seat = rules.left_of(view.dealer)
        for _ in range(view.players):
            declared = view.declarations[seat]
            limit = min(rules.max_exchange, stock)
            if seat != view.seat and len(declared) == 1:
                kind, count = declared[0].kind, declared[0].count
                if kind == "fold":
                    self.forbidden[seat] |= self.good
                elif kind == "stand" and limit:
                    self.forbidden[seat] |= self.weak
                elif kind == "exchange":
                    self.gives_weak.add(seat)
                    if count < limit:
                        self.weak_held[seat] = count
            stock -= sum(d.count for d in declared if d.kind == "exchange")
            seat = rules.left_of(seat)

    def discards(self, seat: int, pool: int, own: bool, rng: random.Random) -> int | None:
        """The cards ``seat`` gave in its exchanges: weak ones if it exchanged like the rule of thumb."""
        return super().discards(seat, pool & self.weak if seat in self.gives_weak else pool, own, rng)

    def pick_hand(self, seat: int, allowed: int, count: int, rng: random.Random) -> int | None:
        """``count`` of the cards ``allowed`` for ``seat``; to a seat that kept only good cards no more weak ones
        than it received."""
        if seat in self.weak_held:
            return self._pick_kept_good(seat, allowed, count, rng)
        return self.pick(allowed, count, rng)

    def _pick_kept_good(self, seat: int, cards: int, count: int, rng: random.Random) -> int | None:
        """``count`` of ``cards`` for ``seat``, which kept only good cards: with at most as many weak ones as it
        received, each choice as likely as the deals that lead to it (the ways its received cards can be chosen
        among the ones it holds: all the weak ones, the rest among the good)."""
        exchanged = self.counts[seat]
        played_weak = (self.played[seat] & self.weak).bit_count()
        weak, good = (cards & self.weak).bit_count(), (cards & self.good).bit_count()
        options = range(max(0, count - good), min(weak, count) + 1)
        weights = [
            math.comb(weak, k)
            * math.comb(good, count - k)
            * math.comb(self.hand_size - played_weak - k, exchanged - played_weak - k)
            if played_weak + k <= exchanged
            else 0
            for k in options
        ]
        if not sum(weights):
            return None
        k = rng.choices(options, weights)[0]
        low, high = self.pick(cards & self.weak, k, rng), self.pick(cards & self.good, count - k, rng)
        return None if low is None or high is None else low | high

    def exchanges(self, seat: int, held: int, given: int, rng: random.Random) -> list[tuple[int, int]] | None:
        """``seat``'s exchanges: one that kept only good cards received every weak card it held."""
        if seat not in self.weak_held:
            return super().exchanges(seat, held, given, rng)
        weak = held & self.weak
        rest = self.pick(held & self.good, self.counts[seat] - weak.bit_count(), rng)
        return None if rest is None else [(given, weak | rest)]


def _alike(mine: Any, guessed: Any) -> bool:
    """Two declarations a seat's view cannot tell apart: exchanges of as many cards, swaps of the trump card."""
    if isinstance(mine, Exchange) and isinstance(guessed, Exchange):
        return len(mine.cards) == len(guessed.cards)
    return isinstance(mine, SwapTrump) and isinstance(guessed, SwapTrump)
