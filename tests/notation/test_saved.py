"""A history in progress states how it was saved (its count of actions and a digest of the rest), so
that a cut or edited copy is refused rather than continued [REC-4.1] (issue 21, 3)."""

from __future__ import annotations

import pytest

from fly_rules import fly
from fly_rules.notation.games import action_text
from fly_rules.notation.history import InvalidHistory, dump_history, load_history
from tests.notation.helpers import random_dreyfus_match, random_fly_match


def refused(text: str, *, resumable: bool = True) -> InvalidHistory:
    with pytest.raises(InvalidHistory) as caught:
        load_history(text, resumable=resumable)
    return caught.value


def test_rec_4_1_a_saved_history_in_progress_loads_and_resumes() -> None:
    """REC-4.1: a game in progress written with saved=True ends with its table; it loads, to be
    continued too, in both games; a finished game and a plain dump state none."""
    match = random_fly_match(3, 30)
    dreyfus_match, _ = random_dreyfus_match(5, 40)
    for state in (match, dreyfus_match):
        text = dump_history(state, saved=True)
        assert f'[saved]\nactions = {len(state.actions)}\ndigest = "sha256:' in text
        assert load_history(text, resumable=True) == state
        assert "[saved]" not in dump_history(state)
    over = random_fly_match(3, 5000)
    assert over.is_over
    assert "[saved]" not in dump_history(over, saved=True)


def test_rec_4_1_every_cut_of_a_saved_history_is_refused_or_the_same_game() -> None:
    """REC-4.1: cut anywhere (at each line end, and every 7th character), a saved history is refused
    for resuming, or (a cut of trailing blanks only) gives the very same game: never another one."""
    match = random_fly_match(3, 30)
    text = dump_history(match, saved=True)
    cuts = {i for i, char in enumerate(text) if char == "\n"} | set(range(0, len(text), 7))
    same = 0
    for cut in sorted(cuts):
        try:
            loaded = load_history(text[:cut], resumable=True)
        except InvalidHistory:
            continue
        assert loaded == match
        same += 1
    assert same <= 1  # at most the cut of the last newline


def test_rec_4_1_edits_of_a_saved_history_are_refused() -> None:
    """REC-4.1: max_deals lowered, an option added, or the last card changed to another the player
    held: each replays on its own, but disagrees with the digest it was saved with."""
    plays = {
        steps: [a for a in random_fly_match(3, steps).legal_actions() if isinstance(a, fly.Play)]
        for steps in range(29, 60)
    }
    steps = min(n for n, held in plays.items() if len(held) > 1)  # a turn with a choice of cards
    before = random_fly_match(3, steps)
    last, other = plays[steps][:2]
    match = before.apply(last)
    text = dump_history(match, saved=True)
    seat = before.to_move
    at = text.rindex(f'"{seat}: {action_text(last)}"')
    edits = {
        "max_deals": text.replace("max_deals = 3", "max_deals = 2"),
        "option": text.replace("[options]\n", "[options]\nflush_wins = true\n", 1),
        "card": text[:at] + f'"{seat}: {action_text(other)}"' + text[at + len(f'"{seat}: {action_text(last)}"') :],
    }
    for name, edited in edits.items():
        assert edited != text, name
        plain = edited[: edited.index("[saved]")]
        load_history(plain)  # the edit alone replays: only the saved table tells it
        error = refused(edited, resumable=False)
        assert (error.rule, error.field) == ("REC-4.1", "saved.digest"), name


def test_rec_4_1_a_history_without_saved_loads_but_is_not_resumed() -> None:
    """REC-4.1: an older history in progress (no saved table) still loads; to be continued it is
    refused in one line saying why."""
    match = random_fly_match(3, 30)
    text = dump_history(match)
    assert load_history(text) == match
    error = refused(text)
    assert (error.rule, error.field) == ("REC-4.1", "saved")
    assert "is missing" in str(error)
    assert "\n" not in str(error)


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ("saved = 3", "saved"),
        ('[saved]\nactions = 30\ndigest = "x"\nextra = 1', "saved"),
        ('[saved]\ndigest = "x"', "saved"),
        ('[saved]\nactions = 29\ndigest = "x"', "saved.actions"),
        ('[saved]\nactions = "30"\ndigest = "x"', "saved.actions"),
        ('[saved]\nactions = 30\ndigest = "sha256:00"', "saved.digest"),
    ],
)
def test_rec_4_1_a_saved_table_that_disagrees_is_refused(table: str, field: str) -> None:
    """REC-4.1: a saved table of the wrong shape, count or digest is refused, naming its field."""
    match = random_fly_match(3, 30)
    assert len(match.actions) == 30
    text = dump_history(match)
    if table.startswith("saved ="):
        text = table + "\n" + text
    else:
        text += "\n" + table + "\n"
    error = refused(text, resumable=False)
    assert (error.rule, error.field) == ("REC-4.1", field)
