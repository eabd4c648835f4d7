// The connection to the room server: one WebSocket (GET /rooms/ws), or,
// when a WebSocket cannot be opened, the HTTP API (POST /rooms/command and
// the GET /rooms/view long-poll). Either way the page sees the same frames
// (docs/rooms-ui.md).
//
// A host without the WebSocket refuses the handshake at once, and the page carries on over HTTP within
// the same moment. Once the HTTP API has answered where the WebSocket never
// opened, the tab remembers it (sessionStorage), so a reload goes straight
// to HTTP instead of trying the WebSocket again.
//
// The session token is kept per tab in sessionStorage, so a reload (or a
// dropped connection) says hello with it and gets its seat back. The
// server gives every fresh connection a fresh session before it reads the
// hello; that first LobbyView is not adopted (the token to keep is the one
// that owns the seat), only the answer to the hello is.
//
// At the edge each started game has a server of its own (docs/edge-worker.md).
// The server moves a connection there and back below the protocol: it
// closes the WebSocket with code 4001 (MOVED) and says where in the
// reason (or, over HTTP, in the answer's "move"): "room:<id>" (reconnect
// to that room's server with ?room=<id> and say hello there),
// "spectate:<id>" (watch that room there: spectate_room, no hello) or
// "lobby" (back, with hello). The native host never moves a connection.

import { frameKind } from "./protocol.js";

