// The table server's table page (/table/ID?token=T): the card table of the docs' play page (cardtable.js)
// with the match on the server. The seat's view arrives on the WebSocket (socket.js) and is drawn as it
// comes; the seat's moves go back as action texts. Beside the table: every seat (a person connected or
// not, or a bot; whose turn; its record), the last trick, the match's commitment and, at the end, its seed
// and nonce with how to check them, the history to download and a rematch. All text from the server goes
// in with textContent; the picture is parsed as XML (cardtable.js).
import { cardSymbol, createTable, el } from "./cardtable.js";
import { connect, moveAction, textMove } from "./socket.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = new URLSearchParams(location.search).get("token");
const page = document.getElementById("fly-page");
const seatsNode = document.getElementById("fly-seats");
const lastTrickNode = document.getElementById("fly-last-trick");
const matchNode = document.getElementById("fly-match");
const connection = document.getElementById("fly-connection");

let message = null; // the latest view message of the server
let loggedSeq = -1; // the `seq` whose `last` lines are in the log
let loggedMatch = null;
let sent = null; // the move sent and not yet answered
let lastTrickLine = null; // the narration's line of the latest trick taken
const commitments = new Map(); // each match's commitment as first seen here, before any reveal

const table = createTable(document.getElementById("fly-play"), {
  onMove: (move) => act(move),
  statusText: "Connecting to the table…",
});
const rematch = el("button", "Play again (same seats, next dealer)", "fly-primary");
rematch.type = "button";
rematch.name = "rematch";
rematch.hidden = true;
rematch.addEventListener("click", () => {
  if (message) send({ type: "rematch", seq: message.seq }, "rematch");
});
const history = el("a", "Download the history (TOML)", "fly-button");
history.name = "history";
history.href = `/api/tables/${encodeURIComponent(tableId)}/history`;
history.setAttribute("download", "");
history.hidden = true;
table.tools.append(rematch, history);
// The story goes beside the table (under it when narrow), so that the table and its choices fit the window.
const story = document.getElementById("fly-story");
story.append(table.log.previousElementSibling, table.log);

function send(data, what) {
  if (!link.send(data)) {
    table.busy = false;
    table.say(`Not connected: your ${what} was not sent. Reconnecting…`);
    return false;
  }
  return true;
}

function act(move) {
  if (!message || table.busy) return;
  table.busy = true;
  sent = move;
  if (!send({ type: "act", seq: message.seq, action: moveAction(move) }, "move")) sent = null;
}

function seatName(seat) {
  if (message && seat === message.seat) return `Seat ${seat} (you)`;
  return `Seat ${seat}`;
}

// Each seat: who plays it (a person, connected or not, or a bot), whose turn, its record.
function showSeats(seats) {
  seatsNode.replaceChildren();
  for (const s of seats) {
    const item = el("li", null, "fly-seat");
    item.dataset.seat = String(s.seat);
    const who = s.bot ? `bot (${s.bot})` : s.connected ? "connected" : "not connected";
    item.dataset.who = s.bot ? "bot" : s.connected ? "connected" : "away";
    if (message && message.to_move === s.seat && !message.over) item.classList.add("fly-to-move");
    if (message && s.seat === message.seat) item.classList.add("fly-you");
    const dot = el("span", s.bot ? "⚙" : "●", "fly-dot");
    dot.setAttribute("aria-hidden", "true");
    item.append(dot, el("strong", seatName(s.seat)), " ", el("span", who, "fly-who"));
    if (message && message.records) item.append(el("span", `record ${message.records[s.seat]}`, "fly-record-of"));
    if (message && message.to_move === s.seat && !message.over) item.append(el("span", "to play", "fly-turn"));
    seatsNode.append(item);
  }
}

// The deal's last trick for the table's "Last trick" button: its number, cards and taker (from the narration).
function lastTrickOf(view) {
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  const taker = lastTrickLine && lastTrickLine.startsWith(`trick ${tricks.length}:`) ? /-> seat (\d+)/.exec(lastTrickLine) : null;
  const cards = tricks[tricks.length - 1].map(([seat, card]) => [seat, cardSymbol(card)]);
  return { number: tricks.length, cards, taker: taker ? Number(taker[1]) : null };
}

// The last trick taken, card by card, and who took it (the picture shows the trick in play).
function showLastTrick(view) {
  const tricks = view.tricks || [];
  if (!tricks.length) {
    lastTrickNode.replaceChildren(el("span", "No trick taken yet in this deal.", "fly-quiet"));
    return;
  }
  const trick = tricks[tricks.length - 1];
  const list = el("ol", null, "fly-trick-cards");
  for (const [seat, card] of trick) list.append(el("li", `${seatName(seat)}: ${cardSymbol(card)}`));
  const takenBy = lastTrickLine && lastTrickLine.startsWith(`trick ${tricks.length}:`) ? lastTrickLine : null;
  lastTrickNode.replaceChildren(el("span", `Trick ${tricks.length} of this deal`, "fly-quiet"), list);
  if (takenBy) lastTrickNode.append(el("p", takenBy.replace(/^.*-> /, ""), "fly-taken"));
}

