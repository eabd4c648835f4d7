// DOM helpers of the pages that need a server, the rooms and Freeport. Every
// piece of text reaches the page as a text node (textContent), never as
// HTML, so names and reasons from the server or other players cannot inject
// markup. (The main page has its own, js/dom.js, with "tag.class" names and
// every other prop set as an attribute; children are added by its append.)

import { append, replace } from "../js/dom.js";

/**
 * h("button", {class: "x", type: "button", onclick: fn, dataset: {a: 1}}, "text", child)
 * Attributes with the value false, null or undefined are left out; true
 * sets an empty attribute. value, checked, selected and disabled are set as
 * properties.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
      if (!el.listeners) el.listeners = []; // for morph (../rooms/morph.js)
      el.listeners.push([key.slice(2), value]);
    }
    else if (key === "value") el.value = value;
    else if (key === "checked" || key === "selected" || key === "disabled") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Replaces el's children. */
export const fill = replace;

let announceTimer = 0;

/** Says text in the polite live region, #announce. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  clearTimeout(announceTimer);
  region.textContent = ""; // a repeated message is read again
  announceTimer = setTimeout(() => { region.textContent = text; }, 50);
}
