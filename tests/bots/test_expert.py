"""The expert bot: perfect-information Monte Carlo over the solver, for declarations and play, in both games."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.actions import Exchange, Fold, Stand
from fly_rules.bots import BOTS, HINT_BOT, ExpertBot, RandomBot, RuleOfThumbBot, make_bot
from fly_rules.bots.sampling import sample_deal
from fly_rules.cards import Card, CardSet
from fly_rules.dreyfus.bot import DreyfusExpertHints
from fly_rules.engine import Phase
from fly_rules.engine.hidden import Sample
from fly_rules.errors import FlyRulesError
from fly_rules.fly.expert import FlyExpertHints
from fly_rules.fly.race import race_of
from fly_rules.notation.games import parse_action
from fly_rules.solve import Respond, SolveTimeUp, best_response, evaluate, solve


def _advance(state: Any, steps: int, seed: int) -> Any:
    bot, rng = RuleOfThumbBot(), random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(bot.choose(state.view(state.to_move), state.legal_actions(), rng))
    return state


def test_the_expert_is_a_bot_by_name_and_the_hint_bot() -> None:
    """``expert`` is among the bots every command offers, and the one ``hint`` asks."""
    assert "expert" in BOTS
    assert HINT_BOT == "expert"
    assert isinstance(make_bot("expert", fly.FlyRules()), ExpertBot)


@pytest.mark.parametrize("game", ["fly", "dreyfus"])
def test_the_expert_chooses_legal_actions_through_a_whole_deal(game: str) -> None:
    """Every choice of the expert in a deal, exchange and play, is one of the legal actions, for every seat (a
    budget that solves guesses at about half of Dreyfus's decisions: the rest keep the default declaration or go to
    the Monte-Carlo bot)."""
    rules: Any = fly.FlyRules(players=3) if game == "fly" else dreyfus.DreyfusRules()
    module: Any = fly if game == "fly" else dreyfus
    deal = module.new_match(rules, seed=3, dealer=0).deal
    bot = ExpertBot(rules, samples=2, budget=3_000)
    rng = random.Random(1)
    phases = set()
    while not deal.is_over:
        legal = deal.legal_actions()
        action = bot.choose(deal.view(deal.to_move), legal, rng)
        assert action in legal
        phases.add(deal.phase)
        deal = deal.apply(action)
    assert phases == {Phase.EXCHANGE, Phase.PLAY}


def test_the_expert_replays_from_its_seed() -> None:
    """The same view and the same generator give the same choice and the same values."""
    match = _advance(fly.new_match(fly.FlyRules(players=4), seed=8, dealer=1), 6, 0)
    view, legal = match.view(match.to_move), match.legal_actions()
    first = ExpertBot(match.rules, samples=3).values(view, legal, random.Random("x"))
    second = ExpertBot(match.rules, samples=3).values(view, legal, random.Random("x"))
    assert first == second
    assert set(first) == set(legal)


@pytest.mark.parametrize("concept", ["paranoid", "maxn"])
def test_in_the_play_the_expert_without_a_model_takes_the_best_card_of_its_guesses(concept: Any) -> None:
    """With no model of the others (``model=None``), the expert's values in the play are the means, over its
    guesses, of the solver's value of each card for its seat under its concept (the hints': paranoid; max^n where
    a game's hints would say so), and it plays the best of them."""
    match = _advance(fly.new_match(fly.FlyRules(players=3), seed=21, dealer=0), 5, 2)
    assert match.deal.phase is Phase.PLAY
    view, legal = match.view(match.to_move), match.legal_actions()
    bot = ExpertBot(match.rules, samples=2, model=None)
    bot.concept = concept
    values = bot.values(view, legal, random.Random(4))
    rng = random.Random(4)
    hints = FlyExpertHints(match.rules)
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(2):
        sample = sample_deal(view, match.rules, rng, records=view.records, tries=1)
        assert sample is not None
        world = hints.world(view, sample)
        solved = (
            evaluate(world, concept="maxn")
            if concept == "maxn"
            else evaluate(world, concept="paranoid", seat=view.seat)
        )
        for action, value in solved.items():
            totals[action] += value / 2
    assert values == totals
    assert bot.choose(view, legal, random.Random(4)) == max(values, key=values.__getitem__)


@pytest.mark.parametrize(("for_match", "seed"), [(True, 21), (False, 21), (False, 22)])
def test_in_fly_the_expert_best_responds_on_the_guesses_the_rule_of_thumb_agrees_with(
    for_match: bool, seed: int
) -> None:
    """By default in Fly the expert takes the others to play like the rule of thumb: of the guesses it draws
    (``draws`` per guess wanted) it keeps those where the rule of thumb would have made the fewest of the others'
    moves otherwise, and values each card by its best response there (:class:`fly_rules.solve.Respond`): by
    default to the seat's chance of winning the match from the records at the deal's end, with
    ``for_match=False`` to its record points (:func:`fly_rules.solve.best_response`). In the play its own later
    cards are searched too, even where declarations are valued sight-free (seed 22: a guess where that matters)."""
    match = _advance(fly.new_match(fly.FlyRules(players=4), seed=seed, dealer=0), 7, 2)
    assert match.deal.phase is Phase.PLAY
    view, legal = match.view(match.to_move), match.legal_actions()
    bot = ExpertBot(match.rules, samples=3, for_match=for_match)
    assert isinstance(bot.model, fly.FlyRuleOfThumbBot)
    values = bot.values(view, legal, random.Random(6))
    totals = dict.fromkeys(legal, 0.0)
    race = race_of(match.rules)
    assert race is not None
    for guess in _kept_guesses(view, match.rules, bot.model, 3, random.Random(6)):
        if for_match:
            worth: Respond[fly.FlyDeal] = Respond(
                view.seat, bot.model, worth=lambda state: race.chance(state.records, view.seat)
            )
            found = worth.values(guess, legal)
        else:
            found = best_response(guess, view.seat, bot.model)
        for action, value in found.items():
            totals[action] += value / 3
    assert values == pytest.approx(totals)
    assert bot.choose(view, legal, random.Random(6)) == max(values, key=values.__getitem__)


