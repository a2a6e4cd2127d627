"""Random rules for the solver's differential tests: every option of both games drawn from a few values.

``test_every_option_is_varied`` fails when a rules class gains an option this table does not draw, so a
new option cannot escape the comparison with the brute-force search.
"""

from __future__ import annotations

import random
from typing import Any

from fly_rules import InvalidRules, dreyfus, fly
from fly_rules.cards import Rank, Suit

FLY_CHOICES: dict[str, list[Any]] = {
    "direction": ["clockwise", "anticlockwise"],
    "deck_size": [32, 36, 48, 52],
    "ace_rank": ["high", "below_jack"],
    "deal_packets": [(1,), (3, 2)],
    "turnup_use": ["none", "dealer_swap", "last_stock_card"],
    "declaration_mode": ["combined", "fold_round_then_exchange"],
    "max_exchange": [1, 3, 5],
    "total_exchange_cap": [None, 2, 6],
    "stock_exhaustion": ["cap", "folded_hands", "reshuffle_discards"],
    "may_fold_after_exchange": [False, True],
    "ace_of_spades_discardable": [True, False],
    "forced_player": [None, "dealer_if_all_passed", "eldest"],
    "all_fold": ["void", "dealer_must_play", "redeal_same_dealer"],
    "lone_player": ["takes_all", "last_speaker_must_play", "void"],
    "must_head_trick": [False, True],
    "trump_duty": ["any_trump", "overtrump", "overtrump_or_free"],
    "ace_of_spades_mode": ["led_trump_ace", "led_trump_ace_void_only", "top_trump", "none"],
    "start_record": [3, 6, 25],
    "trick_value": [0, 1, 2],
    "ace_bonus": [0, 5],
    "ace_bonus_trumps": [3, 10],
    "remise": [0, 5, 7],
    "ace_no_trick_penalty": [10, 12],
    "ace_no_trick_penalty_trumps": [10, 15],
    "stop_mode": ["immediate", "end_of_deal"],
    "tie_break": ["earliest", "shared"],
    "revoke_mode": ["prevent", "penalize"],
    "flush_wins": [False, True],
    "max_deals": [None, 3],
}
"""Per option of :class:`~fly_rules.fly.FlyRules` but ``players`` (drawn 3 to 7), the values drawn."""

DREYFUS_CHOICES: dict[str, list[Any]] = {
    "par_tricks": [3, 4, 5],
    "target_lower": [2, 10],
    "contract_cycle": [(Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None), (None,), (Suit.HEARTS,)],
    "show_trump_indicator": [True, False],
    "deal_packet_size": [3, 4],
    "dealer_rotation": ["left", "right"],
    "fosk_ranks": [frozenset(Rank(r) for r in range(3, 11)), frozenset(Rank(r) for r in range(3, 9)), "any"],
    "fosk_excludes_trump": [False, True],
    "exchange_mode": ["batch", "incremental"],
    "reveal_discards": [False, True],
    "reveal_leftover_talon": [False, True],
    "first_lead": ["eldest", "first_actual_buyer"],
    "trump_duty": ["any_trump", "overtrump", "overtrump_or_free"],
    "must_head_trick": [False, True],
    "winner_rule": ["first_to_reach", "highest_lower"],
    "max_deals": [None, 2],
    "settlement": ["gross", "net_of_winner_upper", "pairwise"],
    "shortfall_floor_zero": [True, False],
    "revoke_mode": ["prevent", "penalize"],
    "revoke_upper_penalty": [10, 4],
    "revoke_penalty_per": ["deal", "occurrence"],
    "revoke_adds_undertricks": [False, True],
    "forgot_record_penalty": [3, 0],
}
"""Per option of :class:`~fly_rules.dreyfus.DreyfusRules`, the values drawn."""


def fly_rules(rng: random.Random, players: int | None = None) -> fly.FlyRules:
    """Fly rules with each option drawn from :data:`FLY_CHOICES` half the time (else its default)."""
    players = players or rng.randint(3, 7)
    while True:
        options = {name: rng.choice(values) for name, values in FLY_CHOICES.items() if rng.random() < 0.5}
        try:
            return fly.FlyRules(players=players, **options)
        except InvalidRules:  # an inconsistent draw (a deck too small for the table): draw again
            continue


def dreyfus_rules(rng: random.Random) -> dreyfus.DreyfusRules:
    """Dreyfus rules with each option drawn from :data:`DREYFUS_CHOICES` half the time (else its default)."""
    while True:
        options = {name: rng.choice(values) for name, values in DREYFUS_CHOICES.items() if rng.random() < 0.5}
        try:
            return dreyfus.DreyfusRules(**options)
        except InvalidRules:
            continue
