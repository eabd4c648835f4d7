// The world-graph screen: a map of the world's nodes, what stands on each
// and what can be built there (the view's catalogue, with what the engine
// says is affordable), staff, objectives, and letting time pass.
import { h, svg, replace, nextId } from "./dom.js";
import { money } from "./i18n.js";
import { confirm, guard } from "./ui.js";

export const numbered = false;

const statusText = { pending: "In progress", met: "Met", failed: "Failed" };

/** Draws the world scene of g into root; act(actionId, params) submits. */
export function render(root, g, act) {
  const { scene, strings } = g;
  const v = scene.view.kindView;
  const cur = v.currency || "";
  const t = (k, p, f) => strings.t(k, p, f);
  const action = (id) => scene.actions.find((a) => a.id === id);
  const label = Object.fromEntries(v.nodes.map((n) => [n.id, t(n.labelKey, null, n.id)]));

  const head = h("div.sim-head", null,
    h("p.scene-line", { tabindex: "-1", "data-focus-target": "" }, t(scene.body.textKey, scene.body.params, scene.body.text)),
    h("dl.figures", null,
      fig("Cash", money(v.money, cur)), fig("Rating", String(v.rating)), fig("Guests", String(v.guests)),
      fig("Rides given", String(v.served)), fig("Running cost", `${money(v.runningCostPerTick, cur)} an hour`)));

  const parts = [head];
  if (scene.status === "ended") {
    parts.push(h("section.panel.resolution", null, h("h2", null, "The end"), h("p", null, t(v.endingKey || scene.body.textKey, null, scene.body.text))));
  } else {
    parts.push(timePanel(action("advance_ticks"), v, t, act));
  }
  parts.push(messages(g, t, v, label));
  parts.push(map(v, label));
  parts.push(h("section.panel", { "aria-labelledby": "places-h" }, h("h2", { id: "places-h" }, "Places"),
    h("ul.places", null, v.nodes.map((n) => place(n, v, g, t, cur, action, act, label)))));

  const side = h("div.sim-side", null,
    h("section.panel.goals", { "aria-labelledby": "obj-h" }, h("h2", { id: "obj-h" }, "Objectives"),
      h("ul", null, v.objectives.map((o) => h("li", { class: `goal-${o.status}` }, h("span.badge", null, statusText[o.status] || o.status), " ", t(o.labelKey, null, o.id)))),
      v.failures.length ? h("p.muted", null, "Avoid: ", v.failures.map((f) => t(f.labelKey, null, f.id)).join("; ")) : null),
    staffPanel(v, t, cur, action, act, scene.status === "ended"),
    alerts(v, t, label));
  replace(root, h("div.sim-layout", null, h("div.sim-main", null, parts), side));
}

function fig(l, value) {
  return h("div", null, h("dt", null, l), h("dd", null, value));
}

function timePanel(adv, v, t, act) {
  if (!adv) return null;
  const max = adv.params?.max ?? v.maxTicksPerAdvance ?? 24;
  const inputId = nextId("ticks");
  const input = h("input", { id: inputId, type: "number", min: adv.params?.min ?? 1, max, value: 8, inputmode: "numeric" });
  const left = Math.max(0, v.tickLimit - v.tick);
  return h("section.panel.time", { "aria-labelledby": "time-h" },
    h("h2", { id: "time-h" }, t(adv.labelKey, null, "Let time pass")),
    h("p.muted", null, `Hour ${v.tick} of ${v.tickLimit}; ${left} hours left.`),
    h("div.actions", null,
      [1, 8, 24].map((n) => h("button", { type: "button", disabled: !adv.available, dataset: { advance: String(n) }, onclick: () => act("advance_ticks", { ticks: n }) },
        n === 1 ? "+1 hour" : `+${n} hours`)),
      h("span.inline-form", null, h("label", { for: inputId }, "Hours"), input,
        h("button.primary", { type: "button", disabled: !adv.available, onclick: () => act("advance_ticks", { ticks: Number(input.value) }) }, "Advance"))));
}

