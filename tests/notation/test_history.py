"""Game histories: round trips, and refusal of every kind of wrong history [REC-1.1 … REC-4.3]."""

from __future__ import annotations

import contextlib
import pickle
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fly_rules import dreyfus, fly
from fly_rules.errors import InvalidNotation
from fly_rules.notation.games import parse_action
from fly_rules.notation.history import InvalidHistory, dump_history, history_data, load_history
from fly_rules.strategies import histories
from tests.notation.helpers import fly_start_deal, random_dreyfus_match, random_fly_match

OLD_FLY_HISTORY = Path(__file__).parent / "data" / "fly_max_deals_top_level.toml"
"""A Fly history as written before ``max_deals`` became a rules option (seed 4, two deals, no winner)."""


def fly_text(seed: int = 3, steps: int = 400, players: int = 3) -> tuple[fly.FlyMatch, str]:
    """A Fly match and its history."""
    match = random_fly_match(seed, steps, players)
    return match, dump_history(match)


def refused(text: str) -> InvalidHistory:
    """The error that loading ``text`` raises."""
    with pytest.raises(InvalidHistory) as caught:
        load_history(text)
    return caught.value


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), players=st.integers(3, 7))
def test_rec_4_2_fly_history_round_trips(seed: int, steps: int, players: int) -> None:
    """REC-4.2, REC-1.1: a Fly match dumped and loaded is equal, and its canonical text is stable."""
    match = random_fly_match(seed, steps, players, preset="mouche_1718" if seed % 2 else "default")
    text = dump_history(match)
    loaded = load_history(text)
    assert loaded == match
    assert dump_history(loaded) == text


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), incremental=st.booleans())
def test_rec_4_2_dreyfus_history_round_trips(seed: int, steps: int, incremental: bool) -> None:
    """REC-4.2, REC-4.1: a Dreyfus match (its actions given) dumped and loaded is equal, text stable."""
    mode = "incremental" if incremental else "batch"
    match, taken = random_dreyfus_match(seed, steps, exchange_mode=mode, target_lower=3)
    text = dump_history(match, actions=taken)
    loaded = load_history(text)
    assert loaded == match
    assert dump_history(loaded, actions=taken) == text


def test_rec_4_1_finished_dreyfus_match_states_its_settlement() -> None:
    """REC-4.1: a finished Dreyfus match states winner, records and settlement; a wrong one is refused."""
    match, taken = random_dreyfus_match(5, 2000, target_lower=2)
    assert match.is_over
    text = dump_history(match, actions=taken)
    assert "[result]" in text
    assert "settlement = [" in text
    error = refused(re.sub(r"settlement = \[\n    -?\d+", "settlement = [\n    12345", text))
    assert error.field == "result.settlement"
    assert error.rule == "REC-4.1"


def test_rec_2_4_explicit_fly_deal_round_trips() -> None:
    """REC-2.4: a history of an explicit Fly deal, played out, loads back to the equal deal."""
    start, deal = fly_start_deal(stock="7H 7D 8C")
    rng = random.Random(1)
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    text = dump_history(deal, start=start)
    assert "[start]" in text
    assert "seed" not in text
    assert load_history(text) == deal
    assert dump_history(load_history(text), start=start) == text


def test_rec_2_4_explicit_dreyfus_deal_round_trips() -> None:
    """REC-2.4: a history of an explicit Dreyfus deal loads back to the equal deal."""
    full = dreyfus.new_match(dreyfus.DreyfusRules(), seed=9, dealer=1).deal
    hands = [" ".join(str(c) for c in full.view(s).hand) for s in range(3)]

    start = {
        "hands": hands,
        "talon": " ".join(str(card) for card in full.talon),
        "contract": None,
        "dealer": 1,
    }
    deal = dreyfus.new_deal(dreyfus.DreyfusRules(), **start)  # type: ignore[arg-type]
    taken = []
    rng = random.Random(2)
    while not deal.is_over:
        legal = deal.legal_actions()
        taken.append(legal[rng.randrange(min(len(legal), 10))])
        deal = deal.apply(taken[-1])
    text = dump_history(deal, actions=taken, start=start)
    assert 'contract = "NT"' in text
    assert load_history(text) == deal


