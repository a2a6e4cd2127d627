"""Sphinx extension: the ``sample-deal`` directive, an annotated deal told step by step from the engine.

The directive names a game, a table and a seed, and lists the moves in the position notation's move
tokens (``s`` stand, ``f`` fold, ``x7C8C`` exchange, ``pAH`` play)::

    ```{sample-deal}
    :game: fly
    :players: 4
    :seed: 386
    :dealer: 0

    s x7C9D f s pAH p7H ...
    ```

When the site is built it deals the first deal of a match with that seed, plays the moves through the
engine and writes, in words and pictures: the hands dealt, each declaration or purchase, every card of
every trick with the duty that made it legal, who took each trick and what it did to the records, and
the scoring at the end. It ends with a ``{doctest}`` block that replays the moves and states the
result, which ``sphinx-build -b doctest`` runs. A move the rules refuse, or a narration that does not
add up to the engine's records, is a build error, so the story cannot drift from the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from catalogue import figure, move_code, namespace
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from fly_rules import Card, dreyfus, fly
from fly_rules.svg import deal_picture


def _cards(cards: Any) -> str:
    return " ".join(card.symbol for card in cards)


def _number(count: int) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven")
    return words[count] if count < len(words) else str(count)


def _sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper case (nothing else changed), a full stop."""
    return text[:1].upper() + text[1:] + "."


def _suit_name(card: Card) -> str:
    return card.suit.name.lower()


def play_reason(deal: Any, seat: int, card: Card, trick: list[tuple[int, Card]], rule: str) -> str:
    """Why ``seat`` could play ``card`` to ``trick`` (the cards already in it), in words with the rule.

    ``rule`` is the game's rule prefix (``FLY`` or ``DRF``); ``deal`` is the deal before the card.
    """
    if not trick:
        return f"leads the {card.symbol}"
    led = trick[0][1]
    hand = deal.hands[seat]
    trump = deal.trump
    ids = {"FLY": ("FLY-6.3", "FLY-6.4", "FLY-6.5"), "DRF": ("DRF-6.2", "DRF-6.3", "DRF-6.5")}[rule]
    if rule == "FLY" and card == Card.parse("AS") and trump is not None and led.suit is trump and led.rank.label == "A":
        holding = [c.symbol for c in hand if c.suit is trump]
        although = f", although he holds the {' '.join(holding)}" if holding else ""
        return (
            f"plays the A♠ on the led ace of trumps{although}: the A♠ may be played to a led ace of trumps "
            "whatever else its holder has, and it takes the trick ({rule}`FLY-7.2`, {rule}`FLY-7.3`)"
        )
    if card.suit is led.suit:
        return f"follows suit with the {card.symbol} ({{rule}}`{ids[0]}`)"
    if trump is not None and card.suit is trump:
        return f"has no {_suit_name(led)} and must trump: the {card.symbol} ({{rule}}`{ids[1]}`)"
    if trump is not None and any(c.suit is trump for c in hand):  # only a revoke could do this
        raise ValueError(f"seat {seat} plays {card.symbol} holding a trump")
    neither = f"neither {_suit_name(led)} nor trumps" if trump is not None else f"no {_suit_name(led)}"
    return f"has {neither}, and throws the {card.symbol} ({{rule}}`{ids[2]}`)"


def _moves(tokens: list[str], game: str) -> list[Any]:
    return [eval(move_code(token, game), namespace(None)) for token in tokens]


class _Story:
    """The Markdown of one sample deal, built up step by step."""

    def __init__(self, game: str, start: Any) -> None:
        self.game = game
        self.start = start
        self.lines: list[str] = []

    def say(self, *paragraphs: str) -> None:
        for paragraph in paragraphs:
            self.lines += [paragraph, ""]

    def picture(self, state: Any, title: str, caption: str, *, last_trick: bool = False) -> None:
        self.lines += figure(deal_picture(state, title=title, last_trick=last_trick), caption)