const TOKEN_KEY = "storyloom-rooms-session";
const HTTP_ONLY_KEY = "storyloom-rooms-http-only";
const MAX_BACKOFF = 30000;
const POLL_WAIT = 20000;
// POLL_GRACE is how long past POLL_WAIT a long-poll's answer may be late
// before the page takes it for lost on the way (a proxy or a sleeping
// network dropped it) and asks again.
const POLL_GRACE = 10000;
// MOVED is the close code of a WebSocket the server moved elsewhere.
const MOVED = 4001;
// BOUNCE_WINDOW is how soon after reaching a server a move back to the
// server the page came from is taken for a bounce. One bounce is common
// (a game's server that released the game sends a watcher back); a second
// one in a row means the lobby and the game's server disagree about where
// the game is (its server never got it, or released it before the lobby
// learned so), and following each move at once would send the page back
// and forth at full speed.
const BOUNCE_WINDOW = 10000;

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function storedToken() {
  try {
    return storage()?.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

function httpOnlyHere() {
  try {
    return storage()?.getItem(HTTP_ONLY_KEY) === "1";
  } catch {
    return false;
  }
}

function rememberHTTPOnly() {
  try {
    storage()?.setItem(HTTP_ONLY_KEY, "1");
  } catch {
    /* private mode: this page only */
  }
}

function storeToken(tok) {
  try {
    if (tok) storage()?.setItem(TOKEN_KEY, tok);
  } catch {
    /* private mode: this page only */
  }
}

/** frameKind is protocol.js's, for the page's tests and tools. */
export { frameKind };

/** Backoff before reconnect attempt n (0-based): 0.5 s doubling to 30 s, with jitter. */
export function backoff(n) {
  const base = Math.min(MAX_BACKOFF, 500 * 2 ** Math.min(n, 16));
  return Math.round(base * (0.6 + Math.random() * 0.4));
}

export class Connection {
  /**
   * onFrame(frame, kind) receives every frame, in order; onStatus({state,
   * transport, retryIn}) the connection's state: "connecting", "open",
   * "waiting" (a reconnect is scheduled), "taken" (another tab took the
   * session; no automatic reconnect).
   */
  constructor({ onFrame, onStatus, transport = "auto" }) {
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.mode = transport === "http" || (transport === "auto" && httpOnlyHere()) ? "http" : "ws";
    this.forced = transport === "http" || transport === "ws";
    this.token = storedToken();
    this.helloPending = false;
    this.attempt = 0;
    this.wsEverOpened = false;
    this.wsFailures = 0;
    this.fellBack = false; // on HTTP because the WebSocket never opened here
    this.ws = null;
    this.timer = 0;
    this.stopped = false;
    this.open = false;
    // HTTP state.
    this.bearer = "";
    this.lastSeq = 0;
    this.pollAbort = null;
    this.generation = 0;
    // Where the server moved this connection: the room whose server to
    // use ("" for the lobby's), and whether only to watch it.
    this.target = "";
    this.spectate = false;
    // The server the last move came from (null: none since a restart),
    // whether that move was a bounce, and when the connection to this
    // server began.
    this.movedFrom = null;
    this.bounced = false;
    this.arrived = 0;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  status(state, extra = {}) {
    this.onStatus?.({ state, transport: this.mode, ...extra });
  }

  /** Sends a command; false when there is no connection to send it on. */
  send(cmd) {
    if (this.mode === "ws") {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
      this.ws.send(JSON.stringify(cmd));
      return true;
    }
    if (!this.open) return false;
    this.post(cmd);
    return true;
  }

  /** Drops the connection and opens a fresh one at once (after "taken", or to stop watching), to the lobby. */
  restart() {
    this.target = "";
    this.spectate = false;
    this.movedFrom = null;
    this.bounced = false;
    this.teardown();
    this.attempt = 0;
    this.connect();
  }

  teardown() {
    clearTimeout(this.timer);
    this.generation++;
    this.open = false;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
      try {
        ws.close(1000, "bye");
      } catch {
        /* already closed */
      }
    }
    if (this.pollAbort) {
      this.pollAbort.abort();
      this.pollAbort = null;
    }
  }

  /** Starts a fresh session: forgets the stored token (a spectator leaving over HTTP). */
  forgetSession() {
    this.token = "";
    this.bearer = "";
    try {
      storage()?.removeItem(TOKEN_KEY);
    } catch {
      /* ignore */
    }
  }

  connect() {
    if (this.stopped) return;
    this.arrived = Date.now();
    this.status("connecting");
    if (this.mode === "ws") this.connectWS();
    else this.connectHTTP();
  }

  scheduleReconnect() {
    if (this.stopped) return;
    this.open = false;
    const wait = backoff(this.attempt++);
    this.status("waiting", { retryIn: wait });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /**
   * Follows a move of the server ("room:<id>", "spectate:<id>" or "lobby"):
   * at once, unless it is the second bounce in a row (BOUNCE_WINDOW) or
   * later; then after the reconnect backoff, which grows with each bounce
   * as with each failed reconnect, until a move that is no bounce.
   */
  follow(where) {
    const at = where.indexOf(":");
    const kind = at < 0 ? where : where.slice(0, at);
    const target = kind === "room" || kind === "spectate" ? where.slice(at + 1) : "";
    const bounce = target === this.movedFrom && Date.now() - this.arrived < BOUNCE_WINDOW;
    const wait = bounce && this.bounced;
    this.movedFrom = this.target;
    this.bounced = bounce;
    this.target = target;
    this.spectate = kind === "spectate" && this.target !== "";
    this.teardown();
    if (wait) {
      this.scheduleReconnect();
      return;
    }
    if (!bounce) this.attempt = 0;
    this.connect();
  }

  /** The URL of path on the server the connection is to use. */
  serverURL(path) {
    const url = new URL(path, window.location.href);
    if (this.target) url.searchParams.set("room", this.target);
    return url;
  }

  // Frames from either transport.
  deliver(frame) {
    const kind = frameKind(frame);
    // A room's server greets a watcher as any new connection: that
    // lobby is not the page's.
    if (this.spectate && kind === "lobby") return;
    // The room's server no longer holds the session (its game ended
    // meanwhile): back to the lobby.
    if (this.target && !this.spectate && kind === "lobby_error" && frame.lobby_error.code === "unknown_session") {
      this.follow("lobby");
      return;
    }
    if (this.helloPending) {
      if (kind === "lobby" && frame.session !== this.token) return; // the fresh pre-hello session
      if (kind === "lobby" || kind === "game" || kind === "spectator") this.helloPending = false;
      if (kind === "lobby_error" && frame.lobby_error.code === "unknown_session") this.helloPending = false;
    }
    if (kind === "lobby" && frame.session && frame.session !== this.token) {
      this.token = frame.session;
      storeToken(this.token);
    }
    if (kind === "lobby_error" && frame.lobby_error.code === "session_taken") {
      this.stopped = true;
      this.teardown();
      this.status("taken");
    }
    // A refusal is no sign of a working connection: a bounce's
    // unknown_room must not reset the backoff.
    if (kind !== "lobby_error") this.attempt = 0;
    this.onFrame(frame, kind);
  }

  // WebSocket transport.
  connectWS() {
    let ws;
    const gen = ++this.generation;
    try {
      const url = this.serverURL("ws");
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      url.hash = "";
      ws = new WebSocket(url.href);
    } catch {
      this.wsFailed();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      if (gen !== this.generation) return;
      opened = true;
      this.wsEverOpened = true;
      this.wsFailures = 0;
      this.open = true;
      if (this.spectate) {
        ws.send(JSON.stringify({ type: "spectate_room", room_id: this.target }));
      } else if (this.token) {
        this.helloPending = true;
        ws.send(JSON.stringify({ type: "hello", token: this.token }));
      }
      this.status("open");
    };
    ws.onmessage = (ev) => {
      if (gen !== this.generation) return;
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.deliver(frame);
    };
    ws.onclose = (ev) => {
      if (gen !== this.generation) return;
      this.ws = null;
      this.open = false;
      this.helloPending = false;
      if (this.stopped) return;
      if (ev.code === MOVED) {
        this.follow(ev.reason);
        return;
      }
      if (!opened) this.wsFailed();
      else this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows and decides */
    };
  }

  wsFailed() {
    this.wsFailures++;
    // A WebSocket that never opened on this page, or fails again and again
    // after having worked: use the HTTP API instead.
    if (!this.forced && (!this.wsEverOpened || this.wsFailures >= 3)) {
      this.mode = "http";
      this.fellBack = !this.wsEverOpened;
      this.status("connecting");
      this.connectHTTP();
      return;
    }
    this.scheduleReconnect();
  }

  // HTTP transport.
  async request(path, init) {
    const headers = { "Content-Type": "application/json" };
    // A watcher's session at a room's server is that server's own.
    const tok = this.bearer || (this.spectate ? "" : this.token);
    if (tok) headers.Authorization = `Bearer ${tok}`;
    const res = await fetch(this.serverURL(path), { ...init, headers, cache: "no-store" });
    let body = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    return { res, body };
  }

  take(body) {
    if (!body) return;
    if (body.session) this.bearer = body.session;
    const frames = (body.frames || []).slice().sort((a, b) => a.seq - b.seq);
    for (const f of frames) {
      // A refusal by the host itself (a full server, the edge worker's
      // rate limit) is in no mailbox, so it has no seq: show it as it is.
      if (!f.seq) {
        this.deliver(f.frame);
        continue;
      }
      if (f.seq <= this.lastSeq) continue;
      this.lastSeq = f.seq;
      this.deliver(f.frame);
    }
    if (body.move) this.follow(body.move);
  }

  /** The HTTP API answered: a host whose WebSocket never opened has none. */
  opened() {
    this.open = true;
    if (this.fellBack) rememberHTTPOnly();
    this.status("open");
  }

  async connectHTTP() {
    const gen = ++this.generation;
    this.lastSeq = 0;
    this.bearer = "";
    // An HTTP connection may still hold our session (a reload): take its
    // latest view, not the refusals it kept from before, and go on from
    // there.
    if (this.token && !this.spectate) {
      let held = null;
      try {
        held = await this.request("view?after=0", { method: "GET" });
      } catch {
        held = null;
      }
      if (gen !== this.generation) return;
      if (held?.res.ok && held.body?.move) {
        // No connection of ours here: the server sends the page on (a
        // room's server that holds no room, the lobby of a player whose
        // game has a server of its own). Follow at once, showing only
        // this answer's own refusal (no seq), as a POST's would be.
        this.lastSeq = held.body.seq || 0;
        this.take(held.body);
        return;
      }
      if (held?.res.ok && held.body) {
        this.bearer = held.body.session || this.token;
        const views = (held.body.frames || []).filter((f) =>
          ["lobby", "game", "spectator"].includes(frameKind(f.frame)),
        );
        this.lastSeq = held.body.seq || 0;
        this.opened();
        if (views.length) this.deliver(views[views.length - 1].frame);
        this.post({ type: "request_catalog" });
        this.poll(gen);
        return;
      }
    }
    let reply;
    try {
      // With a token the server opens a connection and says hello with it
      // before the command; the answer is the reclaimed seat, or
      // unknown_session and a fresh one.
      const first = this.spectate ? { type: "spectate_room", room_id: this.target } : { type: "request_catalog" };
      reply = await this.request("command", { method: "POST", body: JSON.stringify(first) });
    } catch {
      reply = null;
    }
    if (gen !== this.generation) return;
    if (!reply?.res.ok || !reply.body?.session) {
      // The refusal says why (a full server). A move with it (a room's
      // server that holds no room sends the page to the lobby) has been
      // followed by then, as a WebSocket's is: no retry here on top.
      if (reply?.body) this.take(reply.body);
      if (gen === this.generation) this.scheduleReconnect();
      return;
    }
    this.opened();
    this.take(reply.body);
    this.poll(gen);
  }

  async post(cmd) {
    const gen = this.generation;
    let reply = null;
    // A 503 other than a full server means the host could not commit the
    // command (the edge worker lost the race for the room to other
    // writers too often): nothing was applied, so it is sent again after
    // the Retry-After the host names, up to three times, before the
    // refusal is shown.
    for (let tries = 0; ; tries++) {
      try {
        reply = await this.request("command", { method: "POST", body: JSON.stringify(cmd) });
      } catch {
        reply = null;
      }
      if (gen !== this.generation) return;
      const full = reply?.body?.frames?.some((f) => f.frame?.lobby_error?.code === "too_many_connections");
      if (reply?.res.status !== 503 || full || tries === 3) break;
      const wait = 1000 * (Number(reply.res.headers.get("Retry-After")) || 1);
      await new Promise((r) => setTimeout(r, wait));
      if (gen !== this.generation) return;
    }
    if (!reply?.body) {
      this.onFrame({ lobby_error: { code: "not_sent", reason: "" } }, "lobby_error"); // worded by its code (online/reasons.js)
      return;
    }
    this.take(reply.body);
  }

  async poll(gen) {
    let failures = 0;
    while (gen === this.generation && !this.stopped) {
      const abort = new AbortController();
      this.pollAbort = abort;
      const overdue = setTimeout(() => abort.abort(), POLL_WAIT + POLL_GRACE);
      let reply = null;
      try {
        reply = await this.request(`view?after=${this.lastSeq}&wait=${POLL_WAIT}`, {
          method: "GET",
          signal: abort.signal,
        });
      } catch {
        reply = null;
      } finally {
        clearTimeout(overdue);
      }
      if (gen !== this.generation) return;
      if (reply && (reply.res.status === 404 || reply.res.status === 401)) {
        // Our HTTP connection idled out: say hello again with the token.
        this.connectHTTP();
        return;
      }
      if (reply?.res.ok) {
        if (!this.open) {
          this.open = true;
          this.status("open");
        }
        failures = 0;
        this.take(reply.body);
        continue;
      }
      this.open = false;
      const wait = backoff(failures++);
      this.status("waiting", { retryIn: wait });
      await new Promise((r) => {
        this.timer = setTimeout(r, wait);
      });
    }
  }
}
