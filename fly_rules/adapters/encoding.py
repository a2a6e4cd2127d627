"""One integer action space and one observation encoding for both games, shared by the adapters.

**Actions.** Every action of either game is one integer id:

- ``0..51``: ``Play(card)``, the card's :attr:`~fly_rules.cards.Card.index`;
- ``52`` (``STAND``): ``Stand()``; once cards are marked, *exchange the marked cards*;
- ``53`` (``FOLD``): ``Fold()`` (Fly only);
- ``54..105`` (``MARK``): mark card ``id - 54`` for discard;
- ``106..157`` (``SWAP``): ``SwapTrump(card id - 106)`` (Fly's ``turnup_use="dealer_swap"``).

An exchange (Fly's ``Exchange`` of up to five cards [FLY-4.3], Dreyfus's discard of up to twelve
[DRF-4.3]) is chosen card by card: the player marks the cards to discard **in ascending card order**
(each mark must be higher than the last one, so every discard set has exactly one sequence of marks)
and then plays ``STAND`` to exchange them. A mark is legal exactly when the marked set with the new
card is itself a legal exchange, so the sequences of marks reach every legal discard set and nothing
else (both games' legal discard sets are closed under taking subsets). Marks are private: the other
seats see only the exchange, as the rules show it (its size [FLY-4.2], [DRF-4.5]). In Dreyfus's
incremental mode [DRF-4.4] each mark is at once a one-card exchange, as the rules say.

**Observations.** :func:`observation_size` floats per seat, built only from
``view(seat)`` and the seat's own marks, so they never show another
seat's hidden cards [FLY-5.1] [DRF-11.1]; each game's layout is in its adapter module (the
``adapter`` of its descriptor in :mod:`fly_rules.registry`): :mod:`fly_rules.adapters.fly_game`,
:mod:`fly_rules.adapters.dreyfus_game`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, NamedTuple, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from fly_rules import registry
from fly_rules._choices import SubsetChoices, bits
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import ALL_CARDS, Card, CardSet
from fly_rules.engine import DealState, Phase, Rules

__all__ = [
    "DREYFUS_ACTIONS",
    "FLY_ACTIONS",
    "FOLD",
    "MARK",
    "OBSERVATION_HIGH",
    "PHASES",
    "STAND",
    "SWAP",
    "BotDriver",
    "DealKind",
    "Encoding",
    "Marking",
    "OpenSpielGame",
    "action_count",
    "action_id",
    "action_ids",
    "action_text",
    "adapter_part",
    "cards_text",
    "engine_action",
    "hand_mask",
    "legal_ids",
    "observation_size",
    "observation_text",
    "one_hot",
    "trick_cards",
    "trick_text",
    "write_cards",
    "write_observation",
]

STAND: Final = 52
"""Stand, or exchange the marked cards."""
FOLD: Final = 53
"""Fold (Fly)."""
MARK: Final = 54
"""First id of "mark card ``id - MARK`` for discard"."""
SWAP: Final = 106
"""First id of "take the trump card and discard card ``id - SWAP``" (Fly)."""
FLY_ACTIONS: Final = 158
"""Distinct action ids of Fly."""
DREYFUS_ACTIONS: Final = 106
"""Distinct action ids of Dreyfus (no fold, no swap)."""
OBSERVATION_HIGH: Final = 10.0
"""Every observation float lies in ``[0, OBSERVATION_HIGH]`` (records are capped there)."""

Deal = Any
View = Any
Floats = npt.NDArray[np.float32]


def action_id(action: Any) -> int:
    """The id of an engine action other than an exchange (exchanges are marks, then ``STAND``).

    >>> from fly_rules.fly import SwapTrump
    >>> action_id(Play("7C")), action_id(Stand()), action_id(SwapTrump("AS"))
    (5, 52, 157)
    """
    kind = type(action)
    if kind is Play:
        index: int = action.card.index
        return index
    if kind is Stand:
        return STAND
    if kind is Fold:
        return FOLD
    if hasattr(action, "card") and any(form.cls is kind for g in registry.games() for form in registry.get(g).actions):
        return SWAP + int(action.card.index)
    raise ValueError(f"{action!r} has no single action id; an exchange is marked card by card")


def action_ids(deal: Deal, action: Any) -> list[int]:
    """The ids that take the engine ``action`` in ``deal``: an exchange's marks in ascending order and
    ``STAND`` (in Dreyfus's incremental mode, its one mark); any other action's one id.

    >>> from fly_rules import fly
    >>> d = fly.new_match(fly.FlyRules(players=3), seed=1).deal
    >>> action_ids(d, Exchange(CardSet.parse("9H 7C")))
    [59, 87, 52]
    """
    if type(action) is not Exchange:
        return [action_id(action)]
    marks = [MARK + card for card in bits(action.cards.mask)]
    return marks if _immediate(deal) else [*marks, STAND]


class BotDriver:
    """Drives an engine bot (:mod:`fly_rules.bots`, by name) through the action ids: the bot chooses
    from ``view(seat)`` and the legal actions only; an exchange it chooses is then given mark by mark.

    Each answer is for the position it is asked about (the deal and the cards marked in it): the
    marks still to come of an exchange are reused only while the same deal is asked about with the
    marks made so far. Asked about marks it did not plan (another policy's, or a driver made
    afresh), the bot chooses among the exchanges that go on from those marks; a bot that would keep
    its hand then (a rule-of-thumb player finding a card it values marked) exchanges just the
    marked cards. So every id it gives is legal where it is given.

    >>> from fly_rules import fly
    >>> deal = fly.new_match(fly.FlyRules(players=3), seed=4).deal
    >>> driver = BotDriver("rule-of-thumb", deal.rules, seed=0)
    >>> action_text(deal, 0, driver.next_id(deal, 0))
    'mark 7♣'
    >>> marked = CardSet.parse("7C 8C").mask  # a driver made afresh goes on from the marks made
    >>> action_text(deal, marked, BotDriver("rule-of-thumb", deal.rules).next_id(deal, marked))
    'mark 7♠'

    Raises:
        ValueError: for an unknown bot name.
    """

    def __init__(self, name: str, rules: Any, seed: int = 0) -> None:
        from fly_rules.bots import BOTS  # noqa: PLC0415 - the bots import the engine, not the adapters

        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
        self.bot = BOTS[name](rules)
        """The engine bot."""
        self.rng = random.Random(seed)
        """The bot's random generator, seeded once."""
        self._deal: Deal | None = None
        self._plan: list[int] = []

    def next_id(self, deal: Deal, marked: int) -> int:
        """The id the bot plays in ``deal`` for the seat to move, which has ``marked`` cards marked."""
        if deal is self._deal:
            done = 0
            for planned in self._plan:  # the plan's marks so far must be exactly the marks made
                if done == marked:
                    return planned
                if not MARK <= planned < SWAP:
                    break
                done |= 1 << (planned - MARK)
        seat = deal.to_move
        assert seat is not None, "the deal is over: no one is to move"
        legal = deal.legal_actions() if not marked else _continuations(deal, marked)
        action = self.bot.choose(deal.view(seat), legal, self.rng)
        if marked and action not in legal:
            action = Exchange(CardSet(marked))
        self._deal = deal
        self._plan = action_ids(deal, action)
        return self._plan[marked.bit_count()]


def _continuations(deal: Deal, marked: int) -> list[Exchange]:
    """The legal exchanges of the seat to move in ``deal`` that its ``marked`` cards begin: ``marked``
    and more cards, each above the highest marked one (marks go up)."""
    floor = marked.bit_length()
    return [
        action
        for action in deal.legal_actions()
        if type(action) is Exchange
        and action.cards.mask & marked == marked
        and (action.cards.mask ^ marked) >> floor << floor == action.cards.mask ^ marked
    ]


def hand_mask(deal: Deal, seat: int) -> int:
    """``seat``'s hand in ``deal`` as a mask, for either game."""
    mask: int = deal.hand_masks[seat]
    return mask


def _immediate(deal: Deal) -> bool:
    """Whether a mark is itself a one-card exchange (Dreyfus's incremental mode) [DRF-4.4]."""
    return _encoding(deal.game).immediate(deal.rules)


def _exchange_masks(legal: Sequence[Any]) -> Any:
    """A test ``mask -> bool``: whether discarding ``mask`` is among ``legal``."""
    if isinstance(legal, SubsetChoices):
        return legal.mask_in
    masks = {a.cards.mask for a in legal if type(a) is Exchange}
    return masks.__contains__


def legal_ids(deal: Deal, marked: int = 0) -> list[int]:
    """The legal ids of the seat to move, ascending, given the cards it has marked so far.

    >>> from fly_rules import fly
    >>> d = fly.new_deal(fly.FlyRules(players=3), hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
    ...                  trump_card="8H", stock="7H 7D 8C 9D TD JD QD KD AD")
    >>> [action_text(d, 0, i) for i in legal_ids(d)]
    ['stand', 'fold', 'mark 9♥', 'mark 10♥', 'mark J♥', 'mark Q♥', 'mark A♥']
    >>> [action_text(d, CardSet.parse("9H").mask, i) for i in legal_ids(d, CardSet.parse("9H").mask)]
    ['exchange 9♥', 'mark 10♥', 'mark J♥', 'mark Q♥', 'mark A♥']
    """
    seat = deal.to_move
    if seat is None:
        return []
    legal = deal.legal_actions()
    ids = [STAND] if marked else []
    if not marked:
        for action in legal:  # both games list every other action before the exchanges
            if type(action) is Exchange:
                break
            ids.append(action_id(action))
    allowed = _exchange_masks(legal)
    floor = marked.bit_length()  # marks go up: only cards above the highest marked one
    for card in bits(hand_mask(deal, seat) >> floor):
        bit = 1 << (card + floor)
        if allowed(marked | bit):
            ids.append(MARK + card + floor)
    return sorted(ids)


class Marking:
    """What an id does to a position: ``mark`` (add a card to the marked set), ``exchange`` (discard
    ``cards``, a mask, and draw) or ``act`` (apply ``action`` to the engine)."""

    __slots__ = ("action", "cards", "kind")

    def __init__(self, kind: str, cards: int = 0, action: Any = None) -> None:
        self.kind = kind
        """``"mark"``, ``"exchange"`` or ``"act"``."""
        self.cards = cards
        """The marked set after a mark, or the discard of an exchange, as a mask."""
        self.action = action
        """The engine action (for ``"exchange"``, the ``Exchange``)."""


def engine_action(deal: Deal, marked: int, action: int) -> Marking:
    """What ``action`` (an id, assumed legal) means in ``deal`` with ``marked`` cards marked."""
    if MARK <= action < SWAP:
        cards = marked | 1 << (action - MARK)
        if _immediate(deal):
            return Marking("exchange", cards, Exchange(CardSet(cards)))
        return Marking("mark", cards)
    if action == STAND and marked:
        return Marking("exchange", marked, Exchange(CardSet(marked)))
    if action < STAND:
        return Marking("act", action=Play(ALL_CARDS[action]))
    if action == STAND:
        return Marking("act", action=Stand())
    if action == FOLD:
        return Marking("act", action=Fold())
    return Marking("act", action=_own_action(deal.game)(ALL_CARDS[action - SWAP]))


def action_text(deal: Deal | None, marked: int, action: int) -> str:
    """A player's action id as text: ``play 10♥``, ``stand``, ``fold``, ``mark 7♣``,
    ``exchange 7♣ 8♦``, ``swap-trump 9♠``."""
    if action < STAND:
        return f"play {ALL_CARDS[action].symbol}"
    if action == STAND:
        if marked:
            return "exchange " + " ".join(c.symbol for c in CardSet(marked))
        return "stand"
    if action == FOLD:
        return "fold"
    if action < SWAP:
        if deal is not None and _immediate(deal):
            return f"exchange {ALL_CARDS[action - MARK].symbol}"
        return f"mark {ALL_CARDS[action - MARK].symbol}"
    return f"swap-trump {ALL_CARDS[action - SWAP].symbol}"


# --- observations -------------------------------------------------------------------------------


def observation_size(rules: Any) -> int:
    """Floats in one seat's observation.

    >>> from fly_rules.dreyfus import DreyfusRules
    >>> from fly_rules.fly import FlyRules
    >>> observation_size(FlyRules(players=4)), observation_size(DreyfusRules())
    (616, 709)
    """
    return _encoding(rules.game).size(rules)


def action_count(rules: Any) -> int:
    """Distinct action ids of the game of ``rules``.

    >>> from fly_rules.dreyfus import DreyfusRules
    >>> from fly_rules.fly import FlyRules
    >>> action_count(FlyRules()) == FLY_ACTIONS, action_count(DreyfusRules()) == DREYFUS_ACTIONS
    (True, True)
    """
    return _encoding(rules.game).actions


def write_cards(out: Floats, at: int, cards: CardSet | int) -> int:
    """Set the 52 slots from ``at`` for the cards (a set or a mask); the slot after them."""
    mask = cards if isinstance(cards, int) else cards.mask
    for index in bits(mask):
        out[at + index] = 1.0
    return at + 52


def one_hot(out: Floats, at: int, size: int, value: int | None) -> int:
    """Set slot ``at + value`` of ``size`` slots (none for None); the slot after them."""
    if value is not None:
        out[at + value] = 1.0
    return at + size


PHASES: Final = (Phase.EXCHANGE, Phase.PLAY, Phase.OVER)
"""The phases in the order an observation's one-hot of the phase lists them."""


def trick_cards(out: Floats, at: int, players: int, view: View) -> int:
    """The current trick, then every card played to completed tricks, by seat (52 slots a seat, each)."""
    for seat, card in view.trick:
        out[at + 52 * seat + card.index] = 1.0
    at += 52 * players
    for trick in view.tricks:
        for seat, card in trick:
            out[at + 52 * seat + card.index] = 1.0
    return at + 52 * players


def write_observation(view: View, marked: int, rules: Any, out: Floats) -> None:
    """Fill ``out`` with the observation of ``view``'s seat, for either game."""
    _encoding(view.game).write(view, marked, rules, out)
    np.minimum(out, OBSERVATION_HIGH, out=out)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as text in their symbols (``7♣ 10♥``), the one notation of the strings an adapter writes:
    observations, information states and actions."""
    return " ".join(card.symbol for card in cards)


def trick_text(pairs: Sequence[tuple[int, Card]]) -> str:
    """A trick as text: ``seat:card`` in play order."""
    return " ".join(f"{seat}:{card.symbol}" for seat, card in pairs)


def observation_text(view: View, marked: int) -> str:
    """A seat's observation as one line of text, from its view and its own marks [FLY-5.1] [DRF-11.1]."""
    return _encoding(view.game).text(view, f" | marked {cards_text(CardSet(marked))}" if marked else "")


class Encoding(NamedTuple):
    """One game's part of the encoding: its adapter module's ``ENCODING`` (see :mod:`fly_rules.registry`)."""

    actions: int
    """Distinct action ids."""
    size: Callable[[Any], int]
    """Floats in one seat's observation, from the rules."""
    write: Callable[[Any, int, Any, Floats], None]
    """Fill an observation from a view, the marks and the rules."""
    text: Callable[[Any, str], str]
    """The observation as text, from a view and the marks' text."""
    immediate: Callable[[Any], bool]
    """Whether a mark is itself a one-card exchange, from the rules."""


_D = TypeVar("_D", bound=DealState)


class DealKind(Protocol[_D]):
    """How an OpenSpiel game of one deal deals and scores it: what a game's ``OPEN_SPIEL.kind`` makes, from
    the rules and the game parameters (:class:`fly_rules.adapters.fly_game.FlyKind` is Fly's). Cards are
    card indices; the deal is the game's own deal class."""

    @property
    def rules(self) -> Rules:
        """The rules of the deal."""
        ...

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards dealt from, as chance outcomes."""
        ...

    @property
    def to_deal(self) -> int:
        """How many cards are dealt (chance nodes) before the first decision."""
        ...

    @property
    def reveals_in_order(self) -> bool:
        """Whether revealed discards become public one by one, in order."""
        ...

    def build(self, dealt: list[int]) -> _D:
        """The engine's deal once every card is dealt, in dealing order."""
        ...

    def stock(self, deal: _D) -> tuple[int, ...]:
        """The undrawn stock or talon, top first (its order is dealt as chance when drawn)."""
        ...

    def with_stock(self, deal: _D, order: tuple[int, ...]) -> _D:
        """``deal`` with its stock in ``order``."""
        ...

    def returns(self, deal: _D) -> list[float]:
        """Each seat's return once the deal is over."""
        ...

    def deal_text(self, index: int, card: int) -> str:
        """The chance outcome ``card`` as the ``index``-th card dealt, in words."""
        ...

    def receiver(self, index: int) -> int | None:
        """The seat the ``index``-th card dealt goes to (None: to the table, as Fly's trump card)."""
        ...

    def public_exchange(self, seat: int, cards: int) -> str:
        """What every seat is told of ``seat``'s exchange of the cards of the mask ``cards``."""
        ...


class OpenSpielGame(NamedTuple):
    """One game as an OpenSpiel game of one deal: its adapter module's ``OPEN_SPIEL`` (read by
    :mod:`fly_rules.adapters.openspiel`, which registers it)."""

    short_name: str
    """The name ``pyspiel.load_game`` takes."""
    long_name: str
    """The name in text."""
    players: tuple[int, int]
    """The fewest and the most players."""
    defaults: dict[str, Any]
    """The game parameters and their defaults."""
    rules_from_params: Callable[[dict[str, Any]], Any]
    """The rules that game parameters select."""
    info: Callable[[Any], dict[str, Any]]
    """The arguments of ``pyspiel.GameInfo`` for the rules."""
    kind: Callable[[Any, dict[str, Any]], DealKind[Any]]
    """How a deal is dealt and scored (a :class:`DealKind`), from the rules and the parameters (with the
    defaults filled in)."""


def adapter_part(game: str, name: str) -> Any:
    """``name`` (``ENCODING``, ``OPEN_SPIEL``, ``table_shows``) of the adapter module of ``game``."""
    return registry.get(game).adapter.part(name)


def _encoding(game: str) -> Encoding:
    """The encoding part of ``game`` (a state's, view's or rules' ``game``), from its adapter module."""
    part: Encoding = adapter_part(game, "ENCODING")
    return part


def _own_action(game: str) -> Any:
    """The class of ``game``'s own action on one card (Fly's ``SwapTrump``), or None."""
    forms = registry.get(game).actions
    return forms[0].cls if forms else None
