// The table server's lobby (/): make a table (POST /api/tables, TBL-1.1), then give one invite link per
// seat and a watch link, each with a copy button. The choices (games, table sizes, rules presets, bots)
// come from GET /api/games. All text goes in with textContent.
import { el } from "./cardtable.js";

const form = document.getElementById("fly-new-table");
const seatChoices = document.getElementById("fly-seat-choices");
const message = document.getElementById("fly-lobby-message");
const invites = document.getElementById("fly-invites");
const TITLES = { fly: "Fly", dreyfus: "Dreyfus" };
const presetName = (name) => (name === "default" ? "standard" : name.replace(/_/g, " "));
let choices = null;

function option(value, text) {
  const node = el("option", text);
  node.value = value;
  return node;
}

// Seat 0 is "you"; every other seat a friend by default, or a bot.
function syncSeats() {
  const players = Number(form.players.value);
  const kept = [...seatChoices.querySelectorAll("select")].map((select) => select.value);
  seatChoices.replaceChildren();
  for (let seat = 0; seat < players; seat += 1) {
    const label = el("label", seat === 0 ? "Seat 0 (you)" : `Seat ${seat}`);
    const select = el("select");
    select.name = `seat${seat}`;
    select.append(option("", seat === 0 ? "me" : "a friend"));
    for (const bot of choices.bots) select.append(option(bot, `bot: ${bot}`));
    select.value = kept[seat] ?? "";
    label.append(select);
    seatChoices.append(label);
  }
}

function syncGame() {
  const game = choices.games[form.game.value];
  const [low, high] = game.players;
  form.players.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => option(String(low + i), String(low + i))));
  form.players.value = String(game.default_players);
  form.players.disabled = low === high;
  form.preset.replaceChildren(...game.presets.map((name) => option(name, presetName(name))));
  syncSeats();
}

// A link with its copy button.
function linkRow(label, url, open) {
  const row = el("div", null, "fly-invite");
  const name = el("span", label, "fly-invite-name");
  const field = el("input");
  field.readOnly = true;
  field.value = url;
  field.setAttribute("aria-label", label);
  field.addEventListener("focus", () => field.select());
  const copy = el("button", "Copy");
  copy.type = "button";
  copy.name = "copy";
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      field.select(); // no clipboard here (a page not served over https): the link is selected to copy by hand
      document.execCommand("copy");
    }
    copy.textContent = "Copied";
    setTimeout(() => (copy.textContent = "Copy"), 1500);
  });
  row.append(name, field, copy);
  if (open) {
    const go = el("a", open, "fly-button fly-primary");
    go.href = url;
    row.append(go);
  }
  return row;
}

function showTable(made, body) {
  const base = location.origin;
  const tableUrl = `${base}/table/${encodeURIComponent(made.table)}`;
  const parts = [el("h2", `Your ${TITLES[body.game] || body.game} table is ready`)];
  parts.push(el("p", "Send each friend the link of their seat: the link is their seat, so send it to them alone. Open yours to sit down; the match starts as the seats play."));
  let first = true;
  for (const seat of made.seats) {
    if (seat.token === null) {
      parts.push(el("p", `Seat ${seat.seat}: the ${body.bots[String(seat.seat)]} bot plays it.`, "fly-invite fly-quiet"));
      continue;
    }
    const url = `${tableUrl}?token=${encodeURIComponent(seat.token)}`;
    parts.push(linkRow(first ? `Seat ${seat.seat} (you)` : `Seat ${seat.seat}`, url, first ? "Sit down" : null));
    first = false;
  }
  parts.push(linkRow("Watch (no cards shown)", tableUrl, null));
  const commit = el("p", "The shuffle is fixed now: its commitment is ", "fly-quiet");
  commit.append(el("code", made.commitment, "fly-hex"), ". The seed behind it is told when the match is over, so anyone can check the deals.");
  parts.push(commit);
  const again = el("button", "Set up another table");
  again.type = "button";
  again.addEventListener("click", () => {
    invites.hidden = true;
    form.hidden = false;
  });
  parts.push(again);
  invites.replaceChildren(...parts);
  invites.hidden = false;
  form.hidden = true;
  (invites.querySelector("a.fly-primary") || invites.querySelector("input"))?.focus();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const bots = {};
  for (const select of seatChoices.querySelectorAll("select")) if (select.value) bots[select.name.slice(4)] = select.value;
  const most = form.max_deals.value.trim();
  const body = {
    game: form.game.value,
    players: Number(form.players.value),
    preset: form.preset.value,
    options: most === "" ? {} : { max_deals: Number(most) },
    bots,
    turn_seconds: form.turn_seconds.value === "" ? null : Number(form.turn_seconds.value),
  };
  if (Object.keys(bots).length === body.players) {
    message.textContent = "Every seat is a bot: keep at least one seat for a person.";
    return;
  }
  form.create.disabled = true;
  message.textContent = "Setting up the table…";
  try {
    const response = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = await response.json();
    if (response.status !== 201) {
      message.textContent = `The table was not made: ${answer.error}${answer.rule ? ` (${answer.rule})` : ""}`;
      return;
    }
    message.textContent = "";
    showTable(answer, body);
  } catch (error) {
    message.textContent = `The server did not answer: ${error.message}`;
  } finally {
    form.create.disabled = false;
  }
});

async function start() {
  try {
    const response = await fetch("/api/games");
    choices = await response.json();
  } catch (error) {
    message.textContent = `The server did not answer: ${error.message}`;
    return;
  }
  form.game.addEventListener("change", syncGame);
  form.players.addEventListener("change", syncSeats);
  syncGame();
}

start();
