// The engine's Web Worker: Pyodide and fly_rules run here, so a thinking bot never freezes the page.
// Messages in: {id, name, args}; out: {id, result} or {id, error}. The first message starts Pyodide.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { boot } from "./boot.mjs";

const engine = boot(loadPyodide, new URL("./", import.meta.url).href, async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
});

self.onmessage = async (event) => {
  const { id, name, args } = event.data;
  try {
    const live = await engine;
    const started = performance.now();
    const result = name === "ready" ? live.version : live.call(name, args);
    performance.measure(`fly-call-${name}`, { start: started }); // read by benchmarks/first_play.mjs
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
