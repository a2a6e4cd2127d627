"""The reference answers of the conformance kit: what this engine says to each request of the line
protocol (``specs/conformance/README.md``), as plain JSON data.

A request names the game, its rules (``{"players": 4, "preset": "mouche_1718", "ace_rank": ...}``:
the preset and the options that differ from it, plain data as a history writes them, REC-2.3), and
what to do: ``legal`` (the legal actions after a position and moves), ``apply`` (the state after
them), ``deal`` (the hands dealt from a given pack), ``purchase`` (a Dreyfus purchase entry),
``perft`` and ``divide`` (counts of action sequences, :mod:`.perft`) or ``hello``.

>>> answer({"cmd": "legal", "game": "fly", "rules": {"players": 3},
...         "position": "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1",
...         "moves": ["stand", "stand", "stand", "play 9H"]})
{'legal': ['play 9C', 'play TC', 'play JC', 'play 7S', 'play 8S']}
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from typing import Any, Final

from fly_rules import dreyfus, registry
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import Card, CardSet
from fly_rules.conformance.perft import Budget, OverBudget, divide, perft
from fly_rules.engine import MatchBase, Phase, match_stops, shuffled
from fly_rules.errors import FlyRulesError, InvalidNotation, InvalidRules, RuleViolation, shown
from fly_rules.notation import dump_history, load_history, parse_position, position_of
from fly_rules.notation.games import (
    Deal,
    Rules,
    action_text,
    make_rules,
    new_deal,
    options_of,
    parse_action,
)
from fly_rules.notation.history import InvalidHistory
from fly_rules.spec import RULE_ID

__all__ = [
    "COMMANDS",
    "GAMES",
    "KINDS",
    "LIMITS",
    "PROTOCOL",
    "ProtocolError",
    "RefusedRules",
    "action_key",
    "answer",
    "hello",
    "legal_texts",
    "replay",
    "rules_of",
    "sort_actions",
]

GAMES: Final = ("fly", "dreyfus")
"""The games the kit covers."""
PROTOCOL: Final = 2
"""The version of the line protocol this module speaks."""

COMMANDS: Final = (
    "hello",
    "legal",
    "apply",
    "deal",
    "shuffle",
    "settle",
    "purchase",
    "history",
    "perft",
    "divide",
)
"""The commands of the line protocol."""

LIMITS: Final = Budget(nodes=10_000_000, seconds=60.0)
"""What one ``perft`` or ``divide`` request may cost this engine by default: ten million positions
visited, one minute (``fly-rules engine --max-nodes --max-seconds``)."""

KINDS: Final = ("play", "deal", "shuffle", "settle", "purchase", "history")
"""The kinds of case (``specs/conformance/README.md``)."""

_KINDS: Final = {Stand: 0, Fold: 1, Exchange: 3, Play: 4}
"""The rank of each shared action in the kit's order; a game's own action on one card (Fly's
swap-trump) comes between fold and exchange."""


class ProtocolError(ValueError):
    """A request this protocol cannot answer: malformed, or naming an unknown command, game or option."""


class RefusedRules(ProtocolError):
    """Rules that a rule of the spec refuses (``rule``), such as a deck of 40 cards (CARD-2.5)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


def rules_of(game: str, spec: Mapping[str, Any]) -> Rules:
    """The rules a request's ``rules`` object names: ``players`` (Fly), ``preset``, then the options.

    Raises:
        ProtocolError: for an unknown game, preset or option, or a value the rules refuse.
    """
    if game not in GAMES:
        raise ProtocolError(f"unknown game {game!r} (known: fly, dreyfus)")
    if not isinstance(spec, Mapping):
        raise ProtocolError(f"rules must be an object, not {spec!r}")
    options = dict(spec)
    players = options.pop("players", None)
    preset = options.pop("preset", "default")
    try:
        return make_rules(game, players=players, preset=preset, **options)
    except (FlyRulesError, TypeError, ValueError) as error:
        found = RULE_ID.search(str(error))
        if found and isinstance(error, InvalidRules):
            raise RefusedRules(f"rules {dict(spec)!r}: {error}", found.group(0)) from None
        raise ProtocolError(f"rules {dict(spec)!r}: {error}") from None


def action_key(action: object) -> tuple[int, int, tuple[int, ...]]:
    """The order the kit lists actions in: stand, fold, swap-trump, exchange, play; then by the
    number of cards; then by the cards' canonical indices (CARD-4.1), compared in turn."""
    if isinstance(action, Exchange):
        cards: tuple[int, ...] = tuple(card.index for card in action.cards)
    elif isinstance(action, Stand | Fold):
        cards = ()
    else:
        cards = (action.card.index,)  # type: ignore[attr-defined]  # a play, or a game's own action on one card
    return _KINDS.get(type(action), 2), len(cards), cards


def sort_actions(texts: Sequence[str]) -> list[str]:
    """Action texts (REC-3.2) in the kit's order, each rewritten in its canonical text.

    Raises:
        InvalidNotation: for a text that is not an action.
    """
    return [action_text(action) for action in sorted((parse_action(t) for t in texts), key=action_key)]