def _kept_guesses(view: Any, rules: Any, model: Any, count: int, rng: random.Random) -> list[Any]:
    """The guesses the expert keeps, derived again: ``draws`` per guess wanted, drawn as the model's declarations
    imply and, from the first guess on, without the cards its plays rule out; the fewest misses first."""
    hints = FlyExpertHints(rules)
    guesser = hints.guesser(model)
    assert guesser is not None
    drawn = []
    forbidden = None
    for _ in range(count * hints.draws):
        records = hints.replay_records(view)
        sample = sample_deal(view, rules, rng, records=records, tries=1, forbidden=forbidden, guesser=guesser)
        if sample is not None and forbidden is None:
            forbidden = hints.inferred(view, sample, model)
        modelled = None if sample is None else hints.modelled(view, sample, model)
        if modelled is not None:
            drawn.append(modelled)
            if sum(misses == 0 for _, misses in drawn) == count:
                break
    return [drawn[k][0] for k in sorted(range(len(drawn)), key=lambda k: (drawn[k][1], k))[:count]]


@pytest.mark.parametrize("for_match", [True, False])
def test_in_fly_a_declaration_is_valued_with_the_seat_playing_on_like_the_rule_of_thumb(for_match: bool) -> None:
    """FLY-4.2: in the exchange each declaration worth searching is made in each kept guess, and the rest of the
    deal is played out with every seat (the expert's too) playing like the rule of thumb: the expert will not
    see the guess's cards when it plays, so its declaration is not valued as if it would. The end of the deal is
    worth the seat's chance of winning the match from its records (or, ``for_match=False``, its record points)."""
    match = fly.new_match(fly.FlyRules(players=4), seed=8, dealer=0)
    seat = match.to_move
    assert seat is not None
    assert match.deal.phase is Phase.EXCHANGE
    view, legal = match.view(seat), match.legal_actions()
    bot = ExpertBot(match.rules, samples=5, for_match=for_match)
    assert FlyExpertHints.sight_free_declarations
    values = bot.values(view, legal, random.Random(3))
    candidates = FlyExpertHints(match.rules).candidates(view, legal)
    assert set(values) == set(candidates)
    assert len(candidates) > 2
    thumb = bot.model
    race = race_of(match.rules)
    assert race is not None

    def worth(state: Any) -> float:
        return race.chance(state.records, seat) if for_match else state.scores[seat]

    totals = dict.fromkeys(candidates, 0.0)
    for guess in _kept_guesses(view, match.rules, thumb, 5, random.Random(3)):
        for action in candidates:
            deal = guess.apply(action)
            while not deal.is_over:
                deal = deal.apply(thumb.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0)))
            totals[action] += (worth(deal) - worth(guess)) / 5
    assert values == pytest.approx(totals)
    sighted = ExpertBot(match.rules, samples=5, for_match=for_match)
    assert sighted.sight_free
    sighted.sight_free = False
    assert sighted.values(view, legal, random.Random(3)) != values  # a best response that sees the guess differs


def test_the_expert_plays_for_the_match_only_where_the_race_model_holds() -> None:
    """FLY-10.1: the expert values a guess by the chance of winning the match only where a match is a race of whole
    tricks to zero; with a ``max_deals`` a match may well reach (or in Dreyfus, or with no model of the others) it
    plays for its points, and asking it to play for the match there is refused by name."""
    assert ExpertBot(fly.FlyRules(players=4)).match_chance is not None
    assert ExpertBot(fly.FlyRules(players=4), for_match=False).match_chance is None
    assert ExpertBot(fly.FlyRules(players=4, max_deals=3)).match_chance is None
    assert ExpertBot(fly.FlyRules(players=4, max_deals=200)).match_chance is not None
    assert ExpertBot(fly.FlyRules(players=4), model=None).match_chance is None
    assert ExpertBot(dreyfus.DreyfusRules()).match_chance is None
    refused: list[tuple[Any, dict[str, Any]]] = [
        (fly.FlyRules(players=4, max_deals=3), {}),
        (fly.FlyRules(players=4), {"model": None}),
        (dreyfus.DreyfusRules(), {}),
    ]
    for rules, options in refused:
        with pytest.raises(TypeError, match="no race model"):
            ExpertBot(rules, for_match=True, **options)


def test_a_model_of_the_others_where_the_game_cannot_take_one_is_refused() -> None:
    """Dreyfus's hints rebuild no guess as a model's players would have played it: a model given is refused by name
    at once, not deep inside a decision; ``model=None`` is its default anyway, and may be said."""
    rules = dreyfus.DreyfusRules()
    assert ExpertBot(rules).model is None
    assert ExpertBot(rules, model=None).model is None
    with pytest.raises(TypeError, match="cannot take a model of the other seats in Dreyfus"):
        ExpertBot(rules, model=RuleOfThumbBot())


