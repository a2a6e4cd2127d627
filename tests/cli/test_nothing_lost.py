"""Issue 21's reproducers, each a test: the last ways a saved game was lost, and the tracebacks a
user could still see (the signal and pipe cases as real processes, each bounded in time) [REC-1.1]."""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import fly_rules
from fly_rules import cli
from fly_rules.cli import main
from fly_rules.commands import CommandError, files, jobs, write_atomically
from fly_rules.commands.common import Stopped
from fly_rules.engine import MatchBase
from fly_rules.notation.history import dump_history, load_history
from tests.cli.test_commands import run_once as run
from tests.cli.test_stops import PLAY, one_line, play_process, stop_at_prompt


def test_rec_1_1_ctrl_c_as_the_match_ends_keeps_the_last_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-1.1 (issue 21, 1): Ctrl-C while the final history is being built is held back until it is
    written: the file holds the finished match, and the one line says it is saved."""
    saved = tmp_path / "g.toml"
    real = dump_history
    pressed: list[int] = []

    def slow(state: Any, **options: Any) -> str:
        if state.is_over and not pressed:  # the final save: Ctrl-C arrives while its text is being built
            pressed.append(1)
            os.kill(os.getpid(), signal.SIGINT)
        return real(state, **options)

    monkeypatch.setattr("fly_rules.commands.play.dump_history", slow)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        sys_stdin, sys.stdin = sys.stdin, io.StringIO("?\n1\n" * 2000)
        try:
            code = main([*PLAY, "--save", str(saved)])
        finally:
            sys.stdin = sys_stdin
    assert code == 130
    assert one_line(err.getvalue()) == f"fly-rules: interrupted; the finished game is saved to {saved}"
    assert load_history(saved.read_text(encoding="utf-8")).is_over


def test_rec_1_1_a_broken_output_pipe_saves_the_moves_and_says_so(tmp_path: Path) -> None:
    """REC-1.1 (issue 21, 6): `yes 1 | fly-rules play --save g.toml | head -c 6000`: the output closing
    saves every move so far, says so on standard error in one line and exits 141 (SIGPIPE)."""
    saved = tmp_path / "g.toml"
    process = play_process(saved)
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write(b"?\n1\n" * 3000)
            process.stdin.close()
        head = process.stdout.read(6000)
        process.stdout.close()  # `head` has what it wanted and goes
        process.wait(timeout=60)
    finally:
        process.kill()
    assert process.stderr is not None
    with process.stderr:
        err = process.stderr.read()
    assert len(head) == 6000
    assert process.returncode == 141
    assert one_line(err.decode()) == (
        f"fly-rules: the output closed (broken pipe); saved; continue: fly-rules play --resume {saved}"
    )
    kept = load_history(saved.read_text(encoding="utf-8"))
    assert not kept.is_over
    told = head.decode(errors="replace").count("your choice> ")
    assert len(kept.actions) > told  # every answer read before the pipe closed, and the bots' moves


def test_ctrl_c_while_the_program_starts_is_one_line_and_exit_130() -> None:
    """Issue 21, 7: SIGINT while Python imports the program (the imports timed to find the moment)
    gives one line and exit code 130, not a KeyboardInterrupt traceback."""
    landed = 0
    for _ in range(5):
        process = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "fly_rules", "rules"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert process.stderr is not None
        seen = b""
        deadline = time.monotonic() + 30
        while b"fly_rules.errors" not in seen and time.monotonic() < deadline:
            seen += process.stderr.readline()  # the package's first imports are done: its handler is in place
        process.send_signal(signal.SIGINT)
        try:
            rest = process.communicate(timeout=30)[1]
        finally:
            process.kill()
        lines = [line for line in (seen + rest).decode().splitlines() if not line.startswith("import time:")]
        assert process.returncode == 130, lines
        assert "Traceback" not in rest.decode()
        assert lines == ["", "fly-rules: interrupted"]
        landed += b"fly_rules.cli\n" not in rest  # stopped before the command's module was imported
        if landed:
            break
    assert landed


def test_rec_1_1_play_with_standard_input_closed_is_one_line() -> None:
    """Issue 21, 5: `fly-rules play 0<&-` says standard input is closed in one line, exit 1."""
    result = subprocess.run(
        [sys.executable, "-m", "fly_rules", *PLAY],
        stdin=None,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert result.returncode == 1
    assert one_line(result.stderr) == "fly-rules: standard input is closed: play reads your moves from it"
    assert result.stdout == ""


def test_rec_3_3_replay_refuses_a_deal_without_actions(tmp_path: Path) -> None:
    """REC-3.3 (issue 21, 4): a [[deal]] with no `actions` key is refused by `replay` and by `replay
    --check` alike, in one line naming deal[0].actions."""
    saved = tmp_path / "g.toml"
    assert run(*PLAY, "--save", str(saved), stdin="?\n1\n" * 2000).returncode == 0
    text = saved.read_text(encoding="utf-8")
    start = text.index("actions = [")
    cut = tmp_path / "cut.toml"
    cut.write_text(text[:start] + text[text.index("]\n", start) + 2 :], encoding="utf-8")
    for check in ((), ("--check",)):
        result = run("replay", str(cut), *check)
        assert result.returncode == 1
        assert "deal[0].actions: REC-3.3: is missing" in one_line(result.stderr)


def wait_for_prompt(process: subprocess.Popen[bytes]) -> bytes:
    """What ``process`` (a `play` waiting for its human) prints up to its first prompt, within a minute."""
    assert process.stdout is not None
    shown = b""
    deadline = time.monotonic() + 60
    while b"your choice> " not in shown and time.monotonic() < deadline:
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:
            break
        shown += chunk
    assert b"your choice> " in shown
    return shown


def test_rec_1_1_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    """REC-1.1 (issue 21, 2): while `play --save g.toml --seed 1` waits at its first prompt, another
    `play --save g.toml --seed 2` (even with --force) and a `--resume g.toml` are refused in one line
    naming the first one's process; Ctrl-C in the first then saves its own game, seed 1."""
    saved = tmp_path / "g.toml"
    first = subprocess.Popen(
        [sys.executable, "-m", "fly_rules", *PLAY[:3], "--seed", "1", "--save", str(saved)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_prompt(first)
        busy = f"fly-rules: {saved} is in use by another fly-rules (process {first.pid}); let it end first"
        for args in (("--seed", "2", "--save", str(saved), "--force"), ("--resume", str(saved))):
            second = run(*PLAY[:3], *args, stdin="?\n1\n" * 2000)
            assert second.returncode == 1
            assert one_line(second.stderr).startswith(busy)
        first.send_signal(signal.SIGINT)
        first.wait(timeout=60)
    finally:
        first.kill()
        for stream in (first.stdin, first.stdout, first.stderr):
            assert stream is not None
            stream.close()
    assert first.returncode == 130
    resumed = load_history(saved.read_text(encoding="utf-8"))
    assert isinstance(resumed, MatchBase)
    assert resumed.seed == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.toml"]  # the lock file goes with its holder
    again = run("play", "--resume", str(saved), stdin="?\n1\n" * 3000)
    assert again.returncode == 0, again.stderr


def test_rec_1_1_a_killed_writers_temporary_files_are_cleaned(tmp_path: Path) -> None:
    """REC-1.1 (issue 21, 12): `.g.toml.XXXXXXXX.tmp` files a killed writer left are removed by the
    next writer of g.toml (under its lock); other files are left alone."""
    saved = tmp_path / "g.toml"
    stale = [tmp_path / ".g.toml.ab_cd123.tmp", tmp_path / ".g.toml.zz9x8y7w.tmp"]
    others = [tmp_path / ".g.toml.x.ab_cd123.tmp", tmp_path / "notes.tmp"]
    for path in stale + others:
        path.write_text("partial", encoding="utf-8")
    assert run(*PLAY, "--save", str(saved), stdin="?\n1\n" * 2000).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["g.toml", *(p.name for p in others)])


def test_rec_1_1_the_folder_is_flushed_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-1.1 (issue 21, 12): a save flushes the file, then its folder (so that the rename survives a crash)."""
    synced: list[str] = []
    real = os.fsync

    def record(handle: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file")
        real(handle)

    monkeypatch.setattr(os, "fsync", record)
    write_atomically(tmp_path / "g.toml", "text\n")
    assert synced == ["file", "folder"]


def test_rec_1_1_a_symlink_is_followed_and_only_regular_files_are_replaced(tmp_path: Path) -> None:
    """REC-1.1 (issue 21, 12): `--save LINK --force` writes the link's target (the link stays a link);
    a FIFO is refused in one line even with --force, and stays a FIFO."""
    target = tmp_path / "real.toml"
    target.write_text("old game", encoding="utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    assert run(*PLAY, "--save", str(link), "--force", stdin="?\n1\n" * 2000).returncode == 0
    assert link.is_symlink()
    assert load_history(target.read_text(encoding="utf-8")).is_over
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    refused = run(*PLAY, "--save", str(fifo), "--force", stdin="?\n1\n" * 2000)
    assert refused.returncode == 1
    assert one_line(refused.stderr) == (
        f"fly-rules: cannot use {fifo}: it is not a regular file, and only those are resumed or replaced"
    )
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(CommandError, match="not a regular file"):
        write_atomically(fifo, "text")


def test_rec_4_1_resume_refuses_a_cut_or_edited_history(tmp_path: Path) -> None:
    """REC-4.1 (issue 21, 3): `head -c 130 base.toml > t.toml; play --resume t.toml`, and a copy whose
    max_deals was lowered, are refused in one line; neither file is touched."""
    base = tmp_path / "base.toml"
    code, err = stop_at_prompt(base, signal.SIGINT, answers=12)
    assert code == 130, err
    text = base.read_text(encoding="utf-8")
    cut = tmp_path / "t.toml"
    cut.write_text(text[:130], encoding="utf-8")
    edited = tmp_path / "e.toml"
    edited.write_text(text.replace("max_deals = 100", "max_deals = 50"), encoding="utf-8")
    for path, why in ((cut, "saved: REC-4.1: is missing"), (edited, "saved.digest: REC-4.1: the history differs")):
        before = path.read_text(encoding="utf-8")
        result = run("play", "--resume", str(path), stdin="?\n1\n" * 2000)
        assert result.returncode == 1
        assert why in one_line(result.stderr)
        assert path.read_text(encoding="utf-8") == before
    assert run("play", "--resume", str(base), stdin="?\n1\n" * 4000).returncode == 0


def test_simulate_streams_a_huge_n_in_flat_memory() -> None:
    """Issue 21, 8: `simulate -n 100000000` plays at once in the memory of a small run (it took 800 MB
    within ten seconds: the tallies are kept, not the results), and Ctrl-C stops it with one line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fly_rules", "simulate", "-n", "100000000", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(4)
        status = Path(f"/proc/{process.pid}/status").read_text()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    peak = int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1])
    assert peak < 100_000  # kB; a run of 1,000 matches peaks near 30 MB
    assert process.returncode == 130
    assert one_line(err.decode()) == "fly-rules: interrupted"


