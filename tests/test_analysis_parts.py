"""The parts of a review, each checked by hand on a small position: the verdict's words, the estimates, the costs
and losses, the rules that refused choices, and which decisions a seat, a range or a bound picks
(``fly_rules.analysis``)."""

from __future__ import annotations

import math
import time
from random import Random
from typing import Any

import attrs
import pytest

from fly_rules import dreyfus, fly
from fly_rules.actions import Fold, Play, Stand
from fly_rules.analysis import Analysis, Review, analyse, analyse_history, estimate_text, review, verdict
from fly_rules.bots import ExpertBot, RuleOfThumbBot
from fly_rules.cards import Card
from fly_rules.engine import Phase
from fly_rules.errors import FlyRulesError
from fly_rules.narration import action_shown
from fly_rules.notation.history import dump_history
from fly_rules.solve import Search, SolveTimeUp, evaluate, kernel_of, solve

START: dict[str, Any] = {
    "dealer": 0,
    "trump_card": "8H",
    "hands": ["7C 8D 9D TD JD", "AH 8S 9S TS AS", "QD KD AD 9H JS"],
    "stock": "7H JH",
}
DEAL = fly.new_deal(fly.FlyRules(players=3), **START)
"""Seat 1 holds A♥ and A♠ under a heart trump: it takes every trick (the README's deal)."""


def _thumb(state: Any) -> Any:
    return RuleOfThumbBot().choose(state.view(state.to_move), state.legal_actions(), Random(0))


def _play(text: str) -> Play:
    return Play(Card.parse(text))


def _after_stands() -> Any:
    deal = DEAL
    for _ in range(3):
        deal = deal.apply(Stand())
    return deal


def _made(**fields: Any) -> Review:
    """A review of seat 1's lead of 9♠ at trick 1, with ``fields`` changed."""
    base = Review(0, 3, 1, Phase.PLAY, _play("9S"), {}, None, {}, None, trick=1)
    return attrs.evolve(base, **fields)


def test_a_verdict_names_where_what_and_the_hint_s_choice_in_every_case() -> None:
    """Where (the exchange, a lead, or after the cards in the trick), the rules with the count they refused (a card,
    cards, a declaration), then the hint's word: its own choice, an action the expert did not weigh, or how much
    better its choice is (points, or a share of the chance to win the match), within the noise when the interval of
    the difference reaches zero."""
    nine, ace = action_shown(_play("9S")), action_shown(_play("AS"))
    assert verdict(_made()) == f"trick 1, leading: {nine}"
    seven = Card.parse("7C")
    assert verdict(_made(trick=2, table=((0, seven), (2, Card.parse("QD"))))) == f"trick 2 after 7♣ Q♦: {nine}"
    ruled = _made(rules=("FLY-6.3", "FLY-6.4"), refused=1)
    assert verdict(ruled) == f"trick 1, leading (FLY-6.3, FLY-6.4 refused 1 card): {nine}"
    assert verdict(attrs.evolve(ruled, refused=2)).endswith("refused 2 cards): " + nine)
    exchange = _made(trick=None, phase=Phase.EXCHANGE, played=Stand(), rules=("FLY-5.2",), refused=1)
    assert verdict(exchange) == f"the exchange (FLY-5.2 refused 1 declaration): {action_shown(Stand())}"
    assert verdict(attrs.evolve(exchange, refused=2)).endswith("refused 2 declarations): " + action_shown(Stand()))
    assert verdict(_made(expert_best=_play("9S"))) == f"trick 1, leading: {nine}, the hint's choice"
    unweighed = _made(expert_best=_play("AS"), expert_values={_play("AS"): 1.0})
    assert verdict(unweighed) == f"trick 1, leading: {nine}; the hint: {ace} (the expert did not weigh {nine})"
    weighed = {_play("AS"): 2.0, _play("9S"): 0.5}
    clear = _made(expert_best=_play("AS"), expert_values=weighed, expert_cost_interval=(0.01, 3.0))
    assert verdict(clear) == f"trick 1, leading: {nine}; the hint: {ace}, 1.5 points better"
    for reaching in [(0.0, 3.0), (-1.0, 3.0), (-1.0, 0.0), None]:
        noisy = verdict(attrs.evolve(clear, expert_cost_interval=reaching))
        assert noisy == f"trick 1, leading: {nine}; the hint: {ace}, 1.5 points better, within the guesses' noise"
    chances = attrs.evolve(clear, expert_unit="match", expert_values={_play("AS"): 0.95, _play("9S"): 0.05})
    assert verdict(chances).endswith(f"the hint: {ace}, 90% of the chance to win the match better")


