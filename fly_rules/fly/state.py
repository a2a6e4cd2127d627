"""The state of one deal of Fly, and what one seat may see of it.

The state is a frozen value: ``apply`` returns a new one and never changes the
old. The rules themselves live in the section modules (:mod:`fly_rules.fly.exchange`,
:mod:`fly_rules.fly.play`, :mod:`fly_rules.fly.scoring`); this class holds the fields and routes each
action to its section.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from fly_rules.actions import Action, Exchange, Fold, Play, Stand
from fly_rules.cards import ALL_CARDS, Card, CardSet, RankOrder, Suit
from fly_rules.engine import Phase, Pictured, replace, unwind
from fly_rules.errors import RuleViolation
from fly_rules.fly.rules import FlyRules
from fly_rules.tricks import TrumpDuty

__all__ = ["ACE_OF_SPADES", "Bidding", "Declared", "FlyDeal", "FlyView", "Phase", "SwapTrump", "Table", "Tally"]

ACE_OF_SPADES = 51
"""Index of the A♠ (``Card.parse("AS").index``)."""


def _to_card(value: Card | str) -> Card:
    return Card.parse(value) if isinstance(value, str) else value


@attrs.frozen
class SwapTrump:
    """The dealer takes the turned-up trump card into his hand and discards ``card``
    (only with ``turnup_use="dealer_swap"``) [FLY-3.3]."""

    card: Card = attrs.field(converter=_to_card)
    """The card the dealer discards in exchange for the trump card."""

    def __str__(self) -> str:
        return f"swap-trump {self.card}"


@attrs.frozen
class Declared:
    """A declaration as the other players see it: its kind and, for an exchange,
    how many cards (never which) [FLY-4.2]."""

    kind: str
    """``"exchange"``, ``"stand"``, ``"fold"`` or ``"swap"`` (dealer took the trump card)."""
    count: int = 0
    """How many cards were exchanged."""


@attrs.frozen(kw_only=True)
class FlyView(Pictured):
    """What one seat may know of a deal: its own hand and everything public [FLY-5.1]."""

    seat: int
    """The seat this view belongs to."""
    players: int
    """Number of players."""
    dealer: int
    """The dealer's seat."""
    deal_number: int
    """0 for a match's first deal."""
    phase: Phase
    """Where the deal stands."""
    to_move: int | None
    """The seat to act, or None."""
    hand: CardSet
    """This seat's cards."""
    trump_card: Card
    """The turned-up card; its suit is trump."""
    stock_size: int
    """Cards left in the stock."""
    declarations: tuple[tuple[Declared, ...], ...]
    """Per seat, what it has declared so far, in order."""
    active: tuple[bool, ...]
    """Per seat, whether it is still in the deal."""
    trick: tuple[tuple[int, Card], ...]
    """The current trick: (seat, card) in play order."""
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    """The completed tricks, each as (seat, card) in play order."""
    tricks_taken: tuple[int, ...]
    """Tricks taken per seat."""
    records: tuple[int, ...]
    """Every seat's record."""
    winner: int | None
    """The winning seat, once decided."""

    @property
    def trump(self) -> Suit:
        """The trump suit."""
        return self.trump_card.suit


@attrs.frozen
class Table:
    """What stays fixed for a whole deal: the rules, the dealer, the trump card, and
    values derived from them once so that play need not recompute them."""

    rules: FlyRules
    """The rules options."""
    dealer: int
    """The dealer's seat."""
    trump_card: Card
    """The turned-up card; its suit is trump [FLY-3.2]."""
    seed: int | str | None = None
    """The match's seed, for refilling the stock; None for an explicit position."""
    deal_number: int = 0
    """0 for a match's first deal."""
    trump: int = attrs.field(init=False, eq=False)
    """The trump suit as a number (:class:`~fly_rules.cards.Suit` value)."""
    privileged: bool = attrs.field(init=False, eq=False)
    """Whether the ace-of-spades privilege can apply in this deal [FLY-7.1] [FLY-7.5]."""
    trump_ace: int = attrs.field(init=False, eq=False)
    """Index of the ace of trumps."""
    left: tuple[int, ...] = attrs.field(init=False, eq=False)
    """``left[s]`` is the seat to the left of ``s`` [FLY-1.2]."""
    order: RankOrder = attrs.field(init=False, eq=False)
    """The rank order [FLY-1.4]."""
    must_head: bool = attrs.field(init=False, eq=False)
    """``rules.must_head_trick`` [FLY-6.3]."""
    trump_duty: TrumpDuty = attrs.field(init=False, eq=False)
    """``rules.trump_duty`` [FLY-6.4]."""
    top_trump: bool = attrs.field(init=False, eq=False)
    """Whether the A♠ is a permanent top trump in this deal [FLY-7.1]."""

    @trump.default
    def _trump(self) -> int:
        return int(self.trump_card.suit)

    @privileged.default
    def _privileged(self) -> bool:
        return self.rules.ace_of_spades_mode != "none" and self.trump != Suit.SPADES

    @trump_ace.default
    def _trump_ace(self) -> int:
        return self.trump * 13 + 12

    @left.default
    def _left(self) -> tuple[int, ...]:
        return tuple(self.rules.left_of(seat) for seat in range(self.rules.players))

    @order.default
    def _order(self) -> RankOrder:
        return self.rules.rank_order

    @must_head.default
    def _must_head(self) -> bool:
        return self.rules.must_head_trick

    @trump_duty.default
    def _trump_duty(self) -> TrumpDuty:
        return self.rules.trump_duty

    @top_trump.default
    def _top_trump(self) -> bool:
        return self.privileged and self.rules.ace_of_spades_mode == "top_trump"


