// Storage players can trust: ask the browser to keep our data
// (navigator.storage.persist), show how much is used, and when a write
// fails say so plainly and offer a save file (the banner's button).

let persisted = false;

/** Shows or hides the storage banner for a bridge storage report. */
export function showStorage(status) {
  const banner = document.getElementById("storage-banner");
  if (!status || status.durable) {
    banner.hidden = true;
    return;
  }
  document.getElementById("storage-message").textContent = status.message;
  document.getElementById("storage-usage").textContent = "Your latest progress is kept in this tab only: download a save file to keep it.";
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
}

/** Refreshes the footer's usage line. */
export async function showUsage(status) {
  const line = document.getElementById("storage-usage");
  if (status && status.backend !== "indexeddb") {
    line.textContent = "Saves are kept in this tab only.";
    return;
  }
  if (!navigator.storage?.estimate) {
    line.textContent = "Saves are kept in this browser.";
    return;
  }
  try {
    const { usage = 0, quota = 0 } = await navigator.storage.estimate();
    const mb = (n) => (n / 1e6).toFixed(n < 1e7 ? 1 : 0);
    line.textContent = `Saves are kept in this browser${persisted ? " (persistent)" : ""}: ${mb(usage)} MB used of ${mb(quota)} MB available.`;
  } catch {
    line.textContent = "Saves are kept in this browser.";
  }
}