def test_an_estimate_is_its_mean_and_half_its_interval_in_its_unit() -> None:
    """Points with a sign and one decimal, a chance as a percentage; ± half the 95% interval; ``(1 guess)`` when
    the interval is missing or unbounded on either side."""
    assert estimate_text(1.25, (0.85, 1.65), "points") == "+1.2 ±0.4"
    assert estimate_text(-0.5, (-0.5, -0.5), "points") == "-0.5 ±0.0"
    assert estimate_text(0.41, (0.35, 0.47), "match") == "41% ±6"
    assert estimate_text(0.9, (0.0, 1.8), "match") == "90% ±90"
    assert estimate_text(2.0, None, "points") == "+2.0 (1 guess)"
    assert estimate_text(0.5, (-math.inf, math.inf), "match") == "50% (1 guess)"
    assert estimate_text(0.5, (0.0, math.inf), "points") == "+0.5 (1 guess)"
    assert estimate_text(0.5, (-math.inf, 1.0), "points") == "+0.5 (1 guess)"


def test_a_review_s_costs_and_best_and_an_analysis_s_losses() -> None:
    """The open cost is the best open value less the action played's (None unsolved); the review's best is the
    hint's, else the open best; the expert cost is 0 for the hint's own action, None for an action it did not
    weigh, else its lead; a seat's losses add its costs, an unsolved one as 0."""
    solved = _made(open_values={_play("9S"): -2, _play("AS"): 3}, open_best=_play("AS"))
    assert (solved.cost, _made().cost) == (5, None)
    assert solved.best == _play("AS")
    assert attrs.evolve(solved, expert_best=_play("9S")).best == _play("9S")
    assert _made().expert_cost is None
    assert _made(expert_best=_play("9S")).expert_cost == 0.0
    assert _made(expert_best=_play("AS"), expert_values={_play("AS"): 1.0}).expert_cost is None
    assert _made(expert_best=_play("AS"), expert_values={_play("9S"): 1.0}).expert_cost is None
    assert _made(expert_best=_play("AS"), expert_values={_play("AS"): 1.5, _play("9S"): -0.5}).expert_cost == 2.0
    reviews = (
        attrs.evolve(solved, seat=2, expert_best=_play("AS"), expert_values={_play("AS"): 1.5, _play("9S"): 1.0}),
        attrs.evolve(solved, seat=0),
        attrs.evolve(_made(), seat=2),
        attrs.evolve(solved, seat=2, expert_best=_play("9S")),
    )
    analysis = Analysis(reviews)
    assert analysis.seats == (0, 2)
    assert (analysis.loss(0), analysis.loss(2), analysis.loss(1)) == (5, 10, 0)
    assert (analysis.expert_loss(2), analysis.expert_loss(0)) == (0.5, 0.0)
    assert not analysis.stopped
    assert analysis.unreached == ()


def test_fly_6_3_a_play_is_reviewed_with_the_solver_s_values_and_the_rule_that_refused_cards() -> None:
    """Following A♥ with 9♥, seat 2 had four cards refused by the duty to follow suit [FLY-6.3]: the review says
    so, with the trick and its card; its open values are the solver's; with one legal card the expert guesses
    nothing."""
    led = _after_stands().apply(_play("AH"))
    bot = ExpertBot(led.rules, samples=3)
    found = review(led, _play("9H"), expert=bot, seed="parts")
    assert found.open_values == evaluate(led) == {_play("9H"): -5}
    assert (found.open_best, found.cost) == (_play("9H"), 0)
    assert (found.rules, found.refused, found.trick, found.table) == (("FLY-6.3",), 4, 1, ((1, Card.parse("AH")),))
    assert (found.seat, found.step, found.deal_number, found.phase) == (2, 4, 0, Phase.PLAY)
    assert found.expert_best == _play("9H")
    assert found.expert_guesses == 0  # one legal card: nothing guessed


def _first_play(rules: Any) -> Any:
    """Seed 11's match under ``rules``, played by the rule of thumb to its first lead with more than two cards."""
    state = fly.new_match(rules, seed=11, dealer=0)
    while state.deal.phase is not Phase.PLAY or len(state.legal_actions()) < 3:
        state = state.apply(_thumb(state))
    return state


