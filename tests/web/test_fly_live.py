"""web/fly_live.py in CPython: what the live pages ask of the engine (the Node and chromium tests in
this folder check that Pyodide gives the same answers)."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import sys
import time
from pathlib import Path

import pytest

from fly_rules.bots import BOTS, HINT_BOT, make_bot
from fly_rules.cli import main
from fly_rules.narration import action_shown
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
        "href": "rules/fly.html#FLY-6.3",  # the rulebook's entry, from the site's root
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


_RECORD_LINE = re.compile(r"seat (\d): (?:record|upper|lower|no trick)")
_DEAL_END = re.compile(r"records by seat|tricks \(")


def test_fly_8_drf_7_each_record_change_is_told_once_after_its_trick() -> None:
    """FLY-8.3, FLY-8.4, DRF-4.5, DRF-7.2, DRF-7.3: the page's story of whole seeded matches tells each
    record change once (one line a seat an action), after the trick that caused it, in the terminal's words
    with its rule; and each deal's end once."""
    cited: set[str] = set()
    matches = [("fly", 4, str(seed)) for seed in range(6)] + [("dreyfus", 3, "3")]
    for game, players, seed in matches:
        events = LIVE.play_events(game, players, "default", seed, 0, "random")
        for event in events:
            seats = [match.group(1) for match in map(_RECORD_LINE.match, event["lines"]) if match]
            assert len(seats) == len(set(seats)), event["lines"]  # no seat's change told twice
            if event["trick"]:
                assert event["lines"][0].startswith("trick "), event["lines"]  # the trick, then what it did
            cited |= set(re.findall(r"\[((?:FLY|DRF)-\d+\.\d+)\]", " ".join(event["lines"])))
        ends = [line for event in events for line in event["lines"] if _DEAL_END.match(line)]
        assert len(ends) == sum(event["deal_over"] for event in events) == len({e["deal_number"] for e in events})
    assert {"FLY-8.2", "FLY-8.3", "FLY-8.4", "DRF-4.5", "DRF-7.2", "DRF-7.3"} <= cited


def test_fly_9_2_an_overshoot_is_explained() -> None:
    """FLY-9.3, FLY-9.2: under stop_mode="end_of_deal" seat 1 reaches 0 with the A♠ bonus, plays on, and his
    next trick sets his record back to 25; each told once, after the trick."""
    position = CASE1.replace("fly - ", "fly stop_mode=end_of_deal ").replace("25,25,25", "25,1,25")
    steps = LIVE.try_position(position, "pAH pAS p7H p7D pAC p8C")["steps"]
    assert steps[2]["lines"] == [
        "trick 1: 0:A♥  1:A♠  2:7♥  -> seat 1 takes it (record 0)",
        "seat 1: record 1 -> 0: -1 for the trick [FLY-8.2], -5 A♠ bonus [FLY-8.3], below 0: exemption, 0 [FLY-9.3]",
    ]
    assert steps[5]["lines"] == [
        "trick 2: 1:7♦  2:A♣  0:8♣  -> seat 1 takes it (record 25)",
        "seat 1: record 0 -> 25: -1 for the trick [FLY-8.2], overshoot: back to 25 [FLY-9.2]",
    ]


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


def test_fly_8_4_each_deal_ends_with_a_summary_of_tricks_and_records_before_and_after() -> None:
    """FLY-8.4, DRF-7.3: the event that ends a deal carries its summary (each seat's tricks, its record
    before and after the deal, the match's outcome once it is over) and the finished deal's picture; one
    deal's "after" is the next one's "before"."""
    for game, players in (("fly", 3), ("dreyfus", 3)):
        events = LIVE.play_events(game, players, "default", "5", 0, "rule-of-thumb", 3)
        summaries = [event["summary"] for event in events if event["deal_over"]]
        assert [s["deal_number"] for s in summaries] == [0, 1, 2]
        first = "25" if game == "fly" else "0/0"
        assert summaries[0]["before"] == [first] * 3
        for earlier, later in itertools.pairwise(summaries):
            assert later["before"] == earlier["after"]
        for summary, event in zip(summaries, (e for e in events if e["deal_over"]), strict=True):
            assert summary["after"] == event["deal_records"]
            assert sum(summary["tricks"]) in {5, 12} or game == "fly"  # Fly: folded seats and stopped deals
            assert event["status"].endswith(f"deal {summary['deal_number'] + 1} is over") or summary["outcome"]
            assert event["picture"].startswith("<svg")
        assert summaries[-1]["outcome"][0].startswith("Match over after 3 deal(s)")
        assert all(not s["outcome"] for s in summaries[:-1])
        assert summaries[0]["label"] == ("record" if game == "fly" else "upper/lower")


