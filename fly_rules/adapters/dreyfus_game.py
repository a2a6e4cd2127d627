"""Dreyfus's part of the adapters: its action ids (:class:`DreyfusActions`), its observation layout and
text, and its deal as OpenSpiel's chance (the ``adapter`` of Dreyfus's descriptor in
:mod:`fly_rules.registry`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from fly_rules._choices import SubsetChoices, bits
from fly_rules.actions import Exchange, Play, Stand
from fly_rules.adapters.encoding import (
    PHASES,
    STAND,
    ActionSpace,
    Encoding,
    Floats,
    Marking,
    OpenSpielGame,
    Segment,
    cards_text,
    checked_id,
    one_hot,
    trick_cards,
    trick_text,
    write_cards,
)
from fly_rules.cards import ALL_CARDS, DECK_48, Card, CardSet
from fly_rules.dreyfus import DreyfusDeal, DreyfusRules, DreyfusView, new_deal
from fly_rules.dreyfus.deal import contract_of, eldest
from fly_rules.engine import Phase

__all__ = [
    "ACTIONS",
    "DREYFUS_DEFAULTS",
    "ENCODING",
    "NUM_ACTIONS",
    "OPEN_SPIEL",
    "STAND",
    "DreyfusActions",
    "DreyfusKind",
    "dreyfus_rules_from_params",
    "observation_layout",
    "table_shows",
    "write_dreyfus_observation",
]

NUM_ACTIONS: Final = 53
"""Distinct action ids of Dreyfus."""


class DreyfusActions(ActionSpace):
    """Dreyfus's action ids (:data:`NUM_ACTIONS` = 53), used by every adapter and by the batch engine,
    so that a twelve-card hand's 4,096 discard sets need no more:

    - in the play, ``c`` (0..51) plays the card of index ``c`` [DRF-6.1];
    - in the exchange, ``c`` marks the card of index ``c`` for discard, each mark above the last, and
      ``52`` (:data:`~fly_rules.adapters.encoding.STAND`) exchanges the marked cards, or stands when none
      is marked [DRF-4.3]: the marks of a set in ascending order then ``STAND`` are the engine's one
      ``Exchange`` of that set. A mark is legal exactly when the marked set with the new card is itself
      a legal exchange, so the marks reach every legal discard set and nothing else (the legal sets are
      closed under taking subsets). Under ``exchange_mode="incremental"`` [DRF-4.4] ``c`` is at once the
      one-card exchange of ``c``, as the rules say, and ``STAND`` ends the turn.

    >>> from fly_rules import dreyfus
    >>> deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=0).deal
    >>> [ACTIONS.text(deal, 0, i) for i in ACTIONS.legal_ids(deal)][:3]
    ['mark 8♣', 'mark 4♦', 'mark 8♦']
    >>> ACTIONS.text(deal, CardSet.parse("8C 4D").mask, STAND)
    'exchange 8♣ 4♦'
    """

    size = NUM_ACTIONS
    marks = True

    def action_of(self, hand: int, action_id: int) -> Any:
        """The engine action of ``action_id`` in the play (a mark is no engine action by itself).

        Raises:
            ValueError: an id out of range.
        """
        action_id = checked_id(action_id, NUM_ACTIONS, "Dreyfus")
        return Stand() if action_id == STAND else Play(ALL_CARDS[action_id])

    def id_of(self, hand: int, action: Any) -> int:
        """The id of a play or a stand (an exchange is :meth:`ids`: marks, then ``STAND``).

        Raises:
            ValueError: an exchange, or not a Dreyfus action.
        """
        kind = type(action)
        if kind is Play:
            index: int = action.card.index
            return index
        if kind is Stand:
            return STAND
        if kind is Exchange:
            raise ValueError(f"{action!r} has no single id: an exchange is marked card by card, then STAND")
        raise ValueError(f"{action!r} is not a Dreyfus action")

    def legal_ids(self, deal: Any, marked: int = 0) -> list[int]:
        """The legal ids of the seat to move, ascending, given the cards it has marked so far."""
        seat = deal.to_move
        if seat is None or deal.phase is not Phase.EXCHANGE:
            return super().legal_ids(deal, marked)
        legal = deal.legal_actions()
        allowed: Callable[[int], bool]
        if isinstance(legal, SubsetChoices):
            allowed = legal.mask_in
        else:
            allowed = {a.cards.mask for a in legal if type(a) is Exchange}.__contains__
        floor = marked.bit_length()  # marks go up: only cards above the highest marked one
        ids = [card for card in bits(deal.hand_masks[seat] >> floor << floor) if allowed(marked | 1 << card)]
        return [*ids, STAND]

    def meaning(self, deal: Any, marked: int, action_id: int) -> Marking:
        """What ``action_id`` (legal) does: a mark, an exchange (``STAND`` after marks; any mark in the
        incremental mode) or a play or stand.

        Raises:
            ValueError: an id out of range.
        """
        action_id = checked_id(action_id, NUM_ACTIONS, "Dreyfus")
        if deal.phase is Phase.EXCHANGE and action_id != STAND:
            cards = marked | 1 << action_id
            if _immediate(deal.rules):
                return Marking("exchange", cards, Exchange(CardSet(cards)))
            return Marking("mark", cards)
        if action_id == STAND and marked:
            return Marking("exchange", marked, Exchange(CardSet(marked)))
        return Marking("act", action=self.action_of(0, action_id))

    def ids(self, deal: Any, action: Any, marked: int = 0) -> list[int]:
        """The ids of ``action`` from the marks ``marked``: an exchange's cards still to mark, ascending,
        then ``STAND`` (in the incremental mode, its one card); a play's or a stand's one id.

        Raises:
            ValueError: an exchange the marks made so far do not begin.
        """
        if type(action) is not Exchange:
            return [self.id_of(0, action)]
        wanted = action.cards.mask
        rest = wanted & ~marked
        if marked & ~wanted or rest & ((1 << marked.bit_length()) - 1):
            raise ValueError(f"the cards marked, {CardSet(marked)}, do not begin {action}")
        marks = list(bits(rest))
        return marks if _immediate(deal.rules) else [*marks, STAND]

    def choices(self, deal: Any, marked: int) -> Any:
        """The engine actions still open once ``marked`` is marked: the exchanges of those cards and more,
        each above the highest marked one (all the legal actions when nothing is marked)."""
        legal = deal.legal_actions()
        if not marked:
            return legal
        floor = marked.bit_length()
        return [
            action
            for action in legal
            if type(action) is Exchange
            and action.cards.mask & marked == marked
            and (action.cards.mask ^ marked) >> floor << floor == action.cards.mask ^ marked
        ]

    def text(self, deal: Any, marked: int, action_id: int) -> str:
        """``play 10♥``, ``stand``, ``mark 7♣``, ``exchange 7♣ 8♦``."""
        exchange = deal is not None and deal.phase is Phase.EXCHANGE
        if exchange and action_id < STAND:
            verb = "exchange" if _immediate(deal.rules) else "mark"
            return f"{verb} {ALL_CARDS[action_id].symbol}"
        if action_id == STAND and marked:
            return "exchange " + cards_text(CardSet(marked))
        return super().text(deal, marked, action_id)


def _immediate(rules: DreyfusRules) -> bool:
    """Whether a mark is itself a one-card exchange (the incremental mode) [DRF-4.4]."""
    return rules.exchange_mode == "incremental"


ACTIONS: Final = DreyfusActions()
"""Dreyfus's action space."""


