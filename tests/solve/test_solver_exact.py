"""The solver against a brute-force search of the same solution concepts, on random positions under random options.

Fly with 3 to 7 players late in the play (two or three tricks left, from any point of a trick), from the first
lead where the whole tree fits, and in the exchange where the last declarations decide the deal; Dreyfus from the
last four tricks (three when revokes are penalised: then every card may be played). Each position compares max^n
(every seat's values, the line, every action's values) and the paranoid search of the seat to move (its value and
the line) with :class:`tests.solve.brute.Brute`.
"""

from __future__ import annotations

import os
import random
from operator import sub
from typing import Any

import attrs
import pytest

from fly_rules import dreyfus, fly
from fly_rules.actions import Fold, Stand
from fly_rules.engine import Phase
from fly_rules.solve import CONCEPTS, Search, kernel_of, solve
from tests.solve.brute import Brute, TooBig, tie_order
from tests.solve.options import DREYFUS_CHOICES, FLY_CHOICES, dreyfus_rules, fly_rules

POSITIONS = {"fly late": 1300, "fly first lead": 60, "fly exchange": 140, "dreyfus last four": 500}
"""How many positions of each kind are compared (2,000 in all)."""
SHARE = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "mutation" else 1
"""Under ``scripts/mutation`` a tenth of the positions (a mutant is caught at its first wrong value, and one that
survives runs them all), and the options they drew are not counted."""


def _declare(deal: Any, rng: random.Random, *, fold_first: bool) -> Any:
    """Every declaration but the last few, at random (standing more often than not, or folding when asked)."""
    while deal.phase is Phase.EXCHANGE:
        legal = list(deal.legal_actions())
        action: Any
        if fold_first and Fold() in legal and deal.to_move != deal.dealer:
            action = Fold()
        elif rng.random() < 0.6 and Stand() in legal:
            action = Stand()
        else:
            action = rng.choice(legal)
        deal = deal.apply(action)
    return deal


def _fly_late(rng: random.Random) -> Any:
    rules = fly_rules(rng)
    deal = fly.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(rules.players)).deal
    deal = _declare(deal, rng, fold_first=False)
    left = 3 if rules.players <= 4 else 2
    while not deal.is_over:
        cards = max(mask.bit_count() for mask, on in zip(deal.hand_masks, deal.active, strict=True) if on)
        if cards <= left and (not deal.trick_cards or rng.random() < 0.4):
            return deal
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return None


def _fly_first_lead(rng: random.Random) -> Any:
    rules = fly_rules(rng, players=3)
    deal = fly.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(3)).deal
    deal = _declare(deal, rng, fold_first=rng.random() < 0.5)
    return deal if deal.phase is Phase.PLAY else None


def _fly_exchange(rng: random.Random) -> Any:
    """The last declarer to decide, every seat before him folded: his choice alone ends the deal."""
    rules = fly_rules(rng, players=rng.randint(3, 5))
    deal = fly.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(rules.players)).deal
    while deal.phase is Phase.EXCHANGE and deal.to_move != deal.dealer:
        legal = deal.legal_actions()
        deal = deal.apply(Fold() if Fold() in legal else rng.choice(list(legal)))
    return deal if deal.phase is Phase.EXCHANGE else None


def _dreyfus_last_four(rng: random.Random) -> Any:
    rules = dreyfus_rules(rng)
    deal = dreyfus.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(3)).deal
    while deal.phase is Phase.EXCHANGE:
        legal = deal.legal_actions()
        deal = deal.apply(legal[0] if rng.random() < 0.5 else legal[rng.randrange(min(len(legal), 40))])
    last = 9 if rules.revoke_mode == "penalize" else 8  # with revokes every card may be played: three tricks
    while len(deal.past_tricks) < last or (deal.trick_cards and rng.random() < 0.5):
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return deal


KINDS = {
    "fly late": _fly_late,
    "fly first lead": _fly_first_lead,
    "fly exchange": _fly_exchange,
    "dreyfus last four": _dreyfus_last_four,
}


def _play(state: Any, line: list[Any]) -> Any:
    for action in line:
        state = state.apply(action)
    return state


