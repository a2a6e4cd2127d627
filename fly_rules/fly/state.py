"""The state of one deal of Fly, and what one seat may see of it.

The state is a frozen value: ``apply`` returns a new one and never changes the
old. The rules live in the section modules (:mod:`~fly_rules.fly.exchange`,
:mod:`~fly_rules.fly.play`, :mod:`~fly_rules.fly.scoring`, :mod:`~fly_rules.fly.end`),
pure functions over the deal's pieces; this module holds the fields, the
view, and routes each action to its section.

A deal keeps its pieces grouped by how often they change (the
:class:`~fly_rules.fly.deal.DealTable` never, the :class:`~fly_rules.fly.exchange.Exchanges`
during the exchange, the :class:`~fly_rules.fly.scoring.Score` once a trick), so
playing a card builds one small object and shares the rest with the old state.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final, NamedTuple, cast, final

import attrs

import fly_rules.fly.deal
import fly_rules.fly.exchange
import fly_rules.fly.scoring
from fly_rules._native import python_class
from fly_rules._numbers import check_seat
from fly_rules.actions import Action, Exchange, Fold, Play, Stand
from fly_rules.cards import ALL_CARDS, Card, CardSet, Suit
from fly_rules.engine import Phase
from fly_rules.engine.match import DealBase, Pictured  # from its module: mypyc looks the bases up there
from fly_rules.errors import RuleViolation, shown
from fly_rules.fly.deal import DealTable
from fly_rules.fly.exchange import Exchanges, SwapTrump, apply_declaration, legal_declarations
from fly_rules.fly.play import begin_play, play_card, playable_mask, trick_seats
from fly_rules.fly.rules import FlyRules
from fly_rules.fly.scoring import Score
from fly_rules.tricks import plays_of

__all__ = ["Declared", "FlyDeal", "FlyView", "start_deal"]

_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_DECLARATIONS: Final = (Exchange, Stand, Fold, SwapTrump)  # a tuple: isinstance checks it faster than a union


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
    hand: CardSet = attrs.field(metadata={"private": True})
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

    # --- what clients ask instead of the class (engine.SeatView) ----------------------

    @property
    def game(self) -> str:
        """``"fly"``."""
        return "fly"

    @property
    def scores(self) -> tuple[int, ...]:
        """Minus each seat's record: higher is better [FLY-8.1]."""
        return tuple(-record for record in self.records)

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """``{"records": ...}`` [FLY-8.1]."""
        return {"records": self.records}


class _DealFields(NamedTuple):
    table: "fly_rules.fly.deal.DealTable"  # noqa: UP037 - text in the compiled build too; in full: the docs tell it from Dreyfus's
    """What is fixed for the deal: rules, dealer, trump card (:class:`~fly_rules.fly.deal.DealTable`)."""
    phase: Phase
    """Where the deal stands."""
    to_move: int | None
    """The seat to act, or None when the deal is over."""
    hand_masks: tuple[int, ...]
    """Each seat's hand as a bitmask."""
    exchanges: "fly_rules.fly.exchange.Exchanges"  # noqa: UP037 - text in the compiled build too
    """The stock, discards and declarations (:class:`~fly_rules.fly.exchange.Exchanges`)."""
    score: "fly_rules.fly.scoring.Score"  # noqa: UP037 - text in the compiled build too
    """The records, tricks taken, the lead, the A♠ holder, winners (:class:`~fly_rules.fly.scoring.Score`)."""
    trick_cards: tuple[int, ...]
    """The current trick's card indices, in play order."""
    legal_mask: int
    """In play, the cards the seat to move may play, as a mask (so each is checked once); else 0."""
    history: tuple[Any, ...] | None
    """The actions taken in this deal, newest first, as nested pairs."""