def test_rec_1_2_format_and_version_are_checked() -> None:
    """REC-1.2: another format or version is refused."""
    _, text = fly_text()
    assert refused(text.replace('format = "fly_rules history"', 'format = "pgn"')).rule == "REC-1.2"
    error = refused(text.replace("version = 1\n", "version = 2\n", 1))
    assert error.field == "version"
    assert error.rule == "REC-1.2"


def test_rec_1_3_game_and_rules_version_are_checked() -> None:
    """REC-1.3: an unknown game, or another rules version, is refused."""
    _, text = fly_text()
    assert refused(text.replace('game = "fly"', 'game = "chess"')).field == "game"
    error = refused(text.replace(f"rules_version = {fly.RULES_VERSION}", "rules_version = 0"))
    assert error.rule == "REC-1.3"
    assert error.line == 4


def test_rec_1_4_unknown_keys_are_refused() -> None:
    """REC-1.4: a misspelt key at the top level or in a deal is refused, naming it."""
    _, text = fly_text()
    assert refused(text.replace("seed =", "sead =")).field == "sead"
    error = refused(text.replace("trump_card =", "trump =", 1))
    assert error.field == "deal[0].trump"
    assert error.rule == "REC-3.1"


def test_rec_1_1_text_that_is_not_toml_is_refused_with_its_line() -> None:
    """REC-1.1: invalid TOML is refused with the line tomllib reports."""
    error = refused('format = "fly_rules history"\nversion = = 1\n')
    assert error.rule == "REC-1.1"
    assert error.line == 2


def test_rec_2_1_players_must_be_a_number() -> None:
    """REC-2.1: players is required and must be a whole number within the game's range."""
    _, text = fly_text()
    assert refused(text.replace("players = 3", 'players = "three"')).field == "players"
    assert refused(text.replace("players = 3", "players = 9")).rule == "REC-2.3"


def test_rec_2_2_seed_and_dealer_are_required_and_checked() -> None:
    """REC-2.2: a missing seed, a bad dealer or a bad deal limit is refused; a wrong seed fails at deal 0."""
    _, text = fly_text()
    assert refused(text.replace("seed = 3\n", "")).field == "seed"
    assert refused(text.replace("dealer = ", "dealer = 9", 1)).field == "dealer"
    assert refused(text.replace("seed = 3", "seed = 4")).field.startswith("deal[0]")
    old = OLD_FLY_HISTORY.read_text(encoding="utf-8")
    assert refused(old.replace("max_deals = 2", "max_deals = true")).field == "max_deals"
    twice = old.replace("\n[[deal]]", "\n[options]\nmax_deals = 2\n\n[[deal]]", 1)
    assert refused(twice).field == "max_deals"


def test_rec_2_2_a_history_with_the_deal_limit_at_the_top_still_loads() -> None:
    """REC-2.2: a Fly history written before max_deals became an option (a top-level key) loads with its limit."""
    old = OLD_FLY_HISTORY.read_text(encoding="utf-8")
    assert "\nmax_deals = 2\n" in old.split("[[deal]]")[0]
    match = load_history(old)
    assert match.rules.max_deals == 2
    assert match.is_over
    assert match.winner is None
    assert match.deal_number == 1
    text = dump_history(match)
    assert "max_deals = 2" in text.split("[options]")[1].split("[[deal]]")[0]
    assert load_history(text) == match


def test_rec_2_3_options_must_be_exactly_the_non_default_ones() -> None:
    """REC-2.3: unknown options, refused values and options at their default are refused."""
    match = random_fly_match(2, 50, 4, preset="mouche_1718")
    text = dump_history(match)
    assert "[options]" in text
    assert refused(text.replace("flush_wins = true", "flush_wins = 3")).field == "options.flush_wins"
    assert refused(text.replace("flush_wins = true", "flush_wines = true")).field == "options.flush_wines"
    assert refused(text.replace("[options]\n", "[options]\nremise = 5\n")).field == "options"


