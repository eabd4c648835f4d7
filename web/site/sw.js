// Storyloom's service worker: a template. `go run ./bundle build` prepends
//
//   self.STORYLOOM_MANIFEST = {version, files};
//
// with the site version (a digest of every file) and every file to precache,
// by URL relative to this script. Without it (an unbuilt tree) the worker
// precaches nothing and passes every request through.
//
// Policy:
// - install: precache every file of this version into its own cache; do not
//   take over from a running version (no skipWaiting here).
// - the page offers "reload to update" when a new version waits, and only
//   then asks it, with {type: "SKIP_WAITING"}, to take over.
// - activate: drop other versions' caches and claim the open pages.
// - fetch: precached files and page navigations come from this version's
//   cache, so one page never mixes two versions; anything else (the room
//   server, the trading endpoint, the offline download) goes to the network.

const MANIFEST = self.STORYLOOM_MANIFEST || { version: "unbuilt", files: [] };
const PREFIX = "storyloom-";
const CACHE = PREFIX + MANIFEST.version;
const INDEX = new URL("index.html", self.location).href;
const SCOPE = new URL("./", self.location).href;
const PRECACHED = new Set(MANIFEST.files.map((f) => new URL(f, self.location).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        cache.addAll(MANIFEST.files.map((f) => new Request(new URL(f, self.location), { cache: "reload" }))),
      ),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") {
    self.skipWaiting();
  }
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") {
    return;
  }
  const url = new URL(req.url);
  url.search = "";
  url.hash = "";
  let key = url.href;
  if (req.mode === "navigate" && (key === SCOPE || key === INDEX)) {
    key = INDEX;
  } else if (!PRECACHED.has(key)) {
    return;
  }
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key))
      .then((hit) => (hit ? unredirected(hit) : fetch(req))),
  );
});

// Many hosts answer index.html with a redirect to "./" (Workers static
// assets do), so the precached index may be a redirected response, which
// a navigation must not be answered with: serve a plain copy of it.
function unredirected(res) {
  if (!res.redirected) return res;
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
