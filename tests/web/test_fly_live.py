"""web/fly_live.py in CPython: what the live pages ask of the engine (the Node and chromium tests in
this folder check that Pyodide gives the same answers)."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from fly_rules.cli import main
from fly_rules.notation import load_history

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "web"))
import fly_live as LIVE  # noqa: E402 - web/ is not a package: the pages load the module by itself

# Catalogue case 1: hearts are trump, seat 0 leads the A♥.
CASE1 = "fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 s,s,s 0"


def test_fly_6_3_try_position_refuses_a_revoke_with_its_rule_and_stops_there() -> None:
    """FLY-6.3: the refused move is named with its rule and title; the deal is the one before it."""
    answer = LIVE.try_position(CASE1, "pAH p7D pKH")
    assert answer["refused"] == {
        "move": "p7D",
        "rule": "FLY-6.3",
        "title": "Following suit",
        "detail": "must follow suit (A♥ led, 7♦ played)",  # the screen's one notation: symbols
    }
    assert [step["move"] for step in answer["steps"]] == ["pAH"]
    assert answer["to_move"] == 1
    assert answer["legal"] == ["pKH", "pAS"]
    assert answer["position"].endswith(" s,s,s,pAH 1")


def test_fly_7_3_try_position_tells_the_trick_and_the_records() -> None:
    """FLY-7.3, FLY-8.3: the A♠ takes the led trump ace; a trick and the bonus are written off."""
    answer = LIVE.try_position(CASE1, "pAH,pAS,p7H")
    assert answer["refused"] is None
    assert answer["steps"][-1]["lines"] == [
        "trick 1: 0:A♥  1:A♠  2:7♥  -> seat 1 takes it (record 19)",
        "seat 1: record 25 -> 19: -1 for the trick [FLY-8.2], -5 A♠ bonus [FLY-8.3]",
    ]
    assert (answer["tricks_taken"], answer["records"]) == ([0, 1, 0], ["25", "19", "25"])
    assert answer["picture"].startswith("<svg")


def test_try_position_answers_bad_notation_with_the_reason() -> None:
    """A position the notation cannot read is answered, not raised."""
    assert "fields" in LIVE.try_position("fly - 2 8H", "")["error"]["detail"]
    assert "not s, f" in LIVE.try_position(CASE1, "q7")["refused"]["detail"]


def test_fly_8_session_explains_every_record_change_by_its_rule() -> None:
    """FLY-8.2, FLY-8.3, FLY-8.4, FLY-8.5, FLY-9.1, FLY-9.2: each record change of whole seeded matches is
    explained by the rule whose arithmetic it follows."""
    steps = {"FLY-8.2": {-1}, "FLY-8.4": {5}, "FLY-8.5": {10}}
    seen = set()
    for seed in range(6):
        for event_records in _record_lines(LIVE.play_events("fly", 4, "default", str(seed), 0, "random")):
            old, new, why = re.fullmatch(r"seat \d: (\d+) → (\d+): (.*)", event_records).groups()  # type: ignore[union-attr]
            rules = set(re.findall(r"FLY-\d+\.\d+", why))
            seen |= rules
            change = int(new) - int(old)
            if "FLY-9.3" in rules:
                assert int(new) == 0
            elif "FLY-8.3" in rules:
                assert -change - 1 in {5, 10}
            elif "FLY-9.2" in rules:
                assert int(new) == 25
            elif "FLY-9.1" in rules:
                assert int(new) == 0
            else:
                (rule,) = rules
                assert change in steps[rule]
    assert {"FLY-8.2", "FLY-8.3", "FLY-8.4", "FLY-8.5", "FLY-9.1"} <= seen


def test_fly_9_2_an_overshoot_is_explained() -> None:
    """FLY-9.3, FLY-9.2: under stop_mode="end_of_deal" seat 1 reaches 0 with the A♠ bonus, plays on, and his
    next trick sets his record back to 25."""
    position = CASE1.replace("fly - ", "fly stop_mode=end_of_deal ").replace("25,25,25", "25,1,25")
    steps = LIVE.try_position(position, "pAH pAS p7H p7D pAC p8C")["steps"]
    assert steps[2]["records"] == [
        "seat 1: 1 → 0: the trick and the A♠ bonus bring the record to exactly 0 (FLY-8.3, FLY-9.3, FLY-9.1)"
    ]
    assert steps[5]["records"] == [
        "seat 1: 0 → 25: the trick would take the record below 0: it is set back to 25 (FLY-9.2)"
    ]


def _record_lines(events: list[dict[str, Any]]) -> list[str]:
    return [line for event in events for line in event["records"]]


def test_fly_4_2_session_hides_the_cards_the_others_exchange() -> None:
    """FLY-4.2: another seat's exchange is told by its count; the reader's own by its cards."""
    events = LIVE.play_events("fly", 3, "default", "5", 0, "rule-of-thumb")
    exchanges = [event for event in events if event["move"].startswith("x")]
    assert any(e["seat"] != 0 for e in exchanges)
    for event in exchanges:
        assert re.fullmatch(r"x\d cards" if event["seat"] != 0 else r"x([2-9TJQKA][SHDC])+", event["move"])


def test_session_refuses_an_illegal_card_and_the_match_is_unchanged() -> None:
    """FLY-6.2: a card the reader does not hold is refused with its rule; the view is as before."""
    view = LIVE.new_match("fly", 3, "default", "5", 0, "rule-of-thumb")["view"]
    held = set(view["hand"])
    missing = next(f"p{r}{s}" for s in "SHDC" for r in "789TJQKA" if f"{r}{s}" not in held)
    answer = LIVE.act(missing)
    assert answer["refused"]["rule"] in {"FLY-4.1", "FLY-6.2"}  # declarations first, then the play
    assert answer["view"] == view


def test_rec_4_history_downloaded_loads_again_at_the_same_turn() -> None:
    """REC-4.2: the page's history text replays to the same match, the reader to move again."""
    answer = LIVE.new_match("dreyfus", 3, "default", "8", 1, "rule-of-thumb")
    for _ in range(4):
        answer = LIVE.act(answer["view"]["legal"][0])
    text = LIVE.history()
    again = LIVE.load_match(text, 1, "random")
    assert again["events"] == []
    assert again["view"] == answer["view"]
    assert LIVE.load_match("not a history", 1, "random")["refused"]["rule"].startswith("REC-")


