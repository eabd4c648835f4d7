// morph turns the children of a live element into those of a freshly built
// one while keeping every node that stays: attributes, text, form state and
// the listeners h() recorded are brought up to date in place, so a view
// that changes a few things makes the browser restyle and lay out those
// few things, not the whole table. Children are matched by data-key (moved
// when they moved), else by position and tag. A <details> keeps whether
// the player opened it. A part that memo found unchanged is a placeholder
// in the fresh tree that stands for its live node, which is kept as it is.

const FORM = new Set(["INPUT", "SELECT", "TEXTAREA"]);

function keyOf(n) {
  return n.nodeType === 1 ? n.getAttribute("data-key") || n.id : "";
}

function same(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== 1) return true;
  return a.tagName === b.tagName && keyOf(a) === keyOf(b);
}

function update(a, b) {
  if (a.nodeType !== 1) {
    if (a.data !== b.data) a.data = b.data;
    return;
  }
  // By name, not through .attributes, whose Attr objects are made on
  // each read.
  const want = b.getAttributeNames();
  for (const name of want) {
    const value = b.getAttribute(name);
    if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  }
  // Now a has every attribute of b: it has others only if it has more.
  if (a.attributes.length > want.length) {
    for (const name of a.getAttributeNames()) {
      if (!b.hasAttribute(name) && !(name === "open" && a.tagName === "DETAILS")) a.removeAttribute(name);
    }
  }
  if (a.listeners || b.listeners) {
    for (const [type, fn] of a.listeners || []) a.removeEventListener(type, fn);
    for (const [type, fn] of b.listeners || []) a.addEventListener(type, fn);
    a.listeners = b.listeners;
  }
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
 * asked for; while the key is asked for on every render (a render calls
 * memo.flip() when done) and the part is in the page, a placeholder that
 * morphChildren reads as "keep the live part as it is", so an unchanged
 * part is neither built nor compared again. The key must say everything
 * build reads.
 */
export function createMemo() {
  let last = new Map();
  let now = new Map();
  const memo = (key, build) => {
    const had = now.get(key) || last.get(key);
    // A part built earlier is in the page itself, or was morphed into
    // the live node it matched.
    const live = had && (had.isConnected ? had : had.morphedInto?.isConnected ? had.morphedInto : null);
    if (live) {
      now.set(key, live);
      const keep = document.createComment("");
      keep.kept = live;
      return keep;
    }
    const n = build();
    now.set(key, n);
    return n;
  };
  memo.flip = () => {
    last = now;
    now = new Map();
  };
  return memo;
}

// pairs says whether live's children and fresh's pair up in order, as
// they do when a view changes what parts say but not which parts there
// are: as many of each, each kept part where its live node is, each other
// child of the same kind as the live one in its place. Then nothing moves,
// and morphChildren updates each pair without matching keys.
function pairs(live, fresh) {
  let a = live.firstChild;
  for (let b = fresh.firstChild; b; b = b.nextSibling, a = a.nextSibling) {
    if (!a || (b.kept ? b.kept !== a : !same(a, b))) return false;
  }
  return !a;
}

/** morphChildren makes live's children match fresh's, reusing live's nodes. */
export function morphChildren(live, fresh) {
  const first = fresh.firstChild;
  if (first?.nodeType === 3 && !first.nextSibling) {
    // The common leaf: one text each.
    const old = live.firstChild;
    if (old?.nodeType === 3 && !old.nextSibling) {
      if (old.data !== first.data) old.data = first.data;
      return;
    }
  }
  if (pairs(live, fresh)) {
    for (let a = live.firstChild, b = fresh.firstChild; b; ) {
      const nextA = a.nextSibling;
      const nextB = b.nextSibling;
      if (!b.kept) update(a, b);
      a = nextA;
      b = nextB;
    }
    return;
  }
  const wanted = [...fresh.childNodes];
  const keys = new Set();
  const keep = new Set();
  for (const n of wanted) {
    if (n.kept) keep.add(n.kept);
    else {
      const k = keyOf(n);
      if (k) keys.add(k);
    }
  }
  // Keyed children that are not wanted any more go first, so that the rest
  // keep their places: a log that drops its oldest line and gains a new
  // one moves no other line (each move is a removal and an insertion the
  // browser restyles, lays out and paints again).
  const keyed = new Map();
  for (let n = live.firstChild; n; ) {
    const next = n.nextSibling;
    if (!keep.has(n)) {
      const k = keyOf(n);
      if (k && (!keys.has(k) || keyed.has(k))) n.remove();
      else if (k) keyed.set(k, n);
    }
    n = next;
  }
  let at = live.firstChild;
  for (const n of wanted) {
    if (n.kept) {
      if (n.kept === at) at = at.nextSibling;
      else live.insertBefore(n.kept, at);
      continue;
    }
    const k = keyOf(n);
    let old = k ? keyed.get(k) : at;
    if (old && (keep.has(old) || !same(old, n))) old = null;
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

/** setData sets el's data-<key> to value unless it already has it. */
export function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}