def test_simulate_pieces_are_made_as_needed_and_cover_every_match() -> None:
    """Issue 21, 8: the matches are cut into pieces of at most 1,000, made lazily (a range of 10**99
    costs nothing), in order, whatever the number of workers."""
    for total, workers in ((1, 1), (2500, 1), (2500, 3), (17, 4)):
        made = list(jobs.pieces(total, workers))
        assert [i for piece in made for i in piece] == list(range(total))
        assert max(map(len, made)) <= jobs.PIECE
    huge = jobs.pieces(10**99, 2)
    assert next(huge) == range(1000)
    assert next(huge) == range(1000, 2000)


class _ClosingPipe(io.StringIO):
    """Standard output that a reader stops reading after ``size`` characters (a broken pipe)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def write(self, text: str, /) -> int:
        if self.tell() + len(text) > self.size:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_rec_1_1_a_broken_pipe_in_this_process_saves_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-1.1 (issue 21, 6), in this process: output that closes mid-game saves every move chosen so
    far and gives exit code 141 with one line on standard error."""
    saved = tmp_path / "g.toml"
    monkeypatch.setattr("fly_rules.cli._quiet_stdout", lambda: None)  # pytest's own stdout stays
    err = io.StringIO()
    sys_stdin, sys.stdin = sys.stdin, io.StringIO("?\n1\n" * 2000)
    try:
        with contextlib.redirect_stderr(err):
            code = main([*PLAY, "--save", str(saved)], _ClosingPipe(3000))
    finally:
        sys.stdin = sys_stdin
    assert code == 141
    assert one_line(err.getvalue()) == (
        f"fly-rules: the output closed (broken pipe); saved; continue: fly-rules play --resume {saved}"
    )
    assert len(load_history(saved.read_text(encoding="utf-8"), resumable=True).actions) > 0


