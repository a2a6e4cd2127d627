"""Reading and writing the commands' files: a file checked before any work is done, locked against a
second writer, and written atomically with the stopping signals held back, so that it always holds a
whole old or new text.

Only a regular file with one name is ever resumed or replaced: not a FIFO, a device, a socket, a loop of
symbolic links, nor a file with other hard links (a save writes a new file in its place, which would split
them). The lock is held on the file itself (its device and inode), whatever name reaches it, and on a lock
file beside it for a file not yet written."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import signal
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from fly_rules.commands.common import CommandError

__all__ = ["STOPS", "check_target", "interrupts_held", "locked", "read", "target_of", "write_atomically"]

STOPS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command and that a save holds back: Ctrl-C, ``kill``, the terminal closing."""


def target_of(path: Path) -> Path:
    """The file a write to ``path`` changes: a symbolic link is followed to its target (which is
    written; the link stays a link)."""
    return Path(os.path.realpath(path))


def _status(path: Path, verb: str = "write") -> os.stat_result | None:
    """``os.stat`` of ``path`` (links followed), None if there is no such file.

    Raises:
        CommandError: a loop of symbolic links, or any other reason the file cannot be looked at.
    """
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        why = "it is a loop of symbolic links" if error.errno == errno.ELOOP else error.strerror
        raise CommandError(f"cannot {verb} {path}: {why}") from None


def _check_place(path: Path) -> Path:
    """The target of ``path``, if a file can be made there: not a directory, in a folder that exists."""
    found = _status(path)
    target = target_of(path)
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise CommandError(f"cannot write {path}: it is a directory")
    if not target.parent.is_dir():
        linked = f" (the link {path} points to {target})" if target != Path(os.path.abspath(path)) else ""
        raise CommandError(f"cannot write {path}: there is no folder {target.parent}{linked}")
    return target


def _check_regular(
    path: Path,
    found: os.stat_result | None,
    verb: str = "write",
    *,
    one_name: bool = True,
    done: str = "resumed or replaced",
) -> None:
    """Only a regular file with one name is ever resumed or replaced: not a FIFO, a device or a socket,
    nor a file with other hard links (which a save would split from it), even with ``--force``. ``done`` says
    what is done only to regular files, in the message."""
    if found is None:
        return
    if not stat.S_ISREG(found.st_mode):
        raise CommandError(f"cannot {verb} {path}: it is not a regular file, and only those are {done}")
    if one_name and found.st_nlink > 1:
        raise CommandError(
            f"cannot {verb} {path}: it has {found.st_nlink} hard links, and a save would split them; "
            "copy it and use the copy"
        )


def check_target(path: Path, *, force: bool) -> None:
    """Refuse, before any work is done, a file that cannot be written, that is not a regular file, or
    that exists unless ``force``."""
    target = _check_place(path)
    found = _status(path)
    _check_regular(path, found)
    if found is not None and not force:
        raise CommandError(f"{path} exists: pass --force to overwrite it, or --resume {path} to continue its game")
    try:  # the very step every save takes, so that a read-only folder is found now
        handle, probe = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise CommandError(f"cannot write in {target.parent}: {error.strerror}") from None
    os.close(handle)
    os.unlink(probe)


