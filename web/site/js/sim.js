// The simulation screen: the weekly plan editor built from the view's
// parameter domain (activities with what one more costs and whether the
// engine would take it), end of week, what changed, a chart of resources
// over the weeks, and the goals.
import { h, replace, nextId } from "./dom.js";
import { money } from "./i18n.js";
import { lineChart } from "./chart.js";

export const numbered = false;

const statusText = { pending: "In progress", met: "Met", failed: "Failed" };

/** Draws the simulation scene of g into root; act(actionId, params) submits. */
export function render(root, g, act) {
  const { scene, strings } = g;
  const v = scene.view.kindView;
  const cur = v.currency || "";
  const action = (id) => scene.actions.find((a) => a.id === id);
  const t = (k, p, f) => strings.t(k, p, f);
  const statLabel = Object.fromEntries(v.stats.map((s) => [s.id, t(s.labelKey, null, s.id)]));

  const headline = h("div.sim-head", null,
    h("p.scene-line", { tabindex: "-1", "data-focus-target": "" }, t(scene.body.textKey, scene.body.params, scene.body.text)),
    h("dl.figures", null,
      fig("Cash", money(v.money, cur)),
      v.investment ? fig(t(v.investment.labelKey, null, "Invested"), money(v.invested, cur)) : null,
      fig("Hours planned", `${v.hoursPlanned} of ${v.hoursPerWeek}`),
      fig(t(v.upkeepLabelKey, null, "Weekly upkeep"), money(v.upkeep, cur))));

  const goals = h("section.panel.goals", { "aria-labelledby": "goals-h" },
    h("h2", { id: "goals-h" }, "Goals"),
    h("ul", null, v.goals.map((goal) => h("li", { class: `goal-${goal.status}` },
      h("span.badge", null, statusText[goal.status] || goal.status), " ", t(goal.labelKey, null, goal.id),
      goal.by ? h("span.muted", null, ` (by week ${goal.by})`) : null))));

  const stats = h("section.panel.stats", { "aria-labelledby": "stats-h" },
    h("h2", { id: "stats-h" }, "How you are"),
    h("dl", null, v.stats.map((s) => h("div", null,
      h("dt", null, statLabel[s.id]),
      h("dd", null, h("meter", { min: s.min, max: s.max, value: s.value, low: s.min + (s.max - s.min) * 0.25, optimum: s.max, "aria-hidden": "true" }),
        ` ${s.value} / ${s.max}`, s.drift ? h("span.muted", null, ` (${signed(s.drift)} a week)`) : null)))));

  const parts = [headline];
  if (scene.status === "ended") {
    parts.push(h("section.panel.resolution", { "aria-labelledby": "res-h" },
      h("h2", { id: "res-h" }, "The end"),
      h("p", null, t(v.endingKey || scene.body.textKey, null, scene.body.text))));
  } else {
    parts.push(planEditor(v, g, act, action, t, cur, statLabel));
  }
  parts.push(changes(v, g, t, cur, statLabel));
  if (v.history.length > 1) {
    const xs = v.history.map((w) => w.week);
    const series = [{ name: "Cash", values: v.history.map((w) => w.money), format: (n) => money(n, cur) }];
    if (v.investment) series.push({ name: "Invested", values: v.history.map((w) => w.invested), format: (n) => money(n, cur) });
    for (const s of v.stats) series.push({ name: statLabel[s.id], values: v.history.map((w) => w.stats[s.id] ?? 0), format: String });
    parts.push(h("section.panel.history", { "aria-labelledby": "hist-h" }, h("h2", { id: "hist-h" }, "Over the weeks"),
      lineChart("Resources over the weeks", xs, series.slice(0, 4))));
  }
  replace(root, h("div.sim-layout", null, h("div.sim-main", null, parts), h("div.sim-side", null, goals, stats)));
}