def test_rec_3_1_deal_facts_are_checked() -> None:
    """REC-3.1: a stated dealer or trump card that the replay does not give is refused."""
    match, text = fly_text()
    trump = str(history_data(match)["deal"][0]["trump_card"])
    error = refused(text.replace(f'trump_card = "{trump}"', 'trump_card = "XX"', 1))
    assert error.field == "deal[0].trump_card"
    assert error.line is not None


def test_rec_3_2_unreadable_action_is_refused() -> None:
    """REC-3.2: an action that is not in the action grammar is refused with REC-3.2."""
    _, text = fly_text()
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.strip().startswith('"') and ": play" in line)
    seat = lines[index].strip()[1]
    lines[index] = f'    "{seat}: dance",'
    error = refused("\n".join(lines) + "\n")
    assert error.rule == "REC-3.2"
    assert error.line == index + 1


def test_rec_3_3_illegal_action_names_the_game_rule_and_line() -> None:
    """REC-3.3, FLY-6.3: an illegal play is refused naming its line, place and the rule it breaks."""
    start, deal = fly_start_deal(stock="7D", third="7S 8S 9C TC 7H")
    for action in ("stand", "stand", "stand", "play AH"):
        deal = deal.apply(parse_action(action))
    text = dump_history(deal, start=start)
    bad = text.replace('"1: play AH",', '"1: play AH",\n    "2: play 9C",')
    error = refused(bad)
    assert error.rule == "FLY-6.3"
    assert error.field == "deal[0].actions[4]"
    assert error.line is not None
    assert '"2: play 9C"' in bad.splitlines()[error.line - 1]


def test_rec_3_3_wrong_seat_and_malformed_entries_are_refused() -> None:
    """REC-3.3: an entry by the wrong seat, without a seat, or not a string, is refused."""
    _, text = fly_text()
    first = text.index('"', text.index("actions = [")) + 1
    seat = text[first]
    other = str((int(seat) + 1) % 3)
    assert "seat" in refused(text[:first] + other + text[first + 1 :]).detail
    assert refused(text[:first] + "x" + text[first + 1 :]).rule == "REC-3.3"
    assert refused(text.replace("actions = [", "actions = [\n    7,", 1)).rule == "REC-3.3"


def test_rec_3_4_deal_results_are_checked() -> None:
    """REC-3.4: wrong or premature deal results are refused."""
    match, text = fly_text()
    records = history_data(match)["deal"][0]["records"]
    wrong = text.replace(f"records = [\n    {records[0]},", f"records = [\n    {records[0] + 1},", 1)
    error = refused(wrong)
    assert error.field == "deal[0].records"
    assert error.rule == "REC-3.4"
    fresh = fly.new_match(fly.FlyRules(players=3), seed=1, dealer=0).apply(fly.Stand())
    early = dump_history(fresh).replace('"1: stand",\n]', '"1: stand",\n]\nrecords = [1, 2, 3]')
    assert refused(early).rule == "REC-3.4"


def test_rec_4_1_result_must_match_and_be_present_exactly_when_over() -> None:
    """REC-4.1: a missing, premature or wrong result is refused."""
    match, text = fly_text(steps=5000)
    assert match.is_over
    assert "[result]" in text
    assert refused(text[: text.index("[result]")]).field == "result"
    fresh = dump_history(fly.new_match(fly.FlyRules(players=3), seed=1, dealer=0))
    assert refused(fresh + "\n[result]\nwinner = 1\n").rule == "REC-4.1"
    assert refused(text.replace("[result]\n", "[result]\nloser = 1\n")).field == "result.loser"


