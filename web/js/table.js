// @ts-check
/** @file Shared page parts for data: tables (a header row of column names over body rows,
 * in a wrapper that scrolls sideways on a narrow screen), the settings list, and the pager
 * of a paged connection. */

import { h } from "./dom.js";

/**
 * A table: `columns` as header cells, then `rows` (`<tr>` elements).
 * @param {(string|Node)[]} columns
 * @param {any[]} rows
 * @param {{ class?: string, caption?: string|Node|null }} [options]
 */
export function table(columns, rows, { class: className, caption } = {}) {
  return h("table", { class: className },
    caption === undefined || caption === null ? null : h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...columns.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows));
}

/** A {@link table} in its sideways-scrolling wrapper.
 * @param {(string|Node)[]} columns @param {any[]} rows @param {{ class?: string, caption?: string|Node|null }} [options] */
export function wideTable(columns, rows, options) {
  return h("div", { class: "table-wrap" }, table(columns, rows, options));
}

/** A settings list: each `[name, value]` as a term and its description.
 * @param {[string, any][]} entries */
export function settingsList(entries) {
  return h("dl", { class: "settings" }, ...entries.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

/**
 * Pages through a connection: `stack` holds the cursors of the pages seen (its last entry is
 * the current page's `after`); "Previous" and "Next" move along it and call `load`.
 * @param {(string|null)[]} stack
 * @param {{ hasNextPage: boolean, endCursor: string|null }} pageInfo
 * @param {() => Promise<void>} load
 */
export function pager(stack, pageInfo, load) {
  return h("nav", { class: "pager", "aria-label": "Pages" },
    h("button", { type: "button", disabled: stack.length === 1, onclick: () => { stack.pop(); void load(); } }, "Previous"),
    h("button", { type: "button", disabled: !pageInfo.hasNextPage, onclick: () => { stack.push(pageInfo.endCursor); void load(); } }, "Next"));
}

/** The number of the current page's first row (1 on the first page).
 * @param {(string|null)[]} stack @param {number} size the page size */
export function firstRow(stack, size) {
  return (stack.length - 1) * size + 1;
}
