"""The state of one deal: the exchange, then twelve tricks, scored as they go [DRF-4.1] [DRF-6.7].

A :class:`DreyfusDeal` is immutable; :meth:`DreyfusDeal.apply` returns a new one or
raises :class:`~fly_rules.errors.RuleViolation` naming the rule broken. The
rule logic lives in the section modules (:mod:`fly_rules.dreyfus.exchange`, :mod:`fly_rules.dreyfus.play`,
:mod:`fly_rules.dreyfus.scoring`, :mod:`fly_rules.dreyfus.end`); this class holds the fields and calls them.
Hands are int masks and cards are indices, so ``apply`` and
``legal_actions`` stay cheap; arguments are validated once, in
:func:`new_deal`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, Literal

import attrs

from fly_rules._choices import bits
from fly_rules.actions import Action, Exchange, Play, Stand
from fly_rules.cards import ALL_CARDS, Card, CardSet, Rank, Suit
from fly_rules.dreyfus.deal import HAND_SIZE, check_position, eldest, left_of
from fly_rules.dreyfus.end import winner_of
from fly_rules.dreyfus.exchange import check_exchange, discardable, exchange_choices, next_exchanger_turn
from fly_rules.dreyfus.play import PLAYS, check_play, legal_play_mask, opening_leader, required_mask, trick_taker
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.scoring import end_of_deal, scores_below
from fly_rules.engine import Pictured, replace, unwind
from fly_rules.errors import RuleViolation

__all__ = ["DreyfusDeal", "DreyfusView", "new_deal"]

Phase = Literal["exchange", "play", "over"]
_TRICKS_PER_DEAL: Final = 12
_Triple = tuple[int, int, int]


def _set(values: _Triple, seat: int, value: int) -> _Triple:
    if seat == 0:
        return (value, values[1], values[2])
    if seat == 1:
        return (values[0], value, values[2])
    return (values[0], values[1], value)


@attrs.frozen(repr=False)
class DreyfusView(Pictured):
    """What one seat may know of a deal, and nothing more [DRF-11.1] [DRF-4.6] [DRF-1.3]."""

    seat: int
    """The seat whose view this is."""
    deal_number: int
    """Deals completed before this one in the match (0 for the first)."""
    dealer: int
    """The dealer's seat."""
    contract: Suit | None
    """The trump suit, None for no trump."""
    trump_indicator: Card | None
    """The two of trumps shown as the marker, if shown and there are trumps."""
    phase: Phase
    """``"exchange"``, ``"play"`` or ``"over"``."""
    to_move: int | None
    """The seat to act, None when the deal is over."""
    hand: CardSet
    """This seat's cards."""
    discarded: CardSet
    """This seat's own discards."""
    bought: _Triple
    """Cards bought by each seat (written openly)."""
    talon_left: int
    """Cards still in the talon."""
    revealed_discards: tuple[CardSet, CardSet, CardSet] | None
    """Every seat's discards, when the rules reveal them."""
    revealed_talon: CardSet | None
    """The talon left after the exchange, when the rules reveal it."""
    leader: int
    """Who led (or is to lead) the current trick."""
    trick: tuple[Card, ...]
    """Cards played to the current trick, in order."""
    tricks: tuple[tuple[int, tuple[Card, ...]], ...]
    """Completed tricks: (leader, cards in play order)."""
    tricks_taken: _Triple
    """Tricks taken by each seat this deal."""
    upper: _Triple
    """Upper records."""
    lower: _Triple
    """Lower records."""
    winner: int | None
    """The match winner once decided."""


