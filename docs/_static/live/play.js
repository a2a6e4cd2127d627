// The play page: a match of Fly or Dreyfus against the library's bots, the engine in a Web Worker.
// The table is the picture: the reader's cards are clicked there (or chosen with the arrow keys and
// Enter); in the exchange the cards to throw are selected, then "Exchange". Each bot's card appears in
// turn, a summary closes each deal, every refusal names its rule. All text goes in with textContent.
import { call, FILE_NOTICE, servedOverFile, started } from "./engine.js";
import { createTable, el } from "./cardtable.js";

const form = document.getElementById("fly-play-settings");
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
// The hint's bot (web/fly_live.py HINT_BOTS): the expert thinks up to 1.5 s, the learned bot answers at once.
const hintBot = el("select");
hintBot.name = "hintbot";
for (const [value, label] of [["expert", "the expert"], ["learned", "the learned bot (quick)"]]) {
  const option = el("option", label);
  option.value = value;
  hintBot.append(option);
}
const hintLabel = el("label", "Hint from ", "fly-speed");
hintLabel.append(hintBot);
// The table (cardtable.js, shared with the table server's page): the reader's moves go to the engine.
const table = createTable(document.getElementById("fly-play"), {
  onMove: (move) => act(move),
  extraActions: (view, add) => {
    if (view.legal.length) add("Hint", "hint", showHint);
    if (view.over) add("Play again", "again", playAgain, true);
  },
  head: [speedLabel, hintLabel],
  statusText: "Choose the game and press Start: the engine (about 12 MB) loads then.",
});
const { board, status, actions, message, root: tableNode } = table;
const summary = el("div", null, "fly-summary");
summary.id = "fly-play-summary";
summary.hidden = true;
summary.setAttribute("role", "dialog");
summary.setAttribute("aria-label", "The end of the deal");
table.overlay = summary;
const download = el("button", "Download the history (TOML)");
download.type = "button";
download.name = "download";
download.disabled = true;
table.tools.append(download);

function syncSettings() {
  const game = form.game.value;
  if (game === "dreyfus") form.players.value = "3";
  form.players.disabled = game === "dreyfus";
  for (const option of form.preset.options) option.hidden = !option.value.startsWith(game + ":");
  if (!form.preset.value.startsWith(game + ":")) form.preset.value = `${game}:default`;
}
form.game.addEventListener("change", syncSettings);
syncSettings();
// A reader who reaches for the settings or Start means to play: the engine (about 12 MB) starts loading then, not
// on page view, and its first seconds pass while the reader chooses (benchmarks/first_play.mjs times a cold Start).
const warm = () => started() || servedOverFile() || call("ready").catch(() => {}); // a failure is told by Start
form.addEventListener("pointerover", warm, { once: true });
form.addEventListener("focusin", warm, { once: true });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function button(label, name, className = "") {
  const node = el("button", label, className);
  node.type = "button";
  node.name = name;
  return node;
}

// The end of a deal over the table: each seat's tricks and record before and after; the reader closes it (a
// click, Enter) and the next deal is shown. At the end of the match: what decided it, the standings (the seats
// from first to last, Fly's places numbered), the line of standings or settlement, and "Play again".
let againAfter = false; // "Play again" was clicked in the summary: a new match once this one's events are shown
function showSummary(s) {
  const over = s.outcome.length > 0;
  summary.replaceChildren(el("h4", over ? "The match is over" : `Deal ${s.deal_number + 1} is over`));
  if (over) summary.append(el("p", s.outcome[0], "fly-outcome fly-decided"));
  const grid = el("table");
  const header = el("tr");
  for (const title of ["", over ? `tricks, deal ${s.deal_number + 1}` : "tricks", s.label]) header.append(el("th", title));
  grid.append(header);
  const view = table.view;
  const ranked = over && s.label === "record";
  (over ? s.standings : s.tricks.map((_, seat) => seat)).forEach((seat, place) => {
    const row = el("tr", null, seat === view.seat ? "fly-you" : "");
    const name = seat === view.seat ? `seat ${seat} (you)` : `seat ${seat}`;
    row.append(el("th", ranked ? `${place + 1}. ${name}` : name), el("td", String(s.tricks[seat])));
    row.append(el("td", s.before[seat] === s.after[seat] ? s.after[seat] : `${s.before[seat]} → ${s.after[seat]}`));
    grid.append(row);
  });
  summary.append(grid);
  for (const line of s.outcome.slice(1)) summary.append(el("p", line, "fly-outcome"));
  const next = button(over ? "See the table" : `On to deal ${s.deal_number + 2}`, "next", over ? "" : "fly-primary");
  const review = button("Review my play", "review");
  review.title = "your decisions graded as the hint would, with every card open beside them";
  review.addEventListener("click", () => reviewDeal(s.deal_number, review, next), { once: true });
  const again = over ? [button("Play again", "again", "fly-primary"), " "] : [];
  summary.append(...again, next, " ", review);
  summary.hidden = false;
  tableNode.dataset.state = "summary";
  (over ? again[0] : next).focus({ preventScroll: true });
  return new Promise((resolve) => {
    const close = () => {
      summary.hidden = true;
      resolve();
    };
    next.addEventListener("click", close, { once: true });
    if (over) again[0].addEventListener("click", () => {
      againAfter = true;
      close();
    }, { once: true });
  });
}

