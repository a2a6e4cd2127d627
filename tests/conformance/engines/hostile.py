"""A hostile engine: it answers as ``fly-rules engine`` does for its hello and its first ``AFTER`` requests
(default 0), then misbehaves in the way ``MODE`` names, to show that ``fly-rules conform`` ends each time,
within its timeout, with a one-line reason, exit code 3 and a summary.

    python hostile.py MODE [AFTER]

MODE: ``hang`` (reads on, never answers), ``noflush`` (answers without flushing), ``garbage`` (a line that
is not JSON), ``latin1`` (bytes that are not UTF-8), ``nested`` (JSON 200,000 deep), ``digits`` (a number
of 5,000 digits), ``bigline`` (a line of 100 MB, written until the runner stops it), ``nonewline`` (output
without line ends, written until stopped), ``die`` (exits with code 7), ``deaf`` (answers everything but
ignores quit and the end of its input), ``array`` (a JSON array, not an object), ``silent`` (never says
hello), ``surrogate`` (a hello whose engine name is a lone surrogate, ``"\\ud800"``, which no output can encode).
"""

from __future__ import annotations

import json
import sys
import time

HELLO = b'{"engine": "hostile", "protocol": 2, "games": ["fly", "dreyfus"]}\n'
CHUNK = b"x" * (1 << 16)
HELD = open(sys.stdout.fileno(), "wb", buffering=1 << 16, closefd=False)  # noqa: SIM115 - never flushed, on purpose
"""A buffer of its own over standard output, so that what ``noflush`` writes stays there even under
PYTHONUNBUFFERED."""


def misbehave(mode: str) -> None:
    """Do what ``mode`` names for one request."""
    write = sys.stdout.buffer.write
    if mode == "hang":
        time.sleep(3600)
    elif mode == "noflush":
        HELD.write(b'{"legal": []}\n')  # left in the buffer, as a program that forgets to flush leaves it
    elif mode == "garbage":
        write(b"<html>garbage</html>\n")
    elif mode == "latin1":
        write(b'{"error": "caf\xe9"}\n')
    elif mode == "nested":
        write(b"[" * 200_000 + b"]" * 200_000 + b"\n")
    elif mode == "digits":
        write(b'{"upper": ' + b"7" * 5000 + b"}\n")
    elif mode == "array":
        write(b"[1, 2, 3]\n")
    elif mode in ("bigline", "nonewline"):
        if mode == "bigline":
            write(b'{"legal": ["')
        for _ in range(100 * 16):  # 100 MB, unless the runner stops it first
            write(CHUNK)
        write(b'"]}\n' if mode == "bigline" else b"")
    elif mode == "die":
        sys.exit(7)
    if mode not in ("noflush",):
        sys.stdout.buffer.flush()


def main() -> None:
    """Answer the protocol, misbehaving as the arguments say."""
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "silent":
        time.sleep(3600)
    answered = 0
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if request.get("cmd") == "quit" and mode != "deaf":
            return
        if request.get("cmd") == "quit":
            continue
        if request.get("cmd") == "hello":
            sys.stdout.buffer.write(HELLO.replace(b'"hostile"', b'"\\ud800 engine"') if mode == "surrogate" else HELLO)
        elif answered >= after and mode != "deaf":
            misbehave(mode)
            continue
        else:
            from fly_rules.conformance.server import reply

            answered += 1
            sys.stdout.buffer.write((json.dumps(reply(line)) + "\n").encode())
        sys.stdout.buffer.flush()
    if mode == "deaf":
        time.sleep(3600)


if __name__ == "__main__":
    try:
        main()
    except OSError:  # the runner stopped listening (BrokenPipeError): an engine goes quietly
        sys.exit(1)
