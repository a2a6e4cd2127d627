"""Write the conformance vectors: ``specs/conformance/vectors.jsonl`` and ``digests.json``.

    python scripts/conformance_vectors.py           # regenerate; fails if a case's outcome changed
                                                    # while the game's RULES_VERSION did not
    python scripts/conformance_vectors.py --check   # only check that the files are up to date

The cases come from three places:

- the worked examples of ``tests/catalogue.toml`` (each one a case, its expectations already checked by
  tests/docs/test_catalogue.py);
- the cases written below from the spec, each naming the rules it checks and why in one line;
- for every option value (every Literal value and bool of FlyRules and DreyfusRules, and each numeric
  option at a changed value) that no written case shows, a case found by random play from seeded
  deals: the first position and moves at which the outcome under that value differs from the outcome
  under the default (or under the context the option needs, such as ``stop_mode="end_of_deal"`` for
  ``tie_break``). Every option case is proved here: the same case under the default gives another outcome.

The expected outcomes are this engine's answers (fly_rules.conformance.answers); the digests keep each
outcome per game and rules version, so that an outcome cannot change without ``RULES_VERSION`` changing.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import sys
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fly_rules import dreyfus, fly  # noqa: E402
from fly_rules.cards import DECK_48, Card  # noqa: E402
from fly_rules.conformance.answers import answer, rules_of  # noqa: E402
from fly_rules.conformance.vectors import DIGESTS, VECTORS, digest, outcome  # noqa: E402
from fly_rules.dreyfus.deal import contract_of  # noqa: E402
from fly_rules.engine import shuffled  # noqa: E402
from fly_rules.notation import (  # noqa: E402
    dump_history,
    parse_position,
    position_of,
)
from fly_rules.notation.games import option_value, options_of, rules_version  # noqa: E402
from fly_rules.notation.position import _option as _text  # noqa: E402  (an option's value as a position writes it)
from fly_rules.spec import load_rules  # noqa: E402

KIT = ROOT / "specs" / "conformance"
Case = dict[str, Any]

# ------------------------------------------------------------------ positions


def fly_position(
    hands: Sequence[str],
    trump: str,
    *,
    dealer: int = 0,
    records: Sequence[int] | None = None,
    stock: str | None = None,
    **options: Any,
) -> tuple[dict[str, Any], str]:
    """The rules object and the dealt position of a Fly deal; the stock is the rest of the deck in
    canonical order unless given."""
    spec = {"players": len(hands), **options}
    rules: Any = rules_of("fly", spec)
    if stock is None:
        used = {Card.parse(c) for hand in hands for c in hand.split()} | {Card.parse(trump)}
        stock = " ".join(str(card) for card in rules.deck if card not in used)
    deal = fly.new_deal(rules, hands=list(hands), trump_card=trump, stock=stock, dealer=dealer, records=records)
    return spec, position_of(deal)


def dreyfus_position(
    seed: int,
    *,
    contract: str | None = "S",
    dealer: int = 0,
    upper: Sequence[int] = (0, 0, 0),
    lower: Sequence[int] = (0, 0, 0),
    number: int = 0,
    **options: Any,
) -> tuple[dict[str, Any], str]:
    """The rules object and the dealt position of a Dreyfus deal from the seeded pack of ``seed``."""
    rules: Any = rules_of("dreyfus", options)
    fields = dreyfus.new_match(rules, seed=seed, dealer=dealer).deal.start_fields()
    deal = dreyfus.new_deal(rules, fields["hands"], fields["talon"], contract, dealer, upper, lower, deal_number=number)
    return dict(options), position_of(deal)


_TOKEN = re.compile(r"^(s|f|x(?:[2-9TJQKA][CDHS])+|p[2-9TJQKA][CDHS]|w[2-9TJQKA][CDHS])$")


def move_text(token: str) -> str:
    """A position-notation move (REC-5.2) as action text (REC-3.2)."""
    if not _TOKEN.match(token):
        raise ValueError(f"not a move: {token!r}")
    if token in ("s", "f"):
        return "stand" if token == "s" else "fold"
    cards = [token[i : i + 2] for i in range(1, len(token), 2)]
    verb = {"x": "exchange", "p": "play", "w": "swap-trump"}[token[0]]
    if verb == "exchange":
        cards = [str(c) for c in sorted(Card.parse(c) for c in cards)]
    return f"{verb} {' '.join(cards)}"


def expand_moves(case: Case, moves: str) -> list[str]:
    """``moves`` (position-notation tokens, space separated) as action texts; ``*`` is the first legal
    action in the kit's order, ``*N`` the first legal action N times over, ``^`` the last legal action."""
    texts: list[str] = []
    for token in moves.split():
        if token == "^":
            got = answer(
                {
                    "cmd": "legal",
                    "game": case["game"],
                    "rules": case["rules"],
                    "position": case["position"],
                    "moves": texts,
                }
            )
            texts.append(got["legal"][-1])
            continue
        repeat = int(token[1:] or 1) if token.startswith("*") else 0
        if not repeat:
            texts.append(move_text(token))
            continue
        for _ in range(repeat):
            got = answer(
                {
                    "cmd": "legal",
                    "game": case["game"],
                    "rules": case["rules"],
                    "position": case["position"],
                    "moves": texts,
                }
            )
            texts.append(got["legal"][0])
    return texts


