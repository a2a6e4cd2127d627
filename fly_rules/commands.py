"""The subcommands of ``fly-rules`` beyond ``demo``: ``play``, ``simulate``, ``replay``, ``show``
and ``rules`` (see the command-line reference in the documentation).

Each command writes its output to the stream it is given and returns the exit code: 0 done,
1 invalid input (a one-line message on standard error, printed by :func:`fly_rules.cli.main`).
Progress bars and tables use the ``rich`` package and histories are written with ``tomli-w``,
both from the ``cli`` extra; they are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import textwrap
import tomllib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from fly_rules import registry, svg
from fly_rules._numbers import MAX_DIGITS, is_whole_number
from fly_rules.actions import Play
from fly_rules.bots import BOTS, Tally, make_bot, run_matches
from fly_rules.cards import Card
from fly_rules.errors import FlyRulesError, InvalidNotation, RuleViolation
from fly_rules.narration import narrate
from fly_rules.notation.games import action_text, deal_of, game_of, make_rules, new_deal, new_game, parse_action
from fly_rules.notation.history import dump_history, load_history
from fly_rules.notation.position import parse_position
from fly_rules.spec import Rule, find_spec_dir, load_rules, test_citations

__all__ = ["CommandError", "bot_names", "register", "whole_number_argument", "write_atomically"]


class CommandError(FlyRulesError):
    """Input a command cannot use: a missing file, an unknown bot, input that ran out."""


class _InputEnded(CommandError):
    """Standard input ran out while ``play`` was waiting for a move."""


def whole_number_argument(text: str) -> int:
    """An ``argparse`` type: a whole number in the ASCII digits 0-9 (``-`` first allowed), at most
    100 digits [REC-1.5]; ``int`` would take ``٣`` for 3 and fail on ``²`` or 5,000 digits."""
    if not is_whole_number(text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number in the digits 0-9 (at most {MAX_DIGITS})")
    return int(text)


def presets_help() -> str:
    """The help of ``--preset``: every game's presets by name, so that ``--help`` lists them."""
    games = "; ".join(f"{game.title}: {', '.join(game.presets)}" for game in map(registry.get, registry.games()))
    return f"rules preset ({games}; default 'default')"


