"""Exceptions raised by fly_rules.

Every error is a :class:`ValueError`, so generic handlers keep working, and
every one names what was wrong: the offending input, and for a broken rule
the rule ID from ``specs/``.
"""

from __future__ import annotations

__all__ = ["FlyRulesError", "InvalidNotation", "InvalidRules", "RuleViolation"]


_SHOWN = 200
"""The most characters of an input, or of a detail, that a message shows (the attributes keep all)."""


def shorten(text: str) -> str:
    """``text``, or its start and end around ``…`` if it is longer than a message should show.

    >>> shorten("x" * 1000) == "x" * 180 + "…" + "x" * 19
    True
    """
    return text if len(text) <= _SHOWN else text[: _SHOWN - 20] + "…" + text[-19:]


_LARGE = 10**100
"""Ints from here on (in size) are named by their size in a message: no format carries them [REC-1.5]."""


def shown(value: object) -> str:
    """``repr(value)`` for a message, shortened; an int of more than 100 digits is named by its size, so that
    no message is built from a number Python refuses to print (past 4,300 digits) [REC-1.5].

    >>> shown("yes"), shown(10**5000), shown([1] * 1000) == shorten(repr([1] * 1000))
    ("'yes'", 'a number of more than 100 digits', True)
    """
    if type(value) is int and not -_LARGE < value < _LARGE:
        return "a number of more than 100 digits"
    try:
        return shorten(repr(value))
    except ValueError:  # a container holding such a number
        return f"a {type(value).__name__} holding a number of more than 4,300 digits"


class FlyRulesError(ValueError):
    """Base class of every error this library raises on purpose."""


class RuleViolation(FlyRulesError):
    """An action that the rules forbid.

    ``str(error)`` is the rule ID, a colon, then what was wrong in lower case,
    with the offending value in its ``repr`` form.

    Attributes:
        rule: the rule ID the action breaks, as defined in ``specs/``.
        detail: what was wrong, in lower case, without the rule ID.
        offending: the action or value that was refused (or ``None``).
    """

    rule: str
    detail: str
    offending: object

    def __init__(self, rule: str, detail: str, offending: object = None) -> None:
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail
        self.offending = offending

    def __reduce__(self) -> tuple[type[RuleViolation], tuple[str, str, object]]:
        return (type(self), (self.rule, self.detail, self.offending))


class InvalidNotation(FlyRulesError):
    """Text that is not valid notation (a card, card list, position or history).

    Attributes:
        text: the input exactly as given.
        detail: why it was refused.
    """

    text: str
    detail: str

    def __init__(self, text: str, detail: str) -> None:
        super().__init__(f"invalid notation {shorten(text)!r}: {shorten(detail)}")
        self.text = text
        self.detail = detail

    def __reduce__(self) -> tuple[type[InvalidNotation], tuple[str, str]]:
        return (type(self), (self.text, self.detail))


class InvalidRules(FlyRulesError):
    """A rules-options object whose values are out of range or inconsistent.

    Attributes:
        option: the option (field name) at fault.
        detail: why the value was refused.
    """

    option: str
    detail: str

    def __init__(self, option: str, detail: str) -> None:
        super().__init__(f"invalid rules option {option}: {shorten(detail)}")
        self.option = option
        self.detail = detail

    def __reduce__(self) -> tuple[type[InvalidRules], tuple[str, str]]:
        return (type(self), (self.option, self.detail))
