"""The engine protocol: what bots, notation, the command line and adapters
rely on, whichever game they drive.

A state is immutable. ``apply`` returns a new state, or raises
:class:`~fly_rules.errors.RuleViolation` naming the rule the action breaks and
leaves the state as it was.

The shared vocabulary
---------------------
Both games answer the same names with the same types, so a client types
against :class:`~fly_rules.engine.protocols.GameState` (a deal or a match),
:class:`~fly_rules.engine.protocols.SeatView` and :class:`~fly_rules.engine.protocols.Rules`
and never asks which game it holds:

- ``to_move`` (seat or None), ``is_over``, ``winner`` (seat or None),
  ``phase`` (one :class:`~fly_rules.engine.protocols.Phase`), ``players``, ``dealer``, ``deal_number``
  (0 for a match's first deal), ``rules``;
- ``hand_masks``: each seat's hand as an int bitmask (bit ``i`` is
  ``ALL_CARDS[i]``); ``hands``: the same as :class:`~fly_rules.cards.CardSet`;
- ``trick_cards``: card indices of the current trick in play order;
  ``trick``: the same as ``(seat, Card)`` pairs; ``leader``: the seat that led
  it (or leads next; None before the play of a Fly deal);
- ``tricks_taken`` per seat, ``actions`` (this deal's, or the whole match's,
  oldest first), ``previous_deal`` (the deal played out just before the
  current one in a match; always None on a lone deal);
- ``legal_actions()`` a tuple, or a sequence that compares equal to the tuple
  of the same actions; ``apply(action)``; ``view(seat)``.

What differs between the games is asked of the state, never of its class
(states, views and rules alike):

- ``game``: ``"fly"`` or ``"dreyfus"``, the name the formats use;
- ``trump``: the trump suit (None for Dreyfus's no-trump deals);
- ``scores``: one number per seat, higher is better (Fly: minus the record;
  Dreyfus: the lower record minus the upper);
- ``score_lines``: the game's own per-seat records by name (Fly ``records``;
  Dreyfus ``upper`` and ``lower``);
- ``result_lines()``: the per-seat lines a history states for a finished game
  [REC-4.1]; a deal (:class:`~fly_rules.engine.protocols.DealState`) also answers ``deal_head()``,
  ``deal_lines()`` and ``start_fields()``, the rest of what a history states
  of it [REC-2.4] [REC-3.1] [REC-3.4].

A rules object has ``players``, ``max_deals`` (None for no limit; the match
ends after that many deals even without a winner) and ``revoke_mode`` (whether
a play that breaks a duty is refused or accepted and penalised; each game
names its own values), and ``game``, ``hand_size``, ``rank_order``, ``left_of(seat)`` (the
next seat in the order of play) and ``non_default_options()``. Each game's ``PRESETS`` is a ``dict[str, <its Rules>]``
and ``<its Rules>.preset(name)`` returns one. A refused action raises
``RuleViolation(rule, detail, offending=action)``: ``offending`` is always the
action as given, never a part of it.

Section functions (deal, exchange, play, scoring, end, match) are pure
functions over a state's pieces and never import their game's ``state``
module; ``state.py`` holds the fields, ``view`` and the dispatch of ``apply``.

The package holds the protocols (:mod:`fly_rules.engine.protocols`), the seeded shuffle every
match deals from (:mod:`fly_rules.engine.shuffle`) and the base of both games' matches
(:mod:`fly_rules.engine.match`); their names are importable from here.
"""

from __future__ import annotations

from fly_rules.engine.match import MATCH_FIELDS, DealBase, MatchBase, Pictured, match_stops, unwind
from fly_rules.engine.protocols import DealState, GameState, Phase, Rules, SeatView
from fly_rules.engine.shuffle import check_seed, shuffled, shuffled_indices

__all__ = [
    "MATCH_FIELDS",
    "DealBase",
    "DealState",
    "GameState",
    "MatchBase",
    "Phase",
    "Pictured",
    "Rules",
    "SeatView",
    "check_seed",
    "match_stops",
    "shuffled",
    "shuffled_indices",
    "unwind",
]
