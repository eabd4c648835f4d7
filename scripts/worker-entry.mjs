// The edge worker's entry module (docs/edge-worker.md). scripts/worker.sh
// build copies it beside what syumai/workers generates (worker.mjs,
// runtime.mjs, wasm_exec.js) and the Go module (app.wasm).
//
// The room server and each Freeport game live in Durable Objects: one
// RoomsObject for the lobby ("main") and one for each started game
// ("room:<id>"), one FreeportObject per game. Each holds
// its machine (engine/rooms or engine/freeport, through bundle/hosting) in
// memory in its own long-lived instance of the Go module, serializes its
// commands by construction and keeps its records in the object's storage.
// This module routes their paths to them and everything else to the Go
// worker; the classes below only carry requests, WebSocket events and the
// alarm into Go (wasm/worker/object.go), which does the rest.

import "./wasm_exec.js";
import { DurableObject } from "cloudflare:workers";
import shim from "./worker.mjs";
import mod from "./app.wasm";

// The room server's paths: its WebSocket and its HTTP API.
const ROOM_PATHS = new Set(["/rooms/ws", "/rooms/command", "/rooms/view"]);

// The lobby's object; a started game's is "room:<id>" (docs/edge-worker.md).
const LOBBY = "main";

// A room id as the room server makes them ("r:" and at most 64 printable
// characters of an id source; ours are hex).
const ROOM_ID = /^r:[0-9A-Za-z_-]{1,64}$/;

// close code of a socket moved to another object: its reason says where
// ("room:<id>", "spectate:<id>" or "lobby").
const MOVED = 4001;

// objectName is the RoomsObject a request of the room server goes to:
// the room its ?room= names, or the lobby; "" for a malformed room.
function objectName(url) {
  const room = url.searchParams.get("room");
  if (room === null) return LOBBY;
  return ROOM_ID.test(room) ? `room:${room}` : "";
}

function roomsStub(env, name) {
  return env.ROOMS.get(env.ROOMS.idFromName(name));
}

export default {
  async fetch(req, env, ctx) {
    const url = new URL(req.url);
    const { pathname } = url;
    if (req.method !== "OPTIONS") {
      if (ROOM_PATHS.has(pathname)) {
        const name = objectName(url);
        if (!name) {
          return Response.json({ error: "no such room id" }, { status: 400, headers: cors() });
        }
        return roomsStub(env, name).fetch(req);
      }
      const game = freeportGame(pathname);
      if (game) {
        return env.FREEPORT.get(env.FREEPORT.idFromName(game)).fetch(req);
      }
    }
    return shim.fetch(req, env, ctx);
  },
  scheduled: shim.scheduled,
};

// freeportGame is the game a Freeport path (/freeport/{game}/,
// /freeport/{game}/token or /freeport/{game}/standing) names, or "" for
// any other path.
function freeportGame(pathname) {
  const m = /^\/freeport\/([^/]+)\/(token|standing)?$/.exec(pathname);
  return m ? m[1] : "";
}

// GoObject is a Durable Object served by one instance of the Go module,
// started once for the object and kept as long as the object lives: Go
// registers its handlers on this.binding and never returns, so its
// machine stays in memory. role says which machine ("rooms" or
// "freeport"); extra adds members to what Go sees of the object.
class GoObject extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.binding = {};
    this.started = null;
  }

  // start runs the object's instance of the Go module; it resolves once
  // the Go side registered its handlers on this.binding.
  async start(role, extra) {
    const go = new Go();
    let ready;
    const registered = new Promise((resolve) => {
      ready = resolve;
    });
    const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
    const storage = this.ctx.storage;
    const object = {
      role,
      storage,
      // commit makes one commit's puts ({key: value}) and deletes
      // ([key]) in one transaction: all of them, or none when one
      // throws (wasm/worker/object.go, objectStore).
      commit: (puts, deletes) => storage.transactionSync(() => this.commit(puts, deletes)),
      ...extra,
    };
    go.run(instance, { env: this.env, ctx: this.ctx, binding: this.binding, object });
    await registered;
    if (this.binding.failed) throw new Error(this.binding.failed);
  }

  // commit makes one commit's writes, inside the transaction.
  commit(puts, deletes) {
    const { kv } = this.ctx.storage;
    for (const key in puts) kv.put(key, puts[key]);
    for (const key of deletes) kv.delete(key);
  }

  // forward hands an HTTP request to Go as {method, url, headers, body}
  // and answers what Go returns.
  async forward(req) {
    await this.started;
    const headers = {};
    for (const [k, v] of req.headers) headers[k] = v;
    const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
    const res = await this.binding.objectFetch({
      method: req.method,
      url: req.url,
      headers: JSON.stringify(headers),
      body,
    });
    // A status without a body (304, 204) takes a null one: an empty
    // string there is a body, and workerd warns of it.
    const bodyless = res.status === 204 || res.status === 304;
    return new Response(bodyless ? null : res.body, {
      status: res.status,
      headers: { ...JSON.parse(res.headers), ...cors() },
    });
  }
}

