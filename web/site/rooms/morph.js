// morph turns the children of a live element into those of a freshly built
// one while keeping every node that stays: attributes, text, form state and
// the listeners h() recorded are brought up to date in place, so a view
// that changes a few things makes the browser restyle and lay out those
// few things, not the whole table. Children are matched by data-key (moved
// when they moved), else by position and tag. A <details> keeps whether
// the player opened it.

const FORM = new Set(["INPUT", "SELECT", "TEXTAREA"]);

function keyOf(n) {
  return n.nodeType === 1 ? n.dataset.key || n.id || "" : "";
}

function same(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== 1) return true;
  return a.tagName === b.tagName && keyOf(a) === keyOf(b);
}

function update(a, b) {
  if (b.morphedInto === a) return; // a memoized fresh node (memo) already applied to a
  if (a.nodeType !== 1) {
    if (a.data !== b.data) a.data = b.data;
    return;
  }
  for (const { name } of [...a.attributes]) {
    if (!b.hasAttribute(name) && !(name === "open" && a.tagName === "DETAILS")) a.removeAttribute(name);
  }
  for (const { name, value } of b.attributes) {
    if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  }
  for (const [type, fn] of a.listeners || []) a.removeEventListener(type, fn);
  for (const [type, fn] of b.listeners || []) a.addEventListener(type, fn);
  a.listeners = b.listeners;
  morphChildren(a, b);
  if (FORM.has(a.tagName)) {
    if (a.value !== b.value) a.value = b.value;
    if (a.checked !== b.checked) a.checked = b.checked;
  }
  if (a.disabled !== b.disabled) a.disabled = b.disabled;
  if (a.tagName === "OPTION" && a.selected !== b.selected) a.selected = b.selected;
  b.morphedInto = a;
}

/**
 * createMemo returns memo(key, build): build() the first time a key is
 * asked for, the same node again while the key is asked for on every
 * render (a render calls memo.flip() when done), so an unchanged part is
 * neither built nor compared again. The key must say everything build
 * reads.
 */
export function createMemo() {
  let last = new Map();
  let now = new Map();
  const memo = (key, build) => {
    let n = now.get(key) || last.get(key);
    // A node that went into the page as it was built is the page's now:
    // build its twin once, which morph then finds already applied.
    if (!n || n.isConnected) n = build();
    now.set(key, n);
    return n;
  };
  memo.flip = () => { last = now; now = new Map(); };
  return memo;
}

/** morphChildren makes live's children match fresh's, reusing live's nodes. */
export function morphChildren(live, fresh) {
  const wanted = [...fresh.childNodes];
  const keyed = new Map();
  for (const n of live.childNodes) if (keyOf(n)) keyed.set(keyOf(n), n);
  let at = live.firstChild;
  for (const n of wanted) {
    const k = keyOf(n);
    let old = k ? keyed.get(k) : at;
    if (old && !same(old, n)) old = null;
    if (old) {
      keyed.delete(k);
      if (old !== at) live.insertBefore(old, at);
      else at = at.nextSibling;
      update(old, n);
    } else {
      live.insertBefore(n, at);
    }
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}