def _declarations(
    story: _Story, moves: list[Any], words: Callable[[Any, Any, Any], str], texts: tuple[str, str, str]
) -> tuple[Any, int]:
    """The picture of the dealt hands (its caption), the heading and the introduction of the declarations or
    purchases (``texts``), then each of them told by ``words(before, after, action)``. Returns the deal when
    play begins and the number of moves used."""
    dealt, heading, intro = texts
    deal, index = story.start, 0
    story.picture(deal, "Dealt", dealt)
    story.lines += [f"### {heading}", ""]
    story.say(intro)
    while deal.phase.value == "exchange":
        after = deal.apply(moves[index])
        story.say(words(deal, after, moves[index]))
        deal, index = after, index + 1
    return deal, index


def _fly_declaration(deal: Any, after: Any, action: Any) -> str:
    seat = deal.to_move
    holder = Card.parse("AS") in deal.hands[seat]
    if isinstance(action, fly.Fold):
        return f"Seat {seat} folds: his hand is dead for this deal and his record cannot change ({{rule}}`FLY-5.1`)."
    if isinstance(action, fly.Stand):
        note = " He holds the A♠, so folding is not open to him ({rule}`FLY-5.2`)." if holder else ""
        return f"Seat {seat} stands: he keeps his five cards and will play ({{rule}}`FLY-4.6`).{note}"
    drawn = after.hands[seat] - (deal.hands[seat] - action.cards)
    ace = Card.parse("AS")
    note = ""
    if ace in drawn:
        note = " He has drawn the A♠: he holds it when play begins, so he scores as its holder ({rule}`FLY-8.3`)."
    elif ace in action.cards:
        note = " He has thrown the A♠ away, and with it its bonus and its penalty ({rule}`FLY-4.7`)."
    return (
        f"Seat {seat} exchanges {_number(len(action.cards))}: he throws {_cards(action.cards)} face down and takes "
        f"{_cards(drawn)} from the top of the stock ({{rule}}`FLY-4.4`).{note}"
    )


def _trick_words(story: _Story, deal: Any, moves: list[Any], rule: str) -> tuple[Any, str]:
    """Play one trick's moves from ``deal``: the deal after it and the sentence that tells it."""
    trick: list[tuple[int, Card]] = []
    said = []
    for action in moves:
        seat, after = deal.to_move, deal.apply(action)  # the engine refuses a card first, naming its rule
        said.append(f"seat {seat} {play_reason(deal, seat, action.card, trick, rule)}")
        trick.append((seat, action.card))
        deal = after
    return deal, "; ".join(said)


