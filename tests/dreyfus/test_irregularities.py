"""Section 10 of specs/dreyfus.md: revokes (penalty mode) and late purchase records."""

from __future__ import annotations

from fly_rules import Suit
from fly_rules.dreyfus import DreyfusRules, purchase_record

from .helpers import deal, play_out, run, stand_all

PENALIZE = DreyfusRules(revoke_mode="penalize")


def test_drf_10_1_edge_10_revoke_costs_ten_above_and_the_trick_score() -> None:
    """DRF-10.1 (edge case 10): the revoker writes 10 above and nothing below; the others score their tricks."""
    s = run(stand_all(deal(("AS", "3H"), contract=Suit.HEARTS, rules=PENALIZE)), "5S")
    assert len(s.legal_actions()) == 12  # in penalty mode every card is accepted
    s = s.apply(s.legal_actions()[1])  # 4H instead of the AS he holds: a revoke
    assert s.revokes == (0, 1, 0)
    s = play_out(s)
    taken = s.tricks_taken
    assert s.upper[1] == 10
    assert s.lower[1] == 0
    for seat in (0, 2):
        assert s.upper[seat] == max(0, 4 - taken[seat])
        assert s.lower[seat] == max(0, taken[seat] - 4)


def test_drf_10_1_revoke_options_per_occurrence_and_with_undertricks() -> None:
    """DRF-10.1: "occurrence" writes the penalty for each revoke; revoke_adds_undertricks adds the shortfall too."""
    rules = DreyfusRules(revoke_mode="penalize", revoke_penalty_per="occurrence", revoke_adds_undertricks=True)
    s = stand_all(deal(("AS", "3H"), ("KS", "4H"), contract=Suit.CLUBS, rules=rules))
    s = run(s, "5S", "5H", "3D", "6S", "6H", "4D")  # seat 1 holds AS KS but twice plays a heart
    s = play_out(s)
    assert s.revokes == (0, 2, 0)
    short = max(0, 4 - s.tricks_taken[1])
    assert s.upper[1] == 10 * s.revokes[1] + short


def test_drf_10_1_a_revoke_cancels_a_claim_to_have_reached_ten() -> None:
    """DRF-10.1: a player who reached ten on this deal's overtricks loses the claim when he then revokes."""
    swaps = (("3S", "3H"), ("4S", "4H"))
    s = stand_all(deal(*swaps, rules=PENALIZE, lower=(9, 0, 0)))
    s = run(s, "5S", "3S", "3D", "6S", "4S", "4D", "7S", "5H", "5D", "8S", "6H", "6D", "9S", "7H", "7D")
    assert s.tricks_taken == (5, 0, 0)
    assert s.winner == 0
    s = run(s, "3H", "8H", "8D", "9H", "9D", "TS")  # seat 0 holds 4H but plays a spade: revoke
    assert s.revokes == (1, 0, 0)
    assert s.lower[0] == 9
    assert s.winner is None
    s = play_out(s)
    assert s.lower[0] == 9
    assert s.upper[0] == 10


def test_drf_10_1_prevent_mode_refuses_instead() -> None:
    """DRF-10.1: by default the same revoke is refused and nothing is written."""
    s = run(stand_all(deal(("AS", "3H"), contract=Suit.HEARTS)), "5S")
    assert len(s.legal_actions()) == 1


def test_drf_10_2_a_forgotten_purchase_costs_three_more() -> None:
    """DRF-10.2: a purchase of k not recorded before the lead is written as k + 3; nothing bought, nothing owed."""
    rules = DreyfusRules()
    assert purchase_record(rules, 2, True) == 2
    assert purchase_record(rules, 2, False) == 5
    assert purchase_record(rules, 0, False) == 0
    assert purchase_record(DreyfusRules(forgot_record_penalty=5), 1, False) == 6


def test_drf_10_1_another_players_revoke_leaves_a_claim_to_have_reached_ten() -> None:
    """DRF-10.1: a revoke cancels only the revoker's own claim; the player who reached ten keeps his."""
    swaps = (("3S", "3H"), ("4S", "4H"), ("5D", "TH"))  # seat 2 holds one heart, the ten
    s = stand_all(deal(*swaps, rules=PENALIZE, lower=(9, 0, 0)))
    s = run(s, "5S", "3S", "3D", "6S", "4S", "4D", "7S", "5H", "6D", "8S", "6H", "7D", "9S", "7H", "8D")
    assert (s.tricks_taken, s.reached, s.winner) == ((5, 0, 0), (0,), 0)
    s = run(s, "3H", "8H", "9D")  # seat 2 holds TH but plays a diamond: revoke
    assert s.revokes == (0, 0, 1)
    assert (s.reached, s.winner) == ((0,), 0)


def test_drf_10_1_penalty_mode_lists_revokes_and_the_revoked_card_can_win() -> None:
    """DRF-10.1 (Decision: revokes among the legal actions): in the penalty mode the revoking plays are
    listed with the lawful one, and a revoked card keeps its place in the trick and may win it."""
    s = run(stand_all(deal(("AS", "3H"), contract=Suit.HEARTS, rules=PENALIZE)), "5S")
    lawful = run(stand_all(deal(("AS", "3H"), contract=Suit.HEARTS)), "5S").legal_actions()
    listed = s.legal_actions()
    assert set(lawful) < set(listed)  # the lawful A♠ and, beside it, every heart of seat 1
    assert len(listed) == len(s.view(1).hand) == 12
    s = run(s, "AH")  # seat 1 trumps with the A♥ although he holds the A♠: a revoke
    assert s.revokes == (0, 1, 0)
    s = run(s, "3D")
    assert s.tricks_taken == (0, 1, 0)  # the revoked trump takes the trick
