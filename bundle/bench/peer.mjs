// peer.mjs: the peer comparison of `make bench` (docs/performance.md).
//
// In ONE Node process it plays the same generated story (bundle/bench) on
// inkjs (compiled with inkjs's bundled compiler, played on its runtime) and
// on the Storyloom WASM module (wasm/play, the browser bridge, with memory
// storage), with the same choice policy: a seeded PRNG (mulberry32)
// picking uniformly among the choices available now. It reports choices
// per second, state save and restore time after 10,000 choices, the saved
// state's size, and the gzip size of each runtime, as ratios Storyloom /
// inkjs, written as a {"title", "markdown", "figures"} JSON file for
// `bench report`.
//
// Usage:
//   node bundle/bench/peer.mjs --dir bench/out/peer --wasm bench/out/peer/play.wasm \
//     --wasm-exec "$(go env GOROOT)/lib/wasm/wasm_exec.js" \
//     --out bench/out/peer.json [--choices 1000] [--runs 3] [--save-at 10000]
//
// Choices per second: each side plays a warm-up game (so both JITs are
// warm), then `runs` timed games of `choices` choices from a fresh start;
// the figure is the median game. Save and restore after `save-at` choices:
// inkjs plays that many choices (timed too); the Storyloom game of that
// many choices is imported from save-<save-at>.json, which `go run
// ./bundle/bench gen -save-choices` made by playing the same campaign with
// the same policy and seed on the same engine natively, because playing
// 10,000 choices through the bridge takes a long while. Then each side's save and restore are timed `saves` times,
// median again, and Storyloom plays 100 more choices from there.
//
// What each Storyloom figure includes: a choice is the page's whole path
// (JSON argument, session store, profile fold, autosave into the record
// store — the new log entry appended to the session's log tail, and every
// 32 choices a new segment and checkpoint — which also advances the save's
// running checksum by the new entry, scene projection, JSON back). A save builds and
// stores the envelope, hashing what follows the log (the running checksum
// covers the log, paid for by the choices that wrote it). A restore loads
// the save just written, which the store remembers (docs/session-store.md,
// "A save the store remembers"): it compares the record's bytes with the
// remembered document's instead of hashing and reading the game again,
// then writes a session record and renders the scene. The cold path, a
// save the store never saw, is the import and load figure: it verifies the
// SHA-256 of the whole save, reads the envelope, checks the log's entries
// (keeping them as bytes, decoded only when a branch or the history asks)
// and decodes the kind state.

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync, constants } from "node:zlib";
import { performance } from "node:perf_hooks";
import path from "node:path";
import fs from "node:fs";
import { TextEncoder, TextDecoder } from "node:util";

const require = createRequire(import.meta.url);

function flags(argv) {
  const out = {
    dir: "bench/out/peer",
    wasm: "",
    "wasm-exec": "",
    out: "bench/out/peer.json",
    choices: "1000",
    runs: "3",
    saves: "7",
    warmup: "300",
    seed: "7",
    "save-at": "10000",
  };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--?/, "");
    if (!(k in out)) throw new Error(`peer.mjs: unknown flag ${argv[i]}`);
    out[k] = argv[i + 1];
  }
  return out;
}
const opt = flags(process.argv.slice(2));
const CHOICES = Number(opt.choices),
  RUNS = Number(opt.runs),
  SAVES = Number(opt.saves),
  WARMUP = Number(opt.warmup),
  SEED = Number(opt.seed),
  SAVE_AT = Number(opt["save-at"]);

// mulberry32: the shared choice policy's PRNG.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const gz = (buf) => gzipSync(buf, { level: constants.Z_BEST_COMPRESSION }).length;

// ---- ink --------------------------------------------------------------

const { Compiler } = require("inkjs/full");
const inkRuntime = require("inkjs"); // the runtime-only build a page ships
const inkSource = readFileSync(path.join(opt.dir, "story.ink"), "utf8");
const compileErrors = [];
const compiler = new Compiler(inkSource, {
  errorHandler: (msg, type) => {
    if (type !== 1) compileErrors.push(msg);
  },
});
const compiled = compiler.Compile();
if (!compiled || compileErrors.length) {
  throw new Error(`peer.mjs: the ink story does not compile:\n${compileErrors.join("\n")}`);
}
const inkJSON = compiled.ToJson();
writeFileSync(path.join(opt.dir, "story.ink.json"), inkJSON);

function newInk(seed) {
  const s = new inkRuntime.Story(inkJSON);
  s.state.storySeed = seed;
  return s;
}