def game_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--game``: one of the registered games."""
    parser.add_argument("--game", choices=registry.games(), default="fly", help="which game (default fly)")


def _game_options(parser: argparse.ArgumentParser) -> None:
    game_argument(parser)
    parser.add_argument(
        "--players", type=whole_number_argument, default=None, help="Fly: 3 to 7 players (default 4); Dreyfus: 3"
    )
    parser.add_argument("--preset", default="default", help=presets_help())
    parser.add_argument("--seed", default="1", help="seed of the shuffles and the bots (default 1)")
    parser.add_argument(
        "--max-deals",
        type=whole_number_argument,
        default=100,
        help="stop a match after this many deals (default 100)",
    )


def _seed(text: str) -> int | str:
    """A seed: a whole number in ASCII digits, else the text itself; either at most 100 characters
    [REC-1.5]. Text that only looks like a number (``²``, ``٣``) is refused rather than read two ways."""
    if is_whole_number(text):
        return int(text)
    if len(text) > MAX_DIGITS:
        raise CommandError(f"--seed has {len(text)} characters; at most {MAX_DIGITS}")
    if any(char.isdigit() for char in text) and not text.isascii():
        raise CommandError(f"--seed {text!r}: write numbers with the digits 0-9")
    return text


def _seat(text: str, players: int) -> int:
    """The seat ``--seat`` names: ASCII digits only [REC-1.5], and a seat at the table; refused with one
    line and exit 1 like every other bad value (argparse's type errors would exit 2 with its usage text)."""
    if not is_whole_number(text) or not 0 <= int(text) < players:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CommandError(f"--seat must be a seat 0 to {players - 1} in the digits 0-9, not {shown!r}")
    return int(text)


def _rules(args: argparse.Namespace) -> Any:
    return make_rules(args.game, players=args.players, preset=args.preset, max_deals=args.max_deals)


def _players(rules: Any) -> int:
    return int(rules.players)


def bot_names(text: str, seats: int) -> list[str]:
    """The bot of each of ``seats`` seats, from ``--bots``: names separated by commas, the last repeating.

    Raises:
        CommandError: for an unknown bot, no bot at all, or more bots than seats.
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in BOTS:
            raise CommandError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    if not names or len(names) > seats:
        raise CommandError(f"--bots names {len(names)} bots for {seats} seats: give 1 to {seats}, the last repeats")
    return names + [names[-1]] * (seats - len(names))


def _bots_help(whose: str) -> str:
    return f"{whose}, comma-separated, the last repeating: {', '.join(BOTS)}"


def register(sub: Any) -> None:
    """Add the subcommands to the ``fly-rules`` parser's subparsers ``sub``."""
    play = sub.add_parser("play", help="play a match in the terminal against bots")
    _game_options(play)
    play.add_argument("--seat", default="0", help="your seat (default 0)")
    play.add_argument(
        "--bots", default="rule-of-thumb", help=_bots_help("the other seats' bots (default rule-of-thumb)")
    )
    play.add_argument(
        "--save",
        type=Path,
        default=None,
        help="keep the game's history in this file, rewritten after every deal and when the game stops",
    )
    play.add_argument("--force", action="store_true", help="let --save overwrite an existing file")
    play.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="FILE",
        help="continue the game saved in FILE (its game, rules and seed; saved back to FILE unless --save)",
    )
    play.set_defaults(run=_cmd_play)

    sim = sub.add_parser("simulate", help="play many matches between bots and tabulate the results")
    _game_options(sim)
    sim.add_argument(
        "--bots", default="rule-of-thumb,random", help=_bots_help("bots by seat (default rule-of-thumb,random)")
    )
    sim.add_argument("-n", "--matches", type=whole_number_argument, default=100, help="number of matches (default 100)")
    sim.add_argument(
        "--workers",
        type=whole_number_argument,
        default=1,
        help="processes to use (default 1); results do not change",
    )
    sim.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine's processes (--workers); ray: Ray tasks on the cluster ray.init() reaches "
        "(extra 'ray'; set RAY_ADDRESS to join one); results do not change",
    )
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    sim.set_defaults(run=_cmd_simulate)

    replay = sub.add_parser("replay", help="narrate a saved game history, or check it")
    replay.add_argument("file", type=Path, help="the history file (TOML)")
    replay.add_argument("--check", action="store_true", help="only check it replays and its results agree")
    replay.set_defaults(run=_cmd_replay)

    show = sub.add_parser("show", help="draw a position given in position notation")
    show.add_argument("position", help="the position, one line (see the notation reference)")
    show.add_argument("--svg", type=Path, default=None, help="also write an SVG picture of the table to this file")
    show.add_argument(
        "--seat",
        default=None,
        help="with --svg: draw the picture as this seat sees it (default: every hand)",
    )
    show.set_defaults(run=_cmd_show)

    rules = sub.add_parser("rules", help="print a rule of the specification, or search the rules")
    rules.add_argument(
        "id", nargs="?", default=None, help="a rule ID such as FLY-7.2, a section (FLY-7) or a file (FLY)"
    )
    rules.add_argument(
        "--search",
        nargs="+",
        default=None,
        metavar="WORD",
        help="the rules, sections and files that mention every word or quoted phrase, in any case, in their text, "
        "sources or decisions (card names find card symbols: 'ace of spades' finds A♠)",
    )
    rules.set_defaults(run=_cmd_rules)


# --- play --------------------------------------------------------------------------------


def _describe(view: Any, seat: int) -> list[str]:
    """What the human player sees: hand, trump, the trick so far, the records."""
    lines = [f"-- deal {view.deal_number + 1}, dealer seat {view.dealer}; you are seat {seat}"]
    lines += registry.game_of(view).words.describe(view)
    trick = "  ".join(f"{s}:{c.symbol}" for s, c in view.trick)
    lines.append(f"   trick so far: {trick or '(none)'}; tricks taken {view.tricks_taken}")
    lines.append(f"   your hand: {' '.join(c.symbol for c in view.hand.sorted())}")
    return lines


_MENU = 40


