"""The exchange: declarations in turn, exchanging from the stock, standing and
folding [FLY-4.1] [FLY-4.2] [FLY-4.3] [FLY-4.4] [FLY-4.5] [FLY-4.6] [FLY-4.7]
[FLY-5.1] [FLY-5.2] [FLY-5.3] [FLY-5.4] [FLY-5.5] [FLY-3.3].

The functions take the deal's pieces (the :class:`~fly_rules.fly.deal.DealTable`, the
:class:`Exchanges`, the hands as masks and the seat to move) and return new
pieces; they never see the deal itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import attrs

from fly_rules._choices import SubsetChoices
from fly_rules._deal_tools import one_card
from fly_rules.actions import Exchange, Fold, Stand, exchange_of_mask
from fly_rules.cards import CARD_BITS, Card, CardSet
from fly_rules.errors import RuleViolation
from fly_rules.fly.deal import ACE_OF_SPADES, DealTable, refill_order

__all__ = [
    "Exchanges",
    "SwapTrump",
    "apply_declaration",
    "exchange_limit",
    "fold_refusal",
    "legal_declarations",
]

_AS_BIT: Final = 1 << ACE_OF_SPADES
_STAND: Final = Stand()
_FOLD: Final = Fold()


def _to_card(value: Card | str) -> Card:
    return one_card(value, "swap-trump")


@attrs.frozen
class SwapTrump:
    """The dealer takes the turned-up trump card into his hand and discards ``card``
    (only with ``turnup_use="dealer_swap"``) [FLY-3.3]."""

    card: Card = attrs.field(converter=_to_card, validator=attrs.validators.instance_of(Card))
    """The card the dealer discards in exchange for the trump card."""

    def __str__(self) -> str:
        return f"swap-trump {self.card}"


class Exchanges(NamedTuple):
    """The state of the exchange: the stock, the discards and the declarations [FLY-4.1]."""

    stock_indices: tuple[int, ...]
    """The stock, top first, as card indices [FLY-3.4]."""
    active: tuple[bool, ...]
    """Per seat, whether it has not folded [FLY-5.1]."""
    declared: tuple[tuple[Any, ...], ...]
    """Per seat, the declaration actions taken, in order."""
    turnup_here: bool = True
    """Whether the trump card still lies beside the stock (not taken into a hand)."""
    discard_mask: int = 0
    """Dead cards: discards of the exchange [FLY-4.4]."""
    declaration_round: int = 0
    """0 for the (only or fold) round, 1 for the exchange round of the two-round mode [FLY-4.1]."""
    must_confirm: bool = False
    """The player to move has exchanged and must now stand or fold (``may_fold_after_exchange``) [FLY-4.6]."""
    exchanged_total: int = 0
    """Cards exchanged so far by all players [FLY-4.3]."""
    refills: int = 0
    """How many times the stock was refilled [FLY-4.5]."""


_Declaration = tuple[int | None, tuple[int, ...], Exchanges]
"""What a declaration leaves: the seat to declare next (None once every declaration
is made and play may begin), the hands and the exchanges."""


_STAND_ONLY: Final = (_STAND,)
_STAND_FOLD: Final = (_STAND, _FOLD)
_new: Final = tuple.__new__  # Exchanges built without its keyword-handling __new__, once per exchange taken


def _in_exchange_round(table: DealTable, exchanges: Exchanges) -> bool:
    return table.rules.declaration_mode == "combined" or exchanges.declaration_round == 1


def fold_refusal(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], seat: int) -> RuleViolation | None:
    """Why ``seat`` may not fold now, or None if it may [FLY-5.2] [FLY-5.3] [FLY-5.4] [FLY-5.5] [FLY-4.6]."""
    reason = _fold_reason(table, exchanges, hands, seat)
    return None if reason is None else RuleViolation(*reason, _FOLD)


def _fold_reason(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], seat: int) -> tuple[str, str] | None:
    """:func:`fold_refusal` as (rule ID, text), built only when a fold is refused."""
    rules = table.rules
    if rules.declaration_mode == "fold_round_then_exchange" and exchanges.declaration_round == 1:
        return "FLY-4.6", "after the fold round a player who stayed in must play"
    if hands[seat] & _AS_BIT or (exchanges.declared[seat] and _gave_up_ace(exchanges, seat)):
        return "FLY-5.2", "a player who held the ace of spades when his turn began may not fold"
    if rules.forced_player == "eldest" and seat == table.left[table.dealer]:
        return "FLY-5.3", "the player on the dealer's left may not fold (forced_player='eldest')"
    if seat == table.dealer:  # the last to speak
        others_active = sum(exchanges.active) - 1
        if others_active == 0 and rules.forced_player == "dealer_if_all_passed":
            return "FLY-5.3", "the dealer must play when everyone else has folded"
        if others_active == 0 and rules.all_fold == "dealer_must_play":
            return "FLY-5.4", "the dealer must play when everyone else has folded"
        if others_active == 1 and rules.lone_player == "last_speaker_must_play":
            return "FLY-5.5", "the last to declare must play when only one other player stays in"
    return None


def _gave_up_ace(exchanges: Exchanges, seat: int) -> bool:
    """Whether ``seat`` discarded the A♠ this deal, by exchange or trump swap: he held it when his
    turn began, so he may still not fold [FLY-4.6] [FLY-4.7] [FLY-5.2]."""
    for action in exchanges.declared[seat]:
        if isinstance(action, SwapTrump) and action.card.bit == _AS_BIT:
            return True
        if isinstance(action, Exchange) and action.cards.mask & _AS_BIT:
            return True
    return False


def _refill_pool(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...]) -> int:
    mode = table.rules.stock_exhaustion
    if mode == "folded_hands":
        pool = 0
        for seat, active in enumerate(exchanges.active):
            if not active:
                pool |= hands[seat]
        return pool
    if mode == "reshuffle_discards":
        return exchanges.discard_mask
    return 0


def exchange_limit(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...]) -> int:
    """The most cards the player to move may exchange now [FLY-4.3] [FLY-4.5]."""
    rules = table.rules
    limit = rules.max_exchange
    if rules.total_exchange_cap is not None:
        limit = min(limit, rules.total_exchange_cap - exchanges.exchanged_total)
    available = len(exchanges.stock_indices)
    if available >= limit:
        return limit  # the stock alone covers it (the caps leave limit >= 0)
    available += _refill_pool(table, exchanges, hands).bit_count()
    if rules.turnup_use == "last_stock_card" and exchanges.turnup_here:  # FLY-3.3
        available += 1
    return max(0, min(limit, available))


def legal_declarations(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], seat: int) -> Sequence[Any]:
    """The declarations open to ``seat`` [FLY-4.2], in the documented order.

    The exchanges come as a lazy sequence (``SubsetChoices``, shared with Dreyfus):
    up to 31 per hand, built only when asked for, so a random or sampling player
    pays for the one it picks.
    """
    rules = table.rules
    combined = rules.declaration_mode == "combined"
    must_confirm = exchanges.must_confirm
    # _fold_reason refuses a fold in the exchange round of two (FLY-4.6), so it alone decides
    may_fold = _fold_reason(table, exchanges, hands, seat) is None
    actions: tuple[Any, ...] = _STAND_FOLD if may_fold else _STAND_ONLY
    if must_confirm or not (combined or exchanges.declaration_round == 1):  # not _in_exchange_round
        return actions
    hand = hands[seat]
    choosable = hand if rules.ace_of_spades_discardable else hand & ~_AS_BIT  # FLY-4.7
    if rules.turnup_use == "dealer_swap" and seat == table.dealer and exchanges.turnup_here:  # FLY-3.3 (_may_swap)
        actions += tuple(SwapTrump(card) for card in CardSet(choosable))
    limit = rules.max_exchange  # FLY-4.3
    if rules.total_exchange_cap is not None or len(exchanges.stock_indices) < limit:
        limit = exchange_limit(table, exchanges, hands)
    if not limit or not choosable:
        return actions
    return SubsetChoices(actions, choosable, limit, exchange_of_mask)


def _may_swap(table: DealTable, exchanges: Exchanges, seat: int) -> bool:
    return table.rules.turnup_use == "dealer_swap" and seat == table.dealer and exchanges.turnup_here


def _check_exchange(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], seat: int, action: Exchange) -> int:
    """The number of cards ``action`` exchanges; raise if it is not a legal exchange for ``seat``
    [FLY-4.3] [FLY-4.5] [FLY-4.7]."""
    rules = table.rules
    mask = action.cards.mask
    if exchanges.must_confirm or not (rules.declaration_mode == "combined" or exchanges.declaration_round == 1):
        rule = "FLY-4.6" if exchanges.must_confirm else "FLY-4.1"
        raise RuleViolation(rule, "no exchange is open now: stand or fold", action)
    if mask == 0:
        raise RuleViolation("FLY-4.3", "an exchange discards at least one card; to keep the hand, stand", action)
    if mask & ~hands[seat]:
        missing = CardSet(mask & ~hands[seat])
        raise RuleViolation("FLY-4.3", f"seat {seat} does not hold {missing}", action)
    count = mask.bit_count()
    if count > rules.max_exchange:
        raise RuleViolation("FLY-4.3", f"at most {rules.max_exchange} cards may be exchanged, not {count}", action)
    if rules.total_exchange_cap is not None and exchanges.exchanged_total + count > rules.total_exchange_cap:
        left = rules.total_exchange_cap - exchanges.exchanged_total
        raise RuleViolation("FLY-4.3", f"only {left} more cards may be exchanged in this deal, not {count}", action)
    if not rules.ace_of_spades_discardable and mask & _AS_BIT:
        raise RuleViolation("FLY-4.7", "the ace of spades may not be discarded", action)
    # the checks above leave count within the caps, so only a short stock can refuse it
    if count > len(exchanges.stock_indices):
        limit = exchange_limit(table, exchanges, hands)
        if count > limit:
            raise RuleViolation("FLY-4.5", f"the stock can replace only {limit} cards, not {count}", action)
    return count


def _draw(
    table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], count: int
) -> tuple[int, tuple[int, ...], bool, int, tuple[int, ...], int]:
    """Take ``count`` replacements [FLY-4.4]: the stock from its top, then (by the
    options) the trump card, then a refilled stock [FLY-4.5].

    Returns (drawn mask, new stock, turn-up still here, discards, hands, refills).
    """
    stock = exchanges.stock_indices
    drawn = sum(map(CARD_BITS.__getitem__, stock[:count]))  # distinct cards: the sum is their union
    if count <= len(stock):
        return drawn, stock[count:], exchanges.turnup_here, exchanges.discard_mask, hands, exchanges.refills
    count -= len(stock)
    stock = ()
    turnup_here = exchanges.turnup_here
    discards = exchanges.discard_mask
    refills = exchanges.refills
    rules = table.rules
    if count and rules.turnup_use == "last_stock_card" and turnup_here:  # FLY-3.3
        drawn |= table.trump_card.bit
        turnup_here = False
        count -= 1
    if count:
        pool = _refill_pool(table, exchanges, hands)
        if rules.stock_exhaustion == "folded_hands":
            hands = tuple(0 if not exchanges.active[s] else h for s, h in enumerate(hands))
        else:
            discards = 0
        stock = refill_order(pool, table.seed, table.deal_number, refills)
        refills += 1
        for index in stock[:count]:
            drawn |= 1 << index
        stock = stock[count:]
    return drawn, stock, turnup_here, discards, hands, refills


def apply_declaration(
    table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], seat: int, action: Any
) -> _Declaration:
    """The declaration ``action`` of ``seat`` [FLY-4.1] [FLY-4.2].

    Raises:
        RuleViolation: the declaration is not open to ``seat`` now, naming the rule.
    """
    declared = list(exchanges.declared)
    declared[seat] = (*declared[seat], action)
    if isinstance(action, Exchange):  # first: the most frequent in random play
        count = _check_exchange(table, exchanges, hands, seat, action)
        mask = action.cards.mask
        drawn, stock, turnup_here, discards, hands_after, refills = _draw(table, exchanges, hands, count)
        exchanged = list(hands_after)
        exchanged[seat] = exchanged[seat] & ~mask | drawn
        confirm = table.rules.may_fold_after_exchange
        after = _new(
            Exchanges,
            (
                stock,
                exchanges.active,
                tuple(declared),
                turnup_here,
                discards | mask,
                exchanges.declaration_round,
                confirm,
                exchanges.exchanged_total + count,
                refills,
            ),
        )
        if confirm:
            return seat, tuple(exchanged), after
        return _next_declarer(table, after, tuple(exchanged), seat)
    if isinstance(action, SwapTrump):
        if not _may_swap(table, exchanges, seat) or exchanges.must_confirm or not _in_exchange_round(table, exchanges):
            raise RuleViolation("FLY-3.3", "only the dealer, once, may take the trump card (turnup_use)", action)
        bit = action.card.bit
        if not hands[seat] & bit:
            raise RuleViolation("FLY-3.3", f"the dealer does not hold {action.card}", action)
        if bit == _AS_BIT and not table.rules.ace_of_spades_discardable:
            raise RuleViolation("FLY-4.7", "the ace of spades may not be discarded, even for the trump card", action)
        swapped = list(hands)
        swapped[seat] = swapped[seat] & ~bit | table.trump_card.bit
        after = exchanges._replace(
            discard_mask=exchanges.discard_mask | bit, turnup_here=False, declared=tuple(declared)
        )
        return seat, tuple(swapped), after
    if isinstance(action, Fold):
        refused = fold_refusal(table, exchanges, hands, seat)
        if refused is not None:
            raise refused
        active = list(exchanges.active)
        active[seat] = False
        after = exchanges._replace(active=tuple(active), declared=tuple(declared), must_confirm=False)
        return _next_declarer(table, after, hands, seat)
    return _next_declarer(table, exchanges._replace(declared=tuple(declared), must_confirm=False), hands, seat)


def _next_declarer(table: DealTable, exchanges: Exchanges, hands: tuple[int, ...], seat: int) -> _Declaration:
    """The turn passed from ``seat`` to the next player to declare, or None when every
    declaration is made [FLY-4.1]."""
    left = table.left
    active = exchanges.active
    first_round = exchanges.declaration_round == 0
    while seat != table.dealer:
        seat = left[seat]
        if first_round or active[seat]:
            return seat, hands, exchanges
    if first_round and table.rules.declaration_mode == "fold_round_then_exchange" and any(active):
        seat = left[table.dealer]
        while not active[seat]:
            seat = left[seat]
        return seat, hands, exchanges._replace(declaration_round=1)
    return None, hands, exchanges
