// The "try it" boxes (docs/_ext/tryit.py writes <div class="fly-tryit" data-position data-moves>):
// an editable position and moves, and the engine's answer. The engine (Pyodide, ~12 MB) loads on the
// first Run, never on page view. All text is set with textContent.
import { call, el, FILE_NOTICE, moveText, refusalNode, servedOverFile, started, svgNode } from "./engine.js";

function field(label, value, rows) {
  const wrap = el("label", null, "fly-tryit-field");
  wrap.append(el("span", label));
  const input = el(rows > 1 ? "textarea" : "input");
  if (rows > 1) input.rows = rows;
  input.value = value;
  input.spellcheck = false;
  wrap.append(input);
  return [wrap, input];
}

function showAnswer(out, answer, box) {
  out.replaceChildren();
  if (answer.error) {
    out.append(el("p", `Not a position: ${answer.error.detail}`, "fly-refused"));
    return;
  }
  if (answer.steps.length) {
    const list = el("ol", null, "fly-steps");
    for (const step of answer.steps) {
      // The narration tells a declaration or an exchange itself; a card played is told here, then its trick.
      const told = step.move[0] === "p" ? [] : step.lines.filter((line) => !line.startsWith("trick "));
      const item = el("li", told.length ? told[0] : `seat ${step.seat}: ${moveText(step.move)}`);
      for (const line of step.lines) if (!told.includes(line)) item.append(el("div", line, "fly-step-line"));
      list.append(item);
    }
    out.append(list);
  }
  if (answer.refused) out.append(refusalNode(answer.refused));
  out.append(el("p", `Tricks taken ${answer.tricks_taken.join(", ")}; records ${answer.records.join(", ")}.`, "fly-records"));
  if (answer.over) {
    for (const line of answer.outcome) out.append(el("p", line, "fly-outcome"));
  } else {
    const legal = el("p", `Seat ${answer.to_move} to move; ${answer.legal.length} legal moves: `, "fly-legal");
    // Many exchanges are legal at once: list them folded.
    const holder = answer.legal.length > 12 ? el("details") : legal;
    if (holder !== legal) {
      holder.append(el("summary", "show them (click one to add it to the moves)"));
      legal.append(holder);
    }
    for (const move of answer.legal) {
      const button = el("button", moveText(move), "fly-move");
      button.type = "button";
      button.title = `add ${move} to the moves`;
      button.addEventListener("click", () => box.addMove(move));
      holder.append(button, " ");
    }
    out.append(legal);
  }
  const figure = el("figure", null, "fly-table");
  figure.append(svgNode(answer.picture));
  figure.append(el("figcaption", answer.over ? "The deal is over." : `After the moves: seat ${answer.to_move} to move.`));
  out.append(figure);
}

function makeBox(node) {
  const [posLabel, position] = field("Position", node.dataset.position, 3);
  const [movesLabel, moves] = field("Moves (s stand, f fold, x exchange, p play, w take the trump card)", node.dataset.moves, 1);
  const run = el("button", started() ? "Run" : "Load the engine and run", "fly-run");
  run.type = "button";
  const reset = el("button", "Reset", "fly-reset");
  reset.type = "button";
  const status = el("span", "", "fly-status");
  const out = el("div", null, "fly-answer");
  const box = {
    async run() {
      if (servedOverFile()) {
        status.textContent = FILE_NOTICE;
        return;
      }
      run.disabled = true;
      status.textContent = started() ? "Running…" : "Loading the engine (about 12 MB, once per page)…";
      try {
        const answer = await call("try_position", position.value, moves.value);
        showAnswer(out, answer, box);
        status.textContent = "";
        for (const button of document.querySelectorAll(".fly-run")) button.textContent = "Run";
      } catch (error) {
        status.textContent = `The engine failed: ${error.message}`;
      } finally {
        run.disabled = false;
      }
    },
    addMove(move) {
      moves.value = (moves.value.trim() + " " + move).trim();
      box.run();
    },
  };
  run.addEventListener("click", () => box.run());
  reset.addEventListener("click", () => {
    position.value = node.dataset.position;
    moves.value = node.dataset.moves;
    if (started()) box.run();
  });
  const head = el("div", null, "fly-tryit-head");
  head.append(el("strong", "Try it: "), run, " ", reset, " ", status);
  node.replaceChildren(head, posLabel, movesLabel, out);
  node.classList.add("fly-tryit-ready");
}

for (const node of document.querySelectorAll(".fly-tryit")) makeBox(node);
if (document.getElementById("fly-play")) import("./play.js");