def test_the_status_line_names_the_trumps_the_stock_the_trick_and_whose_turn() -> None:
    """The line above the table: the deal and phase, the trump card and stock (Fly) or trumps and talon
    (Dreyfus), the trick in progress card by card, and whose turn it is with what may be done."""
    view = LIVE.new_match("fly", 3, "default", "4", 0, "rule-of-thumb")["view"]
    assert view["status"] == (
        "Fly, deal 1, exchange · trump card Q♦; stock 12 cards · no trick in play · "
        "your turn: give up cards, stand or fold"
    )
    view = LIVE.act("s")["view"]
    assert view["status"] == (
        "Fly, deal 1, play · trump card Q♦; stock 12 cards · trick: seat 2 A♦ · your turn: play a card"
    )
    view = LIVE.new_match("dreyfus", 3, "default", "3", 0, "rule-of-thumb")["view"]
    assert view["status"].startswith("Dreyfus, deal 1, exchange · trumps ♠; talon 2 cards · no trick in play · ")
    assert view["status"].endswith("your turn: give up cards or stand")  # no fold in Dreyfus


def test_hint_is_a_legal_move_of_the_hint_bot_from_the_readers_view() -> None:
    """The hint button's answer: the hint bot's choice (fly_rules.bots.HINT_BOT) among the legal moves,
    the same for the same position; nothing when it is not the reader's turn or the match is over."""
    LIVE.new_match("fly", 3, "default", "4", 0, "rule-of-thumb")
    view = LIVE.act("s")["view"]  # the play: diamonds led, the 10♦ or K♦ to follow
    hinted = LIVE.hint()
    assert (hinted["bot"], view["hint_bot"]) == (HINT_BOT, HINT_BOT)
    assert hinted["move"] in view["legal"] == ["pTD", "pKD"]
    assert hinted["text"] == f"play {hinted['move'][1:].replace('T', '10').replace('D', '♦')}"
    assert LIVE.hint() == hinted  # seeded by the position
    match = LIVE.play_through("fly", 3, "default", "2", 0, "rule-of-thumb", 1)
    assert match["outcome"]
    assert LIVE.hint()["move"] is None


def test_the_learned_hint_is_the_learned_bots_choice_from_the_readers_view() -> None:
    """The hint's other bot (HINT_BOTS): the learned bot's own choice from the reader's view (a Fly exchange at
    four seats, where its network plays), at once; a bot the page does not offer is refused by name."""
    view = LIVE.new_match("fly", 4, "default", "4", 0, "rule-of-thumb")["view"]
    assert view["hint_bots"] == [HINT_BOT, "learned"]
    started = time.process_time()
    hinted = LIVE.hint("learned")
    assert time.process_time() - started < 1.0
    assert hinted["bot"] == "learned"
    assert hinted["move"] in view["legal"]
    session = LIVE._session
    assert session is not None
    bot = make_bot("learned", session.state.rules)
    action = bot.choose(session.state.view(0), session.state.legal_actions(), random.Random(0))
    assert hinted["text"] == action_shown(action)
    with pytest.raises(ValueError, match="the hint's bot is one of expert, learned, not 'random'"):
        LIVE.hint("random")


def test_a_hint_answers_within_the_page_s_bound_and_says_when_the_bound_cut_it_short() -> None:
    """A Dreyfus hint at the first trick takes the whole expert seconds: the page's hint stops at HINT_SECONDS (with
    the clock's few milliseconds), still a legal move, and says it was cut short; a quick hint says nothing of it."""
    view = LIVE.new_match("dreyfus", 3, "default", "1", 0, "rule-of-thumb")["view"]
    view = LIVE.act("s")["view"]
    started = time.monotonic()
    hinted = LIVE.hint()
    assert time.monotonic() - started < LIVE.HINT_SECONDS + 0.5
    assert hinted["move"] in view["legal"]
    assert re.fullmatch(
        rf"play \S+ \((on the \d+ deals it guessed|a quick choice: no guessed deal was searched) within "
        rf"the hint's {LIVE.HINT_SECONDS:g} s\)",
        hinted["text"],
    ), hinted["text"]
    LIVE.new_match("fly", 3, "default", "4", 0, "rule-of-thumb")
    LIVE.act("s")
    assert re.fullmatch(r"play \S+", LIVE.hint()["text"])