def test_a_guess_as_the_rule_of_thumb_would_have_played_it_shows_the_view() -> None:
    """FLY-4.2: the others' hidden exchanges are replaced by the rule of thumb's of as many cards; the guess still
    shows the seat its view exactly, and the deal really played by rule-of-thumb players agrees on every move."""
    rules = fly.FlyRules(players=4)
    hands = ["6C 8D JH AS 7H", "7C 8C 9C TC JC", "6D 7D 9D TD KD", "6S 7S 8S 9S TS"]
    stock = "QC KC AC QD JD AD 6H 8H 9H TH QH AH JS QS KS"
    deal: Any = fly.new_deal(rules, dealer=3, hands=hands, trump_card="KH", stock=stock)
    bot, actions = RuleOfThumbBot(), list[Any]()
    while deal.phase is Phase.EXCHANGE or len(actions) < 7:
        action = bot.choose(deal.view(deal.to_move), deal.legal_actions(), random.Random(0))
        actions.append(action)
        deal = deal.apply(action)
    view = deal.view(deal.to_move)
    hints = FlyExpertHints(rules)
    thumb = fly.FlyRuleOfThumbBot()
    truth = Sample(
        tuple(CardSet.parse(h) for h in hands), tuple(Card.parse(c) for c in stock.split()), tuple(actions), deal
    )
    modelled = hints.modelled(view, truth, thumb)
    assert modelled is not None
    assert modelled[1] == 0
    assert modelled[0].hand_masks == deal.hand_masks
    misses = []
    for k in range(30):
        sample = sample_deal(view, rules, random.Random(k), records=view.records)
        assert sample is not None
        found = hints.modelled(view, sample, thumb)
        if found is not None:
            assert found[0].view(view.seat) == view
            misses.append(found[1])
    assert misses
    assert max(misses) > 0


def test_a_guessed_deal_shows_the_records_of_the_view() -> None:
    """The expert's guessed deal of a later deal of a match, mid-play, has every record as the seat sees it
    (the guess replays the deal from records worked back from them) [FLY-8.2] [FLY-8.3]."""
    match = _advance(fly.new_match(fly.FlyRules(players=4), seed=2, dealer=0), 40, 3)
    while match.deal.phase is not Phase.PLAY or not match.deal.score.completed:
        match = _advance(match, 1, 5)
    view = match.view(match.to_move)
    hints = FlyExpertHints(match.rules)
    for k in range(5):
        sample = sample_deal(view, match.rules, random.Random(k), records=view.records)
        assert sample is not None
        assert hints.world(view, sample).records == view.records


def test_a_deal_that_wrote_off_most_of_a_record_is_still_guessed() -> None:
    """Seat 0 took two tricks with the A♠ bonus, spades trump: 13 written off a record of 14. Replayed from the
    records now (2), the first trick would take it to zero and end the match [FLY-9.3] [FLY-9.1], so no guess of
    the deal would be found; the expert replays from records raised by the most the tricks can have written off,
    and then works back to the view's records [FLY-8.2] [FLY-8.3]."""
    rules = fly.FlyRules(players=4)
    deal = fly.new_deal(
        rules,
        dealer=3,
        hands=["AS KS QS 7C 8C", "7H 8H 9H TH JH", "7D 8D 9D TD JD", "9C TC JC QC KC"],
        trump_card="6S",
        stock="6C AC 6D QD KD AD 6H QH KH AH 7S 8S 9S TS JS",
        records=[14, 25, 25, 25],
    )
    moves = ["stand"] * 4 + [f"play {card}" for card in ["AS", "7H", "7D", "9C", "KS", "8H", "8D", "TC", "7C"]]
    for move in moves:
        deal = deal.apply(parse_action(move))
    view = deal.view(1)
    assert view.records == (2, 25, 25, 25)
    hints = FlyExpertHints(rules)
    assert hints.replay_records(view) == (14, 25, 25, 25)
    assert sample_deal(view, rules, random.Random(0), records=view.records, tries=20) is None
    sample = sample_deal(view, rules, random.Random(0), records=hints.replay_records(view), tries=20)
    assert sample is not None
    assert hints.world(view, sample).records == view.records
    assert hints.world(view, sample).view(1) == view
    bot = ExpertBot(rules, samples=3)
    assert len(bot.values(view, deal.legal_actions(), random.Random(0))) == len(deal.legal_actions())
    assert len(bot._worlds) == 3


def test_the_expert_searches_the_declarations_worth_it() -> None:
    """In Fly's exchange the expert weighs standing, folding and, for each count, the exchange of that many of
    its weakest cards (the plain low cards first, the trumps last) [FLY-4.2]."""
    rules = fly.FlyRules(players=4)
    deal = fly.new_deal(
        rules,
        dealer=3,
        hands=["6C 8D JH AS 7H", "7C 8C 9C TC JC", "6D 7D 9D TD JD", "6S 7S 8S 9S TS"],
        trump_card="KH",
        stock="QC KC AC QD KD AD 6H 8H 9H TH QH AH JS QS KS",
    )
    candidates = FlyExpertHints(rules).candidates(deal.view(0), deal.legal_actions())
    exchanges = [a for a in candidates if isinstance(a, Exchange)]
    assert Stand() in candidates
    assert Fold() not in candidates
    assert [str(a.cards) for a in exchanges] == ["6C", "6C 8D", "6C 8D 7H", "6C 8D 7H JH", "6C 8D 7H JH AS"]


def test_a_decision_past_its_budget_is_left_to_the_monte_carlo_bot() -> None:
    """With no positions to spend, no guess can be solved: the Monte-Carlo bot decides (the choice is still legal)."""
    match = _advance(fly.new_match(fly.FlyRules(players=3), seed=4, dealer=0), 4, 1)
    view, legal = match.view(match.to_move), match.legal_actions()
    bot = ExpertBot(match.rules, samples=2, budget=0)
    assert bot.values(view, legal, random.Random(0)) == {}
    assert bot.choose(view, legal, random.Random(0)) == bot.fallback.choose(view, legal, random.Random(0))


