// The table page's transport: the table server's WebSocket (specs/table.md, TBL-3 and TBL-4). It opens
// /api/tables/ID/ws (with the seat's token, or none to watch), reopens it by itself after a drop (waiting
// 0.5 s, then twice as long each time, at most 8 s), and translates between the server's action texts
// (REC-3.2: "play AH", "exchange 7C 8D", "stand", "fold", "swap-trump 9H") and the table's moves
// (cardtable.js: the position notation, "pAH", "x7C8D", "s", "f", "w9H").

const VERBS = { play: "p", exchange: "x", "swap-trump": "w" };
const LETTERS = { p: "play", x: "exchange", w: "swap-trump" };

// "exchange 7C 8D" → "x7C8D", "stand" → "s".
export function textMove(text) {
  if (text === "stand") return "s";
  if (text === "fold") return "f";
  const [verb, ...cards] = text.split(" ");
  return VERBS[verb] ? VERBS[verb] + cards.join("") : text;
}

// "x7C8D" → "exchange 7C 8D", "s" → "stand".
export function moveAction(move) {
  if (move === "s") return "stand";
  if (move === "f") return "fold";
  const cards = move.slice(1).match(/../g) || [];
  return `${LETTERS[move[0]]} ${cards.join(" ")}`;
}

export const FIRST_WAIT = 500;
export const LONGEST_WAIT = 8000;

// Connect to table `tableId` as the seat of `token` (null: watch). `on.message(data)` gets every message
// of the server, `on.state(state, detail)` the connection's state: "connecting", "open", or "waiting"
// (detail: the milliseconds until the next try); `on.picture()`, if given, the picture asked for at each
// (re)connection ("narrow": laid out for a phone, TBL-3.3). Returns {send(object) → whether it went, close()}.
export function connect(tableId, token, on) {
  const address = new URL(`/api/tables/${encodeURIComponent(tableId)}/ws`, location.href);
  address.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  if (token) address.searchParams.set("token", token);
  let socket = null;
  let wait = FIRST_WAIT;
  let timer = null;
  let closed = false;

  function open() {
    timer = null;
    on.state("connecting");
    const picture = on.picture ? on.picture() : null;
    if (picture) address.searchParams.set("picture", picture);
    else address.searchParams.delete("picture");
    socket = new WebSocket(address);
    socket.onopen = () => {
      performance.mark("fly-socket-open");
      wait = FIRST_WAIT;
      on.state("open");
    };
    socket.onmessage = (event) => {
      performance.mark("fly-message");
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return; // not a message of the protocol: ignored (TBL-3.2)
      }
      if (data && typeof data === "object") on.message(data);
    };
    socket.onclose = (event) => {
      socket = null;
      if (closed) return;
      on.state("waiting", wait, event.code, event.reason);
      timer = setTimeout(open, wait);
      wait = Math.min(wait * 2, LONGEST_WAIT);
    };
  }

  // The browser knows it lost its network before the socket does (which may wait for a timeout): close it
  // now, so the page says so at once; back online, try again at once rather than at the end of the wait.
  addEventListener("offline", () => socket?.close());
  addEventListener("online", () => {
    if (timer !== null) {
      clearTimeout(timer);
      wait = FIRST_WAIT;
      open();
    }
  });
  open();
  return {
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null; // back online, a closed link stays closed
      socket?.close();
    },
  };
}
