"""Nothing lost, no traceback: ``play --save`` checks its file first and keeps the game through Ctrl-C
and the end of input, ``play --resume`` continues it, and every command stops on Ctrl-C with one line
and exit code 130 [REC-1.1] [REC-1.5]."""

from __future__ import annotations

import contextlib
import errno
import io
import itertools
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fly_rules import commands
from fly_rules.cli import main
from fly_rules.commands import CommandError, write_atomically
from fly_rules.engine import MatchBase
from fly_rules.notation.history import dump_history, load_history
from tests.cli.test_commands import in_process
from tests.cli.test_commands import run_once as run  # these commands write files: run them once
from tests.notation.helpers import fly_start_deal

PLAY = ("play", "--players", "3", "--seed", "4", "--max-deals", "3")
LONG = PLAY[:5]  # up to 100 deals: long enough to be stopped in the middle


def one_line(stderr: str) -> str:
    """The only line of ``stderr``, which must hold no traceback."""
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


class _Keys(io.StringIO):
    """Standard input that answers ``?`` then ``1`` (the list, then its first action) ``count`` times, then
    is interrupted by Ctrl-C."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.left = 2 * count

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed: bytes in _IOBase
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return "1\n" if self.left % 2 == 0 else "?\n"


@contextlib.contextmanager
def keys(count: int) -> Iterator[None]:
    """Standard input of ``count`` answers followed by Ctrl-C, for a command run in this process."""
    saved = sys.stdin
    sys.stdin = _Keys(count)
    try:
        yield
    finally:
        sys.stdin = saved


def test_rec_1_1_play_save_path_is_checked_before_the_first_deal(tmp_path: Path) -> None:
    """REC-1.1: a missing folder, a directory or an existing file is refused with one line before
    anything is dealt; --force lets an existing file be overwritten."""
    existing = tmp_path / "old.toml"
    existing.write_text("keep me", encoding="utf-8")
    for target, expected in (
        (tmp_path / "missing" / "g.toml", "there is no folder"),
        (tmp_path, "it is a directory"),
        (existing, "exists: pass --force to overwrite it"),
    ):
        result = run(*PLAY, "--save", str(target), stdin="?\n1\n" * 500)
        assert result.returncode == 1
        assert expected in one_line(result.stderr)
        assert "deal" not in result.stdout
    assert existing.read_text(encoding="utf-8") == "keep me"
    forced = run(*PLAY, "--save", str(existing), "--force", stdin="?\n1\n" * 500)
    assert forced.returncode == 0, forced.stderr
    assert load_history(existing.read_text(encoding="utf-8")).is_over


def test_rec_1_1_play_refuses_a_read_only_folder_before_the_first_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REC-1.1: a folder where no file can be made is found before the first deal (simulated: the
    tests may run as root, who can write anywhere)."""

    def refuse(**_kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    code, out, err = in_process([*PLAY, "--save", str(tmp_path / "g.toml")], "?\n1\n" * 500)
    assert code == 1
    assert one_line(err) == f"fly-rules: cannot write in {tmp_path}: Permission denied"
    assert out == ""


def test_rec_1_1_play_saves_on_ctrl_c_and_resumes(tmp_path: Path) -> None:
    """REC-1.1: Ctrl-C at the prompt (in this process) saves the game so far and exits 130 with one
    line; --resume continues the same match to its end, writing back to the same file."""
    saved = tmp_path / "g.toml"
    out, err = io.StringIO(), io.StringIO()
    with keys(6), contextlib.redirect_stderr(err):
        assert main([*LONG, "--save", str(saved)], out) == 130
    assert one_line(err.getvalue()) == f"fly-rules: interrupted; saved; continue: fly-rules play --resume {saved}"
    kept = load_history(saved.read_text(encoding="utf-8"))
    assert isinstance(kept, MatchBase)
    assert not kept.is_over
    assert len(kept.actions) >= 6
    code, told, _ = in_process(["play", "--resume", str(saved)], "?\n1\n" * 2000)
    assert code == 0
    assert f"resumed from {saved} after {len(kept.actions)} actions" in told
    final = load_history(saved.read_text(encoding="utf-8"))
    assert isinstance(final, MatchBase)
    assert final.is_over
    assert final.actions[: len(kept.actions)] == kept.actions
    assert final.seed == kept.seed


def test_rec_1_1_play_saves_when_input_ends_and_dreyfus_resumes(tmp_path: Path) -> None:
    """REC-1.1, DRF-8.1: input ending mid-game (</dev/null) saves the game and says how to go on."""
    saved = tmp_path / "d.toml"
    result = run("play", "--game", "dreyfus", "--max-deals", "2", "--save", str(saved), stdin="?\n1\n" * 3)
    assert result.returncode == 1
    message = one_line(result.stderr)
    assert message == (f"fly-rules: input ended before the match did; saved; continue: fly-rules play --resume {saved}")
    kept = load_history(saved.read_text(encoding="utf-8"))
    assert len(kept.actions) >= 3
    done = run("play", "--resume", str(saved), stdin="?\n1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert load_history(saved.read_text(encoding="utf-8")).is_over


def test_rec_1_1_play_is_saved_after_every_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-1.1: the file is rewritten when each deal ends, so even a kill that no handler sees loses
    at most the deal in progress."""
    saved = tmp_path / "g.toml"
    writes: list[str] = []
    real = commands.files.write_atomically

    def record(path: Path, text: str) -> None:
        writes.append(text)
        real(path, text)

    monkeypatch.setattr(commands.files, "write_atomically", record)
    code, _, _ = in_process([*PLAY, "--save", str(saved)], "?\n1\n" * 2000)
    assert code == 0
    saves = [load_history(text) for text in writes]
    assert len(saves) >= 3  # one save a deal (at least two deals end before the last), and one at the end
    assert all(len(earlier.actions) < len(later.actions) for earlier, later in itertools.pairwise(saves))
    assert [save.is_over for save in saves] == [False] * (len(saves) - 1) + [True]


def test_rec_1_1_play_resume_refuses_what_it_cannot_continue(tmp_path: Path) -> None:
    """REC-1.1: --resume refuses a finished match, an explicit deal and a broken history, in one line."""
    over = tmp_path / "over.toml"
    assert run(*PLAY, "--save", str(over), stdin="?\n1\n" * 2000).returncode == 0
    finished = run("play", "--resume", str(over))
    assert finished.returncode == 1
    assert "is over" in one_line(finished.stderr)
    start, deal = fly_start_deal()
    explicit = tmp_path / "deal.toml"
    explicit.write_text(dump_history(deal, start=start), encoding="utf-8")
    assert "explicit deal" in one_line(run("play", "--resume", str(explicit)).stderr)
    broken = tmp_path / "broken.toml"
    broken.write_text("x = [", encoding="utf-8")
    assert "not valid TOML" in one_line(run("play", "--resume", str(broken)).stderr)


def play_process(saved: Path) -> subprocess.Popen[bytes]:
    """A real `play --save saved` process of up to 100 deals, its three streams pipes."""
    return subprocess.Popen(
        [sys.executable, "-m", "fly_rules", *LONG, "--save", str(saved)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def stop_at_prompt(saved: Path, stop: signal.Signals, answers: int = 5) -> tuple[int, str]:
    """A real `play --save saved` process, given ``answers`` answers and sent ``stop`` while it waits for
    the next: its exit code and standard error (bounded in time: killed if it hangs)."""
    process = play_process(saved)
    assert process.stdin is not None
    assert process.stdout is not None
    assert process.stderr is not None
    shown = bytearray()
    stdout = process.stdout

    def collect() -> None:
        while chunk := os.read(stdout.fileno(), 4096):
            shown.extend(chunk)

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    process.stdin.write(b"?\n1\n" * answers)
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while shown.count(b"your choice> ") <= 2 * answers and time.monotonic() < deadline:
        time.sleep(0.05)
    assert shown.count(b"your choice> ") == 2 * answers + 1  # waiting for the next answer
    process.send_signal(stop)
    try:
        process.wait(timeout=60)
    finally:
        process.kill()  # a no-op once it has ended; never leave a hung run behind
    reader.join(timeout=10)
    err = process.stderr.read()
    process.stdin.close()
    process.stderr.close()
    stdout.close()
    return process.returncode, err.decode()


@pytest.mark.parametrize(
    ("stop", "why"),
    [
        (signal.SIGINT, "interrupted"),
        (signal.SIGTERM, "stopped by SIGTERM"),
        (signal.SIGHUP, "stopped by SIGHUP (the terminal closed)"),
    ],
)
def test_rec_1_1_play_stopped_by_a_signal_leaves_a_valid_resumable_history(
    tmp_path: Path, stop: signal.Signals, why: str
) -> None:
    """REC-1.1: a real `play --save` process, sent SIGINT, SIGTERM or SIGHUP while it waits at the prompt,
    saves the game, says so in one line of standard error and exits 128 + the signal's number; the
    history loads and `play --resume` plays it to the end."""
    saved = tmp_path / "g.toml"
    code, err = stop_at_prompt(saved, stop)
    assert code == 128 + stop
    assert one_line(err) == f"fly-rules: {why}; saved; continue: fly-rules play --resume {saved}"
    kept = load_history(saved.read_text(encoding="utf-8"))
    assert isinstance(kept, MatchBase)
    assert not kept.is_over
    assert len(kept.actions) > 5
    resumed = run("play", "--resume", str(saved), stdin="?\n1\n" * 2000)
    assert resumed.returncode == 0, resumed.stderr
    final = load_history(saved.read_text(encoding="utf-8"))
    assert isinstance(final, MatchBase)
    assert final.is_over
    assert final.actions[: len(kept.actions)] == kept.actions


def test_rec_1_1_write_is_atomic_and_a_failed_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REC-1.1: a write that fails (a full disk) leaves the old file whole and no temporary file."""
    target = tmp_path / "g.toml"
    write_atomically(target, "first\n")
    os.chmod(target, 0o640)
    write_atomically(target, "second\n")
    assert target.read_text(encoding="utf-8") == "second\n"
    assert target.stat().st_mode & 0o777 == 0o640

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CommandError, match="No space left on device; the old file is unchanged"):
        write_atomically(target, "third\n" * 1000)
    assert target.read_text(encoding="utf-8") == "second\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.toml"]
    with pytest.raises(CommandError, match="cannot write"):
        write_atomically(tmp_path / "missing" / "g.toml", "x")


