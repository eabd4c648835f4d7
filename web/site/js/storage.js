// Storage players can trust: ask the browser to keep our data
// (navigator.storage.persist), show how much is used, and when a write
// fails say so plainly and offer a save file (the banner's button).

import { tr } from "./lang.js";

let persisted = false;

/** Shows or hides the storage banner for a bridge storage report. */
export function showStorage(status) {
  const banner = document.getElementById("storage-banner");
  if (!status || status.durable) {
    banner.hidden = true;
    return;
  }
  document.getElementById("storage-message").textContent = status.message;
  document.getElementById("storage-usage").textContent = tr(
    "Your latest progress is kept in this tab only: download a save file to keep it.",
  );
  if (banner.hidden) {
    banner.hidden = false;
    if (status.detail) console.warn("storyloom: storage:", status.detail);
  }
}

/** Asks for persistent storage and shows usage in the footer. */
export async function setupStorage(status) {
  if (status.backend === "indexeddb" && navigator.storage?.persist) {
    try {
      persisted = (await navigator.storage.persisted()) || (await navigator.storage.persist());
    } catch {
      persisted = false;
    }
  }
  await showUsage(status);
  window.addEventListener("storyloom-locale", () => showUsage(status));
}

/** Refreshes the footer's usage line. */
export async function showUsage(status) {
  const line = document.getElementById("storage-usage");
  if (status && status.backend !== "indexeddb") {
    line.textContent = tr("Saves are kept in this tab only.");
    return;
  }
  if (!navigator.storage?.estimate) {
    line.textContent = tr("Saves are kept in this browser.");
    return;
  }
  try {
    const { usage = 0, quota = 0 } = await navigator.storage.estimate();
    const mb = (n) => (n / 1e6).toFixed(n < 1e7 ? 1 : 0);
    line.textContent = tr(
      persisted
        ? "Saves are kept in this browser (persistent): {used} MB used of {quota} MB available."
        : "Saves are kept in this browser: {used} MB used of {quota} MB available.",
      { used: mb(usage), quota: mb(quota) },
    );
  } catch {
    line.textContent = tr("Saves are kept in this browser.");
  }
}
