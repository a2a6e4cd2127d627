"""Action ids and observation layouts without NumPy: the part of every game's encoding a pure-Python client needs.

**Action ids.** Each game numbers its decisions once, in its own package, as an :class:`ActionSpace`: Fly's
(:class:`fly_rules.fly.encoding.FlyActions`, 90 ids) and Dreyfus's (:class:`fly_rules.dreyfus.encoding.DreyfusActions`,
53 ids); its descriptor in :mod:`fly_rules.registry` holds it (``registry.get(game).action_ids``). The adapters
(OpenSpiel, PettingZoo, Gymnasium), the batch engine, the table server and the browser all read that one table, so
an id means the same action in each. In every game ``0..51`` plays the card of that
:attr:`~fly_rules.cards.Card.index` and ``52`` (:data:`STAND`) stands; the ids above are the game's own.

A client goes between the three forms of an action with one table:

- id → action: :meth:`ActionSpace.action_of` (for a seat's hand, as a mask);
- action → id: :meth:`ActionSpace.id_of` (one id), :meth:`ActionSpace.ids` (a choice made in several ids);
- id → text: :meth:`ActionSpace.text` (``play 10♥``, ``stand``, ``exchange 7♣ 8♦``); action → text:
  :meth:`ActionSpace.words`; text → id: :meth:`ActionSpace.id_of_text` (among the legal ids).

>>> from fly_rules import fly, registry
>>> space = registry.get("fly").action_ids
>>> deal = fly.new_match(fly.FlyRules(players=3), seed=1).deal
>>> hand = deal.hand_masks[deal.to_move]
>>> space.text(deal, 0, 53), space.action_of(hand, 53), space.id_of(hand, space.action_of(hand, 53))
('fold', Fold(), 53)
>>> space.id_of_text(deal, 0, "exchange 10♣ A♦")
58

A choice too large to list is made in steps: Dreyfus's discard of up to twelve cards [DRF-4.3] is chosen card
by card, the cards *marked* in ascending order and then ``STAND`` exchanging them. Marks are private: the other
seats see only the exchange, as the rules show it [DRF-4.5]. Every method that depends on them takes ``marked``,
the mask of the cards the seat to move has marked (0 in a game without marks, such as Fly, whose exchange of up
to five cards is one id [FLY-4.3]).

**Observation layouts.** A game's observation is a sequence of named parts (:class:`Segment`), declared in the
game's package. :func:`layout_views` names the floats of each part; the adapters' writer (one seat's view) and the
batch engine's (every game at once, with NumPy) both fill the parts by those names, so neither counts offsets of
its own.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Generic, NamedTuple, Protocol, SupportsIndex, TypeVar, cast

from fly_rules.actions import Action, Exchange, Play
from fly_rules.cards import ALL_CARDS, Card
from fly_rules.engine.protocols import DealState, Phase, Rules

__all__ = [
    "PHASES",
    "STAND",
    "ActionSpace",
    "Marking",
    "PlayActions",
    "Position",
    "Segment",
    "cards_text",
    "checked_id",
    "layout_size",
    "layout_views",
    "seat_order",
]

STAND: Final = 52
"""The id of ``Stand()`` in every game (in Dreyfus, once cards are marked: exchange them)."""

PHASES: Final = (Phase.EXCHANGE, Phase.PLAY, Phase.OVER)
"""The phases in the order an observation's one-hot of the phase lists them."""


def checked_id(value: object, size: int, game: str) -> int:
    """``value`` as an action id of a space of ``size`` ids: an int (or an integer with ``__index__``, such as a
    NumPy integer), not a bool.

    Raises:
        ValueError: anything else, or an id out of range, naming ``game``.

    >>> checked_id(7, 90, "Fly")
    7
    >>> checked_id(True, 90, "Fly")
    Traceback (most recent call last):
    ...
    ValueError: True is not an action id of Fly (0 to 89)
    """
    refused = ValueError(f"{value!r} is not an action id of {game} (0 to {size - 1})")
    if isinstance(value, bool) or "bool" in type(value).__name__ or not isinstance(value, SupportsIndex):
        raise refused  # a bool (NumPy's too), or no integer at all
    index = operator.index(value)  # an int, or an integer type such as NumPy's
    if not 0 <= index < size:
        raise refused
    return index


