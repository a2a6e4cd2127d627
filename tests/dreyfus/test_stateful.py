"""A Hypothesis state machine over whole Dreyfus matches, checking the spec's invariants after every step."""

from __future__ import annotations

import random

import attrs
from hypothesis import note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fly_rules import Card, CardSet, Fold, RuleViolation
from fly_rules.actions import Action
from fly_rules.cards import ALL_CARDS, DECK_48
from fly_rules.dreyfus import DreyfusDeal, DreyfusMatch, DreyfusRules, Exchange, Play, Stand, new_match
from fly_rules.engine import Phase

from .strategies import rules_options

MATCHES = {"started": 0, "finished": 0, "actions": 0}
"""Counts for the report: matches begun and played to the end, and actions applied."""


def check_deal(d: DreyfusDeal) -> None:
    """The per-state invariants of a deal [DRF-2.2] [DRF-4.3] [DRF-6.7]."""
    played = 0
    for trick in (*d.tricks, d.trick):
        for _, card in trick:
            played |= card.bit
    talon_left = CardSet.of(d.talon[12 - d.talon_left :]).mask
    places = [*d.hand_masks, *(discards.mask for discards in d.discards), played, talon_left]
    union = 0
    for mask in places:
        assert union & mask == 0, "a card is in two places"
        union |= mask
    assert union == DECK_48.mask, "card conservation"
    assert sum(d.bought) == 12 - d.talon_left <= 12
    for seat in range(3):
        assert len(d.discards[seat]) == d.bought[seat]
    if d.phase is Phase.EXCHANGE:
        assert all(len(h) == 12 for h in d.hands)
    else:
        in_trick = {(d.leader + k) % 3 for k in range(len(d.trick))}
        for seat in range(3):
            assert d.hand_masks[seat].bit_count() == 12 - len(d.tricks) - (seat in in_trick)
    assert sum(d.tricks_taken) == len(d.tricks) <= 12
    assert d.is_over == (len(d.tricks) == 12)


def check_finished_deal(d: DreyfusDeal, start_upper: tuple[int, ...], start_lower: tuple[int, ...]) -> None:
    """A played-out deal: twelve tricks; without revokes, points below equal points above for tricks at
    par 4, and in general differ by the twelve tricks less three pars [DRF-7.3] [DRF-7.1]."""
    assert len(d.tricks) == 12
    assert sum(d.tricks_taken) == 12
    par = d.rules.par_tricks
    if not any(d.revokes):
        below = sum(d.lower) - sum(start_lower)
        above_for_tricks = sum(d.upper) - sum(start_upper) - sum(d.bought)
        assert below - above_for_tricks == 12 - 3 * par
        for seat in range(3):
            assert d.lower[seat] - start_lower[seat] == max(0, d.tricks_taken[seat] - par)


def hidden_swap(d: DreyfusDeal, seat: int, rng: random.Random) -> DreyfusDeal | None:
    """``d`` with two cards swapped between places hidden from ``seat`` (other hands, unseen talon), or None."""
    places: list[tuple[str, int]] = [("hand", s) for s in range(3) if s != seat and d.hand_masks[s]]
    if not (d.rules.reveal_leftover_talon and d.phase is not Phase.EXCHANGE) and d.talon_left:
        places.append(("talon", 0))
    if len(places) < 2:
        return None
    (ka, a), (kb, b) = rng.sample(places, 2)
    hands = list(d.hand_masks)
    talon = list(d.table.talon)

    def pick(kind: str, where: int) -> int:
        if kind == "hand":
            return rng.choice([i for i in range(52) if hands[where] >> i & 1])
        return rng.randrange(12 - d.talon_left, 12)

    x, y = pick(ka, a), pick(kb, b)
    cx = x if ka == "hand" else talon[x]
    cy = y if kb == "hand" else talon[y]
    for kind, where, pos, old, new in ((ka, a, x, cx, cy), (kb, b, y, cy, cx)):
        if kind == "hand":
            hands[where] = hands[where] & ~(1 << old) | 1 << new
        else:
            talon[pos] = new
    return d._replace(hand_masks=(hands[0], hands[1], hands[2]), table=attrs.evolve(d.table, talon=tuple(talon)))


