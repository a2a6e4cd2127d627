// (c) No built page loads a script, style, font, image or wasm from outside the site: every loading
// tag of every page, every url()/@import of every style sheet, and every absolute URL in a script
// (the few that are not loads are listed below with the reason).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { SITE } from "./helpers.mjs";

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const ALL = files(SITE);
const EXTERNAL = /^\s*(https?:)?\/\//i;
// Absolute URLs in scripts that load nothing:
const NOT_LOADS = [
  /^http:\/\/www\.w3\.org\//, // XML namespaces (SVG) in Sphinx's and our scripts
  /^http:\/\/127\.0\.0\.1/, // engine.js: the address it tells a reader to open after `python -m http.server`
  /^https:\/\/developer\.mozilla\.org\//, // a comment in Sphinx's search script
  /^https:\/\/snowballstem\.org\//, // a comment in Sphinx's stemmer
  // pyodide.mjs: the CDN it would use with no indexURL; the worker always gives one (and the lock
  // file's URL), and the browser test checks that no request leaves 127.0.0.1.
  /^https:\/\/cdn\.jsdelivr\.net\/pyodide\/v\$\{U\}\/full\/$/,
];

test("every built page loads scripts, styles, fonts and images from the site only", () => {
  const pages = ALL.filter((f) => f.endsWith(".html"));
  assert.ok(pages.length > 20);
  const loading = /<(script|link|img|iframe|source|embed|object|audio|video|track|input)\b[^>]*>/gi;
  const attribute = /\s(src|href|data|srcset|poster)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  const found = [];
  for (const page of pages) {
    const text = readFileSync(page, "utf8");
    for (const [tag, name] of text.matchAll(loading)) {
      if (name.toLowerCase() === "link" && /rel\s*=\s*"?(canonical|next|prev|index|search|author|license)\b/i.test(tag)) continue;
      for (const match of tag.matchAll(attribute)) {
        const value = match[3] ?? match[4] ?? match[5];
        if (EXTERNAL.test(value)) found.push(`${relative(SITE, page)}: ${tag}`);
      }
    }
    for (const [, url] of text.matchAll(/url\(\s*['"]?([^'")]+)/gi)) {
      if (EXTERNAL.test(url)) found.push(`${relative(SITE, page)}: url(${url})`);
    }
  }
  assert.deepEqual(found, []);
});

test("every style sheet loads fonts and images from the site only", () => {
  const found = [];
  for (const sheet of ALL.filter((f) => f.endsWith(".css"))) {
    const text = readFileSync(sheet, "utf8");
    for (const [, url] of text.matchAll(/(?:url\(\s*['"]?|@import\s+['"])([^'")]+)/gi)) {
      if (EXTERNAL.test(url)) found.push(`${relative(SITE, sheet)}: ${url}`);
    }
  }
  assert.deepEqual(found, []);
});

test("every absolute URL in a script (ours, Sphinx's, Pyodide's) is one that loads nothing", () => {
  const scripts = ALL.filter((f) => /\.(m?js)$/.test(f));
  assert.ok(scripts.some((f) => f.endsWith("pyodide.mjs")), "the Pyodide runtime is part of the site");
  const found = [];
  for (const script of scripts) {
    for (const [url] of readFileSync(script, "utf8").matchAll(/https?:\/\/[^\s"'`)<>]*/g)) {
      if (!NOT_LOADS.some((allowed) => allowed.test(url))) found.push(`${relative(SITE, script)}: ${url}`);
    }
  }
  assert.deepEqual(found, []);
});

test("the site serves the Pyodide runtime and the wheels its lock file names, with their sha256", async () => {
  const { createHash } = await import("node:crypto");
  const folder = join(SITE, "_static/live/pyodide");
  const lock = JSON.parse(readFileSync(join(folder, "pyodide-lock.json"), "utf8"));
  assert.deepEqual(Object.keys(lock.packages).sort(), ["attrs", "fly-rules", "tomli-w"]);
  for (const entry of Object.values(lock.packages)) {
    const digest = createHash("sha256").update(readFileSync(join(folder, entry.file_name))).digest("hex");
    assert.equal(digest, entry.sha256, entry.file_name);
  }
});
