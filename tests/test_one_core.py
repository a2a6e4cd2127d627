"""One core for both games: clients ask the state, never its class (issue 11).

Outside ``fly_rules/fly`` and ``fly_rules/dreyfus`` no module tests ``isinstance`` (or ``type(x) is``)
against a class of one game's own (a state, view, deal, match, rules or their pieces) to pick what to
read; the one exception is Fly's own action ``SwapTrump``, which is an action, not a state. What differs
between the games is answered by the shared vocabulary of :mod:`fly_rules.engine`, checked here for
both games.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest

from fly_rules import dreyfus, fly
from fly_rules.cards import ACE_HIGH, Suit
from fly_rules.engine import DealState, GameState, Rules, SeatView
from fly_rules.notation.games import new_deal, new_game

ROOT = Path(__file__).resolve().parent.parent / "fly_rules"
GAME_PACKAGES = ("fly_rules.fly", "fly_rules.dreyfus")
ALLOWED = {fly.SwapTrump}  # an action of Fly's alone: dispatching on it is not branching on a state


def _imported_names(tree: ast.Module) -> dict[str, Any]:
    """The names a module binds by importing from the package: name -> the object (module or class)."""
    names: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("fly_rules"):
            module = importlib.import_module(node.module)
            for alias in node.names:
                found = getattr(module, alias.name, None)
                if found is None:
                    found = importlib.import_module(f"{node.module}.{alias.name}")
                names[alias.asname or alias.name] = found
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("fly_rules"):
                    names[alias.asname or alias.name.split(".")[0]] = importlib.import_module(alias.name.split(".")[0])
    return names


def _resolve(node: ast.expr, names: dict[str, Any]) -> Any:
    """The object a ``Name`` or ``a.b.c`` expression stands for, through the module's imports (else None)."""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, names)
        return None if base is None else getattr(base, node.attr, None)
    return None


def _classes(node: ast.expr) -> list[ast.expr]:
    """The class expressions of an isinstance target: ``A``, ``(A, B)``, ``A | B``."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [leaf for item in node.elts for leaf in _classes(item)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _classes(node.left) + _classes(node.right)
    return [node]


def _is_game_class(value: object) -> bool:
    module = getattr(value, "__module__", "")
    own = any(module == package or module.startswith(package + ".") for package in GAME_PACKAGES)
    return isinstance(value, type) and own and value not in ALLOWED


def _is_type_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"


def class_tests(source: str, where: str = "<source>", *, asserts: bool = False) -> list[str]:
    """Every ``isinstance(x, C)`` and ``type(x) is C`` (``==``, ``in``) in ``source`` whose ``C`` is one
    game's own class, as ``where:line: C``; with ``asserts``, those an ``assert`` states are let pass
    (a test checking what it got is not a client picking a field)."""
    tree = ast.parse(source)
    names = _imported_names(tree)
    asserted = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Assert) for inner in ast.walk(node.test)}
    targets: list[tuple[int, ast.expr]] = []
    for node in ast.walk(tree):
        if asserts and id(node) in asserted:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            if len(node.args) == 2:
                targets += [(node.lineno, leaf) for leaf in _classes(node.args[1])]
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_type_call(side) for side in sides):
                targets += [(node.lineno, leaf) for side in sides if not _is_type_call(side) for leaf in _classes(side)]
    found = []
    for line, target in targets:
        value = _resolve(target, names)
        if _is_game_class(value):
            found.append(f"{where}:{line}: {value.__name__}")
    return found


def client_modules() -> list[Path]:
    """Every module of the package outside the two games' own packages."""
    games = [ROOT / "fly", ROOT / "dreyfus"]
    return [path for path in sorted(ROOT.rglob("*.py")) if not any(game in path.parents for game in games)]


def test_no_client_tests_a_games_class() -> None:
    """Adapters, notation, bots, the command line, svg, narration: none asks which game's class it holds."""
    modules = client_modules()
    assert ROOT / "notation" / "history.py" in modules
    assert ROOT / "fly" / "state.py" not in modules
    found = [hit for path in modules for hit in class_tests(path.read_text(encoding="utf-8"), path.name)]
    assert found == []


def test_no_shared_test_tests_a_games_class() -> None:
    """The tests of what both games share (adapters, bots, notation, the command) ask the state too."""
    tests = Path(__file__).resolve().parent
    own = [tests / "fly", tests / "dreyfus", tests / "reference"]
    modules = [path for path in sorted(tests.rglob("*.py")) if not any(game in path.parents for game in own)]
    assert tests / "adapters" / "test_hidden_cards.py" in modules
    found = [hit for path in modules for hit in class_tests(path.read_text(encoding="utf-8"), path.name, asserts=True)]
    assert found == []


def test_the_scan_finds_a_planted_class_test() -> None:
    """The scan has teeth: isinstance on a state, a view or rules, and ``type(x) is``, are each reported;
    the dispatch on Fly's SwapTrump action and on shared classes is not."""
    planted = "\n".join(
        [
            "from fly_rules import fly",
            "from fly_rules.dreyfus import DreyfusView as Seen",
            "from fly_rules.actions import Play",
            "from fly_rules.engine import MatchBase",
            "def pick(x, rules):",
            "    if isinstance(x, fly.FlyDeal | Seen):",
            "        return x.records",
            "    if isinstance(rules, (Play, fly.FlyRules)) or type(x) is fly.FlyMatch:",
            "        return x.upper",
            "    return isinstance(x, fly.SwapTrump | MatchBase | Play)",
        ]
    )
    assert class_tests(planted) == [
        "<source>:6: FlyDeal",
        "<source>:6: DreyfusView",
        "<source>:8: FlyRules",
        "<source>:8: FlyMatch",
    ]
    checked = "\n".join(
        [
            "from fly_rules import fly",
            "def check(x):",
            "    assert isinstance(x, fly.FlyDeal)",
            "    return isinstance(x, fly.FlyView)",
        ]
    )
    assert class_tests(checked, asserts=True) == ["<source>:4: FlyView"]
    assert class_tests(checked) == ["<source>:3: FlyDeal", "<source>:4: FlyView"]


