"""What every batch engine answers: the pgx-shaped interface, shared by Fly and Dreyfus.

Each game of a batch is a match of the scalar engine: game ``i`` of ``init(seed)`` is
``new_match(rules, seed=f"batch:{seed}:{i}")`` (a batch of single deals: that match stopped after its
first deal), dealt with the scalar engine's own shuffle (:func:`fly_rules.engine.shuffled_indices`)
and first dealer drawn by lot, so :meth:`BatchEngine.to_scalar` replays it exactly and
``dump_history`` saves it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

import attrs
import numpy as np

from fly_rules import registry
from fly_rules._numbers import check_count, check_seat
from fly_rules.batch._bits import NO_CARD, Array
from fly_rules.batch._state import BatchState, Field, make_arrays, reset_rows
from fly_rules.cards import CardSet
from fly_rules.engine import Phase, shuffled_indices
from fly_rules.engine.encoding import ActionSpace, seat_order
from fly_rules.engine.shuffle import check_seed
from fly_rules.errors import RuleViolation, shown

__all__ = ["BatchEngine"]

_LOG: Final = 64  # actions of one deal: Fly's at most 4n+1 declarations and 5n plays; Dreyfus's 36 plays,
# at most 12 marks or exchanges and 3 stands
_I = np.int64
_OVER_PHASE: Final = 2  # every engine's phase codes: 0 the exchange, 1 the play, 2 over
_PHASES: Final = (Phase.EXCHANGE, Phase.PLAY, Phase.OVER)


class BatchEngine:
    """The interface of a batch engine; :class:`~fly_rules.batch.FlyBatch` and
    :class:`~fly_rules.batch.DreyfusBatch` implement it. Build one with :func:`fly_rules.batch.make`."""

    game: str
    """``"fly"`` or ``"dreyfus"``."""
    batch_size: int
    """Games stepped at once."""
    num_players: int
    """Seats per game."""
    num_actions: int
    """Distinct action ids (the game's one action space, :mod:`fly_rules.engine.encoding`)."""
    observation_size: int
    """Floats in one observation."""
    match: bool
    """Whether a game is a whole match (deals until ``rules.max_deals`` or a winner) rather than one deal."""
    rules: Any
    """The rules every game of the batch follows."""
    actions: ActionSpace[object]
    """The game's action ids, as every adapter reads them."""

    def __init__(self, rules: Any, batch_size: int, *, match: bool = False) -> None:
        batch_size = check_count(batch_size, "batch_size", 1)  # NumPy's integers too, as everywhere a count is read
        self.rules = rules
        self.batch_size = batch_size
        self.match = bool(match)
        self.num_players = rules.players
        self._described = registry.get(self.game)
        self.actions = self._described.action_ids
        self.num_actions = self.actions.size
        # a batch of single deals: each game is its match stopped after the first deal
        self._match_rules = rules if match else attrs.evolve(rules, max_deals=1)
        self._orders = np.array([seat_order(rules, seat) for seat in range(rules.players)], _I)
        """``[seat, k]``: the seat ``k`` places to the left of ``seat`` (relative observations)."""

    @property
    def id(self) -> str:
        """The game's name, as pgx names an environment (``env.id``)."""
        return self.game

    @property
    def version(self) -> str:
        """``v`` and the game's rules version (:attr:`fly_rules.registry.Game.rules_version`): it changes
        whenever some game's outcome would."""
        return f"v{self._described.rules_version}"

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of one observation: ``(observation_size,)``."""
        return (self.observation_size,)

    # --- new games --------------------------------------------------------------------------------

    def init(self, seed: int | str, dealer: int | None = None) -> BatchState:
        """A new batch: game ``i`` is the match ``new_match(rules, seed=f"batch:{seed}:{i}")`` of the
        scalar engine, its first dealer drawn by lot from that seed, or ``dealer`` for all [FLY-2.1]
        [DRF-2.1].

        Raises:
            TypeError: ``seed`` is not an int or a str.
            RuleViolation: REC-1.5 for a seed of more than 100 digits; ``dealer`` is not a seat (FLY-1.2,
                DRF-2.1).
        """
        check_seed(seed)
        state = BatchState(self, make_arrays(self.fields, self.batch_size))
        seeds = [f"batch:{seed}:{i}" for i in range(self.batch_size)]
        self._start(state, np.arange(self.batch_size), seeds, dealer, fresh=True)
        return state

    def restart(self, state: BatchState, games: Any, seeds: Sequence[int | str], dealer: int | None = None) -> None:
        """Start new games in place of ``games`` (row indices) of ``state``: game ``games[k]`` becomes the
        scalar engine's match of seed ``seeds[k]``, at its first deal (what a vector environment does when
        a game ends).

        Raises:
            TypeError: a seed is not an int or a str.
            RuleViolation: REC-1.5 for a seed of more than 100 digits; ``dealer`` is not a seat.
        """
        self._start(state, np.asarray(games, dtype=_I).reshape(-1), seeds, dealer, fresh=False)

    def _start(
        self, state: BatchState, rows: Array, seeds: Sequence[int | str], dealer: int | None, *, fresh: bool
    ) -> None:
        """Deal the matches of ``seeds`` in ``rows``, every field of theirs back at its initial value first (already
        there in a ``fresh`` batch)."""
        if len(rows) != len(seeds):
            raise ValueError(f"restart: {len(rows)} games but {len(seeds)} seeds")
        for seed in seeds:
            check_seed(seed)
        if dealer is None:
            dealers = np.array([self._draw_dealer(seed) for seed in seeds], _I)
        else:
            check_seat(dealer, self.num_players, self._dealer_rule, "the dealer")
            dealers = np.full(len(rows), dealer, _I)
        if not len(rows):
            return
        if not fresh:
            reset_rows(state.arrays(), self.fields, rows)
        state.seeds[rows] = list(seeds)
        state.past[rows] = [() for _ in range(len(rows))]
        state.first_dealer[rows] = dealers
        self._deal(state, rows, dealers)
        state.changed()

    # --- stepping -----------------------------------------------------------------------------------

    def step(self, state: BatchState, actions: Any) -> BatchState:
        """The batch after each game's seat to move takes its action id: a new state, ``state`` left as it
        is (games already over ignore theirs). :meth:`step_in_place` is the same without the copy.

        Raises:
            RuleViolation: an action outside a game's mask, naming the game's index and the rule.
            ValueError: ``actions`` is not one integer per game.
        """
        return self.step_in_place(state.copy(), actions)

    def step_in_place(self, state: BatchState, actions: Any, *, games: Any = None) -> BatchState:
        """:meth:`step`, writing the next position into ``state`` itself and returning it (no copy: a
        kept reference to ``state`` sees the new position). Refused actions change nothing. With
        ``games`` (``bool[B]``), only those games move; the others keep their position and get no reward.

        Raises:
            RuleViolation: an action outside a game's mask, naming the game's index and the rule.
            ValueError: ``actions`` is not one integer per game, or ``games`` not one bool per game.
        """
        self._check_state(state)
        ids = self._actions(actions)
        legal = self._legal_ids(state, ids)
        live = ~state.terminated
        if games is not None:
            live &= self._games(games)
        bad = np.flatnonzero(live & ~legal)
        if len(bad):
            raise self._refuse(state, int(bad[0]), int(ids[bad[0]]))
        rows = np.flatnonzero(live)
        sel = self._sel(rows)
        state.log[rows, state.log_len[sel]] = ids[sel]
        state.log_len[sel] += 1
        before = self._scores(state)
        self._step_rows(state, rows, ids)
        np.subtract(self._scores(state), before, out=state.rewards, casting="unsafe")
        state.changed()
        return state

    def sample_legal(self, state: BatchState, rng: np.random.Generator) -> Array:
        """One legal action id per game, uniformly at random from its mask (0 for a game over).

        Raises:
            TypeError: ``rng`` is not a ``numpy.random.Generator``.
        """
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator (numpy.random.default_rng(seed)), not {shown(rng)}")
        self._check_state(state)
        return self._sample(state, rng)

    def observe(self, state: BatchState, player: Any, *, relative: bool = False, games: Any = None) -> Array:
        """``float32[B, observation_size]``: what ``player`` (a seat, or one seat per game) sees in each
        game, in the layout of :mod:`fly_rules.adapters.encoding` (its own hand, never another's; its
        marks only when it is to move); with ``relative``, seats counted from ``player`` going left. With
        ``games`` (``bool[B]``), the rows of those games alone, in order: the same rows, fewer to build.

        Raises:
            ValueError: ``player`` is not a seat, or not one seat per game; ``games`` not one bool per game.
        """
        self._check_state(state)
        seats = np.asarray(player)
        if seats.ndim == 0:
            seats = np.full(self.batch_size, seats)
        if (
            seats.shape != (self.batch_size,)
            or not np.issubdtype(seats.dtype, np.integer)
            or ((seats < 0) | (seats >= self.num_players)).any()
        ):
            raise ValueError(f"player must be a seat 0 to {self.num_players - 1}, or one per game, not {shown(player)}")
        seats = seats.astype(_I)
        chosen = self._games(games)
        if chosen is not None:
            rows = np.flatnonzero(chosen)
            state, seats = BatchState(self, {name: array[rows] for name, array in state.arrays().items()}), seats[rows]
        order = self._orders[seats] if relative else None
        return self._observe(state, seats, order)

    def legal_action_mask(self, state: BatchState) -> Array:  # pragma: no cover - abstract
        """``bool[B, num_actions]``: the legal action ids of each game's seat to move (none once over)."""
        raise NotImplementedError

    def observation(self, state: BatchState) -> Array:
        """``float32[B, observation_size]``: each game's seat to move's observation (seats absolute)."""
        return self._observe(state, np.maximum(state.current_player, 0), None)

    def rule_of_thumb(self, state: BatchState, games: Any = None) -> Array:  # pragma: no cover - abstract
        """The id the library's rule-of-thumb bot (:mod:`fly_rules.bots`) plays for each game's seat to
        move, from that seat's view alone, computed for every game at once (or for the games of the
        ``bool[B]`` mask ``games``; 0 for the others and for a game over)."""
        raise NotImplementedError

    def thumb_hint(self, state: BatchState, games: Any = None) -> Array:
        """The rule of thumb's id as the learned bot (:mod:`fly_rules.adapters.learned`) reads it beside the
        observation, for each game's seat to move: :meth:`rule_of_thumb`'s, except where a choice is made in
        several ids (Dreyfus's discard, card by card) and the seat's marks do not go on towards the bot's own
        choice: -1 there, no hint (:func:`fly_rules.adapters.learned.thumb_id` gives None)."""
        return self.rule_of_thumb(state, games)

    # --- the scalar engine ------------------------------------------------------------------------

    def action_to_scalar(self, state: BatchState, game: int | np.integer[Any], action: int) -> Any:
        """The scalar engine's action that id ``action`` takes in game ``game`` (None for a mark that
        completes no action yet).

        Raises:
            RuleViolation: an id that is no action of the game (the rule of the phase).
        """
        game = self._game_index(state, game)
        try:
            meaning = self.actions.meaning(_Seat(state, game, self.rules), self._marked(state, game), int(action))
        except ValueError as error:
            raise RuleViolation(self._id_rule(state, game), f"game {game}: {error}", action) from None
        return None if meaning.kind == "mark" else meaning.action

    def scalar_to_action(self, state: BatchState, game: int | np.integer[Any], action: Any) -> int:
        """The next id of the scalar ``action`` in game ``game`` (an exchange marked card by card: its next
        card to mark, then the stand).

        Raises:
            ValueError: the action has no id there (a card its player does not hold, marks that do not
                begin it, not an action of the game).
        """
        game = self._game_index(state, game)
        seat = _Seat(state, game, self.rules)
        try:
            return self.actions.ids(seat, action, self._marked(state, game))[0]
        except ValueError as error:
            raise ValueError(f"game {game}: {error}") from None

    def to_scalar(self, state: BatchState, game: int | np.integer[Any]) -> Any:
        """Game ``game`` as the scalar engine's match (a batch of single deals: the match stopped after
        its first deal; a game started by :meth:`from_scalar` from a lone deal: that deal), with every
        action taken replayed; marks not yet exchanged are not actions of the scalar engine."""
        game = self._game_index(state, game)
        scalar = state.origin[game]
        if scalar is None:
            dealer = int(state.first_dealer[game])
            scalar = self._described.new_match(self._match_rules, seed=state.seeds[game], dealer=dealer)
        current = state.log[game, : state.log_len[game]].tolist()
        for ids in (*state.past[game], current):
            marked = 0
            for action in ids:
                deal = getattr(scalar, "deal", scalar)
                meaning = self.actions.meaning(deal, marked, action)
                if meaning.kind == "mark":
                    marked = meaning.cards
                else:
                    scalar = scalar.apply(meaning.action)
                    marked = 0
        return scalar

    def from_scalar(self, states: Sequence[Any]) -> BatchState:
        """A batch whose game ``i`` starts where ``states[i]`` stands: a match or a deal of these rules whose
        current deal has had no action yet. A match goes on with the deals its own seed deals.

        Raises:
            TypeError: a state that is not a scalar deal or match.
            ValueError: the wrong number of states, other rules, or a deal already begun.
        """
        if len(states) != self.batch_size:
            raise ValueError(f"from_scalar needs {self.batch_size} states, not {len(states)}")
        state = BatchState(self, make_arrays(self.fields, self.batch_size))
        for i, scalar in enumerate(states):
            deal = getattr(scalar, "deal", scalar)
            if getattr(scalar, "game", None) != self.game or scalar.rules != self.rules:
                raise ValueError(f"state {i} is not a game of {self._described.title} under this batch's rules")
            if deal.actions:
                raise ValueError(f"state {i}: its deal has begun; from_scalar takes deals before their first action")
            if scalar.is_over:
                raise ValueError(f"state {i} is over")
            state.origin[i] = scalar
            state.seeds[i] = getattr(scalar, "seed", None)
            state.first_dealer[i] = getattr(scalar, "first_dealer", deal.dealer)
            state.deal_number[i] = deal.deal_number
            state.past[i] = ()
            self._load(state, i, deal)
        rows = np.arange(self.batch_size)
        self._begin_deal(state, rows, state.dealer.copy())
        state.changed()
        return state

    # --- what each engine adds --------------------------------------------------------------------

    _dealer_rule: str = ""
    """The rule a first dealer who is not a seat breaks."""
    _deck: CardSet
    """The cards dealt."""

    def _marked(self, state: BatchState, game: int) -> int:
        """The cards game ``game``'s seat to move has marked, as a mask (none in a game without marks)."""
        return 0

    def _draw_dealer(self, seed: int | str) -> int:  # pragma: no cover - abstract
        """The first dealer of the match of ``seed``, drawn by lot as the scalar engine draws him."""
        raise NotImplementedError

    def _own_fields(self) -> dict[str, Field]:  # pragma: no cover - abstract
        """The arrays only this game keeps, each with its shape, dtype and initial value (a new match's records)."""
        raise NotImplementedError

    def _deal_packs(self, state: BatchState, rows: Array, dealers: Array, packs: Array) -> None:
        """Deal the shuffled ``packs`` (one row of card indices per game of ``rows``) and begin the deal."""
        raise NotImplementedError  # pragma: no cover - abstract

    def _load(self, state: BatchState, game: int, deal: Any) -> None:  # pragma: no cover - abstract
        """Put the scalar ``deal`` (before its first action) into row ``game``'s dealt cards and records."""
        raise NotImplementedError

    def _begin_deal(self, state: BatchState, rows: Array, dealers: Array) -> None:  # pragma: no cover - abstract
        """Set ``rows`` at the start of their deal, from the dealt cards already in place."""
        raise NotImplementedError

    def _step_rows(self, state: BatchState, rows: Array, ids: Array) -> None:  # pragma: no cover - abstract
        """The seat to move of each game of ``rows`` takes its legal id."""
        raise NotImplementedError

    def _legal_ids(self, state: BatchState, ids: Array) -> Array:  # pragma: no cover - abstract
        """Whether each game's id is in its mask."""
        raise NotImplementedError

    def _scores(self, state: BatchState) -> Array:  # pragma: no cover - abstract
        """Each seat's score in each game (higher is better): what a step's rewards are the change of."""
        raise NotImplementedError

    def _sample(self, state: BatchState, rng: np.random.Generator) -> Array:  # pragma: no cover - abstract
        """One random legal id per game."""
        raise NotImplementedError

    def _observe(self, state: BatchState, seats: Array, order: Array | None) -> Array:  # pragma: no cover
        """The observation of ``seats[i]`` in game ``i``; ``order[i]``, if given, the seats from it going left."""
        raise NotImplementedError

    def _id_rule(self, state: BatchState, game: int) -> str:  # pragma: no cover - abstract
        """The rule an id that is no action breaks, in game ``game``'s phase."""
        raise NotImplementedError

    # --- shared -----------------------------------------------------------------------------------

    def _deal(self, state: BatchState, rows: Array, dealers: Array) -> None:
        """Deal the next deal of each game of ``rows``: the scalar engine's shuffle of its seed and deal number."""
        deck = self._deck
        numbers = state.deal_number[rows].tolist()
        seeds = state.seeds[rows].tolist()
        packs = np.array([shuffled_indices(deck, s, k) for s, k in zip(seeds, numbers, strict=True)], _I)
        self._deal_packs(state, rows, dealers, packs.reshape(len(rows), -1))

    @functools.cached_property
    def fields(self) -> dict[str, Field]:
        """Every array of the batch's state by name, each with its shape for one game, its dtype and its value in a new
        game (a :class:`~fly_rules.batch.Field`): those of every game, then the game's own. A batch is made from
        them, and a game dealt anew (:meth:`restart`) goes back to them."""
        n, tricks = self.num_players, self.rules.hand_size
        return {
            "current_player": Field((), _I, -1),
            "rewards": Field((n,), np.float32, 0, reset=False),
            "terminated": Field((), bool, False),
            "truncated": Field((), bool, False),
            "phase": Field((), _I, 0),
            "legal": Field((), np.uint64, 0),
            "hands": Field((n,), np.uint64, 0),
            "dealer": Field((), _I, 0),
            "first_dealer": Field((), _I, 0),
            "deal_number": Field((), _I, 0),
            "tricks_taken": Field((n,), _I, 0),
            "trick": Field((n,), _I, NO_CARD),
            "trick_len": Field((), _I, 0),
            "best_card": Field((), _I, NO_CARD),
            "best_power": Field((), _I, -1),
            "best_pos": Field((), _I, 0),
            "power_row": Field((), _I, 0),
            "tricks": Field((tricks, n), np.int8, NO_CARD),
            "trick_leaders": Field((tricks,), _I, -1),
            "trick_winners": Field((tricks,), _I, -1),
            "tricks_done": Field((), _I, 0),
            **self._own_fields(),
            "log": Field((_LOG,), np.int16, 0),
            "log_len": Field((), _I, 0),
            "seeds": Field((), object, None),
            "origin": Field((), object, None),
            "past": Field((), object, None),
        }

    def _end_deals(self, s: BatchState, rows: Array, won: Array) -> Array:
        """End the deal of each game of ``rows``: over, with no one to move. A lone deal, a match with a
        winner (``won``) or one of ``rules.max_deals`` deals is terminated; the others' deal number is
        stepped, their deal's actions kept, and their rows returned, to be dealt again [FLY-10.1] [DRF-8.1]
        [DRF-8.3]."""
        s.phase[rows] = _OVER_PHASE
        s.current_player[rows] = -1
        s.legal[rows] = 0
        if not self.match:
            s.terminated[rows] = True
            return rows[:0]
        number = s.deal_number[rows] + 1
        stops = won
        if self.rules.max_deals is not None:
            stops = stops | (number >= self.rules.max_deals)
        s.terminated[rows[stops]] = True
        going = rows[~stops]
        for row in going.tolist():  # tuples: a copy of the state shares them safely
            s.past[row] = (*s.past[row], tuple(s.log[row, : s.log_len[row]].tolist()))
        s.deal_number[going] = number[~stops]
        return going

    def _actions(self, actions: Any) -> Array:
        ids = np.asarray(actions)
        if ids.shape != (self.batch_size,) or not (np.issubdtype(ids.dtype, np.integer) and ids.dtype != bool):
            raise ValueError(f"actions must be {self.batch_size} integers (one per game), not {ids.dtype} {ids.shape}")
        return ids.astype(np.int64)

    def _games(self, games: Any) -> Array | None:
        """``games`` as ``bool[B]`` (None stays None: every game).

        Raises:
            ValueError: not one bool per game.
        """
        if games is None:
            return None
        chosen = np.asarray(games)
        if chosen.shape != (self.batch_size,) or chosen.dtype != bool:
            raise ValueError(f"games must be {self.batch_size} booleans (one per game), not {shown(games)}")
        return chosen

    def _check_state(self, state: object) -> None:
        if not isinstance(state, BatchState) or state._engine is not self:
            raise TypeError(f"not a state of this batch engine: {shown(state)}")

    def _game_index(self, state: BatchState, game: object) -> int:
        self._check_state(state)
        if isinstance(game, bool) or not isinstance(game, int | np.integer):
            raise TypeError(f"a game's index is an int, not {shown(game)}")
        if not 0 <= int(game) < state.batch_size:
            raise IndexError(f"game {game} is not in a batch of {state.batch_size}")
        return int(game)

    def _sel(self, rows: Array) -> Any:
        """``rows`` (ascending game numbers) as an index: a slice when it is every game (a view, not a gather)."""
        return slice(None) if len(rows) == self.batch_size else rows

    def _open_trick(self, s: BatchState, rows: Array, seat: Array) -> Any:
        """``seat`` leads an empty trick in ``rows``, any card of its hand legal; the index of ``rows`` it wrote
        through, for what a game's trick holds besides."""
        sel = self._sel(rows)
        s.current_player[sel] = seat
        s.leader[sel] = seat
        s.trick_len[sel] = 0
        s.trick[sel] = NO_CARD
        s.best_power[sel] = -1
        s.best_card[sel] = NO_CARD
        s.legal[sel] = s.hands[rows, seat]
        return sel

    def _refuse(self, state: BatchState, game: int, action: int) -> RuleViolation:
        """The scalar engine's refusal of ``action`` in game ``game``, with the game's index."""
        scalar = self.to_scalar(state, game)
        try:
            move = self._as_scalar(state, game, action)
            scalar.apply(move)  # either may raise
        except RuleViolation as error:
            return RuleViolation(error.rule, f"game {game}: {error.detail}", action)
        return self._order_refusal(state, game, action)

    def _as_scalar(self, state: BatchState, game: int, action: int) -> Any:
        """The scalar action whose refusal explains why ``action`` is outside the mask."""
        return self.action_to_scalar(state, game, action)

    def _order_refusal(self, state: BatchState, game: int, action: int) -> RuleViolation:
        """Why an action the scalar engine would take is outside the mask (an engine's own encoding)."""
        raise AssertionError(f"game {game}: action {action} outside the mask was accepted by the scalar engine")


class _Seat:
    """Game ``game`` of a batch as the action space reads a position: the hand of the seat to move, the
    phase and the rules (enough for an id's meaning, not a whole scalar deal)."""

    def __init__(self, state: BatchState, game: int, rules: Any) -> None:
        seat = int(state.current_player[game])
        self.rules = rules
        self.to_move = seat if seat >= 0 else 0
        self.hand_masks = tuple(int(hand) for hand in state.hands[game])
        self.phase = _PHASES[int(state.phase[game])]
