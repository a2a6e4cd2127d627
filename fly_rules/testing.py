"""The engine contract as one check any registered game can run: :func:`check_game`, and :func:`contract_test`,
a test function for pytest to collect.

OpenSpiel ships ``RandomSimTest`` and pgx its ``api_test``; this is the library's own. It plays seeded matches of
a game (each action drawn from the legal ones, or chosen by a bot) and at every position it reaches checks what
every client of :mod:`fly_rules.engine` relies on:

- **legal actions**: non-empty while the game is not over, with a seat to move; none once it is;
- **apply**: returns a new state and leaves the old one equal to a copy taken before (its views too);
- **refusals**: an action outside the legal ones raises :class:`~fly_rules.errors.RuleViolation` whose ``rule`` is
  a rule ID defined in the spec (``rule_ids``) and changes nothing;
- **views**: ``view(seat)`` shows no other seat's hidden cards: a deal with them dealt afresh from the view alone
  (the game's guess, :func:`fly_rules.bots.sampling.sample_deal`, replayed through ``apply``) shows that seat the
  same view, the match's records and the deal's number aside;
- **notation**: the history of the match reads back as the same match, the position of its deal as a deal with
  the same views and legal actions [REC-5.3];
- **action ids**: every legal action maps to ids (:attr:`fly_rules.registry.Game.action_ids`) that are legal, one
  after the other, and mean that action;
- **pictures**: the deal and each view draw (:func:`fly_rules.svg.deal_picture`);
- **bots**: each bot named chooses only legal actions.

>>> report = check_game("fly", seeds=[1], max_actions=12)  # 12 actions: the start and 12 positions after it
>>> report.game, report.positions, report.refusals > 0
('fly', 13, True)

A broken contract raises :class:`ContractBroken`, an ``AssertionError`` naming the check, the seed and the actions
played so far.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, TypedDict, Unpack

import attrs

from fly_rules import registry, svg
from fly_rules.actions import Exchange, Fold, Play, Stand
from fly_rules.bots import make_bot
from fly_rules.bots.sampling import sample_deal
from fly_rules.cards import ALL_CARDS, CardSet
from fly_rules.engine import MatchBase
from fly_rules.engine.protocols import DealState, GameState, Rules
from fly_rules.errors import RuleViolation
from fly_rules.notation.history import dump_history, load_history
from fly_rules.notation.position import parse_position, position_of
from fly_rules.spec import load_rules

__all__ = ["CheckOptions", "ContractBroken", "ContractReport", "check_game", "contract_test"]


class ContractBroken(AssertionError):
    """A game broke the engine contract: the message names the check, the game, the seed and the actions."""

    def __init__(self, check: str, game: str, seed: int | str, actions: Sequence[object], detail: str) -> None:
        shown = ", ".join(str(a) for a in actions[-8:])
        super().__init__(
            f"{game}: {check}: {detail} (seed {seed!r}, after {len(actions)} actions{': …, ' + shown if shown else ''})"
        )
        self.check = check
        """The check that failed (``apply``, ``refusal``, ``view``, …)."""


@attrs.frozen
class ContractReport:
    """What :func:`check_game` checked, by kind (each count is of checks that passed)."""

    game: str
    """The game's name."""
    positions: int
    """Positions reached (each checked for its legal actions and for ``apply``)."""
    refusals: int
    """Actions outside the legal ones refused."""
    views: int
    """Views compared with the view of a deal guessed from them."""
    notation: int
    """Histories and positions read back."""
    action_ids: int
    """Legal actions mapped to ids and back."""
    pictures: int
    """Pictures drawn."""
    bot_choices: int
    """Bot choices checked legal."""


class CheckOptions(TypedDict, total=False):
    """The keywords of :func:`check_game` after the game (what :func:`contract_test` passes on).

    .. versionadded:: 0.2.0
    """

    rules: Rules | None
    seeds: Iterable[int | str]
    max_actions: int
    refusals: int
    views_every: int
    rule_ids: Collection[str] | None
    bots: Sequence[str]


def check_game(
    game: str | registry.Game[Any, Any, Any],
    *,
    rules: Rules | None = None,
    seeds: Iterable[int | str] = (0, 1, 2),
    max_actions: int = 120,
    refusals: int = 2,
    views_every: int = 5,
    rule_ids: Collection[str] | None = None,
    bots: Sequence[str] = ("random", "rule-of-thumb"),
) -> ContractReport:
    """Run every contract check on matches of ``game`` (a registered name or a descriptor).

    Args:
        game: the game.
        rules: the rules to play (default: the game's default table, ``make_rules("default", None, {})``).
        seeds: one match a seed; all randomness comes from it.
        max_actions: actions played in each match at most (it may end sooner).
        refusals: actions outside the legal ones tried at each position.
        views_every: every this many positions, each seat's view is compared with a guessed deal's, and the
            history, the position, the ids and the pictures are checked.
        rule_ids: the rule IDs a refusal may name (default: those of the library's ``specs/``).
        bots: bots (:data:`~fly_rules.bots.arena.BOTS` names) whose choices are checked legal at each position.

    Raises:
        ContractBroken: a check failed.
    """
    described = registry.get(game) if isinstance(game, str) else game
    chosen = described.make_rules("default", None, {}) if rules is None else rules
    known = frozenset(load_rules()) if rule_ids is None else frozenset(rule_ids)
    counts = dict.fromkeys(("positions", "refusals", "views", "notation", "action_ids", "pictures", "bot_choices"), 0)
    players = [(name, make_bot(name, chosen)) for name in bots]
    for seed in seeds:
        _Walk(described, chosen, seed, known, refusals, counts).run(max_actions, views_every, players)
    return ContractReport(described.name, **counts)


