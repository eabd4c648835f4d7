// The world-graph screen: a map of the world's nodes, what stands on each
// and what can be built there (the view's catalogue, with what the engine
// says is affordable), staff, objectives, and letting time pass.
import { h, panel, svg, replace, nextId } from "./dom.js";
import { money } from "./i18n.js";
import { confirm, guard } from "./ui.js";
import { changesPanel, signed, statusText } from "./changes.js";
import { tr } from "./lang.js";

export const numbered = false;

/** Draws the world scene of g into root; act(actionId, params) submits. */
export function render(root, g, act) {
  const { scene, strings } = g;
  const v = scene.view.kindView;
  const cur = v.currency || "";
  const t = (k, p, f) => strings.t(k, p, f);
  const action = (id) => scene.actions.find((a) => a.id === id);
  const label = Object.fromEntries(v.nodes.map((n) => [n.id, t(n.labelKey, null, n.id)]));

  // Once the game has ended, the scene's text is the ending, which the
  // resolution panel says (and takes the focus): the line is left out.
  const ended = scene.status === "ended";
  const head = h(
    "div.sim-head",
    null,
    ended
      ? null
      : h(
          "p.scene-line",
          { tabindex: "-1", "data-focus-target": "" },
          t(scene.body.textKey, scene.body.params, scene.body.text),
        ),
    h(
      "dl.figures",
      null,
      fig(tr("Cash"), money(v.money, cur)),
      fig(tr("Rating"), String(v.rating)),
      fig(tr("Guests"), String(v.guests)),
      fig(tr("Rides given"), String(v.served)),
      fig(tr("Running cost"), tr("{amount} an hour", { amount: money(v.runningCostPerTick, cur) })),
    ),
  );

  // The premise: open before the first hour passes, folded after.
  const premise =
    v.introKey && g.strings.has(v.introKey)
      ? h(
          "details.panel.premise",
          { open: v.tick === 0 },
          h("summary", null, tr("The premise")),
          h("p", null, t(v.introKey)),
        )
      : null;
  const parts = [head, premise];
  if (scene.status === "ended") {
    parts.push(
      h(
        "section.panel.resolution",
        null,
        h("h2", null, tr("The end")),
        h(
          "p",
          { tabindex: "-1", "data-focus-target": "" },
          t(v.endingKey || scene.body.textKey, null, scene.body.text),
        ),
      ),
    );
  } else {
    parts.push(offerPanel(v, t, cur, action("decide"), act), timePanel(action("advance_ticks"), v, t, act));
  }
  parts.push(messages(g, t, v, label));
  parts.push(map(v, label, t));
  parts.push(
    panel(
      "",
      "places-h",
      tr("Places"),
      h(
        "ul.places",
        null,
        v.nodes.map((n) => place(n, v, g, t, cur, action, act, label)),
      ),
    ),
  );

  const side = h(
    "div.sim-side",
    null,
    panel(
      ".goals",
      "obj-h",
      tr("Objectives"),
      h(
        "ul",
        null,
        v.objectives.map((o) => {
          // Once the game is over, an objective still pending was not met.
          const status = scene.status === "ended" && o.status === "pending" ? "failed" : o.status;
          return h(
            "li",
            { class: `goal-${status}`, dataset: { objective: o.id } },
            h("span.badge", null, status === "failed" && o.status === "pending" ? tr("Not met") : statusText(status)),
            " ",
            t(o.labelKey, null, ""),
          );
        }),
      ),
      v.failures.length
        ? h("p.muted", null, tr("Avoid:"), " ", v.failures.map((f) => t(f.labelKey, null, f.id)).join("; "))
        : null,
    ),
    staffPanel(v, t, cur, action, act, scene.status === "ended"),
    alerts(v, t, ended),
  );
  replace(root, h("div.sim-layout", null, h("div.sim-main", null, parts), side));
}

function fig(l, value) {
  return h("div", null, h("dt", null, l), h("dd", null, value));
}

