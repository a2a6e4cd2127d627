"""Dreyfus (Дрейфус): the three-player whist-like game, as specified in ``specs/dreyfus.md``.

>>> from fly_rules import dreyfus
>>> m = dreyfus.new_match(dreyfus.DreyfusRules(), seed=7, dealer=0)
>>> m.to_move, m.legal_actions()[0]
(1, Stand())
>>> m = m.apply(dreyfus.Stand())
>>> m.to_move
2

Modules follow the spec's sections: :mod:`.deal` (DRF §2, DRF §3),
:mod:`.exchange` (DRF §4), :mod:`.play` (DRF §5, DRF §6), :mod:`.scoring`
(DRF §7, DRF §10), :mod:`.end` (DRF §8), :mod:`.settlement` (DRF §9): pure
functions over a deal's pieces, which never import the states. The states are
in :mod:`.state` (fields, views, dispatch) and :mod:`.match`; explicit deals
are built in :mod:`.positions`.
"""

from __future__ import annotations

from typing import Final

from fly_rules import registry
from fly_rules.actions import Exchange, Play, Stand
from fly_rules.dreyfus.bot import DreyfusRuleOfThumbBot
from fly_rules.dreyfus.match import DreyfusMatch, new_match
from fly_rules.dreyfus.positions import new_deal
from fly_rules.dreyfus.present import descriptor
from fly_rules.dreyfus.rules import PRESETS, RENAMED_OPTIONS, RENAMED_VALUES, DreyfusRules
from fly_rules.dreyfus.scoring import purchase_record
from fly_rules.dreyfus.settlement import settle
from fly_rules.dreyfus.state import DreyfusDeal, DreyfusView

__all__ = [
    "PRESETS",
    "RENAMED_OPTIONS",
    "RENAMED_VALUES",
    "RULES_VERSION",
    "DreyfusDeal",
    "DreyfusMatch",
    "DreyfusRuleOfThumbBot",
    "DreyfusRules",
    "DreyfusView",
    "Exchange",
    "Play",
    "Stand",
    "new_deal",
    "new_match",
    "purchase_record",
    "settle",
]

RULES_VERSION: Final = 1
"""Bumped whenever a change to the engine changes the outcome of some game."""

registry.register(descriptor(RULES_VERSION))
