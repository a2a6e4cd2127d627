// Shared by the tests of the live engine (run by scripts/test: node --test tests/web/).
// FLY_RULES_DOCS_HTML is the built site (default docs/_build/html), FLY_RULES_PYTHON the native
// Python with fly_rules importable (default python3); the repository is put on its PYTHONPATH.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SITE = resolve(process.env.FLY_RULES_DOCS_HTML || join(ROOT, "docs/_build/html"));
export const LIVE = join(SITE, "_static/live") + "/";
const PYTHON = process.env.FLY_RULES_PYTHON || "python3";

if (!existsSync(join(LIVE, "pyodide/pyodide-lock.json"))) {
  throw new Error(`${LIVE}pyodide is missing: run scripts/web-assets, then build the site (scripts/test does both)`);
}

// The answer of web/fly_live.py run by native CPython.
export function native(name, ...args) {
  const out = execFileSync(PYTHON, [join(ROOT, "web/fly_live.py"), name, JSON.stringify(args)], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: ROOT },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out);
}

// `fly-rules ARGS` run by native CPython with `input` on its standard input: what it printed.
export function terminal(args, input) {
  return execFileSync(PYTHON, ["-m", "fly_rules", ...args], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: ROOT },
    encoding: "utf8",
    input,
  });
}

export { CHROMIUM_FLAGS } from "./flags.mjs";