def contract_test(game: str, **options: Unpack[CheckOptions]) -> Callable[[], None]:
    """A test function that runs :func:`check_game` on ``game`` with ``options``, for pytest to collect: a test
    module's ``test_whist_contract = contract_test("whist", rule_ids={"WHIST-1", "WHIST-2"})``."""

    def test() -> None:
        report = check_game(game, **options)
        assert report.positions > 0, f"{game}: no position was reached"

    test.__doc__ = f"The engine contract holds for {game} (fly_rules.testing.check_game)."
    test.__name__ = f"test_{game}_keeps_the_engine_contract"
    return test


class _Walk:
    """One seeded match of a game, played while each check runs at each position."""

    def __init__(
        self,
        game: registry.Game[Any, Any, Any],
        rules: Any,
        seed: int | str,
        rule_ids: frozenset[str],
        refusals: int,
        counts: dict[str, int],
    ) -> None:
        self.game = game
        self.rules = rules
        self.seed = seed
        self.rule_ids = rule_ids
        self.refusals = refusals
        self.counts = counts
        self.rng = random.Random(f"contract:{seed}")
        self.tries = 200  # guesses of a deal behind a view before the view is taken to show hidden cards
        self.played: list[object] = []
        self.first: DealState | None = None

    def fail(self, check: str, detail: str) -> ContractBroken:
        """The error of a failed ``check``."""
        return ContractBroken(check, self.game.name, self.seed, self.played, detail)

    def run(self, max_actions: int, views_every: int, bots: Sequence[tuple[str, Any]]) -> None:
        """Play the match, checking every position."""
        state: GameState = self.game.new_match(self.rules, seed=self.seed)
        self.first = None if isinstance(state, MatchBase) else _deal_of(state)  # a lone deal: its start is written
        for step in range(max_actions + 1):
            legal = self.legal(state)
            if not legal:
                break
            self.refuse(state, legal)
            if step % views_every == 0:
                self.views(state)
                self.notation(state)
                self.action_ids(state, legal)
                self.pictures(state)
            for name, bot in bots:
                self.bot_choice(state, legal, name, bot)
            if step == max_actions:
                break
            action = legal[self.rng.randrange(len(legal))]
            state = self.apply(state, action)
        self.notation(state)

    def legal(self, state: GameState) -> Sequence[object]:
        """The legal actions, checked against ``is_over`` and ``to_move``."""
        legal: Sequence[object] = state.legal_actions()
        if state.is_over:
            if len(legal) or state.to_move is not None:
                raise self.fail("legal actions", f"the game is over but {len(legal)} actions are legal")
            return ()
        if not len(legal) or state.to_move is None:
            raise self.fail("legal actions", f"the game is not over but no action is legal (to move: {state.to_move})")
        self.counts["positions"] += 1
        return legal

    def apply(self, state: GameState, action: object) -> GameState:
        """``state.apply(action)``, checked to leave ``state`` as it was."""
        before = copy.deepcopy(state)
        mover: Any = state  # its apply takes the game's own actions, which the shared Action does not list
        after: GameState = mover.apply(action)
        if after is state:
            raise self.fail("apply", f"apply({action}) returned the state it was given, not a new one")
        self.unchanged(state, before, "apply", f"apply({action}) changed the state it was given")
        self.played.append(action)
        return after

    def unchanged(self, state: GameState, before: GameState, check: str, detail: str) -> None:
        """``state`` still equals ``before``, and so do its views."""
        seats = range(self.rules.players)
        if state != before or any(state.view(seat) != before.view(seat) for seat in seats):
            raise self.fail(check, detail)

    def refuse(self, state: GameState, legal: Sequence[object]) -> None:
        """Actions outside the legal ones: refused with a rule of the spec, nothing changed."""
        outside = [action for action in self.candidates(state) if action not in legal]
        for action in self.rng.sample(outside, min(self.refusals, len(outside))):
            before = copy.deepcopy(state)
            mover: Any = state  # deliberately any action
            try:
                mover.apply(action)
            except RuleViolation as error:
                if error.rule not in self.rule_ids:
                    raise self.fail("refusal", f"{action} refused with {error.rule!r}, no rule of the spec") from None
            else:
                raise self.fail("refusal", f"{action} is not among the legal actions but was accepted")
            self.unchanged(state, before, "refusal", f"refusing {action} changed the state")
            self.counts["refusals"] += 1

    def candidates(self, state: GameState) -> list[object]:
        """Actions to try: every id's action for the hand, cards from outside the hand, the shared declarations."""
        seat = state.to_move
        hand = 0 if seat is None else state.hand_masks[seat]
        space = self.game.action_ids
        outside = ~hand & ((1 << 52) - 1)
        found: list[object] = [Stand(), Fold(), Exchange(CardSet(outside & -outside))]
        for action_id in range(space.size):
            try:
                found.append(space.action_of(hand, action_id))
            except ValueError:
                continue
        found += [Play(card) for card in ALL_CARDS if not hand >> card.index & 1]
        return found

    def views(self, state: GameState) -> None:
        """Each seat's view is what a deal with the cards it cannot see dealt afresh shows it too: the game's own
        guess from the view alone finds such a deal (it replays the guess through ``apply`` and compares the views,
        the match's records and the deal's number aside) [FLY-5.1] [DRF-11.1]."""
        deal = _deal_of(state)
        for seat in range(self.rules.players):
            view = deal.view(seat)
            if sample_deal(view, self.rules, self.rng, tries=self.tries) is None:
                raise self.fail(
                    "view",
                    f"no deal with the cards seat {seat} cannot see dealt afresh shows it the same view in "
                    f"{self.tries} guesses: does the view show another seat's hidden cards? {view!r}",
                )
            self.counts["views"] += 1

    def notation(self, state: GameState) -> None:
        """The history and the deal's position read back as the same state, and write the same text."""
        start = None if self.first is None else self.first.start_fields()
        text = dump_history(state, start=start)
        loaded = load_history(text)
        if loaded != state or dump_history(loaded, start=start) != text:
            raise self.fail("history", "the history does not read back as the same game")
        deal = _deal_of(state)
        line = position_of(state, start=self.first)
        parsed = parse_position(line)  # without the match's seed and deal number [REC-5.3]: the same play and views
        same = parsed.to_move == deal.to_move and list(parsed.legal_actions()) == list(deal.legal_actions())
        if not same or any(_numberless(parsed.view(s)) != _numberless(deal.view(s)) for s in range(self.rules.players)):
            raise self.fail("position", f"the position {line!r} does not read back as the same deal")
        self.counts["notation"] += 2

    def action_ids(self, state: GameState, legal: Sequence[object]) -> None:
        """Each legal action (at most 24, drawn) maps to ids, each legal in turn, that mean the action."""
        deal = _deal_of(state)
        space = self.game.action_ids
        chosen = legal if len(legal) <= 24 else [legal[i] for i in sorted(self.rng.sample(range(len(legal)), 24))]
        for action in chosen:
            try:
                ids = space.ids(deal, action)
            except ValueError as error:
                raise self.fail("action ids", f"{action} has no ids: {error}") from None
            marked, meant = 0, None
            for action_id in ids:
                if action_id not in space.legal_ids(deal, marked):
                    raise self.fail("action ids", f"id {action_id} of {action} is not legal (marked {marked})")
                meaning = space.meaning(deal, marked, action_id)
                marked, meant = meaning.cards, meaning.action
            if meant != action:
                raise self.fail("action ids", f"the ids {ids} of {action} mean {meant}")
            self.counts["action_ids"] += 1

    def pictures(self, state: GameState) -> None:
        """The deal and every seat's view draw."""
        deal = _deal_of(state)
        for shown in (deal, *(deal.view(seat) for seat in range(self.rules.players))):
            picture = svg.deal_picture(shown)
            if not picture.startswith("<svg"):
                raise self.fail("picture", f"the picture of {type(shown).__name__} is not an SVG document")
            self.counts["pictures"] += 1

    def bot_choice(self, state: GameState, legal: Sequence[object], name: str, bot: Any) -> None:
        """The bot, seeing the view of the seat to move, chooses a legal action."""
        seat = state.to_move
        assert seat is not None  # checked by legal()
        choice = bot.choose(state.view(seat), legal, self.rng)
        if choice not in legal:
            raise self.fail("bot", f"the {name} bot chose {choice}, which is not legal")
        self.counts["bot_choices"] += 1


def _numberless(view: Any) -> object:
    """A view with its deal number aside (a position does not keep it [REC-5.3])."""
    return attrs.evolve(view, deal_number=0) if attrs.has(type(view)) else view


def _deal_of(state: GameState) -> DealState:
    """The deal in play: a match's current deal, or the state itself."""
    if isinstance(state, MatchBase):
        deal: DealState = state.deal
        return deal
    assert isinstance(state, DealState), f"{type(state).__name__} is neither a match nor a deal"
    return state
