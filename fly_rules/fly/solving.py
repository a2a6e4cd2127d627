"""Fly's search kernel: the play of a deal on bitmasks, through the rule-section functions [FLY-6.2]
[FLY-6.6] [FLY-7.2] [FLY-7.3] [FLY-8.2] [FLY-8.3] [FLY-8.4] [FLY-9.1].

:mod:`fly_rules.solve` walks a deal through this kernel (see :class:`fly_rules.engine.solving.SearchKernel`).
In the exchange a node is the :class:`~fly_rules.fly.FlyDeal` itself and its children come from its
``legal_actions`` and ``apply``; from the first lead a node is a bare tuple ``(seat, hands, score, trick,
live, active)`` (a folded seat's hand empty) and a card is played by :func:`~fly_rules.fly.play.play_card`, which
scores a trick it completes with :func:`~fly_rules.fly.scoring.take_trick`: the search never scores anything
itself.

Two plays are one class when the cards touch in the hand (no live card between them, FLY-1.4): they win the
same tricks. The A♠ and, while the privilege applies, the ace of trumps are never folded into a run, because
FLY-7.2 and FLY-7.3 name those very cards. A position at the start of a trick is stored under the places its
hands hold among the live cards of each suit, the records (each one the rest of the deal cannot bring to zero
written as -1, FLY-9.1, FLY-9.2), who has taken a trick (the remise, FLY-8.4), whether the A♠ bonus is still due
(FLY-8.3) and to whom, and where the special cards lie: everything its future depends on.

Once no record can reach zero any more, a seat's final score depends only on how many tricks it takes from
there, and rises with them: :meth:`FlyKernel.maxn_below` then searches trick counts alone, stored under the seat
to lead and the places only, whatever the records, and turns them into scores through ``take_trick``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from fly_rules.actions import Action, Play
from fly_rules.cards import ALL_CARDS, SUIT_MASKS, Suit
from fly_rules.engine import Phase
from fly_rules.engine.solving import rank_tables
from fly_rules.fly.deal import ACE_OF_SPADES
from fly_rules.fly.exchange import SwapTrump
from fly_rules.fly.play import play_card, playable_mask, trick_seats, winning_position
from fly_rules.fly.scoring import TRICKS_PER_DEAL, Score, take_trick
from fly_rules.fly.state import FlyDeal

if TYPE_CHECKING:
    from fly_rules.solve import Search

__all__ = ["FlyKernel", "FlyNode", "FlyToken", "PlayNode"]

PlayNode: TypeAlias = tuple[int | None, tuple[int, ...], Score, tuple[int, ...], int, tuple[bool, ...]]
"""A search node from the first lead: ``(seat to move or None, hands, score, trick, live cards, active seats)``."""
FlyNode: TypeAlias = FlyDeal | PlayNode
"""A search node of Fly: the deal itself in the exchange, else a :data:`PlayNode`."""
FlyToken: TypeAlias = Action | SwapTrump | int
"""A move of the search: a declaration in the exchange, a card index in the play."""
_Runs: TypeAlias = dict[int, list[int]]
"""The classes of legal cards, by the mask of legal cards."""
_Places: TypeAlias = tuple[tuple[int, ...], tuple[int, ...]]
"""The special cards' places and the relative hands."""
_World: TypeAlias = tuple[Callable[[int, int], int], Callable[[], int], list[int]]
"""The search by trick counts of one play: the counts from a trick's start, the positions counted, the budget."""

_PLAYS = tuple(Play(card) for card in ALL_CARDS)
_PLAY = Phase.PLAY
_BIT = tuple(1 << card for card in range(52))
_BITS = 3  # bits a seat in packed trick counts: five tricks at most
_MASK = (1 << _BITS) - 1


def _cards(mask: int) -> list[int]:
    """The card indices of ``mask``."""
    return [card for card in range(52) if mask >> card & 1]


_Parts = tuple[
    Callable[[int], tuple[int, int, int, int]],
    Callable[[dict[int, int], int, int], int],
    Callable[[dict[int, list[int]], int, int], list[int]],
    Callable[[dict[int, int], int, tuple[int, ...]], int],
]
"""What :meth:`FlyKernel._count_parts` makes."""


