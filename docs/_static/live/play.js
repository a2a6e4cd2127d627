// The play page: a match of Fly or Dreyfus against the library's bots, the engine in a Web Worker.
// The reader's hand is cards to click; in the exchange the cards to throw are selected, then
// "Exchange"; every refusal is answered with the rule and its reason. All text goes in with textContent.
import { call, cardSymbol, el, FILE_NOTICE, isRed, moveText, servedOverFile, svgNode } from "./engine.js";

const form = document.getElementById("fly-play-settings");
const table = document.getElementById("fly-play");
let view = null;
let selected = new Set();
let busy = false;
let lastDeal = null;

const status = el("p", "Choose the game and press Start: the engine (about 12 MB) loads then.", "fly-status");
status.id = "fly-play-status";
const message = el("p", "", "fly-refused");
message.id = "fly-play-message";
const drawn = el("p", "", "fly-drawn");
drawn.id = "fly-play-drawn";
const handRow = el("div", null, "fly-hand");
handRow.id = "fly-play-hand";
const actions = el("div", null, "fly-actions");
const picture = el("figure", null, "fly-table");
const lastTrick = el("p", "", "fly-last-trick");
lastTrick.id = "fly-play-last-trick";
const records = el("p", "", "fly-records");
records.id = "fly-play-records";
const log = el("div", null, "fly-log");
log.id = "fly-play-log";
const tools = el("div", null, "fly-tools");
const download = el("button", "Download the history (TOML)");
download.type = "button";
download.name = "download";
download.disabled = true;
tools.append(download);
table.replaceChildren(status, message, handRow, drawn, actions, lastTrick, records, picture, tools, el("h3", "What happened"), log);

function syncSettings() {
  const game = form.game.value;
  if (game === "dreyfus") form.players.value = "3";
  form.players.disabled = game === "dreyfus";
  for (const option of form.preset.options) option.hidden = !option.value.startsWith(game + ":");
  if (!form.preset.value.startsWith(game + ":")) form.preset.value = `${game}:default`;
}
form.game.addEventListener("change", syncSettings);
syncSettings();

function logLine(text, className, data = {}) {
  const line = el("p", text, className);
  for (const [key, value] of Object.entries(data)) line.dataset[key] = value;
  log.append(line);
  log.scrollTop = log.scrollHeight;
}

function showEvents(events) {
  for (const event of events) {
    if (event.deal_number !== lastDeal) {
      lastDeal = event.deal_number;
      logLine(`Deal ${event.deal_number + 1}`, "fly-deal");
    }
    const who = event.seat === view?.seat ? "you" : `seat ${event.seat}`;
    // The narration tells a declaration or an exchange; a card played is told here, then its trick.
    const told = event.lines.filter((line) => !line.startsWith("trick "));
    if (event.move[0] === "p") logLine(`${who}: ${moveText(event.move)}`);
    for (const line of told) logLine(line);
    if (event.trick) {
      const cards = event.trick.cards.map(([seat, card]) => `${seat}:${card}`).join("  ");
      lastTrick.textContent = `Last trick (deal ${event.deal_number + 1}): ${cards} → seat ${event.trick.taker} takes it.`;
      logLine(`Trick: ${cards} → seat ${event.trick.taker} takes it`, "fly-trick", {
        deal: event.deal_number,
        taker: event.trick.taker,
      });
    }
    for (const line of event.records) logLine(`Record: ${line}`, "fly-record");
    if (event.deal_over) {
      logLine(`Records after deal ${event.deal_number + 1}: ${event.deal_records.join(", ")}`, "fly-deal-end", {
        deal: event.deal_number,
        records: JSON.stringify(event.deal_records),
      });
    }
  }
}

function legalOf(kind) {
  return view.legal.filter((move) => move[0] === kind);
}