def test_rec_4_3_errors_are_typed_and_picklable() -> None:
    """REC-4.3: the error is an InvalidNotation with field, line and rule, and survives pickling."""
    _, text = fly_text()
    error = refused(text.replace("version = 1\n", "version = 7\n", 1))
    assert isinstance(error, InvalidNotation)
    again = pickle.loads(pickle.dumps(error))
    assert (again.field, again.line, again.rule, str(again)) == (error.field, error.line, error.rule, str(error))


def test_rec_2_4_start_table_is_checked() -> None:
    """REC-2.4: a start table with a missing, unknown or ill-typed key, or an irregular deal, is refused."""
    start, deal = fly_start_deal()
    text = dump_history(deal, start=start)
    assert refused(text.replace('stock = "7D"\n', "")).field == "start.stock"
    assert refused(text.replace('stock = "7D"', 'stock = "7D"\nextra = 1')).field == "start.extra"
    assert refused(text.replace('stock = "7D"', "stock = 7")).field == "start.stock"
    assert refused(text.replace("[start]\ndealer = 0", '[start]\ndealer = "0"')).field == "start.dealer"
    assert refused(text.replace('9S AS"', '9S AH"')).rule == "FLY-1.3"
    assert refused(text.replace("[start]", "seed = 1\n[start]")).rule == "REC-2.2"


def test_rec_4_2_dump_refuses_what_it_cannot_write() -> None:
    """REC-4.2: dumping needs the actions (both games' states keep them) and, for an explicit deal, its start."""
    match, taken = random_dreyfus_match(1, 10)
    assert dump_history(match) == dump_history(match, actions=taken)
    deal = fly.new_deal(
        fly.FlyRules(players=3), hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"], trump_card="8H"
    )
    with pytest.raises(ValueError, match="start="):
        dump_history(deal)
    with pytest.raises(ValueError, match="seed"):
        dump_history(random_fly_match(1, 3), start={"dealer": 0})
    with pytest.raises(ValueError, match="do not lead"):
        dump_history(match, actions=taken[:-1])


_MUTATIONS = st.sampled_from(["delete", "duplicate", "swap", "char", "truncate"])


@settings(max_examples=120, deadline=None)
@given(data=st.data(), dreyfus_game=st.booleans())
def test_rec_4_3_fuzzed_histories_load_or_are_refused_with_a_typed_error(
    data: st.DataObject, dreyfus_game: bool
) -> None:
    """REC-4.3: a mutated valid history either loads or raises InvalidHistory, never anything else."""
    if dreyfus_game:
        match, taken = random_dreyfus_match(data.draw(st.integers(0, 50)), 60)
        text = dump_history(match, actions=taken)
    else:
        text = dump_history(random_fly_match(data.draw(st.integers(0, 50)), 120))
    lines = text.splitlines(keepends=True)
    for _ in range(data.draw(st.integers(1, 3))):
        kind = data.draw(_MUTATIONS)
        i = data.draw(st.integers(0, len(lines) - 1))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "char" and lines[i]:
            k = data.draw(st.integers(0, len(lines[i]) - 1))
            char = data.draw(st.sampled_from(list('0123456789"=[],.:SHCDATKQJ xyz#\n')))
            lines[i] = lines[i][:k] + char + lines[i][k + 1 :]
        else:
            lines = lines[:i]
        if not lines:
            lines = ["\n"]
    with contextlib.suppress(InvalidHistory):
        load_history("".join(lines))


@given(histories(max_actions=60))
def test_rec_4_2_shipped_history_strategy_round_trips(text: str) -> None:
    """REC-4.2, REC-1.1: every text the shipped histories() strategy draws loads, and dumps back to itself."""
    assert dump_history(load_history(text)) == text
    assert text.startswith("format = ")


def test_rec_1_1_history_strategy_refuses_an_unknown_game() -> None:
    """REC-1.1: histories() knows only the two games."""

    @given(histories(game="chess"))
    def draw_one(text: str) -> None:
        raise AssertionError("no text should be drawn")

    with pytest.raises(ValueError, match="game must be"):
        draw_one()
