"""A Hypothesis state machine over whole Fly matches, for 3 to 7 players and rules
drawn from every option, checking the invariants of ``specs/fly.md`` after every action."""

from __future__ import annotations

import copy
import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fly_rules import Card, CardSet, Exchange, Fold, Play, RuleViolation, Stand
from fly_rules.fly import FlyDeal, FlyMatch, FlyRules, Phase, new_match
from fly_rules.spec import load_rules
from fly_rules.strategies import fly_rules_options, fly_states

DEFINED = set(load_rules())
STATS = {"matches": 0, "actions": 0, "illegal": 0}


def where_cards_are(deal: FlyDeal) -> list[CardSet]:
    """Every place a card can be: each hand, the stock, the turn-up, the discards, the tricks."""
    places = [*deal.hands, CardSet.of(deal.stock), deal.discards, deal.played]
    if deal.turnup_here:
        places.append(CardSet.of([deal.trump_card]))
    return places


def permute_hidden(deal: FlyDeal, seat: int, rng: random.Random) -> FlyDeal:
    """The same deal with every card ``seat`` cannot see shuffled among the hidden places."""
    hidden_places = [h for s, h in enumerate(deal.hand_masks) if s != seat] + [deal.exchanges.discard_mask]
    pool = [c for mask in hidden_places for c in range(52) if mask >> c & 1] + list(deal.exchanges.stock_indices)
    rng.shuffle(pool)
    hands = list(deal.hand_masks)
    position = 0
    for s in range(deal.rules.players):
        if s == seat:
            continue
        size = hands[s].bit_count()
        hands[s] = sum(1 << c for c in pool[position : position + size])
        position += size
    discards = sum(1 << c for c in pool[position : position + deal.exchanges.discard_mask.bit_count()])
    position += deal.exchanges.discard_mask.bit_count()
    stock = tuple(pool[position:])
    return deal.with_hidden(hand_masks=hands, stock=stock, discards=discards)


