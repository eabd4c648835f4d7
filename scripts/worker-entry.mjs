// The edge worker's entry module (docs/edge-worker.md). scripts/worker.sh
// build copies it beside what syumai/workers generates (worker.mjs,
// runtime.mjs, wasm_exec.js) and the Go module (app.wasm).
//
// The room server and each Freeport game live in Durable Objects: one
// RoomsObject for the room server, one FreeportObject per game. Each holds
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

// The room server's name: one object holds it (docs/edge-worker.md).
const SERVER = "main";

export default {
  async fetch(req, env, ctx) {
    const { pathname } = new URL(req.url);
    if (req.method !== "OPTIONS") {
      if (ROOM_PATHS.has(pathname)) {
        return env.ROOMS.get(env.ROOMS.idFromName(SERVER)).fetch(req);
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
  constructor(ctx, env, role, extra = {}) {
    super(ctx, env);
    this.binding = {};
    this.started = this.start(role, extra);
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
      commit: (puts, deletes) =>
        storage.transactionSync(() => {
          for (const key in puts) storage.kv.put(key, puts[key]);
          for (const key of deletes) storage.kv.delete(key);
        }),
      ...extra,
    };
    go.run(instance, { env: this.env, ctx: this.ctx, binding: this.binding, object });
    await registered;
    if (this.binding.failed) throw new Error(this.binding.failed);
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
    super(ctx, env, "freeport");
  }

  fetch(req) {
    return this.forward(req);
  }
}

// RoomsObject is the room server: its hibernatable WebSockets, its HTTP
// API and its alarm.
export class RoomsObject extends GoObject {
  constructor(ctx, env) {
    super(ctx, env, "rooms", {
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
    });
  }

  async fetch(req) {
    if (new URL(req.url).pathname !== "/rooms/ws") {
      return this.forward(req);
    }
    await this.started;
    if (req.headers.get("Upgrade") !== "websocket") {
      return Response.json({ error: "expected a WebSocket upgrade" }, { status: 426, headers: cors() });
    }
    const [client, server] = Object.values(new WebSocketPair());
    const conn = `w:${crypto.randomUUID().replaceAll("-", "")}`;
    this.ctx.acceptWebSocket(server, [conn]);
    await this.binding.socketOpen(conn, req.headers.get("CF-Connecting-IP") || "");
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws, message) {
    await this.started;
    const text = typeof message === "string" ? message : new TextDecoder().decode(message);
    await this.binding.socketMessage(this.conn(ws), text);
  }

  async webSocketClose(ws, code, reason) {
    await this.started;
    await this.binding.socketClose(this.conn(ws));
    try {
      ws.close(code, reason);
    } catch {
      // Closed already.
    }
  }

  async webSocketError(ws) {
    await this.started;
    await this.binding.socketClose(this.conn(ws));
  }

  async alarm() {
    await this.started;
    await this.binding.alarm();
  }

  conn(ws) {
    return this.ctx.getTags(ws)[0];
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
