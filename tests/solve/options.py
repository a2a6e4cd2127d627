"""Random rules for the solver's differential tests: every option of both games drawn from a few values.

``test_every_option_is_varied`` fails when a rules class gains an option this table does not draw, so a
new option cannot escape the comparison with the brute-force search.
"""

from __future__ import annotations

import random
from typing import Any

from fly_rules import InvalidRules, dreyfus, fly
from fly_rules.cards import Rank, Suit
from tests.reference.driver import MODELLED_CHOICES

FLY_CHOICES: dict[str, list[Any]] = {**MODELLED_CHOICES, "deck_size": [32, 36, 48, 52], "max_deals": [None, 3]}
"""Per option of :class:`~fly_rules.fly.FlyRules` but ``players`` (drawn 3 to 7), the values drawn: those the
reference model's cross-checks draw, and the deck and the match's length, which they draw apart."""

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
