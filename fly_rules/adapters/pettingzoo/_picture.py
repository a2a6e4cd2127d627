"""The table as an RGB image (``render_mode="rgb_array"``), drawn with numpy alone.

Each card is a small tile with its rank and suit in a 5-pixel-high font; one row per seat holds its
label (yellow for the seat to move, a ``D`` beside the dealer), its hand (grey when folded) and its
record, and the bottom row the trump card or contract, the stock or talon (a blue back with the count),
then the current trick. (No library the project keeps rasterises SVG, so the table is drawn here.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from fly_rules.cards import Card

Image = npt.NDArray[np.uint8]

_GLYPHS: Final[dict[str, str]] = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
    "A": "010101111101101",
    "K": "101110100110101",
    "Q": "010101101110011",
    "J": "001001001101010",
    "N": "101111111111101",
    "T": "111010010010010",
    "P": "110101110100100",
    "D": "110101101101110",
    "E": "111100110100111",
    "R": "110101110101101",
    "L": "100100100100111",
    "O": "111101101101111",
    "U": "101101101101111",
    "W": "101101101111101",
    ",": "000000000010100",
    " ": "000000000000000",
    "/": "001001010100100",
    "-": "000000111000000",
    "♠": "0010001110111110010001110",
    "♥": "0101011111111110111000100",
    "♦": "0010001110111110111000100",
    "♣": "0111001110111110010001110",
}
"""Five rows of 3 (letters, digits) or 5 (suits) pixels each, top row first."""

_SCALE: Final = 3
_TILE_W: Final = 10
_TILE_H: Final = 14
_GAP: Final = 2
_FELT: Final = (22, 100, 52)
_WHITE: Final = (250, 250, 245)
_GREY: Final = (150, 150, 150)
_RED: Final = (200, 30, 40)
_BLACK: Final = (20, 20, 20)
_YELLOW: Final = (240, 200, 40)
_BACK: Final = (60, 90, 170)


def _width(text: str) -> int:
    return sum(len(_GLYPHS[char]) // 5 + 1 for char in text.upper())


def _text(image: Image, y: int, x: int, text: str, colour: tuple[int, int, int]) -> None:
    for char in text.upper():
        bitmap = np.array([int(b) for b in _GLYPHS[char]], bool).reshape(5, -1)
        image[y : y + 5, x : x + bitmap.shape[1]][bitmap] = colour
        x += bitmap.shape[1] + 1


def _tile(image: Image, y: int, x: int, card: Card | None, face: tuple[int, int, int] = _WHITE) -> None:
    image[y : y + _TILE_H, x : x + _TILE_W] = face
    if card is None:
        return
    rank, suit = card.symbol[:-1], card.symbol[-1]
    colour = _RED if suit in "♥♦" else _BLACK
    _text(image, y + 1, x + 1 + (4 if len(rank) == 1 else 0) // 2, rank, colour)
    _text(image, y + 8, x + 2, suit, colour)


def table_image(
    hands: Sequence[Sequence[Card]],
    active: Sequence[bool],
    to_move: int | None,
    shown: Card | str,
    trick: Sequence[tuple[int, Card]],
    *,
    records: Sequence[str] = (),
    dealer: int | None = None,
    stock: int | None = None,
) -> Image:
    """An ``(height, width, 3)`` uint8 picture: each seat's label (``D`` beside the dealer's), hand and
    record, then ``shown`` (the trump card, or a contract's suit symbol or ``"NT"``), the stock or talon
    (a card back with its count) and the current trick as (seat, card) pairs."""
    columns = max(12, *(len(hand) for hand in hands), 4 + 2 * len(trick))
    label = 20
    cards = columns * (_TILE_W + _GAP) + _GAP
    width = label + cards + max((_width(r) for r in records), default=0) + _GAP
    height = (len(hands) + 1) * (_TILE_H + _GAP + 4) + _GAP
    image = np.empty((height, width, 3), np.uint8)
    image[:] = _FELT
    for seat, hand in enumerate(hands):
        y = _GAP + seat * (_TILE_H + _GAP + 4)
        _text(image, y + 4, 1, f"P{seat}", _YELLOW if seat == to_move else _WHITE)
        if seat == dealer:
            _text(image, y + 4, 11, "D", _YELLOW)
        for k, card in enumerate(hand):
            _tile(image, y, label + k * (_TILE_W + _GAP), card, _WHITE if active[seat] else _GREY)
        if seat < len(records):
            _text(image, y + 4, label + cards, records[seat], _WHITE)
    y = _GAP + len(hands) * (_TILE_H + _GAP + 4)
    if isinstance(shown, Card):
        _tile(image, y, label, shown, _YELLOW)
    else:
        _tile(image, y, label, None, _YELLOW)
        _text(image, y + 4, label + (1 if shown == "NT" else 2), shown, _RED if shown in "♥♦" else _BLACK)
    if stock is not None:
        x = label + _TILE_W + _GAP
        _tile(image, y, x, None, _BACK)
        _text(image, y + 4, x + (3 if stock < 10 else 1), str(stock), _WHITE)
    for k, (seat, card) in enumerate(trick):
        x = label + (4 + 2 * k) * (_TILE_W + _GAP)
        _text(image, y + 4, x - 4, str(seat), _WHITE)
        _tile(image, y, x, card)
    return np.repeat(np.repeat(image, _SCALE, axis=0), _SCALE, axis=1)
