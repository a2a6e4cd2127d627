"""Fly and Dreyfus as PettingZoo AEC environments, in PettingZoo's versioned-module convention.

Needs the ``pettingzoo`` extra (``pip install 'fly_rules[pettingzoo]'``).

- :mod:`fly_rules.adapters.pettingzoo.fly_v0` and :mod:`fly_rules.adapters.pettingzoo.dreyfus_v0`:
  ``env(**kwargs)`` wrapped like PettingZoo's classic games (illegal action: the mover loses, ends the
  episode; calls out of order: a clear error), and ``raw_env(**kwargs)`` unwrapped. Both take
  ``num_players`` (Fly), ``preset`` and any rules option, ``max_deals``, ``max_cycles``, ``render_mode``,
  ``relative_seats``.
- :func:`fly_env` and :func:`dreyfus_env` are ``raw_env`` under another name, also taking a rules object.

- **Agents** ``player_0`` … ``player_{n-1}`` are the seats; the agent to act is the seat to move.
- **An episode** is a match of at most ``max_deals`` deals (default 1), played by the engine from a
  seed: ``reset(seed=s)`` starts :func:`fly_rules.fly.new_match` (or Dreyfus's) with seed ``s``, so the
  same seed and actions give the same cards, draws and first dealer [FLY-2.1] [DRF-2.1];
  ``reset()`` without a seed draws the next seed from the last one.
- **Actions** are ``Discrete`` ids, each game's one action space (:mod:`fly_rules.adapters.encoding`,
  the ids of the OpenSpiel and Gymnasium adapters and of the batch engine): in Fly (90) a card to play,
  stand, fold, an exchange (one id: the cards at its hand positions) or the dealer's swap; in Dreyfus
  (53) a card to play, stand, or one card marked for an exchange (marks in ascending order, then
  ``STAND`` exchanges them). An illegal id raises ``ValueError``.
- **Observations** are ``{"observation": Box(0, 10, (size,), float32), "action_mask": Box(0, 1,
  (actions,), int8)}``; the observation is built only from ``view(seat)`` and the seat's own marks
  [FLY-5.1] [DRF-11.1], seats absolute or, with ``relative_seats=True``, counted from the observer; the
  mask is 1 exactly on the legal ids of the agent to move.
- **Rewards** after each step are each seat's score change: in Fly its record going down (a trick
  ``+trick_value``, a remise ``-remise``) [FLY-8.2] [FLY-8.4]; in Dreyfus points written below minus
  points written above [DRF-4.5] [DRF-7.2] [DRF-7.3]. The sum over an episode is the OpenSpiel
  adapter's return for a one-deal episode.
- **Termination** when the match is over; **truncation** after ``max_cycles`` steps, if given.
- ``render()`` shows the table from above, every hand shown: ``render_mode="ansi"`` returns text,
  ``"human"`` prints it, ``"rgb_array"`` returns an ``(height, width, 3)`` uint8 image.
"""

from __future__ import annotations

from typing import Any

from fly_rules import dreyfus, fly
from fly_rules.adapters.pettingzoo import dreyfus_v0, fly_v0
from fly_rules.adapters.pettingzoo._env import CardGameEnv, engine_policy, rules_from_options, wrap

__all__ = [
    "CardGameEnv",
    "dreyfus_env",
    "engine_policy",
    "fly_env",
    "rules_from_options",
    "wrap",
]


def fly_env(rules: fly.FlyRules | None = None, **options: Any) -> CardGameEnv:  # Any: raw_env's keywords
    """:func:`fly_v0.raw_env <fly_rules.adapters.pettingzoo.fly_v0.raw_env>`, also taking a
    :class:`~fly_rules.fly.FlyRules` (then no rules options).

    >>> env = fly_env(fly.FlyRules(players=3))
    >>> env.reset(seed=7)
    >>> env.agent_selection, int(env.observe("player_0")["action_mask"].sum())  # stand, fold, 31 exchanges
    ('player_0', 33)
    """
    return fly_v0.raw_env(rules, **options)


def dreyfus_env(rules: dreyfus.DreyfusRules | None = None, **options: Any) -> CardGameEnv:  # Any: raw_env's
    """:func:`dreyfus_v0.raw_env <fly_rules.adapters.pettingzoo.dreyfus_v0.raw_env>`, also taking a
    :class:`~fly_rules.dreyfus.DreyfusRules` (then no rules options)."""
    return dreyfus_v0.raw_env(rules, **options)
