// What a phone's table must hold (the docs' play page and the table server's page, tests/web/*.test.mjs): every
// text in the window at 12 px or more as drawn (an SVG's text by its size times the picture's scale), each card
// of the hand to tap showing at least 40 px each way and being what a tap in its middle reaches, the buttons to
// tap 40 px or more, and every dialog inside the window. Each function lists what falls short (empty: all holds).
import assert from "node:assert/strict";

export const PHONE = { viewport: { width: 400, height: 800 }, hasTouch: true, isMobile: true };
export const LEAST_TEXT = 12;
export const LEAST_TAP = 40;

export function smallTexts(page) {
  return page.evaluate((least) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || !element || element.closest("title, option, script, style")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const shown = [...range.getClientRects()].some((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth);
      const style = getComputedStyle(element);
      if (!shown || style.visibility !== "visible") continue;
      let size = parseFloat(style.fontSize);
      if (element instanceof SVGElement) {
        const m = element.getScreenCTM();
        size *= Math.hypot(m.a, m.b); // the picture's scale on the page
      }
      if (size < least - 0.01) out.push(`${size.toFixed(1)} px: "${node.textContent.trim().slice(0, 40)}"`);
    }
    return out;
  }, LEAST_TEXT);
}

export function smallTaps(page) {
  return page.evaluate((least) => {
    const out = [];
    const picks = [...document.querySelectorAll(".fly-play-picture .fly-pick")];
    // With a dialog open the cards under it are not to be tapped: only their size is checked then.
    const covered = [...document.querySelectorAll("[role=dialog]")].some((d) => !d.hidden && d.getBoundingClientRect().width);
    picks.forEach((pick, at) => {
      const r = pick.querySelector("rect").getBoundingClientRect();
      let right = r.right; // the part no later card of the hand covers
      for (const other of picks.slice(at + 1)) {
        const o = other.querySelector("rect").getBoundingClientRect();
        if (o.top < r.bottom && o.bottom > r.top && o.left < right && o.right > r.left) right = Math.min(right, o.left);
      }
      const width = right - r.left;
      const x = r.left + width / 2;
      const y = r.top + r.height / 2;
      const under = document.elementFromPoint(x, y);
      const hit = under?.closest(".fly-pick");
      if (width < least || r.height < least || (hit !== pick && !covered)) {
        const reached = under ? `${under.tagName}.${under.getAttribute("class")}` : "nothing";
        out.push(`card ${pick.dataset.card}: ${Math.round(width)}x${Math.round(r.height)} px${hit === pick || covered ? "" : `, a tap at ${Math.round(x)},${Math.round(y)} reaches ${reached}`}`);
      }
    });
    for (const button of document.querySelectorAll(".fly-actions button, [role=dialog] button")) {
      const r = button.getBoundingClientRect();
      if (r.width && (r.width < least || r.height < least)) out.push(`button "${button.textContent}": ${Math.round(r.width)}x${Math.round(r.height)} px`);
    }
    return out;
  }, LEAST_TAP);
}

export function dialogsOutside(page) {
  return page.evaluate(() => [...document.querySelectorAll("[role=dialog]")].flatMap((dialog) => {
    const r = dialog.getBoundingClientRect();
    if (dialog.hidden || !r.width) return [];
    const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    return inside ? [] : [`${dialog.getAttribute("aria-label")}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} in ${innerWidth}x${innerHeight}`];
  }));
}

// Everything above at once, as one list (for one assertion at each decision).
export async function phoneProblems(page) {
  return [...(await smallTexts(page)), ...(await smallTaps(page)), ...(await dialogsOutside(page))];
}

// Tap a card of the hand in the middle of its visible part (as a thumb does).
export async function tapCard(page, card) {
  const box = await page.locator(`.fly-play-picture .fly-pick[data-card="${card}"] rect`).first().boundingBox();
  await page.touchscreen.tap(box.x + Math.min(box.width, 40) / 2, box.y + box.height / 2);
}

// Make a move as a thumb does: a button, a card of the hand, or the cards to throw and then Exchange.
export async function tapMove(page, move) {
  if (move === "s") await page.locator("button[name=stand]").tap();
  else if (move === "f") await page.locator("button[name=fold]").tap();
  else if (move[0] === "x") {
    for (let i = 1; i < move.length; i += 2) await tapCard(page, move.slice(i, i + 2));
    await page.locator("button[name=exchange]").tap();
  } else await tapCard(page, move.slice(1));
}

// At one of the seat's turns: what a phone must hold, every seat of `players` named in the picture, and the last
// trick (once there is one, the first time: `seen` false) shown in its dialog, each card with its seat and who
// took it, inside the window, then closed. Whether the last trick has been seen now.
export async function checkTurn(page, players, seen, at) {
  assert.deepEqual(await phoneProblems(page), [], `decision ${at}`);
  const names = await page.locator("#fly-play-picture g.seat").evaluateAll((seats) => seats.map((g) => g.textContent.match(/seat \d/)[0]));
  assert.deepEqual(names.sort(), Array.from({ length: players }, (_, seat) => `seat ${seat}`));
  if (seen || !(await page.locator("button[name=last-trick]").count())) return seen;
  await page.locator("button[name=last-trick]").tap();
  const dialog = page.locator("#fly-play-last-trick");
  assert.match(await dialog.textContent(), /^Trick \d of this deal(seat \d( \(you\))?: \S+[♠♥♦♣]){2,7}seat \d( \(you\))? took it\.Close$/);
  assert.deepEqual(await phoneProblems(page), []);
  await page.locator("button[name=close-last-trick]").tap();
  assert.ok(await dialog.isHidden());
  return true;
}
