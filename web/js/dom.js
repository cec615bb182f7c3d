// @ts-check
/** @file Small DOM helpers: element building without HTML strings (no injection), number
 * and date formatting, badges and chart colours. */

/**
 * Builds an element. `attrs`: `class`, `on<event>` handlers, booleans (present when true),
 * anything else as an attribute; `null`/`undefined`/`false` values are skipped.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|number|null|undefined|false|(Node|string)[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {any[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. @param {Element} el @param {...any} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A score: whole numbers plain, others with up to three decimals. @param {number} x */
export function score(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(3).replace(/0+$/, "");
}

/** A signed change, e.g. `+6` or `−2.5`. @param {number} x */
export function delta(x) {
  return (x < 0 ? "−" : "+") + score(Math.abs(x));
}

/** A timestamp in the reader's locale. @param {string} iso */
export function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** A status badge. @param {string} status */
export function badge(status) {
  return h("span", { class: `badge badge-${status.toLowerCase()}` }, status);
}

/** A stable colour for the n-th series of a chart. @param {number} n */
export function colour(n) {
  const palette = ["#1d4e89", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f6000", "#c2185b"];
  return n < palette.length ? palette[n] : `hsl(${(n * 137) % 360} 60% 40%)`;
}

/** Copies text to the clipboard; resolves to whether it worked. @param {string} text */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Tells screen-reader users about a change that happened without navigation. @param {string} text */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (el) el.textContent = text;
}
