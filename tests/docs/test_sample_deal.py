"""The sample deals of the How to play pages (docs/_ext/sampledeal.py): told from the engine, every card
with the duty that allowed it, and refused when the moves break a rule or outrun the deal."""

from __future__ import annotations

import sys

import pytest

from fly_rules import Card, RuleViolation, fly
from tests.docs.conftest import ROOT
from tests.test_svg import _fly_deal

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import sampledeal  # the docs extension, importable once its folder is on the path

FLY_MOVES = "x7C9CTC f x8C7D8S x6C6D pAH pAS p7H pKH pKC p6H pTH pKS p8H p9D pAD pTS pAC pQC p6S".split()  # noqa: SIM905


def test_the_fly_story_tells_the_privilege_each_trick_and_the_scores_the_engine_gives() -> None:
    """FLY-7.3, FLY-8.3, FLY-8.4: the page's four-player deal: seat 3 draws the A♠, takes the led ace of
    trumps with it although he holds hearts, writes off six with that first trick, the player who led the
    ace pays the remise, and the replay gives the engine's records."""
    text = sampledeal.sample_deal_markdown("fly", 4, 8, 0, FLY_MOVES)
    assert text.count("**Trick ") == 5
    assert text.count('<figure class="fly-table">') == 2 + 5  # dealt, after the declarations, each trick
    assert "Nobody has been dealt the A♠" in text
    assert "He has drawn the A♠" in text
    assert "seat 3 plays the A♠ on the led ace of trumps, although he holds the 10♥ K♥" in text
    assert "his record goes 25 → 19: one for the trick and 5 more because he holds the A♠" in text
    assert "seat 1 took no trick: the remise of five, 25 → 30" in text
    assert "seat 3 took three tricks: 25 → 17, the A♠ bonus of 5 included" in text
    assert "Seat 2 folds" in text
    assert ">>> deal.records\n(23, 30, 25, 17)" in text


def test_the_dreyfus_story_scores_overtricks_below_and_shortfalls_above() -> None:
    """DRF-7.2, DRF-7.3, DRF-4.5: the purchase is written above, tricks over four below, short ones above."""
    start, _ = sampledeal.new_deal("dreyfus", 3, 3, 0)
    deal, tokens = start, []
    while not deal.is_over:  # everyone stands, then plays his first legal card
        action = deal.legal_actions()[0]
        tokens.append("s" if deal.phase.value == "exchange" else "p" + str(action.card))
        deal = deal.apply(action)
    text = sampledeal.sample_deal_markdown("dreyfus", 3, 3, 0, tokens)
    assert text.count("**Trick ") == 12
    assert text.count("stands: he buys nothing") == 3
    for seat, taken in enumerate(deal.tricks_taken):
        if taken < 4:
            assert f"seat {seat} took {sampledeal._number(taken)}: {4 - taken} short, written above" in text
    assert f">>> (deal.upper, deal.lower)\n({deal.upper!r}, {deal.lower!r})" in text


def test_a_move_the_rules_refuse_or_a_move_too_many_stops_the_story() -> None:
    """FLY-6.3: a card that does not follow suit is refused by the engine, so the page cannot be built; so
    are moves left over after the deal has ended."""
    with pytest.raises(RuleViolation) as refused:  # seat 3 holds hearts, so the 9♦ cannot answer the A♥
        sampledeal.sample_deal_markdown("fly", 4, 8, 0, [*FLY_MOVES[:4], "pAH", "p9D"])
    assert refused.value.rule == "FLY-6.3"
    with pytest.raises(ValueError, match="left after the end"):
        sampledeal.sample_deal_markdown("fly", 4, 8, 0, [*FLY_MOVES, "pAC"])


def test_each_card_is_told_with_the_duty_that_allowed_it() -> None:
    """FLY-7.2, FLY-6.3, FLY-6.4, FLY-6.5: the reason given for a card: a lead, following suit, trumping
    when void, a free discard, and the A♠ on a led ace of trumps."""
    deal = _fly_deal(fly.Stand())  # seat 1 has led the A♥: the reasons read the hands, not the trick
    ace = Card.parse("AH")
    assert sampledeal.play_reason(deal, 1, ace, [], "FLY") == "leads the A♥"
    assert "FLY-7.2" in sampledeal.play_reason(deal, 0, Card.parse("AS"), [(1, ace)], "FLY")
    assert "follows suit" in sampledeal.play_reason(deal, 0, Card.parse("KH"), [(1, ace)], "FLY")
    trumped = sampledeal.play_reason(deal, 1, Card.parse("9H"), [(0, Card.parse("9S"))], "FLY")
    assert trumped == "has no spades and must trump: the 9♥ ({rule}`FLY-6.4`)"
    assert "has neither hearts nor trumps" in sampledeal.play_reason(deal, 2, Card.parse("7S"), [(1, ace)], "FLY")
    with pytest.raises(ValueError, match="holding a trump"):
        sampledeal.play_reason(deal, 0, Card.parse("7C"), [(1, Card.parse("7D"))], "FLY")
