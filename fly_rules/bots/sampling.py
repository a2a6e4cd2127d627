"""Guess the cards a seat cannot see: a whole deal consistent with its view.

:func:`sample_deal` deals the hidden cards at random among the other hands, the discards and the
stock (Fly) or talon (Dreyfus), so that the deal it rebuilds through the public engine (``new_deal``,
then every declaration and card as the view shows them) looks exactly like the view to its seat:
the same hand, declarations, tricks and point of play. What the seat has seen rules cards out: the
cards played and where, the suits a seat has shown void in, the trump card, revealed discards and
talon, and (when given) the seat's own hand as dealt and its exchanges. A guess that the engine
refuses (it breaks a duty nobody could see) is drawn again. Monte-Carlo search (:class:`MonteCarloBot
<fly_rules.bots.MonteCarloBot>`) and OpenSpiel's information-set MCTS
(``CardGameState.resample_from_infostate`` in :mod:`fly_rules.adapters.openspiel`) both use it.

>>> import random
>>> from fly_rules import fly
>>> match = fly.new_match(fly.FlyRules(players=4), seed=3, dealer=0)
>>> view = match.view(2)
>>> guess = sample_deal(view, match.rules, random.Random(1))
>>> guess.deal.view(2).hand == view.hand, guess.deal.hands == match.deal.hands
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from fly_rules import registry
from fly_rules.cards import CardSet
from fly_rules.engine.hidden import Guess, Sample
from fly_rules.engine.protocols import Rules, SeatView
from fly_rules.errors import RuleViolation

__all__ = ["sample_deal"]


def sample_deal(
    view: SeatView,
    rules: Rules,
    rng: random.Random,
    *,
    dealt: CardSet | None = None,
    exchanges: Sequence[tuple[CardSet, CardSet]] | None = None,
    records: Sequence[int] | None = None,
    tries: int = 50,
    forbidden: Sequence[int] | None = None,
    guesser: Callable[[Any, Any], Guess[SeatView, Rules]] | None = None,
) -> Sample | None:
    """A random deal that shows ``view.seat`` exactly ``view``, or None if ``tries`` guesses all fail.

    Args:
        view: what the seat sees (``deal.view(seat)``).
        rules: the rules of the deal.
        rng: all randomness comes from here.
        dealt: the seat's hand as dealt, if known (a view only shows the hand now).
        exchanges: the seat's own exchanges (and Fly swaps) in order, as (cards given, cards received),
            if known; with ``dealt``, the guess keeps the seat's own history as it was.
        records: Fly: the records at the start of the deal; Dreyfus: the upper records then (the lower
            ones are taken as 0). Default: the engine's.
        tries: guesses to draw before giving up.
        forbidden: per seat, a mask of cards the guess may not put in that seat's hand now (what the caller
            has inferred beyond the view, for instance from how it takes the others to play); the seat's own
            entry is ignored.
        guesser: makes the guess from ``(view, rules)``; by default the game's own (its descriptor's
            ``guesser``). A bot that takes the others to play a known way may draw with one that deals them
            cards as that way of play implies (see :class:`fly_rules.fly.expert.FlyExpertHints`).

    Raises:
        ValueError: ``exchanges`` without ``dealt``, or ``forbidden`` not one mask a seat.
        TypeError: ``rules`` are not the rules of ``view``'s game.
    """
    registry.rules_game(rules, registry.game_of(view).name)
    if exchanges is not None and dealt is None:
        raise ValueError("a seat's own exchanges are only of use with its hand as dealt (dealt=)")
    game: Guess[SeatView, Rules] = (guesser or registry.game_of(view).guesser)(view, rules)
    if forbidden is not None:
        if len(forbidden) != game.players:
            raise ValueError(f"forbidden: one mask a seat, {game.players}, not {len(forbidden)}")
        for seat, mask in enumerate(forbidden):
            if seat != view.seat:
                game.forbidden[seat] |= mask
    own = None if dealt is None else (dealt.mask, [(g.mask, r.mask) for g, r in exchanges or ()])
    for _ in range(tries):
        try:
            sample: Sample | None = game.guess(rng, own, records)
        except RuleViolation:
            continue
        if sample is not None:
            return sample
    return None