function timePanel(adv, v, t, act) {
  if (!adv) return null;
  const max = adv.params?.max ?? v.maxTicksPerAdvance ?? 24;
  const inputId = nextId("ticks");
  const left = Math.max(0, v.tickLimit - v.tick);
  const min = adv.params?.min ?? 1;
  // The hours that can really pass now: no more than one advance allows,
  // nor more than the season has left.
  const most = Math.max(min, Math.min(max, left || max));
  const input = h("input", {
    id: inputId,
    type: "number",
    min,
    max: most,
    value: Math.min(8, most),
    inputmode: "numeric",
    "aria-describedby": `${inputId}-range`,
  });
  const problem = h("p.error", { id: `${inputId}-problem`, role: "alert", hidden: true });
  const advance = () => {
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < min || n > most) {
      problem.textContent = tr("Choose a whole number of hours from {min} to {max}.", { min, max: most });
      problem.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    act("advance_ticks", { ticks: n });
  };
  return panel(
    ".time",
    "time-h",
    t(adv.labelKey, null, tr("Let time pass")),
    h(
      "p.muted",
      null,
      tr("Hour {tick} of {limit}; {left, plural, one {# hour} other {# hours}} left.", {
        tick: v.tick,
        limit: v.tickLimit,
        left,
      }),
    ),
    h(
      "div.actions",
      null,
      [1, 8, 24]
        .filter((n) => n <= most)
        .map((n) =>
          h(
            "button",
            {
              type: "button",
              disabled: !adv.available,
              dataset: { advance: String(n) },
              onclick: () => act("advance_ticks", { ticks: n }),
            },
            tr("+{n, plural, one {# hour} other {# hours}}", { n }),
          ),
        ),
      h(
        "span.inline-form",
        null,
        h("label", { for: inputId }, tr("Hours")),
        input,
        h("span.muted", { id: `${inputId}-range` }, ` ${min}–${most}`),
        h(
          "button.primary",
          { type: "button", disabled: !adv.available, dataset: { role: "advance-hours" }, onclick: advance },
          tr("Advance"),
        ),
      ),
    ),
    problem,
  );
}

// offerPanel asks the open offer, if any: its text, and one button per
// answer with what it does; time stopped for it, and it lapses to its
// default when its hours run out.
function offerPanel(v, t, cur, decide, act) {
  const o = v.offer;
  if (!o) return null;
  const does = (ch) =>
    [
      ch.money ? `${ch.money > 0 ? "+" : "−"}${money(Math.abs(ch.money), cur)}` : "",
      ch.rating ? tr("rating {n}", { n: signed(ch.rating) }) : "",
    ]
      .filter(Boolean)
      .join(", ") || tr("nothing changes");
  const fallback = o.choices.find((ch) => ch.id === o.default);
  return h(
    "section.panel.offer",
    { "aria-labelledby": "offer-h", dataset: { offer: o.id } },
    h("h2", { id: "offer-h" }, t(o.titleKey, null, o.id)),
    h("p", null, t(o.textKey)),
    h(
      "div.actions",
      null,
      o.choices.map((ch) =>
        h(
          "button",
          {
            type: "button",
            disabled: !decide?.available,
            dataset: { choice: ch.id },
            onclick: () => act("decide", { choice: ch.id }),
          },
          t(ch.labelKey, null, ch.id),
          h("span.muted", null, ` (${does(ch)})`),
        ),
      ),
    ),
    h(
      "p.muted",
      null,
      tr("Unanswered by hour {n}, it will be “{choice}”.", {
        n: o.until,
        choice: fallback ? t(fallback.labelKey) : "",
      }),
    ),
  );
}

function map(v, label, t) {
  const xs = v.nodes.map((n) => n.x),
    ys = v.nodes.map((n) => n.y);
  const minX = Math.min(...xs),
    maxX = Math.max(...xs),
    minY = Math.min(...ys),
    maxY = Math.max(...ys);
  const W = 600,
    H = 260,
    P = 40;
  const px = (x) => P + ((x - minX) * (W - 2 * P)) / (maxX - minX || 1);
  const py = (y) => P + ((y - minY) * (H - 2 * P)) / (maxY - minY || 1);
  const at = Object.fromEntries(v.nodes.map((n) => [n.id, n]));
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "world-map",
    role: "img",
    "aria-label": `${tr("Map of the world:")} ${v.nodes.map((n) => label[n.id] + (n.site ? ` (${t(n.site.labelKey, null, "")})` : "")).join(", ")}`,
  });
  for (const e of v.edges) {
    const a = at[e.from],
      b = at[e.to];
    if (a && b) root.append(svg("line", { x1: px(a.x), y1: py(a.y), x2: px(b.x), y2: py(b.y), class: "edge" }));
  }
  for (const n of v.nodes) {
    const cls = n.site ? (n.site.broken ? "node built broken" : "node built") : n.buildable ? "node free" : "node path";
    root.append(
      svg(
        "g",
        { class: cls, transform: `translate(${px(n.x)},${py(n.y)})` },
        svg("circle", { r: n.site ? 15 : 11 }),
        n.guests ? svg("text", { class: "count", y: 4, "text-anchor": "middle" }, String(n.guests)) : null,
        svg("text", { class: "label", y: 30, "text-anchor": "middle" }, label[n.id]),
      ),
    );
  }
  // What the map's marks mean.
  const key = (cls, r, text) =>
    h(
      "li",
      null,
      svg(
        "svg",
        { viewBox: "-16 -16 32 32", width: 22, height: 22, class: "world-map", "aria-hidden": "true" },
        svg("g", { class: cls }, svg("circle", { r })),
      ),
      text,
    );
  return h(
    "figure.map-box",
    null,
    root,
    h(
      "figcaption",
      null,
      h(
        "ul.map-legend",
        null,
        key("node built", 13, tr("a ride or stall")),
        key("node built broken", 13, tr("broken down")),
        key("node free", 10, tr("a free site")),
        key("node path", 10, tr("a path")),
        h("li", null, tr("the number: guests there")),
      ),
    ),
  );
}