function fig(label, value) {
  return h("div", null, h("dt", null, label), h("dd", null, value));
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function effects(a, cur, statLabel) {
  const out = [];
  for (const [k, d] of Object.entries(a.effects || {})) {
    if (k === "money") out.push(`${d >= 0 ? "+" : "−"}${money(Math.abs(d), cur)}`);
    else out.push(`${statLabel[k] || k} ${signed(d)}`);
  }
  return out.join(", ");
}

function planEditor(v, g, act, action, t, cur, statLabel) {
  const add = action("plan.add");
  const remove = action("plan.remove");
  const clear = action("plan.clear");
  const end = action("end_week");
  const plan = h("section.panel.plan", { "aria-labelledby": "plan-h" }, h("h2", { id: "plan-h" }, "This week's plan"));
  if (v.plan.length === 0) {
    plan.append(h("p.muted", null, "Nothing planned yet. Add activities below, then end the week."));
  } else {
    plan.append(h("ul.plan-items", null, v.plan.map((it) => h("li", null,
      h("span", null, `${t(it.labelKey, null, it.activity)} × ${it.count}`),
      h("span.muted", null, ` ${it.hours} h, ${money(it.cost, cur)}`),
      h("button.small", {
        type: "button", disabled: !remove?.available, dataset: { remove: it.activity },
        "aria-label": `${t(remove?.labelKey, null, "Remove")}: ${t(it.labelKey, null, it.activity)}`,
        onclick: () => act("plan.remove", { index: it.index }),
      }, t(remove?.labelKey, null, "Remove"))))));
  }
  const row = h("div.actions", null);
  if (clear) {
    row.append(h("button", { type: "button", disabled: !clear.available, dataset: { actionId: "plan.clear" }, onclick: () => act("plan.clear") }, t(clear.labelKey, null, "Clear plan")));
  }
  if (end) {
    row.append(h("button.primary", { type: "button", disabled: !end.available, dataset: { actionId: "end_week" }, onclick: () => act("end_week") }, t(end.labelKey, null, "End the week")));
  }
  plan.append(row);

  const acts = h("section.panel.activities", { "aria-labelledby": "acts-h" }, h("h2", { id: "acts-h" }, "Activities"));
  const list = h("ul.activity-list", null);
  for (const a of v.activities) {
    if (!a.offerable && a.maxAddable === 0 && a.reasonKey && a.engine) continue;
    const reasonId = nextId("why");
    const can = add?.available && a.maxAddable > 0;
    const label = t(a.labelKey, null, a.id);
    list.append(h("li", { class: can ? "" : "locked", dataset: { activity: a.id } },
      h("div.act-text", null,
        h("strong", null, label, a.planned ? h("span.badge", null, ` ${a.planned} planned`) : null),
        h("span.muted", null, t(a.descriptionKey, { amount: money(a.cost, cur) })),
        h("span.act-cost", null, `${a.hours} h · ${money(a.cost, cur)}${effects(a, cur, statLabel) ? " · " + effects(a, cur, statLabel) : ""}`),
        can ? null : h("span.reason", { id: reasonId }, t(a.reasonKey || add?.reasonKey, null, "Not possible this week."))),
      h("button.small", {
        type: "button", disabled: !can, "aria-describedby": can ? null : reasonId,
        "aria-label": `Add ${label}`, dataset: { add: a.id },
        onclick: () => act("plan.add", { activity: a.id, count: 1 }),
      }, "Add")));
  }
  acts.append(list);
  return h("div.plan-editor", null, plan, acts);
}

function changes(v, g, t, cur, statLabel) {
  const box = h("section.panel.changes", { "aria-labelledby": "chg-h" }, h("h2", { id: "chg-h" }, "What changed"));
  const msgs = (g.result?.messages || []).filter((m) => m.visible !== false);
  const lw = v.lastWeek;
  if (!lw && msgs.length === 0) {
    box.append(h("p.muted", null, v.introKey ? t(v.introKey) : "Plan your first week."));
    return box;
  }
  if (msgs.length) {
    box.append(h("ul.messages", null, msgs.map((m) => h("li", { class: `tone-${m.tone || "neutral"}` }, t(m.key, m.params)))));
  }
  const changed = (g.result?.changes || []).filter((c) => c.visible !== false && c.path !== "week");
  if (changed.length) {
    box.append(h("table.changes-table", null,
      h("caption.sr-only", null, "What the week changed, step by step"),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "What"), h("th", { scope: "col" }, "From"), h("th", { scope: "col" }, "To"), h("th", { scope: "col" }, "Why"))),
      h("tbody", null, changed.map((c) => h("tr", null,
        h("th", { scope: "row" }, changeLabel(c.path, t, statLabel)),
        h("td", null, changeValue(c.path, c.previous, cur)),
        h("td", null, changeValue(c.path, c.value, cur)),
        h("td.muted", null, t(`simulation.reason.${c.reason}`, null, c.reason)))))));
  }
  if (lw) {
    const deltas = [h("li", null, `Cash ${lw.moneyDelta >= 0 ? "+" : "−"}${money(Math.abs(lw.moneyDelta), cur)}`)];
    if (lw.investedDelta) deltas.push(h("li", null, `Invested ${lw.investedDelta >= 0 ? "+" : "−"}${money(Math.abs(lw.investedDelta), cur)}`));
    for (const [id, d] of Object.entries(lw.statDeltas || {})) {
      if (d) deltas.push(h("li", null, `${statLabel[id] || id} ${signed(d)}`));
    }
    box.append(h("h3", null, `Week ${lw.week} in all`), h("ul.deltas", null, deltas));
    if (lw.incidentTitleKey) {
      box.append(h("div.incident", null, h("strong", null, t(lw.incidentTitleKey)), h("p", null, t(lw.incidentTextKey))));
    }
  }
  return box;
}

// changeLabel names a StateChange's path for the player.
function changeLabel(path, t, statLabel) {
  if (path === "money") return "Cash";
  if (path === "invested") return "Invested";
  if (path.startsWith("stat.")) return statLabel[path.slice(5)] || path.slice(5);
  if (path.startsWith("goal.") || path.startsWith("goals.")) return "Goal";
  if (path.startsWith("chain.")) return "Story so far";
  return path;
}

// changeValue renders a StateChange's value (money in cents as money).
function changeValue(path, v, cur) {
  if (v === undefined || v === null) return "—";
  if ((path === "money" || path === "invested") && typeof v === "number") return money(v, cur);
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** What the live region says after an action. */
export function summary(g) {
  const { scene, strings } = g;
  const v = scene.view.kindView;
  let s = strings.t(scene.body.textKey, scene.body.params, scene.body.text);
  if (scene.status === "ended" && v.endingKey) s = strings.t(v.endingKey, null, s);
  return s;
}
