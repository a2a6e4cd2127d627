"""Deliberate bugs: this engine with one rule implemented wrong, to show that the conformance vectors catch each
one and that the failure names the rule.

Each :class:`Mutant` replaces one function of the engine (in every module of its game that holds it) by a wrong
one for as long as :func:`applied` lasts. The first five are the bugs an independent implementation had when it
was first run against the kit; ``scripts/conformance_vectors.py`` refuses vectors in which a case claiming a
mutant's rule does not fail under it, and ``tests/conformance/engines/mutant.py`` serves the protocol with one
applied, for the runner's tests.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from fly_rules.actions import Exchange
from fly_rules.cards import SUIT_MASKS
from fly_rules.fly import end as fly_end
from fly_rules.fly import exchange as fly_exchange
from fly_rules.fly import play as fly_play
from fly_rules.fly import scoring as fly_scoring
from fly_rules.tricks import playable, trick_winner


@attrs.frozen
class Mutant:
    """One deliberate bug: ``rule`` implemented wrong (``bug`` says how) by replacing ``target``, in every
    module under ``within``, with ``wrong``."""

    name: str
    rule: str
    bug: str
    target: Callable[..., Any]
    wrong: Callable[..., Any]
    within: str


def _plain_playable(hand: int, trick: Any, trump: Any, order: Any, **duties: Any) -> int:
    """Fly's duties with no duty to trump when void in the suit led (FLY-6.4 broken)."""
    if trick and not hand & SUIT_MASKS[trick[0] // 13]:
        return hand
    return playable(hand, trick, trump, order, **duties)


def _no_follow(hand: int, trick: Any, trump: Any, order: Any, **duties: Any) -> int:
    """Any card at any time (the duty to follow suit broken)."""
    return hand


def _ace_of_spades_loses(table: Any, cards: tuple[int, ...]) -> int:
    """The trick's winner by the cards alone: the A♠ never takes a led trump ace (FLY-7.3 broken)."""
    return trick_winner(cards, table.trump, table.order)


_PLAYABLE_MASK = fly_play.playable_mask


def _ace_of_spades_unplayable(table: Any, hand: int, trick: tuple[int, ...]) -> int:
    """The A♠ bound by the ordinary duties on a led trump ace (FLY-7.2 broken)."""
    allowed: int = _PLAYABLE_MASK(table, hand, trick)
    if trick and table.privileged and not table.top_trump and trick[0] == table.trump_ace:
        duties = {"must_head": table.must_head, "trump_duty": table.trump_duty}
        return allowed & playable(hand, trick, table.trump, table.order, **duties)
    return allowed


_FINISH_DEAL = fly_scoring.finish_deal


def _folded_pay_remise(table: Any, score: Any, active: tuple[bool, ...]) -> Any:
    """The end of a deal that charges the remise to folded players too (FLY-8.6 broken)."""
    settled = _FINISH_DEAL(table, score, active)
    records = list(settled.records)
    for seat, playing in enumerate(active):
        if not playing:
            records[seat] += table.rules.remise
    return settled._replace(records=tuple(records))


def _lone_player_highest_first(table: Any, score: Any, active: tuple[bool, ...], hand: int, seat: int) -> Any:
    """The lone player's (or flush holder's) cards credited highest first (FLY-5.5 broken)."""
    while not score.over:
        high = 1 << (hand.bit_length() - 1)
        hand ^= high
        score = fly_scoring.take_trick(table, score, active, seat, ((seat, high.bit_length() - 1),))
    return score, hand


_LEGAL_DECLARATIONS = fly_exchange.legal_declarations


def _ace_of_spades_kept(table: Any, exchanges: Any, hands: tuple[int, ...], seat: int) -> Any:
    """Declarations that never offer an exchange of the A♠ (FLY-4.7 broken)."""
    offered = _LEGAL_DECLARATIONS(table, exchanges, hands, seat)
    return tuple(a for a in offered if not (isinstance(a, Exchange) and a.cards.mask >> 51 & 1))


def _never_at_once(rules: Any, seat: int, record: int) -> tuple[int, ...]:
    """No stop at exactly zero (FLY-9.1 broken)."""
    return ()


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "ace-of-spades-loses",
        "FLY-7.3",
        "the A♠ does not win a led trump ace",
        fly_play.winning_position,
        _ace_of_spades_loses,
        "fly_rules.fly",
    ),
    Mutant(
        "no-trump-duty",
        "FLY-6.4",
        "no duty to trump when void in the suit led",
        playable,
        _plain_playable,
        "fly_rules.fly",
    ),
    Mutant(
        "folded-pay-remise",
        "FLY-8.6",
        "folded players are charged the remise",
        fly_scoring.finish_deal,
        _folded_pay_remise,
        "fly_rules.fly",
    ),
    Mutant(
        "ace-of-spades-unplayable",
        "FLY-7.2",
        "the A♠ may not be played to a led trump ace",
        fly_play.playable_mask,
        _ace_of_spades_unplayable,
        "fly_rules.fly",
    ),
    Mutant(
        "lone-player-highest-first",
        "FLY-5.5",
        "the lone player's cards are credited highest first",
        fly_scoring.award_all_tricks,
        _lone_player_highest_first,
        "fly_rules.fly",
    ),
    Mutant(
        "ace-of-spades-kept",
        "FLY-4.7",
        "the A♠ may never be discarded",
        fly_exchange.legal_declarations,
        _ace_of_spades_kept,
        "fly_rules.fly",
    ),
    Mutant(
        "no-stop-at-zero",
        "FLY-9.1",
        "a record at exactly 0 does not stop the match",
        fly_end.immediate_winners,
        _never_at_once,
        "fly_rules.fly",
    ),
    Mutant("fly-no-follow", "FLY-6.3", "no duty to follow suit", playable, _no_follow, "fly_rules.fly"),
    Mutant("dreyfus-no-follow", "DRF-6.2", "no duty to follow suit", playable, _no_follow, "fly_rules.dreyfus"),
)
"""The deliberate bugs, the five of the outsider's run first."""

FIRST_RUN: tuple[str, ...] = tuple(m.name for m in MUTANTS[:5])
"""The five bugs of the independent implementation's first run."""


def named(name: str) -> Mutant:
    """The mutant called ``name``."""
    return next(m for m in MUTANTS if m.name == name)


@contextlib.contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    """The engine with ``mutant``'s bug while the block runs: every module under its package that holds the
    target holds the wrong function instead."""
    patched = []
    for name, module in list(sys.modules.items()):
        if module is None or not (name == mutant.within or name.startswith(mutant.within + ".")):
            continue
        for attribute, value in list(vars(module).items()):
            if value is mutant.target:
                setattr(module, attribute, mutant.wrong)
                patched.append((module, attribute))
    assert patched, mutant.name
    try:
        yield
    finally:
        for module, attribute in patched:
            setattr(module, attribute, mutant.target)