function place(n, v, g, t, cur, action, act, label) {
  const li = h(
    "li.place",
    { dataset: { node: n.id } },
    h(
      "div.place-head",
      null,
      h("strong", null, label[n.id]),
      h("span.muted", null, ` ${tr("{n, plural, one {# guest} other {# guests}} here", { n: n.guests })}`),
    ),
  );
  if (n.site) {
    const b = v.catalogue.find((c) => c.id === n.site.building);
    li.append(
      h(
        "p",
        null,
        t(n.site.labelKey, null, n.site.building),
        ` — ${tr("{amount} a go", { amount: money(n.site.price, cur) })}`,
        n.site.broken ? h("span.badge.bad", null, ` ${tr("broken down")}`) : null,
      ),
    );
    if (g.scene.status !== "ended") {
      const setPrice = action("set_price");
      const demolish = action("demolish");
      const selId = nextId("band");
      const sel = h(
        "select",
        { id: selId },
        (b?.priceBands || []).map((p) =>
          h(
            "option",
            { value: p.id, selected: p.id === n.site.band },
            `${t(p.labelKey, null, p.id)} (${money(p.price, cur)})`,
          ),
        ),
      );
      li.append(
        h(
          "div.actions",
          null,
          h(
            "span.inline-form",
            null,
            h("label", { for: selId }, tr("Price")),
            sel,
            h(
              "button.small",
              {
                type: "button",
                disabled: !setPrice?.available,
                onclick: () => act("set_price", { node: n.id, band: sel.value }),
              },
              t(setPrice?.labelKey, null, tr("Set price")),
            ),
          ),
          h(
            "button.small.danger",
            {
              type: "button",
              disabled: !demolish?.available,
              onclick: guard(async () => {
                if (
                  await confirm(
                    tr("Demolish?"),
                    tr("Pull down the {building} at {place}? This cannot be undone.", {
                      building: t(n.site.labelKey),
                      place: label[n.id],
                    }),
                    tr("Demolish"),
                  )
                )
                  act("demolish", { node: n.id });
              }),
            },
            t(demolish?.labelKey, null, tr("Demolish")),
          ),
        ),
      );
    }
  } else if (n.buildable) {
    const build = action("build");
    if (g.scene.status === "ended") {
      li.append(h("p.muted", null, tr("A free site.")));
      return li;
    }
    const selId = nextId("bld");
    const bandId = nextId("bnd");
    const sel = h(
      "select",
      { id: selId, dataset: { role: "building" } },
      v.catalogue.map((c) =>
        h(
          "option",
          { value: c.id },
          `${t(c.labelKey, null, c.id)} — ${money(c.cost, cur)}${c.affordable ? "" : ` ${tr("(cannot afford)")}`}`,
        ),
      ),
    );
    const band = h("select", { id: bandId });
    const desc = h("p.muted", null);
    const sync = () => {
      const c = v.catalogue.find((x) => x.id === sel.value);
      band.replaceChildren(
        ...(c?.priceBands || []).map((p) =>
          h(
            "option",
            { value: p.id, selected: p.id === c.defaultBand },
            `${t(p.labelKey, null, p.id)} (${money(p.price, cur)})`,
          ),
        ),
      );
      desc.textContent = c ? t(c.descriptionKey) : "";
    };
    sync();
    sel.addEventListener("change", sync);
    li.append(
      h("p", null, tr("A free site.")),
      h(
        "div.build-form",
        null,
        h("span.inline-form", null, h("label", { for: selId }, tr("Build")), sel),
        h("span.inline-form", null, h("label", { for: bandId }, tr("Price")), band),
        h(
          "button.small.primary",
          {
            type: "button",
            disabled: !build?.available,
            dataset: { build: n.id },
            onclick: () => act("build", { node: n.id, building: sel.value, band: band.value }),
          },
          t(build?.labelKey, null, tr("Build")),
        ),
      ),
      desc,
    );
    if (build && !build.available) li.append(h("p.reason", null, t(build.reasonKey)));
  } else {
    li.append(h("p.muted", null, tr("A path: nothing can be built here.")));
  }
  return li;
}

