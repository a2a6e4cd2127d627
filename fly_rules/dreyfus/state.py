"""The state of one deal: the exchange, then twelve tricks, scored as they go [DRF-4.1] [DRF-6.7].

A :class:`DreyfusDeal` is immutable; :meth:`DreyfusDeal.apply` returns a new one or
raises :class:`~fly_rules.errors.RuleViolation` naming the rule broken. The
rule logic lives in the section modules (:mod:`fly_rules.dreyfus.exchange`, :mod:`fly_rules.dreyfus.play`,
:mod:`fly_rules.dreyfus.scoring`, :mod:`fly_rules.dreyfus.end`); this module holds the fields, the
view, and routes each action to its section. Hands are int masks and cards are indices, so ``apply``
and ``legal_actions`` stay cheap; arguments are validated once, in
:func:`fly_rules.dreyfus.positions.new_deal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple, final

import attrs

import fly_rules.dreyfus.deal
import fly_rules.dreyfus.exchange
import fly_rules.dreyfus.scoring
from fly_rules._native import python_class
from fly_rules._numbers import check_seat
from fly_rules.actions import Action, Exchange, Play, Stand
from fly_rules.cards import ALL_CARDS, Card, CardSet, Rank, Suit
from fly_rules.dreyfus.deal import HAND_SIZE, DealTable, eldest
from fly_rules.dreyfus.end import winner_of
from fly_rules.dreyfus.exchange import Exchanges, discardable, end_turn, exchange_cards, exchange_choices
from fly_rules.dreyfus.play import play_card
from fly_rules.dreyfus.rules import DreyfusRules
from fly_rules.dreyfus.scoring import Score
from fly_rules.engine import Phase
from fly_rules.engine.match import DealBase, Pictured  # from its module: mypyc looks the bases up there
from fly_rules.errors import RuleViolation
from fly_rules.tricks import plays_of

__all__ = ["DreyfusDeal", "DreyfusView", "start_deal"]

_Triple = tuple[int, int, int]
_Trick = tuple[tuple[int, Card], ...]
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_new: Final = tuple.__new__


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
    """Where the deal stands."""
    to_move: int | None
    """The seat to act, None when the deal is over."""
    hand: CardSet = attrs.field(metadata={"private": True})
    """This seat's cards."""
    discarded: CardSet = attrs.field(metadata={"private": True})
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
    trick: _Trick
    """The current trick: (seat, card) in play order."""
    tricks: tuple[_Trick, ...]
    """The completed tricks, each as (seat, card) in play order."""
    tricks_taken: _Triple
    """Tricks taken by each seat this deal."""
    upper: _Triple
    """Upper records."""
    lower: _Triple
    """Lower records."""
    winner: int | None
    """The match winner once decided."""

    # --- what clients ask instead of the class (engine.SeatView) ----------------------

    @property
    def game(self) -> str:
        """``"dreyfus"``."""
        return "dreyfus"

    @property
    def trump(self) -> Suit | None:
        """The contract: the trump suit, None for no trump [DRF-3.1]."""
        return self.contract

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's lower record minus its upper record: higher is better [DRF-9.1]."""
        return tuple(low - up for up, low in zip(self.upper, self.lower, strict=True))

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """``{"upper": ..., "lower": ...}`` [DRF-7.2] [DRF-7.3]."""
        return {"upper": self.upper, "lower": self.lower}


def _pairs(leader: int, cards: tuple[int, ...]) -> _Trick:
    return tuple(((leader + i) % 3, ALL_CARDS[card]) for i, card in enumerate(cards))