def test_past_its_deadline_the_expert_raises_or_decides_on_the_guesses_solved_by_then() -> None:
    """A deadline that passes mid-search raises SolveTimeUp (the review's bound drops the decision); with
    keep_guesses the decision is taken at once: on the guesses solved by then, else the hints' default declaration or
    the rule of thumb's card (no time for the Monte-Carlo bot's playouts)."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3, dealer=0)
    assert match.to_move is not None
    view, legal = match.view(match.to_move), match.legal_actions()
    bot = ExpertBot(match.rules)
    bot.deadline = time.monotonic()
    with pytest.raises(SolveTimeUp):
        bot.choose(view, legal, random.Random(0))
    bot.keep_guesses = True
    assert bot.choose(view, legal, random.Random(0)) == Stand()  # Dreyfus's default declaration
    assert bot.guesses == ()
    played = _advance(match, 3, 1)
    while played.phase is not Phase.PLAY or len(played.view(0).tricks) < 6:  # later tricks: quick to search
        played = _advance(played, 1, 1)
    view, legal = played.view(played.to_move), played.legal_actions()
    assert len(legal) > 1
    thumb = bot.policy.choose(view, legal, random.Random(0))
    bot.deadline = time.monotonic()
    assert bot.choose(view, legal, random.Random(0)) == thumb
    # With time enough the decision is the one a bot without a deadline takes, on the same guesses.
    bot.deadline, bot.samples = time.monotonic() + 600, 2
    chosen = bot.choose(view, legal, random.Random(5))
    unbounded = ExpertBot(played.rules, samples=2)
    assert chosen == unbounded.choose(view, legal, random.Random(5))
    assert bot.guesses == unbounded.guesses != ()


def test_the_fly_expert_s_best_response_search_keeps_the_deadline() -> None:
    """Fly's expert searches its model's guesses with a best response (Respond), which looks at the deadline as the
    solver does: past it the decision raises SolveTimeUp, or with keep_guesses falls to the rule of thumb's card."""
    match = _advance(fly.new_match(fly.FlyRules(players=5), seed=2, dealer=0), 5, 1)
    while match.phase is not Phase.PLAY:
        match = _advance(match, 1, 1)
    view, legal = match.view(match.to_move), match.legal_actions()
    assert len(legal) > 1
    bot = ExpertBot(match.rules)
    assert bot.model is not None  # Fly's expert plays against its model of the others: Respond's search
    bot.deadline = time.monotonic()
    with pytest.raises(SolveTimeUp):
        bot.choose(view, legal, random.Random(0))
    bot.keep_guesses = True
    assert bot.choose(view, legal, random.Random(0)) == bot.policy.choose(view, legal, random.Random(0))
    assert bot.guesses == ()


def test_a_best_response_search_raises_past_its_deadline_and_checks_it() -> None:
    """Respond looks at the clock every some positions: a deadline already past stops the first look."""
    deal = _advance(fly.new_match(fly.FlyRules(players=4), seed=7, dealer=0), 6, 3).deal
    assert deal.phase is Phase.PLAY
    seat = deal.to_move
    assert seat is not None
    model = RuleOfThumbBot()
    with pytest.raises(SolveTimeUp):
        Respond(seat, model, deadline=time.monotonic() - 1).values(deal, deal.legal_actions())
    later = Respond(seat, model, deadline=time.monotonic() + 600).values(deal, deal.legal_actions())
    assert later == Respond(seat, model).values(deal, deal.legal_actions())
    with pytest.raises(FlyRulesError, match="deadline must be a time.monotonic"):
        Respond(seat, model, deadline="soon")  # type: ignore[arg-type]


def test_a_declaration_replaces_the_rule_of_thumb_s_only_when_clearly_better(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no model of the others, in the exchange the expert keeps the rule of thumb's declaration unless another
    beats it, on the same guesses, by more than twice the standard error of the difference; with the model (its best
    responses are values, not bounds) it takes the best mean."""
    match = fly.new_match(fly.FlyRules(players=3), seed=4, dealer=0)
    seat = match.to_move
    assert seat is not None
    view, legal = match.view(seat), match.legal_actions()
    bot = ExpertBot(match.rules, samples=4, model=None)
    default = bot.policy.choose(view, legal, random.Random(0))
    other = next(action for action in legal if action != default)

    def worlds(defaults: list[int], others: list[int]) -> Any:
        def values(*_: Any) -> dict[Any, float]:
            bot._worlds = [{default: mine, other: theirs} for mine, theirs in zip(defaults, others, strict=True)]
            return {default: statistics.fmean(defaults), other: statistics.fmean(others)}

        return values

    monkeypatch.setattr(bot, "values", worlds([1, 2, 3, 4], [2, 3, 4, 6]))  # better on every guess
    assert bot.decide(view, legal, random.Random(0))[0] == other
    # better on average (5.5 to 5), but the differences (6, -5, 6, -5) are within the noise
    monkeypatch.setattr(bot, "values", worlds([0, 10, 0, 10], [6, 5, 6, 5]))
    assert bot.decide(view, legal, random.Random(0))[0] == default
    # the differences 1 and 3: their mean 2 is twice its standard error (1) and no more
    monkeypatch.setattr(bot, "values", worlds([0, 0], [1, 3]))
    assert bot.decide(view, legal, random.Random(0))[0] == default
    # 1, 3 and 1: the mean is 2.5 standard errors, more than twice
    monkeypatch.setattr(bot, "values", worlds([0, 0, 0], [1, 3, 1]))
    assert bot.decide(view, legal, random.Random(0))[0] == other
    # two guesses are enough to tell (2 and 3: five standard errors), one never is
    monkeypatch.setattr(bot, "values", worlds([0, 0], [2, 3]))
    assert bot.decide(view, legal, random.Random(0))[0] == other
    monkeypatch.setattr(bot, "values", worlds([0], [9]))
    assert bot.decide(view, legal, random.Random(0))[0] == default
    bot.model = bot.policy
    assert bot.decide(view, legal, random.Random(0))[0] == other


def test_the_expert_plays_wherever_bots_do() -> None:
    """The expert is an opponent by name wherever the library's bots are: OpenSpiel's ``engine_bot`` plays a
    deal with it, and Gymnasium's seat environment takes it as its opponents."""
    import gymnasium
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    import fly_rules.adapters.gymnasium  # noqa: F401 - registers the environments
    from fly_rules.adapters.openspiel import engine_bot

    game = pyspiel.load_game("python_fly(players=3)")
    bots = [engine_bot(game, "expert", seed=0), *(engine_bot(game, "rule-of-thumb", seed=s) for s in (1, 2))]
    assert len(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))) == 3
    env = gymnasium.make("fly_rules/Fly-v0", opponents="expert", players=3)
    _, info = env.reset(seed=0)
    over = False
    while not over:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        over = terminated or truncated
    env.close()


