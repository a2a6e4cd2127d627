// (a) The built site's engine in Node: Pyodide from _static/live/, our wheel from its lock file, and
// fly_live.py answering as native CPython does (the same JSON, pictures included).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";
import { LIVE, native } from "./helpers.mjs";

// Catalogue case 1 (FLY-7.3): hearts are trump, seat 0 leads the A♥.
const CASE1 = "fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H TDJDQDKDAD9HTHJHQH7S8S9STSJSQSKS 25,25,25 s,s,s 0";
let live;

before(async () => {
  const { loadPyodide } = await import(LIVE + "pyodide/pyodide.mjs");
  const { boot } = await import(LIVE + "boot.mjs");
  live = await boot(loadPyodide, LIVE, (path) => readFile(path, "utf8"));
});

test("FLY-6.3: a revoke is refused with its rule, and the deal stays where it was", () => {
  const answer = live.call("try_position", [CASE1, "pAH p7D"]);
  assert.equal(answer.refused.rule, "FLY-6.3");
  assert.equal(answer.refused.move, "p7D");
  assert.match(answer.refused.detail, /follow suit/);
  assert.equal(answer.to_move, 1);
  assert.deepEqual(answer.legal, ["pKH", "pAS"]); // the K♥ follows suit; the A♠ may answer the trump ace
  assert.deepEqual(answer, native("try_position", CASE1, "pAH p7D"));
});

test("FLY-7.3, FLY-8.3: the A♠ takes the led trump ace; one trick and the A♠ bonus written off", () => {
  const answer = live.call("try_position", [CASE1, "pAH pAS p7H"]);
  assert.equal(answer.refused, null);
  assert.deepEqual(answer.tricks_taken, [0, 1, 0]);
  assert.deepEqual(answer.records, ["25", "19", "25"]);
  assert.equal(answer.steps.at(-1).lines[0], "trick 1: 0:A♥  1:A♠  2:7♥  -> seat 1 takes it (record 19)");
  assert.ok(answer.picture.startsWith("<svg"));
  assert.deepEqual(answer, native("try_position", CASE1, "pAH pAS p7H"));
});

test("a position the notation refuses is answered with the reason, not a traceback", () => {
  const answer = live.call("try_position", ["fly - 2 8H", ""]);
  assert.match(answer.error.detail, /fields/);
});

test("a whole seeded Fly match (5 players, random bots) ends as in native CPython", () => {
  const args = ["fly", 5, "default", "11", 2, "random"];
  const match = live.call("play_through", args);
  assert.ok(match.tricks.length > 5);
  assert.match(match.outcome[0], /Match over/);
  assert.deepEqual(match, native("play_through", ...args));
});

test("a whole seeded Dreyfus match (rule-of-thumb bots) ends as in native CPython", () => {
  const args = ["dreyfus", 3, "default", "3", 1, "rule-of-thumb"];
  const match = live.call("play_through", args);
  assert.match(match.outcome[0], /Match over/);
  assert.deepEqual(match, native("play_through", ...args));
});
