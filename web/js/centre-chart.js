// @ts-check
/** @file A board's centre chart (docs/tournaments.md#live-progress): an inline SVG with one
 * line per power over the game years recorded, and the same numbers as a table for screen
 * readers and for reading exact counts. No library. */

import { h, colour } from "./dom.js";
import { table } from "./table.js";

/**
 * @typedef {{ seat: number, power: string, player?: { name: string } | null, counts: { year: number, centres: number }[], eliminatedYear: number | null }} PowerLine
 */

const NS = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {Record<string, any>} attrs @param {...(Node|string)} kids */
function svgElement(tag, attrs, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...kids);
  return el;
}

/**
 * The centre chart of a board: x the game years, y the centres (0 to 18 at least, the solo
 * line marked), one coloured line per power; `titleId` names the chart (unique on the page).
 * @param {PowerLine[]} powers
 * @param {string} titleId
 * @param {string} title
 */
export function centreChart(powers, titleId, title) {
  const years = [...new Set(powers.flatMap((p) => p.counts.map((c) => c.year)))].sort((a, b) => a - b);
  if (years.length === 0) return h("p", { class: "hint" }, "No centre counts recorded yet.");
  const W = 640, H = 300, L = 36, R = 12, T = 12, B = 30;
  const top = Math.max(18, ...powers.flatMap((p) => p.counts.map((c) => c.centres)));
  const x = (/** @type {number} */ i) => L + (years.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (years.length - 1));
  const y = (/** @type {number} */ v) => T + ((top - v) * (H - T - B)) / top;
  const svg = svgElement("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart centre-chart", role: "img", "aria-labelledby": titleId },
    svgElement("title", { id: titleId }, title));
  for (const v of [0, 6, 12, 18]) {
    svg.append(svgElement("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 18 ? "grid solo" : "grid" }),
      svgElement("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)));
  }
  years.forEach((year, i) => svg.append(svgElement("text", { x: x(i), y: H - 10, "text-anchor": "middle", class: "axis" }, String(year))));
  const legend = h("ul", { class: "legend" });
  powers.forEach((p, n) => {
    const at = new Map(p.counts.map((c) => [c.year, c.centres]));
    const points = years.map((year, i) => ({ i, v: at.get(year) })).filter((q) => q.v !== undefined);
    svg.append(svgElement("polyline", { points: points.map((q) => `${x(q.i)},${y(/** @type {number} */ (q.v))}`).join(" "), fill: "none", stroke: colour(n), "stroke-width": 3, "data-power": p.power }));
    const swatch = h("span", { class: "swatch" });
    swatch.style.background = colour(n);
    legend.append(h("li", {}, swatch, p.power));
  });
  const rows = powers.map((p) => {
    const at = new Map(p.counts.map((c) => [c.year, c.centres]));
    return h("tr", {}, h("th", { scope: "row" }, p.power), ...years.map((year) => h("td", { class: "num" }, at.has(year) ? String(at.get(year)) : "—")));
  });
  return h("figure", { class: "chart-figure" }, svg,
    h("figcaption", {}, legend),
    h("div", { class: "table-wrap" }, table(["Power", ...years.map(String)], rows, { class: "centre-table", caption: `${title}: centres after each year` })));
}