function map(v, label) {
  const xs = v.nodes.map((n) => n.x), ys = v.nodes.map((n) => n.y);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const W = 600, H = 260, P = 40;
  const px = (x) => P + ((x - minX) * (W - 2 * P)) / (maxX - minX || 1);
  const py = (y) => P + ((y - minY) * (H - 2 * P)) / (maxY - minY || 1);
  const at = Object.fromEntries(v.nodes.map((n) => [n.id, n]));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "world-map", role: "img", "aria-label": "Map of the world: " + v.nodes.map((n) => label[n.id] + (n.site ? ` (${n.site.building})` : "")).join(", ") });
  for (const e of v.edges) {
    const a = at[e.from], b = at[e.to];
    if (a && b) root.append(svg("line", { x1: px(a.x), y1: py(a.y), x2: px(b.x), y2: py(b.y), class: "edge" }));
  }
  for (const n of v.nodes) {
    const cls = n.site ? (n.site.broken ? "node built broken" : "node built") : n.buildable ? "node free" : "node path";
    root.append(svg("g", { class: cls, transform: `translate(${px(n.x)},${py(n.y)})` },
      svg("circle", { r: n.site ? 15 : 11 }),
      n.guests ? svg("text", { class: "count", y: 4, "text-anchor": "middle" }, String(n.guests)) : null,
      svg("text", { class: "label", y: 30, "text-anchor": "middle" }, label[n.id])));
  }
  return h("figure.map-box", null, root);
}

function place(n, v, g, t, cur, action, act, label) {
  const li = h("li.place", { dataset: { node: n.id } },
    h("div.place-head", null, h("strong", null, label[n.id]), h("span.muted", null, ` ${n.guests} guests here`)));
  if (n.site) {
    const b = v.catalogue.find((c) => c.id === n.site.building);
    li.append(h("p", null, t(n.site.labelKey, null, n.site.building), ` — ${money(n.site.price, cur)} a go`, n.site.broken ? h("span.badge.bad", null, " broken down") : null));
    if (g.scene.status !== "ended") {
      const setPrice = action("set_price");
      const demolish = action("demolish");
      const selId = nextId("band");
      const sel = h("select", { id: selId }, (b?.priceBands || []).map((p) => h("option", { value: p.id, selected: p.id === n.site.band }, `${t(p.labelKey, null, p.id)} (${money(p.price, cur)})`)));
      li.append(h("div.actions", null,
        h("span.inline-form", null, h("label", { for: selId }, "Price"), sel,
          h("button.small", { type: "button", disabled: !setPrice?.available, onclick: () => act("set_price", { node: n.id, band: sel.value }) }, t(setPrice?.labelKey, null, "Set price"))),
        h("button.small.danger", {
          type: "button", disabled: !demolish?.available,
          onclick: guard(async () => {
            if (await confirm("Demolish?", `Pull down the ${t(n.site.labelKey)} at ${label[n.id]}? This cannot be undone.`, "Demolish")) act("demolish", { node: n.id });
          }),
        }, t(demolish?.labelKey, null, "Demolish"))));
    }
  } else if (n.buildable) {
    const build = action("build");
    if (g.scene.status === "ended") {
      li.append(h("p.muted", null, "A free site."));
      return li;
    }
    const selId = nextId("bld");
    const bandId = nextId("bnd");
    const sel = h("select", { id: selId, dataset: { role: "building" } }, v.catalogue.map((c) =>
      h("option", { value: c.id }, `${t(c.labelKey, null, c.id)} — ${money(c.cost, cur)}${c.affordable ? "" : " (cannot afford)"}`)));
    const band = h("select", { id: bandId });
    const desc = h("p.muted", null);
    const sync = () => {
      const c = v.catalogue.find((x) => x.id === sel.value);
      band.replaceChildren(...(c?.priceBands || []).map((p) => h("option", { value: p.id, selected: p.id === c.defaultBand }, `${t(p.labelKey, null, p.id)} (${money(p.price, cur)})`)));
      desc.textContent = c ? t(c.descriptionKey) : "";
    };
    sync();
    sel.addEventListener("change", sync);
    li.append(h("p", null, "A free site."), h("div.build-form", null,
      h("span.inline-form", null, h("label", { for: selId }, "Build"), sel),
      h("span.inline-form", null, h("label", { for: bandId }, "Price"), band),
      h("button.small.primary", { type: "button", disabled: !build?.available, dataset: { build: n.id }, onclick: () => act("build", { node: n.id, building: sel.value, band: band.value }) }, t(build?.labelKey, null, "Build"))),
      desc);
    if (build && !build.available) li.append(h("p.reason", null, t(build.reasonKey)));
  } else {
    li.append(h("p.muted", null, "A path: nothing can be built here."));
  }
  return li;
}

