// DOM helpers for the Freeport page. Every piece of text reaches the page
// as a text node (textContent), never as HTML, so trading names, story
// lines and messages from the Game Master cannot inject markup.

/**
 * h("button", {class: "x", type: "button", onclick: fn, dataset: {a: 1}}, "text", child)
 * Attributes with the value false, null or undefined are left out; true
 * sets an empty attribute.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = value;
    else if (key === "checked" || key === "selected" || key === "disabled") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces el's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Runs render, which rebuilds part of the page, and gives the focus back to
 * the element with the same data-key when it is still there, so keyboard
 * players keep their place when a poll redraws the market.
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

let announceTimer = 0;

/** Says text in the polite live region. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  clearTimeout(announceTimer);
  region.textContent = ""; // a repeated message is read again
  announceTimer = setTimeout(() => { region.textContent = text; }, 50);
}

/** Shows (or, with no text, hides) the alert banner at the top. */
export function notice(text, kind = "bad") {
  const box = document.getElementById("notice");
  if (!box) return;
  if (!text) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.className = `notice ${kind}`;
  fill(box, h("p", { text }), h("button", { type: "button", class: "quiet small", text: "Dismiss", onclick: () => notice("") }));
  box.hidden = false;
}
