// The card table's words in French against the card game's recorded
// frames (engine/cards/testdata/wire and wire-curated) and one action of
// every shape the game asks in (testdata/actions.json): every action
// label, prompt and option the server sent is worded by the page
// (rooms/cardwords.js) with no English left but card names, marked
// lang="en" translate="no", and every card's rules text and type line
// of the generated frames is in the French phrasebook. The phrasebook
// is the site build's rooms/cardtext.fr.json, written for this test by
// web's TestProtocolNode (STORYLOOM_CARDTEXT names the file).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, dirname } from "node:path";

// A DOM as small as the page's h() and says() need.
class Node {
  constructor(tag) {
    this.tagName = tag;
    this.childNodes = [];
    this.attrs = {};
    this.dataset = {};
    this.data = "";
  }
  appendChild(c) {
    this.childNodes.push(c);
    return c;
  }
  setAttribute(k, v) {
    this.attrs[k] = v;
  }
  getAttribute(k) {
    return this.attrs[k] ?? null;
  }
  addEventListener() {}
  get textContent() {
    return this.tagName === "#text" ? this.data : this.childNodes.map((c) => c.textContent).join("");
  }
  set textContent(s) {
    if (this.tagName === "#text") this.data = s;
    else this.childNodes = [Object.assign(new Node("#text"), { data: s })];
  }
  cloneNode() {
    return Object.assign(new Node(this.tagName), {
      childNodes: this.childNodes.map((c) => c.cloneNode()),
      attrs: { ...this.attrs },
      data: this.data,
    });
  }
}
globalThis.Node = Node;
globalThis.document = {
  documentElement: { lang: "en" },
  createElement: (t) => new Node(t),
  createTextNode: (s) => Object.assign(new Node("#text"), { data: s }),
  querySelectorAll: () => [],
};
globalThis.window = { dispatchEvent() {} };
globalThis.Event = class {};

if (!process.env.STORYLOOM_CARDTEXT) {
  throw new Error("STORYLOOM_CARDTEXT names no phrasebook: run this suite with go test ./web");
}
const book = JSON.parse(readFileSync(process.env.STORYLOOM_CARDTEXT, "utf8"));
globalThis.fetch = async () => ({ ok: true, json: async () => book });

const { setPageLocale } = await import("../site/js/lang.js");
const words = await import("../site/rooms/cardwords.js");
setPageLocale("fr");
await new Promise((done) => words.loadCardText(done));

const testdata = join(dirname(fileURLToPath(import.meta.url)), "../../engine/cards/testdata");
const frames = ["wire", "wire-curated"].flatMap((sub) => {
  const dir = join(testdata, sub);
  return JSON.parse(readFileSync(join(dir, "index.json"), "utf8"))
    .filter((n) => n.startsWith("game-") || n.startsWith("spectator-"))
    .map((n) => ({
      name: `${sub}/${n}`,
      generated: sub === "wire",
      frame: JSON.parse(readFileSync(join(dir, n), "utf8")),
    }));
});

// One action of every shape the game asks in (engine/cards TestActionShapes), as a frame of its own.
frames.push({
  name: "actions.json",
  generated: true,
  frame: { valid_actions: JSON.parse(readFileSync(join(testdata, "actions.json"), "utf8")) },
});

// english lists what a worded part still says in English: text marked
// lang="en" that is not a name, and English words outside names.
const ENGLISH =
  /\b(the|target|choose|cast|play|pass|resolve|declare|attackers|blockers|keep|put|bottom|library|discard|sacrifice|card|cards|pay|add|search|order|concede|decline|accept|your|of|for|a|an)\b/i;
function english(parts) {
  const out = [];
  let text = "";
  const walk = (n, inName) => {
    if (typeof n === "string") {
      if (!inName) text += n;
      return;
    }
    const name = inName || n.attrs.translate === "no";
    if (n.attrs.lang === "en" && !name) out.push(n.textContent);
    if (n.tagName === "#text") {
      if (!name) text += n.data;
      return;
    }
    for (const c of n.childNodes) walk(c, name);
  };
  for (const p of parts) walk(p, false);
  const m = ENGLISH.exec(text);
  if (m) out.push(`"${m[0]}" in "${text}"`);
  return out;
}

// names maps the ids a frame shows to their names, as the table does.
function names(f) {
  const m = new Map();
  const put = (c) => c?.id && m.set(c.id, c.name);
  for (const c of [...(f.my_hand || []), ...(f.revealed || [])]) put(c);
  for (const p of f.battlefield || []) m.set(p.id, p.card.name);
  for (const s of f.stack || []) m.set(s.id, s.card?.name || s.description);
  for (const z of [...(f.graveyards || []), ...(f.exile || []), ...(f.command || [])]) z.cards.forEach(put);
  return (id) => m.get(id);
}

test("every action, prompt and option the server sent is worded in French", () => {
  const left = new Set();
  let seen = 0;
  for (const { name, generated, frame } of frames) {
    const nm = names(frame);
    for (const a of frame.valid_actions || []) {
      seen++;
      for (const e of english(words.actionLabel(a, nm))) left.add(`${name}: action "${a.label}": ${e}`);
      for (const q of [...(a.requirements || []), ...(a.prompts || [])]) {
        for (const e of english(words.promptText(q, nm))) left.add(`${name}: prompt "${q.prompt}": ${e}`);
        // A mode's label is its card's text: the curated frames' are hand-written.
        const modes = /^mode\d*$/.test(q.slot);
        for (const o of modes && !generated ? [] : q.options || []) {
          for (const e of english(words.optionLabel(o, q))) left.add(`${name}: option "${o.label}": ${e}`);
        }
      }
    }
  }
  assert.ok(seen > 150, `only ${seen} actions in the fixtures`);
  assert.deepEqual([...left], []);
});

test("every card's rules text and type line is in the French phrasebook", () => {
  const left = new Set();
  for (const { name, generated, frame } of frames) {
    if (!generated) continue; // the curated frames hold hand-written texts
    const cards = [
      ...(frame.my_hand || []),
      ...(frame.battlefield || []).map((p) => p.card),
      ...(frame.stack || []).map((s) => s.card).filter(Boolean),
      ...[...(frame.graveyards || []), ...(frame.exile || []), ...(frame.command || [])].flatMap((z) => z.cards),
    ];
    for (const c of cards) {
      for (const t of [c.rules_text, c.type_line]) {
        if (t && words.said(t).lang === "en") left.add(`${name}: ${c.name}: "${t}"`);
      }
    }
    for (const s of frame.stack || []) {
      if (!s.card && words.said(s.description).lang === "en") left.add(`${name}: stack "${s.description}"`);
    }
    for (const e of frame.emblems || []) {
      for (const t of e.abilities) if (words.said(t).lang === "en") left.add(`${name}: emblem "${t}"`);
    }
  }
  assert.deepEqual([...left], []);
});