def play_case(
    case_id: str,
    why: str,
    covers: str,
    rules_and_position: tuple[dict[str, Any], str],
    moves: str = "",
    game: str = "fly",
) -> Case:
    """A ``play`` case."""
    spec, position = rules_and_position
    case: Case = {
        "id": case_id,
        "game": game,
        "kind": "play",
        "rules": spec,
        "position": position,
        "why": why,
        "covers": covers.split(),
    }
    case["moves"] = expand_moves(case, moves)
    return case


# ------------------------------------------------------------------ the written cases

# Seat 0 holds the trump ace, seat 1 the A♠; hearts are trump; seat 2 deals, so seat 0 declares first.
P3 = ["7C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KC AC 7H"]
# The same without the A♠ (it lies in the stock).
P_ZERO = ["7C 8C 9C TC AH", "7D 8D 9D KH QS", "JC QC KC AC 7H"]


def fly_cases() -> list[Case]:
    """Cases written from specs/fly.md and cards.md."""
    f = fly_position
    return [
        play_case(
            "fly-start-declarations",
            "The player left of the dealer declares first: stand, fold, or exchange 1 to 5 cards, listed in the kit's order.",
            "FLY-4.1 FLY-4.2 FLY-4.3 FLY-1.2 CARD-3.1 CARD-3.2 CARD-4.1 REC-5.1 REC-5.2 REC-5.3 REC-3.2",
            f(P3, "8H", dealer=2),
        ),
        play_case(
            "fly-ace-of-spades-may-not-fold", "The A♠ holder is offered no fold.", "FLY-5.2", f(P3, "8H", dealer=2), "s"
        ),
        play_case(
            "fly-ace-of-spades-fold-refused",
            "The A♠ holder's fold is refused.",
            "FLY-5.2",
            f(P3, "8H", dealer=2),
            "s f",
        ),
        play_case(
            "fly-play-before-declaring",
            "A card played before every declaration is made is refused.",
            "FLY-4.1",
            f(P3, "8H", dealer=2),
            "pAH",
        ),
        play_case(
            "fly-exchange-draws-from-the-top",
            "An exchange discards the cards and deals the same number from the top of the stock.",
            "FLY-4.4 FLY-3.4 FLY-4.6",
            f(P3, "8H", dealer=2),
            "x7C8C9C s s",
        ),
        play_case(
            "fly-exchange-own-cards-only",
            "Exchanging a card not in the hand is refused.",
            "FLY-4.3 FLY-4.4",
            f(P3, "8H", dealer=2),
            "x7D",
        ),
        play_case(
            "fly-folded-hand-is-dead",
            "A folded hand takes no part: the play skips it and its record does not move.",
            "FLY-5.1 FLY-8.6 FLY-6.1",
            f(P3, "8H", dealer=2),
            "s s f pAH",
        ),
        play_case(
            "fly-first-lead",
            "After the declarations the first active player left of the dealer leads.",
            "FLY-6.1 FLY-6.2",
            f(P3, "8H", dealer=2),
            "s s s",
        ),
        play_case(
            "fly-follow-suit",
            "A player who can follow the suit led must.",
            "FLY-6.3 FLY-6.2",
            f(["7C 8C 9C TC AH", "7D 8D 9D KD AS", "JC QC 7S AC 7H"], "8H", dealer=2),
            "s s s p7C p7D",
        ),
        play_case(
            "fly-trump-when-void",
            "A player void in the suit led who holds a trump must trump.",
            "FLY-6.4",
            f(["7C 8C 9C TC AH", "7D 8D 9D KH AS", "JD QD KD AD 7H"], "8H", dealer=2),
            "s s s p7C p7D",
        ),
        play_case(
            "fly-void-in-suit-and-trumps",
            "A player void in the suit led and in trumps may play any card.",
            "FLY-6.5",
            f(["7C 8C 9C TC AH", "7D 8D 9D KD AS", "JD QD KS AD 7S"], "8H", dealer=2),
            "s s s p7C p7D",
        ),
        play_case(
            "fly-highest-trump-wins",
            "A trump beats the highest card of the suit led; the trick's winner leads next.",
            "FLY-6.6 FLY-1.4 CARD-1.3",
            f(["7C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KS AD 7H"], "8H", dealer=2),
            "s s s p7C pKH pJC",
        ),
        play_case(
            "fly-deal-played-out",
            "Five tricks end the deal; each trick writes off one, the A♠ holder's first trick five more, a trickless player adds the remise.",
            "FLY-6.7 FLY-8.1 FLY-8.2 FLY-8.3 FLY-8.4 FLY-1.5 FLY-10.2 FLY-2.2 FLY-1.1",
            f(P3, "8H", dealer=2),
            "s s s *15",
        ),
        play_case(
            "fly-ace-holder-no-trick",
            "The A♠ holder who takes no trick adds ten in all.",
            "FLY-8.5",
            f(["7C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KC AC 7H"], "8S", dealer=2),
            "s s s *15",
        ),
        play_case(
            "fly-exact-zero-wins",
            "A record brought to exactly zero wins the match at once; the deal stops.",
            "FLY-9.1 FLY-10.1",
            f(P_ZERO, "8H", dealer=2, records=[1, 25, 25]),
            "s s s pAH pKH p7H",
        ),
        play_case(
            "fly-nothing-after-the-end",
            "After the deal (and match) is over no action is accepted.",
            "FLY-10.3",
            f(P_ZERO, "8H", dealer=2, records=[1, 25, 25]),
            "s s s pAH pKH p7H p7C",
        ),
        play_case(
            "fly-overshoot-resets",
            "A trick that would take a record below zero sets it back to the starting record.",
            "FLY-9.2 FLY-8.2",
            f(P3, "8H", dealer=2, records=[1, 25, 25], trick_value=2),
            "s s s pAH pKH p7H",
        ),
        play_case(
            "fly-ace-exemption",
            "The A♠ bonus that overshoots zero with the holder's first trick stops at zero and wins.",
            "FLY-9.3 FLY-8.3",
            f(["7C 8C 9C TC AD", "7D 8D 9D KH AS", "JC QC KC AC 7S"], "8H", dealer=0, records=[25, 3, 25]),
            "s s s pAS p7S p7C",
        ),
        play_case(
            "fly-ace-of-spades-led-to-trump-ace",
            "The A♠ may be played to a led trump ace instead of following, and takes the trick.",
            "FLY-7.1 FLY-7.2 FLY-7.3 FLY-7.6",
            f(P3, "8H", dealer=2),
            "s s s pAH",
        ),
        play_case(
            "fly-ace-of-spades-ordinary",
            "Played to anything but a led trump ace, the A♠ is an ordinary spade.",
            "FLY-7.4",
            f(["7C 8C 9C TC 7S", "7D 8D 9D KH AS", "JC QC KC AC 7H"], "8H", dealer=2),
            "s s s p7S pAS p7H",
        ),
        play_case(
            "fly-spades-trump",
            "With spades trump the A♠ is simply the highest trump.",
            "FLY-7.5",
            f(["7C 8C 9C TC KS", "7D 8D 9D TD AS", "JC QC KC AC 7S"], "8S", dealer=2),
            "s s s pKS",
        ),
        play_case(
            "fly-revoke-adjudicated",
            "Under revoke_mode=penalize a revoke stands and is penalised at the end of the deal.",
            "FLY-11.2 FLY-11.3",
            f(["7C 8C 9C TC AH", "7D 8D 9D KD AS", "JC QC 7S AC 7H"], "8H", dealer=2, revoke_mode="penalize"),
            "s s s p7C p7D p7S *12",
        ),
        play_case(
            "fly-illegal-play-refused",
            "By default a play that breaks a duty is refused.",
            "FLY-11.1 FLY-6.3",
            f(["7C 8C 9C TC AH", "7D 8D 9D KD AS", "JC QC 7S AC 7H"], "8H", dealer=2),
            "s s s p7C p7D p7S",
        ),
        play_case(
            "fly-mouche-1718",
            "The 1718 preset: ace below the jack, deal anticlockwise, the dealer may take the turn-up, a flush wins.",
            "FLY-12.2 FLY-1.2 FLY-3.3",
            ({"players": 4, "preset": "mouche_1718"}, _mouche_position()),
        ),
        play_case(
            "fly-flush-wins",
            "Under flush_wins five cards of one suit win the deal outright.",
            "FLY-12.1",
            f(["7C 8C 9C TC JC", "7D 8D 9D KH AS", "QC KC AC 7H JH"], "8H", dealer=2, flush_wins=True),
            "s s s",
        ),
        play_case(
            "fly-too-many-players",
            "A position with eight hands is refused: Fly is for 3 to 7 players.",
            "FLY-1.1",
            ({"players": 7}, _eight_hands()),
        ),
        play_case(
            "fly-card-outside-the-deck",
            "A 2 is not in the 36-card deck of four players.",
            "FLY-1.3 CARD-2.3 CARD-1.2",
            ({"players": 4}, "fly - 0 8H 2C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H/6S6D6H6C7S JD 25,25,25,25 - 1"),
        ),
        play_case(
            "fly-turnup-is-trump",
            "The turned-up card names trumps and is not drawn: the exchange never deals it.",
            "FLY-3.2 FLY-3.3 CARD-1.1",
            f(P3, "8H", dealer=2, stock="7S 8S"),
            "x7C8C s s",
        ),
        play_case(
            "fly-stock-runs-out",
            "An exchange larger than the stock left is refused under the default cap.",
            "FLY-4.5",
            f(P3, "8H", dealer=2, stock="7S 8S"),
            "x7C8C9C",
        ),
        play_case(
            "fly-four-players-deck",
            "Four players use the 36-card deck: 6s are in play.",
            "CARD-2.3 FLY-1.3",
            f(["6C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KC AC 7H", "6D 6H 6S 7S 8S"], "8H", dealer=3),
            "s s s s",
        ),
        play_case(
            "fly-five-players-deck",
            "Five to seven players use the 52-card deck: 2s are in play.",
            "CARD-2.1 FLY-1.3",
            f(
                ["2C 8C 9C TC AH", "7D 8D 9D KH AS", "JC QC KC AC 7H", "6D 6H 6S 7S 8S", "2D 3D 4D 5D 2H"],
                "8H",
                dealer=4,
            ),
            "s s s s s",
        ),
        play_case(
            "fly-ace-holder-no-trick-spades-trump",
            "With spades trump and the ace below the jack the A♠ holder can take no trick: he adds ace_no_trick_penalty_trumps.",
            "FLY-8.5 FLY-7.5 FLY-1.4",
            f(
                ["KS QS JS TS 9S", "AS 7C 8C 9C TC", "7D 8D 9D TD JD"],
                "8S",
                dealer=2,
                ace_rank="below_jack",
                ace_no_trick_penalty_trumps=4,
            ),
            "s s s pKS pAS p7D pQS p7C p8D pJS p8C p9D pTS p9C pTD p9S pTC pJD",
        ),
        play_case(
            "fly-ace-of-spades-kept-discardable",
            "By default the A♠ may be discarded in an exchange.",
            "FLY-4.7",
            f(P3, "8H", dealer=0),
            "s",
        ),
    ]


