"""Fly and Dreyfus as OpenSpiel games: ``python_fly`` and ``python_dreyfus``.

Needs the ``openspiel`` extra (``pip install 'fly_rules[openspiel]'``). Importing this module
registers both games, so ``pyspiel.load_game("python_fly(players=3)")`` works afterwards.

**One OpenSpiel game is one deal.** The shuffle is not hidden in a seed: it is chance, card by card.

- *The deal* [FLY-3.1] [DRF-2.2]: chance outcome ``c`` (a card index, every card still in the pack
  equally likely) gives card ``c`` to the next hand; the hands are filled one after another from the
  dealer's left. In Fly the next outcome is the trump card [FLY-3.2]; the rest of the pack is the
  stock [FLY-3.4], in Dreyfus the talon [DRF-2.3], as a *set*: its order is drawn only when it matters.
- *The draws* [FLY-4.4] [DRF-4.3]: after an exchange of ``k`` cards, ``k`` chance outcomes (fewer if
  the stock runs out and Fly's ``last_stock_card`` gives the turned-up card) pick the replacements
  one at a time from the undrawn stock or talon, uniformly; then the engine applies the exchange with
  those cards on top. Each order of the stock is as likely as in a shuffled deal.

Then an engine deal (:func:`fly_rules.fly.new_deal`, :func:`fly_rules.dreyfus.new_deal`) is driven
by the players' actions, with each game's one action space (:mod:`fly_rules.adapters.encoding`: 90
ids for Fly, 53 for Dreyfus), the ids of the PettingZoo and Gymnasium adapters and the batch engine.

**Returns** (terminal only; general-sum):

- Fly: each seat's start record minus its record at the end of the deal, so a trick is
  ``+trick_value``, the A♠ bonus ``+ace_bonus`` [FLY-8.3], a remise ``-remise`` [FLY-8.4].
- Dreyfus: the points written below minus the points written above in the deal (overtricks
  [DRF-7.2] minus purchases [DRF-4.5] and undertricks [DRF-7.3]); each point above costs a loser
  one unit in the settlement [DRF-9.1] and each point below brings the target one nearer.

**Information.** ``observation_string``/``observation_tensor`` encode ``view(seat)`` and the seat's
own marks (:mod:`fly_rules.adapters.encoding`); ``information_state_string`` adds the seat's own
history of what it saw (its cards as dealt and drawn, its marks, everyone's public actions), so it
has perfect recall, and so has ``information_state_tensor`` (the observation tensor and the seat's
history: its cards as dealt, its exchanges, every trick by seat; see :class:`CardGameObserver`).
``serialize()`` is OpenSpiel's default: the game string and the action history, chance outcomes included.

**Parameters.** ``python_fly``: ``players`` (3–7), ``preset`` (``default``, ``mouche_1718``),
``dealer``, ``deck_size`` (0: the preset's), ``max_exchange``, ``may_fold_after_exchange``,
``must_head_trick``, ``ace_of_spades_discardable``, and the text options ``direction``, ``ace_rank``,
``turnup_use``, ``declaration_mode``, ``forced_player`` (``none`` for None), ``all_fold``,
``lone_player``, ``trump_duty``, ``ace_of_spades_mode`` (empty: the preset's value). The stock is never
refilled (``stock_exhaustion="cap"``). ``python_dreyfus``: ``preset`` (``default``, ``shram``,
``whist_honours``, ``table``), ``dealer``, ``deal_number`` (picks the contract from the cycle
[DRF-3.1]), ``exchange_mode``, ``first_lead``, ``trump_duty``, ``must_head_trick``,
``fosk_excludes_trump``, ``reveal_discards``, ``reveal_leftover_talon``.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("fly_rules.adapters.openspiel needs OpenSpiel: pip install 'fly_rules[openspiel]'") from error

from fly_rules import registry
from fly_rules._choices import bits
from fly_rules.actions import Exchange
from fly_rules.adapters.encoding import (
    STAND,
    BotDriver,
    DealKind,
    OpenSpielGame,
    action_ids,
    action_text,
    adapter_part,
    cards_text,
    engine_action,
    hand_mask,
    legal_ids,
    observation_size,
    observation_text,
    write_observation,
)
from fly_rules.bots.sampling import sample_deal
from fly_rules.cards import ALL_CARDS, CardSet
from fly_rules.engine.protocols import DealState, Rules

__all__ = [
    "DREYFUS_DEFAULTS",
    "FLY_DEFAULTS",
    "CardGame",
    "CardGameObserver",
    "CardGameState",
    "DreyfusGame",
    "EngineBot",
    "FlyGame",
    "dreyfus_rules_from_params",
    "engine_bot",
    "fly_rules_from_params",
    "game_class",
    "information_state_size",
]

_RESAMPLE_TRIES: Final = 20  # guesses of sample_deal (each of up to 20 draws) before keeping the state itself


class CardGameState(pyspiel.State):  # type: ignore[misc]  # an untyped library's class
    """A state of ``python_fly`` or ``python_dreyfus``: the cards dealt so far, then the engine deal
    with the marks of the seat to move and any draws still owed by chance."""

    def __init__(self, game: Any, kind: DealKind[Any]) -> None:
        super().__init__(game)
        self._kind = kind
        self._dealt: list[int] = []
        self.deal: Any = None
        """The engine deal, once every card is dealt (None before)."""
        self.marked = 0
        """The cards the seat to move has marked for discard, as a mask."""
        self._pending: Any = None
        self._draws_left = 0
        self._drawn: list[int] = []
        self._events: list[tuple[int, str, str]] = []  # (owner seat or -1, what the owner saw, what others saw)
        # (seat, cards discarded, cards received, the replacements in the order chance drew them)
        self._exchanges: list[tuple[int, int, int, tuple[int, ...]]] = []

    # -- the game tree --------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing or drawing, ``TERMINAL`` at the end."""
        if self.deal is None or self._draws_left:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat: int = self.deal.to_move
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self.deal, self.marked)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the next dealt or drawn card may be, each equally likely."""
        if self.deal is None:
            dealt = set(self._dealt)
            cards = [c for c in self._kind.deck if c not in dealt]
        else:
            drawn = set(self._drawn)
            cards = sorted(c for c in self._kind.stock(self.deal) if c not in drawn)
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self._deal_card(action)
        elif self._draws_left:
            self._draw(action)
        else:
            self._act(action)

    def _deal_card(self, card: int) -> None:
        index = len(self._dealt)
        self._dealt.append(card)
        seat = self._kind.receiver(index)
        text = self._kind.deal_text(index, card)
        self._events.append((-1, text, text) if seat is None else (seat, text, ""))
        if len(self._dealt) == self._kind.to_deal:
            self.deal = self._kind.build(self._dealt)

    def _draw(self, card: int) -> None:
        self._drawn.append(card)
        self._draws_left -= 1
        self._events.append((self.deal.to_move, f"draw {ALL_CARDS[card].symbol}", ""))
        if not self._draws_left:
            drawn = tuple(self._drawn)
            rest = tuple(c for c in self._kind.stock(self.deal) if c not in drawn)
            self._exchange(self._kind.with_stock(self.deal, drawn + rest), self._pending, self._pending.cards.mask)
            self._pending = None
            self._drawn = []

    def _exchange(self, deal: Any, action: Any, discarded: int) -> None:
        """Apply an exchange or swap to ``deal``, remembering what the seat gave (already noted when it
        declared an exchange) and got."""
        seat = deal.to_move
        before = hand_mask(deal, seat)
        self.deal = deal.apply(action)
        received = hand_mask(self.deal, seat) & ~(before & ~discarded)
        if self._exchanges and self._exchanges[-1][:3] == (seat, discarded, -1):
            self._exchanges.pop()
        self._exchanges.append((seat, discarded, received, tuple(self._drawn)))

    def _act(self, action: int) -> None:
        seat = self.deal.to_move
        text = action_text(self.deal, self.marked, action)
        meaning = engine_action(self.deal, self.marked, action)
        if meaning.kind == "mark":
            self.marked = meaning.cards
            self._events.append((seat, text, ""))
        elif meaning.kind == "exchange":
            self.marked = 0
            self._events.append((seat, text, self._kind.public_exchange(seat, meaning.cards)))
            self._pending = meaning.action
            self._exchanges.append((seat, meaning.cards, -1, ()))  # what it receives is drawn next
            self._draws_left = min(meaning.cards.bit_count(), len(self._kind.stock(self.deal)))
            if not self._draws_left:  # Fly: the turned-up trump card replaces the last card [FLY-3.3]
                self._exchange(self.deal, self._pending, meaning.cards)
                self._pending = None
        elif _changes_hand(self.deal, meaning.action):  # Fly's swap: the trump card for a card of the hand
            self._events.append((seat, text, f"seat {seat}: {text.split()[0]}"))
            swap: Any = meaning.action  # a game's own action on one card (ActionForm): it holds its card
            self._exchange(self.deal, swap, 1 << swap.card.index)
        else:
            self._events.append((seat, text, f"seat {seat}: {text}"))
            self.deal = self.deal.apply(meaning.action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.deal is None:
                text: str = self._kind.deal_text(len(self._dealt), action)
                return text
            return f"draw {ALL_CARDS[action].symbol}"
        return action_text(self.deal, self.marked if action == STAND else 0, action)

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.deal is not None and not self._draws_left and bool(self.deal.is_over)

    def returns(self) -> list[float]:
        """Each seat's score for the deal (see the module's mapping); zeros before the end."""
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        result: list[float] = self._kind.returns(self.deal)
        return result

    # -- sampling what a seat cannot see ----------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardGameState:
        """A state that ``player_id`` cannot tell from this one (the same information-state string), the
        cards hidden from it dealt anew at random by :func:`~fly_rules.bots.sampling.sample_deal`;
        OpenSpiel's information-set MCTS searches from such states. ``probability_sampler()`` (a float
        in [0, 1), as OpenSpiel passes) seeds the guess. If no guess fits in a few hundred tries, the
        state itself, which is always consistent.

        Raises:
            ValueError: while chance is drawing the replacements of an exchange.
        """
        if self._draws_left:
            raise ValueError("resample_from_infostate: not while chance draws the replacements of an exchange")
        rng = random.Random(int(probability_sampler() * 2**52))
        if self.deal is None:
            return self._redealt(player_id, rng)
        for _ in range(_RESAMPLE_TRIES):
            state = self._resampled(player_id, rng)
            if state is not None:
                return state
        clone: CardGameState = self.clone()
        return clone

    def _redealt(self, player: int, rng: random.Random) -> CardGameState:
        """The deal in progress with every card dealt to another seat replaced by an unseen one."""
        seen = {card for index, card in enumerate(self._dealt) if self._kind.receiver(index) in (player, None)}
        pool = [card for card in self._kind.deck if card not in seen]
        rng.shuffle(pool)
        state: CardGameState = self.get_game().new_initial_state()
        for index, card in enumerate(self._dealt):
            state.apply_action(card if self._kind.receiver(index) in (player, None) else pool.pop())
        return state

    def _resampled(self, player: int, rng: random.Random) -> CardGameState | None:
        """One guess replayed as a chance and action history; None if it does not fit."""
        own = [(given, got) for seat, given, got, _ in self._exchanges if seat == player]
        draws = iter(order for seat, _, _, order in self._exchanges if seat == player)
        dealt = self.dealt_in_order(player)
        sample = sample_deal(
            self.deal.view(player),
            self._kind.rules,
            rng,
            dealt=CardSet(sum(1 << card for card in dealt)),
            exchanges=[(CardSet(given), CardSet(got)) for given, got in own],
            tries=20,
        )
        if sample is None:
            return None
        state: CardGameState = self.get_game().new_initial_state()
        others = [list(bits(hand.mask)) for hand in sample.hands]
        for hand in others:
            rng.shuffle(hand)
        for index, card in enumerate(self._dealt):
            seat = self._kind.receiver(index)
            state.apply_action(card if seat in (player, None) else others[seat].pop())
        stock = [card.index for card in sample.stock]
        # revealed one-card discards are public one by one, in order: replay them in that order
        shown = [iter([given for s, given, _, _ in self._exchanges if s == seat]) for seat in range(len(others))]
        in_order = self._kind.reveals_in_order
        for sampled in sample.actions:
            mover = state.current_player()
            exchanging = isinstance(sampled, Exchange) or _changes_hand(self.deal, sampled)
            action = Exchange(CardSet(next(shown[mover]))) if in_order and mover != player and exchanging else sampled
            order = next(draws) if mover == player and exchanging else ()
            for action_id in action_ids(state.deal, action):
                state.apply_action(action_id)
            if state.is_chance_node():
                drawn = list(order) if mover == player else stock[: state._draws_left]
                stock = [card for card in stock if card not in drawn]
                for card in drawn:
                    if card not in {c for c, _ in state.chance_outcomes()}:
                        return None
                    state.apply_action(card)
        if self.marked and self.current_player() == player:
            for action_id in action_ids(state.deal, Exchange(CardSet(self.marked)))[:-1]:  # the marks, not STAND
                state.apply_action(action_id)
        if state.information_state_string(player) != self.information_state_string(player):
            return None
        return state

    # -- what a seat knows ------------------------------------------------------------------------

    def marks_seen_by(self, player: int) -> int:
        """The marked cards ``player`` may see: his own, none of another seat's."""
        return self.marked if self.deal is not None and self.deal.to_move == player else 0

    def own_dealt(self, player: int) -> int:
        """The cards dealt so far to ``player``, as a mask (the deal in progress)."""
        mask = 0
        for index, card in enumerate(self._dealt):
            if self._kind.receiver(index) == player:
                mask |= 1 << card
        return mask

    def dealt_in_order(self, player: int) -> list[int]:
        """The cards dealt to ``player``, in the order they were dealt."""
        return [card for index, card in enumerate(self._dealt) if self._kind.receiver(index) == player]

    def exchanges_of(self, player: int) -> list[tuple[int, int]]:
        """``player``'s exchanges (and Fly swaps) so far, in order: (cards given, cards received) as masks."""
        drawing = sum(1 << card for card in self._drawn)  # the draws of an exchange not yet complete
        return [(given, drawing if got < 0 else got) for seat, given, got, _ in self._exchanges if seat == player]

    def exchanging(self) -> tuple[int, int] | None:
        """(seat, cards) of the exchange whose replacements chance is still drawing; None if none."""
        if not self._draws_left:
            return None
        seat: int = self.deal.to_move
        return seat, len(self._pending.cards)

    def history_seen_by(self, player: int) -> list[str]:
        """What ``player`` saw happen, in order: his own cards and actions, everyone's public ones."""
        seen = (mine if owner == player else public for owner, mine, public in self._events)
        return [text for text in seen if text]

    def __str__(self) -> str:
        if self.deal is None:
            return "dealt " + " ".join(ALL_CARDS[c].symbol for c in self._dealt)
        marks = f" marked {cards_text(CardSet(self.marked))}" if self.marked else ""
        drawn = f" drawing {self._draws_left} after {self._pending}" if self._draws_left else ""
        return f"{self.deal!r}{marks}{drawn}"


