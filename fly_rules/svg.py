"""Pictures of cards and card tables as SVG, with no dependency beyond the standard library.

Like python-chess's ``chess.svg`` boards, the functions take plain values and return the SVG
document as a string; the games' states are drawn through thin adapters that pass their hands,
trump card, stock, trick and records in. Cards are rounded rectangles with the rank and a suit
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

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any, Final

from fly_rules import registry
from fly_rules.cards import Card, CardSet, Suit
from fly_rules.engine import GameState, MatchBase, SeatView

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "NARROW_WIDTH", "Svg", "card", "deal_picture", "hand", "table"]

SVG_NS: Final = "http://www.w3.org/2000/svg"

CARD_WIDTH: Final = 50
"""The width of a drawn card, in SVG user units (pixels at scale 1)."""
CARD_HEIGHT: Final = 72
"""The height of a drawn card."""

_STEP: Final = 28  # horizontal distance between overlapping cards of a hand
_STEP_TIGHT: Final = 21  # the same for hands of more than eight cards
_GAP: Final = 14  # margins and gaps
_PAD: Final = 8  # inside a seat's panel
_PANEL_MIN: Final = 176  # the narrowest seat panel: room for the name, record and declaration
_PANEL_TEXT: Final = 56  # the three lines of a seat's panel above its hand: name, record, declaration
_BUTTON: Final = 24  # room for the dealer's button at the right of a panel's first line
_MIDDLE: Final = (2 * CARD_WIDTH + 12, CARD_HEIGHT + 34)  # the trump card, the stock and the note under them
_TRICK_RX: Final = 118  # the ellipse the trick's cards lie on
_TRICK_RY: Final = 104
_TITLE_HEIGHT: Final = 30
_RED: Final = "#c8102e"
_BLACK: Final = "#1a1a1a"
_BACK: Final = "#2a4d8f"
_FELT: Final = "#2e7d4f"
_PANEL: Final = "#25663f"
_YELLOW: Final = "#ffd54f"

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


# Widths of characters in ems, a little over DejaVu Sans (the widest of the common sans-serif fonts), so that a
# panel or a picture sized from them holds its text in any browser.
_NARROW: Final = frozenset(" ,.:;'!|()[]/fijlrt")
_WIDE: Final = frozenset("mwMW")


def _text_width(text: str, size: int, *, bold: bool = False) -> float:
    """The width a label of that font size takes, estimated (an SVG has no text metrics before a browser
    draws it): pictures and panels are sized from it so that no text runs past their edge."""
    ems = sum(
        0.4 if c in _NARROW else 1.0 if c in _WIDE else 0.8 if c.isupper() or not c.isascii() else 0.64 for c in text
    )
    return ems * size * (1.1 if bold else 1.0)


def _label(
    parent: ET.Element,
    text: str,
    x: float,
    y: float,
    *,
    bold: bool = False,
    size: int = 13,
    colour: str = "#fff",
    anchor: str = "start",
) -> None:
    element = ET.SubElement(
        parent,
        "text",
        {"x": str(x), "y": str(y), "fill": colour, "font-family": "sans-serif", "font-size": str(size)},
    )
    if bold:
        element.set("font-weight", "bold")
    if anchor != "start":
        element.set("text-anchor", anchor)
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


def hand(cards: CardSet | Sequence[Card]) -> Svg:
    """Cards face up side by side, overlapping as in a hand (a card set in suit order), e.g. a
    :class:`~fly_rules.cards.CardSet`'s picture in Jupyter.

    >>> from fly_rules import CardSet
    >>> picture = hand(CardSet.parse("AS 10h 7c"))
    >>> [picture.count(f'data-card="{c}"') for c in ("7C", "TH", "AS")]
    [1, 1, 1]
    """
    faces = list(cards)
    root = _document(max(_hand_width(len(faces)), CARD_WIDTH) + 2, CARD_HEIGHT + 2)
    for i, face in enumerate(faces):
        _draw_card(root, face, 1 + i * _hand_step(len(faces)), 1)
    return _serialise(root)


def _hand_step(count: int) -> int:
    """The distance between overlapping cards of a hand: closer for the long hands of Dreyfus."""
    return _STEP if count <= 8 else _STEP_TIGHT


def _hand_width(count: int) -> int:
    return CARD_WIDTH + _hand_step(count) * (count - 1) if count else 0


def _seat_point(seat: int, seats: int, rx: float, ry: float) -> tuple[float, float]:
    """Where a seat sits on an ellipse round the centre: seat 0 at the bottom, then clockwise as seen from
    above (the next seat is on the bottom seat's left), the order the deal and the play go round."""
    angle = 2 * math.pi * seat / seats
    return -rx * math.sin(angle), ry * math.cos(angle)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box(x: float, y: float, width: float, height: float) -> tuple[float, float, float, float]:
    """The rectangle of that size centred on (x, y), as (left, top, right, bottom)."""
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _layout(
    seats: int, panel: tuple[int, int], note: str
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """The centres of the seats' panels and of their cards in the trick, relative to the table's centre.

    The trick cards lie on a small ellipse round the trump card and the stock, each towards the seat that
    played it; the seats sit on a larger ellipse, widened until no panel touches another panel, a trick
    card or the middle.
    """
    middle = _box(0, 0, max(_MIDDLE[0], _text_width(note, 12) + 8), _MIDDLE[1])  # the note under it included
    rx, ry = float(_TRICK_RX), float(_TRICK_RY)
    while True:  # widened until no trick card covers the middle's words or cards
        trick = [_seat_point(s, seats, rx, ry) for s in range(seats)]
        if not any(_overlap(_box(x, y, CARD_WIDTH + 4, CARD_HEIGHT + 4), middle) for x, y in trick):
            break
        rx, ry = rx * 1.05, ry * 1.05
    fixed = [middle, *(_box(x, y, CARD_WIDTH + 8, CARD_HEIGHT + 8) for x, y in trick)]
    rx, ry = rx + CARD_WIDTH / 2 + panel[0] / 2 + _GAP, ry + CARD_HEIGHT / 2 + panel[1] / 2 + _GAP
    while True:
        centres = [_seat_point(s, seats, rx, ry) for s in range(seats)]
        boxes = [_box(x, y, panel[0] + _GAP, panel[1] + _GAP) for x, y in centres]
        clash = any(_overlap(a, b) for i, a in enumerate(boxes) for b in [*boxes[i + 1 :], *fixed])
        if not clash:
            return centres, trick
        rx, ry = rx * 1.05, ry * 1.05


def _draw_middle(
    root: ET.Element, centre: tuple[float, float], trump: Card | None, stock_text: str, stock: int, trump_label: str
) -> None:
    """The trump card and the stock side by side in the middle of the table, each under its word."""
    middle = ET.SubElement(root, "g", {"class": "middle"})
    x0, y0 = centre[0] - _MIDDLE[0] / 2, centre[1] - _MIDDLE[1] / 2
    _label(middle, trump_label, x0, y0 + 12, size=12)
    if trump is not None:
        _draw_card(middle, trump, x0, y0 + 16)
    _label(middle, stock_text, x0 + CARD_WIDTH + 12, y0 + 12, size=12)
    if stock:
        _draw_card(middle, None, x0 + CARD_WIDTH + 12, y0 + 16)


def _draw_dealer_button(group: ET.Element, x: float, y: float) -> None:
    button = ET.SubElement(group, "g", {"class": "dealer"})
    ET.SubElement(button, "title").text = "dealer"
    ET.SubElement(button, "circle", {"cx": str(x), "cy": str(y), "r": "9", "fill": "#fff"})
    text = {"x": str(x), "y": str(y + 4.5), "fill": _BLACK, "font-family": "sans-serif", "font-size": "12"}
    ET.SubElement(button, "text", {**text, "font-weight": "bold", "text-anchor": "middle"}).text = "D"


def _record_text(record: object) -> str:
    return f"record {record}" if isinstance(record, int) else str(record)


def _panel_width(counts: Sequence[int], texts: Sequence[tuple[object, str | None]], seats: int) -> int:
    """The seats' panels' common width: room for the longest hand, name (with the dealer's button), record
    and declaration."""
    lines = [
        _text_width(f"▶ seat {seats - 1}", 13, bold=True) + _BUTTON,
        *(_text_width(_record_text(r), 12) for r, _ in texts if r is not None),
        *(_text_width(d, 12) for _, d in texts if d),
    ]
    return math.ceil(max(_PANEL_MIN, *(_hand_width(c) + 2 * _PAD for c in counts), *(w + 2 * _PAD for w in lines)))


def _draw_seat(
    group: ET.Element,
    seat: int,
    hand: CardSet | int | None,
    corner: tuple[float, float],
    panel: tuple[int, int],
    texts: tuple[object, str | None],
    *,
    to_move: bool,
    dealer: bool,
) -> None:
    """One seat's panel: its name (an arrow when it is to act), the dealer's button, its record and
    declaration, and its hand fanned out (face up, backs, or the word "hidden")."""
    x, y = corner
    frame = {"x": str(x), "y": str(y), "width": str(panel[0]), "height": str(panel[1]), "rx": "6"}
    outline = {"stroke": _YELLOW, "stroke-width": "2.5"} if to_move else {}
    ET.SubElement(group, "rect", {**frame, "fill": _PANEL, **outline})
    _label(group, ("▶ " if to_move else "") + f"seat {seat}", x + _PAD, y + 16, bold=to_move)
    if dealer:
        _draw_dealer_button(group, x + panel[0] - 14, y + 12)
    record, declaration = texts
    if record is not None:
        _label(group, _record_text(record), x + _PAD, y + 32, size=12)
    if declaration:
        _label(group, declaration, x + _PAD, y + 48, size=12, colour=_YELLOW)
    if hand is None:
        _label(group, "hidden", x + _PAD, y + _PANEL_TEXT + 20, size=12)
        return
    faces: Sequence[Card | None] = tuple(hand) if isinstance(hand, CardSet) else (None,) * hand
    step = _hand_step(len(faces))
    start = x + (panel[0] - _hand_width(len(faces))) / 2
    for index, face in enumerate(faces):
        _draw_card(group, face, start + index * step, y + _PANEL_TEXT)


NARROW_WIDTH: Final = 330
"""The width of a picture drawn ``narrow``, in SVG user units: a phone's page about 400 pixels wide shows it at
scale 1 or a little above, so that its labels (12 units and up) read at 12 pixels or more."""
_TAP_STEP: Final = 56  # the distance between the cards of the hand in a narrow picture, where they fit
_TAP_MIN: Final = 44  # the least of each card of that hand left uncovered by the next, to be tapped
_LINE: Final = 16  # one line of a narrow picture's panels
_EDGE: Final = 6  # a narrow picture's margins and gaps between panels
_INSET: Final = 7  # a narrow panel's text from its edge


def _wrapped(text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` at that font size, broken after its commas where it must be."""
    lines: list[str] = []
    for part in text.split(", "):
        joined = f"{lines[-1]}, {part}" if lines else part
        if lines and _text_width(joined, size) <= width:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def _narrow_panel(
    root: ET.Element,
    seat: int,
    corner: tuple[float, float],
    size: tuple[float, float],
    lines: Sequence[tuple[str, str, int]],
    *,
    to_move: bool,
    dealer: bool,
) -> ET.Element:
    """A seat's panel of a narrow picture: its name (an arrow when it is to act), the dealer's button, then ``lines``
    of (text, colour, font size)."""
    x, y = corner
    group = ET.SubElement(root, "g", {"class": "seat", "data-seat": str(seat)})
    frame = {"x": str(x), "y": str(y), "width": str(size[0]), "height": str(size[1]), "rx": "6", "fill": _PANEL}
    ET.SubElement(group, "rect", {**frame, **({"stroke": _YELLOW, "stroke-width": "2.5"} if to_move else {})})
    _label(group, ("▶ " if to_move else "") + f"seat {seat}", x + _INSET, y + _LINE, bold=to_move)
    if dealer:
        _draw_dealer_button(group, x + size[0] - 14, y + 12)
    for index, (text, colour, font) in enumerate(lines):
        _label(group, text, x + _INSET, y + _LINE * (index + 2), colour=colour, size=font)
    return group


def _narrow_middle(
    root: ET.Element,
    y: float,
    middle: tuple[Card | None, int, str, str, str],
    trick: Sequence[tuple[int, Card]],
    seats: int,
) -> float:
    """The trump card and the stock of a narrow picture at ``y``, and the trick: beside them when a trick of every
    seat fits there, each card under its seat's name; at a larger table the trump card and the stock are a line of
    text over the trick, which takes the width. Then the note. Returns the next free ``y``."""
    width = NARROW_WIDTH
    trump, stock, stock_text, trump_label, note = middle
    room = width - _EDGE - (_EDGE + _MIDDLE[0] + 16)
    if CARD_WIDTH + (seats - 1) * _TAP_MIN <= room:  # beside the trump card and the stock, as the wide table has them
        _draw_middle(root, (_EDGE + _MIDDLE[0] / 2, y + _MIDDLE[1] / 2 + 2), trump, stock_text, stock, trump_label)
        left = width - _EDGE - room
    else:
        group = ET.SubElement(root, "g", {"class": "middle"})
        shown = f"{trump_label} {trump.symbol}" if trump is not None else trump_label
        _label(group, f"{shown} · {stock_text}", _EDGE, y + 13, size=13)
        y += 20
        left, room = _EDGE, width - 2 * _EDGE
    step = min(_TAP_STEP, (room - CARD_WIDTH) / max(seats - 1, 1))
    for index, (seat, played) in enumerate(trick):
        attributes = {"class": "trick-card", "data-seat": str(seat), **({"data-led": "true"} if index == 0 else {})}
        card_group = ET.SubElement(root, "g", attributes)
        _label(card_group, f"seat {seat}", left + index * step, y + 13, size=12)
        _draw_card(card_group, played, left + index * step, y + 18)
    y += 18 + CARD_HEIGHT + 4
    _label(root, note, _EDGE, y + 13, size=13)
    return y + 13 + 8


def _narrow_table(
    hands: Sequence[CardSet | int | None],
    texts: Sequence[tuple[object, str | None]],
    middle: tuple[Card | None, int, str, str, str],
    trick: Sequence[tuple[int, Card]],
    *,
    to_move: int | None,
    dealer: int | None,
    title: str | None,
) -> Svg:
    """:func:`table` laid out ``narrow``."""
    width, seats = NARROW_WIDTH, len(hands)
    face_up = [s for s, h in enumerate(hands) if isinstance(h, CardSet)]
    own = face_up[0] if len(face_up) == 1 else None
    others = [s for s in range(seats) if s != own] if own is None else [(own + k) % seats for k in range(1, seats)]
    root = _document(width, 0)
    root.set("class", "narrow")  # the pages let it run past the window's height rather than shrink its text
    felt = ET.SubElement(root, "rect", {"width": str(width), "fill": _FELT, "rx": "8"})
    y = float(_GAP)
    if title:
        _label(root, title, _EDGE + 2, 20, bold=True, size=14)
        y = 28

    def lines_of(seat: int, room: float) -> list[tuple[str, str, int]]:
        """The record and the cards held at 13 units, the declaration at 12, each wrapped to ``room``."""
        record, declaration = texts[seat]
        hand = hands[seat]
        counted = len(hand) if isinstance(hand, CardSet) else hand
        first = [] if record is None else [_record_text(record)]
        if seat != own:
            first.append("hidden" if counted is None else f"{counted} card" + ("" if counted == 1 else "s"))
        lines = [(line, "#fff", 13) for line in _wrapped(", ".join(first), room, 13) if line]
        return lines + [(line, _YELLOW, 12) for line in _wrapped(declaration or "", room, 12) if line]

    column = (width - 3 * _EDGE) / 2
    panels = {s: lines_of(s, column - 2 * _INSET) for s in others}
    tall = 7 + _LINE * (1 + max((len(lines) for lines in panels.values()), default=0))
    for index, seat in enumerate(others):
        corner = (_EDGE + (index % 2) * (column + _EDGE), y + (index // 2) * (tall + _EDGE))
        _narrow_panel(root, seat, corner, (column, tall), panels[seat], to_move=seat == to_move, dealer=seat == dealer)
    y += ((len(others) + 1) // 2) * (tall + _EDGE) + 2

    y = _narrow_middle(root, y, middle, trick, seats)
    if own is not None:  # the hand to play from: rows of cards, each far enough from the next to be tapped
        own_hand = hands[own]
        faces = list(own_hand) if isinstance(own_hand, CardSet) else []
        inner = width - 2 * _EDGE - 2 * _INSET
        per_row = max(1, math.floor((inner - CARD_WIDTH) / _TAP_MIN) + 1)
        rows = [faces[i : i + per_row] for i in range(0, len(faces), per_row)] or [[]]
        lines = lines_of(own, inner)
        top = 8 + _LINE * (1 + len(lines))
        size = (width - 2 * _EDGE, top + len(rows) * (CARD_HEIGHT + 10))
        group = _narrow_panel(root, own, (_EDGE, y), size, lines, to_move=own == to_move, dealer=own == dealer)
        for number, row in enumerate(rows):
            step = min(_TAP_STEP, (inner - CARD_WIDTH) / max(len(row) - 1, 1))
            start = (width - CARD_WIDTH - step * (len(row) - 1)) / 2
            for index, face in enumerate(row):
                _draw_card(group, face, start + index * step, y + top + number * (CARD_HEIGHT + 10))
        y += size[1] + _EDGE
    height = math.ceil(y + 2)
    felt.set("height", str(height))
    root.set("height", str(height))
    root.set("viewBox", f"0 0 {width} {height}")
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
    dealer: int | None = None,
    declarations: Sequence[str | None] | None = None,
    trick_note: str | None = None,
    trump_label: str = "trump",
    stock_label: str = "stock",
    narrow: bool = False,
) -> Svg:
    """A card table as an SVG picture, drawn the way a player would sketch it: the seats round the table
    in playing order (seat 0 at the bottom, the next seat on its left, clockwise), the trump card and the
    stock in the middle, and the cards of the trick in play each in front of the seat that played it.

    Args:
        hands: one entry per seat: its cards face up (a :class:`~fly_rules.cards.CardSet`), the number
            of cards to draw face down (an ``int``), or ``None`` for a hand not shown at all.
        trump: the turned-up trump card, if any.
        stock: the number of cards left in the stock (drawn as one face-down card with the count).
        trick: the current trick as ``(seat, card)`` pairs in the order played; the first seat led it.
        records: one value per seat: a number is shown as ``record N``, any other value as its text.
        to_move: the seat to act, marked with an arrow and a yellow outline.
        title: a caption drawn at the top.
        dealer: the dealer's seat, marked with a "D" button.
        declarations: one text per seat (or None), shown beside its record: "stood", "exchanged 3", ….
        trick_note: what the middle says under the trump card; by default who led the trick in play,
            or that no trick is in play.
        trump_label: the word over the trump card ("trump"; Dreyfus shows the two of trumps as "trumps").
        stock_label: the word before the stock's count ("stock"; "talon" in Dreyfus).
        narrow: lay the table out for a phone, ``NARROW_WIDTH`` units wide (its text is read at scale 1
            there): the other seats in two columns of panels that count their cards, the trump card, stock and
            trick in a row (each trick card under its seat's name), and the one hand face up, if only one is,
            at the bottom in rows of cards set wide apart, to be tapped.

    Returns:
        The SVG document. Its ``width`` and ``height`` attributes give its size in pixels.

    Raises:
        ValueError: if ``records`` or ``declarations`` has not one entry per seat, or a seat number is out
            of range.
    """
    seats = len(hands)
    for name, values in (("records", records), ("declarations", declarations)):
        if values is not None and len(values) != seats:
            raise ValueError(f"{name} must have one entry per seat ({seats}), not {len(values)}")
    for seat in [*(s for s, _ in trick), *(s for s in (to_move, dealer) if s is not None)]:
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat!r} is out of range for {seats} seats")
    counts = [len(h) if isinstance(h, CardSet) else h or 0 for h in hands]
    texts = [
        (None if records is None else records[s], None if declarations is None else declarations[s])
        for s in range(seats)
    ]
    if trick_note is None:
        trick_note = f"seat {trick[0][0]} led" if trick else "no trick in play"
    if narrow:
        middle = (trump, stock, f"{stock_label} {stock}", trump_label, trick_note)
        return _narrow_table(hands, texts, middle, trick, to_move=to_move, dealer=dealer, title=title)
    panel = (_panel_width(counts, texts, seats), _PANEL_TEXT + CARD_HEIGHT + _PAD)
    centres, spots = _layout(seats, panel, trick_note)
    boxes = [_box(x, y, *panel) for x, y in centres] + [_box(x, y, CARD_WIDTH, CARD_HEIGHT) for x, y in spots]
    left, top_edge = min(b[0] for b in boxes) - _GAP, min(b[1] for b in boxes) - _GAP
    top = _TITLE_HEIGHT if title else 0
    width = math.ceil(max(b[2] for b in boxes) + _GAP - left)
    # A caption wider than the table widens the picture; the table stays in the middle.
    wide = math.ceil(_text_width(title, 16, bold=True) + 2 * _GAP) if title else 0
    left -= max(0, wide - width) / 2
    width = max(width, wide)
    height = math.ceil(max(b[3] for b in boxes) + _GAP - top_edge) + top
    cx, cy = -left, top - top_edge
    root = _document(width, height)
    ET.SubElement(root, "rect", {"width": str(width), "height": str(height), "fill": _FELT, "rx": "8"})
    if title:
        _label(root, title, _GAP, 21, bold=True, size=16)

    _draw_middle(root, (cx, cy), trump, f"{stock_label} {stock}", stock, trump_label)
    _label(root, trick_note, cx, cy + _MIDDLE[1] / 2 - 2, size=12, anchor="middle")
    for index, (seat, played) in enumerate(trick):
        attributes = {"class": "trick-card", "data-seat": str(seat)}
        if index == 0:
            attributes["data-led"] = "true"
        group = ET.SubElement(root, "g", attributes)
        x, y = spots[seat]
        _draw_card(group, played, cx + x - CARD_WIDTH / 2, cy + y - CARD_HEIGHT / 2)
    for seat, hand in enumerate(hands):
        corner = (cx + centres[seat][0] - panel[0] / 2, cy + centres[seat][1] - panel[1] / 2)
        group = ET.SubElement(root, "g", {"class": "seat", "data-seat": str(seat)})
        _draw_seat(group, seat, hand, corner, panel, texts[seat], to_move=seat == to_move, dealer=seat == dealer)
    return _serialise(root)


def deal_picture(
    state: Any,
    seat: int | None = None,
    *,
    title: str | None = None,
    last_trick: bool = False,
    own_hand: bool = True,
    narrow: bool = False,
) -> Svg:
    """A picture of a deal of any registered game: the thin adapter from the engines' states to :func:`table`.

    Args:
        state: a Fly or Dreyfus deal or match (its current deal is drawn), or a view
            (:class:`~fly_rules.fly.FlyView`, :class:`~fly_rules.dreyfus.DreyfusView`), which
            shows only what its seat may see.
        seat: draw the deal as this seat sees it (its view): its own cards face up, the other hands
            as backs. ``None`` (the default) shows every hand face up.
        title: the caption; by default the game, the deal's number, the trumps and the phase.
        last_trick: when no trick is in play, show the last completed one and who took it (the moment
            after a trick, before it is gathered).
        own_hand: for a view, show its seat's cards face up (False: as backs, as a watcher of the table sees
            every hand).
        narrow: the layout for a phone (:func:`table`'s ``narrow``).

    Returns:
        The SVG document, which shows the seats round the table with the dealer's button, each seat's
        record and declaration, the trick in play and who led it. For Fly it shows the turned-up trump card and
        the stock (a folded seat's hand is not drawn); for Dreyfus the two of trumps when shown, the
        talon left, the records as upper and lower and the cards each seat bought.

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
        view, faces = state, {state.seat: state.hand} if own_hand else {}
    elif isinstance(state, GameState):
        players = state.players
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is out of range for {players} seats")
        view = state.view(seat or 0)
        faces = {s: state.hands[s] for s in (range(players) if seat is None else (seat,))}
    else:
        raise TypeError(f"not a deal, match or view of a registered game: {type(state).__name__}")
    game = registry.game_of(view)
    drawn = game.picture(view, faces, title)
    if last_trick and not view.trick and view.tricks:
        taker = getattr(state, "leader", None)
        taker = view.to_move if taker is None or taker < 0 else taker
        led = f"seat {view.tricks[-1][0][0]} led"
        note = f"{led}; the last trick" if taker is None else f"{led}; seat {taker} takes it"
        drawn["trick"] = view.tricks[-1]
        drawn["trick_note"] = note
    return table(**drawn, narrow=narrow)