def test_rec_1_5_command_arguments_are_checked_with_one_line(tmp_path: Path) -> None:
    """REC-1.5, FLY-10.1: --max-deals 0 or -1, a seed of 5,000 digits or written ² or ٣, exit 1 with one
    line; a seat written ٣ is refused in one line naming --seat."""
    for command in (("simulate", "-n", "2", "--no-progress"), ("simulate", "-n", "2"), ("demo",), PLAY[:3]):
        for bad in ("0", "-1"):
            result = run(*command, "--max-deals", bad, stdin="?\n1\n" * 100)
            assert result.returncode == 1
            assert "max_deals: FLY-10.1: must be None or a whole number from 1 to 1000000" in one_line(result.stderr)
    dreyfus = run("simulate", "--game", "dreyfus", "--max-deals", "0", "-n", "1")
    assert "max_deals" in one_line(dreyfus.stderr)
    for seed, expected in (("9" * 5000, "at most 100"), ("²", "digits 0-9"), ("٣", "digits 0-9")):
        result = run("simulate", "-n", "1", "--no-progress", "--seed", seed)
        assert result.returncode == 1
        assert expected in one_line(result.stderr)
    for seat in ("٣", "²"):
        refused = run(*PLAY, "--seat", seat)
        assert refused.returncode == 1
        assert "--seat must be a seat 0 to 2 in the digits 0-9" in one_line(refused.stderr)