def _mouche_position() -> str:
    rules = fly.FlyRules.preset("mouche_1718", players=4)
    deal = fly.new_match(rules, seed=5, dealer=0).deal
    return position_of(fly.new_deal(rules, **deal.start_fields()))


def _eight_hands() -> str:
    hands = [
        "2C3C4C5C6C",
        "7C8C9CTCJC",
        "QCKCAC2D3D",
        "4D5D6D7D8D",
        "9DTDJDQDKD",
        "AD2H3H4H5H",
        "6H7H8H9HTH",
        "JHQHKHAH2S",
    ]
    return f"fly - 0 3S {'/'.join(hands)} 4S 25,25,25,25,25,25,25,25 - 1"


def dreyfus_cases() -> list[Case]:
    """Cases written from specs/dreyfus.md."""
    d = dreyfus_position

    def case(case_id: str, why: str, covers: str, position: tuple[dict[str, Any], str], moves: str = "") -> Case:
        return play_case(case_id, why, covers, position, moves, game="dreyfus")

    return [
        case(
            "drf-start-exchange",
            "Eldest exchanges first: stand, or discard фоски and draw as many from the talon.",
            "DRF-1.1 DRF-1.2 DRF-4.1 DRF-4.2 DRF-4.4 DRF-1.3",
            d(3),
        ),
        case(
            "drf-exchange-draws-from-the-top",
            "An exchange draws from the top of the talon and is written above.",
            "DRF-4.3 DRF-4.5 DRF-2.3",
            d(3),
            "^ s s",
        ),
        case(
            "drf-opening-lead", "After the exchange eldest leads to the first trick.", "DRF-5.1 DRF-6.1", d(3), "s s s"
        ),
        case(
            "drf-follow-suit",
            "A player who can follow the suit led must; the leader's suit sets the duty.",
            "DRF-6.2 DRF-5.3",
            d(3),
            "s s s *1",
        ),
        case(
            "drf-trick-and-next-lead",
            "The trick goes to the highest trump or the highest card led; its winner leads next.",
            "DRF-6.6 DRF-5.2 DRF-6.5 DRF-6.3 DRF-6.4",
            d(3),
            "s s s *3",
        ),
        case(
            "drf-twelve-tricks-scored",
            "After twelve tricks overtricks are written below and undertricks above.",
            "DRF-6.7 DRF-7.1 DRF-7.2 DRF-7.3",
            d(3),
            "s s s *36",
        ),
        case(
            "drf-nothing-after-the-deal",
            "After the twelfth trick no action is accepted.",
            "DRF-1.4",
            d(3),
            "s s s *36 s",
        ),
        case(
            "drf-reaching-ten-below",
            "Reaching ten below ends the match once the deal is played out; the losers pay.",
            "DRF-8.1 DRF-8.2 DRF-9.1 DRF-9.2",
            d(3, lower=(9, 9, 9)),
            "s s s *36",
        ),
        case(
            "drf-no-trump-deal",
            "The fifth deal of the cycle has no trumps and no trump marker.",
            "DRF-3.2 DRF-3.1 DRF-3.3",
            d(3, contract=None, number=4),
            "s s s *3",
        ),
        case(
            "drf-irregular-deal",
            "A position whose hands are not twelve cards each is refused.",
            "DRF-2.4",
            (
                {},
                "dreyfus - 0 S 5C8CTCAC9DKD8H9HTHJH9S/4C7CJC6D7D8DJD3S6S7S8SAS/6C3D5DQDAD3H7HQH4S5SJSKS "
                "QS3C6H4D9CKCTSTD5HQCKH4HAH 0,0,0/0,0,0 - 1 0",
            ),
        ),
        case(
            "drf-two-not-in-play",
            "The twos are not in the Dreyfus deck.",
            "DRF-1.2",
            (
                {},
                "dreyfus - 0 S 2C8CTCAC9DKD8H9HTHJH9SQS/4C7CJC6D7D8DJD3S6S7S8SAS/6C3D5DQDAD3H7HQH4S5SJSKS "
                "3C6H4D9CKCTSTD5HQCKH4HAH 0,0,0/0,0,0 - 1 0",
            ),
        ),
        case(
            "drf-revoke-penalised",
            "Under the table preset a revoke stands; the revoker writes ten above and nothing below.",
            "DRF-10.1",
            ({"preset": "table"}, d(3, revoke_mode="penalize")[1]),
            "s s s *36",
        ),
        case(
            "drf-information",
            "What every seat sees: the two of trumps as marker, no discards, no talon.",
            "DRF-11.1 DRF-4.6",
            d(3),
            "^ s s",
        ),
        case("drf-new-match-records", "A new match starts every record at zero.", "DRF-8.4", d(4)),
    ]