async function sha256(text) {
  if (!crypto.subtle) return null; // only in a secure context (https, or this machine)
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The match: its commitment from the start; at the end its seed and nonce, checked here against the
// commitment first seen, and the command that checks the history too.
async function showMatch(m) {
  if (!commitments.has(m.match)) commitments.set(m.match, m.commitment);
  const committed = commitments.get(m.match);
  const parts = [el("h3", `${m.game === "dreyfus" ? "Dreyfus" : "Fly"}, match ${m.match + 1}`)];
  const commit = el("p", "The shuffle's commitment (SHA-256 of the secret seed and a nonce, fixed before the deal): ");
  commit.append(el("code", committed, "fly-hex"));
  parts.push(commit);
  if (m.over && m.seed !== undefined) {
    const reveal = el("p", "The match is over, so the seed is told: ");
    reveal.append(el("code", m.seed, "fly-hex"), " and the nonce ", el("code", m.nonce, "fly-hex"), ".");
    reveal.dataset.seed = m.seed;
    parts.push(reveal);
    const digest = await sha256(`${m.seed}:${m.nonce}`);
    if (digest !== null) {
      const ok = digest === committed;
      parts.push(el("p", ok ? "✓ Checked in this browser: SHA-256 of SEED:NONCE is the commitment shown at the start." : "✗ SHA-256 of SEED:NONCE is not the commitment shown at the start!", ok ? "fly-ok" : "fly-refused"));
    }
    const how = el("p", "To check every deal yourself, download the history and run ");
    how.append(el("code", `fly-rules verify HISTORY --commitment ${committed} --nonce ${m.nonce}`, "fly-command"));
    how.append(": it checks the commitment and replays every deal from the seed.");
    parts.push(how);
  }
  matchNode.replaceChildren(...parts);
}

// What happened since the last view, told from this seat (the server's `last`, TBL-3.3).
function logLast(m) {
  if (m.match !== loggedMatch) {
    if (loggedMatch !== null) table.clear();
    loggedMatch = m.match;
    table.logLine(`Match ${m.match + 1}`, "fly-deal");
  }
  if (m.seq <= loggedSeq) return;
  if (loggedSeq >= 0 && m.seq > loggedSeq + 1) table.logLine("(some moves happened while you were away: the table shows where things stand)", "fly-quiet");
  loggedSeq = m.seq;
  const lines = m.last || [];
  const trick = lines.find((line) => line.startsWith("trick "));
  const taker = trick && /-> seat (\d+)/.exec(trick);
  if (trick) lastTrickLine = trick;
  table.logEvent({ deal_number: m.view.deal_number, lines, trick: taker ? { taker: taker[1] } : null });
  if (m.over) for (const line of m.outcome) table.logLine(line, "fly-trick");
}

function onView(m) {
  const answered = sent !== null && m.seq !== message?.seq;
  const moved = m.seq !== message?.seq;
  message = m;
  page.dataset.seat = m.seat === null ? "watcher" : String(m.seat);
  page.dataset.seq = String(m.seq);
  page.dataset.over = String(m.over);
  if (moved) table.message.replaceChildren(); // a refusal or a note stays until the table moves
  if (answered || sent === null) table.busy = false;
  if (answered) sent = null;
  logLast(m);
  const view = {
    seat: m.seat,
    legal: m.legal.map(textMove),
    hand: m.hand,
    picture: m.picture,
    status: m.over ? m.outcome.join(" ") : m.status,
    over: m.over,
    deal_number: m.view.deal_number,
    records: m.records,
    game: m.game,
    last_trick: lastTrickOf(m.view),
  };
  table.render(view);
  if (!performance.getEntriesByName("fly-first-view").length) performance.mark("fly-first-view"); // the test reads it
  if (m.seat === null) table.actions.replaceChildren(el("span", "You are watching: the players' cards are hidden from you.", "fly-quiet"));
  if (m.last && m.last.length && !table.message.textContent) table.message.replaceChildren(el("span", m.last.join(" · "), "fly-quiet"));
  rematch.hidden = !(m.over && m.seat !== null);
  history.hidden = !m.over;
  showSeats(m.seats);
  waitingNote();
  showLastTrick(m.view);
  showMatch(m);
  document.title = `${m.over ? "Over" : m.legal.length ? "Your turn" : "Waiting"} · ${m.game === "dreyfus" ? "Dreyfus" : "Fly"} table`;
}

// When the seat to move is a person who is not here, say so: the table waits for them.
function waitingNote() {
  if (!message || message.seat === null || message.over || message.to_move === null || message.to_move === message.seat) return;
  const mover = message.seats.find((s) => s.seat === message.to_move);
  if (!mover || mover.bot) return;
  const note = mover.connected ? `Seat ${mover.seat} is thinking…` : `Waiting for seat ${mover.seat}, who is not connected (has the link reached them?).`;
  const quiet = table.actions.querySelector(".fly-quiet");
  if (quiet) quiet.textContent = note;
  else table.actions.append(el("span", note, "fly-quiet"));
}

function onMessage(m) {
  if (m.type === "view") onView(m);
  else if (m.type === "seats" && message) {
    message.seats = m.seats;
    showSeats(m.seats);
    waitingNote();
  } else if (m.type === "error") {
    table.busy = false;
    table.refused({ move: sent, rule: m.rule, detail: m.message });
    sent = null;
  }
}

function onState(state, wait) {
  connection.dataset.state = state;
  if (state === "open") connection.textContent = "Connected";
  else if (state === "connecting") connection.textContent = "Connecting…";
  else connection.textContent = `Connection lost: trying again in ${Math.ceil(wait / 1000)} s`;
  if (state !== "open") {
    table.busy = true; // nothing is sent on a connection that is not there
    sent = null;
  }
}

// Under NARROW_BELOW pixels of table the server is asked for the picture laid out for a phone (TBL-3.3), whose
// labels read at 12 px there; a window resized across it reconnects for the other layout.
const NARROW_BELOW = 600;
const narrow = () => table.board.clientWidth < NARROW_BELOW;
let narrowNow = narrow();
const events = { message: onMessage, state: onState, picture: () => ((narrowNow = narrow()) ? "narrow" : null) };
if (!token) page.classList.add("fly-watching");
let link = connect(tableId, token, events);
let resized = null;
addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => {
    if (narrow() === narrowNow) return;
    link.close();
    link = connect(tableId, token, events);
  }, 250);
});
