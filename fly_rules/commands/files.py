"""Reading and writing the commands' files: a file checked before any work is done, and written
atomically with Ctrl-C held back, so that it always holds a whole old or new text."""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from fly_rules.commands.common import CommandError

__all__ = ["STOPS", "check_target", "interrupts_held", "read", "write_atomically"]


def check_target(path: Path, *, force: bool) -> None:
    """Refuse, before any work is done, a file that cannot be written, or that exists unless ``force``."""
    if path.is_dir():
        raise CommandError(f"cannot write {path}: it is a directory")
    folder = path.parent
    if not folder.is_dir():
        raise CommandError(f"cannot write {path}: there is no folder {folder}")
    if path.exists() and not force:
        raise CommandError(f"{path} exists: pass --force to overwrite it, or --resume {path} to continue its game")
    try:  # the very step every save takes, so that a read-only folder is found now
        handle, probe = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise CommandError(f"cannot write in {folder}: {error.strerror}") from None
    os.close(handle)
    os.unlink(probe)


STOPS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command and that a save holds back: Ctrl-C, ``kill``, the terminal closing."""


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
    """Replace ``path`` by ``text`` so that it holds the old text or the new, never a part of either:
    a temporary file in the same folder is written, flushed to disk (fsync) and renamed over it.

    Raises:
        CommandError: if the folder cannot be written (a full disk, a read-only folder); the old
            file is then left as it was.
    """
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
    with interrupts_held():
        try:
            handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temp, mode)
            os.replace(temp, path)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise CommandError(f"cannot write {path}: {error.strerror}; the old file is unchanged") from None


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
