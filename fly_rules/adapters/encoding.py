"""What every adapter shares: one action space per game, and one observation encoding.

**Actions.** Each game defines its action ids once, in its own package, NumPy-free (an
:class:`~fly_rules.engine.encoding.ActionSpace`, held by its descriptor in :mod:`fly_rules.registry` as
``action_ids``): Fly's (:class:`fly_rules.fly.encoding.FlyActions`, 90 ids) and Dreyfus's
(:class:`fly_rules.dreyfus.encoding.DreyfusActions`, 53 ids). The OpenSpiel and PettingZoo adapters, both
Gymnasium environments and the batch engine (:mod:`fly_rules.batch`) all use that one space, so a policy's id
means the same action in each of them; :mod:`fly_rules.engine.encoding` says how ids, actions and their text
map to each other, and the names it defines are re-exported here. Every function here that depends on marks
(Dreyfus's discard chosen card by card [DRF-4.3]) takes ``marked``, the mask of the cards the seat to move has
marked (0 in a game without marks, such as Fly).

**Observations.** :func:`observation_size` floats per seat, built only from ``view(seat)`` and the
seat's own marks, so they never show another seat's hidden cards [FLY-5.1] [DRF-11.1]; each game's
layout (:func:`observation_layout`) is in its adapter module. Seats are absolute, or with
``relative=True`` counted from the observing seat, going left: block ``k`` of every per-seat part is
the seat ``k`` places to its left (``k = 0``: itself), so one policy can play every seat.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, Protocol, TypeVar

from fly_rules import registry
from fly_rules.actions import Exchange
from fly_rules.cards import Card, CardSet
from fly_rules.engine import DealState, Rules, SeatView
from fly_rules.engine.encoding import (
    PHASES,
    STAND,
    ActionSpace,
    Marking,
    PlayActions,
    Segment,
    cards_text,
    layout_size,
    seat_order,
)
from fly_rules.engine.encoding import checked_id as _checked_id

__all__ = [
    "OBSERVATION_HIGH",
    "PHASES",
    "STAND",
    "ActionSpace",
    "BotDriver",
    "DealKind",
    "Encoding",
    "Marking",
    "OpenSpielGame",
    "Param",
    "PlayActions",
    "Segment",
    "TricksSeen",
    "action_count",
    "action_ids",
    "action_space",
    "action_text",
    "adapter_part",
    "cards_text",
    "checked_id",
    "engine_action",
    "hand_mask",
    "legal_ids",
    "legal_mask",
    "observation_layout",
    "observation_size",
    "observation_text",
    "one_hot",
    "relative_order",
    "seat_order",
    "trick_cards",
    "trick_text",
    "write_cards",
    "write_observation",
]

OBSERVATION_HIGH: Final = 10.0
"""Every observation float lies in ``[0, OBSERVATION_HIGH]`` (records are capped there)."""

Deal = DealState
View = SeatView
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Floats = npt.NDArray[np.float32]
    Bools = npt.NDArray[np.bool_]
else:
    try:
        import numpy as np
    except ModuleNotFoundError:  # the browser table's Pyodide: the learned bot writes its observations into lists
        np = None
    Floats = Bools = Any


def checked_id(value: object, size: int, game: str) -> int:
    """``value`` as an action id of a space of ``size`` ids: an int or a NumPy integer, not a bool
    (:func:`fly_rules.engine.encoding.checked_id`).

    Raises:
        ValueError: anything else, or an id out of range, naming ``game``.

    >>> checked_id(np.int64(7), 90, "Fly"), checked_id(np.True_, 90, "Fly")
    Traceback (most recent call last):
    ...
    ValueError: np.True_ is not an action id of Fly (0 to 89)
    """
    return _checked_id(value, size, game)


def action_space(game: str) -> ActionSpace[object]:
    """The action space of ``game`` (a name of :mod:`fly_rules.registry`), from its adapter module.

    >>> action_space("fly").size, action_space("dreyfus").size
    (90, 53)
    """
    space: ActionSpace[object] = registry.get(game).action_ids
    return space


def action_count(rules: Rules) -> int:
    """Distinct action ids of the game of ``rules``.

    >>> from fly_rules.dreyfus import DreyfusRules
    >>> from fly_rules.fly import FlyRules
    >>> action_count(FlyRules()), action_count(DreyfusRules())
    (90, 53)
    """
    return action_space(rules.game).size


def legal_ids(deal: Deal, marked: int = 0) -> list[int]:
    """The legal ids of the seat to move in ``deal``, ascending, given the cards it has marked.

    >>> from fly_rules import fly
    >>> d = fly.new_deal(fly.FlyRules(players=3), hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
    ...                  trump_card="8H", stock="7H 7D 8C 9D TD JD QD KD AD")
    >>> [action_text(d, 0, i) for i in legal_ids(d)][:4]
    ['stand', 'fold', 'exchange 9♥', 'exchange 10♥']
    """
    return action_space(deal.game).legal_ids(deal, marked)


def legal_mask(deal: Deal, marked: int = 0) -> Bools:
    """The legal ids of the seat to move as booleans, one per id of the game's space."""
    space = action_space(deal.game)
    mask = np.zeros(space.size, np.bool_)
    mask[space.legal_ids(deal, marked)] = True
    return mask


