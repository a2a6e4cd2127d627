"""Fuzz every text reader, the constructors and apply at scale: mutated cards, card lists, actions,
positions and histories from real play, and calls with odd values (:data:`tests.notation.fuzz.CALLS`:
a reader given a non-text value, a rules object an odd option value, a match an odd seed or dealer, a
view an odd seat, apply an odd or mutated action), counting what is accepted, what is refused with
the library's errors (or new_match's documented TypeError for a seed of the wrong type), and anything else.

Usage::

    nice python benchmarks/fuzz_inputs.py [--count 100000] [--seed 0] [--matches 24]

The inputs and mutations are those of ``tests/notation/fuzz.py`` (the suite runs a few hundred of
them through Hypothesis). Prints a table by reader, then each exception that was not the library's,
with its first input; exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests.notation.fuzz

from tests.notation.fuzz import CALLS, READERS, call, corpus, mutate, read


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer; returns 1 if any input raised something other than a library error."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs to try (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the corpus and the mutations (default 0)")
    parser.add_argument("--matches", type=int, default=24, help="matches played for the corpus (default 24)")
    args = parser.parse_args(argv)
    started = time.process_time()
    inputs = corpus(seed=args.seed, matches=args.matches)
    rng = random.Random(args.seed)
    kinds = sorted(READERS) + [f"call:{kind}" for kind in CALLS]
    tried: collections.Counter[str] = collections.Counter()
    accepted: collections.Counter[str] = collections.Counter()
    refused: collections.Counter[str] = collections.Counter()
    escaped: collections.Counter[tuple[str, str]] = collections.Counter()
    first: dict[tuple[str, str], tuple[str, str]] = {}
    for _ in range(args.count):
        kind = rng.choice(kinds)
        tried[kind] += 1
        text = "" if kind.startswith("call:") else mutate(rng.choice(inputs[kind]), rng, inputs[kind])
        try:
            error = (
                _call(kind.removeprefix("call:"), rng, inputs["action"])
                if kind.startswith("call:")
                else read(kind, text)
            )
        except Exception as escape:  # counting exactly these is the point
            key = (kind, type(escape).__name__)
            escaped[key] += 1
            first.setdefault(key, (text, traceback.format_exc(limit=-3)))
            continue
        (accepted if error is None else refused)[kind] += 1
    seconds = time.process_time() - started
    print(f"{'reader':<14}{'inputs':>10}{'accepted':>10}{'refused':>10}{'other':>8}")
    for kind in kinds:
        other = sum(n for (k, _), n in escaped.items() if k == kind)
        print(f"{kind:<14}{tried[kind]:>10}{accepted[kind]:>10}{refused[kind]:>10}{other:>8}")
    total_escaped = sum(escaped.values())
    print(
        f"{'total':<14}{sum(tried.values()):>10}{sum(accepted.values()):>10}{sum(refused.values()):>10}"
        f"{total_escaped:>8}"
    )
    print(f"corpus: {sum(map(len, inputs.values()))} valid inputs from {args.matches} matches; {seconds:.1f} s CPU")
    print(f"non-library exceptions: {total_escaped}")
    for (kind, name), count in escaped.most_common():
        text, where = first[(kind, name)]
        print(f"\n{count} x {name} from the {kind} reader; first input: {text[:200]!r}\n{where}")
    return 1 if total_escaped else 0


def _call(kind: str, rng: random.Random, actions: list[str]) -> object:
    """One call of ``kind``; a TypeError other than new_match's documented one for a seed is raised again."""
    refusal = call(kind, rng, actions)
    if isinstance(refusal, TypeError) and not (kind == "match" and str(refusal).startswith("a seed must be")):
        raise refusal
    return refusal


if __name__ == "__main__":
    sys.exit(main())