def _dreyfus_buyer() -> tuple[Any, Any, Any]:
    """The first seat of seed 4's Dreyfus match whose rule of thumb buys, the others standing before it: the rules,
    its view and its legal actions."""
    rules = dreyfus.DreyfusRules()
    match = dreyfus.new_match(rules, seed=4)
    thumb = RuleOfThumbBot()
    while True:
        seat = match.to_move
        assert seat is not None
        assert match.deal.phase is Phase.EXCHANGE
        view, legal = match.view(seat), match.legal_actions()
        if thumb.choose(view, legal, random.Random(0)) != Stand():
            return rules, view, legal
        match = match.apply(Stand())


def test_in_dreyfus_the_expert_keeps_standing_unless_a_purchase_is_clearly_better() -> None:
    """DRF-4.5: a purchase is written in the upper record, so the Dreyfus hints name standing as the declaration to
    keep; with no guess solved (no positions to spend) the expert stands where the rule of thumb would buy."""
    rules, view, legal = _dreyfus_buyer()
    hints = DreyfusExpertHints(rules)
    assert hints.default_declaration(view, legal) == Stand()
    assert hints.default_declaration(view, [a for a in legal if a != Stand()]) is None
    bot = ExpertBot(rules, samples=2, budget=0)
    assert bot.values(view, legal, random.Random(0)) == {}
    assert bot.choose(view, legal, random.Random(0)) == Stand()


def _fly_play(seed: int = 21) -> tuple[Any, Any, list[Any]]:
    """A Fly deal of four in its play, seven actions in: its rules, the view of the seat to move, its legal cards."""
    match = _advance(fly.new_match(fly.FlyRules(players=4), seed=seed, dealer=0), 7, 2)
    assert match.deal.phase is Phase.PLAY
    return match.rules, match.view(match.to_move), match.legal_actions()


def _means(guesses: tuple[Any, ...]) -> dict[Any, float]:
    return {action: sum(guess[action] for guess in guesses) / len(guesses) for action in guesses[0]}