def _compare(deal: Any, limit: int) -> None:
    """max^n and paranoid of the seat to move, solver against brute force (TooBig if the tree is too big)."""
    brute = Brute(limit)
    (final, line), each = brute.maxn_children(deal)
    mover = deal.to_move
    hero_final, hero_line = brute.paranoid(deal, mover)
    solution = solve(deal)
    assert solution.values == tuple(map(sub, final, deal.scores)), deal
    assert list(solution.line) == line, deal
    assert solution.best == line[0]
    assert _play(deal, list(solution.line)).scores == final
    assert dict(solution.action_values) == {a: tuple(map(sub, v, deal.scores)) for a, v in each.items()}
    assert list(solution.action_values) == tie_order(deal)
    paranoid = solve(deal, concept="paranoid")
    assert paranoid.seat == mover
    assert paranoid.values[mover] == hero_final - deal.scores[mover], deal
    assert list(paranoid.line) == hero_line, deal


@pytest.mark.no_cover
@pytest.mark.parametrize("kind", list(POSITIONS))
def test_solver_equals_brute_force(kind: str) -> None:
    """On random positions under random options, :func:`fly_rules.solve.solve` finds exactly what a brute-force
    search of max^n and of the paranoid concept finds: the values, the line and every action's values."""
    rng = random.Random(f"solver {kind}")
    compared = tried = 0
    seen_options: set[str] = set()
    wanted = POSITIONS[kind] // SHARE
    while compared < wanted:
        tried += 1
        assert tried < 20 * wanted, f"only {compared} {kind} positions fit in {tried} tries"
        deal = KINDS[kind](rng)
        if deal is None:
            continue
        try:
            _compare(deal, limit=15_000)
        except TooBig:
            continue
        compared += 1
        seen_options |= set(deal.rules.non_default_options())
    choices = DREYFUS_CHOICES if kind.startswith("dreyfus") else FLY_CHOICES
    assert SHARE > 1 or set(choices) - {"max_deals"} <= seen_options | {"deck_size"}, set(choices) - seen_options


def _same_cards(rules: Any, rng: random.Random, records: list[list[int]]) -> list[Any] | None:
    """One position at a trick's start late in the play, reached by the same actions from the same cards under each
    of ``records``; None if the actions do not fit them all (a record reached zero under some only)."""
    cards = list(rules.deck)
    rng.shuffle(cards)
    n = rules.players
    pieces = {"hands": [cards[5 * s : 5 * s + 5] for s in range(n)], "trump_card": cards[5 * n]}
    pieces |= {"stock": cards[5 * n + 1 :], "dealer": rng.randrange(n)}
    deals = [fly.new_deal(rules, **pieces, records=each) for each in records]
    first = deals[0]
    left = 3 if n <= 4 else 2
    while not first.is_over:
        held = max(mask.bit_count() for mask, on in zip(first.hand_masks, first.active, strict=True) if on)
        if first.phase is Phase.PLAY and held <= left and not first.trick_cards:
            return deals
        action = rng.choice(first.legal_actions())
        if any(action not in deal.legal_actions() for deal in deals[1:]):
            return None
        deals = [deal.apply(action) for deal in deals]
        first = deals[0]
        if any(deal.is_over for deal in deals[1:]):  # a record reached zero only from some records
            return None
    return None


def test_a_table_filled_from_other_records_stays_exact() -> None:
    """The key writes a record the rest of the deal cannot bring to zero as -1 (its seat's future is the same from
    any such record) [FLY-8.2] [FLY-9.1] [FLY-9.2]: a table filled on one position serves the same cards from other
    records, and the values still equal a brute-force search's."""
    rng = random.Random("solver records")
    compared = 0
    near = [1, 2, 3, 4, 5, 6, 7]
    for _ in range(600):
        rules = fly_rules(rng)
        records = [[rng.choice([*near, rules.start_record]) for _ in range(rules.players)] for _ in range(2)]
        pair = _same_cards(rules, rng, records)
        if pair is None:
            continue
        first, second = pair
        search = Search(kernel_of(first))
        search.maxn(search.kernel.node(first))
        try:
            (final, _), _ = Brute(15_000).maxn_children(second)
        except TooBig:
            continue
        filled = len(search.table)
        assert search.maxn(search.kernel.node(second)) == final, (first, second)
        compared += filled > 0
    assert compared >= 200