class _DealFields(NamedTuple):
    table: "fly_rules.dreyfus.deal.DealTable"  # noqa: UP037 - text in the compiled build too; in full: the docs tell it from Fly's
    """What is fixed for the deal: rules, dealer, contract, the cards as dealt."""
    exchanges: "fly_rules.dreyfus.exchange.Exchanges"  # noqa: UP037 - text in the compiled build too
    """How far the exchange has gone: turn, talon taken, discards, purchases."""
    phase: Phase
    """Where the deal stands [DRF-4.1] [DRF-6.7]."""
    hand_masks: tuple[int, int, int]
    """Each hand now, as a mask."""
    trick_cards: tuple[int, ...]
    """Card indices played to the current trick, in play order."""
    to_move: int | None
    """The seat to act, None when the deal is over."""
    leader: int
    """Who leads (or led) the current trick."""
    legal_mask: int
    """In the play, the cards the seat to move may play, as a mask; else 0 (see :attr:`discardable_mask`)."""
    past_tricks: tuple[tuple[int, tuple[int, ...]], ...]
    """Completed tricks: (leader, card indices in play order)."""
    score: "fly_rules.dreyfus.scoring.Score"  # noqa: UP037 - text in the compiled build too
    """Tricks taken, upper and lower records, revokes, seats that reached the target."""
    history: tuple[Any, ...] | None
    """The actions taken in this deal, newest first, as nested pairs."""


