"""Histories and positions written before an option was renamed still load (a saved file is a user's data)."""

from __future__ import annotations

from fly_rules import dreyfus
from fly_rules.notation.history import dump_history, load_history
from fly_rules.notation.position import parse_position, position_of

# Written by the engine before DreyfusRules.revoke_handling became revoke_mode (fly_rules 0.1.0).
OLD_HISTORY = """format = "fly_rules history"
version = 1
game = "dreyfus"
rules_version = 1
players = 3
seed = 11
dealer = 0

[options]
max_deals = 1
revoke_handling = "penalize"

[[deal]]
dealer = 0
contract = "S"
actions = [
    "1: exchange 4H 7H 5S",
    "2: exchange 4C TC 7D 8S",
    "0: exchange TD 3H",
    "1: play QS",
    "2: play QD",
    "0: play TH",
    "1: play AC",
    "2: play 9C",
    "0: play 8C",
    "1: play 6C",
]
"""

OLD_POSITION = (
    "dreyfus max_deals=1;revoke_handling=penalize 0 S 7CKC3DTDAD3H6H8HKH3SKSAS/QCAC6DJD4H5H7HJHAH5S6SQS/"
    "3C4C9CTCJC7D8D9DQD4S7S8S QH6CKD5DJSTS9STH8C9H5C4D 0,0,0/0,0,0 "
    "x4H7H5S,x4CTC7D8S,xTD3H,pQS,pQD,pTH,pAC,p9C,p8C,p6C 2 0"
)


def _played() -> dreyfus.DreyfusMatch:
    match = dreyfus.new_match(dreyfus.DreyfusRules(revoke_mode="penalize", max_deals=1), seed=11, dealer=0)
    for action in load_history(OLD_HISTORY).actions:
        match = match.apply(action)
    return match


def test_rec_2_3_an_old_history_with_a_renamed_option_loads_and_is_rewritten_under_the_new_name() -> None:
    """REC-2.3: ``revoke_handling`` in a history written before the rename reads as ``revoke_mode``."""
    state = load_history(OLD_HISTORY)
    assert isinstance(state, dreyfus.DreyfusMatch)
    assert state.rules.revoke_mode == "penalize"
    assert len(state.actions) == 10
    assert state == _played()
    rewritten = dump_history(state)
    assert 'revoke_mode = "penalize"' in rewritten
    assert "revoke_handling" not in rewritten
    assert load_history(rewritten) == state


def test_rec_5_2_an_old_position_with_a_renamed_option_parses() -> None:
    """REC-5.2: a position line naming ``revoke_handling`` parses to the same deal under ``revoke_mode``."""
    deal = parse_position(OLD_POSITION)
    assert deal.rules.revoke_mode == "penalize"
    assert deal == _played().deal
    assert position_of(_played()) == OLD_POSITION.replace("revoke_handling", "revoke_mode")


# Written by the engine before Fly's revoke_mode values became Dreyfus's ("adjudicate" is now "penalize").
OLD_FLY_HISTORY = """format = "fly_rules history"
version = 1
game = "fly"
rules_version = 3
players = 3
seed = 5
dealer = 0

[options]
max_deals = 1
revoke_mode = "adjudicate"

[[deal]]
dealer = 0
trump_card = "9S"
actions = [
    "1: exchange JC 8D",
    "2: exchange 7H",
    "0: exchange KH TS",
    "1: play KC",
    "2: play 8C",
    "0: play QC",
]
"""

OLD_FLY_POSITION = (
    "fly max_deals=1;revoke_mode=adjudicate 0 9S 7CQCJHKHTS/JCKC8DKDAH/8C9D7HQHJS "
    "QSJDTD7DAD9C9HAC8HASTH8STCQD7SKS 25,25,25 xJC8D,x7H,xKHTS,pKC,p8C,pQC 1"
)


def test_rec_2_3_an_old_fly_history_with_a_renamed_option_value_loads_under_the_new_value() -> None:
    """REC-2.3, FLY-11.1: ``revoke_mode = "adjudicate"`` in a Fly history written before the values took
    Dreyfus's names reads as ``"penalize"`` (no warning: the file is the user's), and is rewritten so."""
    state = load_history(OLD_FLY_HISTORY)
    assert state.rules.revoke_mode == "penalize"
    assert len(state.actions) == 6
    rewritten = dump_history(state)
    assert 'revoke_mode = "penalize"' in rewritten
    assert "adjudicate" not in rewritten
    assert load_history(rewritten) == state


def test_rec_5_2_an_old_fly_position_with_a_renamed_option_value_parses() -> None:
    """REC-5.2, FLY-11.1: a position line with ``revoke_mode=adjudicate`` parses under ``penalize``."""
    deal = parse_position(OLD_FLY_POSITION)
    assert deal.rules.revoke_mode == "penalize"
    assert deal == parse_position(OLD_FLY_POSITION.replace("adjudicate", "penalize"))
    assert position_of(load_history(OLD_FLY_HISTORY)) == OLD_FLY_POSITION.replace("adjudicate", "penalize")
