// The page's handle on the engine worker: started on the reader's first request, never on page view.
let worker = null;
let next = 0;
const waiting = new Map();

export function servedOverFile() {
  return location.protocol === "file:";
}

export const FILE_NOTICE =
  "The live engine cannot start from a file:// page. Serve the site over http, e.g. " +
  "`python -m http.server -b 127.0.0.1 -d docs/_build/html`, and open http://127.0.0.1:8000/.";

function start() {
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    const { id, result, error } = event.data;
    const handlers = waiting.get(id);
    waiting.delete(id);
    if (error !== undefined) handlers.reject(new Error(error));
    else handlers.resolve(result);
  };
  worker.onerror = (event) => {
    for (const handlers of waiting.values()) handlers.reject(new Error(event.message || "the engine failed to start"));
    waiting.clear();
  };
}

// Call a function of fly_live.py in the worker; the first call loads Pyodide (about 12 MB).
export function call(name, ...args) {
  if (servedOverFile()) return Promise.reject(new Error(FILE_NOTICE));
  if (worker === null) start();
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, name, args });
  });
}

export function started() {
  return worker !== null;
}

// An SVG string from fly_rules.svg as a node (parsed as XML, never as HTML).
export function svgNode(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  return document.importNode(doc.documentElement, true);
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "AH" → "A♥", "TC" → "10♣".
export function cardSymbol(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
}

// A position-notation move as words: "pAH" → "play A♥", "xAH7C" → "exchange A♥ 7♣".
export function moveText(move) {
  if (move === "s") return "stand";
  if (move === "f") return "fold";
  const cards = [];
  for (let i = 1; i + 1 < move.length + 1 && /[2-9TJQKA][SHDC]/.test(move.slice(i, i + 2)); i += 2) {
    cards.push(cardSymbol(move.slice(i, i + 2)));
  }
  const verb = { p: "play", x: "exchange", w: "take the trump card, discarding" }[move[0]];
  return verb && cards.length ? `${verb} ${cards.join(" ")}` : move;
}

// An element with text (never HTML) and a class.
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// The site's root (engine.js is in _static/live/): where a refusal's link to the rulebook starts.
const SITE_ROOT = new URL("../../", import.meta.url);

// A refusal as a paragraph: the move, the rule (a link to the rulebook) and its title, what was wrong.
export function refusalNode(refused, className = "fly-refused") {
  const line = el("p", `Refused${refused.move ? ": " + moveText(refused.move) : ""}. `, className);
  if (refused.rule) {
    const link = el("a", refused.rule);
    if (refused.href) link.href = new URL(refused.href, SITE_ROOT).href;
    line.append(link, ` (${refused.title}): `);
  }
  line.append(refused.detail);
  return line;
}