// FreeportObject is one Freeport game (the object is named for it): the
// game in memory, its records in the object's storage, its requests
// applied one after another, so none races another for the game's head
// record.
export class FreeportObject extends GoObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.started = this.start("freeport", {});
  }

  fetch(req) {
    return this.forward(req);
  }
}

// RoomsObject is the lobby (named "main") or one started game's room
// (named "room:<id>"): its hibernatable WebSockets, its HTTP API and its
// alarm. An object cannot read the name it was made from, so every event
// brings it (docs/edge-worker.md, "Between the objects"): a request in its
// URL, a call from another object as the method's part, a WebSocket in
// its attachment (set when it was accepted), and the alarm, which carries
// nothing, in the object's storage, where the name is committed with the
// object's first records and deleted with its last. An event that cannot
// tell the name (an alarm or an old socket of an object that keeps
// nothing) is ignored: the object never guesses it. After every event it
// delivers what the event left for the other objects (deliver): the
// lobby's hand-offs to the rooms' objects, a room's report to the lobby.
export class RoomsObject extends GoObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.name = storedName(ctx.storage);
    this.named = ctx.storage.kv.get(NAME_KEY) !== undefined; // the storage holds the name
    this.held = []; // sockets moved to the lobby, closed once it has their sessions
    this.delivering = null;
    if (this.name) this.begin(this.name);
  }

  // commit stores the object's name with its records, so that an alarm
  // finds it; vacated deletes it with them.
  commit(puts, deletes) {
    if (!this.named) {
      this.ctx.storage.kv.put(NAME_KEY, this.name);
      this.named = true;
    }
    super.commit(puts, deletes);
  }

  // begin starts the object's Go instance as the server name; it fails
  // for an object already started as another.
  begin(name) {
    if (this.name && name !== this.name) {
      return Promise.reject(new Error(`rooms object ${this.name}: an event for ${name}`));
    }
    if (this.started) return this.started;
    this.name = name;
    const ctx = this.ctx;
    // The alarm the object already has, read before Go starts: Go's
    // start-up takes it as the alarm set, so that it never sets its
    // alarm anew (which would cancel the alarm that woke the object).
    this.started = ctx.storage.getAlarm().then((alarm) =>
      this.start("rooms", {
        name: this.name,
        alarm: alarm ?? 0,
        sockets: () => ctx.getWebSockets().flatMap((ws) => ctx.getTags(ws)),
        send: (conn, frame, close, reason) => {
          for (const ws of ctx.getWebSockets(conn)) {
            try {
              ws.send(frame);
              if (close) ws.close(1008, reason);
            } catch {
              // Already closed: its webSocketClose disconnects it.
            }
          }
        },
        move: (conn, where) => {
          for (const ws of ctx.getWebSockets(conn)) {
            if (where === "lobby") this.held.push(ws);
            else closeMoved(ws, where);
          }
        },
        // Go deleted the released room's records: delete the rest (the
        // object's name and anything an older layout left), so that a
        // finished game keeps nothing.
        vacated: () => {
          this.named = false;
          ctx.storage.deleteAll().catch((err) => console.log(`rooms object ${this.name}: deleteAll: ${err}`));
        },
      }),
    );
    this.started.then(
      () => this.deliver(),
      () => {},
    );
    return this.started;
  }

  // ready waits for the Go instance of the server named name (a
  // socket's, or "" for the stored name): false, with nothing started, when
  // the object cannot tell its name.
  async ready(name) {
    name ||= this.name;
    if (!name) return false;
    await this.begin(name);
    return true;
  }

  // socketReady is ready for WebSocket ws's event: the socket carries its
  // object's name in its attachment (one accepted before sockets carried
  // it belongs to the stored name). An event the object cannot place is
  // logged and the socket closed.
  async socketReady(ws) {
    if (await this.ready(ws.deserializeAttachment()?.object)) return true;
    console.log("rooms object: a WebSocket event of an object that keeps nothing and has no name: ignored");
    try {
      ws.close(1011, "no such room");
    } catch {
      // Closed already.
    }
    return false;
  }

  async fetch(req) {
    const url = new URL(req.url);
    await this.begin(objectName(url));
    const room = url.searchParams.get("room");
    if (room !== null && !(await this.binding.holds())) {
      // The lobby handed this room off and the delivery has not come yet
      // (or was lost): take it from the lobby.
      const rec = await roomsStub(this.env, LOBBY).handOffOf(room);
      if (rec) await this.binding.adopt(rec);
    }
    if (url.pathname !== "/rooms/ws") {
      return this.after(await this.forward(req));
    }
    if (req.headers.get("Upgrade") !== "websocket") {
      return Response.json({ error: "expected a WebSocket upgrade" }, { status: 426, headers: cors() });
    }
    const [client, server] = Object.values(new WebSocketPair());
    const conn = `w:${crypto.randomUUID().replaceAll("-", "")}`;
    this.ctx.acceptWebSocket(server, [conn]);
    server.serializeAttachment({ object: this.name });
    await this.binding.socketOpen(conn, req.headers.get("CF-Connecting-IP") || "");
    return this.after(new Response(null, { status: 101, webSocket: client }));
  }

  async webSocketMessage(ws, message) {
    if (!(await this.socketReady(ws))) return;
    const text = typeof message === "string" ? message : new TextDecoder().decode(message);
    await this.binding.socketMessage(this.conn(ws), text);
    this.after();
  }

  async webSocketClose(ws, code, reason) {
    if (!(await this.socketReady(ws))) return;
    await this.binding.socketClose(this.conn(ws));
    try {
      ws.close(code, reason);
    } catch {
      // Closed already.
    }
    this.after();
  }

  async webSocketError(ws) {
    if (!(await this.socketReady(ws))) return;
    await this.binding.socketClose(this.conn(ws));
    this.after();
  }

  async alarm() {
    if (!(await this.ready())) {
      console.log("rooms object: an alarm of an object that keeps nothing: ignored");
      return;
    }
    await this.binding.alarm();
    this.after();
  }

  // The lobby's side of a hand-off: the record of room id, while no room
  // object confirmed it ("" when none).
  async handOffOf(id) {
    await this.begin(LOBBY);
    return this.binding.handOffOf(id);
  }

  // A room's side of a hand-off: take the record of room id the lobby
  // sends.
  async adopt(id, rec) {
    await this.begin(`room:${id}`);
    await this.binding.adopt(rec);
    this.after();
  }

  // The lobby's side of a report: apply it (once, however often it comes).
  async report(text) {
    await this.begin(LOBBY);
    await this.binding.report(text);
    this.after();
  }

  // after starts a delivery once an event is done, and passes its answer on.
  after(res) {
    this.deliver();
    return res;
  }

  // deliver sends, after an event and never inside one, what the object
  // owes the others: each hand-off to its room's object, then confirmed
  // here; a room's report to the lobby, then acknowledged here, and only
  // then the sockets moved to the lobby are closed, so that their hello
  // there finds the sessions. One delivery runs at a time; one asked for
  // meanwhile runs after it. While one is pending, Go keeps the object's
  // alarm at its retry (hosting.Rooms.NextWake), so a failed one is tried
  // again by the alarm, or by an earlier event, even after an eviction.
  deliver() {
    if (this.delivering) {
      this.again = true;
      return;
    }
    this.delivering = (async () => {
      do {
        this.again = false;
        const p = JSON.parse(await this.binding.pending());
        for (const [id, rec] of Object.entries(p.handOffs || {})) {
          await roomsStub(this.env, `room:${id}`).adopt(id, rec);
          await this.binding.handedOff(id);
        }
        if (p.report) {
          await roomsStub(this.env, LOBBY).report(p.report);
          await this.binding.acked(String(p.seq));
        }
        for (const ws of this.held.splice(0)) closeMoved(ws, "lobby");
      } while (this.again);
    })()
      .catch((err) => {
        console.log(`rooms object ${this.name}: delivery: ${err} (the alarm retries it)`);
      })
      .finally(() => {
        this.delivering = null;
      });
  }

  conn(ws) {
    return this.ctx.getTags(ws)[0];
  }
}

// NAME_KEY is the key of an object's name in its storage.
const NAME_KEY = "object/name";

// storedName is the name a RoomsObject's storage holds: the one committed
// with its records, or the lobby's for the lobby's records from before
// names were stored; "" for an object that keeps nothing.
function storedName(storage) {
  const name = storage.kv.get(NAME_KEY);
  if (name) return name;
  const lobby = Array.from(storage.kv.list({ prefix: `rooms/${LOBBY}/`, limit: 1 }));
  return lobby.length > 0 ? LOBBY : "";
}

// closeMoved closes a socket whose session moved to another object, with
// where it went.
function closeMoved(ws, where) {
  try {
    ws.close(MOVED, where);
  } catch {
    // Closed already.
  }
}

// cors allows any origin, as the Go worker does: requests authenticate
// with bearer tokens, never cookies.
function cors() {
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Headers": "Authorization, Content-Type",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  };
}
