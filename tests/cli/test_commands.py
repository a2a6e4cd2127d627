"""``fly-rules play``, ``simulate``, ``replay``, ``show`` and ``rules``, run as real subprocesses."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

from fly_rules import fly
from fly_rules.cli import main
from fly_rules.notation.history import dump_history
from tests.notation.helpers import fly_start_deal, random_fly_match


def run_once(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``python -m fly_rules`` with ``args`` and ``stdin``, capturing its output."""
    return subprocess.run(
        [sys.executable, "-m", "fly_rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """:func:`run_once`, then the same command in this process, checking it answers identically (so
    coverage sees the command's code without depending on subprocess measurement)."""
    result = run_once(*args, stdin=stdin)
    code, out, _err = in_process(list(args), stdin)
    assert (code, out) == (result.returncode, result.stdout)
    return result


def in_process(argv: list[str], stdin: str) -> tuple[int, str, str]:
    """The exit code, standard output and standard error of ``fly-rules argv`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def test_rec_3_3_play_with_scripted_input_rejects_bad_input_and_saves_the_history(tmp_path: Path) -> None:
    """REC-3.3, FLY-4.2: play shows hand, trump and numbered actions, asks again on bad input, saves a history."""
    saved = tmp_path / "game.toml"
    answers = "banana\n?\n99\nplay ZZ\nexchange AS KS QS JS TS 9S\n" + "?\n1\n" * 300
    args = ("play", "--players", "3", "--max-deals", "1", "--seed", "4", "--save", str(saved), "--force")
    result = run(*args, stdin=answers)  # --force: run() plays it twice, as a subprocess and in this process
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "your hand:" in out
    assert "trump card" in out
    assert "records by seat:" in out
    assert "   1. " in out
    assert "not understood" in out
    assert "not a legal action now" in out
    assert "== Match over" in out
    check = run("replay", "--check", str(saved))
    assert check.returncode == 0
    assert check.stdout.startswith("ok:")


def test_drf_4_4_play_dreyfus_offers_typed_exchanges_and_fails_when_input_ends(tmp_path: Path) -> None:
    """DRF-4.4: in Dreyfus the long list of exchanges is cut short; input ending early exits with code 1."""
    result = run("play", "--game", "dreyfus", "--seat", "1", "--seed", "2", stdin="?\n")
    assert result.returncode == 1
    assert "more: type the action" in result.stdout
    assert max(map(len, result.stdout.splitlines())) <= 80  # the list in columns of one 80-column screen
    assert result.stderr.count("\n") == 1
    assert "input ended" in result.stderr


def test_fly_10_2_simulate_prints_a_table_and_json_independent_of_workers() -> None:
    """FLY-10.2: simulate tabulates wins per bot and seat; --json is the same for 1 and 2 workers."""
    table = run("simulate", "-n", "6", "--players", "3", "--bots", "rule-of-thumb,random", "--no-progress")
    assert table.returncode == 0, table.stderr
    assert "per bot" in table.stdout
    assert "per seat" in table.stdout
    assert "deals per match" in table.stdout
    one = run("simulate", "-n", "6", "--players", "3", "--json", "--seed", "abc")
    two = run("simulate", "-n", "6", "--players", "3", "--json", "--seed", "abc", "--workers", "2")
    assert one.returncode == two.returncode == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["seed"] == "abc"
    drey = run("simulate", "-n", "2", "--game", "dreyfus", "--json")
    assert json.loads(drey.stdout)["ace_of_spades_holder_takes_a_trick"] is None
    progress = run("simulate", "-n", "2", "--players", "3")
    assert progress.returncode == 0


def test_fly_1_1_simulate_refuses_bad_arguments() -> None:
    """FLY-1.1: an unknown bot, too many bots, a bad player count or zero matches exit 1 with one line."""
    for args in (
        ["--bots", "genius"],
        ["--bots", "random,random,random,random,random"],
        ["--players", "9"],
        ["-n", "0"],
        ["--game", "dreyfus", "--players", "4"],
    ):
        result = run("simulate", *args)
        assert result.returncode == 1, (args, result.stderr)
        assert result.stderr.startswith("fly-rules: ")
        assert result.stderr.count("\n") == 1


def test_rec_4_3_replay_narrates_checks_and_rejects(tmp_path: Path) -> None:
    """REC-4.3, REC-1.1: replay narrates a history, --check validates it, a broken one exits 1 naming the line."""
    good = tmp_path / "good.toml"
    good.write_text(dump_history(random_fly_match(4, 5000, 3)), encoding="utf-8")
    told = run("replay", str(good))
    assert told.returncode == 0
    assert "== Deal 1: seat" in told.stdout
    assert "   records by seat: 0:" in told.stdout
    bad = tmp_path / "bad.toml"
    other_version = f"rules_version = {fly.RULES_VERSION + 1}"
    bad.write_text(good.read_text().replace(f"rules_version = {fly.RULES_VERSION}", other_version), encoding="utf-8")
    refused = run("replay", "--check", str(bad))
    assert refused.returncode == 1
    assert "line 4" in refused.stderr
    assert "REC-1.3" in refused.stderr
    missing = run("replay", str(tmp_path / "nothing.toml"))
    assert missing.returncode == 1
    assert "cannot read" in missing.stderr


def test_rec_2_4_replay_narrates_explicit_deals(tmp_path: Path) -> None:
    """REC-2.4: replay narrates a history that starts from an explicit deal, of either game."""
    start, deal = fly_start_deal(stock="7D")
    while not deal.is_over:
        deal = deal.apply(deal.legal_actions()[0])
    path = tmp_path / "deal.toml"
    path.write_text(dump_history(deal, start=start), encoding="utf-8")
    told = run("replay", str(path))
    assert told.returncode == 0
    assert "trump card 8♥" in told.stdout
    from fly_rules import dreyfus

    drey = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3, dealer=0).deal

    dstart = {
        "hands": [" ".join(str(c) for c in drey.view(s).hand) for s in range(3)],
        "talon": " ".join(str(card) for card in drey.talon),
        "contract": "S",
        "dealer": 0,
    }
    ddeal = dreyfus.new_deal(dreyfus.DreyfusRules(), **dstart)  # type: ignore[arg-type]
    path.write_text(dump_history(ddeal, actions=[], start=dstart), encoding="utf-8")
    told = run("replay", str(path))
    assert told.returncode == 0
    assert "Dreyfus history" in told.stdout
    assert "== In progress" in told.stdout


def test_rec_5_1_show_draws_a_position_and_its_svg(tmp_path: Path) -> None:
    """REC-5.1: show prints the board of a position and can write an SVG; a bad position exits 1."""
    position = "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 s,s,s,pAH 2"
    shown = run("show", position, "--svg", str(tmp_path / "t.svg"), "--force")
    assert shown.returncode == 0, shown.stderr
    assert "trump card 8♥" in shown.stdout
    assert "trick: 1:A♥" in shown.stdout
    assert "to move: seat 2" in shown.stdout
    assert (tmp_path / "t.svg").read_text().startswith("<svg")
    assert 'class="card back"' not in (tmp_path / "t.svg").read_text().split('class="seat"', 1)[1]
    seat = run("show", position, "--svg", str(tmp_path / "s.svg"), "--seat", "2", "--force")
    assert seat.returncode == 0, seat.stderr
    backs = (tmp_path / "s.svg").read_text().count('class="card back"')
    assert backs == 5 + 4 + 1  # seat 0, seat 1 (who led A♥) and the stock
    drey = "dreyfus - 0 NT 7C/8C/9C - 0,0,0/0,0,0 - 1 0"
    assert run("show", drey).returncode == 1
    bad = run("show", "fly nonsense")
    assert bad.returncode == 1
    assert bad.stderr.startswith("fly-rules: invalid notation")


def test_drf_1_1_show_draws_a_dreyfus_position(tmp_path: Path) -> None:
    """DRF-1.1: show draws a Dreyfus position with upper and lower records."""
    from fly_rules import dreyfus
    from fly_rules.notation.position import position_of

    deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=3, dealer=0).deal
    result = run("show", position_of(deal), "--svg", str(tmp_path / "d.svg"), "--force")
    assert result.returncode == 0, result.stderr
    assert "Dreyfus; seat 0 deals" in result.stdout
    assert "upper 0 lower 0" in result.stdout


def test_rules_command_prints_a_rule_with_its_tests_and_searches() -> None:
    """`rules ID` (here FLY-7.2) prints the text, Source, Decision and citing tests; --search finds rules;
    an unknown ID exits 1."""
    rule = run("rules", "fly-7.2")
    assert rule.returncode == 0
    assert "Source:" in rule.stdout
    assert "Decision:" in rule.stdout
    assert "tests/fly/" in rule.stdout
    cited = rule.stdout.split("Tests that cite it:\n", 1)[1].splitlines()
    mentions = [line.startswith("  (mentions it) ") for line in cited]
    assert mentions.index(True) > 0  # its own tests (FLY-7.2 in their names) first, the mentions after
    assert mentions == sorted(mentions)
    found = run("rules", "--search", "led", "trump", "ace")
    assert found.returncode == 0
    assert "FLY-7.2" in found.stdout
    listing = run("rules")
    assert "REC-5.1" in listing.stdout
    assert run("rules", "--search", "xylophone").returncode == 1
    unknown = run("rules", "-".join(("FLY", "99.9")))
    assert unknown.returncode == 1
    assert "no rule" in unknown.stderr


def test_rec_1_2_usage_errors_exit_2() -> None:
    """REC-1.2: a missing subcommand or unknown option is a usage error, exit code 2."""
    assert run().returncode == 2
    assert run("simulate", "--frobnicate").returncode == 2


def test_rec_1_1_core_modules_do_not_import_the_extras() -> None:
    """REC-1.1: importing the library, its games, notation and bots pulls in neither tomli-w nor rich."""
    code = (
        "import sys, fly_rules, fly_rules.fly, fly_rules.dreyfus, fly_rules.notation, fly_rules.bots, fly_rules.cli;"
        "bad = [m for m in ('tomli_w', 'rich') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