function staffPanel(v, t, cur, action, act, ended) {
  const hire = action("hire"), fire = action("fire");
  return h("section.panel", { "aria-labelledby": "staff-h" }, h("h2", { id: "staff-h" }, "Staff"),
    h("ul.staff", null, v.staff.map((s) => h("li", null,
      h("strong", null, t(s.labelKey, null, s.id)), h("span.muted", null, ` ${s.hired} of ${s.max}, ${money(s.wage, cur)} an hour each`),
      ended ? null : h("div.actions", null,
        h("button.small", { type: "button", disabled: !hire?.available || s.hired >= s.max, onclick: () => act("hire", { staff: s.id, count: 1 }) }, "Hire one"),
        h("button.small", { type: "button", disabled: !fire?.available || s.hired === 0, onclick: () => act("fire", { staff: s.id, count: 1 }) }, "Let one go"))))));
}

function alerts(v, t, label) {
  if (!v.alerts.length) return null;
  return h("section.panel", { "aria-labelledby": "alerts-h" }, h("h2", { id: "alerts-h" }, "News"),
    h("ul.messages", null, v.alerts.slice(-5).reverse().map((a) => {
      const params = { ...(a.params || {}) };
      if (params.node && label[params.node]) params.node = label[params.node];
      return h("li", null, h("strong", null, `Hour ${a.tick}: ${t(a.titleKey)}`), " ", t(a.messageKey, params));
    })));
}

function messages(g, t, v, label) {
  const msgs = (g.result?.messages || []).filter((m) => m.visible !== false);
  const changes = (g.result?.changes || []).filter((c) => c.visible !== false);
  if (!msgs.length && !changes.length) return null;
  const cur = v.currency || "";
  const name = (path) => {
    const [head, rest] = [path.split(".")[0], path.split(".").slice(1).join(".")];
    if (head === "money") return "Cash";
    if (head === "site") return `Site: ${label[rest] || rest}`;
    if (head === "staff") return `Staff: ${rest}`;
    if (head === "tick") return "Hour";
    const named = { served: "Rides given", rating: "Rating", guests: "Guests", arrived: "Arrivals", revenue: "Takings" };
    if (named[head]) return named[head];
    return path;
  };
  const val = (path, x) => (x === undefined || x === null ? "—" : path === "money" && typeof x === "number" ? money(x, cur) : typeof x === "object" ? JSON.stringify(x) : String(x));
  return h("section.panel.changes", { "aria-labelledby": "wchg-h" }, h("h2", { id: "wchg-h" }, "What changed"),
    msgs.length ? h("ul.messages", null, msgs.map((m) => h("li", { class: `tone-${m.tone || "neutral"}` }, t(m.key, m.params)))) : null,
    changes.length ? h("table.changes-table", null,
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "What"), h("th", { scope: "col" }, "From"), h("th", { scope: "col" }, "To"), h("th", { scope: "col" }, "Why"))),
      h("tbody", null, changes.slice(0, 12).map((c) => h("tr", null,
        h("th", { scope: "row" }, name(c.path)), h("td", null, val(c.path, c.previous)), h("td", null, val(c.path, c.value)),
        h("td.muted", null, t(`world-graph.reason.${c.reason}`, null, c.reason)))))) : null);
}
