"""Fly's part of the adapters: its observation as floats and as text, and its deal as OpenSpiel's chance (the
``adapter`` of Fly's descriptor in :mod:`fly_rules.registry`).

Its action ids (:data:`~fly_rules.fly.encoding.NUM_ACTIONS` = 90) and observation layout are in
:mod:`fly_rules.fly.encoding` (no NumPy), re-exported here.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Final

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
from fly_rules.cards import ALL_CARDS, Card, CardSet
from fly_rules.engine.encoding import layout_views
from fly_rules.fly import DEFAULT_PLAYERS, FlyDeal, FlyRules, FlyView, new_deal
from fly_rules.fly.encoding import (
    ACTIONS,
    EXCHANGE,
    FOLD,
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    PLAY,
    STAND,
    SWAP,
    FlyActions,
    observation_layout,
)

__all__ = [
    "ACTIONS",
    "ENCODING",
    "EXCHANGE",
    "FLY_DEFAULTS",
    "FOLD",
    "NUM_ACTIONS",
    "OPEN_SPIEL",
    "PLAY",
    "STAND",
    "SWAP",
    "FlyActions",
    "FlyKind",
    "fly_rules_from_params",
    "observation_layout",
    "table_shows",
    "write_fly_observation",
]

if TYPE_CHECKING:
    from fly_rules.adapters.encoding import Floats


def write_fly_observation(view: FlyView, start_record: int, out: Floats | list[float]) -> None:
    """Fill ``out`` (zeros, in the layout of :func:`~fly_rules.fly.encoding.observation_layout`, seats absolute)
    with a Fly seat's observation [FLY-5.1], each part where its name puts it (the layout's start offsets)."""
    n = view.players
    at = _starts(n)
    write_cards(out, at["hand"], view.hand)
    write_cards(out, at["trump card"], view.trump_card.bit)
    trick_cards(out, at["current trick"], n, view, at["completed tricks"])
    declarations = at["declarations"]
    for seat, declared in enumerate(view.declarations):
        for item in declared:
            if item.kind == "exchange":
                out[declarations + 4 * seat + 2] += item.count / 5
            else:
                out[declarations + 4 * seat + ("stand", "fold", "", "swap").index(item.kind)] = 1.0
    active, taken, records = at["active"], at["tricks taken"], at["records"]
    for seat in range(n):
        out[active + seat] = float(view.active[seat])
        out[taken + seat] = view.tricks_taken[seat] / 5
        out[records + seat] = view.records[seat] / start_record
    one_hot(out, at["own seat"], n, view.seat)
    one_hot(out, at["seat to move"], n, view.to_move)
    one_hot(out, at["dealer"], n, view.dealer)
    one_hot(out, at["phase"], 3, PHASES.index(view.phase))
    out[at["stock"]] = view.stock_size / 52


@functools.cache
def _starts(players: int) -> dict[str, int]:
    """Where each of Fly's observation parts starts, by name, at a table of ``players``
    (:func:`~fly_rules.engine.encoding.layout_views`)."""
    return {name: part.start for name, part in layout_views(OBSERVATION_LAYOUT, players).items()}


def _text(view: FlyView, marks: str) -> str:
    declared = " ".join(
        "/".join(d.kind + (str(d.count) if d.count else "") for d in items) or "-" for items in view.declarations
    )
    tricks = " ".join("[" + trick_text(t) + "]" for t in view.tricks)
    return (
        f"seat {view.seat} | {view.phase.value} | to move {view.to_move} | dealer {view.dealer} | "
        f"hand {cards_text(view.hand)}{marks} | trump {view.trump_card.symbol} | stock {view.stock_size} | "
        f"declared {declared} | "
        f"active {''.join('10'[not a] for a in view.active)} | trick {trick_text(view.trick)} | "
        f"tricks {tricks} | taken {view.tricks_taken} | records {view.records}"
    )


def table_shows(view: FlyView) -> tuple[Card | str, tuple[bool, ...]]:
    """What a picture shows beside the hands (the trump card), and which seats are still in the deal."""
    return view.trump_card, view.active


ENCODING: Final[Encoding[FlyView, FlyRules]] = Encoding(
    observation_layout,
    lambda view, marked, rules, out: write_fly_observation(view, rules.start_record, out),
    _text,
)
"""Fly's part of the encoding."""


FLY_DEFAULTS: Final[dict[str, Param]] = {
    "players": DEFAULT_PLAYERS,
    "preset": "default",
    "dealer": 0,
    "deck_size": 0,
    "max_exchange": 5,
    "may_fold_after_exchange": False,
    "must_head_trick": False,
    "ace_of_spades_discardable": True,
    "direction": "",
    "ace_rank": "",
    "turnup_use": "",
    "declaration_mode": "",
    "forced_player": "",
    "all_fold": "",
    "lone_player": "",
    "trump_duty": "",
    "ace_of_spades_mode": "",
}
"""The parameters of ``python_fly`` and their defaults."""

