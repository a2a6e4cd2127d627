"""OpenSpiel's information-set MCTS as a fly_rules bot, for the ladder (``benchmarks/ladder.py``).

OpenSpiel's ``ISMCTSBot`` searches from a ``pyspiel`` state. At each decision this bot guesses a whole deal that
looks to its seat exactly like its view (:func:`fly_rules.bots.sampling.sample_deal`), replays it as the
``python_fly`` or ``python_dreyfus`` game of :mod:`fly_rules.adapters.openspiel` (every dealt card, every
action, every draw from the stock), and asks the search; ISMCTS then resamples the hidden cards itself from the
seat's information state. The search's action id is read back as an engine action through the one action space
of the game (:func:`fly_rules.adapters.encoding.engine_action`); where Dreyfus marks its discards one at a time,
the bot keeps asking until the exchange is whole.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import fly_rules.adapters.openspiel  # noqa: F401 - registers python_fly and python_dreyfus
from fly_rules.adapters.encoding import action_ids, engine_action
from fly_rules.bots.sampling import sample_deal

__all__ = ["IsmctsBot"]


class IsmctsBot:
    """ISMCTS with random roll-outs, ``simulations`` a decision (the settings of the OpenSpiel how-to).

    Args:
        rules: the default rules of either game (the OpenSpiel games are made from the player count).
        simulations: searches a decision.
    """

    name = "ismcts"
    """The bot's name in tables."""

    def __init__(self, rules: Any, simulations: int = 100) -> None:
        self.rules = rules
        self.simulations = simulations
        self._games: dict[tuple[int, int], Any] = {}

    def _game(self, view: Any) -> Any:
        """The OpenSpiel game of the view's deal: its dealer (and in Dreyfus the deal's number, the contract)."""
        key = (view.dealer, view.deal_number)
        if key not in self._games:
            params: dict[str, Any] = {"dealer": view.dealer}
            if self.rules.game == "fly":
                params["players"] = self.rules.players
            else:
                params["deal_number"] = view.deal_number
            self._games[key] = pyspiel.load_game(f"python_{self.rules.game}", params)
        return self._games[key]

    def choose(self, view: Any, legal_actions: Any, rng: random.Random) -> Any:
        """The search's choice from a state that looks to the seat like ``view``."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        sample = sample_deal(view, self.rules, rng, records=getattr(view, "records", None))
        if sample is None:
            return legal_actions[0]
        game = self._game(view)
        state = self._replayed(game, sample)
        seed = rng.randrange(2**31)
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
            2.0,
            self.simulations,
            random_state=np.random.RandomState(seed),
        )
        while True:
            action_id = int(bot.step(state))
            meaning = engine_action(state.deal, state.marked, action_id)
            if meaning.kind != "mark":
                return meaning.action
            state.apply_action(action_id)

    @staticmethod
    def _replayed(game: Any, sample: Any) -> Any:
        """The ``pyspiel`` state of the guessed deal: its cards dealt in the dealing order, then its actions and
        the draws they make from the stock, top first."""
        state = game.new_initial_state()
        kind = state._kind  # the game's dealing order: which seat gets each card
        hands = [[card.index for card in hand] for hand in sample.hands]
        trump_card = getattr(sample.deal, "trump_card", None)  # Fly's turned-up card, dealt face up last
        turned = [] if trump_card is None else [trump_card.index]
        for index in range(kind.to_deal):
            seat = kind.receiver(index)
            state.apply_action(turned.pop() if seat is None else hands[seat].pop())
        stock = iter(card.index for card in sample.stock)
        for action in sample.actions:
            for action_id in action_ids(state.deal, action):
                state.apply_action(action_id)
            while state.is_chance_node():
                state.apply_action(next(stock))
        return state
