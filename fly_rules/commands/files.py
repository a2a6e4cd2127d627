"""Reading and writing the commands' files: a file checked before any work is done, locked against a
second writer, and written atomically with the stopping signals held back, so that it always holds a
whole old or new text."""

from __future__ import annotations

import contextlib
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


def _check_place(path: Path) -> Path:
    """The target of ``path``, if a file can be made there: not a directory, in a folder that exists."""
    target = target_of(path)
    if target.is_dir():
        raise CommandError(f"cannot write {path}: it is a directory")
    if not target.parent.is_dir():
        raise CommandError(f"cannot write {path}: there is no folder {path.parent}")
    return target


def _check_regular(path: Path, target: Path) -> None:
    """Only a regular file is ever replaced: not a FIFO, a device or a socket, even with ``--force``."""
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(target.stat().st_mode):
            raise CommandError(f"cannot write {path}: it is not a regular file, and only those are replaced")


def check_target(path: Path, *, force: bool) -> None:
    """Refuse, before any work is done, a file that cannot be written, that is not a regular file, or
    that exists unless ``force``."""
    target = _check_place(path)
    _check_regular(path, target)
    if target.exists() and not force:
        raise CommandError(f"{path} exists: pass --force to overwrite it, or --resume {path} to continue its game")
    try:  # the very step every save takes, so that a read-only folder is found now
        handle, probe = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise CommandError(f"cannot write in {target.parent}: {error.strerror}") from None
    os.close(handle)
    os.unlink(probe)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an advisory lock on ``path`` (``flock`` on a file ``.NAME.lock`` beside its target, which
    names this process) for the block, and clean up the temporary files a killed writer left.

    Raises:
        CommandError: if another process holds the lock, naming it, or no lock file can be made.
    """
    target = _check_place(path)
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
            break
        os.close(handle)  # its last holder removed it between our open and our lock: take the new one
    try:
        os.ftruncate(handle, 0)
        os.write(handle, f"{os.getpid()}\n".encode("ascii"))
        _clean_stale(target)
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)  # removed while still held, so that the next writer finds a file of its own
        os.close(handle)


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
    _check_regular(path, target)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
    with interrupts_held():
        try:
            handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temp, mode)
            os.replace(temp, target)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise CommandError(f"cannot write {path}: {error.strerror}; the old file is unchanged") from None
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


def read(path: Path) -> str:
    """The text of ``path``.

    Raises:
        CommandError: if it cannot be read, or is not UTF-8.
    """
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {path}: {error}") from None
