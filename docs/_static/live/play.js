// The play page: a match of Fly or Dreyfus against the library's bots, the engine in a Web Worker.
// The table is the picture: the reader's cards are clicked there (or chosen with the arrow keys and
// Enter); in the exchange the cards to throw are selected, then "Exchange". Each bot's card appears in
// turn, a summary closes each deal, every refusal names its rule. All text goes in with textContent.
import { call, cardSymbol, el, FILE_NOTICE, refusalNode, servedOverFile, svgNode } from "./engine.js";

const form = document.getElementById("fly-play-settings");
const table = document.getElementById("fly-play");
let view = null;
let selected = new Set();
let hinted = new Set();
let drawnCards = new Set();
let busy = false;
let lastDeal = null;
let focusedCard = null;

function named(tag, id, className, text) {
  const node = el(tag, text, className);
  node.id = id;
  return node;
}

const board = named("section", "fly-play-board", "fly-board");
board.setAttribute("aria-label", "The card table");
const status = named("p", "fly-play-status", "fly-status", "Choose the game and press Start: the engine (about 12 MB) loads then.");
status.setAttribute("aria-live", "polite");
const speed = el("select");
speed.name = "speed";
for (const [value, label] of [["0", "at once"], ["350", "quick"], ["800", "normal"], ["1500", "slow"]]) {
  const option = el("option", label);
  option.value = value;
  speed.append(option);
}
speed.value = "800";
const speedLabel = el("label", "Bots' cards ", "fly-speed");
speedLabel.append(speed);
const head = el("div", null, "fly-board-head");
head.append(status, speedLabel);
const picture = named("figure", "fly-play-picture", "fly-table fly-play-picture");
const summary = named("div", "fly-play-summary", "fly-summary");
summary.hidden = true;
summary.setAttribute("role", "dialog");
summary.setAttribute("aria-label", "The end of the deal");
const actions = named("div", "fly-play-actions", "fly-actions");
const message = named("p", "fly-play-message", "fly-message");
message.setAttribute("aria-live", "polite");
board.append(head, picture, actions, message);
const download = el("button", "Download the history (TOML)");
download.type = "button";
download.name = "download";
download.disabled = true;
const tools = el("div", null, "fly-tools");
tools.append(download);
const log = named("div", "fly-play-log", "fly-log");
table.replaceChildren(board, tools, el("h3", "What happened"), log);
table.dataset.state = "idle";

function syncSettings() {
  const game = form.game.value;
  if (game === "dreyfus") form.players.value = "3";
  form.players.disabled = game === "dreyfus";
  for (const option of form.preset.options) option.hidden = !option.value.startsWith(game + ":");
  if (!form.preset.value.startsWith(game + ":")) form.preset.value = `${game}:default`;
}
form.game.addEventListener("change", syncSettings);
syncSettings();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function logLine(text, className, data = {}) {
  const line = el("p", text, className);
  for (const [key, value] of Object.entries(data)) line.dataset[key] = value;
  log.append(line);
  log.scrollTop = log.scrollHeight;
}

// The story of one event, each thing told once: the declaration or the trick, then what it did to the
// records, in the narration's words (the terminal's).
function logEvent(event) {
  if (event.deal_number !== lastDeal) {
    lastDeal = event.deal_number;
    logLine(`Deal ${event.deal_number + 1}`, "fly-deal");
  }
  for (const line of event.lines) {
    const trick = line.startsWith("trick ") && event.trick;
    logLine(line, trick ? "fly-trick" : /^seat \d: |^records |^tricks /.test(line) ? "fly-record" : "", trick ? { deal: event.deal_number, taker: event.trick.taker } : {});
  }
  if (event.deal_over) {
    logLine(`Deal ${event.deal_number + 1} is over.`, "fly-deal-end", { deal: event.deal_number, records: JSON.stringify(event.deal_records) });
  }
}

