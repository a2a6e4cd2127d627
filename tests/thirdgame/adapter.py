"""Plain whist's part of the adapters: its observation, and its deal as OpenSpiel's chance."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from fly_rules.adapters.encoding import (
    PHASES,
    Encoding,
    OpenSpielGame,
    Param,
    Segment,
    one_hot,
    trick_cards,
    trick_text,
    write_cards,
)
from fly_rules.cards import ALL_CARDS, DECK_36, Card, CardSet
from fly_rules.errors import InvalidRules
from tests.thirdgame.game import HAND, OVER, SEATS, WhistDeal, WhistRules, WhistView, new_deal

Floats = npt.NDArray[np.float32]


def _write(view: WhistView, marked: int, rules: WhistRules, out: Floats | list[float]) -> None:
    """Hand 52 | trump card 52 | trick and tricks by seat 2×3×52 | taken / 12 3 | points / target 3 |
    own seat 3 | seat to move 3 | dealer 3 | phase 3."""
    at = write_cards(out, 0, view.hand)
    at = write_cards(out, at, view.trump_card.bit)
    at = trick_cards(out, at, SEATS, view)
    for seat in range(SEATS):
        out[at + seat] = view.tricks_taken[seat] / HAND
        out[at + SEATS + seat] = view.scores[seat] / rules.target
    at += 2 * SEATS
    at = one_hot(out, at, SEATS, view.seat)
    at = one_hot(out, at, SEATS, view.to_move)
    at = one_hot(out, at, SEATS, view.dealer)
    one_hot(out, at, 3, PHASES.index(view.phase))


def _text(view: WhistView, marks: str) -> str:
    tricks = " ".join("[" + trick_text(t) + "]" for t in view.tricks)
    return (
        f"seat {view.seat} | {view.phase.value} | to move {view.to_move} | dealer {view.dealer} | "
        f"hand {view.hand}{marks} | trump {view.trump_card} | trick {trick_text(view.trick)} | "
        f"tricks {tricks} | taken {view.tricks_taken} | points {view.scores}"
    )


_LAYOUT: Final = (
    Segment("hand", 52),
    Segment("trump card", 52),
    Segment("current trick", 52, per_seat=True),
    Segment("completed tricks", 52, per_seat=True),
    Segment("tricks taken", 1, per_seat=True),
    Segment("points", 1, per_seat=True),
    Segment("own seat", 1, per_seat=True),
    Segment("seat to move", 1, per_seat=True),
    Segment("dealer", 1, per_seat=True),
    Segment("phase", 3),
)

ENCODING: Final[Encoding[WhistView, WhistRules]] = Encoding(lambda rules: _LAYOUT, _write, _text)


def table_shows(view: WhistView) -> tuple[Card | str, tuple[bool, ...]]:
    """The trump card beside the hands; every seat plays."""
    return view.trump_card, (True,) * SEATS


class WhistKind:
    """How ``python_whist`` deals one deal: every card to a seat from the dealer's left, the last to him."""

    def __init__(self, rules: WhistRules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck = tuple(card.index for card in DECK_36)
        self.to_deal = 36
        self.receivers = tuple((dealer + 1 + i) % SEATS for i in range(36))
        self.reveals_in_order = False

    def build(self, dealt: list[int]) -> WhistDeal:
        hands = [0] * SEATS
        for seat, card in zip(self.receivers, dealt, strict=True):
            hands[seat] |= 1 << card
        return new_deal(
            self.rules, hands=[CardSet(h) for h in hands], trump_card=ALL_CARDS[dealt[-1]], dealer=self.dealer
        )

    @staticmethod
    def stock(deal: WhistDeal) -> tuple[int, ...]:
        return ()

    @staticmethod
    def with_stock(deal: WhistDeal, order: tuple[int, ...]) -> WhistDeal:
        return deal

    @staticmethod
    def returns(deal: WhistDeal) -> list[float]:
        return [float(max(0, t - OVER)) for t in deal.tricks_taken]

    def deal_text(self, index: int, card: int) -> str:
        return f"deal {ALL_CARDS[card].symbol} to seat {self.receivers[index]}"

    def receiver(self, index: int) -> int | None:
        return self.receivers[index]

    @staticmethod
    def public_exchange(seat: int, cards: int) -> str:
        return f"seat {seat} exchanges"


def _rules_from_params(params: dict[str, object]) -> WhistRules:
    target = {**_DEFAULTS, **params}["target"]
    if type(target) is not int:
        raise InvalidRules("target", f"must be a whole number, not {target!r}")
    return WhistRules(target=target)


_DEFAULTS: Final[dict[str, Param]] = {"dealer": 0, "target": 5}

OPEN_SPIEL: Final[OpenSpielGame[WhistRules, WhistDeal]] = OpenSpielGame(
    "python_whist",
    "Plain whist for three, one deal",
    (SEATS, SEATS),
    _DEFAULTS,
    _rules_from_params,
    lambda rules: {
        "num_distinct_actions": 52,
        "max_chance_outcomes": 52,
        "num_players": SEATS,
        "min_utility": 0.0,
        "max_utility": float(HAND - OVER),
        "max_game_length": 36 + 36,
    },
    lambda rules, params: WhistKind(rules, int(params["dealer"])),
)
"""``python_whist``."""