def test_a_decision_s_guesses_share_its_budget_of_positions() -> None:
    """``positions`` counts what a decision's searches visited, over all its guesses. Given half of what an
    unbounded decision visits, the expert solves the first guesses of the same draw and stops at the first
    position past its budget (Dreyfus, paranoid, in the play)."""
    match = _advance(dreyfus.new_match(dreyfus.DreyfusRules(), seed=5), 18, 3)
    assert match.deal.phase is Phase.PLAY
    view, legal = match.view(match.to_move), match.legal_actions()
    unbounded = ExpertBot(match.rules, samples=4, budget=10**8)
    unbounded.values(view, legal, random.Random(3))
    assert len(unbounded.guesses) == 4
    spent = unbounded.positions
    assert 1000 < spent < 10**8
    bounded = ExpertBot(match.rules, samples=4, budget=spent // 2)
    bounded.values(view, legal, random.Random(3))
    assert 0 < len(bounded.guesses) < 4
    assert bounded.guesses == unbounded.guesses[: len(bounded.guesses)]
    assert bounded.positions == spent // 2 + 1


def test_a_budget_spent_mid_decision_leaves_the_mean_of_the_guesses_solved_by_then() -> None:
    """The positions of a decision are shared by its guesses: once the budget is spent the expert decides on the
    guesses solved so far (two of four here, against its model), valued as their mean."""
    rules, view, legal = _fly_play()
    bot = ExpertBot(rules, samples=4, budget=200, for_match=False)
    values = bot.values(view, legal, random.Random(6))
    assert len(bot.guesses) == 2
    assert values == pytest.approx(_means(bot.guesses))
    assert bot.choose(view, legal, random.Random(6)) == max(values, key=values.__getitem__)


def test_past_its_deadline_with_guesses_solved_the_expert_decides_on_their_mean(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With keep_guesses, a deadline passing in the third guess's search leaves the decision to the two solved
    by then: the mean of their values, and the best of those means."""
    rules, view, legal = _fly_play()
    calls = []

    def late(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise SolveTimeUp
        return evaluate(*args, **kwargs)

    monkeypatch.setattr("fly_rules.bots.expert.evaluate", late)
    bot = ExpertBot(rules, samples=4, model=None)
    bot.keep_guesses = True
    action, values = bot.decide(view, legal, random.Random(6))
    assert len(bot.guesses) == 2
    assert values == pytest.approx(_means(bot.guesses))
    assert action == max(values, key=values.__getitem__)


@pytest.mark.parametrize("model", ["rule of thumb", None])
def test_the_expert_stops_guessing_once_its_seconds_are_spent(monkeypatch: pytest.MonkeyPatch, model: Any) -> None:
    """``seconds`` bounds the CPU time of a decision: with a clock that moves a second at each reading (one at
    the start, one before each guess after the first) and 2 seconds allowed, the expert starts guesses while no
    more than 2 seconds are spent: three of the five it would, and it decides on their mean."""
    rules, view, legal = _fly_play()
    clock = iter(range(1000, 2000))
    monkeypatch.setattr(time, "process_time", lambda: float(next(clock)))
    options: dict[str, Any] = {"model": None} if model is None else {"for_match": False}
    bot = ExpertBot(rules, samples=5, seconds=2.0, **options)
    values = bot.values(view, legal, random.Random(6))
    assert len(bot.guesses) == 3
    assert values == pytest.approx(_means(bot.guesses))


def test_in_the_exchange_the_expert_draws_its_declaration_samples() -> None:
    """Against its model a declaration is valued on ``declaration_samples`` guesses, a card on ``samples``."""
    match = fly.new_match(fly.FlyRules(players=4), seed=8, dealer=0)
    assert match.deal.phase is Phase.EXCHANGE
    assert match.to_move is not None
    bot = ExpertBot(match.rules, samples=2, for_match=False)
    bot.declaration_samples = 3
    values = bot.values(match.view(match.to_move), match.legal_actions(), random.Random(3))
    assert len(bot.guesses) == 3
    assert values == pytest.approx(_means(bot.guesses))
    rules, view, legal = _fly_play()
    bot = ExpertBot(rules, samples=2, for_match=False)
    bot.declaration_samples = 3
    bot.values(view, legal, random.Random(6))
    assert len(bot.guesses) == 2


def test_only_an_expert_with_a_model_keeps_guesses_as_its_model_would_have_played() -> None:
    """``kept_guesses`` needs hints that rebuild a guess as the model's players would have played it: a Dreyfus
    expert refuses, naming the game."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3, dealer=0)
    assert match.to_move is not None
    with pytest.raises(TypeError, match="the expert takes no model of the other seats in Dreyfus"):
        ExpertBot(match.rules).kept_guesses(match.view(match.to_move), random.Random(0), 2)


@pytest.mark.parametrize(("folds", "concept"), [(0, "paranoid"), (2, "paranoid"), (0, "maxn")])
def test_without_a_model_a_declaration_is_valued_by_the_solver_after_the_rule_of_thumb_s_later_declarations(
    folds: int, concept: Any
) -> None:
    """With ``model=None`` each candidate declaration is made in each guess (the game's own guess, then the deal
    as the view shows it), the later seats declare by the rule of thumb, and the play is solved for the seat under
    the expert's concept (paranoid; max^n if a game's hints said so): the value is the seat's score at the end less
    its score now, meaned over the guesses. After two folds the last seat's declaration ends the deal (it plays
    alone, FLY-5.5, or nobody does, FLY-5.4): its value is the score the deal's end gives."""
    match = fly.new_match(fly.FlyRules(players=3), seed=8, dealer=0)
    for _ in range(folds):
        match = match.apply(Fold())
    seat = match.to_move
    assert seat is not None
    view, legal = match.view(seat), match.legal_actions()
    bot = ExpertBot(match.rules, samples=2, model=None)
    bot.concept = concept
    values = bot.values(view, legal, random.Random(3))
    hints, thumb, rng = FlyExpertHints(match.rules), bot.policy, random.Random(3)
    candidates = hints.candidates(view, legal)
    guesses: list[dict[Any, int]] = []
    while len(guesses) < 2:
        sample = sample_deal(view, match.rules, rng, records=hints.replay_records(view), tries=1)
        if sample is None:
            continue
        deal = hints.world(view, sample)
        found = {}
        for action in candidates:
            after = deal.apply(action)
            while after.phase is Phase.EXCHANGE:
                after = after.apply(thumb.choose(after.view(after.to_move), after.legal_actions(), random.Random(0)))
            end = (
                after.scores[seat]
                if after.is_over
                else after.scores[seat]
                + (solve(after) if concept == "maxn" else solve(after, concept="paranoid", seat=seat)).values[seat]
            )
            found[action] = end - deal.scores[seat]
        guesses.append(found)
    assert list(bot.guesses) == guesses
    assert values == pytest.approx(_means(tuple(guesses)))
    assert len(set(values.values())) > 1
    if folds:
        assert values[Fold()] == 0  # a void deal
        assert values[Stand()] == 5  # the five tricks credited to a lone player


@pytest.mark.parametrize("guided", [True, False])
def test_kept_guesses_counts_its_draws_and_unguided_draws_the_game_s_own_guess(
    monkeypatch: pytest.MonkeyPatch, guided: bool
) -> None:
    """``kept_guesses`` returns how many guesses it drew; guided (the default) it draws with the hints' guesser
    for the model and, after the first guess, without what the model's plays rule out; ``guided=False`` with the
    game's own guess and nothing ruled out."""
    rules, view, _ = _fly_play()
    calls: list[dict[str, Any]] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return sample_deal(*args, **kwargs)

    monkeypatch.setattr("fly_rules.bots.expert.sample_deal", counted)
    bot = ExpertBot(rules, samples=3, for_match=False)
    kept, drawn = bot.kept_guesses(view, random.Random(6), 3, guided=guided)
    assert len(kept) == 3
    assert drawn == len(calls) >= 3
    assert all(call["records"] == FlyExpertHints(rules).replay_records(view) for call in calls)
    if guided:
        assert all(call["guesser"] is not None for call in calls)
        assert calls[0]["forbidden"] is None
        assert all(call["forbidden"] is not None for call in calls[1:])
    else:
        assert all(call["guesser"] is None and call["forbidden"] is None for call in calls)


def test_each_decision_records_its_cpu_seconds() -> None:
    """``decisions`` gets the CPU seconds of each decision with a choice (within the time measured around it), and
    nothing for a forced one."""
    rules, view, legal = _fly_play()
    bot = ExpertBot(rules, samples=2, for_match=False)
    started = time.process_time()
    bot.choose(view, legal, random.Random(1))
    spent = time.process_time() - started
    assert len(bot.decisions) == 1
    assert 0 < bot.decisions[0] <= spent
    bot.choose(view, legal[:1], random.Random(1))
    assert len(bot.decisions) == 1


def test_a_seat_that_declares_twice_is_searched_on_its_candidates_in_the_second_round() -> None:
    """Under ``declaration_mode="fold_round_then_exchange"`` a seat that stands in the first round chooses its
    exchange in the second: the best response to the model searches there the hints' candidates (stand, each
    count of the weakest cards) [FLY-4.1]."""
    rules = fly.FlyRules(players=4, declaration_mode="fold_round_then_exchange")
    match = fly.new_match(rules, seed=8, dealer=0)
    assert match.to_move is not None
    view, legal = match.view(match.to_move), match.legal_actions()
    assert legal == (Stand(), Fold())
    bot = ExpertBot(rules, samples=2, for_match=False)
    values = bot.values(view, legal, random.Random(3))
    assert list(values) == [Stand(), Fold()]
    assert len(bot.guesses) == 2
    assert values == pytest.approx(_means(bot.guesses))
    assert values[Fold()] == 0
    assert values[Stand()] != 0


def test_a_random_model_plays_on_from_fixed_randomness_so_the_expert_replays() -> None:
    """Valuing a declaration sight-free, the seat plays on as its model would; a model that draws from its
    randomness is given a fixed one, so the same seed gives the same values."""
    match = fly.new_match(fly.FlyRules(players=4), seed=8, dealer=0)
    assert match.to_move is not None
    view, legal = match.view(match.to_move), match.legal_actions()
    runs = [
        ExpertBot(match.rules, samples=2, model=RandomBot(), for_match=False).values(view, legal, random.Random(3))
        for _ in range(3)
    ]
    assert runs[0] == runs[1] == runs[2]
    assert len(set(runs[0].values())) > 1


def test_guided_guesses_give_way_to_the_game_s_own_after_as_many_failures_in_a_row_as_guesses_wanted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each guided draw is one try of ``sample_deal``; when as many of them in a row as the guesses wanted (3) find
    no deal, the expert draws as the game does from then on (no guesser, nothing ruled out). A draw that finds a
    deal starts the count again: fail, fail, find, fail, fail, fail gives way after the sixth."""
    rules, view, _ = _fly_play()
    finds = iter([False, False, True, False, False, False])
    calls: list[dict[str, Any]] = []

    def scripted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        if kwargs["guesser"] is not None and not next(finds, False):
            return None
        return sample_deal(*args, **kwargs)

    monkeypatch.setattr("fly_rules.bots.expert.sample_deal", scripted)
    kept, drawn = ExpertBot(rules, for_match=False).kept_guesses(view, random.Random(6), 3)
    assert len(kept) == 3
    assert drawn == len(calls) > 6
    assert [call["guesser"] is not None for call in calls] == [True] * 6 + [False] * (len(calls) - 6)
    assert all(call["forbidden"] is None for call in calls[6:])
    assert all(call["tries"] == 1 for call in calls)


def test_kept_guesses_stops_drawing_once_enough_agree_with_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the deal's first declaration no other seat has moved, so every guess agrees with the model: the expert
    draws exactly the guesses it wants, each with no misses, and keeps them in the order drawn."""
    match = fly.new_match(fly.FlyRules(players=4), seed=8, dealer=0)
    assert match.to_move is not None
    bot = ExpertBot(match.rules, for_match=False)
    assert bot.modelling is not None
    modelled, made = bot.modelling.modelled, list[Any]()

    def recorded(*args: Any) -> Any:
        made.append(modelled(*args))
        return made[-1]

    monkeypatch.setattr(bot.modelling, "modelled", recorded)
    kept, drawn = bot.kept_guesses(match.view(match.to_move), random.Random(6), 5)
    assert drawn == 5
    assert kept == [(misses, deal) for deal, misses in made]
    assert [misses for misses, _ in kept] == [0] * 5


def test_a_guess_the_model_cannot_lead_to_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """A guessed deal the model's declarations cannot lead to (``modelled`` gives None) is not kept, and drawing
    goes on: the guesses wanted are kept from the later draws."""
    rules, view, _ = _fly_play()
    bot = ExpertBot(rules, for_match=False)
    assert bot.modelling is not None
    modelled, refused = bot.modelling.modelled, [True, True]

    def first_two_refused(*args: Any) -> Any:
        return None if refused and refused.pop() else modelled(*args)

    monkeypatch.setattr(bot.modelling, "modelled", first_two_refused)
    kept, drawn = bot.kept_guesses(view, random.Random(6), 3)
    assert not refused
    assert len(kept) == 3
    assert drawn >= 5


def test_in_dreyfus_a_purchase_within_the_noise_of_standing_leaves_the_seat_standing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The declaration kept unless another is clearly better is the hints' own (standing, in Dreyfus), not the rule
    of thumb's: with a third declaration best on average but within the noise of both, the expert stands."""
    rules, view, legal = _dreyfus_buyer()
    bot = ExpertBot(rules, samples=4)
    thumb = bot.policy.choose(view, legal, random.Random(0))
    other = next(action for action in legal if action not in (Stand(), thumb))
    worlds: list[Mapping[Any, float]] = [
        {Stand(): mine, thumb: mine, other: theirs} for mine, theirs in ((0, 6), (10, 5), (0, 6), (10, 5))
    ]

    def values(*_: Any) -> dict[Any, float]:
        bot._worlds = worlds
        return {action: statistics.fmean(world[action] for world in worlds) for action in worlds[0]}

    monkeypatch.setattr(bot, "values", values)
    assert bot.decide(view, legal, random.Random(0))[0] == Stand()


def test_with_no_guess_solved_the_monte_carlo_bot_decides_and_past_the_deadline_the_rule_of_thumb() -> None:
    """No guess solved within the budget: the Monte-Carlo bot's card. No guess solved by the deadline (with
    ``keep_guesses``): the rule of thumb's, there being no time for playouts. Here the two differ."""
    match = _advance(fly.new_match(fly.FlyRules(players=4), seed=4, dealer=0), 5, 1)
    assert match.to_move is not None
    view, legal = match.view(match.to_move), match.legal_actions()
    spent = ExpertBot(match.rules, samples=2, budget=0)
    rng = random.Random(0)
    assert spent.values(view, legal, rng) == {}
    monte_carlo = spent.fallback.choose(view, legal, rng)  # from the randomness the guesses left
    thumb = spent.policy.choose(view, legal, random.Random(0))
    assert monte_carlo != thumb
    assert spent.decide(view, legal, random.Random(0)) == (monte_carlo, {})
    late = ExpertBot(match.rules, samples=2)
    late.deadline, late.keep_guesses = time.monotonic() - 1, True
    assert late.decide(view, legal, random.Random(0)) == (thumb, {})


@pytest.mark.parametrize(
    ("argument", "error", "message"),
    [
        ({"model": 5}, TypeError, "model must be a bot (with choose(view, legal_actions, rng)) or None, not 5"),
        ({"for_match": "yes"}, FlyRulesError, "for_match must be None, True or False, not 'yes'"),
        ({"samples": 0}, FlyRulesError, "samples must be a whole number >= 1, not 0"),
        ({"budget": -1}, FlyRulesError, "budget must be a whole number >= 0, not -1"),
        ({"seconds": "x"}, FlyRulesError, "seconds must be a number above 0, not 'x'"),
    ],
)
def test_each_argument_the_expert_cannot_use_is_refused_by_name(
    argument: dict[str, Any], error: type[Exception], message: str
) -> None:
    """A bad argument is refused when the bot is made, in one line naming the argument and what it was."""
    with pytest.raises(error) as refused:
        ExpertBot(fly.FlyRules(players=3), **argument)
    assert str(refused.value) == message


def test_one_action_is_worth_nothing_to_search() -> None:
    """With one action to weigh there is nothing to search: its value is 0 and no guess is drawn."""
    rules, view, legal = _fly_play()
    bot = ExpertBot(rules, samples=2, model=None)
    assert bot.values(view, legal[:1], random.Random(0)) == {legal[0]: 0.0}
    assert bot.guesses == ()


def test_the_default_declaration_is_valued_even_where_the_hints_leave_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The declaration kept unless another is clearly better is always among those searched: where the hints'
    candidates leave it out, it is searched last."""
    match = fly.new_match(fly.FlyRules(players=3), seed=8, dealer=0)
    assert match.to_move is not None
    view, legal = match.view(match.to_move), match.legal_actions()
    bot = ExpertBot(match.rules, samples=2, model=None)
    default = bot.policy.choose(view, legal, random.Random(0))
    candidates = bot.hints.candidates
    monkeypatch.setattr(bot.hints, "candidates", lambda *args: [a for a in candidates(*args) if a != default])
    values = bot.values(view, legal, random.Random(3))
    assert list(values)[-1] == default
    assert len(values) == len(candidates(view, legal))


def test_without_a_model_each_guess_is_one_try_of_the_game_s_guess_and_three_per_guess_wanted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a model, each guess is one try of ``sample_deal`` from the records the hints replay; a try that finds
    no deal is passed over, and the expert stops after three tries per guess wanted."""
    rules, view, legal = _fly_play()
    calls: list[dict[str, Any]] = []
    finds = iter([False, True, False, True])

    def scripted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return sample_deal(*args, **kwargs) if next(finds, False) else None

    monkeypatch.setattr("fly_rules.bots.expert.sample_deal", scripted)
    bot = ExpertBot(rules, samples=2, model=None)
    bot.values(view, legal, random.Random(0))
    assert len(bot.guesses) == 2
    assert len(calls) == 4
    assert all(call == {"records": FlyExpertHints(rules).replay_records(view), "tries": 1} for call in calls)
    calls.clear()
    bot.values(view, legal, random.Random(0))
    assert not bot.guesses
    assert len(calls) == 6


def test_declarations_take_the_hints_samples_unless_samples_are_given() -> None:
    """Against its model the expert values a declaration on the hints' ``declaration_samples`` (Fly: 64) and a
    card on ``samples``; given ``samples``, both take it; without a model (Dreyfus) declarations take ``samples``.
    A bot made and not yet asked has searched nothing and solved no guess."""
    fly_rules, drf_rules = fly.FlyRules(players=4), dreyfus.DreyfusRules()
    default = ExpertBot(fly_rules)
    assert (default.samples, default.declaration_samples) == (12, FlyExpertHints(fly_rules).declaration_samples)
    assert FlyExpertHints(fly_rules).declaration_samples == 64
    assert ExpertBot(fly_rules, samples=5).declaration_samples == 5
    assert ExpertBot(drf_rules).declaration_samples == ExpertBot(drf_rules).samples == 6
    assert (default.positions, default.guesses) == (0, ())
