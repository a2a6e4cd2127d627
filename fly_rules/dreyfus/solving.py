"""Dreyfus's search kernel: the play of a deal on bitmasks, through the rule-section functions [DRF-6.1]
[DRF-6.2] [DRF-6.6] [DRF-7.2] [DRF-7.3] [DRF-10.1].

:mod:`fly_rules.solve` walks a deal through this kernel (see :class:`fly_rules.engine.solving.SearchKernel`).
In the exchange a node is the :class:`~fly_rules.dreyfus.DreyfusDeal` itself; from the first lead a node is a
bare tuple ``(seat, hands, trick, leader, tricks, score, legal, live, scores)`` and a card is played by
:func:`~fly_rules.dreyfus.play.play_card`, which scores the trick it completes and the deal's end: the search
never scores anything itself. Touching cards (no live card between them) are one class of plays; a position at
the start of a trick is stored under the places its hands hold among the live cards of each suit, the leader,
the tricks taken and the revokes: what its future depends on.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, TypeAlias, cast

from fly_rules.actions import Action, Play
from fly_rules.cards import ACE_HIGH, ALL_CARDS, SUIT_MASKS
from fly_rules.dreyfus.deal import HAND_SIZE
from fly_rules.dreyfus.play import play_card
from fly_rules.dreyfus.scoring import Score, end_of_deal
from fly_rules.dreyfus.state import DreyfusDeal
from fly_rules.engine import Phase
from fly_rules.engine.solving import rank_tables
from fly_rules.tricks import trick_winner

__all__ = ["DreyfusKernel", "DreyfusNode", "DreyfusToken", "PlayNode"]

PlayNode: TypeAlias = tuple[
    int | None,
    tuple[int, int, int],
    tuple[int, ...],
    int,
    tuple[tuple[int, tuple[int, ...]], ...],
    Score,
    int,
    int,
    tuple[int, int, int],
]
"""A search node from the first lead: ``(seat to move or None, hands, trick, leader, tricks, score, legal cards,
live cards, scores)``."""
DreyfusNode: TypeAlias = DreyfusDeal | PlayNode
"""A search node of Dreyfus: the deal itself in the exchange, else a :data:`PlayNode`."""
DreyfusToken: TypeAlias = Action | int
"""A move of the search: an action in the exchange, a card index in the play."""

_PLAYS = tuple(Play(card) for card in ALL_CARDS)
_PLAY = Phase.PLAY
_SUITS = SUIT_MASKS
_TRICKS = HAND_SIZE


class DreyfusKernel:
    """The search kernel of one Dreyfus deal.

    Args:
        deal: any position of the deal.
    """

    def __init__(self, deal: DreyfusDeal) -> None:
        self.table = deal.table
        self.rules = deal.table.rules
        self.tables = rank_tables(ACE_HIGH)
        self._places: dict[tuple[int, ...], tuple[int, ...]] = {}  # the hands at a trick's start → their places
        self._trumps: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}  # (hands, seat) → _sure_tricks

    def node(self, state: DreyfusDeal) -> DreyfusNode:
        """The deal itself in the exchange; from the first lead, the bare tuple."""
        if state.phase is Phase.EXCHANGE:
            return state
        return self._play_node(state)

    def _play_node(self, deal: DreyfusDeal) -> PlayNode:
        live = deal.hand_masks[0] | deal.hand_masks[1] | deal.hand_masks[2]
        for card in deal.trick_cards:
            live |= 1 << card
        return (
            deal.to_move,
            deal.hand_masks,
            deal.trick_cards,
            deal.leader,
            deal.past_tricks,
            deal.score,
            deal.legal_mask,
            live,
            self._scores(deal.to_move is None, deal.score),
        )

    def mover(self, node: DreyfusNode) -> int | None:
        """The seat to move."""
        return node.to_move if type(node) is DreyfusDeal else node[0]

    def scores(self, node: DreyfusNode) -> tuple[int, ...]:
        """Each seat's lower record minus its upper record [DRF-9.1], during the play as the deal's end would
        write them now (:func:`~fly_rules.dreyfus.scoring.end_of_deal` on the tricks so far, DRF-7.3): so the
        change from here to the end is the same whatever tricks were taken before, unless a seat may still
        revoke (DRF-10.1), and the key leaves the tricks taken out."""
        return node.scores if type(node) is DreyfusDeal else node[8]

    def _scores(self, over: bool, score: Score) -> tuple[int, int, int]:
        upper, lower = score.upper, score.lower
        if not over:
            upper, lower = end_of_deal(self.rules, upper, lower, score.tricks_taken, score.revokes)
        return (lower[0] - upper[0], lower[1] - upper[1], lower[2] - upper[2])

    def children(self, node: DreyfusNode) -> list[tuple[DreyfusToken, DreyfusNode]]:
        """One child per class of plays (or per exchange choice), in tie order."""
        if type(node) is DreyfusDeal:
            out: list[tuple[DreyfusToken, DreyfusNode]] = []
            for action in node.legal_actions():
                after = node.apply(action)
                out.append((action, after if after.phase is Phase.EXCHANGE else self._play_node(after)))
            return out
        child = self.child
        return [(card, child(node, card)) for card in self.tables.representatives(node[6], node[7], 0)]

    def tokens(self, node: DreyfusNode) -> Sequence[DreyfusToken]:
        """The tokens of :meth:`children`, without the children."""
        if type(node) is DreyfusDeal:
            return list(node.legal_actions())
        return self.tables.representatives(node[6], node[7], 0)

    def child(self, node: DreyfusNode, token: DreyfusToken) -> DreyfusNode:
        """The node after the action of ``token``."""
        if type(node) is DreyfusDeal:
            assert not isinstance(token, int)  # the exchange's tokens are its actions, off the play's hot path
            then = node.apply(token)
            return then if then.phase is Phase.EXCHANGE else self._play_node(then)
        seat, hands, trick, leader, tricks, score, legal, live, now = node
        if TYPE_CHECKING:  # a node with a seat to move, and in the play a token is a card index
            assert seat is not None
            assert isinstance(token, int)
        phase, played, new_trick, after, new_leader, new_legal, new_tricks, new_score = play_card(
            self.table, _PLAYS[token], seat, legal, hands, trick, leader, tricks, score
        )
        over = phase is not _PLAY
        scores = now if new_score is score else self._scores(over, new_score)
        if not new_trick:  # the trick is complete: its cards are dead
            live &= ~(1 << token)
            for gone in trick:
                live &= ~(1 << gone)
        return (None if over else after, played, new_trick, new_leader, new_tricks, new_score, new_legal, live, scores)

    def order(self, node: DreyfusNode, tokens: Sequence[DreyfusToken], hero: int) -> Sequence[DreyfusToken]:
        """``tokens`` in the order an alpha-beta search should try them: a lead of the highest live card of
        a suit first (it wins unless trumped), then from the weakest; later in the trick, a card that puts
        the mover's side (the hero, or the rest against him) on top of the trick first."""
        if type(node) is DreyfusDeal:
            return tokens
        seat, trick, leader, live = node[0], node[2], node[3], node[7]
        cards = cast("Sequence[int]", tokens)  # in the play the tokens are card indices
        if not trick:
            weaker = self.tables.weaker
            tops: list[DreyfusToken] = [
                card for card in cards if live & _SUITS[card // 13] & ~weaker[card] == 1 << card
            ]
            return tops + [card for card in cards if card not in tops]
        trump = self.table.trump
        mine = seat == hero
        winning: list[DreyfusToken] = []
        losing: list[DreyfusToken] = []
        for card in cards:
            taker = (leader + trick_winner((*trick, card), trump, ACE_HIGH)) % 3
            (winning if (taker == hero) == mine else losing).append(card)
        return winning + losing

    def bounds(self, node: DreyfusNode, seat: int) -> tuple[int, int] | None:
        """The least and most ``seat`` can score by the end of the deal: unless revokes may come, its score
        (see :meth:`scores`) rises by one for each trick it takes from here (DRF-7.2, DRF-7.3), so by 0 to
        the tricks left. At a trick's start the trumps narrow that (DRF-6.6, every card being played by the
        deal's end): each trump of ``seat`` above every other live trump wins the trick it falls in, and the
        trumps one other seat holds above all of ``seat``'s win as many tricks ``seat`` cannot take."""
        if type(node) is DreyfusDeal or node[0] is None or self.table.penalize:
            return None
        now = node[8][seat]
        left = _TRICKS - len(node[4])
        trump = self.table.trump
        if trump is None or node[2]:
            return now, now + left
        found = self._trumps.get((node[1], seat))
        if found is None:
            found = self._trumps[(node[1], seat)] = self._sure_tricks(node[1], seat, _SUITS[trump])
        return now + found[0], now + left - found[1]

    @staticmethod
    def _sure_tricks(hands: tuple[int, int, int], seat: int, trumps: int) -> tuple[int, int]:
        """The tricks ``seat``'s trumps win for sure, and the most any one other seat's trumps win over it
        (ace high: a higher index is a higher trump)."""
        mine = hands[seat] & trumps
        others = (hands[0] | hands[1] | hands[2]) & trumps & ~mine
        sure = (mine >> others.bit_length()).bit_count()
        above = mine.bit_length()
        lost = max(((hands[other] & trumps) >> above).bit_count() for other in range(3) if other != seat)
        return sure, lost

    def key(self, node: DreyfusNode) -> Hashable | None:
        """At the start of a trick, the relative position (see the module's text); else None."""
        if type(node) is DreyfusDeal:
            return node  # the deal in the exchange: equal by position
        seat, hands, trick, _, _, score, _, live, _ = node
        if trick or seat is None:
            return None
        places = self._places.get(hands)  # at a trick's start the hands alone give the live cards
        if places is None:
            places = self._places[hands] = self.tables.relative(hands, live)
        if self.table.penalize:  # a revoke to come takes back overtricks already written (DRF-10.1)
            return (seat, score.tricks_taken, score.revokes, places)
        return (seat, places)

    def actions(self, node: DreyfusNode) -> list[tuple[Action, DreyfusToken]]:
        """Every legal action with the token of its class: in play, the weakest card of its run."""
        if type(node) is DreyfusDeal:
            return [(action, action) for action in node.legal_actions()]
        legal, live = node[6], node[7]
        tables = self.tables
        return [(_PLAYS[card], tables.run_of(card, legal, live, 0)) for card in tables.tie_order if legal >> card & 1]

    def action(self, node: DreyfusNode, token: DreyfusToken) -> Action:
        """A card index becomes its :class:`~fly_rules.actions.Play`."""
        return _PLAYS[token] if isinstance(token, int) else token
