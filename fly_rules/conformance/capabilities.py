"""What an engine implements, as its ``hello`` declares it (``specs/conformance/README.md``): the games,
kinds of case, optional commands and options. The runner skips the rest of the kit, never fails it.

>>> caps = Capabilities.of({"engine": "mine", "protocol": 2, "games": ["fly"], "kinds": ["play"]})
>>> caps.missing("dreyfus", "play", {})
"game dreyfus: not in the engine's games"
>>> caps.missing("fly", "play", {"players": 4, "ace_rank": "below_jack"}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from fly_rules.conformance.answers import GAMES, KINDS
from fly_rules.conformance.wire import echo

__all__ = ["PROTOCOLS", "Capabilities"]

PROTOCOLS: Final = (1, 2)
"""The protocol versions the runner speaks (1: no capabilities, no ``divide``)."""


@attrs.frozen
class Capabilities:
    """What an engine's ``hello`` says it implements; the rest of the kit is skipped."""

    engine: str
    """Its name (and version)."""
    protocol: int
    """The protocol version it speaks."""
    games: frozenset[str]
    """The games it plays."""
    kinds: frozenset[str]
    """The kinds of case it answers."""
    commands: frozenset[str]
    """The optional commands it answers: ``perft``, ``divide``."""
    options: Mapping[str, Mapping[str, frozenset[object] | None]] | None
    """By game, each option (and ``preset``, ``players``) it implements, with its values (None: all); None
    when it implements every option."""

    @classmethod
    def of(cls, hello: Mapping[str, Any]) -> Capabilities:
        """The capabilities a ``hello`` answer declares (protocol 1: every game, kind and option).

        Raises:
            ValueError: the hello speaks no known protocol, or declares its capabilities in another form.
        """
        protocol = hello.get("protocol")
        if type(protocol) is not int or protocol not in PROTOCOLS:
            raise ValueError(f"the engine speaks protocol {echo(protocol)}; the runner speaks 1 and 2")
        name = " ".join(str(hello[key]) for key in ("engine", "version") if isinstance(hello.get(key), str | int))
        if protocol == 1:
            return cls(name or "?", 1, frozenset(GAMES), frozenset(KINDS), frozenset({"perft"}), None)
        games, kinds = _names(hello, "games", GAMES), _names(hello, "kinds", KINDS)
        commands = _names(hello, "commands", ("legal", "apply", "perft", "divide", *KINDS))
        return cls(name or "?", 2, games, kinds, commands & {"perft", "divide"}, _options(hello.get("options")))

    def missing(self, game: str, kind: str, rules: Mapping[str, Any]) -> str | None:
        """Why a case of ``game`` and ``kind`` under ``rules`` is skipped, or None when it is implemented."""
        if game not in self.games:
            return f"game {game}: not in the engine's games"
        if kind != "perft" and kind not in self.kinds:
            return f"kind {kind}: not in the engine's kinds"
        if kind == "perft" and "play" not in self.kinds and "perft" not in self.commands:
            return "perft: the engine answers neither play nor perft"
        if self.options is None:
            return None
        implemented = self.options.get(game, {})
        for name, value in rules.items():
            if name == "players" and name not in implemented:
                continue
            if name not in implemented:
                return f"option {name}: not in the engine's options"
            values = implemented[name]
            if values is not None and _frozen(value) not in values:
                return f"option {name}={echo(value, 40)}: not among the engine's values"
        return None


def _names(hello: Mapping[str, Any], key: str, known: Sequence[str]) -> frozenset[str]:
    value = hello.get(key)
    if value is None:
        return frozenset(known)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"hello's {key} must be a list of names, not {echo(value, 60)}")
    return frozenset(value)


def _frozen(value: object) -> object:
    return tuple(_frozen(item) for item in value) if isinstance(value, list) else value


def _options(value: object) -> dict[str, dict[str, frozenset[object] | None]] | None:
    """hello's ``options``: by game, a list of option names, or an object of names to their values (or true)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError(f"hello's options must be an object by game, not {echo(value, 60)}")
    found: dict[str, dict[str, frozenset[object] | None]] = {}
    for game, names in value.items():
        if isinstance(names, list) and all(isinstance(name, str) for name in names):
            found[game] = dict.fromkeys(names)
        elif isinstance(names, dict) and all(v is True or isinstance(v, list) for v in names.values()):
            found[game] = {k: None if v is True else frozenset(map(_frozen, v)) for k, v in names.items()}
        else:
            raise ValueError(f"hello's options of {echo(game)} must be names, or names to values: {echo(names, 60)}")
    return found
