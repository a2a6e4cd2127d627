"""Pictures of cards and tables (fly_rules.svg): well-formed SVG with the expected parts, drawn by a browser."""

from __future__ import annotations

import html
import itertools
import json
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest

from fly_rules import Card, CardSet, dreyfus, fly
from fly_rules.engine import Phase
from fly_rules.svg import CARD_HEIGHT, CARD_WIDTH, NARROW_WIDTH, Svg, card, deal_picture, table

NS = {"svg": "http://www.w3.org/2000/svg"}
RED = "#c8102e"


def _example() -> Svg:
    return table(
        [CardSet.parse("AS KH 7C 10D"), 4, None],
        trump=Card.parse("QH"),
        stock=9,
        trick=[(1, Card.parse("9H")), (2, Card.parse("JS"))],
        records=[25, 20, "upper 3"],
        to_move=0,
        title="After the exchange",
        dealer=2,
        declarations=["stood", "exchanged 1", None],
    )


def _cards(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class", "").startswith("card")]


def test_a_table_is_well_formed_svg_with_every_part() -> None:
    """The table parses as XML, has its size, every face-up card once, backs, labels and the title."""
    picture = _example()
    root = ET.fromstring(picture)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert width > 13 * 28
    assert height > 4 * CARD_HEIGHT
    assert root.get("viewBox") == f"0 0 {width} {height}"
    faces = [g.get("data-card") for g in _cards(root) if g.get("class") == "card"]
    assert sorted(str(f) for f in faces) == sorted(["7C", "TD", "KH", "AS", "QH", "9H", "JS"])
    backs = [g for g in _cards(root) if g.get("class") == "card back"]
    assert len(backs) == 4 + 1  # seat 1's four cards and the stock
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "After the exchange" in texts
    assert "▶ seat 0" in texts
    assert "seat 1" in texts
    assert "record 25" in texts
    assert "upper 3" in texts  # a record that is text is shown as it is
    assert "exchanged 1" in texts
    assert "seat 1 led" in texts
    assert "stock 9" in texts
    assert "hidden" in texts
    trick = [g.get("data-seat") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "trick-card"]
    assert trick == ["1", "2"]


def test_red_suits_are_red_and_black_suits_black() -> None:
    """Hearts and diamonds are drawn in red, clubs and spades in black."""
    for text, red in (("KH", True), ("TD", True), ("7C", False), ("AS", False)):
        root = ET.fromstring(card(Card.parse(text)))
        suits = [s for s in root.iter("{http://www.w3.org/2000/svg}svg") if s.get("class") == "suit"]
        assert len(suits) == 2, text  # the small symbol under the rank and the big one
        assert {s.get("fill") for s in suits} == ({RED} if red else {"#1a1a1a"}), text


def test_pictures_define_no_ids_so_many_fit_on_one_page() -> None:
    """HTML ids must be unique on a page: a picture defines none and references none, so any number of
    pictures (the same one twice included) can be embedded together."""
    match = fly.new_match(fly.FlyRules(players=4), seed=7, dealer=0)
    pictures = [card(Card.parse("AS")), _example(), deal_picture(match), deal_picture(match)]
    page = "<div>" + "".join(pictures) + "</div>"
    root = ET.fromstring(page)
    assert len(list(root.iter("{http://www.w3.org/2000/svg}path"))) > 40
    assert [e.get("id") for e in root.iter() if e.get("id") is not None] == []
    assert "href" not in page


def test_one_card_and_its_back() -> None:
    """A single card has the card's size plus its outline; None draws the back with no face."""
    face = ET.fromstring(card(Card.parse("10H")))
    assert (face.get("width"), face.get("height")) == (str(CARD_WIDTH + 2), str(CARD_HEIGHT + 2))
    assert [t.text for t in face.iter("{http://www.w3.org/2000/svg}text")] == ["10"]
    assert face.find(".//svg:title", NS) is not None
    back = ET.fromstring(card(None))
    assert not list(back.iter("{http://www.w3.org/2000/svg}text"))
    assert card(None)._repr_svg_() == str(card(None))


def test_cards_and_card_sets_show_their_pictures_in_jupyter() -> None:
    """A Card's ``_repr_svg_`` is its card picture; a CardSet's draws its cards face up in order,
    overlapping as a hand, the empty set a card-sized blank."""
    assert Card.parse("10H")._repr_svg_() == card(Card.parse("10H"))
    picture = ET.fromstring(CardSet.parse("AS 10h 7c")._repr_svg_())
    assert [c.get("data-card") for c in _cards(picture)] == ["7C", "TH", "AS"]
    assert CARD_WIDTH + 2 < int(picture.get("width", "0")) < 3 * CARD_WIDTH
    empty = ET.fromstring(CardSet.parse("")._repr_svg_())
    assert not _cards(empty)
    assert empty.get("width") == str(CARD_WIDTH + 2)


def test_an_empty_table_has_no_title_or_trick() -> None:
    """Without a title, trump, stock or trick, only the seats and the empty-trick note are drawn."""
    root = ET.fromstring(table([CardSet.parse(""), None, None]))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "no trick in play" in texts
    assert not _cards(root)
    assert not any(t.startswith("record") for t in texts if t)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"records": [1, 2]}, "one entry per seat"),
        ({"to_move": 3}, "seat 3 is out of range"),
        ({"trick": [(-1, Card.parse("2C"))]}, "seat -1 is out of range"),
        ({"dealer": 5}, "seat 5 is out of range"),
        ({"declarations": ["stood"]}, "declarations must have one entry per seat"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    """Records for the wrong number of seats and seats out of range raise ValueError."""
    with pytest.raises(ValueError, match=message):
        table([1, 2, 3], **kwargs)  # type: ignore[arg-type]


def _seat_boxes(root: ET.Element) -> dict[int, tuple[float, float, float, float]]:
    """Each seat's panel as (left, top, right, bottom), from the frame drawn first in its group."""
    boxes = {}
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") == "seat":
            frame = group.find("svg:rect", NS)
            assert frame is not None
            x, y = float(frame.get("x", "0")), float(frame.get("y", "0"))
            boxes[int(group.get("data-seat", "-1"))] = (
                x,
                y,
                x + float(frame.get("width", "0")),
                y + float(frame.get("height", "0")),
            )
    return boxes


def test_the_seats_sit_round_the_table_in_playing_order() -> None:
    """Four seats: seat 0 at the bottom, seat 1 on its left, seat 2 across the table, seat 3 on its right
    (clockwise, the order the deal and the play go round), the dealer's button in the dealer's panel."""
    root = ET.fromstring(table([5, 5, 5, 5], dealer=3))
    boxes = _seat_boxes(root)
    middle = {seat: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for seat, b in boxes.items()}
    assert middle[0][1] > middle[1][1] > middle[2][1]
    assert middle[1][0] < middle[0][0] < middle[3][0]
    assert abs(middle[0][0] - middle[2][0]) < 1
    dealers = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "seat"]
    assert [g.get("data-seat") for g in dealers if g.find("svg:g[@class='dealer']", NS) is not None] == ["3"]