def other_cases() -> list[Case]:
    """Deal, shuffle, purchase and history cases."""
    cases: list[Case] = []
    fly36 = " ".join(str(c) for c in fly.FlyRules(players=4).deck)
    for players, covers in ((3, "CARD-2.4"), (4, "CARD-2.3"), (5, "CARD-2.1")):
        rules = fly.FlyRules(players=players)
        pack = " ".join(str(c) for c in reversed(list(rules.deck)))
        cases.append(
            {
                "id": f"fly-deal-{players}-players",
                "game": "fly",
                "kind": "deal",
                "rules": {"players": players},
                "pack": pack,
                "dealer": 0,
                "why": f"{players} players: one card at a time from the dealer's left until each holds five; the next card is the turn-up, the rest the stock.",
                "covers": ["FLY-3.1", "FLY-3.2", "FLY-3.4", "FLY-1.3", covers],
            }
        )
    cases.append(
        {
            "id": "fly-deal-48-cards",
            "game": "fly",
            "kind": "deal",
            "rules": {"players": 5, "deck_size": 48},
            "pack": " ".join(str(c) for c in fly.FlyRules(players=5, deck_size=48).deck),
            "dealer": 2,
            "why": "The 48-card deck has no 2s.",
            "covers": ["CARD-2.2", "FLY-1.3"],
        }
    )
    cases.append(
        {
            "id": "fly-deal-wrong-pack",
            "game": "fly",
            "kind": "deal",
            "rules": {"players": 3},
            "pack": fly36,
            "dealer": 0,
            "why": "Three players deal the 32-card deck, not 36 cards.",
            "covers": ["FLY-1.3"],
        }
    )
    cases.append(
        {
            "id": "fly-deck-of-40",
            "game": "fly",
            "kind": "deal",
            "rules": {"players": 4, "deck_size": 40},
            "pack": fly36,
            "dealer": 0,
            "why": "No deck has 40 cards.",
            "covers": ["CARD-2.5"],
        }
    )
    pack48 = " ".join(str(c) for c in DECK_48)
    cases.append(
        {
            "id": "drf-deal-packets",
            "game": "dreyfus",
            "kind": "deal",
            "rules": {},
            "pack": pack48,
            "dealer": 1,
            "deal_number": 1,
            "why": "Packets of three to eldest, the next player, the dealer and the talon; the last card dealt tops the talon; the second deal is clubs.",
            "covers": ["DRF-2.2", "DRF-2.3", "DRF-3.1", "DRF-3.3"],
        }
    )
    for game, seed in (("fly", 7), ("dreyfus", 7)):
        cases.append(
            {
                "id": f"{'drf' if game == 'dreyfus' else 'fly'}-shuffle-seed-{seed}",
                "game": game,
                "kind": "shuffle",
                "rules": {"players": 4} if game == "fly" else {},
                "seed": seed,
                "deal_number": 0,
                "why": "The engine's seeded shuffle and first dealer by lot, for engines that replay our matches.",
                "covers": ["FLY-2.1" if game == "fly" else "DRF-2.1", "REC-2.2"],
            }
        )
    for recorded, covers in ((True, ["DRF-4.5"]), (False, ["DRF-10.2"])):
        cases.append(
            {
                "id": f"drf-purchase-{'recorded' if recorded else 'forgotten'}",
                "game": "dreyfus",
                "kind": "purchase",
                "rules": {},
                "bought": 2,
                "recorded_before_lead": recorded,
                "why": "Two cards bought are written above"
                + ("." if recorded else ", plus three when not recorded before the lead."),
                "covers": covers,
            }
        )
    cases += history_cases()
    return cases


