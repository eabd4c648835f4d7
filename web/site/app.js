// Storyloom's page: boots the WASM bridge with the campaigns, then draws
// one screen at a time into <main> by the location hash:
//
//   #/                    the library
//   #/new/<campaignId>    start a new game, then #/play/<sessionId>
//   #/play/<sessionId>    a game (story, simulation or world screen)
//   #/gallery             achievements and endings of every campaign
//
// The page never decides what is legal: it renders the scenes and the
// available actions the engine returns, and sends back what the player
// picked. docs/browser.md describes the bridge.
import { loadBridge, call, onStorage } from "./js/bridge.js";
import { announce, h, replace, setupTheme, toast } from "./js/dom.js";
import { download, errorBox } from "./js/ui.js";
import { renderLibrary } from "./js/library.js";
import { renderPlay } from "./js/play.js";
import { renderGallery } from "./js/gallery.js";
import { setupStorage, showStorage } from "./js/storage.js";
import { setPageLocale, tr } from "./js/lang.js";
import { app, markOnline, serverless } from "./js/page.js";

const main = document.getElementById("main");

// Where saves go: IndexedDB when it opens, else memory (some browsers
// refuse IndexedDB in private windows); the bridge reports which.
async function storageBackend() {
  try {
    await new Promise((resolve, reject) => {
      const req = indexedDB.open("storyloom-probe");
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    return "indexeddb";
  } catch {
    return "memory";
  }
}

// The campaigns as the build published them: each one's built document
// (the author's build compiled the source, which the site does not ship),
// fetched through the asset map so that the same code works served,
// offline and from file://, with the index's manifest digest and pack set
// for the bridge to verify.
async function fetchCampaigns() {
  const index = await (await storyloomAssets.fetch("campaigns/index.json")).json();
  const campaigns = await Promise.all(
    index.campaigns.map(async (c) => ({
      id: c.campaignId,
      built: await (await storyloomAssets.fetch(c.built)).text(),
      version: c.version,
      digest: c.digest,
    })),
  );
  return { campaigns, manifestDigest: index.manifestDigest, packs: index.packs, resolution: index.resolution };
}

// A screen drawn by a route change (not the first one) opens at its top,
// with keyboard focus on its text (or its heading), not where the last
// screen left them. Toasts stay: "Rewound" and "Loaded" are told across
// the change they cause.
let routed = false;
function settle() {
  window.scrollTo(0, 0);
  if (!routed) {
    routed = true;
    return;
  }
  const target = main.querySelector("[data-focus-target]") || main.querySelector("h1");
  if (target && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  (target || main).focus({ preventScroll: true });
}

async function route() {
  await draw();
  settle();
}

async function draw() {
  if (app.cleanup) {
    app.cleanup();
    app.cleanup = null;
  }
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  for (const a of document.querySelectorAll("[data-nav]")) {
    const here = (parts[0] || "library") === a.dataset.nav;
    if (here) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  try {
    switch (parts[0]) {
      case "new": {
        const res = await call("createSession", { campaignId: parts[1] });
        // Become #/play/<sessionId> without a second hashchange, so that
        // Back leaves the game rather than starting another.
        history.replaceState(null, "", `#/play/${encodeURIComponent(res.sessionId)}`);
        app.sessionId = res.sessionId;
        await renderPlay(main, res.sessionId, res);
        return;
      }
      case "play":
        app.sessionId = parts[1];
        await renderPlay(main, parts[1]);
        return;
      case "gallery":
        app.sessionId = null;
        await renderGallery(main, parts[1]);
        return;
      default:
        app.sessionId = null;
        await renderLibrary(main);
    }
  } catch (err) {
    console.warn("storyloom:", err);
    replace(
      main,
      h("h1", null, tr("Something went wrong")),
      errorBox(err.message || String(err)),
      h("p", null, h("a", { href: "#/" }, tr("Back to the library"))),
    );
    announce(tr("Something went wrong: {error}", { error: err.message || String(err) }));
  }
}

// The multiplayer and Freeport pages (and the offline file's download)
// need the host's server: the offline file and a page opened from disk
// have none, so they do not offer them; a served page with the network
// gone says they need it, rather than leading to the browser's error.
function watchOnlineLinks() {
  if (serverless()) {
    for (const a of document.querySelectorAll("[data-online]")) a.hidden = true;
    return;
  }
  const sync = () => {
    for (const a of document.querySelectorAll("[data-online]")) markOnline(a);
  };
  window.addEventListener("online", sync);
  window.addEventListener("offline", sync);
  sync();
  document.addEventListener("click", (e) => {
    const a = e.target.closest?.("a[data-online]");
    if (!a || navigator.onLine) return;
    e.preventDefault();
    const what =
      a.dataset.online ||
      [...a.childNodes]
        .filter((n) => !n.classList?.contains("net-note"))
        .map((n) => n.textContent)
        .join("")
        .trim();
    toast(
      tr("{what} needs the network", { what }),
      tr("You are offline: the stories and simulations still play, and this works again once you are connected."),
      "neutral",
    );
    announce(tr("{what} needs the network. You are offline.", { what }));
  });
}

// "Reload to update": a new service worker waits until the player asks.
async function watchUpdates() {
  if (!("serviceWorker" in navigator) || storyloomAssets.offline || location.protocol === "file:") return;
  const reg = await navigator.serviceWorker.register("sw.js");
  const box = document.getElementById("update");
  let asked = false;
  const offer = (worker) => {
    box.hidden = false;
    document.getElementById("update-reload").onclick = () => {
      asked = true;
      worker.postMessage({ type: "SKIP_WAITING" });
    };
  };
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (asked) location.reload();
  });
  if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
  reg.addEventListener("updatefound", () => {
    const worker = reg.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
    });
  });
}

// Saves the game in play (or the newest save) and downloads it: the way
// out when the browser will not keep it.
async function rescueDownload() {
  try {
    let saveId;
    if (app.sessionId) {
      saveId = (await call("saveGame", { sessionId: app.sessionId, name: tr("Downloaded") })).saveId;
    } else {
      const { saves } = await call("listSaves", {});
      saveId = saves[0]?.saveId;
    }
    if (!saveId) {
      announce(tr("There is no game to download yet."));
      return;
    }
    const file = await call("exportSave", { saveId });
    download(file.fileName, file.data);
    announce(tr("Save file downloaded."));
  } catch (err) {
    announce(tr("The save file could not be made: {error}", { error: err.message }));
  }
}

async function boot() {
  setPageLocale(app.locale);
  setupTheme();
  onStorage(showStorage);
  document.getElementById("storage-download").addEventListener("click", rescueDownload);
  const [backend, , published] = await Promise.all([
    storageBackend(),
    loadBridge().then(() => performance.mark("storyloom-module")),
    fetchCampaigns(),
  ]);
  const res = await call("init", { ...published, storage: backend });
  performance.mark("storyloom-init");
  showStorage(res.storage);
  for (const s of res.skipped) console.warn(`storyloom: campaign ${s.id} was left out (${s.code}): ${s.message}`);
  await setupStorage(res.storage);
  window.addEventListener("hashchange", route);
  watchOnlineLinks();
  await route();
  document.documentElement.dataset.storyloom = "ready";
  performance.mark("storyloom-ready");
  watchUpdates().catch((err) => console.warn("storyloom: service worker:", err));
}

boot().catch((err) => {
  document.documentElement.dataset.storyloom = "error";
  replace(main, h("h1", null, tr("Storyloom could not start")), errorBox(err.message || String(err)));
  console.error(err);
});