@pytest.mark.parametrize(
    ("rules", "unit"), [(fly.FlyRules(players=3, max_deals=1), "points"), (fly.FlyRules(players=3), "match")]
)
def test_the_expert_s_means_carry_intervals_over_exactly_its_guesses(rules: Any, unit: str) -> None:
    """The expert's mean for each card is the mean over its guesses, inside its interval; its unit is the match's
    chance where Fly's race model holds (plain rules), else points; the lead of its choice over the card played has
    an interval around it (0 for its own choice)."""
    state = _first_play(rules)
    bot = ExpertBot(rules, samples=3)
    drawn = review(state, state.legal_actions()[0], expert=bot)  # the guesses drawn from seed 0 by default
    assert drawn == review(state, state.legal_actions()[0], expert=bot, seed=0)
    assert drawn != review(state, state.legal_actions()[0], expert=bot, seed=1)
    for played in state.legal_actions()[:3]:
        found = review(state, played, expert=bot, seed="parts")
        assert found.expert_guesses == len(bot.guesses) == 3
        assert set(found.expert_values) == set(found.expert_intervals) == set(state.legal_actions())
        for action, (low, high) in found.expert_intervals.items():
            values = [guess[action] for guess in bot.guesses]
            assert found.expert_values[action] == pytest.approx(sum(values) / 3)
            assert low <= found.expert_values[action] <= high
        assert found.expert_unit == unit
        assert found.open_values == evaluate(state)
        assert found.cost == max(found.open_values.values()) - found.open_values[played]
        assert (found.rules, found.refused, found.table, found.trick) == ((), 0, (), 1)
        assert found.expert_cost_interval is not None
        low, high = found.expert_cost_interval
        if found.expert_best == played:
            assert (low, high) == (0.0, 0.0)
        else:
            leads = [guess[found.expert_best] - guess[played] for guess in bot.guesses]
            cost = found.expert_cost
            assert cost == pytest.approx(sum(leads) / 3)
            assert cost is not None
            assert low <= cost <= high


def test_a_review_past_its_limits_keeps_what_it_has_and_refuses_what_cannot_be() -> None:
    """Past the open values' limit they are left out; past the deadline the solver gives up (SolveTimeUp); an action
    not among the position's is refused naming it."""
    opening = _after_stands()
    found = review(opening, _play("9S"), open_limit=0)
    assert (found.open_values, found.open_best, found.cost) == ({}, None, None)
    assert (found.expert_best, found.expert_values, found.expert_intervals) == (None, {}, {})
    assert (found.expert_guesses, found.expert_unit, found.expert_cost_interval) == (0, "points", None)
    with pytest.raises(SolveTimeUp):
        review(opening, _play("9S"), deadline=time.monotonic() - 1)
    state = dreyfus.new_match(dreyfus.DreyfusRules(max_deals=1), seed=5, dealer=0)
    while state.deal.phase is not Phase.PLAY or len(state.legal_actions()) < 2:
        state = state.apply(_thumb(state))
    expert = ExpertBot(state.rules, samples=1)
    with pytest.raises(SolveTimeUp):  # the expert's own search gives up: no verdict
        review(state, state.legal_actions()[0], deadline=time.monotonic() - 1, expert=expert)
    with pytest.raises(ValueError, match="the action Play\\(card=Card.parse\\('QD'\\)\\) is not among"):
        review(opening, _play("QD"))


def test_fly_5_2_the_exchange_names_the_rule_refusing_a_fold_but_not_a_game_s_lack_of_one() -> None:
    """FLY-5.2: the A♠ holder may not fold, and its review says so, each declaration valued with the later ones as
    made; Dreyfus has no fold at all, which is no rule refusing the seat anything."""
    later = [(2, Stand()), (0, Stand())]
    found = review(DEAL, Stand(), later=later)
    assert (found.rules, found.refused, found.trick) == (("FLY-5.2",), 1, None)
    assert set(found.open_values) == set(DEAL.legal_actions())
    assert found.open_values[Stand()] == solve(_after_stands()).values[1]
    match = dreyfus.new_match(dreyfus.DreyfusRules(max_deals=1), seed=5, dealer=0)
    stand = review(match, Stand(), open_limit=1)
    assert (stand.rules, stand.refused, stand.phase) == ((), 0, Phase.EXCHANGE)


