"""The options of Fly: one frozen object naming every reading the sources leave open.

``FlyRules(players=n)`` is the default profile of ``specs/fly.md``; every other
field selects another reading, and its docstring names the rule whose Decision
it belongs to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Literal

import attrs

from fly_rules._options import MAX_COUNT, MAX_POINTS, changed_options, check_options, whole
from fly_rules.cards import ACE_BELOW_JACK, ACE_HIGH, CardSet, RankOrder, deck_of_size
from fly_rules.errors import InvalidRules, shown
from fly_rules.tricks import TrumpDuty, trump_duty_option

__all__ = ["DEFAULT_DECKS", "DEFAULT_PLAYERS", "PRESETS", "RENAMED_OPTIONS", "RENAMED_VALUES", "FlyRules"]

DEFAULT_PLAYERS: Final = 4
"""The table size when none is given: the rules' default, the descriptor's, the command's and the adapters'
[FLY-1.1]."""

DEFAULT_DECKS: Final[dict[int, int]] = {3: 32, 4: 36, 5: 52, 6: 52, 7: 52}
"""Deck size by number of players [FLY-1.3]."""

_MOUCHE_DECKS: Final[dict[int, int]] = {3: 32, 4: 36, 5: 48, 6: 52, 7: 52}


RENAMED_OPTIONS: Final[dict[str, str]] = {}
"""Options known by an older name and their name now (none in Fly)."""
RENAMED_VALUES: Final[dict[str, dict[object, object]]] = {
    "revoke_mode": {"forbid": "prevent", "adjudicate": "penalize"}
}
"""Option values known by an older name (histories and positions written before the rename), by option, and
their name now [FLY-11.1]."""


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidRules("deal_packets", f"must be a sequence of whole numbers, not {shown(values)}")
    return tuple(values)


@attrs.frozen(kw_only=True, cache_hash=True)
class FlyRules:
    """The rules options of one game of Fly [FLY-1.1].

    >>> FlyRules(players=4).deck_size
    36
    >>> FlyRules(players=8)
    Traceback (most recent call last):
    ...
    fly_rules.errors.InvalidRules: invalid rules option players: FLY-1.1: Fly is for 3 to 7 players, not 8
    """

    players: int = whole(DEFAULT_PLAYERS, 3, 7, rule="FLY-1.1", says="Fly is for {low} to {high} players")
    """Number of players, 3 to 7 [FLY-1.1]."""
    direction: Literal["clockwise", "anticlockwise"] = "clockwise"
    """Which way the deal, the declarations, the play and the dealership pass [FLY-1.2]."""
    deck_size: int = attrs.field()
    """Cards in the deck: 32, 36, 48 or 52; by default from the number of players [FLY-1.3]."""
    ace_rank: Literal["high", "below_jack"] = "high"
    """Where the ace ranks in its suit [FLY-1.4]."""
    deal_packets: tuple[int, ...] = attrs.field(default=(1,), converter=_int_tuple)
    """Packet sizes of the deal, repeated until each hand has five; each packet goes once round the table [FLY-3.1]."""
    turnup_use: Literal["none", "dealer_swap", "last_stock_card"] = "none"
    """What becomes of the turned-up trump card [FLY-3.3]."""
    declaration_mode: Literal["combined", "fold_round_then_exchange"] = "combined"
    """One combined declaration each, or a fold round before the exchange round [FLY-4.1]."""
    max_exchange: int = whole(5, 1, 5, rule="FLY-4.3")
    """Most cards one player may exchange, 1 to 5 [FLY-4.3]."""
    total_exchange_cap: int | None = whole(None, 1, 52, rule="FLY-4.3")
    """Most cards all players together may exchange in one deal, 1 to 52; None for no cap [FLY-4.3]."""
    stock_exhaustion: Literal["cap", "folded_hands", "reshuffle_discards"] = "cap"
    """What happens when the stock cannot cover an exchange [FLY-4.5]."""
    may_fold_after_exchange: bool = False
    """Whether a player who exchanged may still fold after seeing his new cards [FLY-4.6]."""
    ace_of_spades_discardable: bool = True
    """Whether the A♠ may be discarded in an exchange [FLY-4.7]."""
    forced_player: Literal["dealer_if_all_passed", "eldest"] | None = None
    """A player who may not fold besides the A♠ holder [FLY-5.3]."""
    all_fold: Literal["void", "dealer_must_play", "redeal_same_dealer"] = "void"
    """What happens when every player folds [FLY-5.4]."""
    lone_player: Literal["takes_all", "last_speaker_must_play", "void"] = "takes_all"
    """What happens when exactly one player stays in [FLY-5.5]."""
    must_head_trick: bool = False
    """Whether a player following suit must beat the best card of the suit led if able [FLY-6.3]."""
    trump_duty: TrumpDuty = attrs.field(default=TrumpDuty.ANY_TRUMP, converter=trump_duty_option)
    """What a player void in the suit led owes when he holds trumps [FLY-6.4]."""
    ace_of_spades_mode: Literal["led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"] = "led_trump_ace"
    """The reading of the ace-of-spades privilege [FLY-7.1]."""
    start_record: int = whole(25, 1, MAX_POINTS, rule="FLY-8.1")
    """Every record's starting value, 1 to 1000 [FLY-8.1]."""
    trick_value: int = whole(1, 1, MAX_POINTS, rule="FLY-8.2")
    """Points written off per trick, 1 to 1000 [FLY-8.2]."""
    ace_bonus: int = whole(5, 0, MAX_POINTS, rule="FLY-8.3")
    """Extra points the A♠ holder writes off with his first trick, 0 to 1000 [FLY-8.3]."""
    ace_bonus_trumps: int = whole(10, 0, MAX_POINTS, rule="FLY-8.3")
    """The same when spades are trump [FLY-8.3]."""
    remise: int = whole(5, 0, MAX_POINTS, rule="FLY-8.4")
    """Points added to an active player who took no trick, 0 to 1000 [FLY-8.4]."""
    ace_no_trick_penalty: int = whole(10, 0, MAX_POINTS, rule="FLY-8.5")
    """Points added, in all, to the A♠ holder who took no trick, 0 to 1000 [FLY-8.5]."""
    ace_no_trick_penalty_trumps: int = whole(10, 0, MAX_POINTS, rule="FLY-8.5")
    """The same when spades are trump [FLY-8.5]."""
    stop_mode: Literal["immediate", "end_of_deal"] = "immediate"
    """When a record of exactly zero ends the match [FLY-9.1]."""
    tie_break: Literal["earliest", "shared"] = "earliest"
    """Who wins when several records reach zero in one deal (end-of-deal mode) [FLY-9.4]."""
    revoke_mode: Literal["prevent", "penalize"] = "prevent"
    """Whether a play that breaks a duty is refused (``"prevent"``) or accepted and penalised
    (``"penalize"``) [FLY-11.1]; a history or position written with the former names ``"forbid"`` and
    ``"adjudicate"`` still loads (:data:`RENAMED_VALUES`) [REC-2.3]."""
    flush_wins: bool = False
    """Whether five cards of one suit win the deal outright [FLY-12.1]."""
    max_deals: int | None = whole(None, 1, MAX_COUNT, rule="FLY-10.1")
    """Stop a match after this many deals (1 to 1,000,000) even without a winner; None for no limit [FLY-10.1]."""

    @deck_size.default
    def _default_deck(self) -> int:
        if type(self.players) is int and self.players in DEFAULT_DECKS:
            return DEFAULT_DECKS[self.players]
        return 52

    def __attrs_post_init__(self) -> None:
        check_options(self)
        try:
            deck_of_size(self.deck_size)
        except ValueError as error:
            raise InvalidRules("deck_size", str(error)) from None
        if not self.deal_packets or any(type(p) is not int or not 1 <= p <= 5 for p in self.deal_packets):
            raise InvalidRules("deal_packets", f"must be whole numbers from 1 to 5, not {shown(self.deal_packets)}")
        if not self.packet_rounds:
            raise InvalidRules(
                "deal_packets",
                f"FLY-3.1: packets, repeated, must make up exactly 5 cards, not {shown(self.deal_packets)}",
            )
        if self.players * 5 + 1 > self.deck_size:
            raise InvalidRules(
                "deck_size",
                f"FLY-1.3: {self.players} hands of 5 and a trump card need {self.players * 5 + 1} cards, "
                f"the deck has {self.deck_size}",
            )

    @property
    def packet_rounds(self) -> tuple[int, ...]:
        """The packet size of each round of the deal: ``deal_packets`` repeated until
        they make five cards; empty if they cannot make exactly five [FLY-3.1].

        >>> FlyRules(players=3).packet_rounds, FlyRules(players=3, deal_packets=(3, 2)).packet_rounds
        ((1, 1, 1, 1, 1), (3, 2))
        """
        rounds: list[int] = []
        while sum(rounds) < 5:
            rounds.extend(self.deal_packets)
        return tuple(rounds) if sum(rounds) == 5 else ()

    @property
    def rank_order(self) -> RankOrder:
        """The rank order within a suit [FLY-1.4]."""
        return ACE_HIGH if self.ace_rank == "high" else ACE_BELOW_JACK

    @property
    def deck(self) -> CardSet:
        """The cards in play [FLY-1.3]."""
        return deck_of_size(self.deck_size)

    @property
    def game(self) -> str:
        """``"fly"``, the game's name in the formats [REC-1.3]."""
        return "fly"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat, and tricks in a deal: five [FLY-3.1]."""
        return 5

    def left_of(self, seat: int) -> int:
        """The next seat in the direction of play [FLY-1.2]."""
        step = 1 if self.direction == "clockwise" else -1
        return (seat + step) % self.players

    def non_default_options(self) -> dict[str, object]:
        """The options that differ from ``FlyRules(players=self.players)``, by name."""
        return changed_options(self, FlyRules(players=self.players))

    @classmethod
    def preset(cls, name: str, *, players: int = DEFAULT_PLAYERS, **overrides: object) -> FlyRules:
        """A named profile [FLY-12.2]: ``"default"`` or ``"mouche_1718"``.

        >>> FlyRules.preset("mouche_1718", players=5).ace_rank
        'below_jack'
        """
        if name not in PRESETS:
            raise InvalidRules("preset", f"FLY-12.2: unknown preset {name!r} (known: {', '.join(sorted(PRESETS))})")
        options: dict[str, Any] = PRESETS[name].non_default_options()
        if name == "mouche_1718" and type(players) is int and players in _MOUCHE_DECKS:
            options["deck_size"] = _MOUCHE_DECKS[players]  # other counts: FlyRules refuses them
        # the overrides come last, so that a deck_size given wins
        options.update(overrides)
        return cls(players=players, **options)


PRESETS: Final[dict[str, FlyRules]] = {
    "default": FlyRules(),
    "mouche_1718": FlyRules(
        ace_rank="below_jack",
        deal_packets=(3, 2),
        direction="anticlockwise",
        turnup_use="dealer_swap",
        flush_wins=True,
        ace_of_spades_mode="none",
    ),
}
"""The named profiles, for four players [FLY-12.2]; :meth:`FlyRules.preset` gives one for any number."""