_FLY_TEXT_OPTIONS: Final = (
    "direction",
    "ace_rank",
    "turnup_use",
    "declaration_mode",
    "forced_player",
    "all_fold",
    "lone_player",
    "trump_duty",
    "ace_of_spades_mode",
)


def fly_rules_from_params(params: dict[str, Any]) -> FlyRules:
    """The :class:`~fly_rules.fly.FlyRules` of ``python_fly`` game parameters [FLY-12.2].

    >>> fly_rules_from_params({"players": 5, "preset": "mouche_1718", "ace_rank": "high"}).non_default_options()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'direction': 'anticlockwise', 'deck_size': 48, 'deal_packets': (3, 2), 'turnup_use': 'dealer_swap',
     'ace_of_spades_mode': 'none', 'flush_wins': True}
    """
    merged = {**FLY_DEFAULTS, **params}
    options: dict[str, Any] = {
        name: merged[name]
        for name in ("max_exchange", "may_fold_after_exchange", "must_head_trick", "ace_of_spades_discardable")
    }
    for name in _FLY_TEXT_OPTIONS:
        if merged[name] != "":
            options[name] = None if merged[name] == "none" and name == "forced_player" else merged[name]
    if merged["deck_size"]:
        options["deck_size"] = merged["deck_size"]
    return FlyRules.preset(merged["preset"], players=merged["players"], **options)


class FlyKind:
    """How ``python_fly`` deals and scores one deal of Fly [FLY-3.1] [FLY-3.2]."""

    def __init__(self, rules: FlyRules, dealer: int) -> None:
        if rules.stock_exhaustion != "cap":
            raise ValueError("python_fly draws replacements as chance from the stock; it needs stock_exhaustion='cap'")
        self.rules = rules
        self.dealer = dealer
        self.deck = tuple(card.index for card in rules.deck)
        self.to_deal = 5 * rules.players + 1
        order = [rules.left_of(dealer)]
        for _ in range(rules.players - 1):
            order.append(rules.left_of(order[-1]))
        self.receivers = tuple(seat for seat in order for _ in range(5))
        self.reveals_in_order = False
        """Whether revealed discards become public one by one, in order (never in Fly)."""

    def build(self, dealt: list[int]) -> FlyDeal:
        """The engine deal once every card is dealt, in dealing order."""
        hands = [0] * self.rules.players
        for seat, card in zip(self.receivers, dealt, strict=False):
            hands[seat] |= 1 << card
        rest = CardSet(sum(1 << c for c in self.deck) & ~sum(1 << c for c in dealt))
        return new_deal(
            self.rules,
            hands=[CardSet(h) for h in hands],
            trump_card=ALL_CARDS[dealt[-1]],
            stock=rest,
            dealer=self.dealer,
        )

    @staticmethod
    def stock(deal: FlyDeal) -> tuple[int, ...]:
        """The undrawn stock, top first, as card indices."""
        return tuple(card.index for card in deal.stock)

    @staticmethod
    def with_stock(deal: FlyDeal, order: tuple[int, ...]) -> FlyDeal:
        """``deal`` with its stock in ``order``."""
        return deal.with_hidden(stock=order)

    def returns(self, deal: FlyDeal) -> list[float]:
        """Each seat's score for the deal."""
        return [float(self.rules.start_record - r) for r in deal.records]

    def deal_text(self, index: int, card: int) -> str:
        """The ``index``-th card dealt, as text."""
        if index == self.to_deal - 1:
            return f"trump card {ALL_CARDS[card].symbol}"
        return f"deal {ALL_CARDS[card].symbol} to seat {self.receivers[index]}"

    def receiver(self, index: int) -> int | None:
        """The seat that gets the ``index``-th card dealt; None for the face-up trump card."""
        return None if index == self.to_deal - 1 else self.receivers[index]

    def public_exchange(self, seat: int, cards: int) -> str:
        """What the other seats see of an exchange."""
        return f"seat {seat} exchanges {cards.bit_count()}"


def _info(rules: FlyRules) -> dict[str, int | float]:
    return {
        "num_distinct_actions": NUM_ACTIONS,
        "max_chance_outcomes": 52,
        "num_players": rules.players,
        "min_utility": -float(rules.remise + max(rules.ace_no_trick_penalty, rules.ace_no_trick_penalty_trumps)),
        "max_utility": float(5 * rules.trick_value + max(rules.ace_bonus, rules.ace_bonus_trumps)),
        # chance: the pack dealt and drawn; the players: at most four declarations each, the swap, 5 cards each
        "max_game_length": rules.deck_size + 9 * rules.players + 1,
    }


OPEN_SPIEL: Final[OpenSpielGame[FlyRules, FlyDeal]] = OpenSpielGame(
    "python_fly",
    "Fly (Муха), one deal",
    (3, 7),
    FLY_DEFAULTS,
    fly_rules_from_params,
    _info,
    lambda rules, params: FlyKind(rules, int(params["dealer"])),
)
"""``python_fly``."""