@final
@python_class
class FlyDeal(_DealFields, DealBase[FlyRules]):
    """One deal of Fly, from the exchange to its end [FLY-3.1].

    Build one with :func:`fly_rules.fly.new_deal` (an explicit position) or get
    it from a :class:`~fly_rules.fly.FlyMatch`. Internally hands are bitmasks and
    cards are indices (see :mod:`fly_rules.cards`); the public properties give
    :class:`~fly_rules.cards.CardSet` and :class:`~fly_rules.cards.Card` values.
    The fields are a named tuple, so a state cannot be changed (assignment raises)
    and ``apply`` builds its successor in one step, sharing every unchanged piece.
    Two deals are equal when their positions are, whatever actions led there.
    """

    __slots__ = ()

    # --- the protocol ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended [FLY-10.3]."""
        return self.phase is _OVER

    @property
    def winner(self) -> int | None:
        """The seat whose record reached zero in this deal (the earliest, if several did) [FLY-9.1] [FLY-9.4]."""
        winners = self.score.winners
        return winners[0] if winners else None

    def legal_actions(self) -> Sequence[Any]:
        """Every legal action of the seat to move, in a fixed order.

        Exchange phase: ``Stand()``, ``Fold()`` if allowed, ``SwapTrump`` (dealer,
        by card), then ``Exchange`` by number of cards and then canonical order.
        Play phase: ``Play`` in canonical card order (a tuple). Over: ``()``.
        """
        phase = self.phase
        if phase is _PLAY:
            return plays_of(self.legal_mask)
        if phase is _EXCHANGE:
            # to_move: a seat, as in every exchange (None only once the deal is over)
            return legal_declarations(self.table, self.exchanges, self.hand_masks, self.to_move)  # type: ignore[arg-type]
        return ()

    def apply(self, action: Action | SwapTrump) -> FlyDeal:
        """The deal after ``action`` by the seat to move.

        Raises:
            RuleViolation: with the ID of the rule the action breaks; this state is unchanged.
        """
        # the one place a deal is built from its fields in order (tuple.__new__, the hot path of every
        # game: benchmarks/bench.py); everywhere else a deal is built by field name
        table, phase, seat, hands, exchanges, score, trick, legal, history = self
        if phase is _PLAY:
            if type(action) is not Play:
                if type(action) is Fold:
                    raise RuleViolation("FLY-4.6", "a player who exchanged or stood must play the deal out", action)
                raise RuleViolation("FLY-4.1", f"the declarations are over; play a card, not {shown(action)}", action)
            # seat: the seat to move in the play; action: a Play (its class checked above)
            seat, hands, score, trick = play_card(table, score, exchanges.active, hands, trick, seat, legal, action)  # type: ignore[arg-type]
        elif phase is _EXCHANGE:
            if not isinstance(action, _DECLARATIONS):
                raise RuleViolation(
                    "FLY-4.1", f"every player declares before the play begins, not {shown(action)}", action
                )
            # seat: the seat to move in the exchange; action: a declaration (its class checked above)
            seat, hands, exchanges = apply_declaration(table, exchanges, hands, seat, action)  # type: ignore[arg-type]
            if seat is None:
                seat, hands, score, trick = begin_play(table, score, exchanges.active, hands)
                phase = _PLAY
        else:
            raise RuleViolation("FLY-10.3", f"the deal is over; no action is accepted ({shown(action)})", action)
        if seat is None:
            phase, legal = _OVER, 0
        elif phase is _PLAY:
            legal = playable_mask(table, hands[seat], trick)
        return _new(FlyDeal, (table, phase, seat, hands, exchanges, score, trick, legal, (action, history)))

    def view(self, seat: object) -> FlyView:
        """What ``seat`` may know: its hand and everything public.

        Raises:
            RuleViolation: FLY-1.2 if ``seat`` is not a seat at the table (an int, not a bool).
        """
        index = check_seat(seat, self.table.rules.players, "FLY-1.2", "a view's seat")
        return FlyView(
            seat=index,
            players=self.table.rules.players,
            dealer=self.dealer,
            deal_number=self.deal_number,
            phase=self.phase,
            to_move=self.to_move,
            hand=CardSet(self.hand_masks[index]),
            trump_card=self.trump_card,
            stock_size=len(self.exchanges.stock_indices),
            declarations=_public_declarations(self.exchanges.declared),
            active=self.active,
            trick=self.trick,
            tricks=tuple(tuple((s, ALL_CARDS[c]) for s, c in trick) for trick in self.score.completed),
            tricks_taken=self.tricks_taken,
            records=self.records,
            winner=self.winner,
        )

    def with_hidden(
        self,
        *,
        hand_masks: Sequence[int] | None = None,
        stock: Sequence[int] | None = None,
        discards: object = None,
    ) -> FlyDeal:
        """This deal with the cards a seat cannot see placed otherwise: other ``hand_masks``,
        ``stock`` (card indices, top first) and ``discards`` (a mask), the same cards in
        all, each place keeping its size. For sampling what a seat cannot see.

        Raises:
            ValueError: the places hold other cards than before, or change size, or a mask or card index is not
                an int.
        """
        exchanges = self.exchanges
        old = (*self.hand_masks, _mask_of(exchanges.stock_indices), exchanges.discard_mask)
        # read as objects: each is checked below (the compiled build would refuse a wrong type first)
        given_hands: tuple[object, ...] = self.hand_masks if hand_masks is None else tuple(hand_masks)
        given_stock: tuple[object, ...] = exchanges.stock_indices if stock is None else tuple(stock)
        new = (*given_hands, _stock_mask(given_stock), exchanges.discard_mask if discards is None else discards)
        sizes = [m.bit_count() for m in old]
        if (
            len(new) != len(old)
            or any(type(m) is not int or m.bit_count() != size for m, size in zip(new, sizes, strict=True))
            or len(given_stock) != len(exchanges.stock_indices)
            # the old places are disjoint, so the same sizes and union leave the new ones disjoint too
            or _mask_of_masks(cast("tuple[int, ...]", new)) != _mask_of_masks(old)
        ):
            raise ValueError(
                "with_hidden: each hand, the stock and the discards must keep their size and hold the same cards in all"
            )
        hands = cast("tuple[int, ...]", given_hands)
        new_stock = cast("tuple[int, ...]", given_stock)
        if stock is not None or discards is not None:
            exchanges = exchanges._replace(stock_indices=new_stock, discard_mask=cast(int, new[-1]))
        to_move, trick = self.to_move, self.trick_cards
        legal = 0 if to_move is None or self.phase is not _PLAY else playable_mask(self.table, hands[to_move], trick)
        return self._replace(hand_masks=hands, exchanges=exchanges, legal_mask=legal)

    # --- readable properties ---------------------------------------------------

    @property
    def players(self) -> int:
        """Number of players [FLY-1.1]."""
        return self.table.rules.players

    @property
    def trump_card(self) -> Card:
        """The turned-up card; its suit is trump [FLY-3.2]."""
        return self.table.trump_card

    @property
    def records(self) -> tuple[int, ...]:
        """Every seat's record [FLY-8.1]."""
        return self.score.records

    @property
    def revokes(self) -> tuple[int, ...]:
        """Positions in the current trick that were revokes (adjudication mode) [FLY-11.2]."""
        return self.score.revokes

    @property
    def active(self) -> tuple[bool, ...]:
        """Per seat, whether it has not folded [FLY-5.1]."""
        return self.exchanges.active

    @property
    def turnup_here(self) -> bool:
        """Whether the trump card still lies beside the stock [FLY-3.3]."""
        return self.exchanges.turnup_here

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per seat [FLY-8.2]."""
        return self.score.tricks_taken

    @property
    def completed(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Completed tricks as (seat, card index) pairs, in play order."""
        return self.score.completed

    @property
    def leader(self) -> int | None:
        """The seat that led the current trick (or won the last one); None before the play [FLY-6.1]."""
        return self.score.leader

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat that brought its record to zero, earliest first [FLY-9.1] [FLY-9.4]."""
        return self.score.winners

    @property
    def void(self) -> bool:
        """Whether the deal was void [FLY-5.4]."""
        return self.score.void

    @property
    def redeal(self) -> bool:
        """Whether the next deal is by the same dealer [FLY-5.4]."""
        return self.score.redeal

    @property
    def trump(self) -> Suit:
        """The trump suit [FLY-3.2]."""
        return self.table.trump_card.suit

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's cards."""
        return tuple(CardSet(mask) for mask in self.hand_masks)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first [FLY-3.4]."""
        return tuple(ALL_CARDS[i] for i in self.exchanges.stock_indices)

    @property
    def discards(self) -> CardSet:
        """The dead discards of the exchange [FLY-4.4]."""
        return CardSet(self.exchanges.discard_mask)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as (seat, card) pairs, in play order."""
        return tuple((s, ALL_CARDS[c]) for s, c in zip(self.trick_seats, self.trick_cards, strict=True))

    @property
    def trick_seats(self) -> tuple[int, ...]:
        """The seats that played the cards of the current trick, in play order [FLY-6.2]."""
        return trick_seats(self.score, len(self.trick_cards))

    @property
    def played(self) -> CardSet:
        """Every card played to a completed or the current trick."""
        mask = 0
        for trick in self.score.completed:
            for _, card in trick:
                mask |= 1 << card
        for card in self.trick_cards:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def declarations(self) -> tuple[Any, ...]:
        """Each seat's last declaration action, or None if it has not declared [FLY-4.2]."""
        return tuple(actions[-1] if actions else None for actions in self.exchanges.declared)

    @property
    def ace_of_spades_holder(self) -> int | None:
        """The seat that held A♠ when play began, or None [FLY-8.3]."""
        return self.score.ace_holder

    @staticmethod
    def card_symbol(index: int) -> str:
        """The display form of the card at ``index`` (``10♥``)."""
        return ALL_CARDS[index].symbol

    def __repr__(self) -> str:
        hands = " / ".join(str(h) for h in self.hands)
        return (
            f"<FlyDeal {self.phase.value} dealer={self.dealer} trump={self.trump_card} "
            f"to_move={self.to_move} records={self.records} hands={hands}>"
        )

    # --- what clients ask instead of the class (engine.DealState) ----------------------

    @property
    def game(self) -> str:
        """``"fly"``."""
        return "fly"

    @property
    def scores(self) -> tuple[int, ...]:
        """Minus each seat's record: higher is better [FLY-8.1]."""
        return tuple(-record for record in self.score.records)

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """``{"records": ...}`` [FLY-8.1]."""
        return {"records": self.score.records}

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The records, as a history states them for a finished game [REC-4.1]."""
        return {"records": self.score.records}

    def deal_head(self) -> dict[str, object]:
        """The dealer and the trump card, as a history states them [REC-3.1]."""
        return {"dealer": self.table.dealer, "trump_card": str(self.table.trump_card)}

    def deal_lines(self) -> dict[str, tuple[int, ...]]:
        """The records after the deal, as a history states them [REC-3.4]."""
        return {"records": self.score.records}

    def start_fields(self) -> dict[str, object]:
        """This position as ``new_deal``'s keyword arguments, cards as text [REC-2.4]."""
        return {
            "dealer": self.table.dealer,
            "hands": [" ".join(str(card) for card in hand) for hand in self.hands],
            "trump_card": str(self.table.trump_card),
            "stock": " ".join(str(card) for card in self.stock),
            "records": list(self.score.records),
        }