def legal_texts(state: Any) -> list[str]:
    """The legal actions of ``state`` as texts, in the kit's order."""
    return [action_text(action) for action in sorted(state.legal_actions(), key=action_key)]


def _refused(rule: str, at: int) -> dict[str, Any]:
    return {"refused": {"rule": rule, "at": at}}


def _rule_in(error: InvalidNotation) -> str:
    """The rule a refused position breaks: the ID its detail starts with, else the notation's REC-5.2."""
    found = RULE_ID.search(error.detail)
    return found.group(0) if found else "REC-5.2"


def replay(request: Mapping[str, Any]) -> tuple[Deal, list[int]] | dict[str, Any]:
    """The deal after the request's position and moves, and the seat that won each completed trick;
    or the refusal ``{"refused": {"rule": ..., "at": i}}`` (``at`` -1: the position itself).

    Raises:
        ProtocolError: for a malformed request, a position whose options are not the request's rules,
            or an unreadable move.
    """
    game = request.get("game")
    rules = rules_of(str(game), request.get("rules", {}))
    position, moves = request.get("position"), request.get("moves", [])
    if not isinstance(position, str) or not isinstance(moves, list):
        raise ProtocolError("a request gives the position as text and the moves as a list of texts")
    try:
        deal: Any = parse_position(position)
    except InvalidNotation as error:
        return _refused(_rule_in(error), -1)
    if deal.game != game or options_of(deal.rules) != options_of(rules) or deal.players != rules.players:
        raise ProtocolError(f"the position's game and options are not those of the rules {request.get('rules')!r}")
    winners: list[int] = []
    for at, text in enumerate(moves):
        try:
            action = parse_action(str(text))
        except InvalidNotation as error:
            raise ProtocolError(str(error)) from None
        before = deal.tricks_taken
        try:
            deal = deal.apply(action)
        except RuleViolation as error:
            return _refused(error.rule, at)
        for seat, (old, new) in enumerate(zip(before, deal.tricks_taken, strict=True)):
            winners += [seat] * (new - old)
    return deal, winners


def _cards(cards: Sequence[Card] | CardSet) -> str:
    return " ".join(str(card) for card in cards)


def _state(deal: Any, winners: list[int]) -> dict[str, Any]:
    """The state the kit compares after the moves [REC-5.1]."""
    state: dict[str, Any] = {
        "turn": deal.to_move,
        "phase": deal.phase.value,
        "tricks_taken": list(deal.tricks_taken),
        "trick_winners": winners,
        "trick": [[seat, str(card)] for seat, card in deal.trick],
        "winner": deal.winner,
        "hands": [_cards(hand) for hand in deal.hands],
    }
    state |= _part(deal.game, "state")(deal)
    if deal.phase is Phase.OVER:
        over = match_stops(deal.rules, deal.winner, deal.deal_number + 1)
        state["match"] = {"over": over, **_part(deal.game, "match_after")(deal, over)}
    return state


def _part(game: str, name: str) -> Any:
    """``name`` of the game's part of the kit (the ``conformance`` module of its descriptor)."""
    part = registry.get(game).conformance
    if part is None:
        raise ProtocolError(f"the conformance kit does not cover {game!r}")
    return part.part(name)


def _deal(request: Mapping[str, Any]) -> dict[str, Any]:
    """The hands, turn-up and stock (Fly) or talon and contract (Dreyfus) dealt from a pack [FLY-3.1] [DRF-2.2]."""
    game = str(request.get("game"))
    try:
        rules: Any = rules_of(game, request.get("rules", {}))
    except RefusedRules as error:
        return _refused(error.rule, -1)
    dealer = request.get("dealer")
    try:
        pack = CardSet.parse(str(request.get("pack")))
        order = [Card.parse(text) for text in str(request.get("pack")).split()]
    except InvalidNotation as error:
        raise ProtocolError(str(error)) from None
    number = request.get("deal_number", 0)
    if type(number) is not int or number < 0:
        raise ProtocolError(f"deal_number must be a whole number >= 0, not {number!r}")
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        return _refused(_part(game, "SEAT_RULE"), -1)
    dealt: dict[str, Any] = _part(game, "deal")(rules, order, pack, dealer, number)
    return dealt


def _history(request: Mapping[str, Any]) -> dict[str, Any]:
    """The state at the end of a history that starts from an explicit deal [REC-1.1] [REC-2.4] and whether the
    text is canonical [REC-4.2]; or the rule it breaks and the field where [REC-4.3]."""
    text = request.get("text")
    if not isinstance(text, str):
        raise ProtocolError("history takes the history's TOML text")
    try:
        deal: Any = load_history(text)
    except InvalidHistory as error:
        return {"refused": {"rule": error.rule, "at": -1, "field": error.field}}
    if deal.game != request.get("game") or options_of(deal.rules) != options_of(rules_of(deal.game, request["rules"])):
        raise ProtocolError("the history's game and options are not those of the request's rules")
    if isinstance(deal, MatchBase):
        raise ProtocolError("the kit's histories start from an explicit deal (REC-2.4), not from a seed")
    fields = tomllib.loads(text)["start"]
    start = new_deal(deal.rules, **fields)
    replayed = replay({**request, "position": position_of(start), "moves": [action_text(a) for a in deal.actions]})
    assert not isinstance(replayed, dict)  # the history replayed, so its moves do
    return {"state": _state(*replayed), "canonical": dump_history(deal, start=fields) == text}


