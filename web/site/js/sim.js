// The simulation screen: the weekly plan editor built from the view's
// parameter domain (activities with what one more costs and whether the
// engine would take it), end of week, what changed, a chart of resources
// over the weeks, and the goals.
import { h, panel, replace, nextId } from "./dom.js";
import { money } from "./i18n.js";
import { lineChart } from "./chart.js";
import { changesPanel, signed, statusText } from "./changes.js";
import { tr } from "./lang.js";

export const numbered = false;

/** Draws the simulation scene of g into root; act(actionId, params) submits. */
export function render(root, g, act) {
  const { scene, strings } = g;
  const v = scene.view.kindView;
  const cur = v.currency || "";
  const action = (id) => scene.actions.find((a) => a.id === id);
  const t = (k, p, f) => strings.t(k, p, f);
  const statLabel = Object.fromEntries(v.stats.map((s) => [s.id, t(s.labelKey, null, s.id)]));

  const ended = scene.status === "ended";
  const headline = h(
    "div.sim-head",
    null,
    h(
      "p.scene-line",
      { tabindex: "-1", "data-focus-target": "" },
      ended
        ? tr("The end, after week {week}.", { week: v.lastWeek?.week ?? v.week })
        : t(scene.body.textKey, scene.body.params, scene.body.text),
    ),
    h(
      "dl.figures",
      null,
      fig(tr("Cash"), money(v.money, cur)),
      v.investment ? fig(t(v.investment.labelKey, null, tr("Invested")), money(v.invested, cur)) : null,
      fig(tr("Hours planned"), tr("{n} of {total}", { n: v.hoursPlanned, total: v.hoursPerWeek })),
      fig(t(v.upkeepLabelKey, null, tr("Weekly upkeep")), money(v.upkeep, cur)),
    ),
  );

  const goals = panel(
    ".goals",
    "goals-h",
    tr("Goals"),
    h(
      "ul",
      null,
      v.goals.map((goal) =>
        h(
          "li",
          { class: `goal-${goal.status}` },
          h("span.badge", null, statusText(goal.status)),
          " ",
          t(goal.labelKey, null, ""),
          goal.by ? h("span.muted", null, ` ${tr("(by week {week})", { week: goal.by })}`) : null,
        ),
      ),
    ),
  );

  const stats = panel(
    ".stats",
    "stats-h",
    tr("How you are"),
    h(
      "dl",
      null,
      v.stats.map((s) =>
        h(
          "div",
          null,
          h("dt", null, statLabel[s.id]),
          h(
            "dd",
            null,
            h("meter", {
              min: s.min,
              max: s.max,
              value: s.value,
              low: s.min + (s.max - s.min) * 0.25,
              high: s.min + (s.max - s.min) * 0.75,
              optimum: s.max,
              "aria-hidden": "true",
            }),
            ` ${s.value} / ${s.max}`,
            s.drift ? h("span.muted", null, ` ${tr("({n} a week)", { n: signed(s.drift) })}`) : null,
          ),
        ),
      ),
    ),
  );

  // What the week did (or the premise, before the first) comes before the
  // plan for the next; once the game is over, the ending is said once.
  const parts = [headline];
  if (scene.status === "ended") {
    parts.push(
      panel(
        ".resolution",
        "res-h",
        tr("The end"),
        h("p", null, t(v.endingKey || scene.body.textKey, null, scene.body.text)),
      ),
    );
    parts.push(changes(v, g, t, cur, statLabel));
  } else {
    parts.push(changes(v, g, t, cur, statLabel));
    parts.push(planEditor(v, g, act, action, t, cur, statLabel));
  }
  if (v.history.length > 1) {
    const xs = v.history.map((w) => w.week);
    // Money on one chart, the stats (all out of the same scale) on another.
    const series = [
      { name: tr("Cash"), unit: tr("Money"), values: v.history.map((w) => w.money), format: (n) => money(n, cur) },
    ];
    if (v.investment)
      series.push({
        name: tr("Invested"),
        unit: tr("Money"),
        values: v.history.map((w) => w.invested),
        format: (n) => money(n, cur),
      });
    for (const s of v.stats)
      series.push({
        name: statLabel[s.id],
        unit: tr("Points"),
        values: v.history.map((w) => w.stats[s.id] ?? 0),
        format: String,
      });
    parts.push(
      panel(
        ".history",
        "hist-h",
        tr("Over the weeks"),
        lineChart(tr("Resources over the weeks"), xs, series.slice(0, 6), { xLabel: tr("Week") }),
      ),
    );
  }
  replace(root, h("div.sim-layout", null, h("div.sim-main", null, parts), h("div.sim-side", null, goals, stats)));
}