def _ask(state: Any, read: Any, out: TextIO) -> Any:
    """The human's action: the only legal one without asking; else number the legal actions and read a choice
    (a number or an action's text, in any case) until one is legal, saying which rule refuses the others."""
    legal = state.legal_actions()
    if len(legal) == 1:
        print(f"   your only legal action: {action_text(legal[0])}", file=out)
        return legal[0]
    shown = [legal[i] for i in range(min(len(legal), _MENU))]
    for number, action in enumerate(shown, start=1):
        print(f"   {number:>2}. {action_text(action)}", file=out)
    if len(legal) > _MENU:
        print(f"   … {len(legal) - _MENU} more: type the action, e.g. 'exchange 7C 8D'", file=out)
    while True:
        print("your choice> ", end="", file=out, flush=True)
        line = read()
        if not line:
            raise _InputEnded("input ended before the match did")
        text = line.strip()
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(shown):
            return shown[int(text) - 1]
        try:
            action = parse_action(text.lower())
        except InvalidNotation as error:
            print(f"   not understood: {error.detail}; give a number 1-{len(shown)} or an action", file=out)
            continue
        if action in legal:
            return action
        print(f"   not a legal action now: {text}: {_why_not(state, action)}", file=out)


def _why_not(state: Any, action: Any) -> str:
    """The rule an action breaks, by ID and title, and what is wrong."""
    try:
        state.apply(action)
    except RuleViolation as error:
        rule = load_rules().get(error.rule)
        return f"{error.rule} ({rule.title if rule else 'unknown rule'}): {error.detail}"
    return "it is not among the legal actions"  # pragma: no cover - legal_actions lists every action apply takes


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    start, save = _starting_state(args)
    rules = start.rules
    players = _players(rules)
    args.seat = _seat(args.seat, players)
    others = bot_names(args.bots, players - 1)
    bots = {s: make_bot(others[k], rules) for k, s in enumerate(x for x in range(players) if x != args.seat)}
    taken = len(start.actions)
    rng = random.Random(f"{start.seed}:play" if not taken else f"{start.seed}:play:{taken}")
    latest = [start]  # the last whole state reached: what a stop saves

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        if save is not None and deal_of(state).deal_number != deal_of(latest[0]).deal_number:
            _save_game(save, state)  # a deal has ended
        latest[0] = state
        seat = state.to_move
        view = state.view(seat)
        if seat == args.seat:
            print("\n".join(_describe(view, seat)), file=out)
            action = _ask(state, sys.stdin.readline, out)
        else:
            action = bots[seat].choose(view, legal, rng)
            if isinstance(action, Play):
                print(f"   seat {seat} plays {action.card.symbol}", file=out)
        return action

    resumed = f" (resumed from {args.resume} after {taken} actions)" if args.resume is not None else ""
    print(
        f"{game_of(rules).capitalize()}, {players} players, seed {start.seed}; you are seat {args.seat}{resumed}",
        file=out,
    )
    try:
        state = narrate(start, choose, out, seat=args.seat)
    except _InputEnded as error:
        if save is None:
            raise
        _save_game(save, latest[0])
        raise CommandError(f"{error}; the game so far is saved: fly-rules play --resume {save}") from None
    except KeyboardInterrupt:
        if save is not None:
            _save_game(save, latest[0])
            print(f"\ngame saved to {save}; continue it with: fly-rules play --resume {save}", file=out)
        raise
    if save is not None:
        _save_game(save, state)
        print(f"history saved to {save}", file=out)
    return 0


def _starting_state(args: argparse.Namespace) -> tuple[Any, Path | None]:
    """The match to play (new, or resumed from ``--resume``) and the file to keep it in, checked
    before the first deal rather than after the whole match."""
    if args.resume is not None:
        state = _resumed(args.resume)
        save: Path = args.resume if args.save is None else args.save
        _check_target(save, force=args.force or save == args.resume)
        return state, save
    rules = _rules(args)
    seed = _seed(args.seed)
    if args.save is not None:
        _check_target(args.save, force=args.force)
    return new_game(rules, seed=seed), args.save