@pytest.mark.parametrize("seats", range(3, 8))
@pytest.mark.parametrize("cards", [5, 12])
def test_no_seat_panel_overlaps_another_or_leaves_the_picture(seats: int, cards: int) -> None:
    """For every table size of both games, the seats' panels do not overlap, the trick's cards lie between
    them, and everything fits inside the picture."""
    trick = [(seat, Card.parse("AS")) for seat in range(seats)]
    root = ET.fromstring(table([cards] * seats, trick=trick, title="a full trick"))
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    boxes = list(_seat_boxes(root).values())
    assert len(boxes) == seats
    spots = []
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") == "trick-card":
            inner = group.find("svg:g", NS)
            assert inner is not None
            x, y = map(float, inner.get("transform", "")[len("translate(") : -1].split(","))
            spots.append((x, y, x + CARD_WIDTH, y + CARD_HEIGHT))
    for index, box in enumerate(boxes):
        assert box[0] >= 0
        assert box[2] <= width
        assert box[1] >= 30  # below the title
        assert box[3] <= height
        for other in boxes[index + 1 :] + spots:
            assert box[2] <= other[0] or other[2] <= box[0] or box[3] <= other[1] or other[3] <= box[1]


@pytest.mark.parametrize("seats", range(3, 8))
@pytest.mark.parametrize("cards", [5, 12])
def test_a_narrow_table_fits_a_phone_with_text_to_read_and_cards_to_tap(seats: int, cards: int) -> None:
    """The layout for a phone: NARROW_WIDTH wide whatever the table, every label 12 units or more and inside the
    picture, every seat named in its own panel, the one face-up hand in rows whose cards each show at least 44 units
    (a tap's width at scale 1), the trick's cards each under its seat's name, and no panel over another."""
    hand = CardSet.parse(" ".join(["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "7D", "8D", "9D", "10D"][:cards]))
    trick = [(seat, Card.parse("AS")) for seat in range(seats)]
    hands: list[CardSet | int | None] = [hand, *([cards] * (seats - 2)), None]
    root = ET.fromstring(
        table(hands, trick=trick, title="Fly, deal 1: play", records=[25] * seats, dealer=1, to_move=0, narrow=True)
    )
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert (width, root.get("class")) == (NARROW_WIDTH, "narrow")
    assert height < 640  # below a phone's window less the page's lines above and below it
    for text in root.iter("{http://www.w3.org/2000/svg}text"):
        assert float(text.get("font-size", "0")) >= 12, text.text
        assert 0 <= float(text.get("x", "-1")) < width, text.text
        assert 0 < float(text.get("y", "-1")) <= height, text.text
    boxes = _seat_boxes(root)
    assert sorted(boxes) == list(range(seats))
    for seat, box in boxes.items():
        assert box[0] >= 0
        assert box[2] <= width
        assert box[3] <= height
        for other, second in boxes.items():
            assert (
                other == seat
                or box[2] <= second[0]
                or second[2] <= box[0]
                or box[3] <= second[1]
                or second[3] <= box[1]
            )
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") == "seat":
            assert f"seat {group.get('data-seat')}" in "".join(group.itertext())
    positions = sorted(
        tuple(map(float, g.get("transform", "")[len("translate(") : -1].split(",")))[::-1]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("data-card") and g.get("class") == "card" and g.get("data-card") != "AS"
    )
    assert len(positions) == cards
    for (y, x), (next_y, next_x) in itertools.pairwise(positions):
        assert next_y > y + CARD_HEIGHT or next_x - x >= 44  # a new row, or 44 units of the card in view
    trick_cards = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "trick-card"]
    labels = [label.text for g in trick_cards if (label := g.find("svg:text", NS)) is not None]
    assert labels == [f"seat {seat}" for seat in range(seats)]


def test_the_last_trick_is_shown_with_who_took_it() -> None:
    """deal_picture(last_trick=True) after a trick: the completed trick lies on the table, led by its first
    seat, and the middle says who takes it; without it the table says no trick is in play."""
    deal = _fly_deal(fly.Stand()).apply(fly.Play(Card.parse("7S"))).apply(fly.Play(Card.parse("AS")))
    root = ET.fromstring(deal_picture(deal, last_trick=True))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "seat 1 led; seat 0 takes it" in texts  # the A♠ takes the led trump ace
    assert "stood, 1 trick" in texts
    assert "stood, 0 tricks" in texts
    assert "record 19" in texts  # one for the trick, five for the A♠
    led = [g.get("data-seat") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-led")]
    assert led == ["1"]
    plain = [t.text for t in ET.fromstring(deal_picture(deal)).iter("{http://www.w3.org/2000/svg}text")]
    assert "no trick in play" in plain


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, header = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8
    assert colour in (2, 6)
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(b"".join(bytes(line[i : i + 3]) for i in range(0, stride, channels)))
        previous = line
    return width, height, rows


def _fly_deal(seat_2: fly.Stand | fly.Fold | None = None) -> fly.FlyDeal:
    """Three players, hearts trump; seat 1 stood, seat 2 folded (or ``seat_2``), seat 0 stood and seat 1
    led A♥."""
    deal = fly.new_deal(
        fly.FlyRules(players=3),
        hands=["AS KH 7C 8D 9S", "AH QH JH TH 9H", "7S 8S 9C TC JC"],
        trump_card="8H",
        stock="7H 7D",
        dealer=0,
    )
    second = fly.Fold() if seat_2 is None else seat_2
    return deal.apply(fly.Stand()).apply(second).apply(fly.Stand()).apply(fly.Play(Card.parse("AH")))


def test_a_fly_deal_is_drawn_whole_or_as_one_seat_sees_it() -> None:
    """deal_picture: every hand face up by default; with a seat (or a view) only that hand, the others as
    backs; a folded hand is not drawn; the trick, trump card, stock and records come from the deal."""
    deal = _fly_deal()
    root = ET.fromstring(deal_picture(deal))
    faces = sorted(str(g.get("data-card")) for g in _cards(root) if g.get("class") == "card")
    assert faces == sorted(["7C", "8D", "KH", "9S", "AS", "9H", "TH", "JH", "QH", "AH", "8H"])
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Fly, deal 1: play, trumps ♥" in texts
    assert "record 25" in texts
    assert texts.count("folded") == 1  # seat 2's declaration
    assert "stood" in texts
    assert "hidden" in texts  # seat 2 folded
    assert "stock 2" in texts
    for state, seat in ((deal, 0), (deal.view(0), None)):
        one = ET.fromstring(deal_picture(state, seat=seat, title="seat 0"))
        backs = [g for g in _cards(one) if g.get("class") == "card back"]
        assert len(backs) == 4 + 1  # seat 1 (after leading A♥) and the stock
        assert "seat 0" in [t.text for t in one.iter("{http://www.w3.org/2000/svg}text")]
    match = fly.new_match(fly.FlyRules(players=4), seed=7, dealer=0)
    assert deal_picture(match) == deal_picture(match.deal)


def test_a_dreyfus_deal_is_drawn_with_its_contract_and_records() -> None:
    """deal_picture of Dreyfus: twelve cards a hand, the talon, upper/lower records, the trick in order."""
    match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=7, dealer=0)
    while match.deal.phase is Phase.EXCHANGE:
        match = match.apply(dreyfus.Stand())
    match = match.apply(match.legal_actions()[0])
    root = ET.fromstring(deal_picture(match, seat=(match.deal.leader + 1) % 3))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "upper 0, lower 0" in texts
    assert "bought none" in texts  # every seat stood in the exchange
    assert any(t and t.startswith("Dreyfus, deal 1: play, trumps ♠") for t in texts)
    trick = [g.get("data-seat") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "trick-card"]
    assert trick == [str(match.deal.leader)]
    backs = [g for g in _cards(root) if g.get("class") == "card back"]
    assert len(backs) == 11 + 12 + 1  # the leader's hand after his lead, the other hand, the talon


def test_deal_picture_refuses_other_values_and_seats() -> None:
    """A value that is no game state raises TypeError, a seat out of range ValueError."""
    with pytest.raises(TypeError, match="registered game"):
        deal_picture("fly")
    with pytest.raises(ValueError, match="seat 3 is out of range"):
        deal_picture(_fly_deal(), seat=3)


@pytest.mark.parametrize("which", ["table", "deal"])
def test_a_browser_draws_the_table(tmp_path: Path, which: str) -> None:
    """Headless Chromium renders the SVG (a table, and a deal drawn by deal_picture): the screenshot has the
    picture's size and shows the felt, white card faces and red hearts."""
    browser = _browser()
    picture = _example() if which == "table" else deal_picture(_fly_deal())
    root = ET.fromstring(picture)
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    page = tmp_path / "table.svg"
    page.write_text(picture, encoding="utf-8")
    shot = tmp_path / "table.png"
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--screenshot={shot}",
        f"--window-size={width},{height}",
        page.as_uri(),
    ]
    subprocess.run(command, capture_output=True, timeout=60, check=False)
    assert shot.is_file(), "chromium wrote no screenshot"
    shot_width, shot_height, rows = _png_pixels(shot.read_bytes())
    assert (shot_width, shot_height) == (width, height)
    colours = {row[i : i + 3] for row in rows for i in range(0, len(row), 3)}
    assert len(colours) > 20  # not blank
    assert bytes.fromhex("2e7d4f") in colours  # the felt
    assert bytes.fromhex("ffffff") in colours  # card faces
    assert bytes.fromhex("c8102e") in colours  # hearts and diamonds


def test_deals_matches_and_views_show_themselves_in_jupyter() -> None:
    """Jupyter displays a value by its ``_repr_svg_``: every deal, match and view of both games draws its
    table, a view showing only its own seat's cards."""
    fly_match = fly.new_match(fly.FlyRules(players=4), seed=7, dealer=0)
    dreyfus_match = dreyfus.new_match(dreyfus.DreyfusRules(), seed=7, dealer=0)
    for match in (fly_match, dreyfus_match):
        whole = match._repr_svg_()
        assert whole == deal_picture(match) == match.deal._repr_svg_()
        view = match.view(1)._repr_svg_()
        assert view == deal_picture(match.view(1))
        assert ET.fromstring(view).tag == "{http://www.w3.org/2000/svg}svg"
        assert view.count('class="card back"') > whole.count('class="card back"')


def _browser() -> str:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "the browser check needs Debian's chromium (scripts/test installs it as root)"
    return browser


def _played_into_the_play(match: Any, tricks: int) -> Any:
    """The match after every seat's last exchange choice (the longest declarations) and ``tricks`` tricks."""
    while match.deal.phase is Phase.EXCHANGE or len(match.deal.view(0).tricks) < tricks:
        actions = match.legal_actions()
        match = match.apply(actions[-1] if match.deal.phase is Phase.EXCHANGE else actions[0])
    return match


def _pictures_with_long_labels() -> dict[str, str]:
    """Every table size of both games with the longest labels they draw: records of three digits, a
    declaration of every kind, a folded (hidden) hand, a whole trick and a long caption; and real deals."""
    pictures: dict[str, str] = {}
    for seats in range(3, 8):
        for cards, record in ((5, 125), (12, "upper 120, lower 115")):
            hands: list[CardSet | int | None] = [cards] * seats
            hands[seats // 2] = None
            pictures[f"{seats} seats, {cards} cards"] = table(
                hands,
                trump=Card.parse("QH"),
                stock=12,
                trick=[(seat, Card.parse("10S")) for seat in range(seats)],
                records=[record] * seats,
                to_move=seats - 1,
                dealer=seats - 1,
                declarations=["took the trump card, exchanged 4, 5 tricks"] * seats,
                trick_note="seat 6 led; seat 6 takes it",
                title="Trick 3: seat 6 led, and the A♠ takes the trick and its bonus",
            )
        match = fly.new_match(fly.FlyRules(players=seats), seed=seats, dealer=seats - 1)
        pictures[f"Fly, {seats} seats"] = deal_picture(_played_into_the_play(match, 1), last_trick=True)
    three = dreyfus.new_match(dreyfus.DreyfusRules(), seed=7, dealer=2)
    pictures["Dreyfus"] = deal_picture(_played_into_the_play(three, 2), last_trick=True)
    return pictures


_MEASURE = """
const found = [];
for (const box of document.querySelectorAll("div[data-name]")) {
  const svg = box.querySelector("svg");
  const [vx, vy, vw, vh] = svg.getAttribute("viewBox").split(" ").map(Number);
  const into = svg.getScreenCTM().inverse();
  for (const text of svg.querySelectorAll("text, g.trick-card")) {
    const b = text.getBBox();
    const m = into.multiply(text.getScreenCTM());
    const xs = [], ys = [];
    for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
      const p = new DOMPoint(x, y).matrixTransform(m);
      xs.push(p.x);
      ys.push(p.y);
    }
    const inPanel = text.closest("g.seat, g.trick-card");
    const kind = text.matches("g.trick-card") ? "trick card" : inPanel ? "on a card or seat" : "middle";
    found.push({picture: box.dataset.name, text: text.textContent, kind, view: [vx, vy, vx + vw, vy + vh],
      box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]});
  }
}
document.getElementById("out").textContent = JSON.stringify(found);
"""


def test_every_label_lies_inside_the_picture_in_a_browser(tmp_path: Path) -> None:
    """Headless Chromium lays out every text of every picture (3 to 7 seats, hands of 5 and 12 cards, the
    longest labels): each text's box, in the picture's own units, lies inside its viewBox (a label of the
    right-hand seat once ran past the right edge), and no card of the trick covers a word of the middle (the
    trump's and stock's words, the note of who led and who takes the trick)."""
    pictures = _pictures_with_long_labels()
    page = tmp_path / "pictures.html"
    boxes = "".join(f'<div data-name="{name}">{svg}</div>' for name, svg in pictures.items())
    page.write_text(
        f'<!DOCTYPE html><html><meta charset="utf-8"><body>{boxes}<pre id="out"></pre>'
        f"<script>{_MEASURE}</script></body></html>",
        encoding="utf-8",
    )
    command = [
        _browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        page.as_uri(),
    ]
    dom = subprocess.run(command, capture_output=True, timeout=120, check=True, text=True).stdout
    measured = json.loads(html.unescape(dom.split('<pre id="out">', 1)[1].split("</pre>", 1)[0]))
    assert {m["picture"] for m in measured} == set(pictures)
    assert len(measured) > 20 * len(pictures)
    assert any(m["text"] == "took the trump card, exchanged 4, 5 tricks" for m in measured)
    texts = [m for m in measured if m["kind"] != "trick card"]
    assert any(m["text"] == "seat 6 led; seat 6 takes it" for m in texts)
    inside = [m for m in texts if m["view"][:2] <= m["box"][:2] and m["box"][2:] <= m["view"][2:]]
    assert [m for m in texts if m not in inside] == []
    cards = [m for m in measured if m["kind"] == "trick card"]
    assert len(cards) > 5 * 10
    covered = [
        (m["picture"], m["text"])
        for m in texts
        for c in cards
        if m["kind"] == "middle" and c["picture"] == m["picture"] and _overlap(m["box"], c["box"])
    ]
    assert covered == []


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