def fly_story(start: Any, tokens: list[str]) -> list[str]:
    """The Markdown of a Fly sample deal: ``start`` is the dealt deal, ``tokens`` its moves."""
    story = _Story("fly", start)
    moves = _moves(tokens, "fly")
    players, dealer = start.players, start.dealer
    stock = len(start.stock)
    story.lines += ["### The deal", ""]
    story.say(
        f"{_number(players).capitalize()} players, so the deck has {stock + 5 * players + 1} cards "
        f"({{rule}}`FLY-1.3`). Seat {dealer} deals five cards to each player, one at a time, starting on his "
        f"left with seat {(dealer + 1) % players} ({{rule}}`FLY-3.1`). He turns up the next card, the "
        f"{start.trump_card.symbol}: "
        f"{start.trump.name.lower()} are trumps for this deal ({{rule}}`FLY-3.2`). It lies face up beside the "
        f"stock of the {stock} cards left, and nobody will take it ({{rule}}`FLY-3.3`). Everyone's record is "
        f"{start.records[0]} ({{rule}}`FLY-8.1`).",
        "The hands: " + "; ".join(f"seat {s}: {_cards(h)}" for s, h in enumerate(start.hands)) + ".",
    )
    holder = next((s for s, h in enumerate(start.hands) if Card.parse("AS") in h), None)
    if holder is not None:
        story.say(f"Seat {holder} has been dealt the A♠, the card this game is about.")
    elif start.trump_card != Card.parse("AS"):
        story.say("Nobody has been dealt the A♠, the card this game is about: it lies in the stock.")
    dealt = f"Dealt: seat {dealer} deals, the {start.trump_card.symbol} is turned up."
    intro = (
        "Starting on the dealer's left, each player in turn makes one declaration ({rule}`FLY-4.1`): "
        "exchange one to five cards with the stock, stand, or fold."
    )
    deal, index = _declarations(story, moves, _fly_declaration, (dealt, "The declarations", intro))
    active = [s for s in range(players) if deal.active[s]]
    leader = deal.to_move
    story.say(
        f"{_number(len(active)).capitalize()} players are in the deal. Seat {leader}, the first of them from the "
        f"dealer's left, leads to the first trick ({{rule}}`FLY-6.1`)."
    )
    story.picture(
        deal, "After the declarations", f"After the declarations: {len(active)} players play; seat {leader} leads."
    )
    story.lines += ["### The play", ""]
    story.say(
        "Each player must follow suit if he can, need not beat the card led, and must trump if he cannot "
        "follow ({rule}`FLY-6.3`, {rule}`FLY-6.4`). The highest trump takes the trick, else the highest card "
        "of the suit led, and the winner leads to the next ({rule}`FLY-6.6`). Each trick writes off one "
        "point from its winner's record at once ({rule}`FLY-8.2`)."
    )
    tricks = 0
    while not deal.is_over:
        before = deal
        deal, told = _trick_words(story, deal, moves[index : index + len(active)], "FLY")
        index += len(active)
        tricks += 1
        winner = deal.leader
        drop = before.records[winner] - deal.records[winner]
        card = next(c for s, c in deal.view(winner).tricks[-1] if s == winner)
        score = f"his record goes {before.records[winner]} → {deal.records[winner]}"
        if drop > start.rules.trick_value and before.tricks_taken[winner] == 0:
            score += (
                f": one for the trick and {drop - start.rules.trick_value} more because he holds the A♠ and this "
                "is his first trick ({rule}`FLY-8.3`)"
            )
        story.say(
            f"**Trick {tricks}.** {_sentence(told)} Seat {winner} takes the trick with the {card.symbol}; {score}."
        )
        caption = (
            f"Trick {tricks}: seat {winner} takes it with the {card.symbol}; his record is now {deal.records[winner]}."
        )
        story.picture(deal, f"Trick {tricks}", caption, last_trick=True)
    if index != len(moves):
        raise ValueError(f"{len(moves) - index} moves are left after the end of the deal")
    _fly_scoring(story, start, deal)
    return story.lines


def _fly_scoring(story: _Story, start: Any, end: Any) -> None:
    """The end of a Fly deal: each seat's record, and why, checked against the engine's."""
    rules = start.rules
    story.lines += ["### The scoring", ""]
    told = []
    for seat in range(start.players):
        first, last, taken = start.records[seat], end.records[seat], end.tricks_taken[seat]
        if not end.active[seat]:
            told.append(f"seat {seat} folded and stays at {last} ({{rule}}`FLY-8.6`)")
            expected = first
        elif taken:
            bonus = rules.ace_bonus_trumps if end.trump.name == "SPADES" else rules.ace_bonus
            extra = bonus if seat == end.ace_of_spades_holder else 0
            bonus_note = f", the A♠ bonus of {extra} included" if extra else ""
            told.append(f"seat {seat} took {_number(taken)} trick{'s' * (taken != 1)}: {first} → {last}{bonus_note}")
            expected = first - taken * rules.trick_value - extra
        elif seat == end.ace_of_spades_holder:
            told.append(
                f"seat {seat} held the A♠ and took no trick: ten points added, {first} → {last} ({{rule}}`FLY-8.5`)"
            )
            expected = first + rules.ace_no_trick_penalty
        else:
            told.append(f"seat {seat} took no trick: the remise of five, {first} → {last} ({{rule}}`FLY-8.4`)")
            expected = first + rules.remise
        if expected != last and end.winner is None:
            raise ValueError(f"the story says seat {seat} ends on {expected}, the engine says {last}")
    story.say(
        "When the fifth trick is complete the deal is scored. " + _sentence("; ".join(told)),
        "Nobody reached exactly 0, so the match goes on: the next deal is dealt by the player to the left "
        "of this dealer ({rule}`FLY-2.2`), and the first to bring his record to exactly 0 wins "
        "({rule}`FLY-9.1`)."
        if end.winner is None
        else f"Seat {end.winner} has reached exactly 0 and wins the match ({{rule}}`FLY-9.1`).",
    )