class FlyMatchMachine(RuleBasedStateMachine):
    """Plays whole matches one action at a time and checks every invariant after each."""

    def __init__(self) -> None:
        super().__init__()
        self.match: FlyMatch
        self.fly_rules: FlyRules
        self.seed = 0
        self.dealt: CardSet

    @initialize(
        rules=fly_rules_options(start_record=st.integers(2, 12)),
        seed=st.integers(0, 2**32 - 1),
        max_deals=st.integers(1, 4),
    )
    def start(self, rules: FlyRules, seed: int, max_deals: int) -> None:
        """FLY-10.1: a match starts from its rules and seed."""
        self.fly_rules = rules
        self.seed = seed
        self.match = new_match(attrs.evolve(rules, max_deals=max_deals), seed=seed)
        STATS["matches"] += 1
        note(f"rules: {rules.non_default_options()} players={rules.players} seed={seed}")

    @precondition(lambda self: self.match.is_over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_match(self, seed: int) -> None:
        """FLY-10.1: once a match is over, another with the same rules begins."""
        assert self.match.to_move is None
        self.seed = seed
        self.match = new_match(self.match.rules, seed=seed)
        STATS["matches"] += 1

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """FLY-4.2, FLY-6.2: every legal action applies and yields a new state; the old one is unchanged."""
        before = self.match
        snapshot = copy.deepcopy(before)
        action = data.draw(st.sampled_from(before.legal_actions()), label="action")
        self.match = before.apply(action)
        STATS["actions"] += 1
        assert before == snapshot
        assert self.match is not before

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def try_illegal(self, data: st.DataObject) -> None:
        """FLY-11.1: an action outside legal_actions() raises RuleViolation with a defined FLY rule, state unchanged."""
        state = self.match
        legal = set(state.legal_actions())
        deal = state.deal
        seat = deal.to_move
        assert seat is not None
        candidates: list[Any] = [Stand(), Fold()]
        candidates += [Play(card) for card in CardSet(0xFFFFFFFFFFFFF)]
        hand = deal.hands[seat]
        candidates += [Exchange(CardSet.of(c)) for c in [list(hand)[:k] for k in range(len(hand) + 1)]]
        candidates += [Exchange(CardSet.parse("AS KS QS JS TS 9S"))]
        illegal = [a for a in candidates if a not in legal]
        if not illegal:
            return
        action = data.draw(st.sampled_from(illegal), label="illegal")
        if self.fly_rules.revoke_mode == "penalize" and isinstance(action, Play) and action.card in hand:
            return  # FLY-11.2: a held card breaking a duty is accepted and penalised in this mode
        snapshot = copy.deepcopy(state)
        with pytest.raises(RuleViolation) as caught:
            state.apply(action)
        assert caught.value.rule in DEFINED, caught.value.rule
        assert str(caught.value).startswith(caught.value.rule + ": ")
        STATS["illegal"] += 1
        assert state == snapshot

    @invariant()
    def inv_card_conservation(self) -> None:
        """FLY-3.4, FLY-4.4: every card of the deck is in exactly one place."""
        deal = self.match.deal
        places = where_cards_are(deal)
        total = sum(len(p) for p in places)
        union = CardSet(0)
        for place in places:
            union |= place
        assert total == len(union) == len(self.fly_rules.deck)
        assert union == self.fly_rules.deck

    @invariant()
    def inv_hand_sizes(self) -> None:
        """FLY-3.1, FLY-6.2: five cards each until play; an active hand shrinks by one card per trick played."""
        deal = self.match.deal
        if deal.phase is Phase.EXCHANGE:
            for seat, hand in enumerate(deal.hands):
                assert len(hand) in (0, 5) if not deal.active[seat] else len(hand) == 5
        elif deal.phase is Phase.PLAY:
            done = len(deal.completed)
            for seat, hand in enumerate(deal.hands):
                if deal.active[seat]:
                    assert len(hand) == 5 - done - (seat in deal.trick_seats)

    @invariant()
    def inv_legal_actions_exactly_when_not_over(self) -> None:
        """FLY-10.3: there are legal actions exactly when the match is not over, and a seat to move."""
        legal = self.match.legal_actions()
        assert bool(legal) == (not self.match.is_over)
        assert (self.match.to_move is None) == self.match.is_over
        assert len(set(legal)) == len(legal)

    @invariant()
    def inv_records_never_negative(self) -> None:
        """FLY-9.2, FLY-9.3: no record is ever below zero between actions (immediate stop mode)."""
        deal = self.match.deal
        if self.fly_rules.stop_mode == "immediate" or deal.phase is not Phase.PLAY:
            assert all(r >= 0 for r in deal.records)

    @invariant()
    def inv_trick_counts_add_up(self) -> None:
        """FLY-6.6, FLY-8.2: tricks taken add up to the tricks completed; at most five per deal."""
        deal = self.match.deal
        if deal.phase is not Phase.EXCHANGE:
            assert sum(deal.tricks_taken) == len(deal.completed) <= 5
            for seat, taken in enumerate(deal.tricks_taken):
                assert taken == 0 or deal.active[seat]

    @invariant()
    def inv_winner_has_zero(self) -> None:
        """FLY-9.1: a winner's record is exactly zero."""
        for seat in self.match.winners:
            assert self.match.records[seat] == 0

    @invariant()
    def inv_determinism(self) -> None:
        """FLY-10.1: the same seed and the same actions give an equal state."""
        if len(self.match.actions) % 7:
            return
        replay = new_match(self.match.rules, seed=self.seed)
        for action in self.match.actions:
            replay = replay.apply(action)
        assert replay == self.match

    @invariant()
    def inv_view_hides_other_hands(self) -> None:
        """FLY-5.1: a seat's view is the same whatever the hidden cards of the others are."""
        deal = self.match.deal
        rng = random.Random(len(self.match.actions))
        for seat in range(self.fly_rules.players):
            assert deal.view(seat) == permute_hidden(deal, seat, rng).view(seat)
            assert deal.view(seat).hand == deal.hands[seat]

    def teardown(self) -> None:
        if hasattr(self, "match"):
            note(f"final: {self.match!r}")


FlyMatchMachine.TestCase.settings = settings(
    max_examples=max(1, settings().max_examples // 2),
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestFlyMatchMachine = pytest.mark.no_cover(FlyMatchMachine.TestCase)


def test_card_list_in_trick_is_public() -> None:
    """FLY-6.2: played cards are public: every seat sees the same current trick."""
    m = new_match(FlyRules(players=3), seed=11, dealer=0)
    while m.deal.phase is Phase.EXCHANGE:
        m = m.apply(Stand())
    m = m.apply(m.legal_actions()[0])
    views = [m.view(s) for s in range(3)]
    assert all(v.trick == views[0].trick for v in views)
    assert len(views[0].trick) == 1
    assert isinstance(views[0].trick[0][1], Card)


@given(fly_states())
def test_fly_10_1_shipped_state_strategy_gives_consistent_states(state: FlyMatch) -> None:
    """FLY-10.1: the shipped fly_states() strategy yields reachable, consistent match states."""
    deal = state.deal
    places = where_cards_are(deal)
    assert sum(len(p) for p in places) == len(state.rules.deck)
    assert bool(state.legal_actions()) != state.is_over
    assert repr(deal).startswith("<FlyDeal ")
    assert repr(state).startswith("<FlyMatch ")
    replay = new_match(state.rules, seed=state.seed)
    for action in state.actions:
        replay = replay.apply(action)
    assert replay == state
    assert deal.actions == state.actions[len(state.actions) - len(deal.actions) :]
