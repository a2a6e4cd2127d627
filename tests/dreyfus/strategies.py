"""Hypothesis strategies for Dreyfus rules options, shared by the state machine and the reference check."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from fly_rules.cards import Rank, Suit
from fly_rules.dreyfus import DreyfusRules

_DEFAULT_CYCLE = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)

OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "par_tricks": st.sampled_from([4, 4, 0, 3, 5, 6]),
    "target_lower": st.sampled_from([10, 10, 1, 3, 6, 20]),
    "contract_cycle": st.sampled_from([_DEFAULT_CYCLE, _DEFAULT_CYCLE, (None,), (Suit.HEARTS,), (Suit.CLUBS, None)]),
    "show_trump_indicator": st.booleans(),
    "fosk_ranks": st.sampled_from([frozenset(Rank(r) for r in range(3, 11)), frozenset(Rank(r) for r in range(3, 9))]),
    "fosk_excludes_trump": st.booleans(),
    "exchange_mode": st.sampled_from(["batch", "batch", "incremental"]),
    "first_lead": st.sampled_from(["eldest", "first_actual_buyer"]),
    "trump_duty": st.sampled_from(["any_trump", "overtrump", "overtrump_or_free"]),
    "must_head_trick": st.booleans(),
    "winner_rule": st.sampled_from(["first_to_reach", "highest_lower"]),
    "settlement": st.sampled_from(["gross", "net_of_winner_upper", "pairwise"]),
    "shortfall_floor_zero": st.booleans(),
    "revoke_mode": st.sampled_from(["prevent", "prevent", "penalize"]),
    "revoke_upper_penalty": st.sampled_from([10, 10, 0, 3, 25]),
    "revoke_penalty_per": st.sampled_from(["deal", "occurrence"]),
    "revoke_adds_undertricks": st.booleans(),
    "forgot_record_penalty": st.sampled_from([3, 0, 7]),
    "reveal_discards": st.booleans(),
    "reveal_leftover_talon": st.booleans(),
    "dealer_rotation": st.sampled_from(["left", "right"]),
    "deal_packet_size": st.sampled_from([3, 3, 4, 1]),
}
"""A strategy for every option of :class:`DreyfusRules` but ``max_deals`` (set by :func:`rules_options`)."""


def rules_options(max_deals: int = 12) -> st.SearchStrategy[DreyfusRules]:
    """Rules with the defaults most often, and every option of the engine sometimes."""
    return st.builds(DreyfusRules, max_deals=st.integers(1, max_deals), **OPTIONS)