@attrs.frozen(repr=False)
class DreyfusDeal(Pictured):
    """One deal of Dreyfus in progress [DRF-4.1] [DRF-5.1] [DRF-6.7].

    Build one with :func:`new_deal` or from a match (:func:`~fly_rules.dreyfus.new_match`).
    """

    rules: DreyfusRules
    """The rules in force."""
    deal_number: int
    """Deals completed before this one in the match."""
    dealer: int
    """The dealer's seat."""
    contract: Suit | None
    """The trump suit, None for no trump [DRF-3.1]."""
    dealt: _Triple
    """Each hand as dealt, as a mask."""
    talon: tuple[int, ...]
    """The talon as dealt, card indices, top first [DRF-2.3]."""
    hands: _Triple
    """Each hand now, as a mask."""
    talon_taken: int
    """Cards taken from the top of the talon so far."""
    discards: _Triple
    """Each seat's discards, as a mask."""
    bought: _Triple
    """Cards bought by each seat [DRF-4.5]."""
    turn: int
    """Exchange turn: 0 eldest, 1 the next, 2 the dealer, 3 the play [DRF-4.1]."""
    to_move: int | None
    """The seat to act, None when the deal is over."""
    leader: int
    """Who leads the current trick."""
    trick: tuple[int, ...]
    """Card indices played to the current trick."""
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    """Completed tricks: (leader, card indices in play order)."""
    tricks_taken: _Triple
    """Tricks taken by each seat."""
    upper: _Triple
    """Upper records, including this deal so far."""
    lower: _Triple
    """Lower records, including this deal's overtricks so far [DRF-7.2]."""
    revokes: _Triple
    """Revokes by each seat this deal (penalty mode only) [DRF-10.1]."""
    reached: tuple[int, ...]
    """Seats whose lower record reached the target this deal, in order [DRF-8.2]."""
    history: tuple[Any, ...] | None = attrs.field(default=None, eq=False)
    """The actions taken in this deal, newest first, as nested pairs."""

    @property
    def actions(self) -> tuple[Any, ...]:
        """The actions taken in this deal, oldest first."""
        return unwind(self.history)

    @property
    def phase(self) -> Phase:
        """``"exchange"``, ``"play"`` or ``"over"`` [DRF-4.1] [DRF-6.7]."""
        if self.turn < 3:
            return "exchange"
        return "play" if self.to_move is not None else "over"

    @property
    def is_over(self) -> bool:
        """Whether all twelve tricks are played [DRF-6.7]."""
        return self.to_move is None

    @property
    def winner(self) -> int | None:
        """The match winner if decided in this deal, else None [DRF-8.2]."""
        return winner_of(self.reached, self.upper, self.lower, self.to_move is None, self.rules)

    @property
    def talon_left(self) -> int:
        """Cards still in the talon [DRF-4.3]."""
        return HAND_SIZE - self.talon_taken

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to move may take [DRF-4.4] [DRF-6.2].

        In the exchange: a lazy sequence, the stand first, then every allowed
        exchange (DRF-4.4). In the play: one :class:`Play` per playable card, in
        canonical card order. Empty when the deal is over.
        """
        seat = self.to_move
        if seat is None:
            return ()
        if self.turn < 3:
            eligible = discardable(self.hands[seat], self.dealt[seat], self.contract, self.rules)
            return exchange_choices(eligible, HAND_SIZE - self.talon_taken, self.rules)
        mask = legal_play_mask(self.hands[seat], self.trick, self.contract, self.rules)
        return tuple(PLAYS[i] for i in bits(mask))

    def apply(self, action: Action) -> DreyfusDeal:
        """The state after ``action`` by the seat to move [DRF-1.4] [DRF-4.1].

        Raises:
            RuleViolation: naming the rule the action breaks; the state is unchanged.
        """
        after = self._apply(action)
        # the successor is brand new and not yet shared: recording the action on it is part of building it
        object.__setattr__(after, "history", (action, self.history))
        return after

    def _apply(self, action: Action) -> DreyfusDeal:
        kind = type(action)
        if self.to_move is None:
            raise RuleViolation("DRF-6.7", "the deal is over", action)
        if self.turn < 3:
            if kind is Exchange:
                return self._exchange(action.cards.mask)  # type: ignore[union-attr]
            if kind is Stand:
                return self._end_turn(self.bought, self.upper)
            if kind is Play:
                raise RuleViolation("DRF-4.1", "no card is played before the exchange is over", action)
        elif kind is Play:
            return self._play(action.card.index)  # type: ignore[union-attr]
        elif kind is Exchange or kind is Stand:
            raise RuleViolation("DRF-4.1", "the exchange is over", action)
        raise RuleViolation("DRF-1.4", "Dreyfus knows only exchange, stand and play", action)

    # -- the exchange ---------------------------------------------------------------

    def _exchange(self, discard: int) -> DreyfusDeal:
        """Discard and draw as many from the top of the talon [DRF-4.2] [DRF-4.3] [DRF-4.5]."""
        seat: int = self.to_move  # type: ignore[assignment]
        hand = self.hands[seat]
        rules = self.rules
        eligible = discardable(hand, self.dealt[seat], self.contract, rules)
        taken = self.talon_taken
        size = discard.bit_count()
        limit = 1 if rules.exchange_mode == "incremental" else HAND_SIZE - taken
        if not discard or discard & ~eligible or size > limit or size > HAND_SIZE - taken:
            check_exchange(discard, hand, eligible, HAND_SIZE - taken, rules)
        drawn = 0
        for index in self.talon[taken : taken + size]:
            drawn |= 1 << index
        bought = _set(self.bought, seat, self.bought[seat] + size)
        upper = _set(self.upper, seat, self.upper[seat] + size)  # DRF-4.5
        state = replace(
            self,
            hands=_set(self.hands, seat, hand & ~discard | drawn),
            discards=_set(self.discards, seat, self.discards[seat] | discard),
            talon_taken=taken + size,
            bought=bought,
            upper=upper,
        )
        if rules.exchange_mode == "incremental" and taken + size < HAND_SIZE:
            return state
        return state._end_turn(bought, upper)

    def _end_turn(self, bought: _Triple, upper: _Triple) -> DreyfusDeal:
        """Pass the exchange to the next player, or begin the play [DRF-4.1] [DRF-5.1]."""
        turn = next_exchanger_turn(self.turn, HAND_SIZE - self.talon_taken)
        if turn < 3:
            return replace(self, turn=turn, to_move=(eldest(self.dealer) + turn) % 3)
        leader = opening_leader(self.dealer, bought, self.rules)
        return replace(self, turn=3, to_move=leader, leader=leader)

    # -- the play -------------------------------------------------------------------

    def _play(self, card: int) -> DreyfusDeal:
        """Play ``card``; on the third card the trick is taken and scored [DRF-6.1] [DRF-6.6] [DRF-7.2]."""
        seat: int = self.to_move  # type: ignore[assignment]
        hand = self.hands[seat]
        rules = self.rules
        contract = self.contract
        trick = self.trick
        if not legal_play_mask(hand, trick, contract, rules) >> card & 1:
            check_play(card, hand, trick, contract, rules)
        hands = _set(self.hands, seat, hand & ~(1 << card))
        lower = self.lower
        revokes = self.revokes
        reached = self.reached
        if rules.revoke_handling == "penalize" and not required_mask(hand, trick, contract, rules) >> card & 1:
            # DRF-10.1: he loses this deal's score for tricks, and any claim to have reached the target
            if not revokes[seat]:
                lower = _set(lower, seat, lower[seat] - max(0, self.tricks_taken[seat] - rules.par_tricks))
                reached = tuple(s for s in reached if s != seat)
            revokes = _set(revokes, seat, revokes[seat] + 1)
        trick = (*trick, card)
        if len(trick) < 3:
            return replace(
                self, hands=hands, trick=trick, to_move=left_of(seat), lower=lower, revokes=revokes, reached=reached
            )
        taker = trick_taker(self.leader, trick, contract)
        taken = _set(self.tricks_taken, taker, self.tricks_taken[taker] + 1)
        if scores_below(taken[taker], revokes[taker] > 0, rules):
            lower = _set(lower, taker, lower[taker] + 1)  # DRF-7.2
            if lower[taker] >= rules.target_lower and taker not in reached:
                reached = (*reached, taker)
        tricks = (*self.tricks, (self.leader, trick))
        if len(tricks) < _TRICKS_PER_DEAL:
            return replace(
                self,
                hands=hands,
                trick=(),
                tricks=tricks,
                tricks_taken=taken,
                leader=taker,
                to_move=taker,
                lower=lower,
                revokes=revokes,
                reached=reached,
            )
        upper, lower = end_of_deal(self.upper, lower, taken, revokes, rules)
        return replace(
            self,
            hands=hands,
            trick=(),
            tricks=tricks,
            tricks_taken=taken,
            leader=taker,
            to_move=None,
            upper=upper,
            lower=lower,
            revokes=revokes,
            reached=reached,
        )

    # -- information ----------------------------------------------------------------

    def view(self, seat: int) -> DreyfusView:
        """What ``seat`` may know: his hand and discards, and the public record [DRF-11.1] [DRF-4.6]."""
        if seat not in (0, 1, 2):
            raise ValueError(f"a seat is 0, 1 or 2, not {seat!r}")
        rules = self.rules
        contract = self.contract
        indicator = Card(Rank.TWO, contract) if rules.show_trump_indicator and contract is not None else None
        revealed_talon = None
        if rules.reveal_leftover_talon and self.turn >= 3:
            revealed_talon = CardSet(sum(1 << i for i in self.talon[self.talon_taken :]))
        revealed_discards = None
        if rules.reveal_discards:
            d = self.discards
            revealed_discards = (CardSet(d[0]), CardSet(d[1]), CardSet(d[2]))
        return DreyfusView(
            seat=seat,
            deal_number=self.deal_number,
            dealer=self.dealer,
            contract=contract,
            trump_indicator=indicator,
            phase=self.phase,
            to_move=self.to_move,
            hand=CardSet(self.hands[seat]),
            discarded=CardSet(self.discards[seat]),
            bought=self.bought,
            talon_left=self.talon_left,
            revealed_discards=revealed_discards,
            revealed_talon=revealed_talon,
            leader=self.leader,
            trick=tuple(ALL_CARDS[i] for i in self.trick),
            tricks=tuple((lead, tuple(ALL_CARDS[i] for i in cards)) for lead, cards in self.tricks),
            tricks_taken=self.tricks_taken,
            upper=self.upper,
            lower=self.lower,
            winner=self.winner,
        )

    def __repr__(self) -> str:
        hands = " | ".join(str(CardSet(h)) for h in self.hands)
        return (
            f"<Dreyfus deal {self.deal_number} {self.phase}, contract {self.contract}, to move {self.to_move}, "
            f"hands {hands}, tricks {self.tricks_taken}, upper {self.upper}, lower {self.lower}>"
        )


def _mask_of(cards: CardSet | str | Iterable[Card | str], what: str) -> int:
    if isinstance(cards, CardSet):
        return cards.mask
    items = _card_list(cards)
    mask = 0
    for card in items:
        if mask & card.bit:
            raise RuleViolation("DRF-2.4", f"{card} appears twice in {what}", card)
        mask |= card.bit
    return mask


def _card_list(cards: CardSet | str | Iterable[Card | str]) -> list[Card]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return [Card.parse(c) if isinstance(c, str) else c for c in cards]


def _triple(values: Sequence[int], name: str) -> _Triple:
    if len(values) != 3 or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        raise ValueError(f"{name} must be three non-negative ints, not {values!r}")
    return (values[0], values[1], values[2])


def _contract(contract: Suit | str | None) -> Suit | None:
    if contract is None or isinstance(contract, Suit):
        return contract
    return Suit.parse(contract)


def new_deal(
    rules: DreyfusRules,
    hands: Sequence[CardSet | str | Iterable[Card | str]],
    talon: Sequence[Card | str] | str,
    contract: Suit | str | None,
    dealer: int,
    upper: Sequence[int] = (0, 0, 0),
    lower: Sequence[int] = (0, 0, 0),
    *,
    deal_number: int = 0,
) -> DreyfusDeal:
    """A deal from given hands and talon (``talon[0]`` is the top), ready for the exchange [DRF-2.4] [DRF-4.1].

    Args:
        rules: the rules in force.
        hands: the three hands by seat, twelve cards each.
        talon: the twelve talon cards, top first.
        contract: the trump suit, or None for no trump.
        dealer: the dealer's seat.
        upper: upper records before the deal.
        lower: lower records before the deal; each below the target.
        deal_number: the deal's number in its match (for views).

    Raises:
        RuleViolation: DRF-2.4 or DRF-1.2 for an irregular deal; DRF-8.1 if a lower
            record has already reached the target (the match is over).
        ValueError: for a seat or records out of range.
    """
    if not isinstance(rules, DreyfusRules):
        raise TypeError(f"rules must be DreyfusRules, not {type(rules).__name__}")
    if isinstance(dealer, bool) or dealer not in (0, 1, 2):
        raise ValueError(f"the dealer is seat 0, 1 or 2, not {dealer!r}")
    masks = tuple(_mask_of(hand, f"hand {seat}") for seat, hand in enumerate(hands))
    talon_cards = tuple(c.index for c in _card_list(talon))
    check_position(masks, talon_cards)
    up = _triple(upper, "upper")
    low = _triple(lower, "lower")
    for seat in range(3):
        if low[seat] >= rules.target_lower:
            raise RuleViolation("DRF-8.1", f"seat {seat} has already reached {rules.target_lower} below", low)
    return _fresh(rules, deal_number, dealer, _contract(contract), (masks[0], masks[1], masks[2]), talon_cards, up, low)


def _fresh(
    rules: DreyfusRules,
    deal_number: int,
    dealer: int,
    contract: Suit | None,
    hands: _Triple,
    talon: tuple[int, ...],
    upper: _Triple,
    lower: _Triple,
) -> DreyfusDeal:
    """A dealt deal at eldest's exchange turn, from checked pieces [DRF-4.1]."""
    first = eldest(dealer)
    return DreyfusDeal(
        rules=rules,
        deal_number=deal_number,
        dealer=dealer,
        contract=contract,
        dealt=hands,
        talon=talon,
        hands=hands,
        talon_taken=0,
        discards=(0, 0, 0),
        bought=(0, 0, 0),
        turn=0,
        to_move=first,
        leader=first,
        trick=(),
        tricks=(),
        tricks_taken=(0, 0, 0),
        upper=upper,
        lower=lower,
        revokes=(0, 0, 0),
        reached=(),
    )
