"""The options of Dreyfus: one frozen object, validated, with named presets [DRF-1.1].

Every field selects the alternative of one Decision in ``specs/dreyfus.md``;
its docstring names the rule. The defaults are the readings the spec
recommends.

>>> DreyfusRules().target_lower
10
>>> DreyfusRules.preset("shram").fosk_ranks == frozenset(Rank(r) for r in range(3, 9))
True
>>> DreyfusRules(deal_packet_size=5)
Traceback (most recent call last):
...
fly_rules.errors.InvalidRules: invalid rules option deal_packet_size: DRF-2.2: must be a whole number dividing 12, not 5
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

import attrs

from fly_rules._options import MAX_COUNT, MAX_POINTS, changed_options, check_options, whole
from fly_rules.cards import ACE_HIGH, SUIT_MASKS, Rank, RankOrder, Suit
from fly_rules.errors import InvalidRules, shown
from fly_rules.tricks import TrumpDuty, trump_duty_option

__all__ = ["DEFAULT_FOSK_RANKS", "PRESETS", "RENAMED_OPTIONS", "RENAMED_VALUES", "DreyfusRules"]

DEFAULT_FOSK_RANKS: Final = frozenset(Rank(r) for r in range(3, 11))
"""Ranks 3 to 10: the фоски by default [DRF-4.2]."""


def _to_cycle(value: Iterable[Suit | str | None]) -> tuple[Suit | None, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise InvalidRules("contract_cycle", f"must be a sequence of suits or None, not {shown(value)}")
    cycle: list[Suit | None] = []
    for item in value:
        if item is None or isinstance(item, Suit):
            cycle.append(item)
        elif isinstance(item, str) and item.strip().upper() in {"NT", "NONE", ""}:
            cycle.append(None)
        elif isinstance(item, str):
            try:
                cycle.append(Suit.parse(item))
            except ValueError as error:
                raise InvalidRules("contract_cycle", f"{shown(item)} is not a suit or None") from error
        else:
            raise InvalidRules("contract_cycle", f"{shown(item)} is not a suit or None")
    return tuple(cycle)


def _to_ranks(value: Iterable[Rank | int] | str) -> frozenset[Rank]:
    if value == "any":
        return frozenset(Rank(r) for r in range(3, 15))
    if isinstance(value, str):
        raise InvalidRules("fosk_ranks", f"{shown(value)}: give a set of ranks or 'any'")
    try:
        return frozenset(Rank(r) for r in value)
    except (TypeError, ValueError) as error:
        raise InvalidRules("fosk_ranks", f"{shown(value)} is not a set of ranks") from error


@attrs.frozen(kw_only=True)
class DreyfusRules:
    """The rules options of Dreyfus; the defaults follow the seed as the spec reads it [DRF-1.1].

    Invalid values raise :class:`~fly_rules.errors.InvalidRules` naming the option.
    """

    par_tricks: int = whole(4, 0, 12, rule="DRF-7.1")
    """Tricks a player must take to write nothing, 0 to 12 [DRF-7.1]."""
    target_lower: int = whole(10, 1, MAX_POINTS, rule="DRF-8.1")
    """The lower record that ends the match and wins it, 1 to 1000 [DRF-8.1]."""
    contract_cycle: tuple[Suit | None, ...] = attrs.field(
        default=(Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None), converter=_to_cycle
    )
    """Trump suit of each deal in turn, None for no trump; repeats [DRF-3.1] [DRF-3.2] [DRF-3.3]."""
    show_trump_indicator: bool = True
    """Whether views show the two of trumps as the trump marker [DRF-1.3]."""
    deal_packet_size: int = attrs.field(default=3)
    """Cards per packet when dealing; must divide 12 [DRF-2.2]."""
    dealer_rotation: Literal["left", "right"] = "left"
    """Where the deal passes after each deal [DRF-2.1]."""
    fosk_ranks: frozenset[Rank] = attrs.field(default=DEFAULT_FOSK_RANKS, converter=_to_ranks)
    """The ranks that may be discarded ("any" for all) [DRF-4.2]."""
    fosk_excludes_trump: bool = False
    """Whether trumps are never фоски [DRF-4.2]."""
    exchange_mode: Literal["batch", "incremental"] = "batch"
    """Discard a set at once, or one card at a time [DRF-4.4]."""
    reveal_discards: bool = False
    """Whether every player sees all discards [DRF-4.6]."""
    reveal_leftover_talon: bool = False
    """Whether the talon left after the exchange is shown to all [DRF-4.6]."""
    first_lead: Literal["eldest", "first_actual_buyer"] = "eldest"
    """Who leads to the first trick [DRF-5.1]."""
    trump_duty: TrumpDuty = attrs.field(default=TrumpDuty.ANY_TRUMP, converter=trump_duty_option)
    """What a player void in the suit led owes when he holds trumps [DRF-6.3] [DRF-6.4]."""
    must_head_trick: bool = False
    """Whether a player following suit must beat the best card of the suit led if able [DRF-6.4]."""
    winner_rule: Literal["first_to_reach", "highest_lower"] = "first_to_reach"
    """How the winner is chosen when the target is reached [DRF-8.2]."""
    max_deals: int | None = whole(None, 1, MAX_COUNT, rule="DRF-8.3")
    """Deals (1 to 1,000,000) after which a match without a winner stops (None: no limit) [DRF-8.3]."""
    settlement: Literal["gross", "net_of_winner_upper", "pairwise"] = "gross"
    """How the losers pay [DRF-9.1]."""
    shortfall_floor_zero: bool = True
    """Whether a lower record above the target is paid as zero shortfall, not negative [DRF-9.1]."""
    revoke_mode: Literal["prevent", "penalize"] = "prevent"
    """Refuse plays that break a duty, or accept them as revokes [DRF-10.1]."""
    revoke_upper_penalty: int = whole(10, 0, MAX_POINTS, rule="DRF-10.1")
    """Points a revoker writes above, 0 to 1000 [DRF-10.1]."""
    revoke_penalty_per: Literal["deal", "occurrence"] = "deal"
    """Whether the penalty is written once a deal or for each revoke [DRF-10.1]."""
    revoke_adds_undertricks: bool = False
    """Whether a revoker also writes his undertricks above [DRF-10.1]."""
    forgot_record_penalty: int = whole(3, 0, MAX_POINTS, rule="DRF-10.2")
    """Points added to a purchase recorded late, 0 to 1000 [DRF-10.2]."""

    _fosk: int = attrs.field(init=False, eq=False, repr=False)
    """The cards of the фоска ranks in every suit, as a mask, for the hot path [DRF-4.2]."""

    def __attrs_post_init__(self) -> None:
        check_options(self)

    @deal_packet_size.validator
    def _check_packet(self, _attribute: object, value: object) -> None:
        if type(value) is not int or value not in (1, 2, 3, 4, 6, 12):
            raise InvalidRules("deal_packet_size", f"DRF-2.2: must be a whole number dividing 12, not {shown(value)}")

    @contract_cycle.validator
    def _check_cycle(self, _attribute: object, value: tuple[Suit | None, ...]) -> None:
        if not value:
            raise InvalidRules("contract_cycle", "must name at least one contract")

    @fosk_ranks.validator
    def _check_fosk(self, _attribute: object, value: frozenset[Rank]) -> None:
        if Rank.TWO in value:
            raise InvalidRules("fosk_ranks", "the twos are not in the deck (DRF-1.2)")

    @_fosk.default
    def _fosk_default(self) -> int:
        return sum(1 << (suit * 13 + rank - 2) for suit in range(4) for rank in self.fosk_ranks)

    def fosk_mask(self, contract: Suit | None) -> int:
        """The cards that may be discarded under ``contract``, as a mask [DRF-4.2].

        >>> from fly_rules.cards import CardSet
        >>> len(CardSet(DreyfusRules(fosk_excludes_trump=True).fosk_mask(Suit.SPADES)))
        24
        """
        if self.fosk_excludes_trump and contract is not None:
            return self._fosk & ~SUIT_MASKS[contract]
        return self._fosk

    @property
    def players(self) -> int:
        """Dreyfus is always for three players [DRF-1.1]."""
        return 3

    @property
    def game(self) -> str:
        """``"dreyfus"``, the game's name in the formats [REC-1.3]."""
        return "dreyfus"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat, and tricks in a deal: twelve [DRF-2.2]."""
        return 12

    @property
    def rank_order(self) -> RankOrder:
        """Ace high, two low, in every suit [DRF-1.2]."""
        return ACE_HIGH

    def left_of(self, seat: int) -> int:
        """The next seat in the order of play: the player on the left [DRF-2.2]."""
        return (seat + 1) % 3

    def non_default_options(self) -> dict[str, object]:
        """The options that differ from ``DreyfusRules()``, by name."""
        return changed_options(self, PRESETS["default"])

    @classmethod
    def preset(cls, name: str) -> DreyfusRules:
        """The named rules: ``"default"``, ``"shram"``, ``"whist_honours"`` or ``"table"`` [DRF-4.2] [DRF-10.1].

        ``"shram"`` reads фоски as 3–8 (the shram page); ``"whist_honours"`` counts the ten
        as an honour (3–9); ``"table"`` accepts revokes and penalises them, for people
        playing at a table.
        """
        try:
            return PRESETS[name]
        except KeyError:
            raise InvalidRules("preset", f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}") from None


PRESETS: Final[dict[str, DreyfusRules]] = {
    "default": DreyfusRules(),
    "shram": DreyfusRules(fosk_ranks=frozenset(Rank(r) for r in range(3, 9))),
    "whist_honours": DreyfusRules(fosk_ranks=frozenset(Rank(r) for r in range(3, 10))),
    "table": DreyfusRules(revoke_mode="penalize"),
}
"""The named rule sets of :meth:`DreyfusRules.preset` [DRF-4.2]."""

RENAMED_OPTIONS: Final[dict[str, str]] = {"revoke_handling": "revoke_mode"}
"""Options known by an older name (histories and positions written before the rename) and their name now
[DRF-10.1]."""
RENAMED_VALUES: Final[dict[str, dict[object, object]]] = {}
"""Option values known by an older name, by option, and their name now (none in Dreyfus)."""
