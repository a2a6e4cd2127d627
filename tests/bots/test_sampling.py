"""sample_deal: a whole deal consistent with a seat's view, rebuilt through the public engine."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import dreyfus, fly, registry
from fly_rules.bots import RuleOfThumbBot
from fly_rules.bots.sampling import sample_deal
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Sample
from fly_rules.errors import RuleViolation
from fly_rules.strategies import dreyfus_states, fly_states


def without_records(view: Any) -> Any:
    """A view without the match's records and deal number, which the sample does not know."""
    hidden = ("records", "upper", "lower", "winner", "deal_number")
    return attrs.evolve(view, **{name: None for name in hidden if hasattr(view, name)})


def rebuilt(sample: Sample, view: Any, rules: Any) -> Any:
    """The sample's deal rebuilt from its hands, stock and actions."""
    if rules.game == "fly":
        deal: Any = fly.new_deal(
            rules, hands=sample.hands, trump_card=view.trump_card, stock=sample.stock, dealer=view.dealer
        )
    else:
        deal = dreyfus.new_deal(rules, sample.hands, sample.stock, view.contract, view.dealer)
    for action in sample.actions:
        deal = deal.apply(action)
    return deal


def check(match: Any, rng: random.Random) -> Sample | None:
    """Sample a random seat's view of ``match``; when a sample comes back, check it against the view."""
    if match.is_over:
        return None
    deal = match.deal
    seat = rng.randrange(len(deal.view(0).tricks_taken))
    view = deal.view(seat)
    sample = sample_deal(view, deal.rules, rng)
    if sample is not None:
        assert without_records(sample.deal.view(seat)) == without_records(view)
        assert without_records(rebuilt(sample, view, deal.rules).view(seat)) == without_records(view)
    return sample


@settings(max_examples=60)
@given(match=fly_states(max_actions=60), seed=st.integers(0, 2**32))
def test_fly_5_1_a_sample_looks_to_the_seat_exactly_like_its_view(match: fly.FlyMatch, seed: int) -> None:
    """FLY-5.1: the sampled deal, and the same deal rebuilt from its hands, stock and actions, show the
    seat its view: hand, declarations, tricks, the point of play."""
    check(match, random.Random(seed))


@settings(max_examples=40)
@given(match=dreyfus_states(max_actions=80), seed=st.integers(0, 2**32))
def test_drf_11_1_a_sample_looks_to_the_seat_exactly_like_its_view(match: dreyfus.DreyfusMatch, seed: int) -> None:
    """DRF-11.1: the sampled Dreyfus deal shows the seat its view: hand, discards, purchases, tricks."""
    check(match, random.Random(seed))


@pytest.mark.parametrize(
    "make",
    [
        lambda i: fly.new_match(fly.FlyRules(players=3 + i % 5), seed=i),
        lambda i: fly.new_match(fly.FlyRules.preset("mouche_1718", players=3 + i % 5), seed=i),
        lambda i: dreyfus.new_match(dreyfus.DreyfusRules(), seed=i),
        lambda i: dreyfus.new_match(dreyfus.DreyfusRules(exchange_mode="incremental", reveal_discards=True), seed=i),
    ],
    ids=["fly", "mouche", "dreyfus", "dreyfus-incremental"],
)
def test_fly_5_1_samples_are_found_and_vary(make: Any) -> None:
    """FLY-5.1, DRF-11.1: at 60 random points of play a sample is found at least 57 times, and the hidden
    hands it guesses differ from the true ones (the guess does not peek)."""
    rng = random.Random(0)
    found = differ = 0
    for i in range(60):
        match = make(i)
        for _ in range(rng.randrange(10, 50)):
            if match.is_over:
                break
            match = match.apply(rng.choice(list(match.legal_actions())))
        if match.is_over:
            found += 1  # nothing to guess at the end
            continue
        sample = check(match, rng)
        if sample is not None:
            found += 1
            differ += sample.deal.hands != match.deal.hands
    assert found >= 57
    assert differ >= 40


def test_fly_4_3_the_seats_own_history_is_kept_when_given() -> None:
    """FLY-4.3: given its hand as dealt and its exchanges, the seat's own past stays as it was."""
    match = fly.new_match(fly.FlyRules(players=4), seed=8, dealer=0)
    dealt = match.deal.hands[1]
    rng = random.Random(2)
    while match.deal.phase is fly.Phase.EXCHANGE:
        legal = match.legal_actions()
        exchange = [a for a in legal if isinstance(a, fly.Exchange) and len(a.cards) == 2]
        match = match.apply(exchange[0] if exchange and match.to_move == 1 else fly.Stand())
    received = match.deal.hands[1] - (dealt - match.deal.actions[0].cards)
    given = match.deal.actions[0].cards
    for seed in range(5):
        sample = sample_deal(
            match.view(1), match.rules, random.Random(seed), dealt=dealt, exchanges=[(given, received)]
        )
        assert sample is not None
        assert sample.hands[1] == dealt
        assert sample.actions[0] == fly.Exchange(given)
    with pytest.raises(ValueError, match="dealt="):
        sample_deal(match.view(1), match.rules, rng, exchanges=[(given, received)])


