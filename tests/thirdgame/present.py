"""Plain whist described to :mod:`fly_rules.registry`: everything the clients need, in the game's own
files (the notation, the text, the picture, the bots' guess and rule of thumb, the adapter module)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from fly_rules import registry
from fly_rules.actions import Action, Play
from fly_rules.cards import DECK_36, Card, CardSet, RankOrder, card_field
from fly_rules.engine.hidden import Guess
from fly_rules.errors import InvalidNotation, InvalidRules
from fly_rules.registry import whole_number
from fly_rules.tricks import cheapest_winner
from tests.thirdgame.game import HAND, SEATS, WhistDeal, WhistMatch, WhistRules, WhistView, new_deal, new_match

__all__ = ["WHIST"]


def _points(points: Sequence[int]) -> str:
    return ", ".join(f"seat {s} {p}" for s, p in enumerate(points))


class _Words:
    """How a whist deal is told."""

    exchange_words = ("exchanges", ": ")

    @staticmethod
    def trumps(deal: WhistDeal | WhistView) -> str:
        return f"trump card {deal.trump_card.symbol}"

    @staticmethod
    def hand_note(deal: WhistDeal | WhistView, seat: int) -> str:
        points = deal.points
        return "" if points is None else f"   (points {points[seat]})"

    @staticmethod
    def tricks(old: WhistDeal, new: WhistDeal, action: Action) -> list[str]:
        if len(new.tricks) == len(old.tricks):
            return []
        played = "  ".join(f"{seat}:{card.symbol}" for seat, card in new.tricks[-1])
        return [f"   trick {len(new.tricks)}: {played}  -> seat {new.leader} takes it"]

    @staticmethod
    def deal_end(deal: WhistDeal) -> list[str]:
        return [f"   tricks {deal.tricks_taken}; points: {_points(deal.points)}"]

    @staticmethod
    def match_end(match: WhistMatch) -> str:
        return f"   points: {_points(match.points)}"

    @staticmethod
    def describe(view: WhistView) -> list[str]:
        return [f"   trump card {view.trump_card.symbol}", f"   points: {_points(view.scores)}"]

    @staticmethod
    def goal(rules: WhistRules) -> list[str]:
        return ["   Goal: take the most tricks; each trick is a point.", "   The match ends after its deals."]

    @staticmethod
    def board(deal: WhistDeal) -> list[str]:
        lines = [f"Whist; seat {deal.dealer} deals; trump card {deal.trump_card.symbol}; phase {deal.phase.value}"]
        for seat, hand in enumerate(deal.hands):
            cards = " ".join(c.symbol for c in hand.sorted())
            lines.append(f"  seat {seat}: {cards}  points {deal.points[seat]}")
        return lines


def _picture(view: WhistView, faces: dict[int, CardSet], title: str | None) -> registry.Picture:
    played = {s for s, _ in view.trick}
    hands: list[CardSet | int | None] = [
        faces[s] if s in faces else HAND - len(view.tricks) - (s in played) for s in range(SEATS)
    ]
    return {
        "hands": hands,
        "trump": view.trump_card,
        "trick": view.trick,
        "records": list(view.scores),
        "to_move": view.to_move,
        "title": title or f"Whist, deal {(view.deal_number or 0) + 1}: {view.phase.value}",
    }


def _write(deal: WhistDeal) -> list[str]:
    return [str(deal.trump_card), "-", ",".join(str(p) for p in deal.start_points), str(deal.deal_number)]


def _read(rules: WhistRules, fields: list[str], hands: list[list[Card]], dealer: int, text: str) -> WhistDeal:
    if card_field(fields[5], "undealt", text):
        raise InvalidNotation(text, "undealt: whist deals every card")
    points = [whole_number(v, "records") for v in fields[6].split(",")]
    number = whole_number(fields[9], "number", signed=False)
    return new_deal(
        rules, hands=hands, trump_card=Card.parse(fields[3]), dealer=dealer, points=points, deal_number=number
    )


def _make_rules(preset: str, players: int | None, options: dict[str, object]) -> WhistRules:
    if preset != "default":
        raise InvalidRules("preset", f"unknown preset {preset!r} (known: default)")
    if players not in (None, SEATS):
        raise InvalidRules("players", f"WHIST-1: whist is for 3 players, not {players!r}")
    return WhistRules(**options)  # type: ignore[arg-type]  # the rules' validators check each value


class WhistGuess(Guess[WhistView, WhistRules]):
    """What a whist seat's view rules out: the cards played, the suits a seat showed void in, and the
    trump card, which the dealer holds until he plays it."""

    deck = DECK_36.mask
    hand_size = HAND

    def __init__(self, view: WhistView, rules: WhistRules) -> None:
        tricks = [list(trick) for trick in (*view.tricks, view.trick)]
        super().__init__(view, rules, SEATS, tricks, [0] * SEATS, view.trump)
        self.first = rules.left_of(view.dealer)
        turned = view.trump_card.bit
        self.turned = turned
        self.dealer_holds = view.dealer != view.seat and not self.played[view.dealer] & turned

    def known(self) -> int:
        """The trump card."""
        return self.turned

    def discards(self, seat: int, pool: int, own: bool, rng: random.Random) -> int | None:
        """None given; the trump card is counted in the dealer's hand as dealt."""
        return self.turned if seat == self.view.dealer else 0

    def adjust(self, need: dict[int, int]) -> dict[int, int]:
        """The dealer's hidden cards are one fewer while he holds the trump card."""
        if self.dealer_holds:
            need[self.view.dealer] -= 1
        return need

    def exchanges(self, seat: int, held: int, given: int, rng: random.Random) -> list[tuple[int, int]] | None:
        """No exchanges in whist."""
        return []

    def replay(
        self,
        start: list[CardSet],
        stock: list[Card],
        events: list[list[tuple[int, int]]],
        records: Sequence[int] | None,
    ) -> tuple[WhistDeal, list[Action]]:
        """The deal as guessed, before any card is played."""
        view = self.view
        points = records or (0,) * SEATS
        deal = new_deal(self.rules, hands=start, trump_card=view.trump_card, dealer=view.dealer, points=points)
        return deal, []


class WhistBot:
    """Win each trick as cheaply as possible."""

    name = "rule-of-thumb"

    def __init__(self, order: RankOrder) -> None:
        self.order = order

    def choose(self, view: WhistView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The cheapest winning card, else the cheapest card."""
        plays = [action for action in legal_actions if isinstance(action, Play)]  # whist has no other action
        return cheapest_winner(plays, [c for _, c in view.trick], view.trump, self.order)


WHIST: registry.Game[WhistRules, WhistDeal, WhistView] = registry.Game(
    name="whist",
    title="Whist",
    rules_class=WhistRules,
    presets={"default": WhistRules()},
    rules_version=1,
    seats=(SEATS, SEATS),
    default_players=SEATS,
    make_rules=_make_rules,
    new_match=new_match,
    new_deal=new_deal,
    start_keys={"dealer": "seat", "hands": "hands", "trump_card": "text", "points": "numbers"},
    position=registry.PositionForm(10, lambda _hands: None, _write, _read),
    words=_Words(),
    picture=_picture,
    guesser=WhistGuess,
    rule_of_thumb=WhistBot,
    adapter=registry.lazy("tests.thirdgame.adapter"),
    playout_samples=4,
)
"""The descriptor the test fixture registers."""
