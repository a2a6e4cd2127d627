"""Fly's part of the adapters: its action ids, its observation layout and text, and its deal as
OpenSpiel's chance (the ``adapter`` of Fly's descriptor in :mod:`fly_rules.registry`).

**Fly's action ids** (:data:`NUM_ACTIONS` = 90), one id per decision, used by every adapter and by
the batch engine (:mod:`fly_rules.batch`):

- ``0..51`` (:data:`PLAY`): play the card of that index [FLY-6.2];
- ``52`` (:data:`~fly_rules.adapters.encoding.STAND`): stand, keeping the hand (or, after an exchange under
  ``may_fold_after_exchange``, stay in) [FLY-4.2]; ``53`` (:data:`FOLD`): fold [FLY-5.1];
- ``54..84`` (:data:`EXCHANGE`): id ``EXCHANGE - 1 + m`` exchanges the cards at the hand positions of
  the bits of ``m`` (1..31) [FLY-4.3], position ``j`` being the hand's ``j``-th lowest card index;
- ``85..89`` (:data:`SWAP`): id ``SWAP + j``: the dealer takes the trump card and discards the card at
  hand position ``j`` [FLY-3.3].

An exchange is one id, whatever its size: a hand holds five cards, so 31 ids name every discard set,
read against the hand the observation shows.
"""

from __future__ import annotations

from typing import Any, Final

from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.adapters.encoding import (
    PHASES,
    STAND,
    ActionSpace,
    Encoding,
    Floats,
    OpenSpielGame,
    Segment,
    cards_text,
    checked_id,
    one_hot,
    trick_cards,
    trick_text,
    write_cards,
)
from fly_rules.cards import ALL_CARDS, Card, CardSet
from fly_rules.fly import DEFAULT_PLAYERS, FlyDeal, FlyRules, FlyView, SwapTrump, new_deal

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

PLAY: Final = 0
"""Id ``PLAY + c`` plays the card of index ``c``."""
FOLD: Final = 53
"""Fold."""
EXCHANGE: Final = 54
"""Id ``EXCHANGE - 1 + m`` exchanges the cards at the hand positions of the bits of ``m`` (1..31)."""
SWAP: Final = 85
"""Id ``SWAP + j``: the dealer takes the trump card and discards the card at hand position ``j``."""
NUM_ACTIONS: Final = 90
"""Distinct action ids of Fly."""


def _positions(hand: int) -> list[int]:
    """The hand's card indices, lowest first: position ``j`` is the ``j``-th."""
    return [card.index for card in CardSet(hand)]


class FlyActions(ActionSpace):
    """Fly's action ids (see the module's introduction).

    >>> hand = CardSet.parse("7C 9H JH KS AS").mask
    >>> ACTIONS.action_of(hand, EXCHANGE - 1 + 0b00101), ACTIONS.action_of(hand, SWAP + 4)
    (Exchange(cards=CardSet.parse('7C JH')), SwapTrump(card=Card.parse('AS')))
    >>> ACTIONS.id_of(hand, Exchange("7C JH")), ACTIONS.id_of(hand, Play("9H")), ACTIONS.id_of(hand, Stand())
    (58, 33, 52)
    """

    size = NUM_ACTIONS

    def action_of(self, hand: int, action_id: int) -> Any:
        """The engine action of ``action_id`` for a seat holding ``hand`` (a mask).

        Raises:
            ValueError: an id out of range, or naming a hand position the hand does not have.
        """
        action_id = checked_id(action_id, NUM_ACTIONS, "Fly")
        if action_id < STAND:
            return Play(ALL_CARDS[action_id])
        if action_id == STAND:
            return Stand()
        if action_id == FOLD:
            return Fold()
        cards = _positions(hand)
        if action_id < SWAP:
            m = action_id - EXCHANGE + 1
            if m >> len(cards):
                raise ValueError(f"id {action_id} names a hand position past the hand's {len(cards)} cards")
            return Exchange(CardSet(sum(1 << card for j, card in enumerate(cards) if m >> j & 1)))
        if action_id - SWAP >= len(cards):
            raise ValueError(f"id {action_id} names a hand position past the hand's {len(cards)} cards")
        return SwapTrump(ALL_CARDS[cards[action_id - SWAP]])

    def id_of(self, hand: int, action: Any) -> int:
        """The id of the engine ``action`` of a seat holding ``hand`` (an exchange or a swap by the
        positions of its cards in the hand).

        Raises:
            ValueError: an exchange or swap of a card not in the hand, or not a Fly action.
        """
        kind = type(action)
        if kind is Play:
            index: int = action.card.index
            return PLAY + index
        if kind is Stand:
            return STAND
        if kind is Fold:
            return FOLD
        if kind is Exchange and action.cards.mask and action.cards.mask & ~hand == 0:
            mask, positions = action.cards.mask, 0
            while mask:
                low = mask & -mask
                positions |= 1 << (hand & (low - 1)).bit_count()  # the card's place in the hand
                mask ^= low
            return EXCHANGE - 1 + positions
        if kind is SwapTrump and hand >> action.card.index & 1:
            below: int = hand & ((1 << action.card.index) - 1)
            return SWAP + below.bit_count()
        raise ValueError(f"{action!r} has no Fly action id for a hand of {CardSet(hand)}")


