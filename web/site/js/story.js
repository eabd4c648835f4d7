// The story-graph screen: the scene's text, its choices as numbered
// buttons (keys 1–9), locked choices shown disabled with the reason the
// engine gives, the visible variables and this game's achievements.
import { h, svg, replace, nextId } from "./dom.js";
import { tr } from "./lang.js";

/** Choices answer to the number keys. */
export const numbered = true;

function paragraphs(text) {
  return text.split(/\n\s*\n/).map((p) => h("p", null, p));
}

/** Draws the story scene of g into root; pick(actionId) submits. */
export function render(root, g, pick) {
  const { scene, strings } = g;
  const view = scene.view.kindView || {};
  const text = strings.t(scene.body.textKey, scene.body.params, scene.body.text);
  const article = h(
    "article.scene",
    { "aria-labelledby": "scene-h" },
    h("h2.sr-only", { id: "scene-h" }, scene.status === "ended" ? tr("The end") : tr("Scene")),
    h("div.scene-text", { tabindex: "-1", "data-focus-target": "" }, paragraphs(text)),
  );

  if (scene.status === "ended" && view.ending) {
    const outcome = view.ending.outcome || "neutral";
    article.append(
      h(
        "div.ending",
        { class: `outcome-${outcome}`, dataset: { ending: view.ending.endingId } },
        h("p.ending-kicker", null, tr("An ending")),
        h("p.ending-title", null, strings.t(view.ending.titleKey)),
      ),
    );
  }

  const list = h("ol.choices", { "aria-label": tr("Choices") });
  scene.actions.forEach((a, i) => {
    const n = i + 1;
    const label = strings.t(a.labelKey, a.params);
    const reasonId = nextId("reason");
    const btn = h(
      "button.choice",
      {
        type: "button",
        disabled: !a.available,
        "aria-describedby": a.available ? null : reasonId,
        "data-numbered": "",
        dataset: { actionId: a.id },
        onclick: () => pick(a.id),
      },
      n <= 9 ? h("kbd", { "aria-hidden": "true" }, String(n)) : null,
      h("span", null, label),
    );
    const li = h("li", { class: a.available ? "" : "locked" }, btn);
    if (!a.available) {
      li.append(
        h("p.reason", { id: reasonId }, lockIcon(), strings.t(a.reasonKey, a.params, tr("Not available yet."))),
      );
    }
    list.append(li);
  });
  if (scene.actions.length) article.append(list);

  const side = h("aside.side", { "aria-label": tr("Your state") });
  if (view.variables?.length) {
    side.append(
      h("h2", null, tr("You have")),
      h(
        "dl.vars",
        null,
        view.variables.map((v) =>
          h("div", null, h("dt", null, strings.t(v.labelKey, null, v.id)), h("dd", null, varValue(v))),
        ),
      ),
    );
  }
  if (view.achievements?.length) {
    side.append(
      h("h2", null, tr("Achievements this game")),
      h(
        "ul.badges",
        null,
        view.achievements.map((a) => h("li", { title: strings.t(a.descriptionKey) }, strings.t(a.titleKey))),
      ),
    );
  }
  replace(root, h("div.story-layout", null, article, side.childElementCount ? side : null));
}

/** A small padlock, drawn so that no emoji font is needed. */
function lockIcon() {
  return svg(
    "svg",
    { class: "lock", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 3, y: 7, width: 10, height: 8, rx: 1.5 }),
    svg("path", { d: "M5.5 7V5a2.5 2.5 0 0 1 5 0v2", fill: "none" }),
  );
}

function varValue(v) {
  if (typeof v.value === "boolean") return v.value ? tr("yes") : tr("no");
  if (typeof v.value === "number" && v.max !== undefined && v.max !== null) {
    return h(
      "span.var-num",
      null,
      h("meter", {
        min: v.min ?? 0,
        max: v.max,
        value: v.value,
        low: (v.min ?? 0) + (v.max - (v.min ?? 0)) / 4,
        high: (v.min ?? 0) + ((v.max - (v.min ?? 0)) * 3) / 4,
        optimum: v.max,
        "aria-hidden": "true",
      }),
      ` ${v.value} / ${v.max}`,
    );
  }
  return String(v.value);
}
