// (b) The built site in Debian's chromium (driven by playwright-core; no browser is downloaded), served
// by `python -m http.server` on 127.0.0.1: a try-it box answers; on the play page Start is disabled while
// the engine loads; a whole match of Fly, a deal of Dreyfus and a deal of seven-seat Fly are played by
// clicking the reader's cards on the table picture (one card by the keyboard), their tricks, records and
// outcomes checked against native CPython, and at every decision the table is in view (at 1280x800 every
// seat, the hand, the trick, the trumps, the records and the choices; at 400 px every seat and the
// choices, every text of 12 px or more and the cards to tap: tests/web/phone.mjs); on a phone a deal is played
// by tapping to the match's end and "Play again"; the hint names a legal move; a history
// downloaded in the browser resumes in the terminal and the terminal's continues in the browser. Every
// request the pages make is recorded: all go to the local server, and none fails.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "../../web/node_modules/playwright-core/index.mjs"; // installed by scripts/web-assets (npm ci)
import { CHROMIUM_FLAGS, native, SITE, terminal } from "./helpers.mjs";
import { checkTurn, PHONE, phoneProblems, tapMove } from "./phone.mjs";

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
// Catalogue case 1 (FLY-7.3): hearts are trump, seat 0 leads the A♥.
const CASE1 = "fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 s,s,s 0";
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 400, height: 800 };
let server;
let origin;
let browser;
const requests = [];
const failed = [];