def test_trick_counts_serve_any_records_out_of_reach() -> None:
    """Where no record can reach zero any more, the table holds the tricks each seat takes, whatever the records
    [FLY-8.2] [FLY-8.4] [FLY-9.1]: filled from far records, it answers the same cards from other far records with
    one position, exactly; and from records within reach (where a trick may win the match or overshoot) the search
    does not take those counts, and still equals a brute-force search."""
    rng = random.Random("solver trick counts")
    compared = 0
    for _ in range(400):
        rules = fly_rules(rng)
        n = rules.players
        far = [[40 + rng.randrange(60) for _ in range(n)] for _ in range(2)]  # beyond 5 tricks, bonus and all
        deals = _same_cards(rules, rng, [*far, [rng.randint(1, 6) for _ in range(n)]])
        if deals is None:
            continue
        try:
            finals = [Brute(15_000).maxn_children(deal)[0][0] for deal in deals]
        except TooBig:
            continue
        search = Search(kernel_of(deals[0]))
        assert search.maxn(search.kernel.node(deals[0])) == finals[0]
        before = search.nodes
        assert search.maxn(search.kernel.node(deals[1])) == finals[1], deals
        assert search.nodes == before + 1  # the first position's entry, from other records
        assert search.maxn(search.kernel.node(deals[2])) == finals[2], deals
        compared += 1
    assert compared >= 150


def test_the_branches_of_the_exchange_share_no_wrong_entry() -> None:
    """Searched from the exchange, one table serves branches that differ in what the key must still tell apart: a
    fold leaves the hand in the deal [FLY-5.1] (the stand and the fold of one declaration have the same hands, not
    the same live cards), and who holds the A♠ changes with the exchanges, so once the A♠ is played the bonus may be
    due to different seats [FLY-8.3]. Each branch, searched after its elder siblings, gets what a fresh search gets."""
    rng = random.Random("stand or fold")
    checked = 0
    while checked < 12:  # the A♠ case first shows at the eleventh deal
        rules = fly.FlyRules(players=3)
        deal = fly.new_match(rules, seed=rng.randrange(10**6), dealer=rng.randrange(3)).deal.apply(Stand())
        if deal.phase is not Phase.EXCHANGE or Fold() not in deal.legal_actions():
            continue
        search = Search(kernel_of(deal))
        for token, child in search.kernel.children(search.kernel.node(deal)):
            fresh = Search(kernel_of(deal))
            assert search.maxn(child) == fresh.maxn(fresh.kernel.node(deal.apply(token))), (deal, token)
        checked += 1


def test_following_best_realises_the_values() -> None:
    """From every position of the solver's line, solving again gives the rest of the same line and the same
    values: a seat that follows ``best`` at every step gets exactly ``values`` (max^n and paranoid)."""
    rng = random.Random("follow")
    checked = 0
    while checked < 40:
        deal = _fly_late(rng) if checked % 2 else _dreyfus_last_four(rng)
        if deal is None:
            continue
        for concept in CONCEPTS:
            solution = solve(deal, concept=concept)
            state, seat = deal, solution.seat
            for k, action in enumerate(solution.line):
                again = solve(state, concept=concept, seat=seat)
                assert again.line == solution.line[k:]
                assert again.best == action
                assert tuple(map(sub, _play(state, list(again.line)).scores, state.scores)) == again.values
                state = state.apply(action)
            assert tuple(map(sub, state.scores, deal.scores)) == solution.values
        checked += 1


@pytest.mark.parametrize(("cls", "choices"), [(fly.FlyRules, FLY_CHOICES), (dreyfus.DreyfusRules, DREYFUS_CHOICES)])
def test_every_option_is_varied(cls: type, choices: dict[str, list[Any]]) -> None:
    """The differential test draws every option of both rules classes (a new option must be added to it)."""
    fields = {field.alias for field in attrs.fields(cls) if field.init} - {"players"}
    assert set(choices) == fields
