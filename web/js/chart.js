// @ts-check
/** @file The league page's chart of running totals (SVG, no library). */

import { h, score, delta, colour } from "./dom.js";

/**
 * An SVG line chart of each player's running total over the league's results (x: the
 * n-th score change of the league, y: total); hovering or focusing a point names the game.
 * @param {{ player: { id: string, name: string }, changes: any[] }[]} data
 * @param {Map<string, number>} gameNumbers
 */
export function totalsChart(data, gameNumbers) {
  const positions = [...new Set(data.flatMap((d) => d.changes.map((c) => c.position)))].sort((a, b) => a - b);
  if (positions.length === 0) return h("p", {}, "No results yet.");
  const W = 640, H = 280, L = 44, R = 12, T = 12, B = 32;
  const totals = data.flatMap((d) => d.changes.map((c) => c.total));
  const lo = Math.min(0, ...totals), hi = Math.max(1, ...totals);
  const x = (/** @type {number} */ i) => L + (positions.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (positions.length - 1));
  const y = (/** @type {number} */ v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const NS = "http://www.w3.org/2000/svg";
  /** @param {string} tag @param {Record<string, any>} attrs @param {...(Node|string)} kids */
  const s = (tag, attrs, ...kids) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    el.append(...kids);
    return el;
  };
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-title" },
    s("title", { id: "chart-title" }, "Each player's running total after each result"));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, score(Math.round(v * 10) / 10)));
  }
  svg.append(s("text", { x: (W + L) / 2, y: H - 8, "text-anchor": "middle", class: "axis" }, "results in log order"));
  const legend = h("ul", { class: "legend" });
  data.forEach((d, n) => {
    let total = 0;
    const points = positions.map((pos, i) => {
      const change = d.changes.find((c) => c.position === pos);
      if (change) total = change.total;
      return { i, total, change };
    });
    svg.append(s("polyline", { points: points.map((p) => `${x(p.i)},${y(p.total)}`).join(" "), fill: "none", stroke: colour(n), "stroke-width": 2 }));
    for (const p of points.filter((q) => q.change)) {
      const c = p.change;
      const label = `${d.player.name}: game ${gameNumbers.get(c.game.id)}, ${delta(c.delta)} → ${score(c.total)}${c.reason ? ` (corrected: ${c.reason})` : ""}`;
      svg.append(s("circle", { cx: x(p.i), cy: y(p.total), r: 5, fill: colour(n), tabindex: 0, class: "point", "aria-label": label }, s("title", {}, label)));
    }
    legend.append(h("li", {}, h("span", { class: "swatch", "data-colour": n }), d.player.name));
  });
  for (const sw of legend.querySelectorAll(".swatch")) {
    /** @type {HTMLElement} */ (sw).style.background = colour(Number(/** @type {HTMLElement} */ (sw).dataset.colour));
  }
  return h("figure", { class: "chart-figure" }, svg, h("figcaption", {}, legend));
}
