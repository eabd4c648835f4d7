// The Freeport client: the Game Master protocol v2 over the host's HTTP
// endpoint (docs/hosting.md):
//
//   POST /freeport/{game}/token  → 201 {"token": "…"}: a bearer token, one Owner
//   POST /freeport/{game}/       one request envelope, Authorization: Bearer <token>
//   GET  /freeport/{game}/standing?offset=&limit=&players=
//                                one page of the Standing, with the reader's own entry
//
// The token is this tab's identity. It lives in sessionStorage, so every
// tab is its own trader; "remember" also keeps it in localStorage, so a
// new tab (or a restart) continues as the same trader.

/** A refusal by the host rather than the Game Master (404, 429, 503, network). */
export class HostError extends Error {
  constructor(code, message, retry = false) {
    super(message);
    this.code = code;
    this.retry = retry;
  }
}

/** A Game Master refusal: envelope.error. */
export class Refusal extends Error {
  constructor(error, stateVersion) {
    super(error.message || error.code);
    this.code = error.code;
    this.stateVersion = stateVersion;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A fresh Command ID: the page never reuses one for a different Command. */
export function commandId(kind) {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return `web-${kind}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function storageGet(store, key) {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}
function storageSet(store, key, value) {
  try {
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    /* private mode: the token lives as long as the page */
  }
}

export class Market {
  /** game is the instance id; endpoint the URL of POST /freeport/{game}/. */
  constructor(game, endpoint) {
    this.game = game;
    this.endpoint = new URL(endpoint, location.href);
    this.key = `freeport-token:${game}`;
    this.token = storageGet(sessionStorage, this.key) || storageGet(localStorage, this.key);
    if (this.token) storageSet(sessionStorage, this.key, this.token);
  }

  /** Whether the token is also kept in localStorage. */
  get remembered() {
    return this.token !== null && storageGet(localStorage, this.key) === this.token;
  }

  remember(on) {
    storageSet(localStorage, this.key, on ? this.token : null);
  }

  /** Makes sure this tab holds a bearer token, asking the host for one. */
  async ensureToken() {
    if (this.token) return;
    const res = await this.post(new URL("token", this.endpoint), null, null);
    const body = await res.json().catch(() => ({}));
    if (!res.ok || typeof body.token !== "string") {
      throw new HostError(
        body.hostError?.code || `http_${res.status}`,
        body.hostError?.message || "the market did not issue a key",
      );
    }
    this.token = body.token;
    storageSet(sessionStorage, this.key, this.token);
  }

  async post(url, token, body) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      return await fetch(url, { method: "POST", headers, body: body === null ? "" : body, cache: "no-store" });
    } catch {
      throw new HostError("offline", "the market cannot be reached", true);
    }
  }

  /**
   * Sends one request and returns its result, or throws a Refusal (the
   * Game Master said no) or a HostError. A Command is retried with the
   * same commandId after a lost response or a busy host, which the Game
   * Master answers with the original bytes: nothing moves twice.
   */
  async send(request) {
    await this.ensureToken();
    const body = JSON.stringify({ protocolVersion: 2, ...request });
    const tries = request.commandId ? 4 : 1;
    let last;
    for (let i = 0; i < tries; i++) {
      if (i > 0) await sleep(400 * i);
      try {
        return await this.once(body);
      } catch (e) {
        last = e;
        if (!(e instanceof HostError) || !e.retry) throw e;
      }
    }
    throw last;
  }

  /**
   * Reads one page of the Standing: {total, offset, players (each with
   * its rank), you (this trader's entry, or null), named (the entries of
   * the Player IDs asked for)} beside readStanding's own fields. The host
   * tags each page; the browser revalidates its copy, so an unchanged
   * board costs a 304 and no body.
   */
  async standing({ offset = 0, limit = 25, players = [] } = {}) {
    await this.ensureToken();
    const url = new URL("standing", this.endpoint);
    url.searchParams.set("offset", String(offset));
    url.searchParams.set("limit", String(limit));
    if (players.length) url.searchParams.set("players", players.join(","));
    let res;
    try {
      res = await fetch(url, { headers: { Authorization: `Bearer ${this.token}` }, cache: "no-cache" });
    } catch {
      throw new HostError("offline", "the market cannot be reached", true);
    }
    const body = await res.json().catch(() => null);
    if (!res.ok || !body || !Array.isArray(body.players)) {
      const retry = res.status === 429 || res.status >= 500;
      throw new HostError(
        body?.hostError?.code || `http_${res.status}`,
        body?.hostError?.message || "the market did not send its standing",
        retry,
      );
    }
    return body;
  }

  async once(body) {
    const res = await this.post(this.endpoint, this.token, body);
    let env;
    try {
      env = await res.json();
    } catch {
      env = null;
    }
    if (env?.hostError) {
      const retry = res.status === 429 || res.status === 503;
      throw new HostError(env.hostError.code, env.hostError.message, retry);
    }
    if (env?.protocolVersion !== 2 || typeof env.ok !== "boolean") {
      throw new HostError(
        `http_${res.status}`,
        "the market answered something this page cannot read",
        res.status >= 500,
      );
    }
    this.stateVersion = env.stateVersion;
    if (!env.ok) {
      if (env.error.code === "authentication_required") {
        // The host no longer knows this key (its secret changed): start over.
        this.token = null;
        storageSet(sessionStorage, this.key, null);
        storageSet(localStorage, this.key, null);
      }
      throw new Refusal(env.error, env.stateVersion);
    }
    return env.result;
  }
}
