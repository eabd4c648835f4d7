// "What changed" after an action, for the simulation and world screens:
// the kind's short summary first, then the action's messages with repeats
// counted ("A planned activity took place. ×18"), then every change,
// grouped, folded in a <details>. A change is shown only when the kind can
// name it and its values for the player (describe returns null
// otherwise): no identifier reaches the page.
import { h, panel } from "./dom.js";
import { tr } from "./lang.js";

/**
 * changesPanel(g, {id, summary, describe, reason}) returns the section.
 * summary is a list of nodes (or null) shown first; describe(change) is
 * {what, from, to} in the player's words, or null to leave it out;
 * reason(change) is the sentence saying why, or ""; said lists the keys
 * of messages the summary already says (an incident's title and text).
 */
export function changesPanel(g, { id, summary, describe, reason, empty, said = [] }) {
  const box = panel(".changes", id, tr("What changed"));
  // The ending is said by the resolution panel above, not again here.
  const ending = g.scene?.status === "ended" ? g.scene.view?.kindView?.endingKey : "";
  const msgs = (g.result?.messages || []).filter(
    (m) => m.visible !== false && !(ending && m.key === ending) && !said.includes(m.key),
  );
  const rows = grouped(
    (g.result?.changes || []).filter((c) => c.visible !== false),
    describe,
    reason,
  );
  const parts = (summary || []).filter(Boolean);
  if (!parts.length && !msgs.length && !rows.length) {
    if (!empty) return null;
    box.append(h("p.muted", null, empty));
    return box;
  }
  box.append(...parts);
  if (msgs.length) {
    const counted = new Map();
    for (const m of msgs) {
      const text = g.strings.t(m.key, m.params);
      const seen = counted.get(text);
      if (seen) seen.n += 1;
      else counted.set(text, { n: 1, tone: m.tone || "neutral" });
    }
    box.append(
      h(
        "ul.messages",
        null,
        [...counted].map(([text, { n, tone }]) =>
          h("li", { class: `tone-${tone}` }, text, n > 1 ? h("span.count", null, ` ×${n}`) : null),
        ),
      ),
    );
  }
  if (rows.length) {
    box.append(
      h(
        "details.steps",
        null,
        h("summary", null, tr("Every change, step by step ({n})", { n: rows.length })),
        h(
          "table.changes-table",
          null,
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              h("th", { scope: "col" }, tr("What")),
              h("th", { scope: "col" }, tr("From")),
              h("th", { scope: "col" }, tr("To")),
              h("th", { scope: "col" }, tr("Why")),
            ),
          ),
          h(
            "tbody",
            null,
            rows.map((r) =>
              h(
                "tr",
                null,
                h("th", { scope: "row" }, r.what),
                h("td", null, r.from),
                h("td", null, r.to),
                h("td.muted", null, r.why, r.n > 1 ? ` (×${r.n})` : ""),
              ),
            ),
          ),
        ),
      ),
    );
  }
  return box;
}

// grouped folds the changes into rows: one per thing and reason, from the
// first value to the last, counting how many steps it took.
function grouped(changes, describe, reason) {
  const rows = new Map();
  for (const c of changes) {
    const d = describe(c);
    if (!d) continue;
    const why = reason(c);
    const key = `${d.what}\u0000${why}`;
    const row = rows.get(key);
    if (row) {
      row.to = d.to;
      row.n += 1;
    } else {
      rows.set(key, { what: d.what, from: d.from, to: d.to, why, n: 1 });
    }
  }
  return [...rows.values()];
}

/** A number with its sign, as "+3", "−2" or "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** The status (pending, met, failed) of a goal or objective in the player's words, or "". */
export function statusText(status) {
  return { pending: tr("In progress"), met: tr("Met"), failed: tr("Failed") }[status] || "";
}
