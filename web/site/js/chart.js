// Small inline SVG line charts of a few series over the same x steps. The
// series are drawn on one chart per unit (money on one, a stat out of 100
// on another), each with one scale shared by its series, labelled axes,
// the values of a step shown on hover and on keyboard focus, and the
// numbers in a table anyone can open.
import { h, svg } from "./dom.js";
import { tr } from "./lang.js";

/**
 * lineChart(title, xs, series, {xLabel}) draws series ([{name, values,
 * format, unit}]) over xs (labels of the x steps). Series of the same unit
 * share a chart and its scale; unit also names the chart's y axis.
 */
export function lineChart(title, xs, series, { xLabel = tr("Week") } = {}) {
  const readout = h(
    "p.chart-readout",
    { "aria-live": "polite" },
    tr("Point at a week, or move to it with Tab, to read its values."),
  );
  const units = [...new Set(series.map((s) => s.unit))];
  const charts = units.map((unit) =>
    one(
      `${title}: ${unit}`,
      xs,
      series.map((s, si) => ({ ...s, si })).filter((s) => s.unit === unit),
      xLabel,
      unit,
      readout,
    ),
  );
  const legend = h(
    "ul.legend",
    null,
    series.map((s, si) =>
      h(
        "li",
        null,
        h("span.swatch", { class: `s${si}`, "aria-hidden": "true" }),
        s.name,
        ": ",
        s.format(s.values[s.values.length - 1]),
      ),
    ),
  );
  const table = h(
    "details.chart-data",
    null,
    h("summary", null, tr("The numbers, week by week")),
    h(
      "table",
      null,
      h("caption.sr-only", null, title),
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", { scope: "col" }, xLabel),
          series.map((s) => h("th", { scope: "col" }, s.name)),
        ),
      ),
      h(
        "tbody",
        null,
        xs.map((label, i) =>
          h(
            "tr",
            null,
            h("th", { scope: "row" }, String(label)),
            series.map((s) => h("td", null, s.format(s.values[i]))),
          ),
        ),
      ),
    ),
  );
  return h("figure.chart-box", null, charts, readout, legend, table);
}

// one draws the chart of one unit's series on a shared scale.
function one(title, xs, group, xLabel, unit, readout) {
  const W = 560,
    H = 200,
    L = 74,
    R = 12,
    T = 12,
    B = 40;
  const n = xs.length;
  const x = (i) => (n <= 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (n - 1));
  const all = group.flatMap((s) => s.values);
  let lo = Math.min(0, ...all),
    hi = Math.max(...all);
  if (hi === lo) hi = lo + 1;
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const fmt = group[0].format;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "group", "aria-label": title });
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    root.append(
      svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: L - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, fmt(Math.round(v))),
    );
  }
  root.append(
    svg("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }),
    svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }),
    svg("text", { x: (L + W - R) / 2, y: H - 4, class: "axis-label", "text-anchor": "middle" }, xLabel),
    svg(
      "text",
      {
        x: 12,
        y: (T + H - B) / 2,
        class: "axis-label",
        "text-anchor": "middle",
        transform: `rotate(-90 12 ${(T + H - B) / 2})`,
      },
      unit,
    ),
  );
  xs.forEach((label, i) => {
    if (n > 12 && i % Math.ceil(n / 12) !== 0 && i !== n - 1) return;
    root.append(svg("text", { x: x(i), y: H - B + 16, class: "tick", "text-anchor": "middle" }, String(label)));
  });
  for (const s of group) {
    const pts = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    root.append(svg("polyline", { points: pts, class: `line s${s.si}`, fill: "none" }));
    for (const [i, v] of s.values.entries())
      root.append(svg("circle", { cx: x(i), cy: y(v), r: 3, class: `dot s${s.si}` }));
  }
  // One target per week: hovering it or focusing it shows its values.
  const step = n <= 1 ? W - L - R : (W - L - R) / (n - 1);
  xs.forEach((label, i) => {
    const text = `${xLabel} ${label}: ${group.map((s) => `${s.name} ${s.format(s.values[i])}`).join(", ")}`;
    const show = () => {
      readout.textContent = text;
      for (const el of root.querySelectorAll(".hit.on")) el.classList.remove("on");
      hit.classList.add("on");
    };
    const left = Math.max(L, x(i) - step / 2),
      right = Math.min(W - R, x(i) + step / 2);
    const hit = svg(
      "rect",
      {
        x: left,
        y: T,
        width: right - left,
        height: H - T - B,
        class: "hit",
        tabindex: 0,
        role: "img",
        "aria-label": text,
      },
      svg("title", null, text),
    );
    hit.addEventListener("mouseenter", show);
    hit.addEventListener("focus", show);
    root.append(hit);
  });
  return root;
}