def _line() -> list[Any]:
    """The deal played to its end along the solver's line from the stands."""
    return [Stand(), Stand(), Stand(), *solve(_after_stands()).line]


def test_a_seat_a_range_and_a_bound_pick_the_decisions_in_order() -> None:
    """Every decision with a choice is graded once, in order, progress counted one by one; ``seat`` keeps one
    seat's, ``first`` and ``count`` a range of them; a bound not reached changes nothing; a deal's history with
    its start is analysed as the deal."""
    actions = _line()
    counted: list[int] = []
    whole = analyse(DEAL, actions, expert=False, progress=counted.append)
    state, expected = DEAL, []
    for action in actions:
        if len(state.legal_actions()) > 1:
            expected.append((state.to_move, len(state.actions), action))
        state = state.apply(action)
    assert [(r.seat, r.step, r.played) for r in whole.reviews] == expected
    assert counted == list(range(1, len(expected) + 1))
    assert not whole.stopped
    assert analyse(DEAL, actions, expert=False, seat=1).reviews == tuple(r for r in whole.reviews if r.seat == 1)
    assert analyse(DEAL, actions, expert=False, first=2, count=2).reviews == whole.reviews[2:4]
    assert analyse(DEAL, actions, expert=False, first=len(expected) - 1, count=5).reviews == whole.reviews[-1:]
    assert analyse(DEAL, actions, expert=False, count=0).reviews == ()
    bounded = analyse(DEAL, actions, expert=False, max_seconds=600)
    assert (bounded.reviews, bounded.stopped, bounded.unreached) == (whole.reviews, False, ())
    text = dump_history(state, start=START)
    assert analyse_history(text, expert=False).reviews == whole.reviews


def test_under_a_bound_already_past_nothing_is_graded_and_every_decision_is_named() -> None:
    """A bound that has passed before the first decision grades none: each is named as not reached, in order,
    with its deal, step, seat, phase, action and trick."""
    actions = _line()
    analysis = analyse(DEAL, actions, expert=False, max_seconds=1e-9)
    assert analysis.stopped
    assert analysis.reviews == ()
    whole = analyse(DEAL, actions, expert=False)
    assert all(r.expert_best is None and not r.expert_values for r in whole.reviews)  # no expert asked
    assert [(u.deal_number, u.step, u.seat, u.phase, u.played, u.trick) for u in analysis.unreached] == [
        (r.deal_number, r.step, r.seat, r.phase, r.played, r.trick) for r in whole.reviews
    ]


def test_under_a_bound_the_cheapest_decisions_are_graded_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a bound, the plays are graded before the exchange, and in each a later decision of the deal before an
    earlier one (fewer cards left to search); without one, in the order made. The reviews come back in the order
    made either way."""
    from fly_rules import analysis as module

    graded: list[int] = []
    real = module.review

    def spied(state: Any, *args: Any, **kwargs: Any) -> Review:
        graded.append(len(state.actions))
        return real(state, *args, **kwargs)

    monkeypatch.setattr(module, "review", spied)
    actions = _line()
    first = analyse(DEAL, actions, expert=False)
    steps = [r.step for r in first.reviews]
    assert graded == steps == sorted(steps)
    graded.clear()
    bounded = analyse(DEAL, actions, expert=False, max_seconds=600)
    plays = sorted((r.step for r in first.reviews if r.phase is Phase.PLAY), reverse=True)
    exchanges = sorted((r.step for r in first.reviews if r.phase is Phase.EXCHANGE), reverse=True)
    assert exchanges
    assert graded == plays + exchanges
    assert bounded.reviews == first.reviews


def _match(rules: Any, dealer: int | None, *, moves: int | None = None) -> tuple[Any, list[Any], Any]:
    """Seed 11's match under ``rules`` from ``dealer``, played by the rule of thumb (``moves`` actions at most)."""
    module: Any = fly if rules.game == "fly" else dreyfus
    start = state = module.new_match(rules, seed=11, dealer=dealer)
    actions: list[Any] = []
    while not state.is_over and (moves is None or len(actions) < moves):
        actions.append(_thumb(state))
        state = state.apply(actions[-1])
    return start, actions, state