function showPicture(svgText) {
  const svg = svgNode(svgText);
  svg.setAttribute("role", "img");
  picture.replaceChildren(svg, summary);
  return svg;
}

// The end of a deal over the table: each seat's tricks and record before and after, the match's outcome
// when it is over; the reader closes it (a click, Enter) and the next deal is shown.
function showSummary(s) {
  summary.replaceChildren(el("h4", `Deal ${s.deal_number + 1} is over`));
  const grid = el("table");
  const header = el("tr");
  for (const title of ["", "tricks", s.label]) header.append(el("th", title));
  grid.append(header);
  s.tricks.forEach((tricks, seat) => {
    const row = el("tr", null, seat === view.seat ? "fly-you" : "");
    row.append(el("th", seat === view.seat ? `seat ${seat} (you)` : `seat ${seat}`), el("td", String(tricks)));
    row.append(el("td", s.before[seat] === s.after[seat] ? s.after[seat] : `${s.before[seat]} → ${s.after[seat]}`));
    grid.append(row);
  });
  summary.append(grid);
  for (const line of s.outcome) summary.append(el("p", line, "fly-outcome"));
  const next = el("button", s.outcome.length ? "See the table" : `On to deal ${s.deal_number + 2}`);
  next.type = "button";
  next.name = "next";
  const review = el("button", "Review my play");
  review.type = "button";
  review.name = "review";
  review.title = "your decisions beside the best with every card open (the solver)";
  review.addEventListener("click", () => reviewDeal(s.deal_number, review, next), { once: true });
  summary.append(next, " ", review);
  summary.hidden = false;
  table.dataset.state = "summary";
  next.focus({ preventScroll: true });
  return new Promise((resolve) => {
    next.addEventListener("click", () => {
      summary.hidden = true;
      resolve();
    }, { once: true });
  });
}

// The solver's review of the reader's decisions in a deal: each beside the best with every card open, and
// what it cost (fly_rules.analysis). It can take a few seconds in the browser: the summary waits.
async function reviewDeal(dealNumber, button, next) {
  button.disabled = true;
  next.disabled = true;
  button.textContent = "The solver is looking at every card…";
  try {
    const answer = await call("review", dealNumber);
    const list = el("ol", null, "fly-review");
    for (const d of answer.decisions) {
      const said = d.cost ? `${d.played} (best: ${d.best}, cost ${d.cost})` : `${d.played}: the best`;
      list.append(el("li", said, d.cost ? "fly-cost" : ""));
    }
    const head = answer.decisions.length
      ? `Your play cost ${answer.loss} point(s) against the best with every card open:`
      : "You had no choice to make in this deal.";
    button.replaceWith(el("p", head, "fly-review-head"), list);
  } catch (error) {
    button.textContent = `The review failed: ${error.message}`;
  } finally {
    next.disabled = false;
    next.focus({ preventScroll: true });
  }
}

// The events in turn: each bot's card shown with a pause (the speed setting; none "at once"), each
// deal's end with its summary.
async function playEvents(events) {
  const pause = Number(speed.value);
  if (events.some((event) => event.seat !== view.seat)) actions.replaceChildren(el("span", "The other seats are playing…", "fly-quiet"));
  for (const event of events) {
    logEvent(event);
    if (pause > 0 && !event.summary) {
      table.dataset.state = "animating";
      showPicture(event.picture);
      status.textContent = event.status;
      await sleep(event.trick ? 2 * pause : pause);
    }
    if (event.summary) {
      showPicture(event.picture);
      status.textContent = event.status;
      await showSummary(event.summary);
    }
  }
}

function legalOf(kind) {
  return view.legal.filter((move) => move[0] === kind);
}

function choosing() {
  return view.legal.some((move) => move[0] === "x" || move[0] === "w");
}

