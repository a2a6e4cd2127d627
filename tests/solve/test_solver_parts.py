"""The solver's parts on small positions, each checked against a whole solution or by hand: ``evaluate`` beside
``solve``, the best response's count of positions, its choices, its worth and its model's randomness, and the
words of every refusal (``fly_rules.solve``)."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator, Sequence
from typing import Any, Literal

import pytest

from fly_rules import dreyfus, fly, registry
from fly_rules.actions import Action, Play, Stand
from fly_rules.bots import RuleOfThumbBot
from fly_rules.cards import Card, Suit
from fly_rules.dreyfus.solving import DreyfusKernel
from fly_rules.engine import Phase
from fly_rules.errors import FlyRulesError
from fly_rules.fly.solving import FlyKernel
from fly_rules.solve import Search, SolveLimitReached, SolveTimeUp, evaluate, kernel_of, solve
from fly_rules.solve.respond import Respond, best_response

HANDS = ["7C 8C 9C TC JC", "7H 8H TH JH QH", "7D 8D 9D TD JD"]


def _open(records: Sequence[int] | None = None) -> Any:
    """A three-seat Fly deal at its first lead, every seat standing (records as given, else the start's)."""
    deal = fly.new_deal(
        fly.FlyRules(players=3), dealer=0, hands=HANDS, trump_card="AS", stock=["7S", "8S"], records=records
    )
    for _ in range(3):
        deal = deal.apply(Stand())
    return deal


def _late(seed: int) -> Any:
    """Seed ``seed``'s three-seat match played at random to its last two tricks."""
    rng = random.Random(seed)
    match = fly.new_match(fly.FlyRules(players=3), seed=seed, dealer=0)
    deal = match.deal
    while not deal.is_over and (deal.phase.value != "play" or max(m.bit_count() for m in deal.hand_masks) > 2):
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize("records", [None, [7, 12, 30]])
def test_evaluate_gives_each_action_s_change_of_the_seat_s_score_as_solve_does(records: list[int] | None) -> None:
    """max^n: each action's value for the seat to move (or another seat) is the change of that seat's score in the
    solution after it; paranoid: the best of them is the paranoid solution's value; from any records."""
    deal = _open(records)
    solution = solve(deal)
    mover = deal.to_move
    assert evaluate(deal) == {action: values[mover] for action, values in solution.action_values.items()}
    assert evaluate(deal, seat=2) == {action: values[2] for action, values in solution.action_values.items()}
    paranoid = evaluate(deal, concept="paranoid")
    assert max(paranoid.values()) == solve(deal, concept="paranoid").values[mover]
    assert set(paranoid) == set(deal.legal_actions())
    for seed in range(3):
        late = _late(seed)
        if late.is_over:
            continue
        values = solve(late).action_values
        assert evaluate(late) == {action: each[late.to_move] for action, each in values.items()}


def test_every_refusal_of_the_solver_says_what_was_given() -> None:
    """A search that is no Search, a Search of another deal (naming both), a limit beside a search, a seat out of
    range: each refused in words naming the value; the errors of a search that ran out say how."""
    deal = _open()
    with pytest.raises(TypeError, match="^search must be a Search made for this deal, not str$"):
        evaluate(deal, search="a search")  # type: ignore[arg-type]
    other = Search(kernel_of(fly.new_match(fly.FlyRules(players=4), seed=1).deal))
    with pytest.raises(FlyRulesError, match=r"its kernel is FlyKernel, the deal is FlyDeal, or the same game's"):
        evaluate(deal, search=other)
    with pytest.raises(
        FlyRulesError, match=r"^give the limit to the Search \(Search\(kernel, limit\)\), not beside search=$"
    ):
        evaluate(deal, search=Search(kernel_of(deal)), limit=5)
    with pytest.raises(FlyRulesError, match="^seat must be a seat number from 0 to 2, not 7$"):
        evaluate(deal, seat=7)
    assert str(SolveLimitReached(1500)) == "the solver visited more than 1,500 positions (its limit) before it was done"
    assert str(SolveTimeUp()) == "the solver was not done by its deadline"
    with pytest.raises(FlyRulesError, match=r"^seat 2 is not to move \(the seat to move: 1\)$"):
        best_response(deal, 2, RuleOfThumbBot())
    with pytest.raises(FlyRulesError, match="^seat must be a seat number, not -1$"):
        Respond(-1, RuleOfThumbBot())
    with pytest.raises(
        TypeError, match=r"^the model must be a bot \(with choose\(view, legal_actions, rng\)\), not 5$"
    ):
        Respond(1, 5)  # type: ignore[arg-type]


@pytest.fixture
def whist() -> Iterator[Any]:
    """The test game whist, registered for the test (it has no search kernel of its own), and a deal of it."""
    from fly_rules.notation.games import make_rules, new_game
    from tests.thirdgame.present import WHIST

    registry.register(WHIST)
    try:
        match = new_game(make_rules("whist", max_deals=1), seed=3)
        bot, rng = registry.get("whist").rule_of_thumb(match.rules.rank_order), random.Random(3)
        while len(match.actions) < 30:
            match = match.apply(bot.choose(match.view(match.to_move), match.legal_actions(), rng))
        yield match.deal
    finally:
        registry.unregister("whist")


def test_a_game_without_a_kernel_of_its_own_is_searched_through_its_states(whist: Any) -> None:
    """A game's states alone give a kernel with no table: a Search made for its deal serves it, and a Search made
    for a Fly deal is refused for it in words, not with an AttributeError."""
    search = Search(kernel_of(whist))
    assert evaluate(whist, search=search) == evaluate(whist)
    assert solve(whist).best in whist.legal_actions()
    with pytest.raises(FlyRulesError, match="this Search was made for another deal"):
        evaluate(whist, search=Search(kernel_of(_open())))


def test_the_best_response_counts_its_positions_and_stops_past_its_limit() -> None:
    """The best response takes a match or its deal alike; it counts every position it enters (the seat's and the
    model's moves), none before it starts, and a limit of one fewer than it needs stops it."""
    deal = _open()
    match_values = best_response(fly.new_match(fly.FlyRules(players=3), seed=1), 1, RuleOfThumbBot())
    assert set(match_values) == set(fly.new_match(fly.FlyRules(players=3), seed=1).legal_actions())
    counting: Respond[Any] = Respond(1, RuleOfThumbBot())
    assert counting.nodes == 0
    values = counting.values(deal, deal.legal_actions())
    assert values == best_response(deal, 1, RuleOfThumbBot())
    assert values[Play(Card.parse("QH"))] == 5
    needed = counting.nodes
    assert needed > 2 * len(deal.legal_actions())  # the seat's positions and the model's
    assert Respond(1, RuleOfThumbBot(), limit=needed).values(deal, deal.legal_actions()) == values
    with pytest.raises(SolveLimitReached):
        Respond(1, RuleOfThumbBot(), limit=len(deal.legal_actions())).values(deal, deal.legal_actions())
    with pytest.raises(SolveLimitReached):
        best_response(deal, 1, RuleOfThumbBot(), limit=len(deal.legal_actions()))


class _DrawsFromZero:
    """A model that plays its first legal action, having checked that its randomness is ``random.Random(0)``'s."""

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        assert rng.random() == random.Random(0).random()
        return legal_actions[0]


def _first_lead(seed: int) -> Any:
    """Seed ``seed``'s three-seat match at its first lead, each seat having declared as the rule of thumb would."""
    deal = fly.new_match(fly.FlyRules(players=3), seed=seed, dealer=0).deal
    while deal.phase.value != "play":
        mover = deal.to_move
        assert mover is not None
        deal = deal.apply(RuleOfThumbBot().choose(deal.view(mover), deal.legal_actions(), random.Random(0)))
    return deal


def test_the_best_response_searches_its_choices_values_its_worth_and_asks_the_model_with_one_fixed_draw() -> None:
    """Only the seat's choices are searched where it moves, the end is valued by the worth given, and the model is
    asked with ``random.Random(0)``."""
    deal = _first_lead(0)
    seat = deal.to_move
    full = Respond(seat, _DrawsFromZero()).values(deal, deal.legal_actions())
    last: Respond[Any] = Respond(seat, _DrawsFromZero(), choices=lambda state, legal: legal[-1:])
    narrowed = last.values(deal, deal.legal_actions())
    assert set(narrowed) == set(full)
    assert all(narrowed[action] <= full[action] for action in full)
    assert narrowed != full
    worth: Respond[Any] = Respond(seat, _DrawsFromZero(), worth=lambda state: 10 * state.scores[seat])
    assert worth.values(deal, deal.legal_actions()) == {action: 10 * value for action, value in full.items()}


def test_a_deal_played_out_is_solved_with_nothing_left() -> None:
    """A deal at its end has no best action, no line, nothing to gain for any seat and no position searched; the
    concept and the seat asked for are kept."""
    deal = _first_lead(0)
    while not deal.is_over:
        deal = deal.apply(deal.legal_actions()[0])
    solution = solve(deal)
    assert (solution.concept, solution.seat, solution.best) == ("maxn", None, None)
    assert (solution.values, solution.line, dict(solution.action_values), solution.nodes) == ((0, 0, 0), (), {}, 0)
    paranoid = solve(deal, concept="paranoid", seat=2)
    assert (paranoid.concept, paranoid.seat, paranoid.values) == ("paranoid", 2, (0, 0, 0))
    assert evaluate(deal, seat=1) == {}


def test_a_search_counts_each_position_it_enters_once() -> None:
    """At the last trick, one card in each hand, there is one line: each zero-window pass of the paranoid search
    enters its four positions (three to play, the end) once, or the first alone where the kernel's bounds settle
    the pass there, and a limit of exactly those positions suffices."""
    deal = _first_lead(0)
    while max(mask.bit_count() for mask in deal.hand_masks) > 1 or deal.trick_cards:
        deal = deal.apply(deal.legal_actions()[0])
    search = Search(kernel_of(deal))
    value = search.paranoid_exact(search.kernel.node(deal), deal.to_move)
    assert search.passes >= 1
    assert search.passes <= search.nodes <= 4 * search.passes
    assert (search.nodes - search.passes) % 3 == 0
    exact = Search(kernel_of(deal), limit=search.nodes)
    assert exact.paranoid_exact(exact.kernel.node(deal), deal.to_move) == value
    short = Search(kernel_of(deal), limit=search.nodes - 1)
    with pytest.raises(SolveLimitReached):
        short.paranoid_exact(short.kernel.node(deal), deal.to_move)


def _extremes(kernel: Any, node: Any, seat: int) -> tuple[int, int]:
    """The least and most ``seat`` scores by the end of the deal over every line of play from ``node``."""
    if kernel.mover(node) is None:
        return kernel.scores(node)[seat], kernel.scores(node)[seat]
    ends = [_extremes(kernel, child, seat) for _, child in kernel.children(node)]
    return min(low for low, _ in ends), max(high for _, high in ends)


def test_the_dreyfus_bounds_hold_over_every_line_and_the_trumps_narrow_them() -> None:
    """The Dreyfus kernel's bounds at a trick's start (the trumps' sure tricks and those lost to another seat's
    higher trumps) enclose every line's score of the last three tricks, and are narrower than the tricks left."""
    rng, narrowed, checked = random.Random(51), 0, 0
    while checked < 30:
        rules = dreyfus.DreyfusRules(contract_cycle=(rng.choice(list(Suit)),))
        deal = dreyfus.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(3)).deal
        while deal.phase is Phase.EXCHANGE or len(deal.past_tricks) < 9 or deal.trick_cards:
            deal = deal.apply(rng.choice(deal.legal_actions()))
        kernel = DreyfusKernel(deal)
        node = kernel.node(deal)
        for seat in range(3):
            found = kernel.bounds(node, seat)
            assert found is not None  # no revokes to come
            low, high = found
            least, most = _extremes(kernel, node, seat)
            assert low <= least <= most <= high, (deal, seat)
            narrowed += (low, high) != (kernel.scores(node)[seat], kernel.scores(node)[seat] + 3)
            checked += 1
    assert narrowed > 5