// inkPlay makes n choices and returns the characters of text read.
function inkPlay(story, n, rnd) {
  let chars = 0;
  for (let i = 0; i < n; i++) {
    while (story.canContinue) chars += story.Continue().length;
    const cs = story.currentChoices;
    if (cs.length === 0) throw new Error(`ink: no choice after ${i} choices`);
    story.ChooseChoiceIndex(Math.floor(rnd() * cs.length));
  }
  while (story.canContinue) chars += story.Continue().length;
  return chars;
}

// ---- Storyloom --------------------------------------------------------

globalThis.fs ??= fs;
globalThis.path ??= path;
globalThis.TextEncoder ??= TextEncoder;
globalThis.TextDecoder ??= TextDecoder;
const wasmExec = opt["wasm-exec"];
require(path.resolve(wasmExec)); // defines globalThis.Go
const wasmBytes = readFileSync(opt.wasm);
const ready = new Promise((resolve) => {
  globalThis.storyloomReady = resolve;
});
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiate(wasmBytes, go.importObject);
go.run(instance); // resolves only when the module exits: never awaited
await ready;
const sl = globalThis.storyloom;

const campaignText = readFileSync(path.join(opt.dir, "campaign.json"), "utf8");
// The campaign as an author's build published it (bench gen compiles it),
// which the bridge plays.
const published = JSON.parse(readFileSync(path.join(opt.dir, "published.json"), "utf8"));
const must = (what, r) => {
  if (!r.ok) throw new Error(`storyloom.${what}: ${JSON.stringify(r.error)}`);
  return r;
};
must("init", await sl.init(JSON.stringify({ ...published, storage: "memory" })));

async function newStoryloom(seed) {
  return must(
    "createSession",
    await sl.createSession(JSON.stringify({ campaignId: "peer-bench", seed: `seed-${seed}` })),
  );
}

// slPlay makes n choices on the session and returns the characters of
// text read.
async function slPlay(session, n, rnd) {
  let scene = session.scene,
    chars = scene.body.text.length;
  for (let i = 0; i < n; i++) {
    const avail = scene.actions.filter((a) => a.available);
    if (avail.length === 0) throw new Error(`storyloom: no choice after ${i} choices`);
    const a = avail[Math.floor(rnd() * avail.length)];
    const r = must(
      "submitAction",
      await sl.submitAction(JSON.stringify({ sessionId: session.sessionId, actionId: a.id })),
    );
    scene = r.scene;
    chars += scene.body.text.length;
  }
  return chars;
}

// ---- the runs -----------------------------------------------------------

inkPlay(newInk(SEED), WARMUP, prng(SEED));
await slPlay(await newStoryloom(SEED), WARMUP, prng(SEED));

const inkRuns = [],
  slRuns = [];
let inkStory, slSession;
for (let r = 0; r < RUNS; r++) {
  // Alternate the two, so that a burst of load on the machine hits both.
  inkStory = newInk(SEED + r);
  let t = performance.now();
  inkPlay(inkStory, CHOICES, prng(SEED + r));
  inkRuns.push(performance.now() - t);

  slSession = await newStoryloom(SEED + r);
  t = performance.now();
  await slPlay(slSession, CHOICES, prng(SEED + r));
  slRuns.push(performance.now() - t);
}

// Save and restore after SAVE_AT choices: ink plays them; the Storyloom
// game is imported from the natively played save (see the header).
inkStory = newInk(SEED);
let t = performance.now();
inkPlay(inkStory, SAVE_AT, prng(SEED));
const inkLongMs = performance.now() - t;

const saveDoc = readFileSync(path.join(opt.dir, `save-${SAVE_AT}.json`), "utf8");
t = performance.now();
const importedLong = must("importSave", await sl.importSave(JSON.stringify({ data: saveDoc })));
const long = must("loadGame", await sl.loadGame(JSON.stringify({ saveId: importedLong.saveId })));
const slImportLongMs = performance.now() - t;
if (long.actionCount !== SAVE_AT)
  throw new Error(`storyloom: the imported game has ${long.actionCount} actions, not ${SAVE_AT}`);
slSession = long;

const inkSave = [],
  inkLoad = [],
  slSave = [],
  slLoad = [],
  slExport = [],
  slImport = [];
let inkState = "",
  slDoc = "";