// The reader's cards in the picture become the controls: a click (or Enter) plays or selects one; the
// arrow keys move between them.
function armHand(svg) {
  const seat = svg.querySelector(`g.seat[data-seat="${view.seat}"]`);
  if (!seat) return [];
  const picks = [];
  for (const card of seat.querySelectorAll("g.card[data-card]")) {
    const code = card.dataset.card;
    const pick = document.createElementNS("http://www.w3.org/2000/svg", "g");
    card.replaceWith(pick);
    pick.append(card);
    pick.classList.add("fly-pick");
    pick.dataset.card = code;
    const exchange = choosing();
    const playable = view.legal.includes("p" + code);
    if (view.legal.length && !exchange) pick.classList.add(playable ? "legal" : "illegal");
    if (selected.has(code)) pick.classList.add("selected");
    if (hinted.has(code)) pick.classList.add("hinted");
    if (drawnCards.has(code)) pick.classList.add("drawn");
    pick.setAttribute("role", "button");
    pick.setAttribute("tabindex", "-1");
    const verb = exchange ? (selected.has(code) ? "keep" : "select to throw") : "play";
    pick.setAttribute("aria-label", `${verb} ${cardSymbol(code)}`);
    pick.addEventListener("click", () => choose(code));
    pick.addEventListener("keydown", (event) => keyOnCard(event, picks, pick));
    picks.push(pick);
  }
  const first = picks.find((p) => p.dataset.card === focusedCard) || picks.find((p) => p.classList.contains("legal")) || picks[0];
  if (first) first.setAttribute("tabindex", "0");
  return picks;
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
  focusedCard = next.dataset.card;
}

function choose(code) {
  if (busy || !view || !view.legal.length) return;
  focusedCard = code;
  if (choosing()) {
    if (selected.has(code)) selected.delete(code);
    else selected.add(code);
    render(true);
  } else act("p" + code);
}

function render(keepFocus = false) {
  const hadFocus = keepFocus || board.contains(document.activeElement);
  table.dataset.state = view.over ? "over" : view.legal.length ? "your-turn" : "waiting";
  table.dataset.legal = JSON.stringify(view.legal);
  table.dataset.deal = String(view.deal_number);
  table.dataset.records = JSON.stringify(view.records);
  status.textContent = view.status;
  selected = new Set([...selected].filter((card) => view.hand.includes(card)));
  const svg = showPicture(view.picture);
  const picks = armHand(svg);
  if (hadFocus) picks.find((p) => p.getAttribute("tabindex") === "0")?.focus({ preventScroll: true });
  actions.replaceChildren();
  const add = (label, name, handler, primary = false) => {
    const button = el("button", label, primary ? "fly-primary" : "");
    button.type = "button";
    button.name = name;
    button.addEventListener("click", handler);
    actions.append(button);
  };
  if (view.legal.includes("s")) add("Stand (keep your cards)", "stand", () => act("s"));
  if (legalOf("x").length) {
    const label = selected.size ? `Exchange ${[...selected].map(cardSymbol).join(" ")}` : "Exchange the selected cards";
    add(label, "exchange", () => (selected.size ? act("x" + [...selected].join("")) : say("Click the cards to throw first, or stand.")), selected.size > 0);
  }
  if (legalOf("w").length) {
    add("Take the trump card, discarding the selected card", "swap", () =>
      selected.size === 1 ? act("w" + [...selected][0]) : say("Select the one card to discard first."),
    );
  }
  if (view.legal.includes("f")) add("Fold", "fold", () => act("f"));
  if (view.legal.length) add("Hint", "hint", showHint);
  if (!view.legal.length && !view.over) actions.append(el("span", "Waiting for the other seats…", "fly-quiet"));
}

function say(text) {
  message.replaceChildren(el("span", text));
}

