"""Pictures of cards and card tables as SVG, written with the standard library's ElementTree.

Like python-chess's ``chess.svg`` boards, the functions take plain values and return the SVG
document as a string; a game's state is drawn through its descriptor in :mod:`fly_rules.registry`,
which passes its hands, trump card, stock, trick and records in. Cards are rounded rectangles with the rank and a suit
symbol, hearts and diamonds in red. The suit symbols are drawn as paths, so a picture looks the
same whatever fonts the viewer has.

>>> from fly_rules import Card, CardSet
>>> picture = table([CardSet.parse("AS KH 7C"), 3, None], trump=Card.parse("QH"), stock=12, to_move=0)
>>> picture.startswith("<svg") and picture.endswith("</svg>")
True

:func:`deal_picture` draws a deal, a match or one seat's view of either game:

>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=4), seed=7, dealer=0)
>>> deal_picture(match, seat=1).count('class="card back"')  # three other hands and the stock
16
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any, Final

from fly_rules import registry
from fly_rules.cards import Card, CardSet, Suit
from fly_rules.engine import GameState, MatchBase, SeatView

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "Svg", "card", "deal_picture", "table"]

SVG_NS: Final = "http://www.w3.org/2000/svg"

CARD_WIDTH: Final = 50
"""The width of a drawn card, in SVG user units (pixels at scale 1)."""
CARD_HEIGHT: Final = 72
"""The height of a drawn card."""

_STEP: Final = 28  # horizontal distance between overlapping cards of a hand
_GAP: Final = 14  # margins and gaps
_LABEL: Final = 120  # width of a seat's label column
_ROW: Final = CARD_HEIGHT + _GAP
_TITLE_HEIGHT: Final = 30
_RED: Final = "#c8102e"
_BLACK: Final = "#1a1a1a"
_BACK: Final = "#2a4d8f"
_FELT: Final = "#2e7d4f"

# Suit symbols in a 100 x 100 box, drawn by hand: clubs, diamonds, hearts, spades.
_SUIT_PATHS: Final[dict[Suit, str]] = {
    Suit.CLUBS: (
        "M50 4a22 22 0 1 1 0 44a22 22 0 1 1 0-44zM26 38a22 22 0 1 1 0 44a22 22 0 1 1 0-44z"
        "M74 38a22 22 0 1 1 0 44a22 22 0 1 1 0-44zM45 50C45 76 40 90 30 100H70C60 90 55 76 55 50z"
    ),
    Suit.DIAMONDS: "M50 0L88 50L50 100L12 50z",
    Suit.HEARTS: (
        "M50 92C20 68 0 48 0 28C0 11 13 0 27 0C38 0 46 7 50 16C54 7 62 0 73 0C87 0 100 11 100 28C100 48 80 68 50 92z"
    ),
    Suit.SPADES: (
        "M50 0C80 26 100 44 100 62C100 78 88 88 74 88C64 88 57 83 53 77C54 87 58 94 68 100H32"
        "C42 94 46 87 47 77C43 83 36 88 26 88C12 88 0 78 0 62C0 44 20 26 50 0z"
    ),
}


class Svg(str):
    """An SVG document as a string, shown as a picture by Jupyter (``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def _colour(suit: Suit) -> str:
    return _RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK


def _suit(parent: ET.Element, suit: Suit, x: int, y: int, size: int) -> None:
    """The suit symbol in a ``size`` square at (x, y): its path inline, with no id to reference, so that any
    number of pictures can share one HTML page (ids must be unique on a page)."""
    box = {"x": str(x), "y": str(y), "width": str(size), "height": str(size), "viewBox": "0 0 100 100"}
    symbol = ET.SubElement(parent, "svg", {"class": "suit", **box, "fill": _colour(suit)})
    ET.SubElement(symbol, "path", {"d": _SUIT_PATHS[suit]})


def _draw_card(parent: ET.Element, face: Card | None, x: float, y: float) -> None:
    """A card at (x, y): face up, or its back when ``face`` is None."""
    group = ET.SubElement(parent, "g", {"class": "card" if face else "card back", "transform": f"translate({x},{y})"})
    rect = {"width": str(CARD_WIDTH), "height": str(CARD_HEIGHT), "rx": "5", "ry": "5", "stroke": "#555"}
    if face is None:
        ET.SubElement(group, "rect", {**rect, "fill": _BACK})
        inner = {"x": "5", "y": "5", "width": str(CARD_WIDTH - 10), "height": str(CARD_HEIGHT - 10), "rx": "3"}
        ET.SubElement(group, "rect", {**inner, "fill": "none", "stroke": "#fff", "stroke-width": "1.5"})
        return
    group.set("data-card", str(face))
    colour = _colour(face.suit)
    ET.SubElement(group, "rect", {**rect, "fill": "#fff"})
    text = ET.SubElement(
        group,
        "text",
        {"x": "5", "y": "17", "fill": colour, "font-family": "sans-serif", "font-size": "15", "font-weight": "bold"},
    )
    text.text = face.rank.label
    _suit(group, face.suit, 6, 21, 11)
    _suit(group, face.suit, CARD_WIDTH - 32, CARD_HEIGHT - 34, 26)
    title = ET.SubElement(group, "title")
    title.text = face.symbol


def _label(parent: ET.Element, text: str, x: float, y: float, *, bold: bool = False, size: int = 13) -> None:
    element = ET.SubElement(
        parent,
        "text",
        {"x": str(x), "y": str(y), "fill": "#fff", "font-family": "sans-serif", "font-size": str(size)},
    )
    if bold:
        element.set("font-weight", "bold")
    element.text = text


def _document(width: int, height: int) -> ET.Element:
    ET.register_namespace("", SVG_NS)
    return ET.Element(
        f"{{{SVG_NS}}}svg",
        {"version": "1.1", "width": str(width), "height": str(height), "viewBox": f"0 0 {width} {height}"},
    )


def _serialise(root: ET.Element) -> Svg:
    for element in root.iter():
        if not element.tag.startswith("{"):
            element.tag = f"{{{SVG_NS}}}{element.tag}"
    return Svg(ET.tostring(root, encoding="unicode"))


def card(face: Card | None) -> Svg:
    """One card as an SVG picture, face up, or its back when ``face`` is None.

    >>> from fly_rules import Card
    >>> 'data-card="QH"' in card(Card.parse("Q♥"))
    True
    """
    root = _document(CARD_WIDTH + 2, CARD_HEIGHT + 2)
    _draw_card(root, face, 1, 1)
    return _serialise(root)


def table(
    hands: Sequence[CardSet | int | None],
    *,
    trump: Card | None = None,
    stock: int = 0,
    trick: Sequence[tuple[int, Card]] = (),
    records: Sequence[object] | None = None,
    to_move: int | None = None,
    title: str | None = None,
) -> Svg:
    """A card table as an SVG picture: one row per seat, and the middle of the table above them.

    Args:
        hands: one entry per seat: its cards face up (a :class:`~fly_rules.cards.CardSet`), the number
            of cards to draw face down (an ``int``), or ``None`` for a hand not shown at all.
        trump: the turned-up trump card, if any.
        stock: the number of cards left in the stock (drawn as one face-down card with the count).
        trick: the current trick as ``(seat, card)`` pairs in the order played.
        records: one value per seat (a score, or any text), shown after the seat's name.
        to_move: the seat to act, marked with an arrow.
        title: a caption drawn at the top.

    Returns:
        The SVG document. Its ``width`` and ``height`` attributes give its size in pixels.

    Raises:
        ValueError: if ``records`` has not one entry per seat, or a seat number is out of range.
    """
    seats = len(hands)
    if records is not None and len(records) != seats:
        raise ValueError(f"records must have one entry per seat ({seats}), not {len(records)}")
    for seat in [*(s for s, _ in trick), *([] if to_move is None else [to_move])]:
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat!r} is out of range for {seats} seats")
    widest = max([13, len(trick) * 2 + 4, *(len(h) if isinstance(h, CardSet) else h or 0 for h in hands)])
    width = _GAP * 2 + _LABEL + _STEP * (widest - 1) + CARD_WIDTH
    top = _TITLE_HEIGHT if title else 0
    height = top + _ROW + 18 + seats * _ROW + _GAP
    root = _document(width, height)
    ET.SubElement(root, "rect", {"width": str(width), "height": str(height), "fill": _FELT, "rx": "8"})
    if title:
        _label(root, title, _GAP, 21, bold=True, size=16)

    middle = ET.SubElement(root, "g", {"class": "middle"})
    y = top + _GAP
    _label(middle, "trump", _GAP, y + 12)
    if trump is not None:
        _draw_card(middle, trump, _GAP, y + 16)
    _label(middle, f"stock {stock}", _GAP + CARD_WIDTH + _GAP, y + 12)
    if stock:
        _draw_card(middle, None, _GAP + CARD_WIDTH + _GAP, y + 16)
    x = _GAP + _LABEL + CARD_WIDTH
    if not trick:
        _label(middle, "no trick in play", x, y + 12)
    for seat, played in trick:
        group = ET.SubElement(middle, "g", {"class": "trick-card", "data-seat": str(seat)})
        _label(group, f"seat {seat}", x, y + 12, size=12)
        _draw_card(group, played, x, y + 16)
        x += CARD_WIDTH + 8

    for seat, hand in enumerate(hands):
        y = top + _ROW + 18 + seat * _ROW + 4
        row = ET.SubElement(root, "g", {"class": "seat", "data-seat": str(seat)})
        name = ("▶ " if seat == to_move else "") + f"seat {seat}"
        _label(row, name, _GAP, y + 20, bold=seat == to_move)
        if records is not None:
            _label(row, f"record {records[seat]}", _GAP, y + 38, size=12)
        if hand is None:
            _label(row, "hidden", _GAP + _LABEL, y + 38, size=12)
            continue
        faces: Sequence[Card | None] = tuple(hand) if isinstance(hand, CardSet) else (None,) * hand
        for index, face in enumerate(faces):
            _draw_card(row, face, _GAP + _LABEL + index * _STEP, y)
    return _serialise(root)


