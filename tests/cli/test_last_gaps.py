"""The last ways `fly-rules play` could fail, each in a real process [REC-1.1]: a full disk, a loop of symbolic
links, a dangling link into a missing folder, a hard link, a FIFO given to ``--resume``, Ctrl-C as the program
starts. Each is one line of standard error and exit code 1 (130 for Ctrl-C), never a traceback or a hang."""

from __future__ import annotations

import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from fly_rules.notation.history import load_history
from tests.cli.test_commands import run_once as run
from tests.cli.test_stops import PLAY, one_line

FLY_RULES = Path(sys.executable).parent / "fly-rules"
ROOT = Path(__file__).resolve().parents[2] / "fly_rules"


def test_rec_1_1_a_full_disk_at_the_start_is_one_line(tmp_path: Path) -> None:
    """REC-1.1: on a full file system (a 16 KiB tmpfs, filled, in a mount namespace of its own) the lock
    file cannot take its process number: one line naming the file and the reason, exit code 1."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (
        f"mount -t tmpfs -o size=16k tmpfs {disk} && "
        f"(dd if=/dev/zero of={disk}/fill bs=1k count=64 2>/dev/null; true) && "
        f"exec {sys.executable} -m fly_rules {' '.join(PLAY)} --save {disk}/g.toml"
    )
    done = subprocess.run(
        ["unshare", "--mount", "--map-root-user", "sh", "-c", script],
        input="1\n" * 50,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert one_line(done.stderr) == f"fly-rules: cannot lock {disk}/g.toml: No space left on device"


def test_rec_1_1_a_loop_of_symbolic_links_is_one_line(tmp_path: Path) -> None:
    """REC-1.1: ``--save LOOP --force`` on two links pointing at each other is refused in one line."""
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    done = run(*PLAY, "--save", str(tmp_path / "a.toml"), "--force", stdin="1\n" * 50)
    assert done.returncode == 1
    assert one_line(done.stderr) == f"fly-rules: cannot write {tmp_path / 'a.toml'}: it is a loop of symbolic links"


def test_rec_1_1_a_dangling_link_names_the_missing_folder_it_points_into(tmp_path: Path) -> None:
    """REC-1.1: a link into a folder that does not exist names that folder (not the link's, which exists)."""
    link = tmp_path / "game.toml"
    link.symlink_to(tmp_path / "gone" / "game.toml")
    done = run(*PLAY, "--save", str(link), stdin="1\n" * 50)
    assert done.returncode == 1
    assert one_line(done.stderr) == (
        f"fly-rules: cannot write {link}: there is no folder {tmp_path / 'gone'} "
        f"(the link {link} points to {tmp_path / 'gone' / 'game.toml'})"
    )


def _saved_game(path: Path) -> str:
    """A game of a few moves saved to ``path`` by quitting, its text."""
    done = run(*PLAY, "--save", str(path), stdin="1\n" * 3 + "quit\n")
    assert done.returncode == 0, done.stderr
    return path.read_text(encoding="utf-8")


def test_rec_1_1_a_hard_link_is_neither_resumed_nor_replaced_and_is_not_split(tmp_path: Path) -> None:
    """REC-1.1: a game with a second hard link is refused, whichever name is given, even with --force:
    a save writes a new file in its place, which would split the two names; both keep the game."""
    text = _saved_game(tmp_path / "a.toml")
    os.link(tmp_path / "a.toml", tmp_path / "b.toml")
    for args in (("--resume", "b.toml"), ("--save", "a.toml", "--force")):
        done = run(*PLAY[:-4], *(str(tmp_path / a) if a.endswith(".toml") else a for a in args), stdin="quit\n")
        assert done.returncode == 1
        name = tmp_path / args[1]
        assert one_line(done.stderr) == (
            f"fly-rules: cannot use {name}: it has 2 hard links, and a save would split them; copy it and use the copy"
        )
    assert (tmp_path / "a.toml").read_text(encoding="utf-8") == (tmp_path / "b.toml").read_text(encoding="utf-8")
    assert (tmp_path / "a.toml").read_text(encoding="utf-8") == text
    assert os.stat(tmp_path / "a.toml").st_ino == os.stat(tmp_path / "b.toml").st_ino


def test_rec_1_1_a_second_name_made_while_a_game_is_played_is_locked_out(tmp_path: Path) -> None:
    """REC-1.1: the lock is on the file itself, not on its name: while one process plays ``--resume a.toml``,
    a hard link made to it is refused to a second process at once, and the first one's game is saved whole."""
    _saved_game(tmp_path / "a.toml")
    first = subprocess.Popen(
        [sys.executable, "-m", "fly_rules", "play", "--resume", str(tmp_path / "a.toml")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        # The link is made once the first has checked its file and waits at its prompt (not when its lock
        # file appears: it checks the file's links after that, and would refuse a link made in between).
        shown, deadline = b"", time.monotonic() + 60
        assert first.stdout is not None
        while b"your choice>" not in shown and time.monotonic() < deadline:
            if select.select([first.stdout], [], [], 1)[0]:
                chunk = os.read(first.stdout.fileno(), 4096)
                if not chunk:
                    break
                shown += chunk
        assert b"your choice>" in shown, shown
        os.link(tmp_path / "a.toml", tmp_path / "b.toml")
        second = run("play", "--resume", str(tmp_path / "b.toml"), stdin="quit\n")
        assert second.returncode == 1
        assert "hard links" in one_line(second.stderr)
    finally:
        _, err = first.communicate(b"quit\n", timeout=120)
    assert first.returncode == 0, err
    assert not load_history((tmp_path / "a.toml").read_text(encoding="utf-8"), resumable=True).is_over


def test_rec_1_1_resume_from_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """REC-1.1: ``--resume FIFO`` is refused in one line at once (it used to wait for a writer for ever, holding
    the lock), with the FIFO the file to save to or not."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for more in ((), ("--save", str(tmp_path / "new.toml"))):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "fly_rules", "play", "--resume", str(fifo), *more],
            input="quit\n",
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert time.monotonic() - started < 30
        assert done.returncode == 1
        verb = "use" if not more else "read"
        assert one_line(done.stderr) == (
            f"fly-rules: cannot {verb} {fifo}: it is not a regular file, and only those are resumed or replaced"
        )
    assert not (tmp_path / "new.toml").exists()


def test_rec_1_1_replay_and_analyse_of_a_fifo_are_refused_at_once(tmp_path: Path) -> None:
    """REC-1.1: ``replay FIFO`` and ``analyse FIFO`` are refused in one line at once (they waited for a writer)."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for command in ("replay", "analyse"):
        started = time.monotonic()
        done = run(command, str(fifo))
        assert time.monotonic() - started < 30
        assert done.returncode == 1
        assert one_line(done.stderr) == (
            f"fly-rules: cannot read {fifo}: it is not a regular file, and only those are read"
        )


def test_ctrl_c_is_answered_before_the_package_reads_any_module() -> None:
    """The program's own Ctrl-C handler is in place before the package reads any module from disk (reading
    ``fly_rules._startup`` was the window in which Ctrl-C still gave a traceback): an import hook sees it in
    place at the package's first import, and the package imports nothing before it (not even ``__future__``)."""
    script = (
        "import _signal, sys\n"
        "sys.orig_argv = [sys.executable, '-m', 'fly_rules']\n"
        "seen = []\n"
        "class Watch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name != 'fly_rules' and not seen:\n"
        "            seen.append((name, _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler))\n"
        "        return None\n"
        "sys.meta_path.insert(0, Watch())\n"
        "import fly_rules\n"
        "print(seen[0][0], 'default' if seen[0][1] else 'ours')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["fly_rules.actions", "ours"]


def test_ctrl_c_in_the_first_tenth_of_a_second_never_escapes_from_the_package() -> None:
    """Ctrl-C sent to ``fly-rules play`` at random moments of its first 0.1 s ends it with one line and exit code
    130, or stops Python before the package began (killed by the signal, or Python's own start-up traceback, in
    which no frame is the package's), never with a traceback from the package's code; sent once it waits for
    a move, it is always the one line and 130."""
    if not shutil.which(str(FLY_RULES)):
        raise AssertionError(f"the test runs the installed command: {FLY_RULES} is missing")
    package = (ROOT / "__init__.py").read_text(encoding="utf-8").splitlines()
    first_line = next(i for i, line in enumerate(package, 1) if line.startswith("_answer_ctrl_c()"))
    rng = random.Random(31)
    quiet = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE")}  # a user's start
    for delay in [rng.uniform(0, 0.1) for _ in range(30)] + [3.0, 4.0]:
        process = subprocess.Popen(
            [str(FLY_RULES), "play", "--players", "3", "--seed", "1"],
            stdin=subprocess.PIPE,  # kept open: play waits at its first prompt
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=quiet,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
        text = err.decode("utf-8", "replace")
        frames = re.findall(r'File "([^"]*)", line (\d+)', text)
        ours = [(Path(name), int(line)) for name, line in frames if Path(name).parent == ROOT]
        assert all(name == ROOT / "__init__.py" and line <= first_line for name, line in ours), text  # before it
        if delay > 1:  # by then the program waits for a move, whatever the machine's load
            assert (process.returncode, text.strip()) == (130, "fly-rules: interrupted"), text
