"""Fly as the clients see it: its descriptor in :mod:`fly_rules.registry` (notation, text, pictures,
bots, adapters), registered when :mod:`fly_rules.fly` is imported.
"""

from __future__ import annotations

from collections.abc import Iterable

from fly_rules import registry
from fly_rules.actions import Action, Play
from fly_rules.cards import ALL_CARDS, Card, CardSet, Suit, card_field, card_text
from fly_rules.engine import Phase
from fly_rules.fly import rules as fly_rules
from fly_rules.fly.bot import FlyRuleOfThumbBot
from fly_rules.fly.encoding import ACTIONS
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.match import FlyMatch, new_match
from fly_rules.fly.positions import new_deal
from fly_rules.fly.state import FlyDeal, FlyView
from fly_rules.registry import seat_text, tricks_text, whole_number
from fly_rules.registry import wrapped_lines as _wrapped

__all__ = ["descriptor"]


def _by_seat(pairs: Iterable[tuple[int, int]]) -> str:
    """Records as ``seat:record``, short enough for seven seats on one line of 80 columns."""
    return "  ".join(f"{seat}:{record}" for seat, record in pairs)


class _Words:
    """How Fly is told: the trump card, the records, tricks taken without play, void deals, folds."""

    exchange_words = ("exchanges", ": ")

    @staticmethod
    def trumps(deal: FlyDeal | FlyView) -> str:
        return f"trump card {deal.trump_card.symbol}"

    @staticmethod
    def hand_note(deal: FlyDeal | FlyView, seat: int) -> str:
        return f"   (record {deal.records[seat]})"

    @staticmethod
    def tricks(old: FlyDeal, new: FlyDeal, action: Action) -> list[str]:
        if old.phase is Phase.EXCHANGE and new.phase is not Phase.EXCHANGE and new.completed:
            return [f"   {seat_text(new.completed[0][0][0])} takes every trick without play"]
        taker = new.leader  # after a trick, the seat that took it
        if not isinstance(action, Play) or len(new.completed) == len(old.completed) or taker is None:
            return []
        cards = "  ".join(f"{s}:{ALL_CARDS[c].symbol}" for s, c in new.completed[-1])
        taken = f"-> {seat_text(taker)} takes it (record {new.records[taker]})"
        line = f"   trick {len(new.completed)}: {cards}  {taken}"
        lines = [line] if len(line) <= 80 else [line[: -len(taken) - 2], f"      {taken}"]  # 80 columns
        return [*lines, *_record_changes(old, new, taker)]

    @staticmethod
    def deal_end(deal: FlyDeal) -> list[str]:
        void = ["   deal void: records unchanged"] if deal.void else []
        return [*void, "   records by seat: " + _by_seat(enumerate(deal.records))]

    @staticmethod
    def match_end(match: FlyMatch) -> str:
        return "   standings (seat:record): " + _by_seat((s, match.records[s]) for s in match.standings())

    @staticmethod
    def describe(view: FlyView) -> list[str]:
        return [
            f"   trump card {view.trump_card.symbol}; stock {view.stock_size} cards",
            "   records by seat: " + _by_seat(enumerate(view.records)),
        ]

    @staticmethod
    def goal(rules: fly_rules.FlyRules) -> list[str]:
        def spades(plain: int, trumps: int) -> str:
            return f"{plain}" if plain == trumps else f"{plain} ({trumps} if ♠ are trumps)"

        return _wrapped(
            f"Goal: take your record from {rules.start_record} to exactly 0: each trick you win writes off"
            f" {rules.trick_value}, the A♠ holder's first {spades(rules.ace_bonus, rules.ace_bonus_trumps)} more."
            f" No trick in a deal you play: +{rules.remise} (a remise), the A♠ holder"
            f" +{spades(rules.ace_no_trick_penalty, rules.ace_no_trick_penalty_trumps)} in all."
        )

    @staticmethod
    def board(deal: FlyDeal) -> list[str]:
        lines = [
            f"Fly, {deal.rules.players} players; seat {deal.dealer} deals; trump card {deal.trump_card.symbol}",
            f"phase {deal.phase.value}; to move: {seat_text(deal.to_move)}; stock {len(deal.stock)} cards",
        ]
        for seat, hand in enumerate(deal.hands):
            status = "" if deal.active[seat] else "  (folded)"
            cards = " ".join(c.symbol for c in hand.sorted(deal.rules.rank_order))
            lines.append(f"  seat {seat}: {cards:<20} record {deal.records[seat]}{status}")
        return lines