function render() {
  table.dataset.state = view.over ? "over" : view.legal.length ? "your-turn" : "waiting";
  table.dataset.legal = JSON.stringify(view.legal);
  table.dataset.deal = String(view.deal_number);
  const game = view.game === "fly" ? "Fly" : "Dreyfus";
  status.textContent = view.over
    ? `The match is over. ${view.outcome.join(" ")}`
    : `${game}, deal ${view.deal_number + 1}, seat ${view.dealer} deals; you are seat ${view.seat}. ` +
      (view.legal.length ? `Your turn (${view.phase}).` : `Seat ${view.to_move} to move.`);
  records.textContent = `Tricks taken ${view.tricks_taken.join(", ")}; records ${view.records.join(", ")}.`;
  records.dataset.records = JSON.stringify(view.records);
  const choosing = view.legal.some((move) => move[0] === "x" || move[0] === "w");
  selected = new Set([...selected].filter((card) => view.hand.includes(card)));
  handRow.replaceChildren();
  for (const code of view.hand) {
    const button = el("button", cardSymbol(code), "fly-card");
    button.type = "button";
    button.dataset.card = code;
    if (isRed(code)) button.classList.add("red");
    if (view.legal.includes("p" + code)) button.classList.add("legal");
    if (selected.has(code)) button.classList.add("selected");
    if (drawn.dataset.cards && drawn.dataset.cards.split(" ").includes(code)) button.classList.add("drawn");
    button.title = choosing ? "select to throw" : "play this card";
    button.addEventListener("click", () => (choosing ? toggle(code) : act("p" + code)));
    handRow.append(button);
  }
  actions.replaceChildren();
  const add = (label, name, handler) => {
    const button = el("button", label);
    button.type = "button";
    button.name = name;
    button.addEventListener("click", handler);
    actions.append(button);
  };
  if (view.legal.includes("s")) add("Stand (keep your cards)", "stand", () => act("s"));
  if (legalOf("x").length) {
    add("Exchange the selected cards", "exchange", () =>
      selected.size ? act("x" + [...selected].join("")) : (message.textContent = "Select the cards to throw first, or stand."),
    );
  }
  if (legalOf("w").length) {
    add("Take the trump card, discarding the selected card", "swap", () =>
      selected.size === 1 ? act("w" + [...selected][0]) : (message.textContent = "Select the one card to discard first."),
    );
  }
  if (view.legal.includes("f")) add("Fold", "fold", () => act("f"));
  picture.replaceChildren(svgNode(view.picture), el("figcaption", `The table as seat ${view.seat} sees it.`));
}

function toggle(code) {
  if (selected.has(code)) selected.delete(code);
  else selected.add(code);
  render();
}

async function run(name, ...args) {
  if (servedOverFile()) {
    status.textContent = FILE_NOTICE;
    return null;
  }
  busy = true;
  table.dataset.state = "waiting";
  for (const button of table.querySelectorAll("button")) button.disabled = true;
  try {
    return await call(name, ...args);
  } catch (error) {
    status.textContent = `The engine failed: ${error.message}`;
    return null;
  } finally {
    busy = false;
  }
}

function answered(answer) {
  if (answer === null) return;
  message.textContent = "";
  if (answer.refused) {
    const r = answer.refused;
    message.textContent = `Refused${r.move ? ": " + moveText(r.move) : ""}. ${r.rule ? `${r.rule} (${r.title}): ` : ""}${r.detail}`;
  }
  if (answer.view) {
    view = answer.view;
    if (answer.events) showEvents(answer.events);
    download.disabled = false;
    render();
  }
}

async function act(move) {
  if (busy) return;
  const before = view.hand;
  const exchanging = move[0] === "x" || move[0] === "w";
  status.textContent = "The bots are playing…";
  const answer = await run("act", move);
  if (answer && !answer.refused && exchanging) {
    const got = answer.view.hand.filter((card) => !before.includes(card));
    drawn.dataset.cards = got.join(" ");
    drawn.textContent = got.length ? `You drew: ${got.map(cardSymbol).join(" ")}` : "You drew no card.";
  } else if (answer && !answer.refused) {
    drawn.dataset.cards = "";
    drawn.textContent = "";
  }
  if (answer && !answer.refused) selected.clear();
  answered(answer);
}

function settings() {
  const [game, preset] = form.preset.value.split(":");
  const most = form.max_deals.value.trim();
  return {
    game, preset, players: Number(form.players.value), seat: Number(form.seat.value), bots: form.bots.value,
    maxDeals: most === "" ? null : Number(most), // empty: no limit
  };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const s = settings();
  log.replaceChildren();
  lastTrick.textContent = "";
  lastDeal = null;
  view = null;
  status.textContent = "Loading the engine and dealing…";
  answered(await run("new_match", s.game, s.players, s.preset, form.seed.value.trim(), s.seat, s.bots, s.maxDeals));
  form.start.disabled = false;
  form.start.textContent = "Start a new match";
});

form.history.addEventListener("change", async () => {
  const file = form.history.files[0];
  if (!file) return;
  const s = settings();
  log.replaceChildren();
  lastDeal = null;
  status.textContent = "Loading the engine and replaying the history…";
  answered(await run("load_match", await file.text(), s.seat, s.bots));
  form.start.disabled = false;
  form.history.value = "";
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
});
