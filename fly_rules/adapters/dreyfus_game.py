"""Dreyfus's part of the adapters: its observation as floats and as text, and its deal as OpenSpiel's chance (the
``adapter`` of Dreyfus's descriptor in :mod:`fly_rules.registry`). Its action ids and observation layout are in
:mod:`fly_rules.dreyfus.encoding` (no NumPy), re-exported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs

from fly_rules.adapters.encoding import (
    PHASES,
    Encoding,
    OpenSpielGame,
    Param,
    cards_text,
    one_hot,
    trick_cards,
    trick_text,
    write_cards,
)
from fly_rules.cards import ALL_CARDS, DECK_48, Card, CardSet
from fly_rules.dreyfus import DreyfusDeal, DreyfusRules, DreyfusView, new_deal
from fly_rules.dreyfus.deal import contract_of, eldest
from fly_rules.dreyfus.encoding import (
    ACTIONS,
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    STAND,
    DreyfusActions,
    observation_layout,
)
from fly_rules.engine.encoding import layout_views

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

if TYPE_CHECKING:
    from fly_rules.adapters.encoding import Floats


def write_dreyfus_observation(view: DreyfusView, marked: int, target: int, out: Floats | list[float]) -> None:
    """Fill ``out`` (zeros, in the layout of :func:`~fly_rules.dreyfus.encoding.observation_layout`, seats
    absolute) with a Dreyfus seat's observation [DRF-11.1], each part at its name's start in the layout."""
    at = _STARTS
    write_cards(out, at["hand"], view.hand)
    write_cards(out, at["marked"], marked)
    write_cards(out, at["own discards"], view.discarded)
    if view.revealed_discards is not None:
        for seat in range(3):
            write_cards(out, at["revealed discards"] + 52 * seat, view.revealed_discards[seat])
    write_cards(out, at["revealed talon"], view.revealed_talon if view.revealed_talon is not None else 0)
    one_hot(out, at["contract"], 5, 4 if view.contract is None else int(view.contract))
    trick_cards(out, at["current trick"], 3, view, at["completed tricks"])
    bought, taken, upper, lower = (at[name] for name in ("bought", "tricks taken", "upper", "lower"))
    for seat in range(3):
        out[bought + seat] = view.bought[seat] / 12
        out[taken + seat] = view.tricks_taken[seat] / 12
        out[upper + seat] = view.upper[seat] / target
        out[lower + seat] = view.lower[seat] / target
    out[at["talon left"]] = view.talon_left / 12
    one_hot(out, at["leader"], 3, view.leader)
    one_hot(out, at["own seat"], 3, view.seat)
    one_hot(out, at["seat to move"], 3, view.to_move)
    one_hot(out, at["dealer"], 3, view.dealer)
    one_hot(out, at["phase"], 3, PHASES.index(view.phase))


_STARTS: Final = {name: part.start for name, part in layout_views(OBSERVATION_LAYOUT, 3).items()}
"""Where each of Dreyfus's observation parts starts, by name (three seats, always:
:func:`~fly_rules.engine.encoding.layout_views`)."""


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


ENCODING: Final[Encoding[DreyfusView, DreyfusRules]] = Encoding(
    observation_layout,
    lambda view, marked, rules, out: write_dreyfus_observation(view, marked, rules.target_lower, out),
    _text,
)
"""Dreyfus's part of the encoding."""


DREYFUS_DEFAULTS: Final[dict[str, Param]] = {
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


def dreyfus_rules_from_params(params: dict[str, Any]) -> DreyfusRules:
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
    def stock(deal: DreyfusDeal) -> tuple[int, ...]:
        """The undrawn stock or talon, top first, as card indices."""
        talon: tuple[int, ...] = deal.table.talon[12 - deal.talon_left :]
        return talon

    @staticmethod
    def with_stock(deal: DreyfusDeal, order: tuple[int, ...]) -> DreyfusDeal:
        """``deal`` with its undrawn cards in ``order``."""
        table = deal.table
        return deal._replace(table=attrs.evolve(table, talon=table.talon[: 12 - deal.talon_left] + order))

    @staticmethod
    def returns(deal: DreyfusDeal) -> list[float]:
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


def _info(rules: DreyfusRules) -> dict[str, int | float]:
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


OPEN_SPIEL: Final[OpenSpielGame[DreyfusRules, DreyfusDeal]] = OpenSpielGame(
    "python_dreyfus",
    "Dreyfus (Дрейфус), one deal",
    (3, 3),
    DREYFUS_DEFAULTS,
    dreyfus_rules_from_params,
    _info,
    lambda rules, params: DreyfusKind(rules, int(params["dealer"]), int(params["deal_number"])),
)
"""``python_dreyfus``."""