def observation_layout(rules: DreyfusRules) -> tuple[Segment, ...]:
    """The parts of a Dreyfus seat's observation [DRF-11.1]: hand 52 | marked 52 | own discards 52 | every
    seat's discards when revealed 3×52 | the talon left when revealed 52 | contract (♣ ♦ ♥ ♠, no trump) 5 |
    current trick by seat 3×52 | cards each seat played to completed tricks 3×52 | cards bought / 12, 3 |
    talon left / 12 | tricks taken / 12, 3 | upper records / target 3 | lower records / target 3 | leader 3 |
    own seat 3 | seat to move 3 | dealer 3 | phase (exchange, play, over) 3.
    """
    return _LAYOUT


_LAYOUT: Final = (
    Segment("hand", 52),
    Segment("marked", 52),
    Segment("own discards", 52),
    Segment("revealed discards", 52, per_seat=True),
    Segment("revealed talon", 52),
    Segment("contract", 5),
    Segment("current trick", 52, per_seat=True),
    Segment("completed tricks", 52, per_seat=True),
    Segment("bought", 1, per_seat=True),
    Segment("talon left", 1),
    Segment("tricks taken", 1, per_seat=True),
    Segment("upper", 1, per_seat=True),
    Segment("lower", 1, per_seat=True),
    Segment("leader", 1, per_seat=True),
    Segment("own seat", 1, per_seat=True),
    Segment("seat to move", 1, per_seat=True),
    Segment("dealer", 1, per_seat=True),
    Segment("phase", 3),
)