def _shuffle(request: Mapping[str, Any]) -> dict[str, Any]:
    """The pack a match with ``seed`` shuffles for deal ``deal_number`` and its first dealer drawn by lot
    [FLY-2.1] [DRF-2.1] [REC-2.2]: the engine's own functions, for an engine that replays our matches."""
    game = str(request.get("game"))
    rules: Any = rules_of(game, request.get("rules", {}))
    seed, number = request.get("seed"), request.get("deal_number", 0)
    if isinstance(seed, bool) or not isinstance(seed, int | str) or type(number) is not int or number < 0:
        raise ProtocolError("shuffle takes a seed (a whole number or text) and a deal_number >= 0")
    first = _part(game, "draw_first_dealer")(rules, seed)
    return {"pack": _cards(shuffled(_part(game, "deck")(rules), seed, number)), "first_dealer": first}


def _settle(request: Mapping[str, Any]) -> dict[str, Any]:
    """What each Dreyfus player receives (+) or pays (-) at the end of a match [DRF-9.1] [DRF-9.2]."""
    rules: Any = rules_of(str(request.get("game")), request.get("rules", {}))
    upper, lower, winner = request.get("upper"), request.get("lower"), request.get("winner")
    triples = [upper, lower]
    if not all(isinstance(t, list) and len(t) == 3 and all(type(v) is int for v in t) for t in triples) or (
        winner is not None and winner not in (0, 1, 2)
    ):
        raise ProtocolError("settle takes upper and lower (three whole numbers each) and winner (a seat or null)")
    # upper and lower: three ints each, checked above (the JSON's lists are typed as lists of anything)
    return {"settlement": list(dreyfus.settle(rules, tuple(upper), tuple(lower), winner))}  # type: ignore[arg-type]


def _purchase(request: Mapping[str, Any]) -> dict[str, Any]:
    """What a Dreyfus player writes above for a purchase, recorded in time or late [DRF-4.5] [DRF-10.2]."""
    rules: Any = rules_of(str(request.get("game")), request.get("rules", {}))
    bought, recorded = request.get("bought"), request.get("recorded_before_lead")
    if type(bought) is not int or not 0 <= bought <= 12 or type(recorded) is not bool:
        raise ProtocolError("purchase takes bought (0 to 12) and recorded_before_lead (true or false)")
    return {"upper": dreyfus.purchase_record(rules, bought, recorded)}


def hello() -> dict[str, Any]:
    """This engine's ``hello``: its name and version, the protocol, and what it implements: every game,
    kind of case and command (with no ``options`` list: every option)."""
    from fly_rules import __version__  # noqa: PLC0415 - the package imports the kit only on demand

    return {
        "engine": "fly_rules",
        "version": __version__,
        "protocol": PROTOCOL,
        "games": list(GAMES),
        "kinds": list(KINDS),
        "commands": [command for command in COMMANDS if command != "hello"],
    }


_SIMPLE: Final = {"deal": _deal, "purchase": _purchase, "history": _history, "shuffle": _shuffle, "settle": _settle}


def answer(request: Mapping[str, Any], limits: Budget = LIMITS) -> dict[str, Any]:
    """This engine's answer to one request of the line protocol; a ``perft`` or ``divide`` costs at most
    ``limits`` (and at most the request's own ``max_nodes``).

    Raises:
        ProtocolError: for a request it cannot answer, or a count over its budget.
    """
    if not isinstance(request, Mapping):
        raise ProtocolError("a request is a JSON object")
    command = request.get("cmd")
    if command == "hello":
        return hello()
    if command in _SIMPLE:
        return _SIMPLE[command](request)
    if command not in ("legal", "apply", "perft", "divide"):
        raise ProtocolError(f"unknown command {shown(command)} (known: {', '.join(COMMANDS)})")
    try:
        replayed = replay(request)
    except RefusedRules as error:
        return _refused(error.rule, -1)
    if isinstance(replayed, dict):
        return replayed
    deal, winners = replayed
    if command == "legal":
        return {"legal": legal_texts(deal)}
    if command == "apply":
        return {"state": _state(deal, winners)}
    depth, nodes = request.get("depth"), request.get("max_nodes")
    if type(depth) is not int or not 1 <= depth <= 64:
        raise ProtocolError(f"depth must be a whole number 1 to 64, not {shown(depth)}")
    if nodes is not None and (type(nodes) is not int or nodes < 1):
        raise ProtocolError(f"max_nodes must be a whole number >= 1, not {shown(nodes)}")
    budget = limits.tighter(nodes)
    try:
        if command == "perft":
            return {"perft": perft(deal, depth, budget)}
        return {"divide": divide(deal, depth, budget)}
    except OverBudget as error:
        raise ProtocolError(f"{command} to depth {depth}: {error}") from None
