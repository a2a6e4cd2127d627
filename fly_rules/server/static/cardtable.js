// The card table: the picture of the deal as one seat sees it, that seat's cards clicked on it (or chosen
// with the arrow keys and Enter), the exchange's selection, the buttons of the other choices, the refusals
// naming their rule and the "What happened" log. One module for both tables: the docs' play page (the
// engine in the reader's browser, docs/_static/live/play.js; the docs build copies this file beside it)
// and the table server's page (table.js, the match on the server). Moves are written in the position
// notation (REC-5.2: "pAH", "xAH7C", "s", "f", "w9H"); a page's transport translates its own. All text
// goes in with textContent, the picture is parsed as XML: nothing from a match is read as HTML.

// An element with text (never HTML) and a class.
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// An SVG string from fly_rules.svg as a node (parsed as XML, never as HTML).
export function svgNode(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  return document.importNode(doc.documentElement, true);
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "AH" → "A♥", "TC" → "10♣".
export function cardSymbol(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
}

// The cards of a move after its letter: "xAH7C" → ["AH", "7C"].
export function moveCards(move) {
  return move.slice(1).match(/[2-9TJQKA][SHDC]/g) || [];
}

// A position-notation move as words: "pAH" → "play A♥", "xAH7C" → "exchange A♥ 7♣".
export function moveText(move) {
  if (move === "s") return "stand";
  if (move === "f") return "fold";
  const cards = moveCards(move).map(cardSymbol);
  const verb = { p: "play", x: "exchange", w: "take the trump card, discarding" }[move[0]];
  return verb && cards.length ? `${verb} ${cards.join(" ")}` : move;
}

// A refusal as a paragraph: the move, the rule (a link to the rulebook when `refused.href` is one, resolved
// against `root`) and its title, what was wrong.
export function refusalNode(refused, className = "fly-refused", root = null) {
  const line = el("p", `Refused${refused.move ? ": " + moveText(refused.move) : ""}. `, className);
  if (refused.rule) {
    const link = el(refused.href ? "a" : "strong", refused.rule, "fly-rule");
    if (refused.href) link.href = root ? new URL(refused.href, root).href : refused.href;
    line.append(link, refused.title ? ` (${refused.title}): ` : ": ");
  }
  line.append(refused.detail);
  return line;
}

function named(tag, id, className, text) {
  const node = el(tag, text, className);
  node.id = id;
  return node;
}

// The table in `root`: a board (the status line and `head`'s nodes, the picture, the choices, the message),
// `tools` under it and the "What happened" log. `onMove(move)` is called with the move the seat chose;
// `extraActions(view, add)` may add buttons after the table's own. The view given to `render` has `seat`,
// `legal` (position notation), `hand`, `picture`, `status` and `over`, and may have `deal_number`,
// `records` and `last_trick` ({number, cards: [[seat, card as "10♥"]], taker}: a "Last trick" button shows it). The nodes' ids start with `prefix` (the tests find them by id).
export function createTable(root, { prefix = "fly-play", onMove, extraActions = () => {}, head = [], statusText = "" }) {
  const board = named("section", `${prefix}-board`, "fly-board");
  board.setAttribute("aria-label", "The card table");
  const status = named("p", `${prefix}-status`, "fly-status", statusText);
  status.setAttribute("aria-live", "polite");
  const top = el("div", null, "fly-board-head");
  top.append(status, ...head);
  const picture = named("figure", `${prefix}-picture`, "fly-table fly-play-picture");
  const actions = named("div", `${prefix}-actions`, "fly-actions");
  const message = named("p", `${prefix}-message`, "fly-message");
  message.setAttribute("aria-live", "polite");
  board.append(top, picture, actions, message);
  // The last trick taken, over the table on request (the picture shows the trick in play).
  const lastTrick = named("div", `${prefix}-last-trick`, "fly-dialog");
  lastTrick.setAttribute("role", "dialog");
  lastTrick.setAttribute("aria-label", "The last trick");
  lastTrick.hidden = true;
  board.append(lastTrick);
  const tools = el("div", null, "fly-tools");
  const log = named("div", `${prefix}-log`, "fly-log");
  root.replaceChildren(board, tools, el("h3", "What happened"), log);
  root.dataset.state = "idle";

  const table = {
    root, board, status, picture, actions, message, tools, log,
    view: null,
    busy: false,
    selected: new Set(),
    hinted: new Set(),
    drawn: new Set(),
    focused: null,
    overlay: null, // a node kept over the picture (the play page's summary of a deal)
    lastDeal: null,
    exchanging: null, // the hand before an exchange sent, until a view shows what it drew
  };

  table.showPicture = (svgText) => {
    const svg = svgNode(svgText);
    svg.setAttribute("role", "img");
    picture.replaceChildren(svg);
    if (table.overlay) picture.append(table.overlay);
    return svg;
  };

  table.say = (text) => message.replaceChildren(el("span", text));

  // The dialog of the last trick: its number, each card with its seat (the reader's "you"), who took it.
  table.showLastTrick = (trick) => {
    const seatName = (seat) => (table.view && seat === table.view.seat ? `seat ${seat} (you)` : `seat ${seat}`);
    const list = el("ol", null, "fly-trick-cards");
    for (const [seat, card] of trick.cards) list.append(el("li", `${seatName(seat)}: ${card}`));
    const close = el("button", "Close", "fly-primary");
    close.type = "button";
    close.name = "close-last-trick";
    close.addEventListener("click", () => {
      lastTrick.hidden = true;
      board.querySelector("button[name=last-trick]")?.focus({ preventScroll: true });
    });
    const taker = trick.taker === null || trick.taker === undefined ? [] : [el("p", `${seatName(Number(trick.taker))} took it.`, "fly-taken")];
    lastTrick.replaceChildren(el("h4", `Trick ${trick.number} of this deal`), list, ...taker, close);
    lastTrick.hidden = false;
    close.focus({ preventScroll: true });
  };

  // A refusal under the table; an exchange refused drew nothing.
  table.refused = (refused, root = null) => {
    table.exchanging = null;
    message.replaceChildren(refusalNode(refused, "fly-refused", root));
  };

  table.logLine = (text, className, data = {}) => {
    const line = el("p", text, className);
    for (const [key, value] of Object.entries(data)) line.dataset[key] = value;
    log.append(line);
    log.scrollTop = log.scrollHeight;
    return line;
  };

  // The story of one event, each thing told once: the declaration or the trick, then what it did to the
  // records, in the narration's words (the terminal's). `event`: deal_number, lines, and maybe trick
  // ({taker}), deal_over and deal_records.
  table.logEvent = (event) => {
    if (event.deal_number !== undefined && event.deal_number !== table.lastDeal) {
      table.lastDeal = event.deal_number;
      table.logLine(`Deal ${event.deal_number + 1}`, "fly-deal");
    }
    for (const line of event.lines) {
      const trick = line.startsWith("trick ") && event.trick;
      const kind = trick ? "fly-trick" : /^seat \d: |^records |^tricks /.test(line) ? "fly-record" : "";
      table.logLine(line, kind, trick ? { deal: event.deal_number, taker: event.trick.taker } : {});
    }
    if (event.deal_over) {
      table.logLine(`Deal ${event.deal_number + 1} is over.`, "fly-deal-end", { deal: event.deal_number, records: JSON.stringify(event.deal_records) });
    }
  };

  // A new match: the old one's story, selection and marks go.
  table.clear = () => {
    log.replaceChildren();
    table.lastDeal = null;
    table.selected = new Set();
    table.hinted = new Set();
    table.drawn = new Set();
    table.exchanging = null;
  };

  const choosing = () => table.view.legal.some((move) => move[0] === "x" || move[0] === "w");
  const legalOf = (kind) => table.view.legal.filter((move) => move[0] === kind);

  // The seat's choice: an exchange remembers the hand, to tell what it drew.
  function move(chosen) {
    if (table.busy) return;
    table.hinted = new Set();
    table.exchanging = chosen[0] === "x" || chosen[0] === "w" ? table.view.hand : null;
    onMove(chosen);
  }

  function choose(code) {
    if (table.busy || !table.view || !table.view.legal.length) return;
    table.focused = code;
    if (choosing()) {
      if (table.selected.has(code)) table.selected.delete(code);
      else table.selected.add(code);
      table.render(table.view, { keepFocus: true });
    } else move("p" + code);
  }

  function keyOnCard(event, picks, pick) {
    const at = picks.indexOf(pick);
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = picks[(at + 1) % picks.length];
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = picks[(at - 1 + picks.length) % picks.length];
    else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(pick.dataset.card);
      return;
    } else return;
    event.preventDefault();
    pick.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus({ preventScroll: true });
    table.focused = next.dataset.card;
  }

  // The seat's cards in the picture become the controls: a click (or Enter) plays or selects one; the
  // arrow keys move between them.
  function armHand(svg) {
    const view = table.view;
    const seat = view.seat === null || view.seat === undefined ? null : svg.querySelector(`g.seat[data-seat="${view.seat}"]`);
    if (!seat) return [];
    const picks = [];
    const exchange = choosing();
    for (const card of seat.querySelectorAll("g.card[data-card]")) {
      const code = card.dataset.card;
      const pick = document.createElementNS("http://www.w3.org/2000/svg", "g");
      card.replaceWith(pick);
      pick.append(card);
      pick.classList.add("fly-pick");
      pick.dataset.card = code;
      const playable = view.legal.includes("p" + code);
      if (view.legal.length && !exchange) pick.classList.add(playable ? "legal" : "illegal");
      if (table.selected.has(code)) pick.classList.add("selected");
      if (table.hinted.has(code)) pick.classList.add("hinted");
      if (table.drawn.has(code)) pick.classList.add("drawn");
      pick.setAttribute("role", "button");
      pick.setAttribute("tabindex", "-1");
      const verb = exchange ? (table.selected.has(code) ? "keep" : "select to throw") : "play";
      pick.setAttribute("aria-label", `${verb} ${cardSymbol(code)}`);
      pick.addEventListener("click", () => choose(code));
      pick.addEventListener("keydown", (event) => keyOnCard(event, picks, pick));
      picks.push(pick);
    }
    const first = picks.find((p) => p.dataset.card === table.focused) || picks.find((p) => p.classList.contains("legal")) || picks[0];
    if (first) first.setAttribute("tabindex", "0");
    return picks;
  }

  // Draw `view` and its choices. A view after an exchange tells what it drew (outlined in blue).
  table.render = (view, { keepFocus = false } = {}) => {
    const hadFocus = keepFocus || board.contains(document.activeElement);
    const before = table.view;
    table.view = view;
    let drew = null;
    if (before && before.hand.join() !== view.hand.join()) {
      if (table.exchanging) {
        const got = view.hand.filter((card) => !table.exchanging.includes(card));
        table.drawn = new Set(got);
        drew = got.length ? `You drew ${got.map(cardSymbol).join(" ")} (outlined in blue).` : "You drew no card.";
      } else table.drawn = new Set();
      table.exchanging = null;
      table.selected = new Set();
    }
    root.dataset.state = view.over ? "over" : view.legal.length ? "your-turn" : "waiting";
    root.dataset.legal = JSON.stringify(view.legal);
    if (view.deal_number !== undefined) root.dataset.deal = String(view.deal_number);
    if (view.records !== undefined) root.dataset.records = JSON.stringify(view.records);
    status.textContent = view.status;
    table.selected = new Set([...table.selected].filter((card) => view.hand.includes(card)));
    const svg = table.showPicture(view.picture);
    const picks = armHand(svg);
    if (hadFocus) picks.find((p) => p.getAttribute("tabindex") === "0")?.focus({ preventScroll: true });
    actions.replaceChildren();
    const add = (label, name, handler, primary = false) => {
      const button = el("button", label, primary ? "fly-primary" : "");
      button.type = "button";
      button.name = name;
      button.addEventListener("click", handler);
      actions.append(button);
      return button;
    };
    if (view.legal.includes("s")) add("Stand", "stand", () => move("s")).title = "keep your cards";
    if (legalOf("x").length) {
      const label = table.selected.size ? `Exchange ${[...table.selected].map(cardSymbol).join(" ")}` : "Exchange";
      add(label, "exchange", () => (table.selected.size ? move("x" + [...table.selected].join("")) : table.say("Click the cards to throw first, or stand.")), table.selected.size > 0);
    }
    if (legalOf("w").length) {
      add("Take the trump card, discarding the selected card", "swap", () =>
        table.selected.size === 1 ? move("w" + [...table.selected][0]) : table.say("Select the one card to discard first."),
      );
    }
    if (view.legal.includes("f")) add("Fold", "fold", () => move("f"));
    if (view.last_trick) add("Last trick", "last-trick", () => table.showLastTrick(view.last_trick));
    lastTrick.hidden = true;
    extraActions(view, add);
    // What to do, for whoever has not played here before: the cards are the controls.
    if (view.legal.length && view.legal.every((m) => m[0] === "p")) actions.prepend(el("span", "Your turn: click a card to play it.", "fly-quiet"));
    else if (legalOf("x").length && !table.selected.size) actions.append(el("span", "Click the cards you want to throw.", "fly-quiet"));
    if (!view.legal.length && !view.over && view.seat !== null) actions.append(el("span", "Waiting for the other seats…", "fly-quiet"));
    if (drew) table.say(drew);
  };

  return table;
}
