// Tiny DOM helpers. Every piece of text goes in through textContent (or an
// attribute); nothing here ever parses HTML, so engine and campaign text
// cannot inject markup.

/**
 * h("button.primary", {type: "button", onclick}, "Label", child, ...)
 * builds an element. Attributes starting with "on" are listeners; "class",
 * "dataset" and "style" (an object of style properties) are handled;
 * null/false attributes are skipped. Children
 * are nodes or strings (set as text) or arrays of them; null is skipped.
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") {
        el.addEventListener(k.slice(2), v);
      } else if (k === "class") {
        el.className = [el.className, v].filter(Boolean).join(" ");
      } else if (k === "dataset") {
        Object.assign(el.dataset, v);
      } else if (k === "style") {
        Object.assign(el.style, v); // CSSOM: a style attribute would break the page's CSP
      } else if (k === "text") {
        el.textContent = v;
      } else if (v === true) {
        el.setAttribute(k, "");
      } else {
        el.setAttribute(k, String(v));
      }
    }
  }
  append(el, children);
  return el;
}

/**
 * Appends children to el: nodes, or strings (as text), or arrays of them;
 * null, undefined and false are skipped. The rooms and Freeport pages'
 * helpers (online/dom.js) use it too.
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