class DreyfusMatchMachine(RuleBasedStateMachine):
    """Whole matches under random options, played by random choices and probed with illegal actions."""

    def __init__(self) -> None:
        super().__init__()
        self.match: DreyfusMatch
        self.history: list[Action] = []
        self.start: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 0), (0, 0, 0))

    @initialize(rules=rules_options(max_deals=8), seed=st.integers(0, 2**32), dealer=st.sampled_from([None, 0, 1, 2]))
    def begin(self, rules: DreyfusRules, seed: int, dealer: int | None) -> None:
        """Start a match."""
        self.options, self.seed, self.dealer = rules, seed, dealer
        self.match = new_match(rules, seed=seed, dealer=dealer)
        self.start = (self.match.upper, self.match.lower)
        MATCHES["started"] += 1
        note(f"rules={rules!r} seed={seed} dealer={dealer}")

    def step(self, action: Action) -> None:
        """Apply a legal action, checking deal ends and the invariants."""
        before = self.match
        after = before.apply(action)
        self.history.append(action)
        MATCHES["actions"] += 1
        if after.deals_played != before.deals_played:
            finished = after.deal if after.is_over else after.previous_deal
            assert finished is not None
            check_finished_deal(finished, *self.start)
            self.start = (after.upper, after.lower)
            if after.is_over:
                MATCHES["finished"] += 1
        self.match = after
        check_deal(after.deal)

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """Take one legal action chosen by Hypothesis [DRF-1.4]."""
        legal = self.match.legal_actions()
        self.step(legal[data.draw(st.integers(0, len(legal) - 1), label="choice")])

    @precondition(lambda self: not self.match.is_over)
    @rule(choice_seed=st.integers(0, 2**32))
    def play_out_deal(self, choice_seed: int) -> None:
        """Play the rest of the current deal at random, checking every step [DRF-6.7] [DRF-7.3]."""
        rng = random.Random(choice_seed)
        number = self.match.deals_played
        while not self.match.is_over and self.match.deals_played == number:
            legal = self.match.legal_actions()
            assert len(legal) > 0
            self.step(legal[rng.randrange(len(legal))])

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def illegal_actions_are_refused(self, data: st.DataObject) -> None:
        """A sampled action is accepted exactly when listed; a refusal names a rule, state unchanged [DRF-4.4]."""
        action: Action = data.draw(
            st.one_of(
                st.sampled_from(ALL_CARDS).map(Play),
                st.frozensets(st.sampled_from(tuple(DECK_48)), max_size=5).map(lambda cs: Exchange(CardSet.of(cs))),
                st.just(Stand()),
                st.just(Fold()),
            ),
            label="probe",
        )
        before = self.match
        legal = before.legal_actions()
        listed = action in legal
        refusal: RuleViolation | None = None
        try:
            after = before.apply(action)
        except RuleViolation as error:
            refusal = error
        if refusal is not None:
            assert not listed, f"{action} is listed but refused: {refusal}"
            assert refusal.rule.startswith("DRF-")
            assert str(refusal).startswith(refusal.rule)
            assert self.match == before
            return
        assert listed, f"{action} is accepted but not listed"
        assert legal[legal.index(action)] == action
        self.match = before  # probing only: the accepted action is not kept
        assert after != before

    @rule(choice_seed=st.integers(0, 2**32))
    def view_hides_other_seats_cards(self, choice_seed: int) -> None:
        """Swapping cards hidden from a seat leaves that seat's view unchanged [DRF-11.1]."""
        rng = random.Random(choice_seed)
        d = self.match.deal
        seat = rng.randrange(3)
        swapped = hidden_swap(d, seat, rng)
        if swapped is not None:
            assert swapped.view(seat) == d.view(seat)

    @rule()
    def replay_is_deterministic(self) -> None:
        """Replaying the same actions from the same seed reaches the same state [DRF-2.2]."""
        m = new_match(self.options, seed=self.seed, dealer=self.dealer)
        for action in self.history:
            m = m.apply(action)
        assert m == self.match

    @invariant()
    def legal_moves_until_over(self) -> None:
        """Legal actions exist exactly while the match is not over [DRF-8.1]."""
        assert (len(self.match.legal_actions()) > 0) == (not self.match.is_over)
        assert (self.match.to_move is None) == self.match.is_over

    @invariant()
    def view_shows_only_own_hand(self) -> None:
        """Each seat's view holds his own hand and public counts [DRF-11.1]."""
        d = self.match.deal
        for seat in range(3):
            v = d.view(seat)
            assert v.hand == CardSet(d.hand_masks[seat])
            assert v.bought == d.bought
            assert all(isinstance(c, Card) for _, c in v.trick)


TestDreyfusMatches = DreyfusMatchMachine.TestCase
TestDreyfusMatches.__doc__ = (
    "DRF-2.2 DRF-4.3 DRF-6.7 DRF-7.3 DRF-8.1 DRF-11.1: whole matches keep every invariant of the spec."
)


def test_drf_8_1_the_machine_reports_how_many_matches_it_ran() -> None:
    """DRF-8.1: the state machine played matches to their end (counts shown with -s)."""
    print(f"\nDreyfus state machine: {MATCHES}")