def engine_action(deal: Deal, marked: int, action_id: int) -> Marking:
    """What ``action_id`` (assumed legal) does in ``deal`` with ``marked`` cards marked."""
    return action_space(deal.game).meaning(deal, marked, action_id)


def action_ids(deal: Deal, action: Any, marked: int = 0) -> list[int]:
    """The ids that take the engine ``action`` in ``deal``: one id, or an exchange's marks in ascending
    order and ``STAND`` where the game marks its discards.

    >>> from fly_rules import dreyfus, fly
    >>> d = fly.new_match(fly.FlyRules(players=3), seed=1).deal
    >>> str(d.hands[d.to_move]), action_ids(d, Exchange(CardSet.parse("TC AD")))  # positions 0 and 2
    ('TC KD AD QH AS', [58])
    >>> d = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=0).deal
    >>> action_ids(d, Exchange(CardSet.parse("8C 4D")))  # mark 8♣, mark 4♦, then exchange them
    [6, 15, 52]
    """
    return action_space(deal.game).ids(deal, action, marked)


def action_text(deal: Deal | None, marked: int, action_id: int) -> str:
    """A player's action id as text: ``play 10♥``, ``stand``, ``fold``, ``mark 7♣``,
    ``exchange 7♣ 8♦``, ``swap-trump 9♠`` (``deal`` None: the text without the hand it is read against)."""
    if deal is None:
        return PlayActions().text(None, marked, action_id) if action_id < STAND else f"id {action_id}"
    return action_space(deal.game).text(deal, marked, action_id)


class BotDriver:
    """Drives an engine bot (:mod:`fly_rules.bots`, by name) through the action ids: the bot chooses
    from ``view(seat)`` and the legal actions only; an action it chooses that takes several ids (an
    exchange marked card by card) is then given id by id.

    Each answer is for the position it is asked about (the deal and the cards marked in it): the
    ids still to come of a plan are reused only while the same deal is asked about with the marks made
    so far. Asked about marks it did not plan (another policy's, or a driver made afresh), the bot
    chooses among the actions that go on from those marks; a bot that would keep its hand then (a
    rule-of-thumb player finding a card it values marked) exchanges just the marked cards. So every
    id it gives is legal where it is given.

    >>> from fly_rules import dreyfus
    >>> deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=4, dealer=0).deal
    >>> driver = BotDriver("rule-of-thumb", deal.rules, seed=0)
    >>> action_text(deal, 0, driver.next_id(deal, 0))
    'mark 6♣'

    Raises:
        ValueError: for an unknown bot name.
    """

    def __init__(self, name: str, rules: Rules, seed: int = 0) -> None:
        from fly_rules.bots import BOTS  # noqa: PLC0415 - the bots import the engine, not the adapters

        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
        self.bot = BOTS[name](rules)
        """The engine bot."""
        self.rng = random.Random(seed)
        """The bot's random generator, seeded once."""
        self._deal: Deal | None = None
        self._plan: dict[int, int] = {}  # the marks made so far -> the plan's next id

    def next_id(self, deal: Deal, marked: int) -> int:
        """The id the bot plays in ``deal`` for the seat to move, which has ``marked`` cards marked."""
        if deal is self._deal and marked in self._plan:
            return self._plan[marked]
        seat = deal.to_move
        assert seat is not None, "the deal is over: no one is to move"
        space = action_space(deal.game)
        legal = space.choices(deal, marked)
        action = self.bot.choose(deal.view(seat), legal, self.rng)
        if marked and action not in legal:
            action = Exchange(CardSet(marked))
        self._deal = deal
        self._plan = {}
        marks = marked
        for step in space.ids(deal, action, marked):
            self._plan[marks] = step
            meaning = space.meaning(deal, marks, step)
            if meaning.kind != "mark":
                break
            marks = meaning.cards
        return self._plan[marked]