def write_dreyfus_observation(view: DreyfusView, marked: int, target: int, out: Floats) -> None:
    """Fill ``out`` (zeros, in the layout of :func:`observation_layout`, seats absolute) with a Dreyfus
    seat's observation [DRF-11.1]."""
    at = write_cards(out, 0, view.hand)
    at = write_cards(out, at, marked)
    at = write_cards(out, at, view.discarded)
    for seat in range(3):
        if view.revealed_discards is not None:
            write_cards(out, at + 52 * seat, view.revealed_discards[seat])
    at += 52 * 3
    at = write_cards(out, at, view.revealed_talon if view.revealed_talon is not None else 0)
    at = one_hot(out, at, 5, 4 if view.contract is None else int(view.contract))
    at = trick_cards(out, at, 3, view)
    for seat in range(3):
        out[at + seat] = view.bought[seat] / 12
        out[at + 4 + seat] = view.tricks_taken[seat] / 12
        out[at + 7 + seat] = view.upper[seat] / target
        out[at + 10 + seat] = view.lower[seat] / target
    out[at + 3] = view.talon_left / 12
    at += 13
    at = one_hot(out, at, 3, view.leader)
    at = one_hot(out, at, 3, view.seat)
    at = one_hot(out, at, 3, view.to_move)
    at = one_hot(out, at, 3, view.dealer)
    one_hot(out, at, 3, PHASES.index(view.phase))


def _text(view: DreyfusView, marks: str) -> str:
    contract = "NT" if view.contract is None else view.contract.symbol
    tricks = " ".join("[" + trick_text(t) + "]" for t in view.tricks)
    revealed = ""
    if view.revealed_discards is not None:
        revealed += " | discards " + " / ".join(cards_text(d) for d in view.revealed_discards)
    if view.revealed_talon is not None:
        revealed += f" | talon left {cards_text(view.revealed_talon)}"
    return (
        f"seat {view.seat} | {view.phase.value} | to move {view.to_move} | dealer {view.dealer} | "
        f"contract {contract} | hand {cards_text(view.hand)}{marks} | discarded {cards_text(view.discarded)} | "
        f"bought {view.bought} | talon {view.talon_left}{revealed} | leader {view.leader} | "
        f"trick {trick_text(view.trick)} | tricks {tricks} | "
        f"taken {view.tricks_taken} | upper {view.upper} | lower {view.lower}"
    )


def table_shows(view: DreyfusView) -> tuple[Card | str, tuple[bool, ...]]:
    """What a picture shows beside the hands (the contract), and which seats are in the deal (all three)."""
    return ("NT" if view.contract is None else view.contract.symbol), (True, True, True)


ENCODING: Final = Encoding(
    ACTIONS,
    observation_layout,
    lambda view, marked, rules, out: write_dreyfus_observation(view, marked, rules.target_lower, out),
    _text,
)
"""Dreyfus's part of the encoding."""


DREYFUS_DEFAULTS: Final[dict[str, Any]] = {
    "preset": "default",
    "dealer": 0,
    "deal_number": 0,
    "exchange_mode": "batch",
    "first_lead": "eldest",
    "trump_duty": "any_trump",
    "must_head_trick": False,
    "fosk_excludes_trump": False,
    "reveal_discards": False,
    "reveal_leftover_talon": False,
}
"""The parameters of ``python_dreyfus`` and their defaults."""