def _history_text() -> str:
    """The canonical history of a short explicit Fly deal: three stand, one trick played."""
    rules = fly.FlyRules(players=3)
    deal = fly.new_deal(
        rules, hands=P3, trump_card="8H", stock="JD QD KD AD 9H TH JH QH 7S 8S 9S TS JS QS KS TD", dealer=2
    )
    start = deal.start_fields()
    for action in [fly.Stand()] * 3 + [fly.Play(card) for card in ("AH", "AS", "7H")]:
        deal = deal.apply(action)
    return dump_history(deal, start=start)


def history_cases() -> list[Case]:
    """Histories of an explicit deal: one that replays, and the refusals of the history format."""
    good = _history_text()
    items = [
        (
            "rec-history-replays",
            good,
            "A history of an explicit deal replays to the same state as its moves.",
            "REC-1.1 REC-1.2 REC-1.3 REC-2.1 REC-2.4 REC-3.1 REC-3.2 REC-3.3 REC-4.2",
        ),
        (
            "rec-history-unknown-key",
            good.replace("players = 3", 'players = 3\ncolour = "red"'),
            "A history with an unknown key is refused.",
            "REC-1.4",
        ),
        (
            "rec-history-wrong-seat",
            good.replace('"1: stand"', '"2: stand"'),
            "An action line names the seat to move.",
            "REC-3.3",
        ),
        (
            "rec-history-long-number",
            good.replace("dealer = 2\nhands", "dealer = " + "2" * 101 + "\nhands"),
            "A number of more than 100 digits is refused.",
            "REC-1.5",
        ),
        (
            "rec-history-not-canonical",
            good.replace("players = 3\n", "players = 3\n\n\n"),
            "A history that is not in canonical text still replays, and is known not to be canonical.",
            "REC-4.2",
        ),
        (
            "rec-history-seed-and-start",
            good.replace("players = 3", "players = 3\nseed = 7\ndealer = 2"),
            "A history with a start table states no seed or first dealer.",
            "REC-2.2",
        ),
        (
            "rec-history-default-option",
            good.replace("players = 3", 'players = 3\n[options]\nace_rank = "high"\n'),
            "Options list only values that differ from the defaults.",
            "REC-2.3",
        ),
        (
            "rec-history-bad-result",
            good + "\n[result]\nrecords = [25, 25, 25]\n",
            "A stated result must be the replay's; the refusal names the field.",
            "REC-4.1 REC-4.3",
        ),
        (
            "rec-history-deal-results",
            good.replace('trump_card = "8H"\nactions', 'trump_card = "8H"\nrecords = [1, 1, 1]\nactions'),
            "A deal's stated records must be the replay's.",
            "REC-3.4",
        ),
        (
            "rec-history-format",
            good.replace("version = 1", "version = 99"),
            "The format's version must be one the reader knows.",
            "REC-1.2",
        ),
    ]
    return [
        {
            "id": case_id,
            "game": "fly",
            "kind": "history",
            "rules": {"players": 3},
            "text": text,
            "why": why,
            "covers": covers.split(),
        }
        for case_id, text, why, covers in items
    ]