class _Counting(NamedTuple):
    """What every search by trick counts of one :class:`fly_rules.solve.Search` shares."""

    stored: dict[Hashable, Any]  # Any: the search's own table, whose values are the search's (max^n tuples)
    """The search's table."""
    visits: list[int]
    """The search's count of positions."""
    limit: int
    """The most positions to visit."""
    over: Callable[[], Exception]
    """The error past the limit."""
    ones: tuple[int, ...]
    """Per seat, one trick taken, packed."""


class FlyKernel:
    """The search kernel of one Fly deal (its table and rank order are fixed; searched from the exchange, the
    active seats and the hands differ from branch to branch).

    Args:
        deal: any position of the deal.
    """

    def __init__(self, deal: FlyDeal) -> None:
        table = deal.table
        self.table = table
        self.tables = rank_tables(table.order)
        self.special = (1 << ACE_OF_SPADES | 1 << table.trump_ace) if table.privileged else 0
        self._specials = (ACE_OF_SPADES, table.trump_ace) if table.privileged else ()
        self._places: dict[tuple[int, ...], _Places] = {}  # the hands at a trick's start → their relative places
        rules = table.rules
        self._trick_value = rules.trick_value
        self._bonus = rules.ace_bonus_trumps if table.trump == Suit.SPADES else rules.ace_bonus
        self._scores: dict[tuple[int, ...], tuple[int, ...]] = {}  # records → scores (a few per deal)
        # (records, tricks, bonus due to) → key part
        self._records: dict[tuple[tuple[int, ...], int, int | None], tuple[int, ...]] = {}
        # (active, records, tricks played, bonus due to) → regime
        self._counted: dict[tuple[tuple[bool, ...], tuple[int, ...], int, int | None], bool] = {}
        self._finals: dict[tuple[object, ...], tuple[int, ...]] = {}  # (score state, counts) → final scores
        self._turns: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}  # next in play → seats per leader

    def node(self, state: FlyDeal) -> FlyNode:
        """The deal itself in the exchange; from the first lead, the bare tuple."""
        if state.phase is Phase.EXCHANGE:
            return state
        return self._play_node(state)

    @staticmethod
    def _play_node(deal: FlyDeal) -> PlayNode:
        """The bare tuple; a folded seat's hand is left out (empty), so that the hands alone tell the active seats
        and the live cards: a fold keeps the hand in the deal [FLY-5.1], and the stand and fold of one declaration
        would otherwise meet as one set of hands."""
        active = deal.exchanges.active
        hands = tuple(hand if active[seat] else 0 for seat, hand in enumerate(deal.hand_masks))
        live = 0
        for hand in hands:
            live |= hand
        for card in deal.trick_cards:
            live |= 1 << card
        mover = deal.to_move if deal.phase is _PLAY else None
        return (mover, hands, deal.score, deal.trick_cards, live, active)

    def mover(self, node: FlyNode) -> int | None:
        """The seat to move."""
        return node.to_move if type(node) is FlyDeal else node[0]

    def scores(self, node: FlyNode) -> tuple[int, ...]:
        """Minus each record [FLY-8.1]."""
        if type(node) is FlyDeal:
            return node.scores
        records = node[2].records
        scores = self._scores.get(records)
        if scores is None:
            scores = self._scores[records] = tuple(-record for record in records)
        return scores

    def children(self, node: FlyNode) -> list[tuple[FlyToken, FlyNode]]:
        """One child per class of plays (or per declaration in the exchange), in tie order."""
        if type(node) is FlyDeal:
            child = self._declare
            return [(token, child(node, token)) for token in node.legal_actions()]
        seat, hands, score, trick, live, active = node
        if TYPE_CHECKING:  # the search asks for the children of a node with a seat to move only
            assert seat is not None
        table = self.table
        allowed = playable_mask(table, hands[seat], trick)
        children: list[tuple[FlyToken, FlyNode]] = []
        for card in self.tables.representatives(allowed, live, self.special):
            after, played, new_score, new_trick = play_card(
                table, score, active, hands, trick, seat, allowed, _PLAYS[card]
            )
            if new_trick:
                children.append((card, (after, played, new_score, new_trick, live, active)))
            else:  # the trick is complete: its cards are dead
                dead = 1 << card
                for gone in trick:
                    dead |= 1 << gone
                children.append((card, (after, played, new_score, new_trick, live & ~dead, active)))
        return children

    def tokens(self, node: FlyNode) -> Sequence[FlyToken]:
        """The tokens of :meth:`children`, without the children: declarations, or card indices."""
        if type(node) is FlyDeal:
            return list(node.legal_actions())
        seat, hands, _, trick, live, _ = node
        if TYPE_CHECKING:
            assert seat is not None
        return self.tables.representatives(playable_mask(self.table, hands[seat], trick), live, self.special)

    def child(self, node: FlyNode, token: FlyToken) -> FlyNode:
        """The node after the action of ``token``."""
        if type(node) is FlyDeal:
            return self._declare(node, token)
        seat, hands, score, trick, live, active = node
        if TYPE_CHECKING:  # a node with a seat to move, and in the play a token is a card index
            assert seat is not None
            assert isinstance(token, int)
        table = self.table
        allowed = playable_mask(table, hands[seat], trick)
        after, played, new_score, new_trick = play_card(
            table, score, active, hands, trick, seat, allowed, _PLAYS[token]
        )
        if not new_trick:  # the trick is complete: its cards are dead
            live &= ~(1 << token)
            for gone in trick:
                live &= ~(1 << gone)
        return (after, played, new_score, new_trick, live, active)

    def order(self, node: FlyNode, tokens: Sequence[FlyToken], hero: int) -> Sequence[FlyToken]:
        """``tokens`` in the order an alpha-beta search should try them: a card that puts the mover's side
        (the hero, or the rest against him) on top of the trick first, then the others, each in tie order."""
        if type(node) is FlyDeal or not node[3]:
            return tokens
        seat, _, score, trick, _, _ = node
        seats = trick_seats(score, len(trick) + 1)
        mine = seat == hero
        winning: list[FlyToken] = []
        losing: list[FlyToken] = []
        for card in tokens:
            if TYPE_CHECKING:  # in the play a token is a card index
                assert isinstance(card, int)
            taker = seats[winning_position(self.table, (*trick, card))]
            (winning if (taker == hero) == mine else losing).append(card)
        return winning + losing

    def bounds(self, node: FlyNode, seat: int) -> tuple[int, int] | None:
        """The least and most ``seat`` can score by the end of the deal, at a trick's start where no record can
        reach zero any more (see ``_counts_only``): there its score rises with the tricks it takes, from none to
        all those left. Without the privilege of the A♠ (FLY-7.1) the trumps narrow that (FLY-6.6, every card
        being played by the deal's end): each trump of ``seat`` above every other live trump wins the trick it
        falls in, and the trumps one other seat holds above all of ``seat``'s win as many tricks it cannot take."""
        if type(node) is FlyDeal:
            return None
        mover, hands, score, trick, _, active = node
        if mover is None or trick or not active[seat] or not self._counts_only(score, active):
            return None
        left = TRICKS_PER_DEAL - len(score.completed)
        sure, lost = (0, 0) if self.special else self._sure_tricks(hands, seat)
        other = next((each for each, on in enumerate(active) if on and each != seat), seat)
        ends = []
        for taken in (sure, left - lost):
            counts = [0] * len(active)
            counts[other] += left - taken
            counts[seat] += taken
            ends.append(self._final_scores(score, active, tuple(counts))[seat])
        return ends[0], ends[1]

    def _sure_tricks(self, hands: tuple[int, ...], seat: int) -> tuple[int, int]:
        """The tricks ``seat``'s trumps win for sure, and the most any one other seat's trumps win over it."""
        trumps, weaker = SUIT_MASKS[self.table.trump], self.tables.weaker
        mine = hands[seat] & trumps
        others = 0
        for hand in hands:
            others |= hand
        others &= trumps & ~mine
        sure = sum(1 for card in _cards(mine) if not others & ~weaker[card])
        lost = max(
            sum(1 for card in _cards(hand & trumps) if not mine & ~weaker[card])
            for each, hand in enumerate(hands)
            if each != seat
        )
        return sure, lost

    def key(self, node: FlyNode) -> Hashable | None:
        """At the start of a trick, the relative position (see the module's text); else None."""
        if type(node) is FlyDeal:
            return node  # the deal in the exchange: equal by position
        seat, hands, score, trick, live, _ = node
        if trick or seat is None:
            return None
        places = self._places_of(hands, live)
        # the seat the A♠ bonus is still due to: the A♠ may be gone from the hands, and from the exchange on the
        # holder differs from branch to branch
        due = score.ace_holder if score.ace_bonus_due else None
        found = (score.records, len(score.completed), due)
        records = self._records.get(found)
        if records is None:
            records = self._records[found] = self._reachable(score)
        return (seat, records, tuple(map(bool, score.tricks_taken)), due, places)

    # --- max^n by trick counts ----------------------------------------------------------------------

    def maxn_below(self, search: Search[FlyNode, FlyToken]) -> Callable[[FlyNode], tuple[int, ...] | None]:
        """The max^n search of a trick's start where no record can reach zero any more (see ``_counts_only``),
        for :class:`fly_rules.solve.Search`: there each seat's final score rises with the tricks it takes from
        here and with nothing else, so every seat to move picks what gives it most tricks, the first in tie
        order among equals, and the search need only count tricks [FLY-8.2] [FLY-8.4] [FLY-9.1] [FLY-9.2].

        It stores per seat to lead and places (per suit, who holds its live cards in rank order, the special
        cards marked: the places of :meth:`key`) the tricks each seat takes from there, whatever the records; a
        count becomes scores through :func:`~fly_rules.fly.scoring.take_trick` (``_final_scores``). Cards are
        played by :func:`~fly_rules.fly.play.playable_mask` and tricks won by
        :func:`~fly_rules.fly.play.winning_position`, with no score in between. Positions are counted as the
        generic search counts them, but for the last trick, one position: one card each, every play is forced.
        """
        players = self.table.rules.players
        shared = _Counting(
            search.table,
            search.visits,
            1 << 62 if search.limit is None else search.limit,
            search.limit_reached,
            tuple(1 << _BITS * seat for seat in range(players)),
        )
        shifts = tuple(_BITS * seat for seat in range(players))
        worlds: dict[tuple[int, ...], _World] = {}  # the hands as dealt to the play → its search

        def below(node: FlyNode) -> tuple[int, ...] | None:
            if type(node) is FlyDeal:
                return None
            seat, hands, score, trick, live, active = node
            if trick or seat is None or not self._counts_only(score, active):
                return None
            dealt = self._dealt(hands, score)
            world = worlds.get(dealt)
            if world is None:
                world = worlds[dealt] = self._count_search(shared, dealt, self._turns_of(score))
            lead, counted, budget = world
            before = counted()
            budget[0] = shared.limit - shared.visits[0] + before + 1  # this node, counted already, is counted again
            try:
                packed = lead(seat, live)
            finally:
                shared.visits[0] += counted() - before - 1
            return self._final_scores(score, active, tuple(packed >> shift & _MASK for shift in shifts))

        return below

    @staticmethod
    def _dealt(hands: tuple[int, ...], score: Score) -> tuple[int, ...]:
        """The hands as they were at the first lead: ``hands`` and the cards each seat has played since."""
        dealt = list(hands)
        for trick in score.completed:
            for seat, card in trick:
                dealt[seat] |= 1 << card
        return tuple(dealt)

    def _count_search(self, shared: _Counting, hands: tuple[int, ...], turns: tuple[tuple[int, ...], ...]) -> _World:
        """The search by trick counts in a play whose hands were ``hands`` at the first lead (see
        :meth:`maxn_below`): there a seat's hand is its hand then among the live cards, so the live cards alone
        tell a position, and the cards of a trick in a set, with its leader, tell the trick. It returns the tricks
        each seat takes from a trick's start (seat to lead, live cards) on, packed (:data:`_BITS` bits a seat);
        the positions it has counted so far; and the count past which it raises (to set before each search)."""
        stored, _, _, over, ones = shared
        get, table, bits = stored.get, self.table, _BIT
        place, last, run, win = self._count_parts(hands, turns, ones)
        known: tuple[dict[int, int], ...] = tuple({} for _ in hands)  # per seat to lead: live cards → the counts
        wins: tuple[dict[int, int], ...] = tuple({} for _ in hands)  # per leader: a trick's cards → its winner
        count, budget = 0, [0]  # positions counted here, and the count past which the limit is reached

        def lead(seat: int, live: int) -> int:
            nonlocal count
            count += 1
            if count > budget[0]:  # checked at trick starts only: one comes within a trick of any position
                raise over()
            found = known[seat].get(live)
            if found is not None:
                return found
            seats = turns[seat]
            if live.bit_count() == len(seats):
                return last(known[seat], seat, live)
            key = (seat, place(live))
            found = get(key)
            if found is None:
                shift, top, found = _BITS * seat, -1, 0
                runs: dict[int, list[int]] = {}  # the classes of this trick's legal cards
                for card in run(runs, playable_mask(table, hands[seat] & live, ()), live):
                    value = follow(seats, 1, live, (card,), bits[card], runs, wins[seat])
                    if (mine := value >> shift & _MASK) > top:
                        top, found = mine, value
                stored[key] = found
            known[seat][live] = found
            return found

        def follow(
            seats: tuple[int, ...],
            at: int,
            live: int,
            trick: tuple[int, ...],
            played: int,
            runs: _Runs,
            won: dict[int, int],
        ) -> int:
            # the same in the middle of a trick, seats[at] to play: live as at the trick's start (each seat plays
            # once to it), played the mask of trick
            nonlocal count
            size = len(seats)
            while True:  # a seat with one class of plays plays it here (a position all the same)
                count += 1
                seat = seats[at]
                allowed = playable_mask(table, hands[seat] & live, trick)
                cards = runs.get(allowed) or run(runs, allowed, live)
                at += 1
                if len(cards) > 1 or at == size:
                    break
                trick, played = trick + (cards[0],), played | bits[cards[0]]  # noqa: RUF005 - quicker than (*trick, c)
            shift, top, best = _BITS * seat, -1, 0
            if at < size:
                for card in cards:
                    value = follow(seats, at, live, trick + (card,), played | bits[card], runs, won)  # noqa: RUF005
                    if (mine := value >> shift & _MASK) > top:
                        top, best = mine, value
                return best
            for card in cards:  # the trick is complete: its cards are dead
                gone = played | bits[card]
                taker = seats[won.get(gone) or win(won, gone, (*trick, card))]
                value = lead(taker, live ^ gone) + ones[taker]
                if (mine := value >> shift & _MASK) > top:
                    top, best = mine, value
            return best

        return lead, lambda: count, budget

    def _count_parts(self, hands: tuple[int, ...], turns: tuple[tuple[int, ...], ...], ones: tuple[int, ...]) -> _Parts:
        """The pieces of :meth:`_count_search` off its hot path: the key of a trick's start, the last trick's taker,
        the classes of legal cards and the place of a trick's winning card, each of the last three stored in the
        dict it is given."""
        table, special, representatives = self.table, self.special, self.tables.representatives
        ranked = tuple(tuple(card for card in self.tables.tie_order if card // 13 == suit) for suit in range(4))
        owners = {card: seat + 1 for seat, hand in enumerate(hands) for card in range(52) if hand >> card & 1}
        codes: tuple[dict[int, int], ...] = tuple({} for _ in range(4))  # per suit: its live cards → their code
        clubs, diamonds, hearts, spades = codes

        def code(suit: int, part: int) -> int:
            """The owners of a suit's live cards (``part``, its 13 bits) in rank order, 4 bits a card (the seat
            plus one, 8 more for a special card), after a leading 1."""
            found = 1
            for card in ranked[suit]:
                if part >> card % 13 & 1:
                    found = found << 4 | owners[card] | (8 if special >> card & 1 else 0)
            codes[suit][part] = found
            return found

        def place(live: int) -> tuple[int, int, int, int]:
            """The cards' places: per suit, who holds its live cards in rank order (the relative hands of
            :meth:`~fly_rules.engine.solving.RankTables.relative`, the special cards marked)."""
            return (
                clubs.get(live & 8191) or code(0, live & 8191),
                diamonds.get(live >> 13 & 8191) or code(1, live >> 13 & 8191),
                hearts.get(live >> 26 & 8191) or code(2, live >> 26 & 8191),
                spades.get(live >> 39) or code(3, live >> 39),
            )

        def last(known: dict[int, int], seat: int, live: int) -> int:
            """The last trick, one position: one card each, every play forced (playable_mask is never empty)."""
            seats = turns[seat]
            cards = tuple([(hands[each] & live).bit_length() - 1 for each in seats])
            taken = known[live] = ones[seats[winning_position(table, cards)]]
            return taken

        def run(runs: dict[int, list[int]], allowed: int, live: int) -> list[int]:
            if allowed & allowed - 1:
                found = runs[allowed] = representatives(allowed, live, special)
            else:  # one legal card: a class of its own
                found = runs[allowed] = [allowed.bit_length() - 1]
            return found

        def win(won: dict[int, int], gone: int, cards: tuple[int, ...]) -> int:
            found = won[gone] = winning_position(table, cards) - len(cards)  # counted from the end: never 0
            return found

        return place, last, run, win

    def _counts_only(self, score: Score, active: tuple[bool, ...]) -> bool:
        """Whether, at a trick's start, every active seat's record is out of reach of zero for the rest of the deal
        (:meth:`_reachable`): then no record reaches zero or overshoots, the deal is played out, and each seat's
        final score rises strictly with the tricks it takes from here, and depends on nothing else the play does
        [FLY-8.2] [FLY-8.3] [FLY-8.4] [FLY-9.1] [FLY-9.2]."""
        due = score.ace_holder if score.ace_bonus_due else None
        found = (active, score.records, len(score.completed), due)
        regime = self._counted.get(found)
        if regime is None:
            regime = self._counted[found] = all(
                record == -1 for record, on in zip(self._reachable(score), active, strict=True) if on
            )
        return regime

    def _final_scores(self, score: Score, active: tuple[bool, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        """The scores at the end of the deal when each seat takes ``counts[seat]`` more tricks from ``score`` (a
        trick's start where :meth:`_counts_only` holds), by :func:`~fly_rules.fly.scoring.take_trick`: there the
        order of the tricks changes no record, and which cards they hold changes nothing [FLY-8.2] [FLY-8.4]."""
        found = (active, score.records, score.tricks_taken, score.ace_holder, score.ace_bonus_due, counts)
        scores = self._finals.get(found)
        if scores is None:
            for seat, count in enumerate(counts):
                for _ in range(count):
                    score = take_trick(self.table, score, active, seat, ())
            assert score.over  # the counts make up the deal's tricks
            assert not score.winners  # out of reach: nobody at zero
            scores = self._finals[found] = tuple(-record for record in score.records)
        return scores

    def _turns_of(self, score: Score) -> tuple[tuple[int, ...], ...]:
        """Per seat, the seats of a trick it leads, in play order (a seat out of the deal leads none) [FLY-6.2]."""
        following = score.next_in_play
        turns = self._turns.get(following)
        if turns is None:
            turns = self._turns[following] = tuple(
                trick_seats(score._replace(leader=seat), score.in_play) for seat in range(len(following))
            )
        return turns

    def _places_of(self, hands: tuple[int, ...], live: int) -> _Places:
        """The special cards' places and the relative hands at a trick's start (the hands alone give the live
        cards there)."""
        places = self._places.get(hands)
        if places is None:
            specials = tuple(self.tables.place_among(card, live) for card in self._specials)
            places = self._places[hands] = (specials, self.tables.relative(hands, live))
        return places

    def _reachable(self, score: Score) -> tuple[int, ...]:
        """The records as the key holds them: a record the rest of the deal cannot bring to zero (or past it) is
        written -1, for its seat's future is then the same from any such record [FLY-8.2] [FLY-9.1] [FLY-9.2]."""
        reach = (TRICKS_PER_DEAL - len(score.completed)) * self._trick_value
        holder = score.ace_holder if score.ace_bonus_due else None
        return tuple(
            -1 if record > reach + (self._bonus if seat == holder else 0) else record
            for seat, record in enumerate(score.records)
        )

    def actions(self, node: FlyNode) -> list[tuple[Action | SwapTrump, FlyToken]]:
        """Every legal action with the token of its class: in play, the weakest card of its run."""
        if type(node) is FlyDeal:
            return [(action, action) for action in node.legal_actions()]
        seat, hands, _, trick, live, _ = node
        if TYPE_CHECKING:
            assert seat is not None
        allowed = playable_mask(self.table, hands[seat], trick)
        tables = self.tables
        return [
            (_PLAYS[card], tables.run_of(card, allowed, live, self.special))
            for card in tables.tie_order
            if allowed >> card & 1
        ]

    def action(self, node: FlyNode, token: FlyToken) -> Action | SwapTrump:
        """A card index becomes its :class:`~fly_rules.actions.Play`."""
        return _PLAYS[token] if isinstance(token, int) else token

    def _declare(self, deal: FlyDeal, token: FlyToken) -> FlyNode:
        """The node after a declaration (a token of the exchange, never a card index)."""
        assert not isinstance(token, int)  # the exchange's tokens are its actions, off the play's hot path
        after = deal.apply(token)
        return after if after.phase is Phase.EXCHANGE else self._play_node(after)
