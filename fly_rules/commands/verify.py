"""``fly-rules verify``: check a table's finished match: the seed its history records is the one the table
committed to before the first deal, and the history replays [TBL-2.4].

The commitment is the SHA-256 digest of ``SEED:NONCE`` (the seed in decimal), published when the match was
made; the nonce is revealed when it ends [TBL-2.2] [TBL-2.3]. The seed fixes every deal, so a history that
replays from the committed seed was dealt as the shuffle promised.
"""

from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path
from typing import Final, TextIO

from fly_rules.commands.common import CommandError, outcome
from fly_rules.commands.files import read
from fly_rules.engine import MatchBase
from fly_rules.errors import FlyRulesError
from fly_rules.notation.games import game_of
from fly_rules.notation.history import load_history

__all__ = ["add", "check", "run"]

_DIGEST: Final = re.compile(r"[0-9a-fA-F]{64}")


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``verify`` to the ``fly-rules`` parser's subparsers ``sub``."""
    verify = sub.add_parser(
        "verify", help="check a table's finished match: the shuffle was the one committed to, the history replays"
    )
    verify.add_argument("history", type=Path, help="the match's history (TOML), as the table server gives it")
    verify.add_argument(
        "--commitment",
        required=True,
        metavar="HEX",
        help="the commitment the table published when the match began (64 hex digits)",
    )
    verify.add_argument("--nonce", required=True, help="the nonce the table revealed when the match ended")
    verify.set_defaults(run=run)


def check(text: str, commitment: str, nonce: str, name: str) -> str:
    """Check the history ``text`` (called ``name`` in messages) against ``commitment`` and ``nonce``
    [TBL-2.4]; answer a line saying what checked out.

    Raises:
        CommandError: the commitment is not a SHA-256 hex digest, the history does not replay or records no
            seed, or SHA-256 of ``SEED:NONCE`` is not the commitment.
    """
    if not _DIGEST.fullmatch(commitment):
        shown = commitment if len(commitment) <= 20 else commitment[:20] + "…"
        raise CommandError(f"--commitment must be the 64 hex digits of a SHA-256 digest, not {shown!r}")
    try:
        final = load_history(text)
    except FlyRulesError as error:
        raise CommandError(f"{name} does not replay [TBL-2.4]: {error}") from None
    if not isinstance(final, MatchBase):
        raise CommandError(f"{name} records an explicit deal, not a match from a seed: it has no shuffle to check")
    digest = hashlib.sha256(f"{final.seed}:{nonce}".encode()).hexdigest()
    if digest != commitment.lower():
        raise CommandError(
            f"{name} does not check out [TBL-2.4]: SHA-256 of 'SEED:NONCE' (its seed {final.seed}, nonce {nonce!r}) "
            f"is {digest}, not the commitment {commitment.lower()}: the seed or the nonce is not the one committed to"
        )
    return (
        f"ok: {name} checks out [TBL-2.4]: SHA-256 of its seed and the nonce is the commitment, "
        f"and it replays from that seed ({game_of(final)}, {outcome(final)})"
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Check ``args.history`` against ``--commitment`` and ``--nonce``: 0 when it checks out, else a
    :class:`CommandError` saying what does not (exit code 1)."""
    print(check(read(args.history), args.commitment, args.nonce, str(args.history)), file=out)
    return 0