# ------------------------------------------------------------------ the catalogue

_TEST_RULE = re.compile(r"::test_(fly|drf|card|rec|trk)_(\d+)_(\d+)([a-z]?)_")


def catalogue_cases() -> list[Case]:
    """Every worked example of tests/catalogue.toml as a case: its dealt position and all its moves."""
    data = tomllib.loads((ROOT / "tests" / "catalogue.toml").read_text(encoding="utf-8"))
    cases = []
    for number, example in enumerate(data["example"], start=1):
        found = _TEST_RULE.search(example["test"])
        assert found, example["test"]
        prefix, section, rule, letter = found.groups()
        rule_id = f"{prefix.upper()}-{section}.{rule}{letter}"
        slug = re.sub(r"[^a-z0-9]+", "-", example["title"].lower()).strip("-")[:48].strip("-")
        head = {
            "id": f"catalogue-{number:02d}-{slug}",
            "why": f"Catalogue: {example['title']}.",
            "covers": [rule_id],
            "catalogue": example["test"],
        }
        if "position" not in example:  # a settlement worked out from final records
            expression = example["expect"][0][0]
            upper, lower, winner = _settle_arguments(expression)
            cases.append(
                {
                    **head,
                    "game": "dreyfus",
                    "kind": "settle",
                    "rules": {},
                    "upper": list(upper),
                    "lower": list(lower),
                    "winner": winner,
                }
            )
            continue
        fields = example["position"].split(" ")
        game = fields[0]
        moves = [] if fields[7] == "-" else fields[7].split(",")
        moves += example.get("moves", "").split()
        dealt = [*fields[:7], "-", "?", *fields[9:]]
        start = _dealt(game, dealt)
        options = {} if fields[1] == "-" else dict(item.split("=") for item in fields[1].split(";"))
        spec: dict[str, Any] = {name: _plain(value) for name, value in options.items()}
        if game == "fly":
            spec = {"players": len(fields[4].split("/")), **spec}
        cases.append(
            {
                **head,
                "game": game,
                "kind": "play",
                "rules": spec,
                "position": start,
                "moves": [move_text(m) for m in moves],
            }
        )
    return cases


def _settle_arguments(expression: str) -> tuple[Any, Any, Any]:
    """The records and winner of a catalogue expectation ``dreyfus.settle(RULES, UPPER, LOWER, WINNER)`` (the
    rules first, or in the former order last)."""
    inner = expression.removeprefix("dreyfus.settle(").removesuffix(")")
    parts = [p for p in re.split(r",?\s*dreyfus\.DreyfusRules\([^)]*\),?\s*", inner) if p.strip()]
    upper, lower, winner = ast.literal_eval(parts[0])
    return upper, lower, winner


def _plain(value: str) -> Any:
    if value.startswith("["):
        return [_plain(v) for v in value[1:-1].split(",") if v]
    if value in ("true", "false"):
        return value == "true"
    return int(value) if value.isdigit() else value


def _dealt(game: str, fields: list[str]) -> str:
    """The dealt position of a position's fields, the turn filled in."""
    for turn in range(8):
        text = " ".join([*fields[:8], str(turn), *fields[9:]])
        try:
            parse_position(text)
        except ValueError:
            continue
        return text
    raise ValueError(f"no turn fits {fields}")


# ------------------------------------------------------------------ the option values

# Options whose effect needs another option set: the value is proved against this context, not the default.
CONTEXT: dict[tuple[str, str], dict[str, Any]] = {
    ("fly", "tie_break"): {"stop_mode": "end_of_deal"},
    ("fly", "start_record"): {"stop_mode": "end_of_deal"},
    ("fly", "ace_no_trick_penalty_trumps"): {"ace_rank": "below_jack"},
    ("dreyfus", "revoke_upper_penalty"): {"revoke_mode": "penalize"},
    ("dreyfus", "revoke_penalty_per"): {"revoke_mode": "penalize"},
    ("dreyfus", "revoke_adds_undertricks"): {"revoke_mode": "penalize"},
    ("dreyfus", "shortfall_floor_zero"): {"settlement": "net_of_winner_upper"},
}
CHANGED: dict[str, dict[str, list[Any]]] = {
    "fly": {
        "deck_size": [32, 48, 52],
        "deal_packets": [[3, 2]],
        "max_exchange": [3],
        "total_exchange_cap": [4],
        "start_record": [10],
        "trick_value": [2],
        "ace_bonus": [3],
        "ace_bonus_trumps": [5],
        "remise": [3],
        "ace_no_trick_penalty": [4],
        "ace_no_trick_penalty_trumps": [4],
        "max_deals": [1],
    },
    "dreyfus": {
        "par_tricks": [3],
        "target_lower": [5],
        "contract_cycle": [["H", "NT"]],
        "deal_packet_size": [4],
        "fosk_ranks": [[3, 4, 5, 6, 7, 8]],
        "max_deals": [1],
        "revoke_upper_penalty": [5],
        "forgot_record_penalty": [5],
    },
}
# The kind of case that shows an option: most show in play; these only in dealing or in a purchase.
DEAL_OPTIONS = {
    ("fly", "deal_packets"),
    ("fly", "deck_size"),
    ("dreyfus", "deal_packet_size"),
    ("dreyfus", "contract_cycle"),
}
PURCHASE_OPTIONS = {("dreyfus", "forgot_record_penalty")}