@pytest.mark.parametrize(
    ("stop", "why"),
    [(signal.SIGTERM, "stopped by SIGTERM"), (signal.SIGHUP, "stopped by SIGHUP (the terminal closed)")],
)
def test_the_first_stopping_signal_stops_and_the_next_are_ignored(stop: signal.Signals, why: str) -> None:
    """REC-1.1: the program's handler turns SIGTERM or SIGHUP into a Stopped of exit code 128 + the
    signal's number, and then ignores Ctrl-C, SIGTERM and SIGHUP while the command stops."""
    saved = {number: signal.getsignal(number) for number in files.STOPS}
    try:
        with pytest.raises(Stopped) as caught:
            cli._stop_once(stop, None)
        assert (caught.value.why, caught.value.code) == (why, 128 + stop)
        assert all(signal.getsignal(number) is signal.SIG_IGN for number in files.STOPS)
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def test_startup_answers_ctrl_c_only_for_the_program() -> None:
    """Issue 21, 7: the start-up handler is put in place for `fly-rules …` and `python -m fly_rules …`
    only, never for a program that merely imports the library."""
    for argv, expected in (
        (["/usr/bin/python3", "-m", "fly_rules", "play"], True),
        (["python", "-X", "importtime", "-m", "fly_rules"], True),
        (["/venv/bin/python3", "/venv/bin/fly-rules", "demo"], True),
        (["python", "-m", "pytest"], False),
        (["python", "train.py"], False),
        (["python"], False),
    ):
        assert fly_rules._is_the_program(argv) is expected, argv