function staffPanel(v, t, cur, action, act, ended) {
  const hire = action("hire"),
    fire = action("fire");
  return panel(
    "",
    "staff-h",
    tr("Staff"),
    h(
      "ul.staff",
      null,
      v.staff.map((s) =>
        h(
          "li",
          null,
          h("strong", null, t(s.labelKey, null, s.id)),
          h(
            "span.muted",
            null,
            ` ${tr("{n} of {total}, {amount} an hour each", { n: s.hired, total: s.max, amount: money(s.wage, cur) })}`,
          ),
          ended
            ? null
            : h(
                "div.actions",
                null,
                h(
                  "button.small",
                  {
                    type: "button",
                    disabled: !hire?.available || s.hired >= s.max,
                    onclick: () => act("hire", { staff: s.id, count: 1 }),
                  },
                  tr("Hire one"),
                ),
                h(
                  "button.small",
                  {
                    type: "button",
                    disabled: !fire?.available || s.hired === 0,
                    onclick: () => act("fire", { staff: s.id, count: 1 }),
                  },
                  tr("Let one go"),
                ),
              ),
        ),
      ),
    ),
  );
}

// The news: the last alerts, newest first; once the game has ended, its
// resolution is the resolution panel's to say, not the news'.
function alerts(v, t, ended) {
  const shown = v.alerts.filter((a) => !(ended && a.type === "scenario_resolved"));
  if (!shown.length) return null;
  return panel(
    "",
    "alerts-h",
    tr("News"),
    h(
      "ul.messages",
      null,
      shown
        .slice(-5)
        .reverse()
        .map((a) =>
          h(
            "li",
            null,
            h("strong", null, tr("Hour {n}: {title}", { n: a.tick, title: t(a.titleKey) })),
            " ",
            t(a.messageKey, a.params),
          ),
        ),
    ),
  );
}

// What the last action changed, in the player's words (changes.js).
function messages(g, t, v, label) {
  const cur = v.currency || "";
  const building = Object.fromEntries(v.catalogue.map((c) => [c.id, c]));
  const staff = Object.fromEntries(v.staff.map((s) => [s.id, t(s.labelKey, null, "")]));
  const objective = Object.fromEntries(v.objectives.map((o) => [o.id, t(o.labelKey, null, "")]));
  const num = (x) => (typeof x === "number" ? String(x) : "—");
  const named = {
    served: tr("Rides given"),
    rating: tr("Rating"),
    guests: tr("Guests"),
    arrived: tr("Arrivals"),
    revenue: tr("Takings"),
  };
  const describe = (c) => {
    const [head, ...rest] = c.path.split(".");
    const id = rest[0];
    if (head === "money")
      return {
        what: tr("Cash"),
        from: typeof c.previous === "number" ? money(c.previous, cur) : "—",
        to: typeof c.value === "number" ? money(c.value, cur) : "—",
      };
    if (head === "tick") return { what: tr("Hour"), from: num(c.previous), to: num(c.value) };
    if (named[head] && !id) return { what: named[head], from: num(c.previous), to: num(c.value) };
    if (head === "site" && label[id]) {
      const site = (b) => (b && building[b] ? t(building[b].labelKey, null, "") : tr("an empty site"));
      if (rest[1] === "band") {
        const b = building[v.nodes.find((n) => n.id === id)?.site?.building];
        const band = (x) => t(b?.priceBands?.find((p) => p.id === x)?.labelKey, null, "—");
        return b
          ? { what: tr("Price at {place}", { place: label[id] }), from: band(c.previous), to: band(c.value) }
          : null;
      }
      return { what: label[id], from: site(c.previous), to: site(c.value) };
    }
    if (head === "staff" && staff[id]) return { what: staff[id], from: num(c.previous), to: num(c.value) };
    if (head === "objective" && objective[id])
      return { what: objective[id], from: statusText(c.previous || "pending"), to: statusText(c.value) || "—" };
    return null;
  };
  const why = (c) => {
    const key = `world-graph.reason.${c.reason}`;
    return g.strings.has(key) ? t(key) : "";
  };
  return changesPanel(g, { id: "wchg-h", describe, reason: why });
}