# --- the shared vocabulary, for both games ---------------------------------------------------------


def _fly_match() -> Any:
    return new_game(fly.FlyRules(players=3), seed=11, dealer=0)


def _dreyfus_match() -> Any:
    return new_game(dreyfus.DreyfusRules(), seed=11, dealer=0)


def _played(state: Any, steps: int) -> Any:
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(state.legal_actions()[-1])
    return state


@pytest.mark.parametrize("make", [_fly_match, _dreyfus_match], ids=["fly", "dreyfus"])
def test_states_views_and_rules_answer_the_protocol(make: Any) -> None:
    """Matches, deals, views and rules of both games are the engine's protocols, and agree on ``game``."""
    match = _played(make(), 7)
    deal, view, rules = match.deal, match.view(0), match.rules
    assert {match.game, deal.game, view.game} == {rules.game}
    assert isinstance(match, GameState)
    assert isinstance(deal, DealState)
    assert isinstance(view, SeatView)
    assert isinstance(rules, Rules)
    assert rules.hand_size == len(make().deal.start_fields()["hands"][0].split())


def test_fly_answers_its_records_as_scores() -> None:
    """Fly: scores are minus the records, the score line is the records, the trump is the trump card's suit."""
    match = _played(_fly_match(), 40)
    deal, view = match.deal, match.view(2)
    assert match.game == "fly"
    assert match.scores == tuple(-r for r in match.records) == view.scores
    assert match.score_lines == {"records": match.records} == view.score_lines
    assert match.trump is deal.trump_card.suit is view.trump
    assert match.result_lines() == {"records": match.records}
    assert deal.deal_head() == {"dealer": deal.dealer, "trump_card": str(deal.trump_card)}
    assert deal.deal_lines() == {"records": deal.records}


def test_dreyfus_answers_lower_minus_upper_as_scores() -> None:
    """Dreyfus: scores are lower minus upper, the lines are upper and lower, the trump is the contract."""
    match = _played(_dreyfus_match(), 60)
    deal, view = match.deal, match.view(1)
    assert match.game == "dreyfus"
    assert match.scores == tuple(lo - up for up, lo in zip(match.upper, match.lower, strict=True)) == view.scores
    assert match.score_lines == {"upper": match.upper, "lower": match.lower} == view.score_lines
    assert match.trump == match.contract == view.trump
    assert deal.deal_lines() == {"tricks": deal.tricks_taken, "upper": deal.upper, "lower": deal.lower}
    assert deal.result_lines() == {"upper": deal.upper, "lower": deal.lower}
    head = deal.deal_head()
    assert head["contract"] == ("NT" if deal.contract is None else deal.contract.letter)


def test_a_finished_dreyfus_match_states_its_settlement() -> None:
    """Only a Dreyfus match (not its deal) adds the settlement to its result lines [REC-4.1]."""
    match = _played(new_game(dreyfus.DreyfusRules(max_deals=1), seed=3, dealer=0), 200)
    assert match.is_over
    assert match.result_lines() == {"upper": match.upper, "lower": match.lower, "settlement": match.settlement()}


@pytest.mark.parametrize("make", [_fly_match, _dreyfus_match], ids=["fly", "dreyfus"])
def test_start_fields_rebuild_the_deal(make: Any) -> None:
    """A deal's ``start_fields()`` are its game's ``new_deal`` arguments: they rebuild the same deal [REC-2.4]."""
    deal = make().deal
    rebuilt = new_deal(deal.rules, **deal.start_fields())
    assert rebuilt.hands == deal.hands
    assert rebuilt.trump == deal.trump
    assert rebuilt.score_lines == deal.score_lines
    assert rebuilt.legal_actions() == deal.legal_actions()


def test_dreyfus_rules_answer_what_fly_rules_answer() -> None:
    """Rank order, the next seat, hand size and the non-default options, in both games."""
    rules = dreyfus.DreyfusRules(target_lower=12)
    assert rules.rank_order is ACE_HIGH
    assert [rules.left_of(s) for s in range(3)] == [1, 2, 0]
    assert rules.non_default_options() == {"target_lower": 12}
    assert dreyfus.DreyfusRules().non_default_options() == {}
    assert (rules.hand_size, fly.FlyRules().hand_size) == (12, 5)
    assert fly.FlyRules(players=3, direction="anticlockwise").left_of(0) == 2


def test_a_dreyfus_deal_reads_nt_as_no_trump() -> None:
    """``"NT"``, the contract as the formats write it, is read as no trump [DRF-3.1]."""
    start = _dreyfus_match().deal.start_fields()
    deal = new_deal(dreyfus.DreyfusRules(), **{**start, "contract": "NT"})
    assert deal.trump is None
    assert new_deal(dreyfus.DreyfusRules(), **{**start, "contract": "S"}).trump is Suit.SPADES