class Position(Protocol):
    """What an action space reads of a position to say what an id means there: a deal
    (:class:`~fly_rules.engine.protocols.DealState`) is one, and so is one game of a batch."""

    @property
    def to_move(self) -> int | None:
        """The seat to move; None once the deal is over."""

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Each seat's hand as a mask (the seat to move's is the one read)."""

    @property
    def phase(self) -> Phase:
        """The deal's phase."""

    @property
    def rules(self) -> Rules:
        """The rules played."""


class Marking:
    """What an id does to a position: ``mark`` (add a card to the marked set), ``exchange`` (discard
    ``cards``, a mask, and draw) or ``act`` (apply ``action`` to the engine)."""

    __slots__ = ("action", "cards", "kind")

    def __init__(self, kind: str, cards: int = 0, action: object = None) -> None:
        self.kind = kind
        """``"mark"``, ``"exchange"`` or ``"act"``."""
        self.cards = cards
        """The marked set after a mark, or the discard of an exchange, as a mask."""
        self.action = action
        """The engine action (for ``"exchange"``, the ``Exchange``)."""


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as text in their symbols (``7♣ 10♥``), the one notation of the strings an encoding writes:
    observations, information states and actions."""
    return " ".join(card.symbol for card in cards)


_A_co = TypeVar("_A_co", covariant=True)
"""A game's action type (its ``apply`` takes it)."""


class ActionSpace(Generic[_A_co]):
    """One game's action ids, generic in the game's action type: what an id does in a position, and the ids of
    its legal actions.

    A game's package defines one and its descriptor holds it (``registry.get(game).action_ids``). The base
    class is the part every game shares: ``0..51`` play the card of that index. A game adds its
    ids by overriding :meth:`action_of` and :meth:`id_of` (one id per action), :attr:`verbs` (the words of its
    own actions on one card), and :meth:`legal_ids`, :meth:`meaning`, :meth:`ids` and :meth:`text` if it chooses
    some actions in several steps (marks).
    """

    size: int = 52
    """Distinct ids."""
    marks: bool = False
    """Whether some choice is made in several ids (cards marked one by one, then ``STAND``)."""
    verbs: Mapping[type, str] = {}
    """The word of each of the game's own actions on one card (``swap-trump``), by class."""

    def action_of(self, hand: int, action_id: int) -> _A_co:
        """The engine action of ``action_id`` for a seat holding ``hand`` (a mask), marks aside.

        Raises:
            ValueError: an id that is no action of this game.
        """
        return self.play(checked_id(action_id, self.size, "this game"))

    def play(self, card: int) -> _A_co:
        """``Play`` of the card of index ``card`` (every game plays cards)."""
        return cast("_A_co", Play(ALL_CARDS[card]))  # every game's actions include Play

    def id_of(self, hand: int, action: object) -> int:
        """The id of the engine ``action`` of a seat holding ``hand``.

        Raises:
            ValueError: an action with no single id here.
        """
        if type(action) is Play:
            return action.card.index
        raise ValueError(f"{action!r} has no action id in this game")

    def legal_ids(self, deal: DealState, marked: int = 0) -> list[int]:
        """The legal ids of the seat to move, ascending (none once the deal is over)."""
        seat = deal.to_move
        if seat is None:
            return []
        return self.view_ids(deal.hand_masks[seat], deal.legal_actions())

    def view_ids(self, hand: int, legal_actions: Iterable[object]) -> list[int]:
        """The ids of ``legal_actions`` of a seat holding ``hand`` (a mask), ascending: what a policy
        that sees a view and its legal actions may choose."""
        return sorted(self.id_of(hand, action) for action in legal_actions)

    def meaning(self, deal: Position, marked: int, action_id: int) -> Marking:
        """What ``action_id`` (legal) does in ``deal``; an exchange is a ``Marking("exchange")``."""
        action = self.action_of(_hand(deal), action_id)
        if isinstance(action, Exchange):
            return Marking("exchange", action.cards.mask, action)
        return Marking("act", action=action)

    def ids(self, deal: Position, action: object, marked: int = 0) -> list[int]:
        """The ids that take the engine ``action`` in ``deal`` from the marks ``marked``, in order."""
        return [self.id_of(_hand(deal), action)]

    def choices(self, deal: DealState, marked: int) -> Sequence[Action]:
        """The engine actions still open to the seat to move once it has marked ``marked``."""
        return deal.legal_actions()

    def words(self, action: object) -> str:
        """An engine action as a player says it: ``play 10♥``, ``stand``, ``fold``, ``exchange 7♣ 8♦``,
        ``swap-trump 9♠``."""
        kind = type(action)
        if isinstance(action, Exchange):
            return "exchange " + cards_text(action.cards)
        card = getattr(action, "card", None)  # a game's own action on one card has its card
        if isinstance(card, Card):
            return f"{'play' if kind is Play else self.verbs.get(kind, kind.__name__.lower())} {card.symbol}"
        return kind.__name__.lower()

    def text(self, deal: Position | None, marked: int, action_id: int) -> str:
        """An id as text for a player, read against the hand of the seat to move in ``deal`` (None: without a
        hand, for ids that need none): ``play 10♥``, ``stand``, ``fold``, ``exchange 7♣ 8♦``…"""
        if 0 <= action_id < STAND:
            return f"play {ALL_CARDS[action_id].symbol}"
        hand = _hand(deal) if deal is not None and deal.to_move is not None else 0
        try:
            return self.words(self.action_of(hand, action_id))
        except ValueError:
            return f"id {action_id}"

    def id_of_text(self, deal: DealState, marked: int, text: str) -> int:
        """The legal id of the seat to move whose :meth:`text` is ``text`` (spaces around it ignored).

        Raises:
            ValueError: no legal id reads so; the message lists those that do.
        """
        wanted = " ".join(text.split())
        texts = {self.text(deal, marked, i): i for i in self.legal_ids(deal, marked)}
        if wanted not in texts:
            raise ValueError(f"{text!r} is no legal action here; the legal ones are: {', '.join(texts)}")
        return texts[wanted]