function fig(label, value) {
  return h("div", null, h("dt", null, label), h("dd", null, value));
}

function effects(a, cur, statLabel) {
  const out = [];
  for (const [k, d] of Object.entries(a.effects || {})) {
    if (k === "money")
      out.push(
        d >= 0
          ? tr("earns {amount}", { amount: money(d, cur) })
          : tr("costs {amount} more", { amount: money(-d, cur) }),
      );
    else out.push(`${statLabel[k] || k} ${signed(d)}`);
  }
  return out.join(", ");
}

function planEditor(v, g, act, action, t, cur, statLabel) {
  const add = action("plan.add");
  const remove = action("plan.remove");
  const clear = action("plan.clear");
  const end = action("end_week");
  const plan = panel(".plan", "plan-h", tr("This week’s plan"));
  const last = g.lastPlan || [];
  if (v.plan.length === 0) {
    plan.append(h("p.muted", null, tr("Nothing planned yet. Add activities below, then end the week.")));
  } else {
    // Remove takes one off a stack ("Café shift × 3"), the whole item when
    // there is one.
    plan.append(
      h(
        "ul.plan-items",
        null,
        v.plan.map((it) =>
          h(
            "li",
            null,
            h("span", null, `${t(it.labelKey, null, it.activity)} × ${it.count}`),
            h("span.muted", null, ` ${tr("{n} h", { n: it.hours })}${it.cost ? `, ${money(it.cost, cur)}` : ""}`),
            h(
              "button.small",
              {
                type: "button",
                disabled: !remove?.available,
                dataset: { remove: it.activity },
                "aria-label": `${it.count > 1 ? tr("Remove one") : t(remove?.labelKey, null, tr("Remove"))}: ${t(it.labelKey, null, it.activity)}`,
                onclick: () => act("plan.remove", { index: it.index, count: 1 }),
              },
              it.count > 1 ? tr("Remove one") : t(remove?.labelKey, null, tr("Remove")),
            ),
          ),
        ),
      ),
    );
  }
  const row = h("div.actions", null);
  if (v.plan.length === 0 && last.length && add?.available) {
    // Last week's plan again, item by item, as the player would add it.
    row.append(
      h(
        "button",
        {
          type: "button",
          dataset: { role: "repeat-plan" },
          onclick: async () => {
            for (const it of last) await act("plan.add", { activity: it.activity, count: it.count });
          },
        },
        tr("Repeat last week’s plan"),
      ),
    );
  }
  if (clear) {
    row.append(
      h(
        "button",
        {
          type: "button",
          disabled: !clear.available,
          dataset: { actionId: "plan.clear" },
          onclick: () => act("plan.clear"),
        },
        t(clear.labelKey, null, tr("Clear plan")),
      ),
    );
  }
  if (end) {
    row.append(
      h(
        "button.primary",
        {
          type: "button",
          disabled: !end.available,
          dataset: { actionId: "end_week" },
          onclick: () => {
            g.lastPlan = v.plan.map((it) => ({ activity: it.activity, count: it.count }));
            act("end_week");
          },
        },
        t(end.labelKey, null, tr("End the week")),
      ),
    );
  }
  plan.append(row);

  const acts = panel(".activities", "acts-h", tr("Activities"));
  const list = h("ul.activity-list", null);
  for (const a of v.activities) {
    if (!a.offerable && a.maxAddable === 0 && a.reasonKey && a.engine) continue;
    const reasonId = nextId("why");
    const can = add?.available && a.maxAddable > 0;
    const label = t(a.labelKey, null, a.id);
    list.append(
      h(
        "li",
        { class: can ? "" : "locked", dataset: { activity: a.id } },
        h(
          "div.act-text",
          null,
          h("strong", null, label, a.planned ? h("span.badge", null, ` ${tr("{n} planned", { n: a.planned })}`) : null),
          h("span.muted", null, t(a.descriptionKey, { amount: money(a.cost, cur) })),
          h(
            "span.act-cost",
            null,
            [
              tr("{n} h", { n: a.hours }),
              a.cost ? tr("costs {amount}", { amount: money(a.cost, cur) }) : "",
              effects(a, cur, statLabel),
            ]
              .filter(Boolean)
              .join(" · "),
          ),
          can
            ? null
            : h("span.reason", { id: reasonId }, t(a.reasonKey || add?.reasonKey, null, tr("Not possible this week."))),
        ),
        h(
          "button.small",
          {
            type: "button",
            disabled: !can,
            "aria-describedby": can ? null : reasonId,
            "aria-label": tr("Add {name}", { name: label }),
            dataset: { add: a.id },
            onclick: () => act("plan.add", { activity: a.id, count: 1 }),
          },
          tr("Add"),
        ),
      ),
    );
  }
  acts.append(list);
  return h("div.plan-editor", null, plan, acts);
}

