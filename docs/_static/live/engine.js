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

// The page helpers live in the card table's module (fly_rules/server/static/cardtable.js, copied here by
// the docs build): one copy for the docs' pages and the table server's.
export { cardSymbol, el, moveText, svgNode } from "./cardtable.js";
import { refusalNode as refusalAt } from "./cardtable.js";

// The site's root (engine.js is in _static/live/): where a refusal's link to the rulebook starts.
const SITE_ROOT = new URL("../../", import.meta.url);

// A refusal as a paragraph: the move, the rule (a link to the rulebook) and its title, what was wrong.
export function refusalNode(refused, className = "fly-refused") {
  return refusalAt(refused, className, SITE_ROOT);
}
