// Small DOM helpers. Every piece of text reaches the page as a text node
// (textContent), never as HTML, so names and reasons from the server or
// other players cannot inject markup.

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
    else if (key === "checked") el.checked = Boolean(value);
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
 * the element that had it: the one with the same data-key, when it is
 * still there. Keyboard players keep their place across views.
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

let announceTimer = 0;

/** Says text in the polite live region (turns, results, refusals). */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  clearTimeout(announceTimer);
  // Clearing first makes a repeated message be read again.
  region.textContent = "";
  announceTimer = setTimeout(() => { region.textContent = text; }, 50);
}

/** Shows a short message that goes away on its own. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const t = h("p", { class: `toast ${kind}`, text });
  box.append(t);
  setTimeout(() => t.remove(), 5000);
}
