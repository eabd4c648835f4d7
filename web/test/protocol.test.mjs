// The client's protocol module against the card game's recorded frames
// (engine/cards/testdata/wire, written by `go test ./engine/cards -run
// WireFixtures -update`): every field the server sent is one the client
// knows, normalizing keeps every value, the defaults hold, and every
// classifying value the server sent has a word of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, dirname } from "node:path";
import { normalize, unknownFields, frameKind, known, word, SCHEMA } from "../site/rooms/protocol.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "../../engine/cards/testdata");
const frames = ["wire", "wire-curated"].flatMap((sub) => {
  const dir = join(testdata, sub);
  const names = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
  return names.map((n) => ({
    name: `${sub}/${n}`,
    kind: n.replace(/-(\d+|maximal|minimal)\.json$/, ""),
    frame: JSON.parse(readFileSync(join(dir, n), "utf8")),
  }));
});

// contains fails unless every value in want is in got at the same place.
function contains(got, want, path) {
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${path}: a list became ${JSON.stringify(got)}`);
    assert.equal(got.length, want.length, `${path}: length`);
    for (const [i, w] of want.entries()) contains(got[i], w, `${path}[${i}]`);
  } else if (want && typeof want === "object") {
    assert.ok(got && typeof got === "object", `${path}: a record became ${JSON.stringify(got)}`);
    for (const k of Object.keys(want)) contains(got[k], want[k], `${path}.${k}`);
  } else {
    assert.equal(got, want, path);
  }
}

test("the fixtures cover every frame kind", () => {
  for (const k of ["game", "spectator", "lobby", "catalog", "lobby_error"]) {
    assert.ok(
      frames.some((f) => f.kind === k),
      `no ${k} frame`,
    );
  }
});

for (const { name, kind, frame } of frames) {
  test(`${name}: known fields, nothing lost`, () => {
    assert.equal(frameKind(frame), kind);
    assert.deepEqual(unknownFields(frame), [], "fields the client does not know");
    const n = normalize(frame);
    contains(n, frame, kind);
    assert.equal(JSON.stringify(normalize(n)), JSON.stringify(n), "normalize is idempotent");
  });
}

test("every classifying value the server sent has a word", () => {
  const seen = { phase: new Set(), prompt: new Set(), target: new Set(), stack: new Set() };
  for (const { kind, frame } of frames) {
    if (kind !== "game" && kind !== "spectator") continue;
    seen.phase.add(frame.phase);
    for (const s of frame.stack || []) {
      seen.stack.add(s.kind);
      for (const t of s.targets || []) seen.target.add(t.kind);
    }
    for (const a of frame.valid_actions || []) for (const p of a.prompts || []) seen.prompt.add(p.kind);
  }
  for (const [cls, values] of Object.entries(seen)) {
    assert.ok(values.size > 0, `no ${cls} values in the fixtures`);
    for (const v of values) assert.ok(known(cls, v), `${cls} "${v}" has no word`);
  }
});

test("defaults: omitted collections are empty, connected is true", () => {
  const g = normalize({
    room_id: "r",
    seat_order: ["p0", "p1"],
    phase: "upkeep",
    you: "p0",
    seats: [{ seat: 0 }, { seat: 1, connected: false }],
  });
  assert.equal(frameKind(g), "game");
  for (const k of Object.keys(SCHEMA.game)) {
    if (Array.isArray(SCHEMA.game[k]) && k !== "seats" && k !== "seat_order") assert.deepEqual(g[k], [], k);
  }
  assert.equal(g.seats[0].connected, true);
  assert.equal(g.seats[1].connected, false);
  const l = normalize({ session: "s", room: { room_id: "r", seats: [{ seat: 0 }] } });
  assert.equal(l.room.seats[0].connected, true);
  assert.deepEqual(l.directory, []);
});

test("an unknown field is reported, kept, and an unknown value named generically", () => {
  const f = { room_id: "r", seat_order: ["p0"], phase: "upkeep", you: "p0", battlefield: [{ id: "perm_1", glow: 3 }] };
  assert.deepEqual(unknownFields(f), ["battlefield[].glow"]);
  assert.equal(normalize(f).battlefield[0].glow, 3);
  assert.equal(word("phase", "second_main_again"), "second main again");
  assert.equal(word("phase", "precombat_main"), "Main 1");
});