def _record_changes(old: FlyDeal, new: FlyDeal, taker: int) -> list[str]:
    """Every record change of a trick beyond its one point, in words with its rule: the A♠ bonus
    [FLY-8.3], an overshoot [FLY-9.2], the exemption [FLY-9.3], exact zero [FLY-9.1], and at the end of
    the deal the remise [FLY-8.4] and the A♠ holder's penalty [FLY-8.5]."""
    rules, score = new.rules, old.score
    was, now = old.records[taker], new.records[taker]
    bonus = 0
    if score.ace_bonus_due and taker == score.ace_holder:
        bonus = rules.ace_bonus_trumps if new.trump is Suit.SPADES else rules.ace_bonus
    lines = []
    why = [f"-{rules.trick_value} for the trick [FLY-8.2]"]
    if bonus:
        why.append(f"-{bonus} A♠ bonus [FLY-8.3]")
    raw = was - rules.trick_value - bonus
    if raw < 0:
        why.append("below 0: exemption, 0 [FLY-9.3]" if bonus else f"overshoot: back to {now} [FLY-9.2]")
    if bonus or raw < 0:
        lines.append(f"      {seat_text(taker)}: record {was} -> {now}: {', '.join(why)}")
    if now == 0 and taker in new.winners:
        lines.append(f"      {seat_text(taker)} reaches exactly 0 and wins [FLY-9.1]")
    for seat in range(len(new.records)):
        added = new.records[seat] - old.records[seat]
        if seat != taker and added > 0:
            rule = "A♠ holder without a trick [FLY-8.5]" if seat == score.ace_holder else "remise [FLY-8.4]"
            lines.append(f"      {seat_text(seat)}: no trick, +{added} {rule}: record {new.records[seat]}")
    return lines


_DECLARED = {"stand": "stood", "fold": "folded", "swap": "took the trump card"}


def _picture(view: FlyView, faces: dict[int, CardSet], title: str | None) -> registry.Picture:
    """A folded seat's hand is not drawn; the others' as many backs as they hold. Each seat's note says
    what it declared and, once play began, how many tricks it took."""
    played = {s for s, _ in view.trick}
    hands: list[CardSet | int | None] = []
    for s in range(view.players):
        if not view.active[s]:
            hands.append(None)
        elif s in faces:
            hands.append(faces[s])
        else:
            hands.append(5 - len(view.tricks) - (s in played))
    declarations: list[str | None] = []
    for s, declared in enumerate(view.declarations):
        words = [f"exchanged {d.count}" if d.kind == "exchange" else _DECLARED[d.kind] for d in declared]
        if view.tricks and view.active[s]:
            words.append(tricks_text(view.tricks_taken[s]))
        declarations.append(", ".join(words) or None)
    if title is None:
        title = f"Fly, deal {view.deal_number + 1}: {view.phase.value}, trumps {view.trump.symbol}"
    return {
        "hands": hands,
        "trump": view.trump_card,
        "stock": view.stock_size,
        "trick": view.trick,
        "records": list(view.records),
        "to_move": view.to_move,
        "title": title,
        "dealer": view.dealer,
        "declarations": declarations,
    }


def _write(deal: FlyDeal) -> list[str]:
    """A Fly position's trump card, stock and records [REC-5.1]."""
    return [str(deal.trump_card), card_text(deal.stock), ",".join(str(r) for r in deal.records)]


def _read(rules: fly_rules.FlyRules, fields: list[str], hands: list[list[Card]], dealer: int, text: str) -> FlyDeal:
    """The Fly deal a position's fields give [REC-5.1]."""
    return new_deal(
        rules,
        hands=hands,
        trump_card=Card.parse(fields[3]),
        stock=card_field(fields[5], "stock", text),
        dealer=dealer,
        records=[whole_number(v, "records") for v in fields[6].split(",")],
    )


def _make_rules(preset: str, players: int | None, options: dict[str, object]) -> fly_rules.FlyRules:
    return fly_rules.FlyRules.preset(
        preset, players=fly_rules.DEFAULT_PLAYERS if players is None else players, **options
    )


def _swap_told(action: SwapTrump, hidden: bool) -> str:
    return "takes the trump card" + ("" if hidden else f", discarding {action.card.symbol}")


def descriptor(rules_version: int) -> registry.Game[fly_rules.FlyRules, FlyDeal, FlyView]:
    """Fly's descriptor, for the engine's ``rules_version``."""
    return registry.Game(
        name="fly",
        title="Fly",
        rules_class=fly_rules.FlyRules,
        presets=fly_rules.PRESETS,
        rules_version=rules_version,
        seats=(3, 7),
        default_players=fly_rules.DEFAULT_PLAYERS,
        make_rules=_make_rules,
        new_match=new_match,
        new_deal=new_deal,
        start_keys={
            "dealer": "seat",
            "hands": "hands",
            "trump_card": "text",
            "stock": "text",
            "records": "numbers",
        },
        position=registry.PositionForm(9, len, _write, _read),
        words=_Words(),
        picture=_picture,
        guesser=registry.lazy("fly_rules.fly.hidden", "FlyGuess"),
        rule_of_thumb=FlyRuleOfThumbBot,
        expert=registry.lazy("fly_rules.fly.expert", "FlyExpertHints"),
        search_kernel=registry.lazy("fly_rules.fly.solving", "FlyKernel"),
        strategies=registry.lazy("fly_rules.strategies", "fly_states"),
        adapter=registry.lazy("fly_rules.adapters.fly_game"),
        action_ids=ACTIONS,
        batch=registry.lazy("fly_rules.batch._fly", "FlyBatch"),
        conformance=registry.lazy("fly_rules.fly.conformance"),
        renamed_options=fly_rules.RENAMED_OPTIONS,
        renamed_values=fly_rules.RENAMED_VALUES,
        actions=(registry.ActionForm(SwapTrump, "swap-trump", "w", changes_hand=True, told=_swap_told),),
        playout_samples=24,
        playout_far_records=True,
    )