def _dreyfus_exchange(deal: Any, after: Any, action: Any) -> str:
    seat = deal.to_move
    if isinstance(action, dreyfus.Stand):
        return f"Seat {seat} stands: he buys nothing."
    drawn = after.hands[seat] - (deal.hands[seat] - action.cards)
    count = len(action.cards)
    return (
        f"Seat {seat} discards {_number(count)} low cards, {_cards(action.cards)} ({{rule}}`DRF-4.2`), and buys "
        f"{_number(count)} from the top of the talon: {_cards(drawn)} ({{rule}}`DRF-4.3`). Each card bought "
        f"costs a point in his upper record: {deal.upper[seat]} → {after.upper[seat]} ({{rule}}`DRF-4.5`)."
    )


def dreyfus_story(start: Any, tokens: list[str]) -> list[str]:
    """The Markdown of a Dreyfus sample deal: ``start`` is the dealt deal, ``tokens`` its moves."""
    story = _Story("dreyfus", start)
    moves = _moves(tokens, "dreyfus")
    dealer = start.dealer
    trumps = "no trumps" if start.trump is None else f"{start.trump.name.lower()} are trumps"
    story.lines += ["### The deal", ""]
    story.say(
        f"Seat {dealer} deals the 48 cards in packets of three: to seat {(dealer + 1) % 3}, seat {(dealer + 2) % 3}, "
        "himself and the talon, four times round, so each player and the talon get twelve "
        "({rule}`DRF-2.2`). In the first deal of a match "
        + trumps
        + " ({rule}`DRF-3.1`)"
        + (
            "."
            if start.trump is None
            else f", and the two of {start.trump.name.lower()} is laid out to show it ({{rule}}`DRF-1.3`)."
        ),
        "The hands: " + "; ".join(f"seat {s}: {_cards(h)}" for s, h in enumerate(start.hands)) + ".",
    )
    dealt = f"Dealt: seat {dealer} deals; {trumps}; twelve cards in the talon."
    intro = (
        "In turn from the dealer's left, each player may discard low cards (3 to 10) and buy as many from "
        "the talon ({rule}`DRF-4.1`)."
    )
    deal, index = _declarations(story, moves, _dreyfus_exchange, (dealt, "The purchase", intro))
    story.say(f"Seat {deal.to_move}, the eldest, leads to the first trick ({{rule}}`DRF-5.1`).")
    story.picture(
        deal,
        "After the purchase",
        f"After the purchase: bought {', '.join(map(str, deal.bought))}; seat {deal.to_move} leads.",
    )
    story.lines += ["### The play", ""]
    story.say(
        "Follow suit if you can, trump if you cannot, and you never have to beat the cards already played "
        "({rule}`DRF-6.2`, {rule}`DRF-6.3`, {rule}`DRF-6.4`). Four tricks are par; each trick over four is "
        "written below at once ({rule}`DRF-7.2`)."
    )
    tricks = 0
    while not deal.is_over:
        before = deal
        deal, told = _trick_words(story, deal, moves[index : index + 3], "DRF")
        index, tricks = index + 3, tricks + 1
        winner = deal.leader
        card = next(c for s, c in deal.tricks[-1] if s == winner)
        note = ""
        if deal.lower[winner] > before.lower[winner]:
            note = f"; it is his trick number {deal.tricks_taken[winner]}, so one point below: {deal.lower[winner]}"
        story.say(f"**Trick {tricks}.** {_sentence(told)} Seat {winner} takes it with the {card.symbol}{note}.")
        story.picture(
            deal, f"Trick {tricks}", f"Trick {tricks}: seat {winner} takes it with the {card.symbol}.", last_trick=True
        )
    if index != len(moves):
        raise ValueError(f"{len(moves) - index} moves are left after the end of the deal")
    scores = []
    for seat in range(3):
        taken = deal.tricks_taken[seat]
        if taken == 4:
            scores.append(f"seat {seat} took four, par: nothing more ({{rule}}`DRF-7.1`)")
        elif taken > 4:
            scores.append(f"seat {seat} took {_number(taken)}: {taken - 4} below")
        else:
            scores.append(f"seat {seat} took {_number(taken)}: {4 - taken} short, written above ({{rule}}`DRF-7.3`)")
    records = "; ".join(
        f"seat {s} upper {u}, lower {lo}" for s, (u, lo) in enumerate(zip(deal.upper, deal.lower, strict=True))
    )
    story.lines += ["### The scoring", ""]
    story.say(
        "After the twelfth trick: " + "; ".join(scores) + f". The records stand at: {records}.",
        "Nobody has ten below yet, so the match goes on with clubs as trumps, dealt by the next player "
        "({rule}`DRF-3.1`, {rule}`DRF-2.1`). When someone reaches ten below the deal is played out and he "
        "wins; each other player pays him his upper record and what he lacks of ten below ({rule}`DRF-8.1`, "
        "{rule}`DRF-9.1`)."
        if deal.winner is None
        else f"Seat {deal.winner} has reached ten below and wins the match ({{rule}}`DRF-8.2`).",
    )
    return story.lines