def test_drf_4_2_others_discard_only_fosks() -> None:
    """DRF-4.2: the discards guessed for the other seats are фоски of the hands guessed for them."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=5, dealer=0)
    while match.deal.phase is Phase.EXCHANGE:
        legal = match.legal_actions()
        match = match.apply(legal[min(3, len(legal) - 1)])
    assert sum(match.view(0).bought[1:]) > 0
    sample = sample_deal(match.view(0), match.rules, random.Random(1))
    assert sample is not None
    fosks = match.rules.fosk_mask(match.deal.contract)
    for action in sample.actions:
        if isinstance(action, dreyfus.Exchange):
            assert action.cards.mask & ~fosks == 0
    assert sample.deal.hands[0] == match.view(0).hand


def _fly_play_with_voids() -> Any:
    """Seed 1's four-seat Fly match twelve moves into its play (rule-of-thumb bots), where the view already rules
    a whole suit out of some seats' hands."""
    rng, thumb = random.Random(2), RuleOfThumbBot()
    match = fly.new_match(fly.FlyRules(players=4), seed=1, dealer=0)
    for _ in range(12):
        seat = match.to_move
        assert seat is not None
        match = match.apply(thumb.choose(match.view(seat), match.legal_actions(), rng))
    return match


def test_forbidden_cards_add_to_what_the_view_rules_out_and_the_seat_s_own_entry_is_ignored() -> None:
    """``forbidden`` keeps each card given out of that seat's hand, on top of what the view rules out already
    (a suit the seat has shown it lacks); the seat's own entry is ignored, even one forbidding every card."""
    match = _fly_play_with_voids()
    seat = match.to_move
    assert seat is not None
    view = match.view(seat)
    ruled_out = registry.game_of(view).guesser(view, match.rules).forbidden
    other = next(s for s in range(4) if s != seat and ruled_out[s])
    first = sample_deal(view, match.rules, random.Random(0))
    assert first is not None
    card = first.deal.hand_masks[other] & -first.deal.hand_masks[other]
    forbidden = [card if s == other else 0 for s in range(4)]
    forbidden[seat] = (1 << 52) - 1
    for k in range(40):  # one try each: what is ruled out is dealt around, so no guess fails on it
        sample = sample_deal(view, match.rules, random.Random(k), forbidden=forbidden, tries=1)
        assert sample is not None
        assert sample.deal.hand_masks[other] & (card | ruled_out[other]) == 0


class _Guess:
    """A guess that refuses its first try under a rule, then finds nothing (or ``found``) on every try."""

    players = 3

    def __init__(self, found: Any = None) -> None:
        self.forbidden = [0, 0, 0]
        self.tries = 0
        self.found = found

    def guess(self, rng: random.Random, own: Any, records: Any) -> Any:
        self.tries += 1
        if self.tries == 1:
            raise RuleViolation("DRF-4.3", "not that way")
        return self.found


def _guessing(guess: _Guess) -> Any:
    """A guesser that makes ``guess`` whatever the view."""
    return lambda *_: guess


def test_sample_deal_tries_fifty_guesses_and_a_refused_one_is_passed_over() -> None:
    """By default 50 guesses are drawn before giving up; one the rules refuse is passed over like one that found no
    deal, and the first found is the answer."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3)
    assert match.to_move is not None
    view = match.view(match.to_move)
    nothing = _Guess()
    assert sample_deal(view, match.rules, random.Random(0), guesser=_guessing(nothing)) is None
    assert nothing.tries == 50
    found = _Guess(found=object())
    assert sample_deal(view, match.rules, random.Random(0), guesser=_guessing(found)) is found.found
    assert found.tries == 2


def test_sample_deal_refuses_arguments_it_cannot_use() -> None:
    """Exchanges without the hand they were made from, and ``forbidden`` that is not one mask a seat, are refused
    with what was wrong."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3)
    assert match.to_move is not None
    view = match.view(match.to_move)
    with pytest.raises(ValueError, match=r"^a seat's own exchanges are only of use with its hand as dealt \(dealt=\)$"):
        sample_deal(view, match.rules, random.Random(0), exchanges=[])
    with pytest.raises(ValueError, match="^forbidden: one mask a seat, 3, not 2$"):
        sample_deal(view, match.rules, random.Random(0), forbidden=[0, 0])