def test_rec_5_1_show_checks_its_picture_file_and_seat_first(tmp_path: Path) -> None:
    """REC-5.1: show --svg into a missing folder, --seat without --svg and a seat off the table each
    exit 1 with one line, before the board is printed."""
    position = "fly - 0 8H 7C8DKH9SAS/9HTHJHQHAH/9CTCJC7S8S 7H7D 25,25,25 - 1"
    for args, expected in (
        (["--svg", "/nonexistent/a.svg"], "cannot write /nonexistent/a.svg: there is no folder /nonexistent"),
        (["--seat", "1"], "--seat chooses whose view the SVG picture shows: give --svg FILE too"),
        (["--svg", str(tmp_path / "a.svg"), "--seat", "9"], "--seat must be a seat 0 to 2 in the digits 0-9, not '9'"),
    ):
        result = run("show", position, *args)
        assert result.returncode == 1
        assert one_line(result.stderr) == f"fly-rules: {expected}"
        assert result.stdout == ""
    drawn = run("show", position, "--svg", str(tmp_path / "a.svg"), "--seat", "2")
    assert drawn.returncode == 0
    assert (tmp_path / "a.svg").read_text(encoding="utf-8").startswith("<svg")


def test_simulate_with_ray_missing_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate --backend ray` without Ray installed says so in one line and exits 1."""
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.delitem(sys.modules, "fly_rules.adapters.ray", raising=False)
    code, out, err = in_process(["simulate", "--backend", "ray", "-n", "1"], "")
    assert code == 1
    assert one_line(err) == "fly-rules: fly_rules.adapters.ray needs Ray: pip install 'fly_rules[ray]'"
    assert out == ""


def test_ctrl_c_in_any_command_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a simulation in this process: one line, exit code 130."""

    def interrupted(*_args: object) -> list[object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(commands.jobs, "run_matches", interrupted)
    code, out, err = in_process(["simulate", "-n", "3"], "")
    assert code == 130
    assert one_line(err) == "fly-rules: interrupted"
    assert out == ""


def test_ctrl_c_stops_simulate_workers_at_once(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the whole process group, twice, as a terminal sends it) stops a long
    `simulate --workers 2`: exit 130, one line, and no worker process left running."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fly_rules", "simulate", "-n", "100000", "--workers", "2", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 60
    while len(children.read_text().split()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(children.read_text().split()) >= 2
    time.sleep(0.5)
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.002)  # the second press while the first is being handled
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # never leave a hung run behind
    assert time.monotonic() - started < 30
    assert process.returncode == 130
    assert one_line(err.decode()) == "fly-rules: interrupted"
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)