for (let i = 0; i < SAVES; i++) {
  t = performance.now();
  inkState = inkStory.state.ToJson();
  inkSave.push(performance.now() - t);
  const other = newInk(SEED);
  t = performance.now();
  other.state.LoadJson(inkState);
  const choices = other.currentChoices.length;
  inkLoad.push(performance.now() - t);
  if (choices === 0) throw new Error("ink: a restored state has no choice");

  t = performance.now();
  const saved = must("saveGame", await sl.saveGame(JSON.stringify({ sessionId: slSession.sessionId })));
  slSave.push(performance.now() - t);
  t = performance.now();
  const loaded = must("loadGame", await sl.loadGame(JSON.stringify({ saveId: saved.saveId })));
  slLoad.push(performance.now() - t);
  if (!loaded.scene.actions.some((a) => a.available)) throw new Error("storyloom: a loaded game has no choice");

  t = performance.now();
  slDoc = must("exportSave", await sl.exportSave(JSON.stringify({ saveId: saved.saveId }))).data;
  slExport.push(performance.now() - t);
  t = performance.now();
  const imported = must("importSave", await sl.importSave(JSON.stringify({ data: slDoc })));
  must("loadGame", await sl.loadGame(JSON.stringify({ saveId: imported.saveId })));
  slImport.push(performance.now() - t);
}

// 100 more choices on the long game: what a choice costs at that history.
t = performance.now();
await slPlay(slSession, 100, prng(SEED + 100));
const slLongChoiceMs = (performance.now() - t) / 100;

// ---- sizes ------------------------------------------------------------

const inkDist = require.resolve("inkjs").replace(/ink-full\.js$|ink\.js$/, "ink.js");
const inkRuntimeBytes = readFileSync(inkDist);
const wasmExecBytes = readFileSync(wasmExec);

const f = {
  choices: CHOICES,
  runs: RUNS,
  saves: SAVES,
  saveAt: SAVE_AT,
  nodes: (campaignText.match(/"type": "(choice|random|ending)"/g) || []).length,
  ink: {
    msPerGame: median(inkRuns),
    choicesPerSecond: CHOICES / (median(inkRuns) / 1000),
    saveMs: median(inkSave),
    restoreMs: median(inkLoad),
    stateBytes: inkState.length,
    longGameMs: inkLongMs,
    longChoicesPerSecond: SAVE_AT / (inkLongMs / 1000),
    runtimeGzipBytes: gz(inkRuntimeBytes),
    runtimeRawBytes: inkRuntimeBytes.length,
    runtimeFile: path.relative(process.cwd(), inkDist),
    storyGzipBytes: gz(Buffer.from(inkJSON)),
    storyRawBytes: Buffer.byteLength(inkJSON),
  },
  storyloom: {
    choices: SAVE_AT,
    gameChoices: CHOICES,
    msPerGame: median(slRuns),
    choicesPerSecond: CHOICES / (median(slRuns) / 1000),
    importLongMs: slImportLongMs,
    longChoiceMs: slLongChoiceMs,
    longChoicesPerSecond: 1000 / slLongChoiceMs,
    saveMs: median(slSave),
    restoreMs: median(slLoad),
    exportMs: median(slExport),
    importMs: median(slImport),
    stateBytes: slDoc.length,
    runtimeGzipBytes: gz(wasmBytes) + gz(wasmExecBytes),
    runtimeRawBytes: wasmBytes.length + wasmExecBytes.length,
    moduleGzipBytes: gz(wasmBytes),
    wasmExecGzipBytes: gz(wasmExecBytes),
    storyGzipBytes: gz(Buffer.from(campaignText)),
    storyRawBytes: Buffer.byteLength(campaignText),
  },
};

const ratio = (a, b) => `${a / b >= 0.1 ? (a / b).toFixed(2) : (a / b).toPrecision(2)}×`;
const ms = (x) => `${x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(3)} ms`;
const kb = (x) => `${(x / 1024).toFixed(1)} KiB`;
const num = (x) => Math.round(x).toLocaleString("en-GB");
const verdict = (ok) => (ok ? "met" : "**not met**");
const s = f.storyloom,
  k = f.ink;