def _changes_hand(deal: Any, action: Any) -> bool:
    """Whether ``action`` is one of the game's own actions that put a card into the hand (Fly's swap)."""
    return any(type(action) is form.cls and form.changes_hand for form in registry.game_of(deal).actions)


def _recall_shape(rules: Any) -> tuple[int, int, int]:
    """(cards dealt to a seat, tricks in a deal, seats) of the information-state tensor's history parts."""
    return rules.hand_size, rules.hand_size, rules.players


def information_state_size(rules: Any) -> int:
    """Floats in one seat's information-state tensor (see :class:`CardGameObserver`).

    >>> from fly_rules import dreyfus, fly
    >>> information_state_size(fly.FlyRules(players=4)), information_state_size(dreyfus.DreyfusRules())
    (1972, 3312)
    """
    dealt, tricks, seats = _recall_shape(rules)
    return observation_size(rules) + 52 * dealt + 52 * 2 + seats + 52 * tricks * seats


class CardGameObserver:
    """OpenSpiel's observer protocol for both games.

    Without perfect recall, the observation: a tensor from ``view(seat)`` and the seat's marks, and the
    observation string. With perfect recall, the information state: the string adds everything the
    seat saw happen, in order; the tensor (:func:`information_state_size` floats, as OpenSpiel's C++
    card games build theirs) adds to the observation the seat's history:

    - ``dealt``: the cards dealt to the seat, one 52-slot one-hot per card in dealing order;
    - ``given``, ``received``: the cards the seat gave and received in its exchanges (and Fly swaps),
      each at ``k/12`` for its ``k``-th exchange;
    - ``exchanging``: per seat, the cards of its exchange whose replacements are still being drawn, / 12;
    - ``plays``: each trick of the deal, for each seat, the card it played (one-hot of 52).
    """

    def __init__(self, rules: Any, perfect_recall: bool) -> None:
        self.rules = rules
        """The game's rules."""
        self.perfect_recall = perfect_recall
        """Whether this observer gives the information state (else the observation)."""
        size = observation_size(rules)
        self.tensor = np.zeros(information_state_size(rules) if perfect_recall else size, np.float32)
        """The tensor, filled by :meth:`set_from`."""
        self.dict = {"observation": self.tensor[:size]}
        """The tensor's parts by name (views of :attr:`tensor`), as OpenSpiel's observers give them."""
        if perfect_recall:
            dealt, tricks, seats = _recall_shape(rules)
            for name, length, shape in (
                ("dealt", 52 * dealt, (dealt, 52)),
                ("given", 52, (52,)),
                ("received", 52, (52,)),
                ("exchanging", seats, (seats,)),
                ("plays", 52 * tricks * seats, (tricks, seats, 52)),
            ):
                self.dict[name] = self.tensor[size : size + length].reshape(shape)
                size += length

    def set_from(self, state: CardGameState, player: int) -> None:
        """Fill the tensor with ``player``'s observation (or information state) of ``state``."""
        self.tensor.fill(0.0)
        observation = self.dict["observation"]
        if state.deal is None:
            for index in CardSet(state.own_dealt(player)):
                observation[index.index] = 1.0
        else:
            write_observation(state.deal.view(player), state.marks_seen_by(player), self.rules, observation)
        if not self.perfect_recall:
            return
        for position, card in enumerate(state.dealt_in_order(player)):
            self.dict["dealt"][position, card] = 1.0
        for number, (given, received) in enumerate(state.exchanges_of(player), start=1):
            self.dict["given"][list(bits(given))] = number / 12
            self.dict["received"][list(bits(received))] = number / 12
        exchanging = state.exchanging()
        if exchanging is not None:
            self.dict["exchanging"][exchanging[0]] = exchanging[1] / 12
        if state.deal is not None:
            plays = self.dict["plays"]
            view = state.deal.view(player)
            for trick, pairs in enumerate((*view.tricks, view.trick)):
                for seat, card in pairs:
                    plays[trick, seat, card.index] = 1.0

    def string_from(self, state: CardGameState, player: int) -> str:
        """The observation string, or with perfect recall the information-state string."""
        if state.deal is None:
            now = f"seat {player} | dealt {CardSet(state.own_dealt(player))}"
        else:
            now = observation_text(state.deal.view(player), state.marks_seen_by(player))
        if not self.perfect_recall:
            return now
        return "\n".join([*state.history_seen_by(player), now])