def deal_picture(state: Any, seat: int | None = None, *, title: str | None = None) -> Svg:
    """A picture of a deal of any registered game: the thin adapter from the engines' states to :func:`table`.

    Args:
        state: a Fly or Dreyfus deal or match (its current deal is drawn), or a view
            (:class:`~fly_rules.fly.FlyView`, :class:`~fly_rules.dreyfus.DreyfusView`), which
            shows only what its seat may see.
        seat: draw the deal as this seat sees it (its view): its own cards face up, the other hands
            as backs. ``None`` (the default) shows every hand face up.
        title: the caption; by default the game, the deal's number, the trumps and the phase.

    Returns:
        The SVG document. For Fly it shows the turned-up trump card, the stock and the records (a
        folded seat's hand is not drawn); for Dreyfus the trump indicator when shown, the talon left
        and the records as upper/lower.

    Raises:
        TypeError: if ``state`` is not a state of either game.
        ValueError: if ``seat`` is out of range.

    >>> from fly_rules import dreyfus
    >>> deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=7, dealer=0).deal
    >>> picture = deal_picture(deal)
    >>> picture.count('class="card"')  # three hands of twelve face up, and the two of trumps
    37
    >>> 'Dreyfus' in deal_picture(deal.view(2))
    True
    """
    if isinstance(state, MatchBase):
        state = state.deal
    view: Any
    if isinstance(state, SeatView):
        view, faces = state, {state.seat: state.hand}
    elif isinstance(state, GameState):
        players = state.players
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is out of range for {players} seats")
        view = state.view(seat or 0)
        faces = {s: state.hands[s] for s in (range(players) if seat is None else (seat,))}
    else:
        raise TypeError(f"not a deal, match or view of a registered game: {type(state).__name__}")
    game = registry.game_of(view)
    return table(**game.picture(view, faces, title))
