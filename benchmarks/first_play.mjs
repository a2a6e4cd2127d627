// How long the docs' play page takes from Start to the reader's first playable turn, and a hint there, in
// Debian's chromium (driven by playwright-core) on the built site served by `python -m http.server` on 127.0.0.1.
//
// Usage: node benchmarks/first_play.mjs [--runs 3] [--game fly] [--players 4] [--seed 1] [--speed 800] [--files]
//   (the site: FLY_RULES_DOCS_HTML, default docs/_build/html, built with the live engine: scripts/web-assets
//   then sphinx-build; the Python serving it: FLY_RULES_PYTHON, default python3; chromium: CHROMIUM)
//
// Each run opens the page in a fresh browser context (an empty cache: every file is downloaded) and then once more
// in the same context (a second visit: the files and compiled WebAssembly cached, marked "w"), chooses the
// settings, clicks Start and times, by the page's clock, the first moment the table waits for the reader
// (data-state "your-turn"), then clicks Hint and times the hint's answer. The engine's steps are read from the
// worker's performance timeline (boot.mjs and worker.js mark them): Pyodide and the packages loaded, fly_rules
// imported, the page's bridge (fly_live.py) imported, and each call's time in the engine. `--speed` is the
// page's pause between the bots' cards in ms (800 is the page's own; 0 is "at once"); `--files` prints when each file
// the worker fetched started and arrived.
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "../web/node_modules/playwright-core/index.mjs"; // installed by scripts/web-assets (npm ci)
import { CHROMIUM_FLAGS } from "../tests/web/flags.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SITE = resolve(process.env.FLY_RULES_DOCS_HTML || join(ROOT, "docs/_build/html"));
const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    game: { type: "string", default: "fly" },
    players: { type: "string", default: "4" },
    seed: { type: "string", default: "1" },
    speed: { type: "string", default: "800" },
    files: { type: "boolean", default: false },
  },
});

const server = spawn(process.env.FLY_RULES_PYTHON || "python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", SITE], {
  stdio: ["ignore", "pipe", "ignore"],
});
const origin = await new Promise((resolve, reject) => {
  server.stdout.on("data", (chunk) => {
    const port = /port (\d+)/.exec(String(chunk));
    if (port) resolve(`http://127.0.0.1:${port[1]}`);
  });
  server.on("exit", (code) => reject(new Error(`http.server exited with ${code}`)));
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: CHROMIUM_FLAGS });

// Resolve with the page's clock when `#id`'s attribute `name` first satisfies `test` (a MutationObserver: no polling).
const WATCH = ([id, name, values]) => new Promise((resolve) => {
  const node = document.getElementById(id);
  const done = () => values === null ? node.hasAttribute(name) : values.includes(node.getAttribute(name));
  const observer = new MutationObserver(() => {
    if (done()) {
      observer.disconnect();
      resolve(performance.now());
    }
  });
  observer.observe(node, { attributes: true, attributeFilter: [name] });
});

async function run(context) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  let bytes = 0;
  page.on("response", async (response) => {
    const length = Number((await response.allHeaders())["content-length"] || 0);
    bytes += length;
  });
  await page.goto(`${origin}/play.html`);
  await page.locator("select[name=speed]").waitFor(); // the page's module has made its table
  // The settings are set without a pointer or focus on the form (which starts the engine early): the figures are
  // those of a reader who clicks Start at once.
  await page.evaluate(({ game, players, seed, speed }) => {
    const form = document.getElementById("fly-play-settings");
    form.game.value = game;
    form.game.dispatchEvent(new Event("change"));
    if (game === "fly") form.players.value = players;
    form.seed.value = seed;
    document.querySelector("select[name=speed]").value = speed;
  }, opts);
  const turn = page.evaluate(WATCH, ["fly-play", "data-state", ["your-turn"]]);
  const clicked = await page.evaluate(() => {
    const at = performance.now();
    document.querySelector("button[name=start]").click();
    return at;
  });
  const ready = await turn;
  const legal = JSON.parse(await page.getAttribute("#fly-play", "data-legal"));
  const hinted = page.evaluate(WATCH, ["fly-play-message", "data-hint", null]);
  const asked = await page.evaluate(() => {
    const at = performance.now();
    document.querySelector("button[name=hint]").click();
    return at;
  });
  const hint = await hinted;
  const pageOrigin = await page.evaluate(() => performance.timeOrigin);
  const [worker] = page.workers();
  const marks = await worker.evaluate(() => performance.getEntries().filter((e) => e.name.startsWith("fly-")).map((e) => ({
    name: e.name, at: performance.timeOrigin + e.startTime, duration: e.duration,
  })));
  if (opts.files) {
    const files = await worker.evaluate(() => performance.getEntriesByType("resource").map((e) => [e.name.split("/").pop(), performance.timeOrigin + e.startTime, performance.timeOrigin + e.responseEnd]));
    console.log(marks.map((m) => `${m.name} ${fmt(m.at - pageOrigin - clicked)}`).join("; "));
    for (const [name, start, end] of files) console.log(`     ${name}: ${fmt(start - pageOrigin - clicked)} to ${fmt(end - pageOrigin - clicked)}`);
  }
  const since = (name) => marks.find((m) => m.name === name).at - (pageOrigin + clicked);
  const call = (name) => marks.find((m) => m.name === `fly-call-${name}`).duration;
  await page.close();
  if (errors.length) throw new Error(errors.join("; "));
  return {
    start: ready - clicked,
    hint: hint - asked,
    legal: legal.length,
    worker: since("fly-boot-start"),
    pyodide: since("fly-boot-pyodide"),
    imported: since("fly-boot-imported"),
    bridge: since("fly-boot-bridge"),
    newMatch: call("new_match"),
    hintCall: call("hint"),
    megabytes: bytes / 1e6,
  };
}

const fmt = (ms) => (ms / 1000).toFixed(2).padStart(6);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log(`${opts.game} ${opts.game === "fly" ? opts.players + " players" : ""}, seed ${opts.seed}, bots' cards every ${opts.speed} ms; seconds from Start`);
  console.log("run  worker  pyodide+pkgs  fly_rules  fly_live  new_match  first-turn | hint (engine)    MB");
  const rows = [];
  const again = [];
  for (let i = 0; i < Number(opts.runs); i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    for (const [kind, kept] of [["cold", rows], ["warm", again]]) {
      const r = await run(context);
      kept.push(r);
      console.log(`${String(i + 1).padStart(3)}${kind === "warm" ? "w" : " "} ${fmt(r.worker)}  ${fmt(r.pyodide)}        ${fmt(r.imported)}     ${fmt(r.bridge)}    ${fmt(r.newMatch)}  ${fmt(r.start)}     | ${fmt(r.hint)} (${fmt(r.hintCall).trim()})  ${r.megabytes.toFixed(1)}`);
    }
    await context.close();
  }
  console.log(`median, a second visit (w: the same browser, its cache warm): first playable turn ${fmt(median(again.map((r) => r.start))).trim()} s, hint ${fmt(median(again.map((r) => r.hint))).trim()} s`);
  console.log(`median: first playable turn ${fmt(median(rows.map((r) => r.start))).trim()} s, hint ${fmt(median(rows.map((r) => r.hint))).trim()} s`);
} finally {
  await browser.close();
  server.kill();
}