before(async () => {
  server = spawn(process.env.FLY_RULES_PYTHON || "python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", SITE], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  origin = await new Promise((resolve, reject) => {
    server.stdout.on("data", (chunk) => {
      const port = /port (\d+)/.exec(String(chunk));
      if (port) resolve(`http://127.0.0.1:${port[1]}`);
    });
    server.on("exit", (code) => reject(new Error(`http.server exited with ${code}`)));
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

async function open(path, viewport = WIDE) {
  const page = await browser.newPage({ acceptDownloads: true, viewport });
  page.on("request", (request) => requests.push(request.url()));
  page.on("response", (response) => response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`));
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(origin + path);
  return { page, errors };
}

test("a try-it box loads the engine on request only, then answers a refusal with its rule (FLY-6.3)", async () => {
  const { page, errors } = await open("/catalogue/fly.html");
  const box = page.locator(`.fly-tryit[data-position="${CASE1}"]`);
  await box.waitFor();
  assert.ok(!requests.some((url) => url.includes("pyodide")), "nothing of the engine loads on page view");
  await box.locator("input").fill("pAH p7D");
  await box.locator(".fly-run").click();
  const refused = box.locator(".fly-refused");
  await refused.waitFor({ timeout: 120000 });
  assert.match(await refused.textContent(), /FLY-6\.3 \(Following suit\): must follow suit \(A♥ led, 7♦ played\)/);
  assert.equal(await refused.locator("a").getAttribute("href"), `${origin}/rules/fly.html#FLY-6.3`);
  assert.equal(await box.locator(".fly-records").textContent(), "Tricks taken 0, 0, 0; records 25, 25, 25.");
  assert.equal(await box.locator("figure.fly-table > svg").count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

const STATE = () => document.getElementById("fly-play").dataset.state;

// The table once the reader is to move, the match is over, or a deal's summary waits to be closed.
async function waitForTurn(page) {
  await page.waitForFunction((states) => states.includes(document.getElementById("fly-play").dataset.state), ["your-turn", "over", "summary"], {
    timeout: 120000,
  });
  return page.evaluate(() => {
    const table = document.getElementById("fly-play");
    return { state: table.dataset.state, legal: JSON.parse(table.dataset.legal || "[]"), deal: Number(table.dataset.deal) };
  });
}

// Every part of the table that must be in view, and those that are not (their rectangles in the window).
async function outOfView(page, parts) {
  return page.evaluate((selectors) => {
    const out = [];
    for (const selector of selectors) {
      const found = document.querySelectorAll(selector);
      if (!found.length) out.push(`${selector}: missing`);
      for (const node of found) {
        const r = node.getBoundingClientRect();
        if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
          out.push(`${selector}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} in ${innerWidth}x${innerHeight}`);
        }
      }
    }
    return out;
  }, parts);
}

// At 1280x800 the whole table: every seat (its record and hand), the trick in progress, the trump card
// and the stock or talon, the reader's cards and the choices. At 400 px every seat's box.
const WIDE_PARTS = ["#fly-play-picture g.seat", "#fly-play-picture .fly-pick", "#fly-play-picture g.middle", "#fly-play-picture g.trick-card", "#fly-play-actions", "#fly-play-status"];
const NARROW_PARTS = ["#fly-play-picture g.seat", "#fly-play-actions"];

async function checkView(page, parts, inTrick) {
  const wanted = inTrick ? parts : parts.filter((p) => !p.includes("trick-card"));
  assert.deepEqual(await outOfView(page, wanted), []);
  if (parts === NARROW_PARTS) assert.deepEqual(await phoneProblems(page), []); // texts to read, cards to tap
}

// A card of the reader's hand, clicked where a person sees it: its left edge (the next card covers the rest).
async function clickCard(page, card) {
  await page.locator(`#fly-play-picture .fly-pick[data-card="${card}"]`).click({ position: { x: 3, y: 20 } });
}

// Make a move as a reader does: a button, a card on the picture, or the cards to throw and then Exchange.
async function clickMove(page, move) {
  if (move === "s") await page.click("button[name=stand]");
  else if (move === "f") await page.click("button[name=fold]");
  else if (move[0] === "p") await clickCard(page, move.slice(1));
  else if (move[0] === "x") {
    for (let i = 1; i < move.length; i += 2) await clickCard(page, move.slice(i, i + 2));
    await page.click("button[name=exchange]");
  } else throw new Error(`the scripted reader has no click for ${move}`);
}

// Play on with the first legal move (the reader of fly_live.play_through), closing each deal's summary,
// checking the view at every decision; `extra(page, turn)` may act first and return true when it moved.
async function playOut(page, parts, extra = async () => false, { review = false } = {}) {
  let turn = await waitForTurn(page);
  let decisions = 0;
  let reviewed = !review;
  while (turn.state !== "over") {
    if (turn.state === "summary") {
      assert.match(await page.locator("#fly-play-summary h4").textContent(), /^Deal \d+ is over$|^The match is over$/);
      if (!reviewed) {
        // The review of the reader's decisions in the deal: graded as the hint would, every card open beside.
        await page.click("button[name=review]");
        const head = page.locator("#fly-play-summary .fly-review-head");
        await head.waitFor({ timeout: 120000 });
        assert.match(await head.textContent(), /^Graded as the hint would on what you could see .*your play cost \d+:$/);
        const rows = await page.locator("#fly-play-summary .fly-review li").allTextContents();
        assert.ok(rows.length > 0 && rows.every((row) => /^(the exchange|trick \d+)/.test(row)), rows.join("; "));
        reviewed = true;
      }
      await page.click("button[name=next]");
    } else {
      const inTrick = await page.locator("#fly-play-picture g.trick-card").count();
      await checkView(page, parts, inTrick > 0);
      decisions += 1;
      if (!(await extra(page, turn))) await clickMove(page, turn.legal[0]);
    }
    turn = await waitForTurn(page);
  }
  return decisions;
}

async function start(page, settings) {
  for (const [name, value] of Object.entries(settings)) {
    if (name === "game" || name === "players") await page.selectOption(`select[name=${name}]`, value);
    else await page.fill(`input[name=${name}]`, value);
  }
  await page.selectOption("select[name=speed]", "0"); // no pause between the bots' cards in tests
  await page.click("button[name=start]");
}

test("Start is disabled while the engine loads; a whole Fly match played on the picture ends as in native CPython", async () => {
  const { page, errors } = await open("/play.html");
  assert.equal(await page.inputValue("input[name=max_deals]"), "10"); // the page's cap unless changed
  await start(page, { players: "3", seed: "5" });
  assert.ok(await page.locator("button[name=start]").isDisabled(), "Start is disabled during the load");
  assert.ok(await page.locator("input[name=history]").isDisabled());
  assert.equal(await page.evaluate(STATE), "loading");
  let refusedOnce = false;
  let byKeyboard = false;
  const decisions = await playOut(page, WIDE_PARTS, async (p, turn) => {
    const move = turn.legal[0];
    if (move[0] !== "p") return false;
    if (!refusedOnce && (await p.locator("#fly-play-picture .fly-pick.illegal").count())) {
      await p.locator("#fly-play-picture .fly-pick.illegal").first().click({ position: { x: 3, y: 20 } });
      await waitForTurn(p);
      const refusal = /^Refused: play \S+[♠♥♦♣]\. FLY-6\.\d \([^)]+\): must .+ \(\S+[♠♥♦♣] led, \S+[♠♥♦♣] played\)$/;
      assert.match(await p.locator("#fly-play-message").textContent(), refusal);
      refusedOnce = true;
    }
    if (!byKeyboard && (await p.locator("#fly-play-picture .fly-pick").count()) > 1) {
      // The keyboard: Tab into the hand, the arrows to the card, Enter.
      const cards = await p.locator("#fly-play-picture .fly-pick").evaluateAll((picks) => picks.map((g) => g.dataset.card));
      await p.locator('#fly-play-picture .fly-pick[tabindex="0"]').focus();
      let at = cards.indexOf(await p.locator('#fly-play-picture .fly-pick[tabindex="0"]').getAttribute("data-card"));
      while (cards[at] !== move.slice(1)) {
        await p.keyboard.press("ArrowRight");
        at = (at + 1) % cards.length;
      }
      await p.keyboard.press("Enter");
      byKeyboard = true;
      return true;
    }
    return false;
  }, { review: true });
  assert.ok(refusedOnce, "some card of the match was not playable");
  assert.ok(byKeyboard);
  const expected = native("play_through", "fly", 3, "default", "5", 0, "rule-of-thumb", 10);
  assert.ok(decisions > 10);
  assert.equal(await page.locator("#fly-play-status").textContent(), expected.outcome.join(" "));
  assert.equal(await page.locator("#fly-play").getAttribute("data-records"), JSON.stringify(expected.final));
  const takers = await page.locator("p.fly-trick").evaluateAll((lines) => lines.map((l) => Number(l.dataset.taker)));
  assert.deepEqual(takers, expected.tricks.map((t) => t.taker));
  const ends = await page.locator("p.fly-deal-end").evaluateAll((lines) => lines.map((l) => JSON.parse(l.dataset.records)));
  assert.deepEqual(ends, expected.records);
  assert.equal(await page.locator("p.fly-deal").count(), expected.records.length); // one match: each deal told once
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [size, viewport, parts] of [["1280x800", WIDE, WIDE_PARTS], ["400 px", NARROW, NARROW_PARTS]]) {
  test(`a Dreyfus deal played on the picture at ${size}: the table in view at every decision, as native CPython's`, async () => {
    const { page, errors } = await open("/play.html", viewport);
    await start(page, { game: "dreyfus", seed: "4", max_deals: "1" });
    const decisions = await playOut(page, parts);
    assert.ok(decisions >= 12); // twelve tricks
    const expected = native("play_through", "dreyfus", 3, "default", "4", 0, "rule-of-thumb", 1);
    assert.equal(await page.locator("#fly-play-status").textContent(), expected.outcome.join(" "));
    assert.equal(await page.locator("#fly-play").getAttribute("data-records"), JSON.stringify(expected.final));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`seven seats of Fly at ${size}: the table in view at every decision of a deal`, async () => {
    const { page, errors } = await open("/play.html", viewport);
    await start(page, { players: "7", seed: "9", max_deals: "1" });
    await playOut(page, parts);
    const expected = native("play_through", "fly", 7, "default", "9", 0, "rule-of-thumb", 1);
    assert.equal(await page.locator("#fly-play").getAttribute("data-records"), JSON.stringify(expected.final));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("on a phone (400x800, touch) a whole Fly deal is played by tapping: texts of 12 px or more, cards to tap, the last trick, the match's end and play again", async () => {
  const context = await browser.newContext({ ...PHONE, acceptDownloads: true });
  const page = await context.newPage();
  page.on("request", (request) => requests.push(request.url()));
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(origin + "/play.html");
  await start(page, { players: "4", seed: "3", max_deals: "1" });
  let turn = await waitForTurn(page);
  assert.equal(await page.locator("#fly-play-picture > svg.narrow").count(), 1, "the picture laid out for a phone");
  let decisions = 0;
  let sawLastTrick = false;
  while (turn.state === "your-turn") {
    await checkView(page, NARROW_PARTS, false);
    sawLastTrick = await checkTurn(page, 4, sawLastTrick, decisions);
    await tapMove(page, turn.legal[0]);
    decisions += 1;
    turn = await waitForTurn(page);
  }
  assert.ok(sawLastTrick && decisions >= 4, `${decisions} decisions`);
  // The end of the match: what decided it, the standings in order (the reader's row marked), Play again.
  assert.equal(turn.state, "summary");
  assert.deepEqual(await phoneProblems(page), []);
  const expected = native("play_through", "fly", 4, "default", "3", 0, "rule-of-thumb", 1);
  const summary = page.locator("#fly-play-summary");
  assert.equal(await summary.locator("h4").textContent(), "The match is over");
  assert.equal(await summary.locator(".fly-decided").textContent(), expected.outcome[0]);
  const order = [...expected.outcome[1].matchAll(/(\d):-?\d+/g)].map((m) => `seat ${m[1]}`);
  const rows = await summary.locator("tr th:first-child").allTextContents();
  assert.deepEqual(rows.slice(1).map((row) => row.replace(/^\d\. /, "").replace(" (you)", "")), order);
  assert.ok(rows.includes(`${order.indexOf("seat 0") + 1}. seat 0 (you)`), rows.join());
  await summary.locator("button[name=again]").tap();
  await page.waitForFunction(() => document.getElementById("fly-play").dataset.deal === "0" && document.querySelectorAll("p.fly-deal").length === 1
    && ["your-turn", "over"].includes(document.getElementById("fly-play").dataset.state));
  assert.equal(await page.inputValue("input[name=seed]"), "4"); // the next seed
  assert.equal(await page.locator("#fly-play").getAttribute("data-records"), JSON.stringify(["25", "25", "25", "25"]));
  assert.deepEqual(errors, []);
  await context.close();
});

test("the hint names a legal move of the hint bot; a history downloaded resumes in the terminal, the terminal's continues here", async () => {
  const { page, errors } = await open("/play.html");
  await start(page, { players: "3", seed: "4" });
  let turn = await waitForTurn(page);
  await clickMove(page, "s");
  turn = await waitForTurn(page); // the play: a hint there is quick even for the expert in Pyodide
  await page.click("button[name=hint]");
  await page.waitForFunction(() => document.getElementById("fly-play-message").dataset.hint);
  const hint = await page.locator("#fly-play-message").getAttribute("data-hint");
  assert.ok(turn.legal.includes(hint), `${hint} is legal`);
  assert.match(await page.locator("#fly-play-message").textContent(), /^Hint \(the [a-z-]+ bot\): play /);
  assert.ok(await page.locator(`#fly-play-picture .fly-pick.hinted[data-card="${hint.slice(1)}"]`).count());
  await clickCard(page, hint.slice(1));
  turn = await waitForTurn(page);
  const download = page.waitForEvent("download");
  await page.click("button[name=download]");
  let text = "";
  for await (const chunk of await (await download).createReadStream()) text += chunk;
  const folder = mkdtempSync(join(tmpdir(), "fly-rules-web-"));
  const saved = join(folder, "fly-match.toml");
  writeFileSync(saved, text);
  const told = terminal(["play", "--resume", saved], "quit\n");
  assert.match(told, /\(resumed from .*fly-match\.toml after \d+ actions\)/);
  assert.match(told, /your turn \(seat 0\), play/);
  // The terminal's save (seed 4: seat 0 stands, then quits) continues in the browser at the same turn.
  const game = join(folder, "game.toml");
  terminal(["play", "--players", "3", "--seed", "4", "--save", game], "stand\nquit\n");
  await page.setInputFiles("input[name=history]", { name: "game.toml", mimeType: "application/toml", buffer: readFileSync(game) });
  turn = await waitForTurn(page);
  assert.equal(turn.state, "your-turn");
  assert.deepEqual(turn.legal, ["pTD", "pKD"]); // diamonds led; the 10♦ and K♦ follow
  assert.equal(await page.locator("#fly-play-picture g.seat").count(), 3);
  // A history the rules refuse leaves the status saying so, not that it is still loading.
  await page.setInputFiles("input[name=history]", { name: "bad.toml", mimeType: "application/toml", buffer: Buffer.from("not a history") });
  await page.waitForFunction(() => document.querySelector("#fly-play-message .fly-refused"));
  assert.match(await page.locator("#fly-play-message").textContent(), /^Refused\. REC-/);
  assert.doesNotMatch(await page.locator("#fly-play-status").textContent(), /Loading/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The learned hint (issue 49): its network runs in plain Python in Pyodide (no NumPy there), the weights read
// from the wheel on the first ask; from the click to the hint on the table, within a second.
for (const [settings, what] of [[{ game: "fly", players: "4", seed: "4" }, "Fly at four seats"], [{ game: "dreyfus", seed: "3" }, "Dreyfus"]]) {
  test(`the learned hint answers within a second of the click: ${what}`, async (t) => {
    const { page, errors } = await open("/play.html");
    await start(page, settings);
    const turn = await waitForTurn(page);
    assert.equal(turn.state, "your-turn");
    await page.selectOption("select[name=hintbot]", "learned");
    const clicked = performance.now();
    await page.click("button[name=hint]");
    await page.waitForFunction(() => document.getElementById("fly-play-message").dataset.hint, null, { timeout: 10000 });
    const took = performance.now() - clicked;
    t.diagnostic(`from the click to the hint: ${Math.round(took)} ms`);
    assert.ok(took < 1000, `the learned hint took ${Math.round(took)} ms`);
    const hint = await page.locator("#fly-play-message").getAttribute("data-hint");
    assert.match(await page.locator("#fly-play-message").textContent(), /^Hint \(the learned bot\): /);
    if (settings.game === "fly") assert.ok(turn.legal.includes(hint), `${hint} is legal`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("every request of the pages went to the local server, and none failed (a favicon included)", () => {
  assert.ok(requests.some((url) => url.endsWith("pyodide.asm.wasm")));
  assert.deepEqual(requests.filter((url) => !url.startsWith(origin + "/") && !url.startsWith("blob:") && !url.startsWith("data:")), []);
  assert.deepEqual(failed, []);
});