// What the week changed: its totals, the incident and the goals decided
// first, then the messages and every change folded (changes.js).
function changes(v, g, t, cur, statLabel) {
  const lw = v.lastWeek;
  const summary = [];
  if (lw) {
    const deltas = [
      h("li", null, `${tr("Cash")} ${lw.moneyDelta >= 0 ? "+" : "−"}${money(Math.abs(lw.moneyDelta), cur)}`),
    ];
    if (lw.investedDelta)
      deltas.push(
        h(
          "li",
          null,
          `${tr("Invested")} ${lw.investedDelta >= 0 ? "+" : "−"}${money(Math.abs(lw.investedDelta), cur)}`,
        ),
      );
    for (const [id, d] of Object.entries(lw.statDeltas || {})) {
      if (d && statLabel[id]) deltas.push(h("li", null, `${statLabel[id]} ${signed(d)}`));
    }
    summary.push(h("h3", null, tr("Week {week} in all", { week: lw.week })), h("ul.deltas", null, deltas));
    if (lw.incidentTitleKey) {
      summary.push(
        h("div.incident", null, h("strong", null, t(lw.incidentTitleKey)), h("p", null, t(lw.incidentTextKey))),
      );
    }
  }
  const goalLabel = Object.fromEntries(v.goals.map((goal) => [goal.id, t(goal.labelKey, null, "")]));
  const decided = (g.result?.changes || []).filter(
    (c) => c.path.startsWith("goal.") && c.value !== "pending" && goalLabel[c.path.slice(5)],
  );
  if (decided.length) {
    summary.push(
      h(
        "ul.goal-news",
        null,
        decided.map((c) =>
          h(
            "li",
            { class: `goal-${c.value}` },
            h("span.badge", null, statusText(c.value)),
            " ",
            goalLabel[c.path.slice(5)],
          ),
        ),
      ),
    );
  }
  const name = (c) => {
    const num = (x) => (typeof x === "number" ? String(x) : "—");
    const cash = (x) => (typeof x === "number" ? money(x, cur) : "—");
    if (c.path === "money") return { what: tr("Cash"), from: cash(c.previous), to: cash(c.value) };
    if (c.path === "invested") return { what: tr("Invested"), from: cash(c.previous), to: cash(c.value) };
    if (c.path === "plan") return { what: tr("Activities planned"), from: num(c.previous), to: num(c.value) };
    if (c.path.startsWith("stat.") && statLabel[c.path.slice(5)])
      return { what: statLabel[c.path.slice(5)], from: num(c.previous), to: num(c.value) };
    if (c.path.startsWith("goal.") && goalLabel[c.path.slice(5)]) {
      return {
        what: goalLabel[c.path.slice(5)],
        from: statusText(c.previous || "pending"),
        to: statusText(c.value) || "—",
      };
    }
    if (c.path === "incident" && lw?.incident === c.value && lw.incidentTitleKey)
      return { what: tr("Event"), from: "—", to: t(lw.incidentTitleKey) };
    return null; // the story's chapters, the resolution, bookkeeping: told elsewhere or not the player's
  };
  const why = (c) => {
    const key = `simulation.reason.${c.reason}`;
    return g.strings.has(key) ? t(key) : "";
  };
  const said = lw?.incidentTitleKey ? [lw.incidentTitleKey, lw.incidentTextKey] : [];
  return changesPanel(g, {
    id: "chg-h",
    summary,
    describe: name,
    reason: why,
    said,
    empty: v.introKey ? t(v.introKey) : tr("Plan your first week."),
  });
}

/** What the live region says after an action. */
export function summary(g) {
  const { scene, strings } = g;
  const v = scene.view.kindView;
  let s = strings.t(scene.body.textKey, scene.body.params, scene.body.text);
  if (scene.status === "ended" && v.endingKey) s = strings.t(v.endingKey, null, s);
  return s;
}
