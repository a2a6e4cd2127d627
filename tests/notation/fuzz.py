"""Mutated inputs for every text reader: positions and histories taken from real play, cards, card
lists and actions, bent by random edits; used by ``tests/notation/test_fuzz.py`` (through
Hypothesis) and by ``benchmarks/fuzz_inputs.py`` (at scale) [REC-4.3] [REC-1.5].

A reader may accept a mutated text or refuse it with one of the library's errors
(:class:`~fly_rules.errors.FlyRulesError`); anything else is a bug.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import attrs

from fly_rules import dreyfus, fly
from fly_rules.cards import Card, CardSet
from fly_rules.errors import FlyRulesError
from fly_rules.notation.games import parse_action
from fly_rules.notation.history import dump_history, load_history
from fly_rules.notation.position import parse_position, position_of

READERS: Final[dict[str, Callable[[str], object]]] = {
    "card": Card.parse,
    "cards": CardSet.parse,
    "action": parse_action,
    "position": parse_position,
    "history": load_history,
}
"""Each kind of input and the public reader that takes it."""

# Characters that have tripped readers: other scripts' digits, superscripts, case-folding look-alikes
# (Kelvin sign, long s, dotless i), TOML syntax, separators of the notations, control characters.
_ODD: Final[list[str]] = [*"²³¹٣３٠۵߂\u212a\u017f\u0131İ\u00a0\u2028\x00\x0c\t\r\n\"'[]{}=#,.;:/-+_ ", "\\u00e9", "10"]
_WORDS: Final = [
    "0",
    "-1",
    "1",
    "7",
    "9" * 120,
    "9" * 5000,
    "1e9",
    "nan",
    "inf",
    "true",
    "bogus",
    "none",
    "NT",
    "[]",
    "{}",
    '""',
    "[" * 40 + "]" * 40,
    "[" * 5000 + "]" * 5000,
    "trump_duty=bogus",
    "trump_duty = 'bogus'",
    "max_deals = -1",
    "deal_packets=3",
    "revoke_mode=adjudicate",
    "exchange_mode=incremental",
    "[options]",
    "[[deal]]",
    "[start]",
    "[result]",
    "[saved]",
    "a." * 40 + "a = 1",
    "[" + "a." * 40 + "a]",
    "[[" + "a." * 2000 + "a]]",
    "x = {" + "a." * 40 + "a = 1}",
    "options." + "a." * 40 + "a = 1",
]


_LOOK_ALIKES: Final = [
    str.maketrans({"S": "\u017f", "s": "\u017f"}),  # long s, which case-folds to s
    str.maketrans({"K": "\u212a", "k": "\u212a"}),  # Kelvin sign, which case-folds to k
    str.maketrans({"3": "٣", "1": "١"}),  # Arabic-Indic digits, which int() reads
    str.maketrans({"2": "²", "3": "³"}),  # superscripts, which int() refuses but isdigit() accepts
    str.maketrans({"0": "０", "5": "５"}),  # fullwidth digits
]


def _fly_match(rng: random.Random) -> fly.FlyMatch:
    preset = rng.choice(["default", "mouche_1718"])
    rules = fly.FlyRules.preset(preset, players=rng.randint(3, 7), max_deals=rng.randint(1, 4))
    return fly.new_match(rules, seed=rng.randrange(10**6))


def _dreyfus_match(rng: random.Random) -> dreyfus.DreyfusMatch:
    options: dict[str, Any] = {"max_deals": rng.randint(1, 3)}
    if rng.random() < 0.3:
        options["exchange_mode"] = "incremental"
    if rng.random() < 0.3:
        options["revoke_mode"] = "penalize"
    return dreyfus.new_match(dreyfus.DreyfusRules(**options), seed=rng.randrange(10**6))


def corpus(seed: int = 0, matches: int = 12) -> dict[str, list[str]]:
    """Valid inputs of every kind, from matches played at random: positions and histories taken at
    random moments of each (and an explicit deal's), and the cards and actions played."""
    rng = random.Random(seed)
    found: dict[str, list[str]] = {kind: [] for kind in READERS}
    for number in range(matches):
        match: Any = _fly_match(rng) if number % 2 == 0 else _dreyfus_match(rng)
        while True:
            if rng.random() < 0.03 or match.is_over:
                found["history"].append(dump_history(match))
                if not match.is_over:
                    found["position"].append(position_of(match))
            if match.is_over:
                break
            legal = match.legal_actions()
            action = legal[rng.randrange(min(len(legal), 40))]
            match = match.apply(action)
            if rng.random() < 0.1:
                found["action"].append(str(action))
                found["card" if hasattr(action, "card") else "cards"].append(
                    str(getattr(action, "card", getattr(action, "cards", "")))
                )
    hands = ["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"]
    deal = fly.new_deal(fly.FlyRules(players=3), hands=hands, trump_card="8H", stock="7D", dealer=0)
    start = {"hands": hands, "trump_card": "8H", "stock": "7D", "dealer": 0}
    found["history"].append(dump_history(deal.apply(fly.Stand()), start=start))
    found["position"].append(position_of(deal.apply(fly.Stand()), start=deal))
    found["card"] += ["10♥", "a♤", "qd"]
    found["cards"] += ["", "AS, 7c qd"]
    found["action"] += ["stand", "fold", "swap-trump 9H"]
    return found


def mutate(text: str, rng: random.Random, donors: list[str] | None = None) -> str:
    """``text`` after one to four random edits: characters or odd characters put in, spans cut,
    doubled or moved, numbers and words swapped for extreme ones, lines taken from ``donors``. Half
    the edits stay inside one piece (a position's field, a history line's value), so that most
    mutated texts get past the syntax and reach the replay."""
    for _ in range(rng.randint(1, 4)):
        text = _edit_piece(text, rng) if rng.random() < 0.5 else _edit(text, rng, donors)
    return text


def _edit_piece(text: str, rng: random.Random) -> str:
    """One edit inside one space-separated field of a one-line text, or inside the value of one line
    (a quoted string, or what follows ``=``) of a history, keeping its TOML quoting."""
    if "\n" not in text:
        fields = text.split(" ")
        at = rng.randrange(len(fields))
        fields[at] = _edit(fields[at], rng, None).replace(" ", "")
        return " ".join(fields)
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    line = lines[at]
    if line.count('"') >= 2:
        head, _, rest = line.partition('"')
        inner, _, tail = rest.rpartition('"')
        inner = _edit(inner, rng, None)
        if rng.random() < 0.8:  # usually still a valid TOML string
            inner = inner.replace("\\", "").replace('"', "").replace("\n", " ")
        lines[at] = f'{head}"{inner}"{tail}'
    elif "=" in line:
        key, _, value = line.partition("=")
        lines[at] = f"{key}= {_edit(value.strip(), rng, None)}"
    return "\n".join(lines)


def _edit(text: str, rng: random.Random, donors: list[str] | None) -> str:
    """One random edit anywhere in ``text``."""
    size = len(text)
    at = rng.randint(0, size)
    span = rng.randint(0, min(size - at, 1 + rng.randrange(40)))
    kind = rng.randrange(10)
    if kind == 0:
        return text[:at] + rng.choice(_ODD) + text[at:]
    if kind == 1:
        return text[:at] + text[at + max(span, 1) :]
    if kind == 2:
        return text[:at] + text[at : at + span] * 2 + text[at + span :]
    if kind == 3:
        return text[:at] + rng.choice(_WORDS) + text[at + span :]
    if kind == 4 and size:
        i, j = rng.randrange(size), rng.randrange(size)
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        return "".join(chars)
    if kind == 5:
        return text[:at]
    if kind == 6:
        return _swap_number(text, rng)
    if kind == 7:
        return text.translate(rng.choice(_LOOK_ALIKES))
    if kind == 8 and donors:
        lines = text.split("\n")
        donor = rng.choice(donors).split("\n")
        lines.insert(rng.randint(0, len(lines)), rng.choice(donor))
        return "\n".join(lines)
    if rng.random() < 0.5:
        return text.upper()
    return text.replace(" ", rng.choice(["  ", "", "\t", ","]), 1)


def _swap_number(text: str, rng: random.Random) -> str:
    """``text`` with one of its runs of digits replaced by an odd number."""
    starts = [i for i, char in enumerate(text) if char.isdigit() and (i == 0 or not text[i - 1].isdigit())]
    if not starts:
        return text
    start = rng.choice(starts)
    stop = start
    while stop < len(text) and text[stop].isdigit():
        stop += 1
    odd = rng.choice(["0", "-1", "3", "8", "99", "9" * 101, "9" * 4301, "²", "٣", "1_0", "0x1", "+2", "1.5"])
    return text[:start] + odd + text[stop:]


def read(kind: str, text: str) -> FlyRulesError | None:
    """Give ``text`` to the reader of ``kind``: None if it was accepted, the library error if it was
    refused; any other exception propagates."""
    try:
        READERS[kind](text)
    except FlyRulesError as error:
        return error
    return None


ODD_VALUES: Final[list[object]] = [
    None,
    True,
    0,
    -1,
    3,
    7,
    10**200,
    -(10**5000),
    10**5000,
    1.5,
    3.0,
    float("nan"),
    "",
    "x" * 200,
    "9" * 5000,
    "3",
    b"AS",
    [],
    [3, 2],
    [10**5000],
    {},
    {"a": 1},
    ("S", "H"),
    object(),
    Card.parse("AS"),
    fly.Stand(),
]
"""Values of the wrong Python type or size, given where text, an option, a seed, a seat or an action goes."""

CALLS: Final = ("object", "rules", "match", "view", "apply")
"""The kinds of call :func:`call` makes: a text reader given a non-text value, a rules object given an
odd option value, a match given an odd seed or dealer, a view of an odd seat, and ``apply`` of an odd
or mutated action."""


def _options(cls: type) -> list[str]:
    """The keyword arguments of a rules class's constructor."""
    return [field.alias for field in attrs.fields(cls) if field.init]


def call(kind: str, rng: random.Random, actions: list[str]) -> FlyRulesError | TypeError | None:
    """One random call of ``kind`` (one of :data:`CALLS`): None if it was accepted, the library's error
    (or the documented ``TypeError`` for a wrong Python type) if it was refused; anything else propagates."""
    odd = rng.choice(ODD_VALUES)
    game = rng.choice([fly, dreyfus])
    cls: type = fly.FlyRules if game is fly else dreyfus.DreyfusRules
    try:
        if kind == "object":
            READERS[rng.choice(sorted(READERS))](odd)  # type: ignore[arg-type]
        elif kind == "rules":
            cls(**{rng.choice(_options(cls)): odd})
        elif kind == "match":
            game.new_match(cls(), **rng.choice([{"seed": odd}, {"seed": 1, "dealer": odd}]))
        elif kind == "view":
            game.new_match(cls(), seed=rng.randrange(100)).view(odd)
        else:
            match: Any = game.new_match(cls(), seed=rng.randrange(100))
            for _ in range(rng.randrange(30)):
                if match.is_over:
                    break
                legal = match.legal_actions()
                match = match.apply(legal[rng.randrange(len(legal))])
            text = mutate(rng.choice(actions), rng) if rng.random() < 0.5 else None
            match.apply(odd if text is None else _action_or_text(text))
    except (FlyRulesError, TypeError) as error:
        return error
    return None


def _action_or_text(text: str) -> object:
    """The action ``text`` reads as, or the text itself when it reads as none (``apply`` is given it as is)."""
    try:
        return parse_action(text)
    except FlyRulesError:
        return text