def dreyfus_rules_from_params(params: dict[str, Any]) -> Any:
    """The :class:`~fly_rules.dreyfus.DreyfusRules` of ``python_dreyfus`` game parameters [DRF-1.1].

    >>> dreyfus_rules_from_params({"exchange_mode": "incremental"}).exchange_mode
    'incremental'
    """
    merged = {**DREYFUS_DEFAULTS, **params}
    options = {k: v for k, v in merged.items() if k not in ("preset", "dealer", "deal_number")}
    return attrs.evolve(DreyfusRules.preset(merged["preset"]), **options)


class DreyfusKind:
    """How ``python_dreyfus`` deals and scores one deal of Dreyfus [DRF-2.2]."""

    def __init__(self, rules: DreyfusRules, dealer: int, deal_number: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deal_number = deal_number
        self.deck = tuple(card.index for card in DECK_48)
        self.to_deal = 36
        self.receivers = tuple((eldest(dealer) + i // 12) % 3 for i in range(36))
        self.reveals_in_order = rules.reveal_discards and rules.exchange_mode == "incremental"
        """Whether revealed discards become public one by one, in order [DRF-4.4] [DRF-4.6]."""

    def build(self, dealt: list[int]) -> DreyfusDeal:
        """The engine deal once every card is dealt, in dealing order."""
        hands = [0, 0, 0]
        for seat, card in zip(self.receivers, dealt, strict=True):
            hands[seat] |= 1 << card
        rest = DECK_48.mask & ~sum(1 << c for c in dealt)
        return new_deal(
            self.rules,
            [CardSet(h) for h in hands],
            list(CardSet(rest)),
            contract_of(self.rules, self.deal_number),
            self.dealer,
            deal_number=self.deal_number,
        )

    @staticmethod
    def stock(deal: Any) -> tuple[int, ...]:
        """The undrawn stock or talon, top first, as card indices."""
        talon: tuple[int, ...] = deal.table.talon[12 - deal.talon_left :]
        return talon

    @staticmethod
    def with_stock(deal: Any, order: tuple[int, ...]) -> Any:
        """``deal`` with its undrawn cards in ``order``."""
        table = deal.table
        return deal._replace(table=attrs.evolve(table, talon=table.talon[: 12 - deal.talon_left] + order))

    @staticmethod
    def returns(deal: Any) -> list[float]:
        """Each seat's score for the deal."""
        return [float(deal.lower[s] - deal.upper[s]) for s in range(3)]

    def deal_text(self, index: int, card: int) -> str:
        """The ``index``-th card dealt, as text."""
        return f"deal {ALL_CARDS[card].symbol} to seat {self.receivers[index]}"

    def receiver(self, index: int) -> int | None:
        """The seat that gets the ``index``-th card dealt."""
        return self.receivers[index]

    def public_exchange(self, seat: int, cards: int) -> str:
        """What the other seats see of an exchange."""
        shown = f" ({CardSet(cards)})" if self.rules.reveal_discards else ""
        return f"seat {seat} buys {cards.bit_count()}{shown}"


def _info(rules: DreyfusRules) -> dict[str, Any]:
    revoke = 0
    if rules.revoke_mode == "penalize":
        revoke = rules.revoke_upper_penalty * (12 if rules.revoke_penalty_per == "occurrence" else 1)
    return {
        "num_distinct_actions": NUM_ACTIONS,
        "max_chance_outcomes": 52,
        "num_players": 3,
        "min_utility": -float(12 + rules.par_tricks + revoke),
        "max_utility": float(12 - rules.par_tricks),
        "max_game_length": 36 + 12 + 15 + 36,
    }


OPEN_SPIEL: Final = OpenSpielGame(
    "python_dreyfus",
    "Dreyfus (Дрейфус), one deal",
    (3, 3),
    DREYFUS_DEFAULTS,
    dreyfus_rules_from_params,
    _info,
    lambda rules, params: DreyfusKind(rules, int(params["dealer"]), int(params["deal_number"])),
)
"""``python_dreyfus``."""
