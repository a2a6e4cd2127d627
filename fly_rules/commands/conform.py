"""``fly-rules conform --engine COMMAND``: the conformance kit's vectors and perft counts against any
program that speaks its line protocol (``specs/conformance/README.md``).

Exit codes: 0 conformant (everything run agrees), 1 not conformant (something differs), 2 a command
line it cannot use, 3 the engine or the run failed (it could not start, a fault, cases not run)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TextIO

from fly_rules.commands.common import seconds_argument, whole_number_argument
from fly_rules.conformance import report
from fly_rules.conformance.answers import GAMES, KINDS
from fly_rules.conformance.process import ANSWER_BYTES, EngineError, argv_of
from fly_rules.conformance.runner import EXIT_USAGE, Settings, conform
from fly_rules.conformance.vectors import load_cases, load_perft
from fly_rules.spec import RULE_ID, load_rules

__all__ = ["add", "known_failures", "run"]

_DEFAULTS = Settings()


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``conform`` to the ``fly-rules`` parser's subparsers ``sub``."""
    parser = sub.add_parser(
        "conform",
        help="check an engine against the conformance vectors and perft",
        description="Run the conformance kit against the engine COMMAND starts (it speaks the kit's JSON line "
        "protocol on stdin and stdout). Exit codes: 0 conformant, 1 not conformant, 2 usage, 3 engine or "
        "run failure.",
    )
    parser.add_argument("--engine", required=True, help='the command that starts the engine, e.g. "fly-rules engine"')
    select = parser.add_argument_group("what to run (the engine's hello says what it implements; the rest is skipped)")
    select.add_argument(
        "--kinds", default=",".join(KINDS), help=f"kinds of case, comma separated (default all: {','.join(KINDS)})"
    )
    select.add_argument("--game", default=",".join(GAMES), help=f"games, comma separated (default {','.join(GAMES)})")
    select.add_argument("--id", metavar="REGEX", help="only the cases and perft positions (perft:ID) whose id matches")
    select.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="ID",
        help="only what covers this rule or section (FLY-7.2, FLY-7); repeatable",
    )
    select.add_argument(
        "--perft-nodes",
        type=whole_number_argument,
        default=_DEFAULTS.perft_nodes,
        help=f"check the perft depths of at most this many sequences; 0: no perft (default {_DEFAULTS.perft_nodes})",
    )
    select.add_argument(
        "--walk-nodes",
        type=whole_number_argument,
        default=_DEFAULTS.walk_nodes,
        help="for an engine without perft, count the depths of at most this many sequences through its legal "
        f"and apply answers (default {_DEFAULTS.walk_nodes})",
    )
    select.add_argument(
        "--known-failures", metavar="FILE", type=Path, help="case ids expected to fail, one a line (# comments)"
    )
    limits = parser.add_argument_group("limits (an engine past one is stopped and started again)")
    limits.add_argument(
        "--timeout",
        type=seconds_argument,
        default=_DEFAULTS.timeout,
        help=f"seconds an answer may take (default {_DEFAULTS.timeout:g})",
    )
    limits.add_argument(
        "--perft-timeout",
        type=seconds_argument,
        default=_DEFAULTS.perft_timeout,
        help=f"seconds a perft or divide answer may take (default {_DEFAULTS.perft_timeout:g})",
    )
    limits.add_argument(
        "--max-answer-bytes",
        type=whole_number_argument,
        default=ANSWER_BYTES,
        help=f"the longest answer line (default {ANSWER_BYTES:,})",
    )
    limits.add_argument(
        "--max-faults",
        type=whole_number_argument,
        default=_DEFAULTS.max_faults,
        help=f"give the engine up after this many failed cases in a row (default {_DEFAULTS.max_faults})",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--report",
        nargs=2,
        action="append",
        default=[],
        metavar=("FORMAT", "FILE"),
        help=f"also write the results as {' or '.join(report.FORMATS)} to FILE; repeatable",
    )
    output.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.set_defaults(run=run)


class _Usage(ValueError):
    """A command line the runner cannot use (exit code 2)."""


def _listed(text: str, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = sorted(set(names) - set(known))
    if unknown or not names:
        raise _Usage(f"--{what}: {', '.join(unknown) or 'none given'}; the {what} are {', '.join(known)}")
    return names


def known_failures(path: Path) -> frozenset[str]:
    """The ids a known-failures file lists: one a line, ``#`` starting a comment, blank lines ignored.

    Raises:
        OSError: the file cannot be read.
        UnicodeDecodeError: it is not UTF-8.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.split("#", 1)[0].strip() for line in lines) - {""}


def _settings(args: argparse.Namespace) -> Settings:
    try:
        argv_of(args.engine)
    except EngineError as error:
        raise _Usage(str(error)) from None
    kinds = _listed(args.kinds, KINDS, "kinds")
    games = _listed(args.game, GAMES, "games")
    if args.id is not None:
        try:
            re.compile(args.id)
        except re.error as error:
            raise _Usage(f"--id {args.id!r} is not a regular expression: {error}") from None
    rules = load_rules()
    for rule in args.rule:
        if not RULE_ID.fullmatch(rule) and not re.fullmatch(r"[A-Z]+-\d+", rule):
            raise _Usage(f"--rule {rule!r} is not a rule ID (FLY-7.2) or a section (FLY-7)")
        if not any(known == rule or known.startswith(f"{rule}.") for known in rules):
            raise _Usage(f"--rule {rule}: the specification has no such rule or section")
    for form, _file in args.report:
        if form not in report.FORMATS:
            raise _Usage(f"--report {form!r}: the formats are {', '.join(report.FORMATS)}")
    known: frozenset[str] = frozenset()
    if args.known_failures is not None:
        try:
            known = known_failures(args.known_failures)
        except (OSError, UnicodeDecodeError) as error:
            raise _Usage(f"--known-failures: cannot read {args.known_failures}: {error}") from None
        ids = {case["id"] for case in load_cases()} | {f"perft:{entry['id']}" for entry in load_perft()}
        for name in sorted(known - ids):
            print(f"fly-rules conform: --known-failures lists {name!r}, which the kit does not have", file=sys.stderr)
    if not args.max_answer_bytes or not args.max_faults:
        raise _Usage("--max-answer-bytes and --max-faults must be at least 1")
    return Settings(
        kinds=kinds,
        games=games,
        ids=args.id,
        rules=tuple(args.rule),
        perft_nodes=args.perft_nodes,
        walk_nodes=args.walk_nodes,
        timeout=args.timeout,
        perft_timeout=args.perft_timeout,
        max_answer_bytes=args.max_answer_bytes,
        known_failures=known,
        max_faults=args.max_faults,
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the kit against the engine; the exit code says how it went (0, 1, 2 or 3)."""
    try:
        settings = _settings(args)
    except _Usage as error:
        print(f"fly-rules conform: {error}", file=sys.stderr)
        return EXIT_USAGE
    result = conform(args.engine, out, settings, progress=None if args.quiet else sys.stderr)
    if not any(r.status != "skipped" for r in result.results) and not result.problems:
        print("fly-rules conform: no case or perft position matches the filters", file=sys.stderr)
        return EXIT_USAGE
    for form, file in args.report:
        try:
            report.write(result, form, Path(file))
        except OSError as error:
            print(f"fly-rules conform: cannot write the {form} report {file}: {error}", file=sys.stderr)
            return max(result.exit_code, 1)
    return result.exit_code