_HELD: dict[Path, int] = {}
"""For each file this process has locked, the descriptor that holds the lock on the file itself (its
inode); :func:`write_atomically` moves it to each new file it renames into place."""


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an advisory lock on ``path`` for the block: ``flock`` on the file itself (keyed by its device
    and inode, so that a second name for it is locked too) and on a file ``.NAME.lock`` beside it (which
    names this process, and locks a file not yet written); clean up the temporary files a killed writer
    left.

    Raises:
        CommandError: if another process holds the lock, naming it when it can; if the file is not a
            regular file with one name; or if no lock file can be made or written (a full disk).
    """
    target = _check_place(path)
    handle = _lock_beside(path, target)
    try:
        try:
            os.ftruncate(handle, 0)
            os.write(handle, f"{os.getpid()}\n".encode("ascii"))
        except OSError as error:
            raise CommandError(f"cannot lock {path}: {error.strerror}") from None
        _HELD[target] = _lock_itself(path, target)
        _clean_stale(target)
        yield
    finally:
        held = _HELD.pop(target, -1)
        if held >= 0:
            os.close(held)
        with contextlib.suppress(OSError):
            os.unlink(target.parent / f".{target.name}.lock")  # removed while still held: the next writer makes its own
        os.close(handle)


def _lock_itself(path: Path, target: Path) -> int:
    """A descriptor holding ``flock`` on the file ``target`` itself, or -1 when there is no file yet."""
    try:
        handle = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO must not block the open
    except FileNotFoundError:
        return -1
    except OSError as error:
        raise CommandError(f"cannot lock {path}: {error.strerror}") from None
    try:
        _check_regular(path, os.fstat(handle), "use")
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except CommandError:
        os.close(handle)
        raise
    except OSError:
        os.close(handle)
        raise CommandError(
            f"{path} is in use by another fly-rules (under another name); let it end first, or save elsewhere"
        ) from None
    return handle


def _lock_beside(path: Path, target: Path) -> int:
    """A descriptor holding ``flock`` on the lock file ``.NAME.lock`` beside ``target``."""
    lock = target.parent / f".{target.name}.lock"
    while True:
        try:
            handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise CommandError(f"cannot lock {path}: {error.strerror}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(handle, 40, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(handle)
            raise CommandError(
                f"{path} is in use by another fly-rules (process {holder}); let it end first, or save elsewhere"
            ) from None
        if _same_file(handle, lock):
            return handle
        os.close(handle)  # its last holder removed it between our open and our lock: take the new one


def _same_file(handle: int, path: Path) -> bool:
    try:
        now = path.stat()
    except FileNotFoundError:
        return False
    held = os.fstat(handle)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def _clean_stale(target: Path) -> None:
    """Remove the temporary files of ``target`` that a killed writer left: under the lock, none is live."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    for entry in os.scandir(target.parent):
        if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP until the block is done; they are delivered as soon as it ends."""
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOPS))
    except ValueError:  # pragma: no cover - not the main interpreter (no signals to hold)
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` (a symbolic link's target) by ``text`` so that it holds the old text or the new,
    never a part of either: a temporary file in the same folder is written, flushed to disk (fsync) and
    renamed over it, and the folder is flushed so that the rename itself survives a crash.

    Raises:
        CommandError: if the folder cannot be written (a full disk, a read-only folder), or ``path``
            is not a regular file; the old file is then left as it was.
    """
    target = target_of(path)
    found = _status(path)
    _check_regular(path, found, one_name=False)  # checked at the start; a link made since is not worth a lost save
    mode = found.st_mode & 0o777 if found is not None else 0o666 & ~_umask()
    with interrupts_held():
        try:
            handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
        held = target in _HELD
        try:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(handle, data) :]
            os.fsync(handle)
            os.chmod(temp, mode)
            if held:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the new file is locked before it has a name
            os.replace(temp, target)
        except OSError as error:
            os.close(handle)
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise CommandError(f"cannot write {path}: {error.strerror}; the old file is unchanged") from None
        if held:
            old, _HELD[target] = _HELD[target], handle
            if old >= 0:
                os.close(old)
        else:
            os.close(handle)
        _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Flush ``folder`` (its entry for the renamed file) to disk; a file system that cannot is let be."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read(path: Path, *, regular_only: bool = False, done: str = "resumed or replaced") -> str:
    """The text of ``path``; with ``regular_only``, only of a regular file (a game to resume, a history to replay
    or analyse), so that a FIFO or a device is refused at once rather than waited on; ``done`` says, in the
    refusal, what is done only to regular files.

    Raises:
        CommandError: if it cannot be read, is not UTF-8, or (``regular_only``) is not a regular file.
    """
    try:
        if regular_only:
            _check_regular(path, _status(path, "read"), "read", one_name=False, done=done)
            handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # replaced since by a FIFO: no wait
            with os.fdopen(handle, "rb") as stream:
                _check_regular(path, os.fstat(handle), "read", one_name=False, done=done)
                return stream.read().decode("utf-8")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {path}: {error}") from None