def _terminal(argv: list[str], answers: str) -> tuple[int, str]:
    """``fly-rules ARGV`` run in this process with ``answers`` on standard input: its exit code and output."""
    out, stdin = io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(answers)
    try:
        return main(argv, out), out.getvalue()
    finally:
        sys.stdin = stdin


def test_rec_4_1_a_history_downloaded_in_the_browser_resumes_in_the_terminal(tmp_path: Path) -> None:
    """REC-4.1: the browser saves a match in progress as the terminal does (its count of actions and
    digest), so ``fly-rules play --resume`` continues it at the same turn, in either game."""
    for game, seat in (("fly", 2), ("dreyfus", 1)):
        answer = LIVE.new_match(game, 4 if game == "fly" else 3, "default", "6", seat, "rule-of-thumb")
        for _ in range(3):
            answer = LIVE.act(answer["view"]["legal"][0])
        saved = tmp_path / f"{game}-match.toml"
        saved.write_text(LIVE.history(), encoding="utf-8")
        state = load_history(saved.read_text(encoding="utf-8"), resumable=True)
        code, told = _terminal(["play", "--resume", str(saved), "--seat", str(seat)], "quit\n")
        assert code == 0, told
        assert f"(resumed from {saved} after {len(state.actions)} actions)" in told
        assert f"your turn (seat {seat})" in told
        again = load_history(saved.read_text(encoding="utf-8"), resumable=True).actions  # quit saved it back,
        assert again[: len(state.actions)] == state.actions  # after any moves the player had no choice in


