// The DOM helpers of every page: the library, the rooms and Freeport.
// Every piece of text goes in through textContent (or an attribute);
// nothing here ever parses HTML, so engine and campaign text, and names and
// reasons from the server or other players, cannot inject markup.
import { tr } from "./lang.js";

/**
 * h("button.primary", {type: "button", onclick}, "Label", child, ...)
 * builds an element. The tag may carry classes after dots; "class" adds
 * more. Attributes starting with "on" are listeners, recorded on the
 * element for morph (../rooms/morph.js); "text" sets the text, "dataset"
 * and "style" (an object of style properties) are assigned; value,
 * checked, selected and disabled are set as properties; null, undefined
 * and false leave an attribute out, and true sets it empty. Children are
 * nodes or strings (set as text) or arrays of them; null is skipped.
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v);
      if (!el.listeners) el.listeners = [];
      el.listeners.push([k.slice(2), v]);
    } else if (k === "class") {
      el.className = [el.className, v].filter(Boolean).join(" ");
    } else if (k === "dataset") {
      Object.assign(el.dataset, v);
    } else if (k === "style") {
      Object.assign(el.style, v); // CSSOM: a style attribute would break the page's CSP
    } else if (k === "text") {
      el.textContent = String(v);
    } else if (k === "value") {
      el.value = v;
    } else if (k === "checked" || k === "selected" || k === "disabled") {
      el[k] = Boolean(v);
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  append(el, children);
  return el;
}

/**
 * panel(".goals", "goals-h", "Goals", ...children) is a page's panel: a
 * section.panel (with the classes given after it) named by its h2
 * heading, whose id it is labelled by.
 */
export function panel(classes, id, heading, ...children) {
  return h(`section.panel${classes}`, { "aria-labelledby": id }, h("h2", { id }, heading), ...children);
}

/**
 * Appends children to el: nodes, or strings (as text), or arrays of them;
 * null, undefined and false are skipped.
 */
export function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** An SVG element with attributes. */
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/** Replaces el's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let uid = 0;
/** A page-unique id with prefix. */
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

let announceTimer = 0;

/** Says text in the polite live region, #announce. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  clearTimeout(announceTimer);
  region.textContent = ""; // a repeated message is read again
  announceTimer = setTimeout(() => {
    region.textContent = text;
  }, 30);
}

/**
 * Shows a toast in #toasts: title, and body under it when there is one;
 * tone is neutral, positive or negative. Toasts are visual only (the live
 * region carries the words); at most three stand, and each fades, then
 * goes, on its own.
 */
export function toast(title, body, tone = "neutral") {
  const box = document.getElementById("toasts");
  if (!box) return;
  while (box.childElementCount >= 3) box.firstElementChild.remove();
  const item = h("div.toast", { class: `tone-${tone}` }, h("strong", null, title), body ? h("span", null, body) : null);
  box.appendChild(item);
  setTimeout(() => item.classList.add("leaving"), 4200);
  setTimeout(() => item.remove(), 4800);
}

/**
 * Runs render, which rebuilds part of the page, and gives the focus back to
 * the element that had it: the one with the same data-key, when it is
 * still there, so keyboard players keep their place across views and
 * polls. A text field gets its selection back too (the caret where it was,
 * or the whole text a field selected when it was focused).
 */
export function keepFocus(render) {
  const active = document.activeElement;
  const key = active?.dataset?.key;
  const range = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  render();
  if (!key || (document.activeElement === active && active.isConnected)) return;
  const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) {
    again.focus({ preventScroll: true });
    if (range && range[0] !== null && "setSelectionRange" in again) {
      try {
        again.setSelectionRange(...range);
      } catch {
        /* number inputs have no selection */
      }
    }
  } else if (active && !active.isConnected) {
    document.getElementById("main")?.focus({ preventScroll: true });
  }
}

// Light and dark themes: the system's choice (prefers-color-scheme) until
// the player picks one with the toggle, which is remembered (theme-early.js
// applies it before the first paint).
const THEME_KEY = "storyloom-theme";

function systemDark() {
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches;
}

function effectiveTheme() {
  const t = document.documentElement.dataset.theme;
  return t === "light" || t === "dark" ? t : systemDark() ? "dark" : "light";
}

function labelTheme() {
  const next = effectiveTheme() === "dark" ? "light" : "dark";
  const btn = document.getElementById("theme-toggle");
  btn.setAttribute("aria-label", next === "dark" ? tr("Switch to the dark theme") : tr("Switch to the light theme"));
  document.getElementById("theme-label").textContent = next === "dark" ? tr("Dark") : tr("Light");
  document.getElementById("theme-icon").textContent = next === "dark" ? "☾" : "☀";
}

/** Wires the top bar's theme toggle. */
export function setupTheme() {
  const btn = document.getElementById("theme-toggle");
  btn.addEventListener("click", () => {
    const next = effectiveTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      /* private mode: this tab only */
    }
    labelTheme();
  });
  window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", labelTheme);
  window.addEventListener("storyloom-locale", labelTheme);
  labelTheme();
}