def test_rec_1_1_a_lock_file_removed_by_its_last_holder_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REC-1.1: if the lock file opened is removed by its holder before it is locked, the writer opens
    the new one, so that two writers never hold locks on different files."""
    target = tmp_path / "g.toml"
    real = fcntl.flock
    removed: list[int] = []

    def racing(handle: int, operation: int) -> None:
        if not removed:  # the last holder ends between our open and our flock
            removed.append(1)
            os.unlink(tmp_path / ".g.toml.lock")
        real(handle, operation)

    monkeypatch.setattr(fcntl, "flock", racing)
    with files.locked(target):
        assert (tmp_path / ".g.toml.lock").read_text(encoding="ascii") == f"{os.getpid()}\n"
    assert removed == [1]
    assert not (tmp_path / ".g.toml.lock").exists()


def test_rec_1_1_a_lock_file_that_cannot_be_made_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REC-1.1: a folder where the lock file cannot be made (simulated: the tests may run as root) is a
    CommandError naming the file, before anything is read or written."""
    real = os.open

    def refuse(path: Any, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real(path, flags, mode)

    monkeypatch.setattr(os, "open", refuse)
    with (
        pytest.raises(CommandError, match=r"cannot lock .*g\.toml: Permission denied"),
        files.locked(tmp_path / "g.toml"),
    ):
        pass


def test_startup_puts_its_handler_in_place_for_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, 7: run as the program, the start-up answers Ctrl-C with its own handler (until main's)."""
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "fly_rules", "demo"])
    saved = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        fly_rules._answer_ctrl_c()
        assert signal.getsignal(signal.SIGINT) is fly_rules._interrupted
    finally:
        signal.signal(signal.SIGINT, saved)