async function showHint() {
  say(`Asking the ${view.hint_bot} bot… (the expert may think for a few seconds)`);
  const answer = await run("hint");
  if (!answer || !answer.move) return render();
  hinted = new Set(answer.move[0] === "p" || answer.move[0] === "x" || answer.move[0] === "w" ? answer.move.slice(1).match(/../g) : []);
  render();
  say(`Hint (the ${answer.bot} bot): ${answer.text}.`);
  message.dataset.hint = answer.move;
}

// Call the engine with everything that starts an action disabled: one request, and one match, at a time.
async function run(name, ...args) {
  if (servedOverFile()) {
    status.textContent = FILE_NOTICE;
    return null;
  }
  busy = true;
  if (table.dataset.state !== "loading") table.dataset.state = "waiting";
  for (const button of table.querySelectorAll("button")) button.disabled = true;
  form.start.disabled = true;
  form.history.disabled = true;
  try {
    return await call(name, ...args);
  } catch (error) {
    status.textContent = `The engine failed: ${error.message}`;
    return null;
  } finally {
    busy = false;
  }
}

function settled() {
  form.start.disabled = false;
  form.history.disabled = false;
}

async function answered(answer, { starting = false } = {}) {
  if (answer === null) return settled();
  message.replaceChildren();
  delete message.dataset.hint;
  if (answer.refused) message.replaceChildren(refusalNode(answer.refused));
  if (!answer.view) { // refused before a match: the table stays as it was
    if (view) render();
    else table.dataset.state = "idle";
    if (starting) status.textContent = view ? view.status : "Not started: the reason is under the table.";
    return settled();
  }
  if (starting) {
    clear();
    form.start.textContent = "Start a new match";
    showPicture(answer.view.picture); // the table's size, so that it can be scrolled to
    board.scrollIntoView({ block: "start", behavior: "instant" }); // at once: the table is where it will stay
  }
  view = answer.view; // the events below are shown from the reader's seat; the table waits until they are
  if (answer.events) {
    busy = true;
    try {
      await playEvents(answer.events);
    } finally {
      busy = false;
    }
  }
  download.disabled = false;
  render();
  settled();
}

async function act(move) {
  if (busy) return;
  const before = view.hand;
  const exchanging = move[0] === "x" || move[0] === "w";
  hinted = new Set();
  const answer = await run("act", move);
  if (answer && !answer.refused) {
    const got = exchanging ? answer.view.hand.filter((card) => !before.includes(card)) : [];
    drawnCards = new Set(got);
    selected.clear();
    if (exchanging) {
      const drew = got.length ? `You drew ${got.map(cardSymbol).join(" ")} (outlined in blue).` : "You drew no card.";
      await answered(answer);
      say(drew);
      return;
    }
  }
  await answered(answer);
}

function settings() {
  const [game, preset] = form.preset.value.split(":");
  const most = form.max_deals.value.trim();
  return {
    game, preset, players: Number(form.players.value), seat: Number(form.seat.value), bots: form.bots.value,
    maxDeals: most === "" ? null : Number(most), // empty: no limit
  };
}

// A new match: the old one's story, selection and marks go.
function clear() {
  log.replaceChildren();
  lastDeal = null;
  selected = new Set();
  hinted = new Set();
  drawnCards = new Set();
}

function loading(text) {
  status.textContent = text;
  table.dataset.state = "loading";
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (busy) return;
  const s = settings();
  loading("Loading the engine and dealing…");
  await answered(await run("new_match", s.game, s.players, s.preset, form.seed.value.trim(), s.seat, s.bots, s.maxDeals), { starting: true });
});

form.history.addEventListener("change", async () => {
  const file = form.history.files[0];
  if (!file || busy) return;
  const s = settings();
  loading("Loading the engine and replaying the history…");
  const text = await file.text();
  form.history.value = "";
  await answered(await run("load_match", text, s.seat, s.bots), { starting: true });
});

download.addEventListener("click", async () => {
  const text = await run("history");
  if (text === null) return;
  const link = el("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
  link.download = `${view.game}-match.toml`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000); // after the browser has read it
  render();
  settled();
});
