// The rooms' own DOM helpers; h, fill and announce are the online pages'
// (../online/dom.js).

import { h } from "../online/dom.js";

/**
 * Runs render, which rebuilds part of the page, and gives the focus back to
 * the element that had it: the one with the same data-key, when it is
 * still there. Keyboard players keep their place across views. Unlike
 * Freeport's, it leaves the caret alone: the one text field it redraws is
 * the share link, which selects all of itself when focused.
 */
export function keepFocus(render) {
  const active = document.activeElement;
  const key = active?.dataset?.key;
  render();
  if (!key || document.activeElement === active && active.isConnected) return;
  const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) again.focus({ preventScroll: true });
  else if (active && !active.isConnected) document.getElementById("main")?.focus({ preventScroll: true });
}

/** setData sets el's data-<key> to value unless it already has it. */
export function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** Shows a short message that goes away on its own. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const t = h("p", { class: `toast ${kind}`, text });
  box.append(t);
  setTimeout(() => t.remove(), 5000);
}