// A new match with the same settings and the next seed (a number goes up by one; a word gets one added).
function playAgain() {
  if (table.busy) return;
  const seed = form.seed.value.trim();
  form.seed.value = /^\d+$/.test(seed) ? String(BigInt(seed) + 1n) : seed ? `${seed}+1` : "";
  form.requestSubmit();
}

// The review of the reader's decisions in a deal, graded one at a time as the hint would grade them (the
// expert on what the seat could know, fly_rules.analysis), with the open cards' hindsight beside each; the
// summary waits, and says how far the review has come.
const REVIEW_MS = 60000; // the page's bound on a review: a Dreyfus deal's first tricks take the expert seconds each

async function reviewDeal(dealNumber, button, next) {
  button.disabled = true;
  next.disabled = true;
  const list = el("ol", null, "fly-review");
  let openLoss = 0;
  try {
    let answer = { next: 0, total: null };
    const started = performance.now();
    while (answer.next !== null && performance.now() - started < REVIEW_MS) {
      button.textContent = answer.total === null ? "Grading your decisions…" : `Grading decision ${answer.next + 1} of ${answer.total}…`;
      answer = await call("review", dealNumber, answer.next, 1);
      for (const d of answer.decisions) {
        const values = d.best_value === null ? "" : ` Hint ${d.best}: ${d.best_value}` + (d.played === d.best ? "." : `; yours: ${d.played_value ?? "not weighed"}.`);
        const hindsight = d.open_best === null ? "" : ` With every card open: ${d.open_best}${d.open_cost ? `, cost ${d.open_cost}` : ""}.`;
        list.append(el("li", `${d.verdict}.${values}${hindsight}`, d.cost ? "fly-cost" : ""));
        openLoss += d.open_cost ?? 0;
      }
    }
    if (answer.next !== null) {
      list.append(el("li", `Decisions ${answer.next + 1} to ${answer.total} were not graded: the review stops after ${REVIEW_MS / 1000} s.`));
    }
    const head = list.childElementCount
      ? `Graded as the hint would on what you could see (the expert's estimates ±95%); with every card open your play cost ${openLoss}:`
      : "You had no choice to make in this deal.";
    button.replaceWith(el("p", head, "fly-review-head"), list);
  } catch (error) {
    button.textContent = `The review failed: ${error.message}`;
  } finally {
    next.disabled = false;
    next.focus({ preventScroll: true });
  }
}

// The events in turn: each bot's card shown with a pause (the speed setting; none "at once"), a declaration
// with a quarter of it (each seat's panel keeps what it declared), each deal's end with its summary.
async function playEvents(events) {
  const pause = Number(speed.value);
  if (events.some((event) => event.seat !== table.view.seat)) actions.replaceChildren(el("span", "The other seats are playing…", "fly-quiet"));
  for (const event of events) {
    table.logEvent(event);
    if (pause > 0 && !event.summary) {
      tableNode.dataset.state = "animating";
      table.showPicture(event.picture);
      status.textContent = event.status;
      await sleep(event.trick ? 2 * pause : event.move[0] === "p" ? pause : pause / 4);
    }
    if (event.summary) {
      table.showPicture(event.picture);
      status.textContent = event.status;
      await showSummary(event.summary);
    }
  }
}

function render() {
  table.render(table.view);
}

