"""Hypothesis strategies for Dreyfus rules options, shared by the state machine and the reference check."""

from __future__ import annotations

from hypothesis import strategies as st

from fly_rules.cards import Rank
from fly_rules.dreyfus import DreyfusRules


def rules_options(max_deals: int = 12) -> st.SearchStrategy[DreyfusRules]:
    """Rules with the defaults most often, and every option of the engine sometimes."""
    return st.builds(
        DreyfusRules,
        fosk_ranks=st.sampled_from([frozenset(Rank(r) for r in range(3, 11)), frozenset(Rank(r) for r in range(3, 9))]),
        fosk_excludes_trump=st.booleans(),
        exchange_mode=st.sampled_from(["batch", "batch", "incremental"]),
        first_lead=st.sampled_from(["eldest", "first_actual_buyer"]),
        trump_duty=st.sampled_from(["any_trump", "overtrump", "overtrump_or_free"]),
        must_head_trick=st.booleans(),
        winner_rule=st.sampled_from(["first_to_reach", "highest_lower"]),
        settlement=st.sampled_from(["gross", "net_of_winner_upper", "pairwise"]),
        shortfall_floor_zero=st.booleans(),
        revoke_mode=st.sampled_from(["prevent", "prevent", "penalize"]),
        revoke_penalty_per=st.sampled_from(["deal", "occurrence"]),
        revoke_adds_undertricks=st.booleans(),
        reveal_discards=st.booleans(),
        reveal_leftover_talon=st.booleans(),
        dealer_rotation=st.sampled_from(["left", "right"]),
        deal_packet_size=st.sampled_from([3, 3, 4, 1]),
        max_deals=st.integers(1, max_deals),
    )