ACTIONS: Final = FlyActions()
"""Fly's action space."""


def observation_layout(rules: FlyRules) -> tuple[Segment, ...]:
    """The parts of a Fly seat's observation [FLY-5.1]: hand 52 | trump card 52 | current trick by seat
    ``n``×52 | cards each seat played to completed tricks ``n``×52 | declarations per seat (stood,
    folded, cards exchanged / 5, swapped) ``n``×4 | active ``n`` | tricks taken / 5 ``n`` | records /
    start record ``n`` | own seat ``n`` | seat to move ``n`` | dealer ``n`` | phase (exchange, play,
    over) 3 | stock size / 52; ``n`` the number of players.
    """
    return _LAYOUT


_LAYOUT: Final = (
    Segment("hand", 52),
    Segment("trump card", 52),
    Segment("current trick", 52, per_seat=True),
    Segment("completed tricks", 52, per_seat=True),
    Segment("declarations", 4, per_seat=True),
    Segment("active", 1, per_seat=True),
    Segment("tricks taken", 1, per_seat=True),
    Segment("records", 1, per_seat=True),
    Segment("own seat", 1, per_seat=True),
    Segment("seat to move", 1, per_seat=True),
    Segment("dealer", 1, per_seat=True),
    Segment("phase", 3),
    Segment("stock", 1),
)


def write_fly_observation(view: FlyView, start_record: int, out: Floats) -> None:
    """Fill ``out`` (zeros, in the layout of :func:`observation_layout`, seats absolute) with a Fly
    seat's observation [FLY-5.1]."""
    n = view.players
    at = write_cards(out, 0, view.hand)
    at = write_cards(out, at, view.trump_card.bit)
    at = trick_cards(out, at, n, view)
    for seat, declared in enumerate(view.declarations):
        for item in declared:
            if item.kind == "exchange":
                out[at + 4 * seat + 2] += item.count / 5
            else:
                out[at + 4 * seat + ("stand", "fold", "", "swap").index(item.kind)] = 1.0
    at += 4 * n
    for seat in range(n):
        out[at + seat] = float(view.active[seat])
        out[at + n + seat] = view.tricks_taken[seat] / 5
        out[at + 2 * n + seat] = view.records[seat] / start_record
    at += 3 * n
    at = one_hot(out, at, n, view.seat)
    at = one_hot(out, at, n, view.to_move)
    at = one_hot(out, at, n, view.dealer)
    at = one_hot(out, at, 3, PHASES.index(view.phase))
    out[at] = view.stock_size / 52


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


ENCODING: Final = Encoding(
    ACTIONS,
    observation_layout,
    lambda view, marked, rules, out: write_fly_observation(view, rules.start_record, out),
    _text,
)
"""Fly's part of the encoding."""


FLY_DEFAULTS: Final[dict[str, Any]] = {
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


def fly_rules_from_params(params: dict[str, Any]) -> Any:
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
    def stock(deal: Any) -> tuple[int, ...]:
        """The undrawn stock, top first, as card indices."""
        return tuple(card.index for card in deal.stock)

    @staticmethod
    def with_stock(deal: Any, order: tuple[int, ...]) -> Any:
        """``deal`` with its stock in ``order``."""
        return deal.with_hidden(stock=order)

    def returns(self, deal: Any) -> list[float]:
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


def _info(rules: FlyRules) -> dict[str, Any]:
    return {
        "num_distinct_actions": NUM_ACTIONS,
        "max_chance_outcomes": 52,
        "num_players": rules.players,
        "min_utility": -float(rules.remise + max(rules.ace_no_trick_penalty, rules.ace_no_trick_penalty_trumps)),
        "max_utility": float(5 * rules.trick_value + max(rules.ace_bonus, rules.ace_bonus_trumps)),
        # chance: the pack dealt and drawn; the players: at most four declarations each, the swap, 5 cards each
        "max_game_length": rules.deck_size + 9 * rules.players + 1,
    }


OPEN_SPIEL: Final = OpenSpielGame(
    "python_fly",
    "Fly (Муха), one deal",
    (3, 7),
    FLY_DEFAULTS,
    fly_rules_from_params,
    _info,
    lambda rules, params: FlyKind(rules, int(params["dealer"])),
)
"""``python_fly``."""