async function showHint() {
  table.say(hintBot.value === "expert" ? "Asking the expert… (it may think for a second or two)" : `Asking the ${hintBot.value} bot…`);
  const answer = await run("hint", hintBot.value);
  if (!answer || !answer.move) return render();
  const move = answer.move;
  table.hinted = new Set(move[0] === "p" || move[0] === "x" || move[0] === "w" ? move.slice(1).match(/../g) : []);
  render();
  table.say(`Hint (the ${answer.bot} bot): ${answer.text}.`);
  message.dataset.hint = move;
}

// Call the engine with everything that starts an action disabled: one request, and one match, at a time.
async function run(name, ...args) {
  if (servedOverFile()) {
    status.textContent = FILE_NOTICE;
    return null;
  }
  table.busy = true;
  if (tableNode.dataset.state !== "loading") tableNode.dataset.state = "waiting";
  for (const button of tableNode.querySelectorAll("button")) button.disabled = true;
  form.start.disabled = true;
  form.history.disabled = true;
  try {
    return await call(name, ...args);
  } catch (error) {
    status.textContent = `The engine failed: ${error.message}`;
    return null;
  } finally {
    table.busy = false;
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
  if (answer.refused) table.refused(answer.refused, new URL("../../", import.meta.url));
  if (!answer.view) { // refused before a match: the table stays as it was
    if (table.view) render();
    else tableNode.dataset.state = "idle";
    if (starting) status.textContent = table.view ? table.view.status : "Not started: the reason is under the table.";
    return settled();
  }
  if (starting) {
    table.clear();
    table.view = null; // a new match: no hand before it to compare with
    form.start.textContent = "Start a new match";
    table.showPicture(answer.view.picture); // the table's size, so that it can be scrolled to
    board.scrollIntoView({ block: "start", behavior: "instant" }); // at once: the table is where it will stay
  }
  const shown = table.view; // the events below are shown from the reader's seat; the table waits until they are
  table.view = answer.view;
  if (answer.events) {
    table.busy = true;
    try {
      await playEvents(answer.events);
    } finally {
      table.busy = false;
    }
  }
  download.disabled = false;
  table.view = shown;
  table.render(answer.view);
  settled();
  if (againAfter) {
    againAfter = false;
    playAgain();
  }
}

async function act(move) {
  if (table.busy) return;
  await answered(await run("act", move));
}

function settings() {
  const [game, preset] = form.preset.value.split(":");
  const most = form.max_deals.value.trim();
  return {
    game, preset, players: Number(form.players.value), seat: Number(form.seat.value), bots: form.bots.value,
    maxDeals: most === "" ? null : Number(most), // empty: no limit
  };
}

function loading(text) {
  status.textContent = text;
  tableNode.dataset.state = "loading";
  form.start.disabled = true; // until the match is dealt (settled)
  form.history.disabled = true;
}

// Under NARROW_BELOW pixels of table the engine draws the picture laid out for a phone (fly_rules.svg's narrow
// table, its labels at 12 px or more there); a window resized across it has the table drawn again.
const NARROW_BELOW = 600;
let narrowNow = null;

async function layout() {
  const narrow = board.clientWidth < NARROW_BELOW;
  if (narrow === narrowNow) return null;
  narrowNow = narrow;
  return call("layout", narrow);
}

let resized = null;
addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(async () => {
    if (!table.view || table.busy || (board.clientWidth < NARROW_BELOW) === narrowNow) return;
    table.busy = true;
    try {
      const answer = await layout();
      if (answer && answer.view) table.render(answer.view);
    } finally {
      table.busy = false;
    }
  }, 250);
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (table.busy) return;
  const s = settings();
  loading("Loading the engine and dealing…");
  if (!servedOverFile()) await layout().catch(() => null); // a failing engine is told by the match's start
  await answered(await run("new_match", s.game, s.players, s.preset, form.seed.value.trim(), s.seat, s.bots, s.maxDeals), { starting: true });
});

form.history.addEventListener("change", async () => {
  const file = form.history.files[0];
  if (!file || table.busy) return;
  const s = settings();
  loading("Loading the engine and replaying the history…");
  if (!servedOverFile()) await layout().catch(() => null);
  const text = await file.text();
  form.history.value = "";
  await answered(await run("load_match", text, s.seat, s.bots), { starting: true });
});

download.addEventListener("click", async () => {
  const text = await run("history");
  if (text === null) return;
  const link = el("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
  link.download = `${table.view.game}-match.toml`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000); // after the browser has read it
  render();
  settled();
});