def option_values(game: str) -> Iterator[tuple[str, Any]]:
    """Every option value to show: each Literal value and bool other than the default, each numeric option at a
    changed value."""
    import attrs  # noqa: PLC0415

    cls: Any = fly.FlyRules if game == "fly" else dreyfus.DreyfusRules
    default: Any = cls() if game == "dreyfus" else cls(players=4)
    choices = getattr(cls, "_CHOICES", {})
    for field in attrs.fields(cls):
        name = field.name
        if not field.init or name == "players" or name.startswith("_"):
            continue
        current = option_value(getattr(default, name))
        if name in CHANGED[game]:
            values = CHANGED[game][name]
        elif name == "trump_duty":
            values = ["overtrump", "overtrump_or_free"]
        elif isinstance(current, bool):
            values = [not current]
        elif name in choices:
            values = [option_value(v) for v in choices[name] if v != getattr(default, name)]
        else:
            literal = field.type if isinstance(field.type, str) else ""
            values = [v for v in re.findall(r"[\"']([a-z_]+)[\"']", literal) if v != current]
        if not values:
            raise ValueError(f"{game} option {name}: no changed value to show")
        for value in values:
            yield name, value


def _with(spec: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**spec, **changes}


def _without_option(case: Case, name: str, context: dict[str, Any]) -> Case:
    """The same case under the default value of ``name`` (the context kept); the position rewritten for those rules."""
    spec = {k: v for k, v in case["rules"].items() if k != name} | context
    other = {**case, "rules": spec}
    if case["kind"] == "play":
        other["position"] = _rewrite_options(case["game"], case["position"], spec)
    return other


def _rewrite_options(game: str, position: str, spec: dict[str, Any]) -> str:
    rules: Any = rules_of(game, spec)
    options = options_of(rules)
    fields = position.split(" ")
    fields[1] = ";".join(f"{k}={_text(v)}" for k, v in options.items()) or "-"
    return " ".join(fields)


def differs_from_default(case: Case, name: str) -> bool:
    """Whether the case's outcome changes when option ``name`` takes its default value (the proof)."""
    context = CONTEXT.get((case["game"], name), {})
    other = _without_option(case, name, context)
    try:
        return outcome(other, answer) != outcome(case, answer)
    except ValueError:  # the position cannot even be written under the default: the outcomes differ
        return True


def _policy(rng: random.Random, legal: list[str], fold: float) -> str:
    """A random action, folding with probability ``fold`` when allowed, standing often."""
    if "fold" in legal and rng.random() < fold:
        return "fold"
    if "stand" in legal and rng.random() < 0.3:
        return "stand"
    return rng.choice(legal)


def search_option(game: str, name: str, value: Any, tries: int = 300) -> Case:
    """The first position and moves, from seeded deals played at random, where ``name=value`` changes the outcome."""
    context = CONTEXT.get((game, name), {})
    spec_extra = {**context, name: value}
    for seed in range(tries):
        rng = random.Random(f"{game}:{name}:{value}:{seed}")
        if (game, name) in PURCHASE_OPTIONS:
            case = {
                "id": "",
                "game": game,
                "kind": "purchase",
                "rules": spec_extra,
                "bought": 2,
                "recorded_before_lead": False,
            }
        elif (game, name) in DEAL_OPTIONS:
            case = _deal_case(game, spec_extra, seed)
        else:
            case = _random_play(game, spec_extra, seed, rng)
        if case is None:
            continue
        if (game, name) in PURCHASE_OPTIONS or (game, name) in DEAL_OPTIONS:
            if differs_from_default(case, name):
                return case
            continue
        moves = case["moves"]
        for length in range(len(moves) + 1):
            prefix = {**case, "moves": moves[:length]}
            if differs_from_default(prefix, name):
                return prefix
    raise ValueError(f"{game} {name}={value!r}: no case found that changes the outcome")


def _deal_case(game: str, spec: dict[str, Any], seed: int) -> Case:
    players = 4 if game == "fly" else 3
    rules: Any = rules_of(game, {"players": players, **spec} if game == "fly" else spec)
    deck = rules.deck if game == "fly" else DECK_48
    pack = " ".join(str(c) for c in shuffled(deck, seed, 0))
    case: Case = {
        "id": "",
        "game": game,
        "kind": "deal",
        "rules": {"players": players, **spec} if game == "fly" else spec,
        "pack": pack,
        "dealer": seed % players,
    }
    if game == "dreyfus":
        case["deal_number"] = seed % 7
    return case


def _random_play(game: str, spec: dict[str, Any], seed: int, rng: random.Random) -> Case | None:
    if game == "fly":
        players = 7 if seed % 3 == 0 else 4 if seed % 3 == 1 else 3
        full = {"players": players, **spec}
        try:
            rules: Any = rules_of("fly", full)
        except ValueError:
            return None
        fields = fly.new_match(rules, seed=seed, dealer=seed % players).deal.start_fields()
        fields["records"] = [rng.choice([1, 2, 3, 6, 11, 25, 25, 25, 25]) for _ in range(players)]
        position = position_of(fly.new_deal(rules, **fields))
    else:
        full = dict(spec)
        rules = rules_of("dreyfus", full)
        fields = dreyfus.new_match(rules, seed=seed, dealer=seed % 3).deal.start_fields()
        number = rng.randrange(6)
        lower = [max(0, rules.target_lower - rng.choice([10, 5, 3, 2, 1])) for _ in range(3)]
        upper = [rng.choice([0, 3, 12]) for _ in range(3)]
        contract = contract_of(rules, number)
        position = position_of(
            dreyfus.new_deal(
                rules, fields["hands"], fields["talon"], contract, seed % 3, upper, lower, deal_number=number
            )
        )
    case: Case = {"id": "", "game": game, "kind": "play", "rules": full, "position": position, "moves": []}
    moves: list[str] = []
    fold = rng.choice([0.0, 0.3, 0.8])
    for _ in range(200):
        got = answer({"cmd": "legal", **{k: case[k] for k in ("game", "rules", "position")}, "moves": moves})
        legal = got.get("legal", [])
        if not legal:
            break
        moves.append(_policy(rng, legal, fold))
    case["moves"] = moves
    return case


