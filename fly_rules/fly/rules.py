"""The options of Fly: one frozen object naming every reading the sources leave open.

``FlyRules(players=n)`` is the default profile of ``specs/fly.md``; every other
field selects another reading, and its docstring names the rule whose Decision
it belongs to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Final, Literal

import attrs

from fly_rules._options import changed_options
from fly_rules.cards import ACE_BELOW_JACK, ACE_HIGH, CardSet, RankOrder, deck_of_size
from fly_rules.errors import InvalidRules
from fly_rules.tricks import TrumpDuty, trump_duty_option

__all__ = ["DEFAULT_DECKS", "PRESETS", "FlyRules"]

DEFAULT_DECKS: Final[dict[int, int]] = {3: 32, 4: 36, 5: 52, 6: 52, 7: 52}
"""Deck size by number of players [FLY-1.3]."""

_MOUCHE_DECKS: Final[dict[int, int]] = {3: 32, 4: 36, 5: 48, 6: 52, 7: 52}


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidRules("deal_packets", f"must be a sequence of whole numbers, not {values!r}")
    return tuple(values)


def _positive_or_zero(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 0:
        raise InvalidRules(attribute.name, f"must be a whole number >= 0, not {value!r}")


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

    players: int = 4
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
    max_exchange: int = 5
    """Most cards one player may exchange [FLY-4.3]."""
    total_exchange_cap: int | None = None
    """Most cards all players together may exchange in one deal; None for no cap [FLY-4.3]."""
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
    start_record: int = attrs.field(default=25, validator=_positive_or_zero)
    """Every record's starting value [FLY-8.1]."""
    trick_value: int = attrs.field(default=1, validator=_positive_or_zero)
    """Points written off per trick [FLY-8.2]."""
    ace_bonus: int = attrs.field(default=5, validator=_positive_or_zero)
    """Extra points the A♠ holder writes off with his first trick [FLY-8.3]."""
    ace_bonus_trumps: int = attrs.field(default=10, validator=_positive_or_zero)
    """The same when spades are trump [FLY-8.3]."""
    remise: int = attrs.field(default=5, validator=_positive_or_zero)
    """Points added to an active player who took no trick [FLY-8.4]."""
    ace_no_trick_penalty: int = attrs.field(default=10, validator=_positive_or_zero)
    """Points added, in all, to the A♠ holder who took no trick [FLY-8.5]."""
    ace_no_trick_penalty_trumps: int = attrs.field(default=10, validator=_positive_or_zero)
    """The same when spades are trump [FLY-8.5]."""
    stop_mode: Literal["immediate", "end_of_deal"] = "immediate"
    """When a record of exactly zero ends the match [FLY-9.1]."""
    tie_break: Literal["earliest", "shared"] = "earliest"
    """Who wins when several records reach zero in one deal (end-of-deal mode) [FLY-9.4]."""
    revoke_mode: Literal["forbid", "adjudicate"] = "forbid"
    """Whether an illegal play is refused or accepted and penalised [FLY-11.1]."""
    flush_wins: bool = False
    """Whether five cards of one suit win the deal outright [FLY-12.1]."""
    max_deals: int | None = attrs.field(default=None)
    """Stop a match after this many deals even without a winner; None for no limit [FLY-10.1]."""

    _CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "direction": ("clockwise", "anticlockwise"),
        "ace_rank": ("high", "below_jack"),
        "turnup_use": ("none", "dealer_swap", "last_stock_card"),
        "declaration_mode": ("combined", "fold_round_then_exchange"),
        "stock_exhaustion": ("cap", "folded_hands", "reshuffle_discards"),
        "forced_player": (None, "dealer_if_all_passed", "eldest"),
        "all_fold": ("void", "dealer_must_play", "redeal_same_dealer"),
        "lone_player": ("takes_all", "last_speaker_must_play", "void"),
        "ace_of_spades_mode": ("led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"),
        "stop_mode": ("immediate", "end_of_deal"),
        "tie_break": ("earliest", "shared"),
        "revoke_mode": ("forbid", "adjudicate"),
    }

    @deck_size.default
    def _default_deck(self) -> int:
        if type(self.players) is int and self.players in DEFAULT_DECKS:
            return DEFAULT_DECKS[self.players]
        return 52

    @max_deals.validator
    def _check_max_deals(self, attribute: attrs.Attribute[int | None], value: int | None) -> None:
        if value is not None and (type(value) is not int or value < 1):
            raise InvalidRules(attribute.name, f"must be None or a whole number >= 1, not {value!r} (FLY-10.1)")

    def __attrs_post_init__(self) -> None:
        self._validate()

    def _validate(self) -> None:
        if type(self.players) is not int or not 3 <= self.players <= 7:
            raise InvalidRules("players", f"FLY-1.1: Fly is for 3 to 7 players, not {self.players!r}")
        for name, allowed in self._CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                listed = ", ".join(repr(v) for v in allowed)
                raise InvalidRules(name, f"must be one of {listed}, not {value!r}")
        for name in ("may_fold_after_exchange", "ace_of_spades_discardable", "must_head_trick", "flush_wins"):
            if type(getattr(self, name)) is not bool:
                raise InvalidRules(name, f"must be True or False, not {getattr(self, name)!r}")
        try:
            deck_of_size(self.deck_size)
        except ValueError as error:
            raise InvalidRules("deck_size", str(error)) from None
        if not self.deal_packets or any(type(p) is not int or p < 1 for p in self.deal_packets):
            raise InvalidRules("deal_packets", f"must be whole numbers >= 1, not {self.deal_packets!r}")
        if not self.packet_rounds:
            raise InvalidRules(
                "deal_packets", f"FLY-3.1: packets, repeated, must make up exactly 5 cards, not {self.deal_packets!r}"
            )
        if self.players * 5 + 1 > self.deck_size:
            raise InvalidRules(
                "deck_size",
                f"FLY-1.3: {self.players} hands of 5 and a trump card need {self.players * 5 + 1} cards, "
                f"the deck has {self.deck_size}",
            )
        if type(self.max_exchange) is not int or not 1 <= self.max_exchange <= 5:
            raise InvalidRules("max_exchange", f"must be 1 to 5, not {self.max_exchange!r}")
        cap = self.total_exchange_cap
        if cap is not None and (type(cap) is not int or cap < 1):
            raise InvalidRules("total_exchange_cap", f"must be None or a whole number >= 1, not {cap!r}")
        if self.start_record < 1:
            raise InvalidRules("start_record", f"FLY-8.1: a record must start above 0, not {self.start_record}")
        if self.trick_value < 1:
            raise InvalidRules("trick_value", f"FLY-8.2: a trick must write off at least 1, not {self.trick_value}")

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
    def preset(cls, name: str, *, players: int = 4, **overrides: Any) -> FlyRules:
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