STORIES: dict[str, Callable[[Any, list[str]], list[str]]] = {"fly": fly_story, "dreyfus": dreyfus_story}


def new_deal(game: str, players: int, seed: int, dealer: int) -> tuple[Any, str]:
    """The first deal of a match of ``game`` from ``seed`` with that dealer, and the Python that makes it."""
    if game == "fly":
        code = f"fly.new_match(fly.FlyRules(players={players}), seed={seed}, dealer={dealer}).deal"
    else:
        code = f"dreyfus.new_match(dreyfus.DreyfusRules(), seed={seed}, dealer={dealer}).deal"
    return eval(code, {"fly": fly, "dreyfus": dreyfus}), code


def sample_deal_markdown(game: str, players: int, seed: int, dealer: int, tokens: list[str]) -> str:
    """The MyST source of a sample deal: the story with its pictures, then the doctest that replays it."""
    start, code = new_deal(game, players, seed, dealer)
    lines = STORIES[game](start, tokens)
    end = start
    for action in _moves(tokens, game):
        end = end.apply(action)
    records = f"({end.upper!r}, {end.lower!r})" if game == "dreyfus" else repr(end.records)
    lines += [
        "### Replay it",
        "",
        "The deal above, replayed by the engine (this block is run when the site is built):",
        "",
        "```{doctest}",
        ">>> from fly_rules import Card, CardSet, dreyfus, fly",
        f">>> deal = {code}",
        ">>> for move in (",
        *(f"...     {move_code(token, game)}," for token in tokens),
        "... ):",
        "...     deal = deal.apply(move)",
        ">>> deal.tricks_taken",
        repr(end.tricks_taken),
        ">>> (deal.upper, deal.lower)" if game == "dreyfus" else ">>> deal.records",
        records,
        "```",
        "",
    ]
    return "\n".join(lines)


class SampleDeal(SphinxDirective):
    """Tell the deal the options and moves give, with pictures, and a doctest that replays it."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "game": lambda value: directives.choice(value, ("fly", "dreyfus")),
        "players": directives.positive_int,
        "seed": directives.nonnegative_int,
        "dealer": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        game = self.options.get("game", "fly")
        tokens = " ".join(self.content).split()
        try:
            text = sample_deal_markdown(
                game, self.options.get("players", 3), self.options.get("seed", 0), self.options.get("dealer", 0), tokens
            )
        except Exception as error:
            raise self.error(f"sample-deal: the deal cannot be told: {error!r}") from error
        container = nodes.container(classes=["sample-deal"])
        self.state.nested_parse(
            StringList(text.split("\n"), source=self.get_source_info()[0]), self.content_offset, container
        )
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``sample-deal`` directive."""
    app.add_directive("sample-deal", SampleDeal)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
