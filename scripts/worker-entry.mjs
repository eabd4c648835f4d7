// The edge worker's entry module (docs/edge-worker.md). scripts/worker.sh
// build copies it beside what syumai/workers generates (worker.mjs,
// runtime.mjs, wasm_exec.js) and the Go module (app.wasm).
//
// The room server lives in one Durable Object, RoomsObject: it holds the
// room machine (engine/rooms, through bundle/hosting) in memory in its own
// instance of the Go module, serializes every command by construction and
// keeps the state in the object's storage. This module routes the room
// server's paths to it and everything else to the Go worker; the class
// below only carries requests, WebSocket events and the alarm into Go
// (wasm/worker/object.go), which does the rest.

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
    if (ROOM_PATHS.has(pathname) && req.method !== "OPTIONS") {
      return env.ROOMS.get(env.ROOMS.idFromName(SERVER)).fetch(req);
    }
    const game = freeportGame(pathname);
    if (game && req.method === "POST") {
      return env.FREEPORT.get(env.FREEPORT.idFromName(game)).fetch(req);
    }
    return shim.fetch(req, env, ctx);
  },
  scheduled: shim.scheduled,
};

// freeportGame is the game a Freeport path (/freeport/{game}/ or
// /freeport/{game}/token) names, or "" for any other path.
function freeportGame(pathname) {
  const m = /^\/freeport\/([^/]+)\/(token)?$/.exec(pathname);
  return m ? m[1] : "";
}

// FreeportObject serializes one Freeport game's requests: each runs in the
// Go worker (the syumai/workers shim, Freeport's records in D1) while the
// object admits no other, so no two commands of a game ever race for its
// head record and none is refused for losing that race.
export class FreeportObject extends DurableObject {
  async fetch(req) {
    return this.ctx.blockConcurrencyWhile(() => shim.fetch(req, this.env, this.ctx));
  }
}

export class RoomsObject extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.binding = {};
    this.started = this.start();
  }

  // start runs one instance of the Go module for this object; it resolves
  // once the Go side registered its handlers on this.binding.
  async start() {
    const go = new Go();
    let ready;
    const registered = new Promise((resolve) => { ready = resolve; });
    const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
    const object = {
      storage: this.ctx.storage,
      sockets: () => this.ctx.getWebSockets().flatMap((ws) => this.ctx.getTags(ws)),
      send: (conn, frame, close, reason) => {
        for (const ws of this.ctx.getWebSockets(conn)) {
          try {
            ws.send(frame);
            if (close) ws.close(1008, reason);
          } catch {
            // Already closed: its webSocketClose disconnects it.
          }
        }
      },
    };
    go.run(instance, { env: this.env, ctx: this.ctx, binding: this.binding, object });
    await registered;
    if (this.binding.failed) throw new Error(this.binding.failed);
  }

  async fetch(req) {
    await this.started;
    if (new URL(req.url).pathname === "/rooms/ws") {
      if (req.headers.get("Upgrade") !== "websocket") {
        return Response.json({ error: "expected a WebSocket upgrade" }, { status: 426, headers: cors() });
      }
      const [client, server] = Object.values(new WebSocketPair());
      const conn = `w:${crypto.randomUUID().replaceAll("-", "")}`;
      this.ctx.acceptWebSocket(server, [conn]);
      await this.binding.socketOpen(conn, req.headers.get("CF-Connecting-IP") || "");
      return new Response(null, { status: 101, webSocket: client });
    }
    const headers = {};
    for (const [k, v] of req.headers) headers[k] = v;
    const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
    const res = await this.binding.objectFetch({ method: req.method, url: req.url, headers: JSON.stringify(headers), body });
    return new Response(res.body, { status: res.status, headers: { ...JSON.parse(res.headers), ...cors() } });
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
