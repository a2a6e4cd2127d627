// (b) The built site in Debian's chromium (driven by playwright-core; no browser is downloaded), served
// by `python -m http.server` on 127.0.0.1: a try-it box answers, and a whole deal of Fly is played on
// the play page by clicking, its trick winners and records checked against native CPython for the same
// seed, then whole matches of Dreyfus and of Fly, their outcomes as native CPython's. Every request the
// pages make is recorded: all go to the local server.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { chromium } from "../../web/node_modules/playwright-core/index.mjs"; // installed by scripts/web-assets (npm ci)
import { CHROMIUM_FLAGS, native, SITE } from "./helpers.mjs";

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
// Catalogue case 1 (FLY-7.3): hearts are trump, seat 0 leads the A♥.
const CASE1 = "fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 s,s,s 0";
let server;
let origin;
let browser;
const requests = [];

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

async function open(path) {
  const page = await browser.newPage({ acceptDownloads: true });
  page.on("request", (request) => requests.push(request.url()));
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
  assert.match(await refused.textContent(), /FLY-6\.3 \(Following suit\)/);
  assert.equal(await box.locator(".fly-records").textContent(), "Tricks taken 0, 0, 0; records 25, 25, 25.");
  assert.equal(await box.locator("figure.fly-table > svg").count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

async function waitForTurn(page) {
  await page.waitForFunction(
    () => ["your-turn", "over"].includes(document.getElementById("fly-play").dataset.state),
    null,
    { timeout: 120000 },
  );
  return page.evaluate(() => {
    const table = document.getElementById("fly-play");
    return { state: table.dataset.state, legal: JSON.parse(table.dataset.legal), deal: Number(table.dataset.deal) };
  });
}

// Make a move as a reader does: a button, a card, or the cards to throw and then Exchange.
async function clickMove(page, move) {
  if (move === "s") await page.click("button[name=stand]");
  else if (move === "f") await page.click("button[name=fold]");
  else if (move[0] === "p") await page.click(`#fly-play-hand .fly-card[data-card="${move.slice(1)}"]`);
  else if (move[0] === "x") {
    for (let i = 1; i < move.length; i += 2) await page.click(`#fly-play-hand .fly-card[data-card="${move.slice(i, i + 2)}"]`);
    await page.click("button[name=exchange]");
  } else throw new Error(`the scripted reader has no click for ${move}`);
}

test("a whole deal played by clicking: trick winners and records as native CPython's, a refused card answered with its rule", async () => {
  const settings = ["fly", 3, "default", "5", 0, "rule-of-thumb"];
  const expected = native("play_through", ...settings);
  const { page, errors } = await open("/play.html");
  await page.selectOption("select[name=players]", "3");
  await page.fill("input[name=seed]", "5");
  await page.click("button[name=start]");
  let turn = await waitForTurn(page);
  let refusedOnce = false;
  while (turn.state === "your-turn" && turn.deal === 0) {
    const move = turn.legal[0]; // the scripted reader of fly_live.play_through: the first legal move
    if (move[0] === "p" && !refusedOnce) {
      const illegal = page.locator("#fly-play-hand .fly-card:not(.legal)");
      if (await illegal.count()) {
        await illegal.first().click();
        turn = await waitForTurn(page);
        assert.match(await page.locator("#fly-play-message").textContent(), /^Refused: play .*FLY-6\.\d \(/);
        refusedOnce = true;
      }
    }
    await clickMove(page, move);
    turn = await waitForTurn(page);
  }
  assert.ok(refusedOnce, "some card of the deal was not playable");
  const takers = await page.locator('p.fly-trick[data-deal="0"]').evaluateAll((lines) => lines.map((l) => Number(l.dataset.taker)));
  assert.deepEqual(takers, expected.tricks.filter((t) => t.deal === 0).map((t) => t.taker));
  const records = await page.locator('p.fly-deal-end[data-deal="0"]').getAttribute("data-records");
  assert.deepEqual(JSON.parse(records), expected.records[0]);
  const download = page.waitForEvent("download");
  await page.click("button[name=download]");
  const history = await (await download).createReadStream();
  let text = "";
  for await (const chunk of history) text += chunk;
  assert.match(text, /game = "fly"/);
  // Loaded again, the history continues the same match, at the same turn.
  const before = await page.evaluate(() => [document.getElementById("fly-play").dataset.legal, document.getElementById("fly-play-records").dataset.records]);
  await page.setInputFiles("input[name=history]", { name: "fly-match.toml", mimeType: "application/toml", buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.getElementById("fly-play-log").childElementCount === 0 || document.getElementById("fly-play").dataset.state === "waiting");
  turn = await waitForTurn(page);
  const again = await page.evaluate(() => [document.getElementById("fly-play").dataset.legal, document.getElementById("fly-play-records").dataset.records]);
  assert.deepEqual(again, before);
  assert.equal(turn.deal, 1);
  assert.equal(await page.locator("#fly-play-message").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});

test("whole matches of Dreyfus and of Fly played by clicking end as in native CPython, at most the deals asked for", async () => {
  const { page, errors } = await open("/play.html");
  assert.equal(await page.inputValue("input[name=max_deals]"), "10"); // the page's cap unless changed
  // Seven seats of Fly run to dozens of deals uncapped: "deals at most" 2 ends the match after two.
  for (const [game, players, seed, most] of [["dreyfus", 3, "4", 10], ["fly", 7, "9", 2]]) {
    await page.selectOption("select[name=game]", game);
    if (game === "fly") await page.selectOption("select[name=players]", String(players)); // Dreyfus: 3, fixed
    await page.fill("input[name=seed]", seed);
    await page.fill("input[name=max_deals]", String(most));
    await page.click("button[name=start]");
    let turn = await waitForTurn(page);
    while (turn.state === "your-turn") {
      await clickMove(page, turn.legal[0]);
      turn = await waitForTurn(page);
    }
    const expected = native("play_through", game, players, "default", seed, 0, "rule-of-thumb", most);
    assert.ok(expected.records.length <= most);
    assert.equal(await page.locator("#fly-play-status").textContent(), `The match is over. ${expected.outcome.join(" ")}`);
    assert.equal(await page.locator("#fly-play-records").getAttribute("data-records"), JSON.stringify(expected.final));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("every request of the pages went to the local server", () => {
  assert.ok(requests.some((url) => url.endsWith("pyodide.asm.wasm")));
  assert.deepEqual(requests.filter((url) => !url.startsWith(origin + "/") && !url.startsWith("blob:") && !url.startsWith("data:")), []);
});
