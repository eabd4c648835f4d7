// The page's side of the WASM bridge: load the module, then call its
// methods with one JSON-compatible argument. Every method resolves to
// {ok: true, ...} or {ok: false, error: {code, message}}; call() turns the
// latter into a thrown BridgeError, and hands any storage report to the
// listener, so a failed write is always told to the player.

export class BridgeError extends Error {
  constructor(error, result) {
    super(error?.message || "unknown failure");
    this.code = error?.code || "internal_error";
    this.messageKey = error?.messageKey || "";
    this.result = result;
  }
}

let bridge = null;
let storageListener = () => {};

/** Loads play.wasm through the asset map and waits for the bridge. */
export async function loadBridge() {
  const go = new Go();
  const resp = await storyloomAssets.fetch("play.wasm");
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(resp.clone(), go.importObject);
  } catch {
    result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  }
  go.run(result.instance);
  bridge = globalThis.storyloom;
  if (!bridge) throw new Error("the Storyloom module did not start");
  return bridge;
}

/** Sets the function told about every storage report. */
export function onStorage(fn) {
  storageListener = fn;
}

/** Calls a bridge method; resolves to its result, or throws BridgeError. */
export async function call(method, args) {
  const res = await bridge[method](args === undefined ? null : args);
  storageListener(res.storage || null);
  if (!res.ok) throw new BridgeError(res.error, res);
  return res;
}

/** Calls a method and returns the result whether ok or not. */
export async function attempt(method, args) {
  const res = await bridge[method](args === undefined ? null : args);
  storageListener(res.storage || null);
  return res;
}
