// A small inline SVG line chart: a few series over the same x steps,
// labelled for screen readers by a table beside it.
import { h, svg } from "./dom.js";

/**
 * lineChart(title, xs, series) draws series ([{name, values, format}]) over
 * xs (labels of the x steps). Each series gets its own vertical scale, so
 * cash in cents and a stat out of 100 share one chart legibly.
 */
export function lineChart(title, xs, series) {
  const W = 560, H = 200, L = 8, R = 8, T = 12, B = 26;
  const n = xs.length;
  const x = (i) => (n <= 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (n - 1));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  for (let k = 0; k <= 4; k++) {
    const y = T + (k * (H - T - B)) / 4;
    root.append(svg("line", { x1: L, x2: W - R, y1: y, y2: y, class: "grid" }));
  }
  xs.forEach((label, i) => {
    if (n > 12 && i % Math.ceil(n / 12) !== 0 && i !== n - 1) return;
    root.append(svg("text", { x: x(i), y: H - 8, class: "tick", "text-anchor": "middle" }, String(label)));
  });
  series.forEach((s, si) => {
    const lo = Math.min(...s.values), hi = Math.max(...s.values);
    const span = hi - lo || 1;
    const y = (v) => T + (H - T - B) * (1 - (v - lo) / span);
    const pts = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    root.append(svg("polyline", { points: pts, class: `line s${si}`, fill: "none" }));
    s.values.forEach((v, i) => root.append(svg("circle", { cx: x(i), cy: y(v), r: 3, class: `dot s${si}` })));
  });
  const legend = h("ul.legend", null, series.map((s, si) =>
    h("li", null, h("span.swatch", { class: `s${si}`, "aria-hidden": "true" }), s.name, ": ", s.format(s.values[s.values.length - 1]))));
  const table = h("table.sr-only", null,
    h("caption", null, title),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, "Week"), series.map((s) => h("th", { scope: "col" }, s.name)))),
    h("tbody", null, xs.map((label, i) => h("tr", null, h("th", { scope: "row" }, String(label)), series.map((s) => h("td", null, s.format(s.values[i])))))));
  return h("figure.chart-box", null, root, legend, table);
}