const inkVersion = JSON.parse(
  readFileSync(path.join(path.dirname(path.dirname(inkDist)), "package.json"), "utf8"),
).version;
const md = `The same generated story (${f.nodes} nodes: choices conditioned on variables and visit counts, weighted random nodes, ints and flags changed on entry and by choices), written by \`go run ./bundle/bench gen\` as a Storyloom campaign and as ink, played in one Node ${process.version} process by \`bundle/bench/peer.mjs\`: ink compiled with inkjs ${inkVersion}'s bundled compiler and played on its runtime; the campaign on the Storyloom WASM module (\`wasm/play\`, the browser bridge with memory storage: every choice goes through a Promise of JSON and the session store's autosave, as in the page). Policy: a seeded PRNG (mulberry32) picks uniformly among the choices available now. Choices per second: median of ${RUNS} games of ${num(CHOICES)} choices from a fresh start, after a ${num(WARMUP)}-choice warm-up. Save and restore: median of ${SAVES}, on a game of ${num(SAVE_AT)} choices — inkjs played them; Storyloom's was imported from a save of the same campaign played with the same policy and seed by the same engine natively (\`go run ./bundle/bench gen -save-choices\`), because ${num(SAVE_AT)} choices through the bridge take a long while. The two runtimes draw random transitions from their own generators, so their paths differ; the graph and the policy are the same.

| figure | Storyloom (WASM) | inkjs | Storyloom / inkjs | target | verdict |
|---|---:|---:|---:|---|---|
| choices per second, games of ${num(CHOICES)} | ${num(s.choicesPerSecond)} | ${num(k.choicesPerSecond)} | ${ratio(s.choicesPerSecond, k.choicesPerSecond)} | more than inkjs (> 1×) | ${verdict(s.choicesPerSecond > k.choicesPerSecond)} |
| save after ${num(SAVE_AT)} choices (saveGame / state.ToJson) | ${ms(s.saveMs)} | ${ms(k.saveMs)} | ${ratio(s.saveMs, k.saveMs)} | at least as fast (≤ 1×) | ${verdict(s.saveMs <= k.saveMs)} |
| restore to a playable scene from the saved text (importSave + loadGame, as after a page reload / state.LoadJson) | ${ms(s.importMs)} | ${ms(k.restoreMs)} | ${ratio(s.importMs, k.restoreMs)} | at least as fast (≤ 1×) | ${verdict(s.importMs <= k.restoreMs)} |
| load of the save just written, which the store remembers (loadGame) / export to a file (exportSave) | ${ms(s.restoreMs)} / ${ms(s.exportMs)} | – | | reported | |
| saved state after ${num(SAVE_AT)} choices, raw | ${kb(s.stateBytes)} | ${kb(k.stateBytes)} | ${ratio(s.stateBytes, k.stateBytes)} | | |
| runtime, gzip -9 | ${kb(s.runtimeGzipBytes)} (module ${kb(s.moduleGzipBytes)} + wasm_exec.js ${kb(s.wasmExecGzipBytes)}) | ${kb(k.runtimeGzipBytes)} (${k.runtimeFile}) | ${ratio(s.runtimeGzipBytes, k.runtimeGzipBytes)} | reported; whole first load under 1.5 MB (browser section) | |
| runtime, raw | ${kb(s.runtimeRawBytes)} | ${kb(k.runtimeRawBytes)} | ${ratio(s.runtimeRawBytes, k.runtimeRawBytes)} | | |
| the story itself, gzip -9 (campaign.json / compiled ink JSON) | ${kb(s.storyGzipBytes)} | ${kb(k.storyGzipBytes)} | ${ratio(s.storyGzipBytes, k.storyGzipBytes)} | | |
| choices per second at a history of ${num(SAVE_AT)} (Storyloom: 100 choices after the import; inkjs: its whole ${num(SAVE_AT)}-choice game) | ${num(s.longChoicesPerSecond)} | ${num(k.longChoicesPerSecond)} | ${ratio(s.longChoicesPerSecond, k.longChoicesPerSecond)} | | |

Storyloom's saved state is its action log (seed plus every choice, so a save replays exactly and survives a content update), so it grows with the game; ink's is a snapshot of variables, visit counts and call stack. Each Storyloom choice also autosaves the session to the record store: it appends the new log entry to the session's log tail (every 32 choices a new segment and a checkpoint of the game), never the whole log, and advances the save checksum over the new entry, so a save hashes only what follows the log. The restore judged starts, as inkjs' LoadJson does, from the saved text: a save the store never saw (imported, as after a page reload) is checked whole: the SHA-256 of the whole save and every log entry, kept as the bytes it read (no entry is decoded until a branch or the history asks), and never replayed: the save carries the kind state. A load of the save just written is reported beside it: the store remembers that document and compares the record's bytes with it instead of hashing and reading the game again.`;

writeFileSync(
  opt.out,
  `${JSON.stringify(
    { title: "Peer comparison: story play, Storyloom WASM against inkjs", markdown: md, figures: f },
    null,
    2,
  )}\n`,
);
console.log(md);
process.exit(0);