def test_the_expert_of_the_analysis_is_the_hint_s_with_its_guesses_and_randomness() -> None:
    """By default each decision is graded by the hint's expert with the hint's guesses (Fly's 12 in the play), drawn
    from the match's seed and count of actions; ``samples`` and ``seed`` change them; without the expert no decision
    has a hint's choice."""
    start, actions, _ = _match(fly.FlyRules(players=3, max_deals=1), 0)
    state, first = start, 0
    while state.deal.phase is not Phase.PLAY or len(state.legal_actions()) < 3:
        first += len(state.legal_actions()) > 1
        state = state.apply(actions[len(state.actions)])
    played = actions[len(state.actions)]
    (hinted,) = analyse(start, actions, first=first, count=1).reviews
    assert hinted.expert_guesses == 12
    assert hinted.expert_best is not None
    for seed, samples in [(None, 2), ("other", 2)]:
        (graded,) = analyse(start, actions, first=first, count=1, samples=samples, seed=seed).reviews
        drawn = f"{start.seed if seed is None else seed}:hint:{len(state.actions)}"
        assert graded == review(state, played, expert=ExpertBot(start.rules, samples=samples), seed=drawn)
        assert graded.expert_guesses == samples
    deal_start = start.deal  # a deal has no seed of its own: its hint draws from 0
    (from_deal,) = analyse(deal_start, actions, first=first, count=1, samples=3).reviews
    assert from_deal == analyse(deal_start, actions, first=first, count=1, samples=3, seed=0).reviews[0]
    assert from_deal != analyse(deal_start, actions, first=first, count=1, samples=3, seed="None").reviews[0]
    assert all(r.expert_best is None for r in analyse(start, actions, expert=False, open_limit=0).reviews)


def test_an_action_the_expert_did_not_weigh_has_no_lead_and_finite_intervals_for_the_rest() -> None:
    """A declaration outside the expert's candidates gets no expert cost and no interval for it; the candidates'
    intervals, over several guesses, are finite."""
    start, _, _ = _match(fly.FlyRules(players=3, max_deals=1), 0, moves=0)
    bot = ExpertBot(start.rules, samples=3)
    odd = [
        a
        for a in start.legal_actions()
        if a not in bot.hints.candidates(start.view(start.to_move), start.legal_actions())
    ]
    assert odd
    found = review(start, odd[-1], expert=bot, seed="odd")
    assert odd[-1] not in found.expert_values
    assert (found.expert_cost, found.expert_cost_interval) == (None, None)
    assert found.expert_guesses == 3
    assert all(math.isfinite(low) and math.isfinite(high) for low, high in found.expert_intervals.values())


def test_the_later_declarations_answer_each_alternative_as_they_were_made() -> None:
    """An exchange is graded with the deal's later declarations as they were made, here not as the rule of thumb
    would make them, and those of its own deal only (the match goes on to a second deal)."""
    start = state = fly.new_match(fly.FlyRules(players=3, max_deals=2), seed=11, dealer=2)
    actions = [_thumb(state)]
    state = state.apply(actions[0])
    later: list[tuple[int, Any]] = []
    while state.deal.phase is Phase.EXCHANGE:  # each later seat declares otherwise than the rule of thumb
        legal = state.legal_actions()
        other = next(action for action in reversed(legal) if action != _thumb(state))
        mover = state.deal.to_move
        assert mover is not None
        later.append((mover, other))
        actions.append(other)
        state = state.apply(other)
    while not state.is_over:
        actions.append(_thumb(state))
        state = state.apply(actions[-1])
    assert state.deal.deal_number == 1
    (graded,) = analyse(start, actions, expert=False, count=1).reviews
    assert graded == review(start, actions[0], later=later)
    assert graded.open_values != review(start, actions[0]).open_values  # the rule of thumb's answers differ