_new: Final = tuple.__new__


def start_deal(table: DealTable, hands: tuple[int, ...], stock: tuple[int, ...], records: tuple[int, ...]) -> FlyDeal:
    """The deal at the start of the exchange: the player left of the dealer declares first [FLY-4.1]."""
    n = table.rules.players
    # the pieces in field order: one deal each, on the hot path of random play (benchmarks/bench.py)
    exchanges = _new(Exchanges, (stock, (True,) * n, ((),) * n, True, 0, 0, False, 0, 0))
    score = _new(Score, (records, (0,) * n, (0,) * n, (), None, None, False, (), False, False, 0, (), ()))
    return FlyDeal(
        table=table,
        phase=_EXCHANGE,
        to_move=table.left[table.dealer],
        hand_masks=hands,
        exchanges=exchanges,
        score=score,
        trick_cards=(),
        legal_mask=0,
        history=None,
    )


def _mask_of(indices: Sequence[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def _stock_mask(indices: tuple[object, ...]) -> int | None:
    """The mask of a stock's card indices, or None if one is not a card index."""
    mask = 0
    for index in indices:
        if type(index) is not int or not 0 <= index < 52:
            return None
        mask |= 1 << index
    return mask


def _mask_of_masks(masks: Sequence[int]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


@functools.lru_cache(maxsize=4096)
def _public_declarations(declared: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Declared, ...], ...]:
    """Every seat's declarations as the others see them (a few per deal, asked for at every view: cached)."""
    return tuple(tuple(_public(a) for a in actions) for actions in declared)


def _public(action: object) -> Declared:
    if isinstance(action, Exchange):
        return Declared("exchange", len(action.cards))
    if isinstance(action, SwapTrump):
        return Declared("swap")
    return Declared("fold" if isinstance(action, Fold) else "stand")