@attrs.frozen
class Bidding:
    """The state of the exchange: the stock, the discards and the declarations [FLY-4.1]."""

    stock_indices: tuple[int, ...]
    """The stock, top first, as card indices [FLY-3.4]."""
    active: tuple[bool, ...]
    """Per seat, whether it has not folded [FLY-5.1]."""
    declared: tuple[tuple[Any, ...], ...]
    """Per seat, the declaration actions taken, in order."""
    turnup_here: bool = True
    """Whether the trump card still lies beside the stock (not taken into a hand)."""
    discard_mask: int = 0
    """Dead cards: discards of the exchange [FLY-4.4]."""
    declaration_round: int = 0
    """0 for the (only or fold) round, 1 for the exchange round of the two-round mode [FLY-4.1]."""
    must_confirm: bool = False
    """The player to move has exchanged and must now stand or fold (``may_fold_after_exchange``) [FLY-4.6]."""
    exchanged_total: int = 0
    """Cards exchanged so far by all players [FLY-4.3]."""
    refills: int = 0
    """How many times the stock was refilled [FLY-4.5]."""


@attrs.frozen
class Tally:
    """The state of the play that changes once per trick: tricks, the lead, the A♠, winners [FLY-6.6]."""

    tricks_taken: tuple[int, ...]
    """Tricks taken per seat [FLY-8.2]."""
    last_trick_of: tuple[int, ...]
    """Per seat, the number (1-5) of the last trick it took; 0 for none [FLY-9.4]."""
    completed: tuple[tuple[tuple[int, int], ...], ...] = ()
    """Completed tricks as (seat, card index) pairs."""
    leader: int = -1
    """The seat that led the current trick."""
    ace_holder: int = -1
    """The seat holding A♠ when play began; -1 for none [FLY-8.3]."""
    ace_bonus_due: bool = False
    """Whether the A♠ holder has yet to take his first trick [FLY-8.3]."""
    winners: tuple[int, ...] = ()
    """The seats that brought their record to zero [FLY-9.1]."""
    void: bool = False
    """The deal was void (everyone folded, or a lone player under ``lone_player="void"``) [FLY-5.4]."""
    redeal: bool = False
    """The next deal is by the same dealer (``all_fold="redeal_same_dealer"``) [FLY-5.4]."""
    in_play: int = 0
    """How many players play to each trick (the active ones) [FLY-6.2]."""
    next_in_play: tuple[int, ...] = ()
    """``next_in_play[s]``: the next active seat to the left of ``s`` [FLY-6.2]."""


_BIDDING_FIELDS: Final = frozenset(a.name for a in attrs.fields(Bidding))
_TALLY_FIELDS: Final = frozenset(a.name for a in attrs.fields(Tally))