def test_an_alternative_that_ends_the_deal_in_the_exchange_is_valued_by_its_score() -> None:
    """FLY-5.1: where every seat before the last declarer folded, his fold ends the deal in the exchange; the review
    values it by the score it leaves, beside the declarations that go on to the play; past the deadline the
    searches give up."""
    for seed in range(100):
        state = fly.new_match(fly.FlyRules(players=3), seed=seed, dealer=0)
        while state.deal.phase is Phase.EXCHANGE and state.to_move != 0 and Fold() in state.legal_actions():
            state = state.apply(Fold())
        if state.deal.phase is Phase.EXCHANGE and state.to_move == 0 and Fold() in state.legal_actions():
            break
    seat = state.deal.to_move
    assert seat is not None
    found = review(state, Stand())
    ended = state.deal.apply(Fold())
    assert ended.is_over
    assert found.open_values[Fold()] == ended.scores[seat] - state.deal.scores[seat]
    assert set(found.open_values) == set(state.legal_actions())
    base = state.deal.scores[seat]
    for action in state.legal_actions():
        after = state.deal.apply(action)
        assert found.open_values[action] == (after.scores[seat] - base if after.is_over else solve(after).values[seat])
    with pytest.raises(SolveTimeUp):  # the declarations that go on to the play are searched, past the deadline
        review(DEAL, Stand(), later=[(2, Stand()), (0, Stand())], deadline=time.monotonic() - 1)


def test_dreyfus_open_values_are_the_paranoid_solver_s() -> None:
    """In Dreyfus the open values are the paranoid values of the seat to move (its tricks against the other two)."""
    start, actions, _ = _match(dreyfus.DreyfusRules(max_deals=1), 0)
    state, reviewed = start, 0
    for action in actions:
        if sum(state.deal.tricks_taken) >= 8 and len(state.legal_actions()) > 1:
            found = review(state, action)
            assert found.open_values == evaluate(state, concept="paranoid", seat=state.to_move)
            reviewed += 1
        state = state.apply(action)
    assert reviewed


def test_a_bound_passed_while_a_decision_is_graded_ends_the_analysis_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound reaches into each decision's searches; a decision finished after the bound is kept, and the
    analysis stops there, the rest not reached; a bound must be a number above 0."""
    from fly_rules import analysis as module

    real = module.review
    deadlines: list[Any] = []

    def slow(state: Any, *args: Any, **kwargs: Any) -> Review:
        deadlines.append(kwargs["deadline"])
        found = real(state, *args, **kwargs)
        time.sleep(0.6)
        return found

    monkeypatch.setattr(module, "review", slow)
    actions = _line()
    started = time.monotonic()
    analysis = analyse(DEAL, actions, expert=False, max_seconds=0.5)  # the cheapest decision takes milliseconds
    monkeypatch.undo()
    assert analysis.stopped
    assert len(analysis.reviews) == 1
    assert len(analysis.unreached) == len(analyse(DEAL, actions, expert=False).reviews) - 1
    assert started < deadlines[0] <= started + 0.51
    assert analyse(DEAL, actions, expert=False, open_limit=0).reviews[0].open_values == {}
    with pytest.raises(FlyRulesError, match="max_seconds must be a number above 0, not 0"):
        analyse(DEAL, actions, max_seconds=0)


def test_a_saved_match_is_analysed_from_its_own_dealer_and_game() -> None:
    """A history is analysed from the dealer it names (not one drawn by lot from the seed) and read as its own
    game's actions; a history saved before any action has no decision."""
    for rules in (fly.FlyRules(players=3, max_deals=1), dreyfus.DreyfusRules(max_deals=1)):
        drawn = _match(rules, None, moves=0)[0].first_dealer
        start, actions, final = _match(rules, (drawn + 1) % 3, moves=12)  # not the seat the lot would draw
        text = dump_history(final)
        analysed = analyse_history(text, expert=False, open_limit=1)
        assert analysed.reviews == analyse(start, actions, expert=False, open_limit=1).reviews
        assert analysed.reviews
        assert analyse_history(dump_history(start), expert=False).reviews == ()


def test_the_open_limit_counts_the_positions_of_every_declaration_s_search_together() -> None:
    """The exchange's open values may visit ``open_limit`` positions in all: a limit that each declaration's search
    fits in alone, but not all of them together, leaves them out; one that fits them all gives them."""
    later = [(2, Stand()), (0, Stand())]
    visited = []
    for action in DEAL.legal_actions():
        after = DEAL.apply(action)
        for _, declared in later:
            after = after.apply(declared if declared in after.legal_actions() else after.legal_actions()[0])
        search = Search(kernel_of(after))
        search.maxn(search.kernel.node(after))
        visited.append(search.nodes)
    whole = review(DEAL, Stand(), later=later)
    assert review(DEAL, Stand(), later=later, open_limit=sum(visited)).open_values == whole.open_values
    assert review(DEAL, Stand(), later=later, open_limit=max(visited) + 1).open_values == {}
