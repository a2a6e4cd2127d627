"""Dreyfus as the clients see it: its descriptor in :mod:`fly_rules.registry` (notation, text,
pictures, bots, adapters), registered when :mod:`fly_rules.dreyfus` is imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from fly_rules import registry
from fly_rules.actions import Action
from fly_rules.cards import Card, CardSet, RankOrder, Suit, card_field, card_text
from fly_rules.dreyfus.bot import DreyfusRuleOfThumbBot
from fly_rules.dreyfus.encoding import ACTIONS
from fly_rules.dreyfus.match import DreyfusMatch, new_match
from fly_rules.dreyfus.positions import new_deal
from fly_rules.dreyfus.rules import PRESETS, RENAMED_OPTIONS, RENAMED_VALUES, DreyfusRules
from fly_rules.dreyfus.state import DreyfusDeal, DreyfusView
from fly_rules.engine import Phase
from fly_rules.errors import InvalidNotation, InvalidRules
from fly_rules.registry import seat_text, tricks_text, whole_number
from fly_rules.registry import wrapped_lines as _wrapped

__all__ = ["descriptor"]


def _trumps(state: DreyfusDeal | DreyfusView) -> str:
    return "no trumps" if state.trump is None else f"trumps {state.trump.symbol}"


class _Words:
    """How Dreyfus is told: the contract, purchases, tricks and records, the settlement."""

    exchange_words = ("buys", ", discarding ")

    @staticmethod
    def trumps(deal: DreyfusDeal | DreyfusView) -> str:
        return "no trumps" if deal.trump is None else f"{deal.trump.symbol} trumps"

    @staticmethod
    def hand_note(deal: DreyfusDeal | DreyfusView, seat: int) -> str:
        return ""

    @staticmethod
    def tricks(old: DreyfusDeal, new: DreyfusDeal, action: Action) -> list[str]:
        if len(new.tricks) == len(old.tricks):
            return [*_record_changes(old, new, "the purchase [DRF-4.5]"), *_skipped(old, new)]
        played = "  ".join(f"{seat}:{card.symbol}" for seat, card in new.tricks[-1])
        line = f"   trick {len(new.tricks)}: {played}  -> {seat_text(new.leader)} takes it"
        return [line, *_record_changes(old, new, "short of four tricks [DRF-7.3]")]

    @staticmethod
    def deal_end(deal: DreyfusDeal) -> list[str]:
        return [f"   tricks {deal.tricks_taken}; upper {deal.upper}, lower {deal.lower}"]

    @staticmethod
    def match_end(match: DreyfusMatch) -> str:
        return "   settlement: " + ", ".join(f"{seat_text(s)} {p:+d}" for s, p in enumerate(match.settlement()))

    @staticmethod
    def describe(view: DreyfusView) -> list[str]:
        return [f"   {_trumps(view)}; talon {view.talon_left} cards", f"   upper {view.upper}, lower {view.lower}"]

    @staticmethod
    def goal(rules: DreyfusRules) -> list[str]:
        par, target = rules.par_tricks, rules.target_lower
        aim = (
            f"be first to {target} in your lower record"
            if rules.winner_rule == "first_to_reach"
            else f"reach {target} in your lower record (the highest at that deal's end wins)"
        )
        return _wrapped(
            f"Goal: {aim}: 1 for each trick beyond {par} a deal. The upper record is what you pay: 1 a card you"
            f" buy, 1 a trick short of {par}."
        )

    @staticmethod
    def board(deal: DreyfusDeal) -> list[str]:
        lines = [
            f"Dreyfus; seat {deal.dealer} deals; {_trumps(deal)}",
            f"phase {deal.phase.value}; to move: {seat_text(deal.to_move)}; talon {deal.talon_left} cards",
        ]
        for seat in range(3):
            cards = " ".join(c.symbol for c in deal.view(seat).hand.sorted())
            lines.append(f"  seat {seat}: {cards}  upper {deal.upper[seat]} lower {deal.lower[seat]}")
        return lines


def _skipped(old: DreyfusDeal, new: DreyfusDeal) -> list[str]:
    """The seats whose turn to buy the action passed over, the talon being empty [DRF-4.1]: said, not skipped
    without a word."""
    if old.phase is not Phase.EXCHANGE or new.phase is Phase.EXCHANGE or old.to_move is None:
        return []
    order = [(old.dealer + 1 + i) % 3 for i in range(3)]  # the buying order, from the dealer's left
    return [
        f"   {seat_text(seat)} buys nothing: the talon is empty [DRF-4.1]"
        for seat in order[order.index(old.to_move) + 1 :]
    ]


def _record_changes(old: DreyfusDeal, new: DreyfusDeal, upper_why: str) -> list[str]:
    """Every record an action changed, in words with its rule: an overtrick written below [DRF-7.2]; a
    purchase, or at the end of the deal the tricks short of four, written above [DRF-7.3]."""
    lines = []
    for seat in range(3):
        if new.lower[seat] != old.lower[seat]:
            why = "a trick beyond four [DRF-7.2]"
            lines.append(f"      {seat_text(seat)}: lower {old.lower[seat]} -> {new.lower[seat]}, {why}")
        if new.upper[seat] != old.upper[seat]:
            lines.append(f"      {seat_text(seat)}: upper {old.upper[seat]} -> {new.upper[seat]}, {upper_why}")
    return lines


def _picture(view: DreyfusView, faces: dict[int, CardSet], title: str | None) -> registry.Picture:
    """Twelve cards a hand, the talon, the records as upper and lower; each seat's note says how many
    cards it bought once its turn to buy is past, and how many tricks it took once play began."""
    played = {s for s, _ in view.trick}
    hands: list[CardSet | int | None] = [
        faces[s] if s in faces else 12 - len(view.tricks) - (s in played) for s in range(3)
    ]
    order = [(view.dealer + 1 + i) % 3 for i in range(3)]  # the buying order, from the dealer's left
    bought = order if view.phase is not Phase.EXCHANGE or view.to_move is None else order[: order.index(view.to_move)]
    declarations: list[str | None] = []
    for s in range(3):
        words = [f"bought {view.bought[s]}" if view.bought[s] else "bought none"] if s in bought else []
        if view.tricks:
            words.append(tricks_text(view.tricks_taken[s]))
        declarations.append(", ".join(words) or None)
    if title is None:
        trumps = "no trumps" if view.contract is None else f"trumps {view.contract.symbol}"
        title = f"Dreyfus, deal {view.deal_number + 1}: {view.phase.value}, {trumps}"
    return {
        "hands": hands,
        "trump": view.trump_indicator,
        "stock": view.talon_left,
        "trick": view.trick,
        "records": [f"upper {u}, lower {lo}" for u, lo in zip(view.upper, view.lower, strict=True)],
        "to_move": view.to_move,
        "title": title,
        "dealer": view.dealer,
        "declarations": declarations,
        "trump_label": "no trumps" if view.contract is None else "trumps",
        "stock_label": "talon",
    }


def _numbers(values: Iterable[int]) -> str:
    return ",".join(str(v) for v in values)


def _write(deal: DreyfusDeal) -> list[str]:
    """A Dreyfus position's contract, talon, upper/lower records and deal number [REC-5.1]."""
    contract = "NT" if deal.contract is None else deal.contract.letter
    records = _numbers(deal.upper) + "/" + _numbers(deal.lower)
    return [contract, card_text(deal.talon), records, str(deal.deal_number)]