@attrs.frozen(repr=False)
class FlyDeal(Pictured):
    """One deal of Fly, from the exchange to its end [FLY-3.1].

    Build one with :func:`fly_rules.fly.match.new_deal` (an explicit position) or get
    it from a :class:`~fly_rules.fly.FlyMatch`. Internally hands are bitmasks and
    cards are indices (see :mod:`fly_rules.cards`); the public properties give
    :class:`~fly_rules.cards.CardSet` and :class:`~fly_rules.cards.Card` values.
    The fields are grouped by how often they change, so that playing a card
    builds a small new object and shares the rest with the old state.
    """

    table: Table
    """What is fixed for the deal: rules, dealer, trump card."""
    phase: Phase
    """Where the deal stands."""
    turn: int
    """The seat to act; -1 when over."""
    hand_masks: tuple[int, ...]
    """Each seat's hand as a bitmask."""
    records: tuple[int, ...]
    """Every seat's record [FLY-8.1]."""
    bidding: Bidding
    """The stock, discards and declarations."""
    tally: Tally
    """Tricks taken, the lead, the A♠ holder, winners."""
    trick_cards: tuple[int, ...] = ()
    """The current trick's card indices, in play order."""
    revokes: tuple[int, ...] = ()
    """Positions in the current trick that were revokes (adjudication mode) [FLY-11.2]."""
    history: tuple[Any, ...] | None = attrs.field(default=None, eq=False)
    """The actions taken in this deal, newest first, as nested pairs."""

    # --- the protocol ---------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None when the deal is over."""
        return None if self.turn < 0 else self.turn

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended [FLY-10.3]."""
        return self.phase is Phase.OVER

    @property
    def winner(self) -> int | None:
        """The seat whose record reached zero in this deal (the earliest, if several did) [FLY-9.1] [FLY-9.4]."""
        return self.winners[0] if self.winners else None

    def legal_actions(self) -> Sequence[Any]:
        """Every legal action of the seat to move, in a fixed order.

        Exchange phase: ``Stand()``, ``Fold()`` if allowed, ``SwapTrump`` (dealer,
        by card), then ``Exchange`` by number of cards and then canonical order.
        Play phase: ``Play`` in canonical card order. Over: none.
        """
        if self.phase is Phase.PLAY:
            return play.legal_plays(self)
        if self.phase is Phase.EXCHANGE:
            return exchange.legal_declarations(self)
        return ()

    def apply(self, action: Action | SwapTrump) -> FlyDeal:
        """The deal after ``action`` by the seat to move.

        Raises:
            RuleViolation: with the ID of the rule the action breaks; this state is unchanged.
        """
        if self.phase is Phase.PLAY:
            if type(action) is Play:
                return play.apply_play(self, action)
            if type(action) is Fold:
                raise RuleViolation("FLY-4.6", "a player who exchanged or stood must play the deal out", action)
            raise RuleViolation("FLY-4.1", f"the declarations are over; play a card, not {action!r}", action)
        if self.phase is Phase.EXCHANGE:
            if isinstance(action, Exchange | Stand | Fold | SwapTrump):
                return exchange.apply_declaration(self, action)
            raise RuleViolation("FLY-4.1", f"every player declares before the play begins, not {action!r}", action)
        raise RuleViolation("FLY-10.3", f"the deal is over; no action is accepted ({action!r})", action)

    def view(self, seat: int) -> FlyView:
        """What ``seat`` may know: its hand and everything public."""
        self._check_seat(seat)
        return FlyView(
            seat=seat,
            players=self.rules.players,
            dealer=self.dealer,
            deal_number=self.deal_number,
            phase=self.phase,
            to_move=self.to_move,
            hand=CardSet(self.hand_masks[seat]),
            trump_card=self.trump_card,
            stock_size=len(self.bidding.stock_indices),
            declarations=tuple(tuple(_public(a) for a in actions) for actions in self.bidding.declared),
            active=self.active,
            trick=self.trick,
            tricks=tuple(tuple((s, ALL_CARDS[c]) for s, c in trick) for trick in self.tally.completed),
            tricks_taken=self.tricks_taken,
            records=self.records,
            winner=self.winner,
        )

    # --- readable properties ---------------------------------------------------

    @property
    def rules(self) -> FlyRules:
        """The rules options."""
        return self.table.rules

    @property
    def dealer(self) -> int:
        """The dealer's seat [FLY-2.2]."""
        return self.table.dealer

    @property
    def trump_card(self) -> Card:
        """The turned-up card; its suit is trump [FLY-3.2]."""
        return self.table.trump_card

    @property
    def deal_number(self) -> int:
        """0 for a match's first deal."""
        return self.table.deal_number

    @property
    def active(self) -> tuple[bool, ...]:
        """Per seat, whether it has not folded [FLY-5.1]."""
        return self.bidding.active

    @property
    def turnup_here(self) -> bool:
        """Whether the trump card still lies beside the stock [FLY-3.3]."""
        return self.bidding.turnup_here

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per seat [FLY-8.2]."""
        return self.tally.tricks_taken

    @property
    def completed(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Completed tricks as (seat, card index) pairs, in play order."""
        return self.tally.completed

    @property
    def leader(self) -> int:
        """The seat that led the current trick (or won the last one); -1 before play."""
        return self.tally.leader

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat that brought its record to zero, earliest first [FLY-9.1] [FLY-9.4]."""
        return self.tally.winners

    @property
    def void(self) -> bool:
        """Whether the deal was void [FLY-5.4]."""
        return self.tally.void

    @property
    def redeal(self) -> bool:
        """Whether the next deal is by the same dealer [FLY-5.4]."""
        return self.tally.redeal

    @property
    def trump(self) -> Suit:
        """The trump suit [FLY-3.2]."""
        return self.trump_card.suit

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's cards."""
        return tuple(CardSet(mask) for mask in self.hand_masks)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first [FLY-3.4]."""
        return tuple(ALL_CARDS[i] for i in self.bidding.stock_indices)

    @property
    def discards(self) -> CardSet:
        """The dead discards of the exchange [FLY-4.4]."""
        return CardSet(self.bidding.discard_mask)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as (seat, card) pairs, in play order."""
        return tuple((s, ALL_CARDS[c]) for s, c in zip(self.trick_seats, self.trick_cards, strict=True))

    @property
    def players(self) -> int:
        """Number of players [FLY-1.1]."""
        return self.table.rules.players

    @property
    def previous_deal(self) -> None:
        """None: a lone deal has no deal before it (a match's ``previous_deal`` does)."""
        return None

    @property
    def trick_seats(self) -> tuple[int, ...]:
        """The seats that played the cards of the current trick, in play order [FLY-6.2]."""
        seats: list[int] = []
        seat = self.tally.leader
        following = self.tally.next_in_play
        for _ in self.trick_cards:
            seats.append(seat)
            seat = following[seat]
        return tuple(seats)

    @property
    def played(self) -> CardSet:
        """Every card played to a completed or the current trick."""
        mask = 0
        for trick in self.tally.completed:
            for _, card in trick:
                mask |= 1 << card
        for card in self.trick_cards:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def declarations(self) -> tuple[Any, ...]:
        """Each seat's last declaration action, or None if it has not declared [FLY-4.2]."""
        return tuple(actions[-1] if actions else None for actions in self.bidding.declared)

    @property
    def ace_of_spades_holder(self) -> int | None:
        """The seat that held A♠ when play began, or None [FLY-8.3]."""
        return None if self.tally.ace_holder < 0 else self.tally.ace_holder

    @property
    def actions(self) -> tuple[Any, ...]:
        """The actions taken in this deal, oldest first."""
        return unwind(self.history)

    @staticmethod
    def card_symbol(index: int) -> str:
        """The display form of the card at ``index`` (``10♥``)."""
        return ALL_CARDS[index].symbol

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            raise ValueError(f"FLY-1.2: seats are 0 to {self.rules.players - 1}, not {seat!r}")

    def _next(self, **changes: Any) -> FlyDeal:
        """A copy with ``changes``, each routed to the group that holds the field."""
        bidding = {k: changes.pop(k) for k in _BIDDING_FIELDS & changes.keys()}
        tally = {k: changes.pop(k) for k in _TALLY_FIELDS & changes.keys()}
        if bidding:
            changes["bidding"] = replace(self.bidding, **bidding)
        if tally:
            changes["tally"] = replace(self.tally, **tally)
        return replace(self, **changes)

    def _record(self, action: object) -> tuple[Any, ...]:
        return (action, self.history)

    def __repr__(self) -> str:
        hands = " / ".join(str(h) for h in self.hands)
        return (
            f"<FlyDeal {self.phase.value} dealer={self.dealer} trump={self.trump_card} "
            f"to_move={self.to_move} records={self.records} hands={hands}>"
        )


def _public(action: object) -> Declared:
    if isinstance(action, Exchange):
        return Declared("exchange", len(action.cards))
    if isinstance(action, SwapTrump):
        return Declared("swap")
    return Declared("fold" if isinstance(action, Fold) else "stand")


# The section modules import FlyDeal lazily through the state they are given;
# importing them here (at the end) keeps the import graph acyclic at load time.
from fly_rules.fly import exchange, play  # noqa: E402