def option_cases(written: list[Case]) -> list[Case]:
    """A case for every option value that no written case shows (proved against the default)."""
    cases = []
    for game in ("fly", "dreyfus"):
        for name, value in option_values(game):
            shown = [
                c
                for c in written
                if c["game"] == game and c["rules"].get(name) == value and differs_from_default(c, name)
            ]
            if shown:
                shown[0].setdefault("options", []).append(f"{name}={_text(value)}")
                continue
            case = search_option(game, name, value)
            short = "drf" if game == "dreyfus" else "fly"
            slug = re.sub(r"[^a-z0-9]+", "-", f"{name}-{_text(value)}".lower()).strip("-")
            context = CONTEXT.get((game, name), {})
            given = f" (with {', '.join(f'{k}={_text(v)}' for k, v in context.items())})" if context else ""
            case["id"] = f"{short}-option-{slug}"
            case["why"] = (
                f"{name}={_text(value)}{given} changes this outcome: the same {case['kind']} under "
                f"{name}'s default gives another."
            )
            case["covers"] = option_rules(game, name)
            case["options"] = [f"{name}={_text(value)}"]
            cases.append(case)
    return cases


_RULES = load_rules(ROOT / "specs")


def option_rules(game: str, name: str) -> list[str]:
    """The rules whose Options field names ``name``."""
    prefix = "FLY-" if game == "fly" else "DRF-"
    found = [r.id for r in _RULES.values() if r.id.startswith(prefix) and any(f"`{name}`" in o for o in r.options)]
    fallback = {"max_deals": "FLY-10.1" if game == "fly" else "DRF-8.3"}
    return found or [fallback[name]]


# ------------------------------------------------------------------ writing


def all_cases() -> list[Case]:
    """Every case, with its rules version and expected outcome, in file order."""
    written = catalogue_cases() + fly_cases() + dreyfus_cases() + other_cases()
    cases = written + option_cases(written)
    seen: set[str] = set()
    finished = []
    for case in cases:
        assert case["id"] not in seen, case["id"]
        seen.add(case["id"])
        expected = outcome(case, answer)
        assert "error" not in expected, (case["id"], expected)
        if "refused" in expected and expected["refused"]["rule"] not in case["covers"]:
            case["covers"].append(expected["refused"]["rule"])
        ordered = {
            "id": case["id"],
            "rules_version": rules_version(case["game"]),
            "game": case["game"],
            "kind": case["kind"],
            "rules": case["rules"],
        }
        ordered |= {k: v for k, v in case.items() if k not in ordered and k not in ("why", "covers", "options")}
        ordered |= {"why": case["why"], "covers": sorted(set(case["covers"]))}
        if case.get("options"):
            ordered["options"] = sorted(set(case["options"]))
        ordered["expected"] = expected
        finished.append(ordered)
    missing = sorted({r for r, rule in _RULES.items() if not rule.retired} - {r for c in finished for r in c["covers"]})
    if missing:
        raise SystemExit(f"rules with no case: {' '.join(missing)}")
    return finished


def updated_digests(cases: list[Case], stored: dict[str, dict[str, dict[str, str]]]) -> dict[str, Any]:
    """The digests with this run's added; a changed outcome under an unchanged rules version is an error."""
    digests = json.loads(json.dumps(stored))
    changed = []
    for case in cases:
        by_id = digests.setdefault(case["game"], {}).setdefault(str(case["rules_version"]), {})
        new = digest(case["expected"])
        if by_id.get(case["id"], new) != new:
            changed.append(case["id"])
        by_id[case["id"]] = new
    if changed:
        raise SystemExit(
            "the outcome of these cases changed while RULES_VERSION did not (bump it, then rerun): " + " ".join(changed)
        )
    return digests


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate (or with --check compare) the vectors and digests."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = parser.parse_args(argv)
    cases = all_cases()
    text = "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases)
    digest_path = KIT / DIGESTS
    stored = json.loads(digest_path.read_text(encoding="utf-8")) if digest_path.exists() else {}
    digests = updated_digests(cases, stored)
    digest_text = json.dumps(digests, indent=1, sort_keys=True) + "\n"
    if args.check:
        stale = [
            p.name
            for p, t in ((KIT / VECTORS, text), (digest_path, digest_text))
            if not p.exists() or p.read_text(encoding="utf-8") != t
        ]
        if stale:
            print(f"out of date: {', '.join(stale)} (run scripts/conformance_vectors.py)")
            return 1
        print(f"{len(cases)} cases up to date")
        return 0
    KIT.mkdir(parents=True, exist_ok=True)
    (KIT / VECTORS).write_text(text, encoding="utf-8")
    digest_path.write_text(digest_text, encoding="utf-8")
    covered = {r for c in cases for r in c["covers"]}
    options = sum(len(c.get("options", [])) for c in cases)
    print(f"{len(cases)} cases, {len(covered)} rule IDs covered, {options} option values shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