def _ints(text: str) -> list[int]:
    return [whole_number(v, "records") for v in text.split(",")]


def _read(rules: DreyfusRules, fields: list[str], hands: list[list[Card]], dealer: int, text: str) -> DreyfusDeal:
    """The Dreyfus deal a position's fields give [REC-5.1]."""
    upper_text, slash, lower_text = fields[6].partition("/")
    if not slash:
        raise InvalidNotation(text, "records: upper records, '/', lower records")
    number = whole_number(fields[9], "number", signed=False)
    contract = None if fields[3] == "NT" else Suit.parse(fields[3])
    return new_deal(
        rules,
        hands=hands,
        talon=card_field(fields[5], "talon", text),
        contract=contract,
        dealer=dealer,
        upper=_ints(upper_text),
        lower=_ints(lower_text),
        deal_number=number,
    )


def _make_rules(preset: str, players: int | None, options: dict[str, Any]) -> DreyfusRules:  # values: any option's
    if players not in (None, 3):
        raise InvalidRules("players", f"DRF-1.1: Dreyfus is for 3 players, not {players!r}")
    return attrs.evolve(DreyfusRules.preset(preset), **options)


def _rule_of_thumb(_order: RankOrder) -> DreyfusRuleOfThumbBot:
    # Dreyfus's bot plays one rank order whatever the rules say, so the order is not passed on
    return DreyfusRuleOfThumbBot()


def descriptor(rules_version: int) -> registry.Game[DreyfusRules, DreyfusDeal, DreyfusView]:
    """Dreyfus's descriptor, for the engine's ``rules_version``."""
    return registry.Game(
        name="dreyfus",
        title="Dreyfus",
        rules_class=DreyfusRules,
        presets=PRESETS,
        rules_version=rules_version,
        seats=(3, 3),
        default_players=3,
        make_rules=_make_rules,
        new_match=new_match,
        new_deal=new_deal,
        start_keys={
            "dealer": "seat",
            "hands": "hands",
            "talon": "text",
            "contract": "suit",
            "upper": "numbers",
            "lower": "numbers",
        },
        position=registry.PositionForm(10, lambda _hands: None, _write, _read, numbered=True),
        words=_Words(),
        picture=_picture,
        guesser=registry.lazy("fly_rules.dreyfus.hidden", "DreyfusGuess"),
        rule_of_thumb=_rule_of_thumb,
        expert=registry.lazy("fly_rules.dreyfus.bot", "DreyfusExpertHints"),
        search_kernel=registry.lazy("fly_rules.dreyfus.solving", "DreyfusKernel"),
        strategies=registry.lazy("fly_rules.strategies", "dreyfus_states"),
        adapter=registry.lazy("fly_rules.adapters.dreyfus_game"),
        action_ids=ACTIONS,
        batch=registry.lazy("fly_rules.batch._dreyfus", "DreyfusBatch"),
        conformance=registry.lazy("fly_rules.dreyfus.conformance"),
        renamed_options=RENAMED_OPTIONS,
        renamed_values=RENAMED_VALUES,
        playout_samples=8,
    )
