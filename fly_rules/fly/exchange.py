"""The exchange: declarations in turn, exchanging from the stock, standing and
folding [FLY-4.1] [FLY-4.2] [FLY-4.3] [FLY-4.4] [FLY-4.5] [FLY-4.6] [FLY-4.7]
[FLY-5.1] [FLY-5.2] [FLY-5.3] [FLY-5.4] [FLY-5.5] [FLY-3.3].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fly_rules._choices import SubsetChoices
from fly_rules.actions import Exchange, Fold, Stand
from fly_rules.cards import CardSet
from fly_rules.errors import RuleViolation
from fly_rules.fly.deal import refill_order
from fly_rules.fly.state import ACE_OF_SPADES, SwapTrump

if TYPE_CHECKING:
    from fly_rules.fly.state import FlyDeal

__all__ = ["apply_declaration", "exchange_limit", "fold_refusal", "legal_declarations"]

_AS_BIT = 1 << ACE_OF_SPADES
_STAND = Stand()
_FOLD = Fold()


def _exchange_of(mask: int) -> Exchange:
    return Exchange(CardSet(mask))


def _in_exchange_round(deal: FlyDeal) -> bool:
    return deal.rules.declaration_mode == "combined" or deal.bidding.declaration_round == 1


def _fold_round_open(deal: FlyDeal) -> bool:
    """Whether a fold is a possible declaration now (not in the exchange round of two) [FLY-4.1]."""
    bidding = deal.bidding
    return bidding.must_confirm or deal.rules.declaration_mode == "combined" or bidding.declaration_round == 0


def _is_last_speaker(deal: FlyDeal, seat: int) -> bool:
    return seat == deal.dealer


def fold_refusal(deal: FlyDeal, seat: int) -> RuleViolation | None:
    """Why ``seat`` may not fold now, or None if it may [FLY-5.2] [FLY-5.3] [FLY-5.4] [FLY-5.5] [FLY-4.6]."""
    rules = deal.rules
    if deal.rules.declaration_mode == "fold_round_then_exchange" and deal.bidding.declaration_round == 1:
        return RuleViolation("FLY-4.6", "after the fold round a player who stayed in must play", _FOLD)
    if deal.hand_masks[seat] & _AS_BIT or _gave_up_ace(deal, seat):
        return RuleViolation("FLY-5.2", "a player who held the ace of spades when his turn began may not fold", _FOLD)
    if rules.forced_player == "eldest" and seat == rules.left_of(deal.dealer):
        return RuleViolation("FLY-5.3", "the player on the dealer's left may not fold (forced_player='eldest')", _FOLD)
    if _is_last_speaker(deal, seat):
        others_active = sum(deal.active) - 1
        if others_active == 0 and rules.forced_player == "dealer_if_all_passed":
            return RuleViolation("FLY-5.3", "the dealer must play when everyone else has folded", _FOLD)
        if others_active == 0 and rules.all_fold == "dealer_must_play":
            return RuleViolation("FLY-5.4", "the dealer must play when everyone else has folded", _FOLD)
        if others_active == 1 and rules.lone_player == "last_speaker_must_play":
            return RuleViolation("FLY-5.5", "the last to declare must play when only one other player stays in", _FOLD)
    return None


def _gave_up_ace(deal: FlyDeal, seat: int) -> bool:
    """Whether ``seat`` discarded the A♠ this deal, by exchange or trump swap: he held it when his
    turn began, so he may still not fold [FLY-4.6] [FLY-4.7] [FLY-5.2]."""
    for action in deal.bidding.declared[seat]:
        if isinstance(action, SwapTrump) and action.card.bit == _AS_BIT:
            return True
        if isinstance(action, Exchange) and action.cards.mask & _AS_BIT:
            return True
    return False


def _refill_pool(deal: FlyDeal) -> int:
    mode = deal.rules.stock_exhaustion
    if mode == "folded_hands":
        pool = 0
        for seat, active in enumerate(deal.active):
            if not active:
                pool |= deal.hand_masks[seat]
        return pool
    if mode == "reshuffle_discards":
        return deal.bidding.discard_mask
    return 0


def exchange_limit(deal: FlyDeal) -> int:
    """The most cards the player to move may exchange now [FLY-4.3] [FLY-4.5]."""
    rules = deal.rules
    limit = rules.max_exchange
    if rules.total_exchange_cap is not None:
        limit = min(limit, rules.total_exchange_cap - deal.bidding.exchanged_total)
    available = len(deal.bidding.stock_indices) + _refill_pool(deal).bit_count()
    if rules.turnup_use == "last_stock_card" and deal.turnup_here:
        available += 1
    return max(0, min(limit, available))


def legal_declarations(deal: FlyDeal) -> Sequence[Any]:
    """The declarations open to the player to move [FLY-4.2], in the documented order.

    The exchanges come as a lazy sequence (``SubsetChoices``, shared with Dreyfus):
    up to 31 per hand, built only when asked for, so a random or sampling player
    pays for the one it picks.
    """
    seat = deal.turn
    actions: list[Any] = [_STAND]
    if _fold_round_open(deal) and fold_refusal(deal, seat) is None:
        actions.append(_FOLD)
    if deal.bidding.must_confirm or not _in_exchange_round(deal):
        return tuple(actions)
    hand = deal.hand_masks[seat]
    choosable = hand if deal.rules.ace_of_spades_discardable else hand & ~_AS_BIT
    if _may_swap(deal, seat):
        actions.extend(SwapTrump(card) for card in CardSet(choosable))
    limit = exchange_limit(deal)
    if not limit or not choosable:
        return tuple(actions)
    return SubsetChoices(tuple(actions), choosable, limit, _exchange_of)


def _may_swap(deal: FlyDeal, seat: int) -> bool:
    return deal.rules.turnup_use == "dealer_swap" and seat == deal.dealer and deal.turnup_here


def _check_exchange(deal: FlyDeal, action: Exchange) -> None:
    """Raise if ``action`` is not a legal exchange for the player to move [FLY-4.3] [FLY-4.5] [FLY-4.7]."""
    rules = deal.rules
    seat = deal.turn
    mask = action.cards.mask
    if not _in_exchange_round(deal) or deal.bidding.must_confirm:
        rule = "FLY-4.6" if deal.bidding.must_confirm else "FLY-4.1"
        raise RuleViolation(rule, "no exchange is open now: stand or fold", action)
    if mask == 0:
        raise RuleViolation("FLY-4.3", "an exchange discards at least one card; to keep the hand, stand", action)
    if mask & ~deal.hand_masks[seat]:
        missing = CardSet(mask & ~deal.hand_masks[seat])
        raise RuleViolation("FLY-4.3", f"seat {seat} does not hold {missing}", action)
    count = mask.bit_count()
    if count > rules.max_exchange:
        raise RuleViolation("FLY-4.3", f"at most {rules.max_exchange} cards may be exchanged, not {count}", action)
    if rules.total_exchange_cap is not None and deal.bidding.exchanged_total + count > rules.total_exchange_cap:
        left = rules.total_exchange_cap - deal.bidding.exchanged_total
        raise RuleViolation("FLY-4.3", f"only {left} more cards may be exchanged in this deal, not {count}", action)
    if not rules.ace_of_spades_discardable and mask & _AS_BIT:
        raise RuleViolation("FLY-4.7", "the ace of spades may not be discarded", action)
    limit = exchange_limit(deal)
    if count > limit:
        raise RuleViolation("FLY-4.5", f"the stock can replace only {limit} cards, not {count}", action)


def _draw(deal: FlyDeal, count: int) -> tuple[int, tuple[int, ...], bool, int, tuple[int, ...], int]:
    """Take ``count`` replacements [FLY-4.4]: the stock from its top, then (by the
    options) the trump card, then a refilled stock [FLY-4.5].

    Returns (drawn mask, new stock, turn-up still here, discards, hands, refills).
    """
    stock = deal.bidding.stock_indices
    drawn = 0
    take = min(count, len(stock))
    for index in stock[:take]:
        drawn |= 1 << index
    stock = stock[take:]
    count -= take
    turnup_here = deal.turnup_here
    hands = deal.hand_masks
    discards = deal.bidding.discard_mask
    refills = deal.bidding.refills
    if count and deal.rules.turnup_use == "last_stock_card" and turnup_here:
        drawn |= deal.trump_card.bit
        turnup_here = False
        count -= 1
    if count:
        pool = _refill_pool(deal)
        if deal.rules.stock_exhaustion == "folded_hands":
            hands = tuple(0 if not deal.active[s] else h for s, h in enumerate(hands))
        else:
            discards = 0
        stock = refill_order(pool, deal.table.seed, deal.deal_number, refills)
        refills += 1
        for index in stock[:count]:
            drawn |= 1 << index
        stock = stock[count:]
    return drawn, stock, turnup_here, discards, hands, refills


def apply_declaration(deal: FlyDeal, action: Any) -> FlyDeal:
    """The deal after the declaration ``action`` of the player to move [FLY-4.1] [FLY-4.2]."""
    seat = deal.turn
    declared = list(deal.bidding.declared)
    declared[seat] = (*declared[seat], action)
    history = deal._record(action)
    if isinstance(action, SwapTrump):
        if not _may_swap(deal, seat) or deal.bidding.must_confirm or not _in_exchange_round(deal):
            raise RuleViolation("FLY-3.3", "only the dealer, once, may take the trump card (turnup_use)", action)
        bit = action.card.bit
        if not deal.hand_masks[seat] & bit:
            raise RuleViolation("FLY-3.3", f"the dealer does not hold {action.card}", action)
        if bit == _AS_BIT and not deal.rules.ace_of_spades_discardable:
            raise RuleViolation("FLY-4.7", "the ace of spades may not be discarded, even for the trump card", action)
        hands = list(deal.hand_masks)
        hands[seat] = hands[seat] & ~bit | deal.trump_card.bit
        return deal._next(
            hand_masks=tuple(hands),
            discard_mask=deal.bidding.discard_mask | bit,
            turnup_here=False,
            declared=tuple(declared),
            history=history,
        )
    if isinstance(action, Fold):
        refusal = fold_refusal(deal, seat)
        if refusal is not None:
            raise refusal
        if not _fold_round_open(deal):
            raise RuleViolation("FLY-4.6", "after the fold round a player who stayed in must play", action)
        active = list(deal.active)
        active[seat] = False
        return _next_declarer(deal, active=tuple(active), declared=tuple(declared), history=history, must_confirm=False)
    if isinstance(action, Stand):
        return _next_declarer(deal, declared=tuple(declared), history=history, must_confirm=False)
    _check_exchange(deal, action)
    count = len(action.cards)
    drawn, stock, turnup_here, discards, hands_after, refills = _draw(deal, count)
    hands = list(hands_after)
    hands[seat] = hands[seat] & ~action.cards.mask | drawn
    changes: dict[str, Any] = {
        "hand_masks": tuple(hands),
        "stock_indices": stock,
        "turnup_here": turnup_here,
        "discard_mask": discards | action.cards.mask,
        "exchanged_total": deal.bidding.exchanged_total + count,
        "refills": refills,
        "declared": tuple(declared),
        "history": history,
    }
    if deal.rules.may_fold_after_exchange:
        return deal._next(must_confirm=True, **changes)
    return _next_declarer(deal, **changes)


def _next_declarer(deal: FlyDeal, **changes: Any) -> FlyDeal:
    """``deal`` with ``changes`` and the turn passed to the next player to declare, or with play
    begun when every declaration is made [FLY-4.1]."""
    left = deal.table.left
    active = changes.get("active", deal.active)
    first_round = deal.bidding.declaration_round == 0
    seat = deal.turn
    while seat != deal.dealer:
        seat = left[seat]
        if first_round or active[seat]:
            return deal._next(turn=seat, **changes)
    if first_round and deal.rules.declaration_mode == "fold_round_then_exchange" and any(active):
        seat = left[deal.dealer]
        while not active[seat]:
            seat = left[seat]
        return deal._next(declaration_round=1, turn=seat, **changes)
    return play.begin_play(deal._next(**changes))


from fly_rules.fly import play  # noqa: E402
