// The Freeport page's own DOM helpers; h, fill and announce are the online
// pages' (../online/dom.js).

import { h, fill } from "../online/dom.js";
import { tr } from "../js/lang.js";

/**
 * Runs render, which rebuilds part of the page, and gives the focus back to
 * the element with the same data-key when it is still there, so keyboard
 * players keep their place when a poll redraws the market. The caret goes
 * back where it was too: a poll may redraw the field being typed in.
 */
export function keepFocus(render) {
  const active = document.activeElement;
  const key = active?.dataset?.key;
  const start = active && "selectionStart" in active ? active.selectionStart : null;
  render();
  if (!key || (document.activeElement === active && active.isConnected)) return;
  const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) {
    again.focus({ preventScroll: true });
    if (start !== null && "setSelectionRange" in again) {
      try { again.setSelectionRange(start, start); } catch { /* number inputs have no selection */ }
    }
  } else if (active && !active.isConnected) {
    document.getElementById("main")?.focus({ preventScroll: true });
  }
}

/**
 * Shows (or, with no text, hides) the alert banner at the top: text is a
 * string or what h takes as children (a reason marked as English).
 */
export function notice(text, kind = "bad") {
  const box = document.getElementById("notice");
  if (!box) return;
  if (!text) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.className = `notice ${kind}`;
  fill(box, h("p", {}, text), h("button", { type: "button", class: "quiet small", text: tr("Dismiss"), onclick: () => notice("") }));
  box.hidden = false;
}
