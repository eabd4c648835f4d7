// What the page's screens share: the app state, and whether the page has a
// server behind it. The screens import this module, never app.js, which
// imports them: app.js routes by listening to hashchange.
import { savedPageLocale, tr } from "./lang.js";

/** What the screens share. */
export const app = {
  campaigns: [],
  sessionId: null,
  /** Notices of a campaign update from a load, for the game screen. */
  notices: [],
  cleanup: null,
  /** The preferred locale of the whole page (the library's titles). */
  get locale() {
    return savedPageLocale();
  },
  set locale(v) {
    try {
      localStorage.setItem("storyloom-locale", v);
    } catch {
      /* private mode */
    }
  },
  /** Shows the screen of hash; the same hash draws its screen again. */
  go(hash) {
    if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
    else location.hash = hash;
  },
};

/** Whether the page runs with no server behind it (the offline file, or a page opened from disk). */
export function serverless() {
  return storyloomAssets.offline || location.protocol === "file:";
}

/** Marks a link that needs the network as such while the browser is offline. */
export function markOnline(a) {
  const off = !navigator.onLine;
  a.toggleAttribute("aria-disabled", off);
  a.classList.toggle("needs-network", off);
  let note = a.querySelector(".net-note");
  if (off && !note) {
    note = document.createElement("span");
    note.className = "net-note";
    note.textContent = ` ${tr("(needs the network)")}`;
    a.append(note);
  } else if (!off && note) {
    note.remove();
  }
}