def _resumed(path: Path) -> Any:
    """The match saved in ``path``, to be continued: a match from a seed, not over [REC-1.1]."""
    state = load_history(_read(path))
    if deal_of(state) is state:
        raise CommandError(f"{path} records an explicit deal, not a match from a seed: play cannot continue it")
    if state.is_over:
        raise CommandError(f"the match in {path} is over ({_outcome(state)}): nothing to continue")
    return state


def _save_game(path: Path, state: Any) -> None:
    write_atomically(path, dump_history(state))


# --- files -------------------------------------------------------------------------------


def _check_target(path: Path, *, force: bool) -> None:
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


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) until the block is done; it is delivered as soon as it ends."""
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
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
    with _interrupts_held():
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


# --- simulate ----------------------------------------------------------------------------


def _chunks(total: int, parts: int) -> list[range]:
    size = -(-total // parts)
    return [range(start, min(total, start + size)) for start in range(0, total, size)]


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    rules = _rules(args)
    players = _players(rules)
    names = bot_names(args.bots, players)
    if args.matches < 1 or args.workers < 1:
        raise CommandError("--matches and --workers must be at least 1")
    seed = _seed(args.seed)
    max_deals = None  # already in the rules
    tally = Tally(players, tuple(names))
    pieces = _chunks(args.matches, args.workers * 8 if args.workers > 1 else args.matches)
    jobs = [(rules, names, seed, piece, max_deals) for piece in pieces]
    new_game(rules, seed=seed)  # bad settings refused here, before a progress bar is drawn
    progress = None if args.no_progress or args.json else _progress(args.matches)
    try:
        results = _run_jobs(args.backend, args.workers, jobs, progress.advance if progress else None)
    finally:
        if progress:
            progress.stop()
    for result in sorted(results, key=lambda r: r.index):
        tally.add(result)
    summary = tally.summary()
    summary["game"] = args.game
    summary["seed"] = seed
    if args.json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        _print_table(summary, out)
    return 0


def _run_jobs(
    backend: str, workers: int, jobs: list[tuple[Any, ...]], advance: Callable[[int], None] | None
) -> list[Any]:
    """Every job's results, in order: on Ray, on ``workers`` processes, or here."""
    results: list[Any] = []
    if backend == "ray":
        try:
            from fly_rules.adapters.ray import run_chunks  # noqa: PLC0415 - the optional 'ray' extra
        except ImportError as error:
            raise CommandError(str(error)) from None
        for piece_results in run_chunks(run_matches, jobs):
            results += piece_results
        if advance:
            advance(len(results))
    elif workers == 1:
        for job in jobs:
            results += run_matches(*job)
            if advance:
                advance(len(job[3]))
    else:
        pool = multiprocessing.Pool(workers, initializer=_leave_interrupts_to_the_parent)
        try:
            for job, piece_results in zip(jobs, pool.imap(_run_job, jobs), strict=True):
                results += piece_results
                if advance:
                    advance(len(job[3]))
        except BaseException:  # Ctrl-C or an error: stop the workers now, not after their pieces
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
    return results