def hand_mask(deal: Deal, seat: int) -> int:
    """``seat``'s hand in ``deal`` as a mask, for either game."""
    mask: int = deal.hand_masks[seat]
    return mask


# --- observations -------------------------------------------------------------------------------


def observation_layout(rules: Rules) -> tuple[Segment, ...]:
    """The parts of one seat's observation under ``rules``, in order.

    >>> from fly_rules.fly import FlyRules
    >>> [(s.name, s.width, s.per_seat) for s in observation_layout(FlyRules(players=3))][:3]
    [('hand', 52, False), ('trump card', 52, False), ('current trick', 52, True)]
    """
    return _encoding(rules.game).layout(rules)


def observation_size(rules: Rules) -> int:
    """Floats in one seat's observation.

    >>> from fly_rules.dreyfus import DreyfusRules
    >>> from fly_rules.fly import FlyRules
    >>> observation_size(FlyRules(players=4)), observation_size(DreyfusRules())
    (564, 709)
    """
    return layout_size(observation_layout(rules), rules.players)


@functools.lru_cache(maxsize=512)
def relative_order(rules: Any, seat: int) -> tuple[int, ...]:
    """The absolute slot of each slot of ``seat``'s relative observation (``relative=True``).

    >>> from fly_rules.fly import FlyRules
    >>> order = relative_order(FlyRules(players=3), 1)  # the hand and the trump card, then seat 1's trick card
    >>> len(order) == observation_size(FlyRules(players=3)), order[103:106], sorted(order) == list(range(len(order)))
    (True, (103, 156, 157), True)

    .. versionadded:: 0.2.0
    """
    order = seat_order(rules, seat)
    index: list[int] = []
    at = 0
    for part in observation_layout(rules):
        if part.per_seat:
            for other in order:
                index.extend(range(at + other * part.width, at + (other + 1) * part.width))
            at += part.width * rules.players
        else:
            index.extend(range(at, at + part.width))
            at += part.width
    return tuple(index)


@functools.lru_cache(maxsize=512)
def _relative_index(rules: Any, seat: int) -> npt.NDArray[np.intp]:
    return np.array(relative_order(rules, seat), dtype=np.intp)


def write_cards(out: Floats | list[float], at: int, cards: CardSet | int) -> int:
    """Set the 52 slots from ``at`` for the cards (a set or a mask); the slot after them."""
    mask = cards if isinstance(cards, int) else cards.mask
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 1] = 1.0
        mask ^= low
    return at + 52


def one_hot(out: Floats | list[float], at: int, size: int, value: int | None) -> int:
    """Set slot ``at + value`` of ``size`` slots (none for None); the slot after them."""
    if value is not None:
        out[at + value] = 1.0
    return at + size


class TricksSeen(Protocol):
    """A view that shows the current trick and the completed tricks, as (seat, card) pairs (both games' views).

    .. versionadded:: 0.2.0
    """

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick, in play order."""
        ...

    @property
    def tricks(self) -> Sequence[Sequence[tuple[int, Card]]]:
        """The completed tricks, oldest first, each in play order."""
        ...


def trick_cards(
    out: Floats | list[float], at: int, players: int, view: TricksSeen, completed: int | None = None
) -> int:
    """The current trick from ``at``, then every card played to completed tricks from ``completed`` (default: right
    after the current trick), by seat (52 slots a seat, each); returns the end of the completed tricks' part."""
    for seat, card in view.trick:
        out[at + 52 * seat + card.index] = 1.0
    at = at + 52 * players if completed is None else completed
    for trick in view.tricks:
        for seat, card in trick:
            out[at + 52 * seat + card.index] = 1.0
    return at + 52 * players


