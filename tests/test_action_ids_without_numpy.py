"""The games and their action ids need no NumPy: a pure-Python client (the browser's table, the table server, a
conformance engine) names every action by its id with ``fly_rules.fly`` and ``fly_rules.dreyfus`` alone."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A meta-path finder that refuses numpy, as an interpreter without it would.
BLOCK = """\
import sys


class NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None


sys.meta_path.insert(0, NoNumpy())
"""

CLIENT = """\
import sys

import fly_rules.dreyfus
import fly_rules.fly
from fly_rules import dreyfus, fly, registry
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.cards import CardSet
from fly_rules.dreyfus.encoding import ACTIONS as DREYFUS_ACTIONS
from fly_rules.engine.encoding import STAND, layout_size
from fly_rules.fly.encoding import ACTIONS as FLY_ACTIONS, EXCHANGE, FOLD, SWAP, observation_layout

try:
    import numpy
except ModuleNotFoundError:
    pass
else:
    raise AssertionError("the block let numpy in")

assert registry.get("fly").action_ids is FLY_ACTIONS
assert registry.get("dreyfus").action_ids is DREYFUS_ACTIONS
assert (FLY_ACTIONS.size, DREYFUS_ACTIONS.size, STAND) == (90, 53, 52)

deal = fly.new_match(fly.FlyRules(players=3), seed=1).deal
hand = deal.hand_masks[deal.to_move]
for action_id in FLY_ACTIONS.legal_ids(deal):
    action = FLY_ACTIONS.action_of(hand, action_id)
    assert action in deal.legal_actions(), action
    assert FLY_ACTIONS.id_of(hand, action) == action_id
    text = FLY_ACTIONS.text(deal, 0, action_id)
    assert FLY_ACTIONS.id_of_text(deal, 0, text) == action_id
    assert FLY_ACTIONS.words(action) == text
assert FLY_ACTIONS.action_of(hand, FOLD) == Fold() and FLY_ACTIONS.id_of(hand, Stand()) == STAND
assert EXCHANGE < SWAP
assert layout_size(observation_layout(deal.rules), 3) > 0

deal = dreyfus.new_match(dreyfus.DreyfusRules(), seed=1, dealer=0).deal
legal = DREYFUS_ACTIONS.legal_ids(deal)
assert legal[-1] == STAND and all(i < STAND for i in legal[:-1])
first = legal[0]
assert DREYFUS_ACTIONS.text(deal, 0, first).startswith("mark ")
assert DREYFUS_ACTIONS.ids(deal, Exchange(CardSet(1 << first))) == [first, STAND]
assert "numpy" not in sys.modules
print("ok")
"""


def test_games_and_action_ids_import_and_work_with_numpy_blocked(tmp_path: Path) -> None:
    """With every import of numpy refused, both games import and their id tables map ids, actions and text
    both ways (Fly's declarations and plays, Dreyfus's marks)."""
    script = tmp_path / "client.py"
    script.write_text(textwrap.dedent(BLOCK) + textwrap.dedent(CLIENT), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_block_refuses_numpy(tmp_path: Path) -> None:
    """The hook has teeth: with it, importing the batch engine (which needs numpy) fails."""
    script = tmp_path / "adapter.py"
    script.write_text(textwrap.dedent(BLOCK) + "import fly_rules.batch\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode != 0
    assert "No module named 'numpy' (blocked)" in done.stderr