def _leave_interrupts_to_the_parent() -> None:  # pragma: no cover - runs in the worker processes
    """A worker ignores Ctrl-C: the terminal sends it to the whole group, and the parent stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_job(job: tuple[Any, ...]) -> Any:  # pragma: no cover - runs in the worker processes
    return run_matches(*job)


class _Progress:
    """A rich progress bar on standard error."""

    def __init__(self, total: int) -> None:
        from rich.progress import Progress  # noqa: PLC0415 - the cli extra, only when drawing

        self.bar = Progress(transient=True, console=_console(sys.stderr))
        self.task = self.bar.add_task("matches", total=total)
        self.bar.start()

    def advance(self, count: int) -> None:
        self.bar.advance(self.task, count)

    def stop(self) -> None:
        self.bar.stop()


def _progress(total: int) -> _Progress:
    return _Progress(total)


def _console(stream: TextIO) -> Any:
    from rich.console import Console  # noqa: PLC0415 - the cli extra, only when printing

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich exits with 1 when the reader (say `head`) stops; let main() end quietly with 0 instead
            raise BrokenPipeError

    return _Console(file=stream, width=100, highlight=False)


def _pct(rate: float, ci: Sequence[float]) -> str:
    return f"{100 * rate:5.1f}%  [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _print_table(summary: dict[str, Any], out: TextIO) -> None:
    from rich.table import Table  # noqa: PLC0415 - the cli extra, only when printing

    console = _console(out)
    head = f"{summary['game']}: {summary['matches']} matches, seed {summary['seed']}, bots {', '.join(summary['bots'])}"
    console.print(head)
    bots = Table("bot", "seats held", "wins", "win rate [95% CI]", title="per bot")
    for row in summary["per_bot"]:
        bots.add_row(row["bot"], str(row["seats_held"]), str(row["wins"]), _pct(row["rate"], row["ci95"]))
    console.print(bots)
    seats = Table("seat", "wins", "win rate [95% CI]", title="per seat")
    for row in summary["seats"]:
        seats.add_row(str(row["seat"]), str(row["wins"]), _pct(row["rate"], row["ci95"]))
    console.print(seats)
    console.print(
        f"deals per match: {summary['deals_per_match']:.2f}; matches without a winner: {summary['no_winner']}"
    )
    ace = summary["ace_of_spades_holder_takes_a_trick"]
    if ace is not None:
        console.print(f"the A♠ holder takes a trick in {100 * ace:.1f}% of the deals he plays")


# --- replay ------------------------------------------------------------------------------


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {path}: {error}") from None


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    text = _read(args.file)
    final = load_history(text)
    game = game_of(final)
    if args.check:
        print(f"ok: {args.file} replays ({game}, {_outcome(final)})", file=out)
        return 0
    data = tomllib.loads(text)
    rules = final.rules
    if "start" in data:
        state: Any = _fresh(final, data)
    else:
        state = new_game(rules, seed=data["seed"], dealer=data["dealer"])
    # the history has been checked by load_history: its actions replay in order
    actions = iter(
        [parse_action(entry.partition(":")[2]) for deal in data.get("deal", []) for entry in deal["actions"]]
    )
    print(f"{game.capitalize()} history {args.file}: {_players(rules)} players", file=out)
    narrate(state, lambda _state, _legal: next(actions, None), out)
    return 0


def _fresh(final: Any, data: dict[str, Any]) -> Any:
    return new_deal(final.rules, **data["start"])  # a start table is new_deal's arguments [REC-2.4]


def _outcome(state: Any) -> str:
    if not state.is_over:
        return "in progress"
    return "no winner" if state.winner is None else f"seat {state.winner} wins"


# --- show --------------------------------------------------------------------------------


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    if args.seat is not None and args.svg is None:
        raise CommandError("--seat chooses whose view the SVG picture shows: give --svg FILE too")
    state = parse_position(args.position)
    if args.svg is not None:
        players = _players(deal_of(state).rules)
        if args.seat is not None:
            args.seat = _seat(args.seat, players)
        _check_target(args.svg, force=True)  # before the board is printed, not after
    print("\n".join(_board(state)), file=out)
    if args.svg is not None:
        write_atomically(args.svg, svg.deal_picture(deal_of(state), seat=args.seat))
        print(f"picture written to {args.svg}", file=out)
    return 0


def _board(state: Any) -> list[str]:
    deal: Any = deal_of(state)
    lines = registry.game_of(deal).words.board(deal)
    trick = "  ".join(f"{s}:{c.symbol}" for s, c in deal.trick)
    lines.append(f"trick: {trick or '(none)'}")
    return lines


# --- rules -------------------------------------------------------------------------------

_CARD_SYMBOL = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9TJQKA])([♠♥♦♣])")


def _searchable(*texts: str) -> str:
    """The texts as one lower-case line, each card symbol followed by its name (``A♠ ace of spades``),
    so that a search in words finds the rules written with symbols."""

    def named(match: re.Match[str]) -> str:
        card = Card.parse(match.group(0))
        return f"{match.group(0)} {card.rank.name} of {card.suit.name}"

    return _CARD_SYMBOL.sub(named, " ".join(" ".join(texts).split())).casefold()


def _outline(rules: dict[str, Rule]) -> dict[str, tuple[str, str]]:
    """The spec files and their numbered sections, by ID prefix (``FLY``, ``FLY-7``): each one's heading and
    its searchable text (a file's title and introduction, a section's heading)."""
    spec_dir = find_spec_dir()
    outline: dict[str, tuple[str, str]] = {}
    for file in dict.fromkeys(rule.file for rule in rules.values()):
        in_file = [rule for rule in rules.values() if rule.file == file]
        lines = (spec_dir / file).read_text(encoding="utf-8").splitlines()
        headings = [(n, line[3:].strip()) for n, line in enumerate(lines, start=1) if line.startswith("## ")]
        title = next((line[2:].strip() for line in lines if line.startswith("# ")), file)
        first = headings[0][0] if headings else len(lines)
        outline[in_file[0].id.split("-")[0]] = (f"{title} ({file})", _searchable(title, *lines[1 : first - 1]))
        for (start, heading), (end, _) in zip(headings, [*headings[1:], (len(lines) + 1, "")], strict=True):
            inside = [rule for rule in in_file if start < rule.line < end]
            if inside:
                name = re.sub(r"^[0-9]+\.\s*", "", heading)
                outline[inside[0].id.split(".")[0]] = (name, _searchable(name))
    return outline


def _cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    rules = load_rules()
    if args.search:
        return _search(rules, args.search, out)
    if args.id is None:
        for each in rules.values():
            print(f"{each.id}  {each.title}", file=out)
        return 0
    key = args.id.strip().upper()
    if key in rules:
        _print_rule(rules[key], out)
        return 0
    inside = [rule for rule in rules.values() if rule.id.startswith((key + ".", key + "-"))]
    if not inside:
        raise CommandError(f"no rule or section {args.id!r} in the specification (try: fly-rules rules --search WORDS)")
    heading = _outline(rules).get(key, (key, ""))[0]
    print(f"{key}  {heading}: {len(inside)} rules\n", file=out)
    for rule in inside:
        print(f"{rule.id}  {rule.title}", file=out)
        if "-" in key and rule.text:  # a section: each rule's text too; a whole file: the titles
            print(textwrap.indent(rule.text.strip(), "    ") + "\n", file=out)
    print(f"\nA rule in full, with its sources, decisions and tests: fly-rules rules {inside[0].id}", file=out)
    return 0


def _search(rules: dict[str, Rule], terms: Sequence[str], out: TextIO) -> int:
    """Print the files, sections and rules whose text has every term (a word, or a phrase in quotes)."""
    wanted = [" ".join(term.split()).casefold() for term in terms]
    places = [
        (key, heading) for key, (heading, text) in _outline(rules).items() if all(term in text for term in wanted)
    ]
    texts = {
        rule.id: _searchable(
            rule.id, rule.title, rule.text, *rule.sources, *rule.decisions, *rule.options, *rule.examples
        )
        for rule in rules.values()
    }
    found = [rule for rule in rules.values() if all(term in texts[rule.id] for term in wanted)]
    if not places and not found:
        raise CommandError(f"no rule mentions {' '.join(terms)!r}")
    for key, heading in places:
        print(f"{key}  {heading}  (all of it: fly-rules rules {key})", file=out)
    for rule in found:
        print(f"{rule.id}  {rule.title}", file=out)
    return 0


def _print_rule(rule: Rule, out: TextIO) -> None:
    print(f"{rule.id} {rule.title}   ({rule.file}, line {rule.line}; {rule.status})\n", file=out)
    if rule.text:
        print(rule.text.strip() + "\n", file=out)
    for label, values in (("Source", rule.sources), ("Decision", rule.decisions), ("Options", rule.options)):
        for value in values:
            print(f"{label}: {value}\n", file=out)
    print("Tests that cite it:", file=out)
    for line in _citing_tests(rule.id):
        print(f"  {line}", file=out)


def _citing_tests(rule_id: str) -> list[str]:
    root = find_spec_dir().parent
    tests = root / "tests"
    if not tests.is_dir():
        return ["(the tests are not installed with the package; see the rulebook online)"]
    found = [c for c in test_citations(sorted(tests.rglob("test_*.py")), root) if c.rule == rule_id]
    return [f"{c.test}: {c.doc}" if c.doc else c.test for c in found] or ["(none)"]