class PlayActions(ActionSpace[Action]):
    """The action space of a game whose only actions are plays: ``0..51``, the card played."""


def _hand(deal: Position) -> int:
    """The hand of the seat to move, as a mask (0 once no one is to move)."""
    seat = deal.to_move
    return 0 if seat is None else deal.hand_masks[seat]


class Segment(NamedTuple):
    """One part of an observation: ``width`` floats, or ``width`` floats for each seat in seat order."""

    name: str
    """What it holds."""
    width: int
    """Floats (per seat, for a per-seat part)."""
    per_seat: bool = False
    """Whether the part is repeated for every seat (then relative observations reorder its blocks)."""


def layout_size(layout: Iterable[Segment], players: int) -> int:
    """Floats in an observation of ``layout`` at a table of ``players``.

    >>> layout_size([Segment("hand", 52), Segment("trick", 52, per_seat=True)], 3)
    208
    """
    return sum(part.width * (players if part.per_seat else 1) for part in layout)


@functools.cache
def layout_views(layout: tuple[Segment, ...], players: int) -> Mapping[str, slice]:
    """The floats of each named part of an observation of ``layout`` at a table of ``players``, as a slice of the
    observation (a per-seat part's covers every seat's block, seat 0's first, each ``width`` floats): the views the
    observation writers fill by name.

    >>> views = layout_views((Segment("hand", 52), Segment("trick", 52, per_seat=True), Segment("phase", 3)), 3)
    >>> views["trick"], views["phase"].start
    (slice(52, 208, None), 208)

    .. versionadded:: 0.2.0
    """
    views: dict[str, slice] = {}
    at = 0
    for part in layout:
        size = part.width * (players if part.per_seat else 1)
        views[part.name] = slice(at, at + size)
        at += size
    return MappingProxyType(views)


def seat_order(rules: Rules, seat: int) -> tuple[int, ...]:
    """Every seat once, from ``seat`` going left: the order of a relative observation's per-seat blocks.

    >>> from fly_rules.fly import FlyRules
    >>> seat_order(FlyRules(players=4), 2), seat_order(FlyRules(players=4, direction="anticlockwise"), 2)
    ((2, 3, 0, 1), (2, 1, 0, 3))
    """
    order = [seat]
    for _ in range(rules.players - 1):
        order.append(rules.left_of(order[-1]))
    return tuple(order)
