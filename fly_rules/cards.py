"""Suits, ranks, cards, rank orders, card sets and decks [CARD-1.1].

Nothing here knows any game. A card has a fixed *index* ``suit * 13 + rank - 2``
(0 = 2♣ … 51 = A♠) and a bit ``1 << index``; a :class:`CardSet` is an
immutable int bitmask over those bits, so set algebra is integer arithmetic.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(CardSet.parse("AS 7c qd"))
'7C QD AS'
>>> len(DECK_36), DECK_36.lowest().rank
(36, <Rank.SIX: 6>)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Final

import attrs

from fly_rules.errors import InvalidNotation, RuleViolation, shown

__all__ = [
    "ACE_BELOW_JACK",
    "ACE_HIGH",
    "ALL_CARDS",
    "CARD_BITS",
    "DECK_32",
    "DECK_36",
    "DECK_48",
    "DECK_52",
    "EMPTY",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "Rank",
    "RankOrder",
    "Suit",
    "card_field",
    "card_text",
    "deck_of_size",
    "unchecked_card_set",
]


@enum.unique
class Suit(enum.IntEnum):
    """The four suits, in canonical order (clubs lowest) [CARD-1.1]."""

    CLUBS = 0
    """♣, letter ``C``."""
    DIAMONDS = 1
    """♦, letter ``D``."""
    HEARTS = 2
    """♥, letter ``H``."""
    SPADES = 3
    """♠, letter ``S``."""

    @property
    def letter(self) -> str:
        """The ASCII letter used in notation: ``C``, ``D``, ``H`` or ``S`` [CARD-3.1]."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol: ``♣``, ``♦``, ``♥`` or ``♠`` [CARD-3.1]."""
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter, symbol or English name, any case [CARD-3.1].

        >>> Suit.parse("h"), Suit.parse("♠"), Suit.parse("Clubs")
        (<Suit.HEARTS: 2>, <Suit.SPADES: 3>, <Suit.CLUBS: 0>)
        """
        suit = _SUIT_WORDS.get(text.strip().lower()) if isinstance(text, str) else None
        if suit is None:
            raise InvalidNotation(str(text), "not a suit (expected C, D, H, S, ♣, ♦, ♥, ♠ or a name)")
        return suit

    def __str__(self) -> str:
        return self.symbol


@enum.unique
class Rank(enum.IntEnum):
    """The thirteen ranks; the value is the rank's number, ace 14 [CARD-1.2]."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The one-character notation: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` [CARD-3.1]."""
        return _RANK_LETTERS[self - 2]

    @property
    def label(self) -> str:
        """How people write the rank: ``10`` for the ten, else :attr:`letter` [CARD-3.1]."""
        return "10" if self is Rank.TEN else self.letter

    def __str__(self) -> str:
        return self.label


_RANK_LETTERS: Final = "23456789TJQKA"
_SUIT_WORDS: Final[dict[str, Suit]] = {}
for _suit in Suit:
    _SUIT_WORDS[_suit.letter.lower()] = _suit
    _SUIT_WORDS[_suit.symbol] = _suit
    _SUIT_WORDS[_suit.name.lower()] = _suit
_SUIT_WORDS.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})
# ASCII: without it IGNORECASE lets the Kelvin sign pass for K and the long s for S [CARD-3.1].
_CARD_RE: Final = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE | re.ASCII)


