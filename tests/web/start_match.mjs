// Start a match on the play page of a served site, as a reader does: `node start_match.mjs ORIGIN`
// (tests/docs/test_first_steps.py runs it on the site the README's commands built). It prints the state
// the table reached and the reader's legal moves, and exits 1 if no match started.
import { chromium } from "../../web/node_modules/playwright-core/index.mjs"; // installed by scripts/web-assets (npm ci)
import { CHROMIUM_FLAGS } from "./flags.mjs";

const origin = process.argv[2];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${origin}/play.html`);
  await page.selectOption("select[name=players]", "3");
  await page.selectOption("select[name=speed]", "0");
  await page.click("button[name=start]");
  await page.waitForFunction(() => ["your-turn", "over"].includes(document.getElementById("fly-play").dataset.state), null, { timeout: 180000 });
  const legal = JSON.parse(await page.evaluate(() => document.getElementById("fly-play").dataset.legal));
  const seats = await page.locator("#fly-play-picture g.seat").count();
  console.log(`table: ${await page.evaluate(() => document.getElementById("fly-play").dataset.state)}; seats ${seats}; legal ${legal.join(" ")}`);
  console.log(`status: ${await page.locator("#fly-play-status").textContent()}`);
  process.exitCode = seats === 3 && legal.length ? 0 : 1;
} finally {
  await browser.close();
}