def write_observation(
    view: View, marked: int, rules: Rules, out: Floats | list[float], *, relative: bool = False
) -> None:
    """Fill ``out`` (zeros) with the observation of ``view``'s seat, for either game; with ``relative``,
    its per-seat parts counted from that seat (see the module's introduction). ``out`` may be a list of floats,
    where NumPy is absent (the browser table's engine).

    >>> from fly_rules import fly
    >>> match = fly.new_match(fly.FlyRules(players=3), seed=1)
    >>> out = [0.0] * observation_size(match.rules)
    >>> write_observation(match.view(1), 0, match.rules, out, relative=True)
    >>> sum(out[:52])  # the seat's own five cards come first
    5.0
    """
    _encoding(view.game).write(view, marked, rules, out)
    if isinstance(out, list):
        clipped = [min(value, OBSERVATION_HIGH) for value in out]
        out[:] = [clipped[slot] for slot in relative_order(rules, view.seat)] if relative else clipped
        return
    np.minimum(out, OBSERVATION_HIGH, out=out)
    if relative:
        out[:] = out[_relative_index(rules, view.seat)]


def trick_text(pairs: Sequence[tuple[int, Card]]) -> str:
    """A trick as text: ``seat:card`` in play order."""
    return " ".join(f"{seat}:{card.symbol}" for seat, card in pairs)


def observation_text(view: View, marked: int) -> str:
    """A seat's observation as one line of text, from its view and its own marks [FLY-5.1] [DRF-11.1]."""
    return _encoding(view.game).text(view, f" | marked {cards_text(CardSet(marked))}" if marked else "")


_V = TypeVar("_V", bound=SeatView)
_R = TypeVar("_R", bound=Rules)


class Encoding(NamedTuple, Generic[_V, _R]):
    """One game's part of the encoding: its adapter module's ``ENCODING`` (see :mod:`fly_rules.registry`), typed by
    the game's view and rules classes (``Encoding[FlyView, FlyRules]``); its action ids are its descriptor's
    ``action_ids``."""

    layout: Callable[[_R], tuple[Segment, ...]]
    """The parts of one seat's observation, from the rules."""
    write: Callable[[_V, int, _R, Floats | list[float]], None]  # float32 NumPy arrays, or lists without NumPy
    """Fill an observation from a view, the marks and the rules."""
    text: Callable[[_V, str], str]
    """The observation as text, from a view and the marks' text."""


_D = TypeVar("_D", bound=DealState)
Param = int | float | str | bool
"""The value of an OpenSpiel game parameter."""


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


class OpenSpielGame(NamedTuple, Generic[_R, _D]):
    """One game as an OpenSpiel game of one deal: its adapter module's ``OPEN_SPIEL`` (read by
    :mod:`fly_rules.adapters.openspiel`, which registers it), typed by the game's rules and deal classes."""

    short_name: str
    """The name ``pyspiel.load_game`` takes."""
    long_name: str
    """The name in text."""
    players: tuple[int, int]
    """The fewest and the most players."""
    defaults: dict[str, Param]
    """The game parameters and their defaults."""
    rules_from_params: Callable[[dict[str, Any]], _R]  # Any: pyspiel's parameters, whatever pyspiel was given
    """The rules that game parameters select."""
    info: Callable[[_R], dict[str, int | float]]
    """The arguments of ``pyspiel.GameInfo`` for the rules."""
    kind: Callable[[_R, dict[str, Any]], DealKind[_D]]
    """How a deal is dealt and scored (a :class:`DealKind`), from the rules and the parameters (with the
    defaults filled in)."""


def adapter_part(game: str, name: str) -> Any:
    """``name`` (``ENCODING``, ``OPEN_SPIEL``, ``table_shows``) of the adapter module of ``game``."""
    return registry.get(game).adapter.part(name)


def _encoding(game: str) -> Encoding[SeatView, Rules]:
    """The encoding part of ``game`` (a state's, view's or rules' ``game``), from its adapter module (typed by the
    protocols: the game's own, whichever game it is)."""
    part: Encoding[SeatView, Rules] = adapter_part(game, "ENCODING")
    return part