@final
@python_class
class DreyfusDeal(_DealFields, DealBase[DreyfusRules]):
    """One deal of Dreyfus in progress [DRF-4.1] [DRF-5.1] [DRF-6.7].

    Build one with :func:`~fly_rules.dreyfus.new_deal` or from a match (:func:`~fly_rules.dreyfus.new_match`).
    The fields are a named tuple, so a state cannot be changed (assignment raises) and
    ``apply`` builds its successor in one step, sharing every unchanged piece. Two
    states are equal when their positions are, whatever actions led there.
    """

    __slots__ = ()

    # -- the protocol -----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether all twelve tricks are played [DRF-6.7]."""
        return self.to_move is None

    @property
    def winner(self) -> int | None:
        """The match winner if decided in this deal, else None [DRF-8.2]."""
        score = self.score
        return winner_of(self.table.rules, score.reached, score.upper, score.lower, self.to_move is None)

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to move may take [DRF-4.4] [DRF-6.2].

        In the exchange: a lazy sequence, the stand first, then every allowed
        exchange (DRF-4.4). In the play: one :class:`Play` per playable card, in
        canonical card order. Empty when the deal is over.
        """
        if self.phase is _PLAY:
            return plays_of(self.legal_mask)
        if self.phase is _EXCHANGE:
            return exchange_choices(self.table.rules, self.discardable_mask, HAND_SIZE - self.exchanges.talon_taken)
        return ()

    def apply(self, action: Action) -> DreyfusDeal:
        """The state after ``action`` by the seat to move [DRF-1.4] [DRF-4.1].

        Raises:
            RuleViolation: naming the rule the action breaks; the state is unchanged.
        """
        # the one place a deal is built from its fields in order (tuple.__new__, the hot path of every
        # game: benchmarks/bench.py); everywhere else a deal is built by field name
        table, exchanges, phase, hands, trick, seat, leader, legal, tricks, score, history = self
        kind = type(action)
        mover: Any = seat  # a seat while the deal is not over
        if phase is _PLAY:
            if kind is not Play:
                if kind is Exchange or kind is Stand:
                    raise RuleViolation("DRF-4.1", "the exchange is over", action)
                raise RuleViolation("DRF-1.4", "Dreyfus knows only exchange, stand and play", action)
            # action: a Play, checked through ``kind`` above (kept in a local on the hot path: mypy does not narrow it)
            played = play_card(table, action, mover, legal, hands, trick, leader, tricks, score)  # type: ignore[arg-type]
            phase, hands, trick, seat, leader, legal, tricks, score = played
        elif phase is _EXCHANGE:
            if kind is Exchange:
                # action: an Exchange, checked through ``kind`` (as above)
                exchanged = exchange_cards(table, action, mover, hands, exchanges, score)  # type: ignore[arg-type]
                phase, hands, seat, leader, legal, exchanges, score = exchanged
            elif kind is Stand:
                phase, hands, seat, leader, legal, exchanges, score = end_turn(table, hands, exchanges, score)
            elif kind is Play:
                raise RuleViolation("DRF-4.1", "no card is played before the exchange is over", action)
            else:
                raise RuleViolation("DRF-1.4", "Dreyfus knows only exchange, stand and play", action)
        else:
            raise RuleViolation("DRF-1.4", "the deal is over; no action is accepted", action)
        return _new(
            DreyfusDeal, (table, exchanges, phase, hands, trick, seat, leader, legal, tricks, score, (action, history))
        )

    # -- the shared vocabulary ------------------------------------------------------------

    @property
    def players(self) -> int:
        """Always three [DRF-1.1]."""
        return 3

    @property
    def contract(self) -> Suit | None:
        """The trump suit, None for no trump [DRF-3.1]."""
        return self.table.contract

    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet]:
        """Each hand now."""
        masks = self.hand_masks
        return (CardSet(masks[0]), CardSet(masks[1]), CardSet(masks[2]))

    @property
    def trick(self) -> _Trick:
        """The current trick: (seat, card) in play order."""
        return _pairs(self.leader, self.trick_cards)

    @property
    def tricks(self) -> tuple[_Trick, ...]:
        """The completed tricks, each as (seat, card) in play order."""
        return tuple(_pairs(leader, cards) for leader, cards in self.past_tricks)

    @property
    def discardable_mask(self) -> int:
        """In the exchange, the cards the seat to move may discard (фоски still held of those dealt to him),
        as a mask; else 0 [DRF-4.2]."""
        seat = self.to_move
        if self.phase is not _EXCHANGE or seat is None:
            return 0
        return discardable(self.table, self.hand_masks[seat], self.table.dealt[seat])

    @property
    def tricks_taken(self) -> _Triple:
        """Tricks taken by each seat."""
        return self.score.tricks_taken

    @property
    def upper(self) -> _Triple:
        """Upper records, including this deal so far [DRF-4.5]."""
        return self.score.upper

    @property
    def lower(self) -> _Triple:
        """Lower records, including this deal's overtricks so far [DRF-7.2]."""
        return self.score.lower

    @property
    def revokes(self) -> _Triple:
        """Revokes by each seat this deal (penalty mode only) [DRF-10.1]."""
        return self.score.revokes

    @property
    def reached(self) -> tuple[int, ...]:
        """Seats whose lower record reached the target this deal, in order [DRF-8.2]."""
        return self.score.reached

    @property
    def dealt(self) -> tuple[CardSet, CardSet, CardSet]:
        """Each hand as dealt [DRF-2.2]."""
        masks = self.table.dealt
        return (CardSet(masks[0]), CardSet(masks[1]), CardSet(masks[2]))

    @property
    def talon(self) -> tuple[Card, ...]:
        """The talon as dealt, top first [DRF-2.3]."""
        return tuple(ALL_CARDS[i] for i in self.table.talon)

    @property
    def talon_left(self) -> int:
        """Cards still in the talon [DRF-4.3]."""
        return HAND_SIZE - self.exchanges.talon_taken

    @property
    def discards(self) -> tuple[CardSet, CardSet, CardSet]:
        """Each seat's discards [DRF-4.2]."""
        masks = self.exchanges.discards
        return (CardSet(masks[0]), CardSet(masks[1]), CardSet(masks[2]))

    @property
    def bought(self) -> _Triple:
        """Cards bought by each seat [DRF-4.5]."""
        return self.exchanges.bought

    # -- information ----------------------------------------------------------------

    def view(self, seat: object) -> DreyfusView:
        """What ``seat`` may know: his hand and discards, and the public record [DRF-11.1] [DRF-4.6].

        Raises:
            RuleViolation: DRF-1.1 if ``seat`` is not a seat 0 to 2 (an int, not a bool).
        """
        index = check_seat(seat, 3, "DRF-1.1", "a view's seat")
        table = self.table
        rules = table.rules
        contract = table.contract
        indicator = Card(Rank.TWO, contract) if rules.show_trump_indicator and contract is not None else None
        revealed_talon = None
        if rules.reveal_leftover_talon and self.phase is not _EXCHANGE:
            revealed_talon = CardSet(sum(1 << i for i in table.talon[self.exchanges.talon_taken :]))
        score = self.score
        return DreyfusView(
            seat=index,
            deal_number=table.deal_number,
            dealer=table.dealer,
            contract=contract,
            trump_indicator=indicator,
            phase=self.phase,
            to_move=self.to_move,
            hand=CardSet(self.hand_masks[index]),
            discarded=CardSet(self.exchanges.discards[index]),
            bought=self.exchanges.bought,
            talon_left=self.talon_left,
            revealed_discards=self.discards if rules.reveal_discards else None,
            revealed_talon=revealed_talon,
            leader=self.leader,
            trick=self.trick,
            tricks=self.tricks,
            tricks_taken=score.tricks_taken,
            upper=score.upper,
            lower=score.lower,
            winner=self.winner,
        )

    def __repr__(self) -> str:
        hands = " | ".join(str(h) for h in self.hands)
        return (
            f"<Dreyfus deal {self.deal_number} {self.phase.value}, contract {self.contract}, to move {self.to_move}, "
            f"hands {hands}, tricks {self.tricks_taken}, upper {self.upper}, lower {self.lower}>"
        )

    # --- what clients ask instead of the class (engine.DealState) ----------------------

    @property
    def game(self) -> str:
        """``"dreyfus"``."""
        return "dreyfus"

    @property
    def trump(self) -> Suit | None:
        """The contract: the trump suit, None for no trump [DRF-3.1]."""
        return self.table.contract

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's lower record minus its upper record: higher is better [DRF-9.1]."""
        score = self.score
        return tuple(low - up for up, low in zip(score.upper, score.lower, strict=True))

    @property
    def score_lines(self) -> dict[str, tuple[int, ...]]:
        """``{"upper": ..., "lower": ...}`` [DRF-7.2] [DRF-7.3]."""
        return {"upper": self.score.upper, "lower": self.score.lower}

    def result_lines(self) -> dict[str, tuple[int, ...]]:
        """The upper and lower records, as a history states them for a finished explicit deal [REC-4.1]."""
        return {"upper": self.score.upper, "lower": self.score.lower}

    def deal_head(self) -> dict[str, object]:
        """The dealer and the contract (``"NT"`` for no trump), as a history states them [REC-3.1]."""
        return {"dealer": self.table.dealer, "contract": _contract_text(self.table.contract)}

    def deal_lines(self) -> dict[str, tuple[int, ...]]:
        """Tricks taken and the records after the deal, as a history states them [REC-3.4]."""
        score = self.score
        return {"tricks": score.tricks_taken, "upper": score.upper, "lower": score.lower}

    def start_fields(self) -> dict[str, object]:
        """This position as ``new_deal``'s keyword arguments, cards as text [REC-2.4]."""
        return {
            "dealer": self.table.dealer,
            "hands": [" ".join(str(card) for card in hand) for hand in self.hands],
            "talon": " ".join(str(card) for card in self.talon),
            "contract": _contract_text(self.table.contract),
            "upper": list(self.score.upper),
            "lower": list(self.score.lower),
        }


def _contract_text(contract: Suit | None) -> str:
    return "NT" if contract is None else contract.letter


def start_deal(table: DealTable, upper: _Triple, lower: _Triple) -> DreyfusDeal:
    """A dealt deal at eldest's exchange turn, from checked pieces [DRF-4.1]."""
    first = eldest(table.dealer)
    return DreyfusDeal(
        table=table,
        exchanges=Exchanges(step=0, talon_taken=0, discards=(0, 0, 0), bought=(0, 0, 0)),
        phase=_EXCHANGE,
        hand_masks=table.dealt,
        trick_cards=(),
        to_move=first,
        leader=first,
        legal_mask=0,
        past_tricks=(),
        score=Score(tricks_taken=(0, 0, 0), upper=upper, lower=lower, revokes=(0, 0, 0), reached=()),
        history=None,
    )