@pytest.mark.parametrize("mode", ["none", "led_trump_ace"])
def test_the_fly_bounds_hold_over_every_line_where_no_record_can_reach_zero(
    mode: Literal["none", "led_trump_ace"],
) -> None:
    """The Fly kernel's bounds at a trick's start where no record can reach zero (without the A♠ privilege
    narrowed by the trumps) enclose every line's score of the last three tricks."""
    rng, checked = random.Random(51), 0
    for _ in range(60):
        rules = fly.FlyRules(players=rng.randint(3, 5), ace_of_spades_mode=mode)
        deal = fly.new_match(rules, seed=rng.randrange(10**6), dealer=0).deal
        while not deal.is_over and (deal.phase is Phase.EXCHANGE or len(deal.score.completed) < 2 or deal.trick_cards):
            deal = deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over:
            continue
        kernel = FlyKernel(deal)
        node = kernel.node(deal)
        for seat in range(rules.players):
            found = kernel.bounds(node, seat)
            if found is not None:
                least, most = _extremes(kernel, node, seat)
                assert found[0] <= least <= most <= found[1], (deal, seat)
                checked += 1
    assert checked >= 30


def test_the_solver_s_stops_cross_a_process_boundary() -> None:
    """``SolveLimitReached`` and ``SolveTimeUp`` survive pickling (a worker process's bot raises them to its
    caller) as themselves, the limit kept."""
    limit = pickle.loads(pickle.dumps(SolveLimitReached(1234)))
    assert type(limit) is SolveLimitReached
    assert limit.limit == 1234
    assert str(limit) == str(SolveLimitReached(1234))
    late = pickle.loads(pickle.dumps(SolveTimeUp()))
    assert type(late) is SolveTimeUp
    assert str(late) == str(SolveTimeUp())