@attrs.frozen(eq=False, order=False, repr=False)
class Card:
    """One playing card [CARD-1.1].

    Cards compare equal by rank and suit and sort in canonical order (suit
    first, clubs lowest; within a suit by rank, ace high) [CARD-4.1]. For a
    game's own rank order use :meth:`RankOrder.key`.

    >>> Card(Rank.ACE, Suit.SPADES) == Card.parse("A♠")
    True
    >>> sorted([Card.parse("2S"), Card.parse("AH")])
    [Card.parse('AH'), Card.parse('2S')]
    """

    rank: Rank = attrs.field(validator=attrs.validators.instance_of(Rank))
    """The card's rank."""
    suit: Suit = attrs.field(validator=attrs.validators.instance_of(Suit))
    """The card's suit."""
    index: int = attrs.field(init=False)
    """Position 0..51 in the canonical order; the card's bit is ``1 << index``."""

    @index.default
    def _index(self) -> int:
        return self.suit * 13 + self.rank - 2

    @property
    def bit(self) -> int:
        """The single-bit mask of this card in a :class:`CardSet`."""
        return 1 << self.index

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at ``index`` (0 = 2♣ … 51 = A♠) [CARD-4.1]."""
        if type(index) is not int or not 0 <= index < 52:
            raise RuleViolation("CARD-4.1", f"a card index is 0..51, not {shown(index)}", index)
        return ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: rank then suit, any case, ``10`` or ``T`` for ten [CARD-3.1].

        Accepted: ``AS``, ``A♠``, ``10H``, ``TH``, ``7c``, ``qd``.

        >>> Card.parse("qd"), Card.parse("10♥")
        (Card.parse('QD'), Card.parse('TH'))
        >>> Card.parse("1S")
        Traceback (most recent call last):
        ...
        fly_rules.errors.InvalidNotation: invalid notation '1S': not a card ...
        """
        if not isinstance(text, str):
            raise InvalidNotation(shown(text), "a card must be given as text")
        match = _CARD_RE.fullmatch(text.strip())
        if match is None:
            raise InvalidNotation(
                text, "not a card (expected a rank 2-10, T, J, Q, K, A and a suit C, D, H, S or ♣♦♥♠)"
            )
        rank_text, suit_text = match.groups()
        rank = Rank.TEN if rank_text == "10" else Rank(_RANK_LETTERS.index(rank_text.upper()) + 2)
        return ALL_CARDS[_SUIT_WORDS[suit_text.lower()] * 13 + rank - 2]

    @property
    def symbol(self) -> str:
        """The card for people: ``10♥``, ``A♠`` [CARD-3.1]."""
        return self.rank.label + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The card's picture, which Jupyter shows for it (:func:`fly_rules.svg.card`)."""
        from fly_rules.svg import card  # noqa: PLC0415 - svg imports cards

        return card(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented


ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card(Rank(i % 13 + 2), Suit(i // 13)) for i in range(52))
"""The 52 cards in canonical order [CARD-4.1]; ``ALL_CARDS[card.index] == card``."""

SUIT_MASKS: Final[tuple[int, int, int, int]] = (
    0x1FFF,
    0x1FFF << 13,
    0x1FFF << 26,
    0x1FFF << 39,
)
"""The bitmask of all 13 cards of each suit, indexed by :class:`Suit`."""

CARD_BITS: Final[tuple[int, ...]] = tuple(1 << index for index in range(52))
"""``CARD_BITS[i]`` is ``1 << i``, the mask of the card at index ``i``: ``sum(map(CARD_BITS.__getitem__, indices))``
is the mask of distinct cards in one C-level call."""

_FULL_MASK: Final = (1 << 52) - 1


def _rank_tuple(ranks: Iterable[Rank]) -> tuple[Rank, ...]:
    return tuple(ranks)


@attrs.frozen(repr=False)
class RankOrder:
    """An order of the ranks within a suit, weakest first [CARD-1.3].

    >>> ACE_HIGH.beats(Card.parse("AH"), Card.parse("KH"))
    True
    >>> ACE_BELOW_JACK.beats(Card.parse("AH"), Card.parse("JH"))
    False
    """

    name: str = attrs.field(validator=attrs.validators.instance_of(str))
    """A short name, as used in rules options (``"ace_high"``)."""
    ranks: tuple[Rank, ...] = attrs.field(converter=_rank_tuple)
    """The ranks from weakest to strongest; every rank exactly once."""
    strength: tuple[int, ...] = attrs.field(init=False, eq=False)
    """``strength[rank]`` is the rank's place in :attr:`ranks` (0 weakest)."""

    @ranks.validator
    def _check_ranks(self, _attribute: object, value: tuple[Rank, ...]) -> None:
        if sorted(value) != list(Rank):
            raise RuleViolation("CARD-1.3", "a rank order must list each of the 13 ranks exactly once", value)

    @strength.default
    def _strength(self) -> tuple[int, ...]:
        table = [0] * 15
        for place, rank in enumerate(self.ranks):
            table[rank] = place
        return tuple(table)

    def key(self, card: Card) -> tuple[int, int]:
        """Sort key: suit, then rank in this order [CARD-1.3]."""
        return (card.suit, self.strength[card.rank])

    def beats(self, card: Card, other: Card) -> bool:
        """Whether ``card`` outranks ``other``; cards of different suits never do [CARD-1.3]."""
        return card.suit == other.suit and self.strength[card.rank] > self.strength[other.rank]

    def __repr__(self) -> str:
        return f"RankOrder({self.name!r}, {''.join(r.letter for r in self.ranks)!r})"


ACE_HIGH: Final = RankOrder("ace_high", tuple(Rank))
"""2 3 4 5 6 7 8 9 10 J Q K A: the ace is the highest card of its suit [CARD-1.3]."""
_ACE_BELOW_JACK_RANKS: Final[tuple[Rank, ...]] = (*tuple(Rank)[:9], Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)
ACE_BELOW_JACK: Final = RankOrder("ace_below_jack", _ACE_BELOW_JACK_RANKS)
"""2 … 10 A J Q K: the king is highest and the ace sits between ten and jack [CARD-1.3]."""


def _by_strength(order: RankOrder) -> Callable[[Card], tuple[int, int]]:
    """The sort key of cards by strength under ``order``, ties by suit (a module-level closure: mypyc compiles
    none inside an attrs class's method)."""
    strength = order.strength
    return lambda card: (strength[card.rank], card.suit)


def _validate_mask(_instance: object, _attribute: object, value: int) -> None:
    if type(value) is not int or not 0 <= value <= _FULL_MASK:
        raise RuleViolation("CARD-4.1", f"a card-set mask must be an int in 0..2**52-1, not {shown(value)}", value)


@attrs.frozen(repr=False)
class CardSet:
    """An immutable set of cards backed by an int bitmask [CARD-4.1].

    Iteration is in canonical order (suit, then rank ace high). Set algebra
    (``|``, ``&``, ``-``, ``^``, ``<=``) works as for :class:`frozenset`.

    >>> hand = CardSet.parse("AS KH 7C 8D 9S")
    >>> Card.parse("AS") in hand, len(hand)
    (True, 5)
    >>> str(hand.of_suit(Suit.SPADES))
    '9S AS'
    >>> hand.highest(suit=Suit.SPADES)
    Card.parse('AS')
    """

    mask: int = attrs.field(default=0, validator=_validate_mask)
    """Bit ``card.index`` is set for each card in the set."""

    @classmethod
    def of(cls, cards: Iterable[Card | str]) -> CardSet:
        """The set of the given cards (or card notations); duplicates collapse.

        >>> CardSet.of(["AS", Card.parse("2C")])
        CardSet.parse('2C AS')
        """
        mask = 0
        for card in cards:
            mask |= (Card.parse(card) if isinstance(card, str) else _as_card(card)).bit
        return cls(mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read cards separated by spaces or commas; a repeated card is an error [CARD-3.2].

        >>> CardSet.parse("")
        CardSet.parse('')
        >>> CardSet.parse("AS as")
        Traceback (most recent call last):
        ...
        fly_rules.errors.InvalidNotation: invalid notation 'AS as': card AS is listed twice
        """
        mask = 0
        for token in _split_cards(text):
            card = Card.parse(token)
            if mask & card.bit:
                raise InvalidNotation(text, f"card {card} is listed twice")
            mask |= card.bit
        return cls(mask)

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield ALL_CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __or__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.mask & ~other.mask == 0

    def __lt__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.mask != other.mask and self.mask & ~other.mask == 0

    def __ge__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return other.mask & ~self.mask == 0

    def __gt__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.mask != other.mask and other.mask & ~self.mask == 0

    def isdisjoint(self, other: CardSet) -> bool:
        """Whether the two sets share no card."""
        return self.mask & other.mask == 0

    def add(self, card: Card) -> CardSet:
        """This set with ``card`` added."""
        return CardSet(self.mask | _as_card(card).bit)

    def remove(self, card: Card) -> CardSet:
        """This set without ``card``; a :class:`KeyError` if it is not in the set."""
        bit = _as_card(card).bit
        if not self.mask & bit:
            raise KeyError(card)
        return CardSet(self.mask ^ bit)

    def discard(self, card: Card) -> CardSet:
        """This set without ``card``, whether or not it was in the set."""
        return CardSet(self.mask & ~_as_card(card).bit)

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one suit [CARD-1.1]."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def suits(self) -> frozenset[Suit]:
        """The suits present in the set."""
        return frozenset(suit for suit in Suit if self.mask & SUIT_MASKS[suit])

    def filter(self, predicate: object) -> CardSet:
        """The cards for which ``predicate(card)`` is true."""
        if not callable(predicate):
            raise TypeError("filter needs a callable predicate")
        return CardSet.of(card for card in self if predicate(card))

    def highest(self, order: RankOrder = ACE_HIGH, suit: Suit | None = None) -> Card | None:
        """The highest card under ``order`` (of ``suit`` if given; ties by suit), or None [CARD-1.3]."""
        cards = self if suit is None else self.of_suit(suit)
        return max(cards, key=_by_strength(order), default=None)

    def lowest(self, order: RankOrder = ACE_HIGH, suit: Suit | None = None) -> Card | None:
        """The lowest card under ``order`` (of ``suit`` if given; ties by suit), or None [CARD-1.3]."""
        cards = self if suit is None else self.of_suit(suit)
        return min(cards, key=_by_strength(order), default=None)

    def sorted(self, order: RankOrder = ACE_HIGH) -> tuple[Card, ...]:
        """The cards sorted by suit, then by rank under ``order`` [CARD-1.3]."""
        return tuple(sorted(self, key=order.key))

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The cards side by side, which Jupyter shows for the set (:func:`fly_rules.svg.hand`)."""
        from fly_rules.svg import hand  # noqa: PLC0415 - svg imports cards

        return hand(self)


def unchecked_card_set(mask: int) -> CardSet:
    """``CardSet(mask)`` without the range check, for a mask already known to hold only cards (taken from a
    hand): the engines build one for each exchange a player takes, on the hot path of random play.

    >>> unchecked_card_set(CardSet.parse("AS KH").mask) == CardSet.parse("AS KH")
    True
    """
    cards = _new_object(CardSet)
    _set_mask(cards, mask)  # as the class's own __init__ stores it, without the validator
    return cards


_new_object = object.__new__
_set_mask: Callable[[CardSet, int], None] = CardSet.__dict__["mask"].__set__


def card_text(cards: Iterable[Card]) -> str:
    """Cards as a position's field writes them (REC-5.1): two characters each (CARD-3.1), in the order given,
    without separators; ``-`` for none.

    >>> card_text(CardSet.parse("AS 10h")), card_text([])
    ('THAS', '-')
    """
    return "".join(str(card) for card in cards) or "-"


def card_field(text: str, field: str, line: str) -> list[Card]:
    """The cards of a position's field ``field``, written as ``text`` by :func:`card_text`, in order; ``line``
    is the whole line, for the error [REC-5.1].

    Raises:
        InvalidNotation: naming the field, for text that is not two characters a card.

    >>> card_field("ASKH", "stock", "…"), card_field("-", "stock", "…")
    ([Card.parse('AS'), Card.parse('KH')], [])
    """
    if text == "-":
        return []
    if len(text) % 2:
        raise InvalidNotation(line, f"{field}: cards are two characters each, {text!r} is not")
    return [Card.parse(text[i : i + 2]) for i in range(0, len(text), 2)]


def _as_card(card: object) -> Card:
    if not isinstance(card, Card):
        raise TypeError(f"expected a Card, got {shown(card)}")
    return card


def _split_cards(text: str) -> list[str]:
    if not isinstance(text, str):
        raise InvalidNotation(shown(text), "cards must be given as text")
    return text.replace(",", " ").split()


EMPTY: Final = CardSet(0)
"""The empty card set."""


# The decks are built by expressions, not by a function, since a function run only at import is a
# mutant no test can reach; the tests of CARD-2.1 to CARD-2.4 check them card by card.
DECK_52: Final = CardSet(sum(card.bit for card in ALL_CARDS if card.rank >= Rank.TWO))
"""The full pack of 52 cards, 2..A in each suit [CARD-2.1]."""
DECK_48: Final = CardSet(sum(card.bit for card in ALL_CARDS if card.rank >= Rank.THREE))
"""48 cards: the full pack without the four twos [CARD-2.2]."""
DECK_36: Final = CardSet(sum(card.bit for card in ALL_CARDS if card.rank >= Rank.SIX))
"""36 cards: 6..A in each suit [CARD-2.3]."""
DECK_32: Final = CardSet(sum(card.bit for card in ALL_CARDS if card.rank >= Rank.SEVEN))
"""32 cards: 7..A in each suit [CARD-2.4]."""

_DECKS: Final[dict[int, CardSet]] = {52: DECK_52, 48: DECK_48, 36: DECK_36, 32: DECK_32}


def deck_of_size(size: int) -> CardSet:
    """The standard deck with ``size`` cards: 32, 36, 48 or 52 [CARD-2.5].

    >>> deck_of_size(32) == DECK_32
    True
    >>> deck_of_size(40)
    Traceback (most recent call last):
    ...
    fly_rules.errors.RuleViolation: CARD-2.5: no standard deck has 40 cards (expected 32, 36, 48 or 52)
    """
    deck = _DECKS.get(size) if type(size) is int else None
    if deck is None:
        raise RuleViolation("CARD-2.5", f"no standard deck has {shown(size)} cards (expected 32, 36, 48 or 52)", size)
    return deck
