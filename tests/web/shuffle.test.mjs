// The seeded shuffle of specs/records.md section 6 (REC-6.1 to REC-6.6), written again in JavaScript from the
// spec's text, with nothing of the Python engine: it must reproduce the deals of the kit's shuffle vectors
// (specs/conformance/vectors.jsonl, kind "shuffle": each pack and first dealer) and the generators and shuffles
// of specs/conformance/shuffle.json. Run by scripts/test (node --test tests/web/); needs no built site.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KIT = join(ROOT, "specs/conformance");

// MT19937 seeded by init_by_array (REC-6.1), in 32-bit unsigned arithmetic.
class Twister {
  constructor(key) {
    const N = 624;
    const mt = new Uint32Array(N);
    mt[0] = 19650218;
    for (let i = 1; i < N; i++) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
    }
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(x, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const x = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(x, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.mt = mt;
    this.index = N;
  }

  nextWord() {
    const N = 624;
    const M = 397;
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  // k bits, 1 to 32: the next output shifted right by 32 - k (REC-6.1).
  bits(k) {
    return this.nextWord() >>> (32 - k);
  }

  // A number below n by rejection, with n's bit length (REC-6.3).
  below(n) {
    const k = 32 - Math.clz32(n);
    let value = this.bits(k);
    while (value >= n) value = this.bits(k);
    return value;
  }
}

// The key of a seed text: the 32-bit words of its UTF-8 bytes and their SHA-512, the whole read as one number
// most significant byte first, least significant word first (REC-6.1).
function keyOf(text) {
  const data = Buffer.from(text, "utf8");
  const bytes = Buffer.concat([data, createHash("sha512").update(data).digest()]);
  const words = [];
  for (let end = bytes.length; end > 0; end -= 4) {
    let word = 0;
    for (let at = Math.max(0, end - 4); at < end; at++) word = word * 256 + bytes[at];
    words.push(word >>> 0);
  }
  while (words.length > 1 && words[words.length - 1] === 0) words.pop();
  return words;
}

function twisterOf(text) {
  return new Twister(keyOf(text));
}

// Fisher-Yates from the last position down (REC-6.4).
function shuffle(items, text) {
  const twister = twisterOf(text);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = twister.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const cardText = (index) => RANKS[index % 13] + SUITS[Math.floor(index / 13)];

// A deck in canonical order (CARD-4.1): the ranks from `low` (2 = all) up to the ace of each suit.
function deck(low) {
  const indices = [];
  for (let suit = 0; suit < 4; suit++) for (let rank = low; rank <= 14; rank++) indices.push(suit * 13 + rank - 2);
  return indices;
}

const FLY_LOW = { 32: 7, 36: 6, 48: 3, 52: 2 };
const flyDeck = (rules) => deck(FLY_LOW[rules.deck_size ?? (rules.players === 3 ? 32 : rules.players === 4 ? 36 : 52)]);

// Each shuffle case, with its seed as written (a 100-digit whole number is more than a JavaScript number holds).
function shuffleCases() {
  const lines = readFileSync(join(KIT, "vectors.jsonl"), "utf8").split("\n").filter((line) => line.trim());
  return lines
    .map((line) => [line, JSON.parse(line)])
    .filter(([, item]) => item.kind === "shuffle")
    .map(([line, item]) => {
      const raw = line.match(/"seed": (-?\d+|"(?:[^"\\]|\\.)*")/)[1];
      return { ...item, seedText: raw.startsWith('"') ? JSON.parse(raw) : raw };
    });
}

test("the generator of REC-6.1 gives shuffle.json's first outputs of every seed text", () => {
  const vectors = JSON.parse(readFileSync(join(KIT, "shuffle.json"), "utf8"));
  assert.ok(vectors.generators.length >= 5);
  for (const entry of vectors.generators) {
    assert.equal(keyOf(entry.text).length, entry.key_words, entry.text);
    const twister = twisterOf(entry.text);
    assert.deepEqual(
      entry.first_words.map(() => twister.nextWord()),
      entry.first_words,
      entry.text,
    );
  }
});

test("the shuffle of REC-6.4 gives shuffle.json's orders for every deck size", () => {
  const vectors = JSON.parse(readFileSync(join(KIT, "shuffle.json"), "utf8"));
  for (const entry of vectors.shuffles) {
    const positions = Array.from({ length: entry.cards }, (_, i) => i);
    assert.deepEqual(shuffle(positions, entry.text), entry.order, `${entry.text} ${entry.cards}`);
  }
});

test("the kit's shuffle cases: every pack and first dealer reproduced from the seed (REC-6.2, REC-6.5)", () => {
  const cases = shuffleCases();
  assert.ok(cases.length >= 6);
  for (const item of cases) {
    const seed = item.seedText;
    if (item.game === "fly") {
      const pack = shuffle(flyDeck(item.rules), `fly_rules:${seed}:${item.deal_number}`);
      assert.equal(pack.map(cardText).join(" "), item.expected.pack, item.id);
      const dealer = twisterOf(`fly_rules:${seed}:first-dealer`).below(item.rules.players);
      assert.equal(dealer, item.expected.first_dealer, item.id);
    } else {
      const pack = shuffle(deck(3), `fly_rules:${seed}:${item.deal_number}`);
      assert.equal(pack.map(cardText).join(" "), item.expected.pack, item.id);
      const lot = shuffle(deck(3), `fly_rules:${seed}:-1`).slice(0, 3);
      const strength = (index) => (index % 13) * 4 + Math.floor(index / 13); // rank, then suit
      const dealer = [0, 1, 2].reduce((best, seat) => (strength(lot[seat]) < strength(lot[best]) ? seat : best), 0);
      assert.equal(dealer, item.expected.first_dealer, item.id);
    }
  }
});
