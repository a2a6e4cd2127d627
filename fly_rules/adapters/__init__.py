"""Adapters to other projects' game APIs, each behind an optional extra.

- :mod:`fly_rules.adapters.openspiel` (extra ``openspiel``): Fly and Dreyfus as OpenSpiel Python
  games, ``python_fly`` and ``python_dreyfus``, with the deal and the draws as chance nodes.
- :mod:`fly_rules.adapters.pettingzoo` (extra ``pettingzoo``): one PettingZoo AEC environment per game.
- :mod:`fly_rules.adapters.ray` (extra ``ray``): the same simulation spread over a Ray cluster.

The OpenSpiel and PettingZoo adapters share one integer action space and one observation encoding
(:mod:`fly_rules.adapters.encoding`), so a policy trained in one can be run in the other. Importing
this package imports none of the third-party libraries.
"""

__all__: list[str] = []