class EngineBot(pyspiel.Bot):  # type: ignore[misc]  # an untyped library's class
    """An engine bot as an OpenSpiel bot (make one with :func:`engine_bot`)."""

    def __init__(self, driver: BotDriver) -> None:
        pyspiel.Bot.__init__(self)
        self.driver = driver
        """Chooses the ids."""

    def step(self, state: CardGameState) -> int:
        """The bot's action id at ``state`` (a decision node)."""
        return self.driver.next_id(state.deal, state.marked)

    def restart_at(self, state: CardGameState) -> None:
        """Nothing to forget: the bot decides from the state's view each time."""

    def inform_action(self, state: CardGameState, player: int, action: int) -> None:
        """Nothing to remember: the bot decides from the state's view each time."""


def engine_bot(game: Any, name: str = "rule-of-thumb", seed: int = 0) -> EngineBot:
    """One of the library's bots (``"random"``, ``"rule-of-thumb"``, ``"monte-carlo"``) as a
    ``pyspiel.Bot`` for ``game`` (``python_fly`` or ``python_dreyfus``), to evaluate against; it sees
    only its seat's view.

    >>> game = pyspiel.load_game("python_dreyfus")
    >>> bots = [engine_bot(game, "rule-of-thumb", seed) for seed in range(3)]
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> len(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0)))
    3

    Raises:
        ValueError: for an unknown bot name.
    """
    return EngineBot(BotDriver(name, game.rules, seed))