def test_rec_4_1_a_game_saved_in_the_terminal_continues_in_the_browser(tmp_path: Path) -> None:
    """REC-4.1: a game ``fly-rules play --save`` stopped is loaded by the browser's table at the same turn,
    the reader to move; a history cut short (its count no longer its own) is refused there as in the
    terminal."""
    saved = tmp_path / "game.toml"
    code, _ = _terminal(["play", "--players", "3", "--seed", "4", "--save", str(saved)], "stand\nquit\n")
    assert code == 0
    text = saved.read_text(encoding="utf-8")
    answer = LIVE.load_match(text, 0, "rule-of-thumb")
    assert answer["refused"] is None
    view = answer["view"]
    assert (view["phase"], view["to_move"], view["seat"]) == ("play", 0, 0)
    assert view["legal"] == [f"p{card}" for card in ("TD", "KD")]  # diamonds led; 10♦ K♦ follow
    assert view["hand"] == ["TD", "KD", "8S", "TS", "QS"]
    cut = text.replace('    "2: play AD",\n', "", 1)  # the lead seat 0 must follow
    assert cut != text
    refused = LIVE.load_match(cut, 0, "rule-of-thumb")["refused"]
    assert (refused["rule"], refused["title"]) == ("REC-4.1", "The result of the game")
    assert "cut or edited" in refused["detail"]


def test_new_match_refuses_a_seat_not_at_the_table() -> None:
    """FLY-1.2, DRF-1.1, FLY-1.1: the seats are 0 to n-1; Dreyfus has three; Fly is for 3 to 7."""
    assert LIVE.new_match("fly", 3, "default", "1", 3, "random")["refused"]["rule"] == "FLY-1.2"
    assert LIVE.new_match("dreyfus", 3, "default", "1", 3, "random")["refused"]["rule"] == "DRF-1.1"
    refused = LIVE.new_match("fly", 8, "default", "1", 0, "random")["refused"]
    assert (refused["rule"], refused["title"]) == ("FLY-1.1", "Number of players")


def test_fly_10_1_drf_8_3_a_match_of_at_most_n_deals_ends_after_them() -> None:
    """FLY-10.1, DRF-8.3: the play page's "deals at most" caps the match: seven seats of Fly (hundreds of deals
    uncapped) and Dreyfus end after two deals with no winner; a cap the rules refuse is answered with the rule."""
    for game, players in (("fly", 7), ("dreyfus", 3)):
        match = LIVE.play_through(game, players, "default", "3", 0, "rule-of-thumb", 2)
        assert len(match["records"]) == 2
        assert {trick["deal"] for trick in match["tricks"]} == {0, 1}
        assert match["outcome"][0] == "Match over after 2 deal(s): no winner (deal limit reached)"
        assert "\n[options]\nmax_deals = 2\n" in LIVE.history()  # a saved match keeps its cap
    refused = LIVE.new_match("fly", 7, "default", "3", 0, "random", 0)["refused"]
    assert refused["rule"] == "FLY-10.1"
    assert "from 1 to 1000000, not 0" in refused["detail"]


def test_call_answers_in_json() -> None:
    """The worker's entry: a function's answer as JSON text."""
    assert json.loads(LIVE.call("try_position", json.dumps([CASE1, ""])))["to_move"] == 0


def test_drf_4_5_7_2_7_3_session_explains_dreyfus_records() -> None:
    """DRF-4.5, DRF-7.2, DRF-7.3: a purchase adds the cards bought to the upper record; overtricks go into
    the lower record, undertricks into the upper record at the deal's end."""
    seen = set()
    for event in LIVE.play_events("dreyfus", 3, "default", "3", 0, "rule-of-thumb"):
        for line in event["records"]:
            for old, new, rule in re.findall(r"(\d+) → (\d+): [^;(]*\((DRF-\d\.\d)\)", line):
                seen.add(rule)
                if rule == "DRF-4.5":
                    bought = re.fullmatch(r"x(\d) cards", event["move"])
                    count = int(bought.group(1)) if bought else (len(event["move"]) - 1) // 2
                    assert int(new) - int(old) == count
                else:
                    assert int(new) > int(old)
                    assert (rule == "DRF-7.3") == ("upper" in line.split(f"{old} →")[0].split(";")[-1])
    assert seen == {"DRF-4.5", "DRF-7.2", "DRF-7.3"}