def test_the_layout_for_a_phone_draws_the_pictures_narrow_until_the_page_asks_for_wide_ones() -> None:
    """The page asks for the narrow pictures on a phone (the view's and every event's), and wide ones again."""
    LIVE.layout(True)
    try:
        answer = LIVE.new_match("fly", 4, "default", "1", 0, "rule-of-thumb")
        assert 'class="narrow"' in answer["view"]["picture"]
        assert all('class="narrow"' in event["picture"] for event in answer["events"])
        assert 'class="narrow"' not in LIVE.layout(False)["view"]["picture"]
    finally:
        LIVE.layout(False)


def test_the_view_tells_the_last_trick_and_the_end_of_a_match_its_standings() -> None:
    """The "Last trick" button's trick: its number in the deal, its cards by seat and who took it (the next trick's
    leader); none before the first. At the end, the summary lists the seats from first to last (FLY-10.2)."""
    view = LIVE.new_match("fly", 3, "default", "4", 0, "rule-of-thumb")["view"]
    assert view["last_trick"] is None
    view = LIVE.act("s")["view"]  # seat 2 led the A♦; the reader follows
    view = LIVE.act(view["legal"][0])["view"]
    last = view["last_trick"]
    assert last["number"] == 1
    assert [seat for seat, _ in last["cards"]] == [2, 0]  # seat 1 folded
    assert last["cards"][0][1] == "A♦"
    assert last["taker"] == (view["trick"][0][0] if view["trick"] else view["to_move"])
    events = LIVE.play_events("fly", 3, "default", "5", 0, "rule-of-thumb", 10)
    ends = [e["summary"] for e in events if e["summary"]]
    assert all(end["standings"] is None for end in ends[:-1])
    records = [int(record) for record in ends[-1]["after"]]
    assert ends[-1]["standings"] == sorted(range(3), key=lambda seat: (records[seat], seat)) == [2, 0, 1]


def test_the_expert_is_the_hint_and_an_opponent_to_choose() -> None:
    """The expert bot, once registered, is the hint bot and may sit at the table: a match against it
    reaches the reader's turn and takes the reader's moves."""
    assert HINT_BOT == "expert"
    assert "expert" in BOTS
    answer = LIVE.new_match("fly", 3, "default", "4", 0, "expert")
    assert answer["refused"] is None
    answer = LIVE.act(answer["view"]["legal"][0])
    assert answer["refused"] is None
    assert answer["view"]["to_move"] == 0
    assert answer["view"]["legal"]


def test_the_review_of_a_deal_sets_each_of_the_readers_decisions_beside_the_best() -> None:
    """FLY-8.4, FLY-5.1: the summary's review (fly_rules.analysis) lists each decision of the reader in the deal that
    had a choice, what was played, the hint's best and what the expert expects it to cost, with the open cards'
    best and cost beside it; the losses are their sums, and a decision that was the best cost nothing."""
    match = LIVE.play_through("fly", 3, "default", "5", 0, "rule-of-thumb", 2)
    assert len(match["records"]) == 2
    for number in (0, 1):
        review = LIVE.review(number)
        assert review["deal_number"] == number
        assert review["decisions"]
        assert review["decisions"][0]["phase"] == "exchange"
        for decision in review["decisions"]:
            assert decision["open_cost"] >= 0
            if decision["played"] == decision["best"]:
                assert decision["cost"] == 0
        assert review["loss"] == sum(d["cost"] or 0 for d in review["decisions"])
        assert review["open_loss"] == sum(d["open_cost"] for d in review["decisions"])
    first = LIVE.review(0)["decisions"][0]
    assert (first["phase"], first["played"], first["open_best"], first["open_cost"]) == (
        "exchange",
        "stand",
        "x 8♣ 9♦ 7♥",
        6,
    )
    assert first["verdict"].startswith("the exchange: stand; the hint: x 8♣ 9♦ 7♥ Q♥, 4.9 points better")