def _game_type(part: OpenSpielGame[Rules, DealState]) -> Any:
    return pyspiel.GameType(
        short_name=part.short_name,
        long_name=part.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=part.players[1],
        min_num_players=part.players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=part.defaults,
    )


class CardGame(pyspiel.Game):  # type: ignore[misc]  # an untyped library's class
    """One deal of a registered game as an OpenSpiel game, the deal and the draws as chance: the base of
    each game's class (:func:`game_class`), which sets :attr:`part`."""

    part: OpenSpielGame[Rules, DealState]
    """The game's ``OPEN_SPIEL`` part (:class:`~fly_rules.adapters.encoding.OpenSpielGame`)."""
    game_type: Any
    """Its ``pyspiel.GameType``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = self.part.rules_from_params(params)
        """The rules the parameters select."""
        self._params = {**self.part.defaults, **params}
        super().__init__(self.game_type, pyspiel.GameInfo(**self.part.info(self.rules)), self._in_effect())

    def _in_effect(self) -> dict[str, Any]:
        """The parameters with each one left to the preset (``''`` or ``0``) given the value the rules
        have, so that ``get_parameters()`` shows the rules in effect (and loads the same game)."""
        shown = dict(self._params)
        for name, value in shown.items():
            actual = getattr(self.rules, name, None)
            if value in ("", 0) and not isinstance(value, bool) and actual is not None and not callable(actual):
                shown[name] = type(value)(getattr(actual, "value", actual))
        return shown

    def new_initial_state(self) -> CardGameState:
        """A deal about to be dealt."""
        return CardGameState(self, self.part.kind(self.rules, self._params))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardGameObserver:
        """The observer for ``iig_obs_type`` (by default the observation; perfect recall: the infostate)."""
        return CardGameObserver(self.rules, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


def game_class(game: str) -> type[CardGame]:
    """The OpenSpiel game class of the registered game ``game`` (its adapter module's ``OPEN_SPIEL``),
    registered with OpenSpiel under its short name the first time it is asked for."""
    part: OpenSpielGame[Rules, DealState] = adapter_part(game, "OPEN_SPIEL")
    known = _CLASSES.get(part.short_name)
    if known is None:
        game_type = _game_type(part)
        name = "".join(word.capitalize() for word in game.split("_")) + "Game"
        doc = f"``{part.short_name}``: {part.long_name}, the deal and the draws as chance."
        known = _CLASSES[part.short_name] = type(
            name, (CardGame,), {"part": part, "game_type": game_type, "__doc__": doc}
        )
        if part.short_name not in pyspiel.registered_names():  # pragma: no branch - registered once per process
            pyspiel.register_game(game_type, known)
    return known


_CLASSES: dict[str, type[CardGame]] = {}

for _game in registry.games():
    game_class(_game)
FlyGame: Final = game_class("fly")
DreyfusGame: Final = game_class("dreyfus")
FLY_DEFAULTS: Final = FlyGame.part.defaults
"""The parameters of ``python_fly`` and their defaults."""
DREYFUS_DEFAULTS: Final = DreyfusGame.part.defaults
"""The parameters of ``python_dreyfus`` and their defaults."""
fly_rules_from_params: Final = FlyGame.part.rules_from_params
dreyfus_rules_from_params: Final = DreyfusGame.part.rules_from_params
