// @ts-check
/** @file Form building blocks: labelled fields with an error slot, API errors shown next
 * to the field they name (`extensions.field`), pickers whose hint explains the choice, forms
 * kept across a refresh of the page's data, a button's command, and a form's submission with
 * its idempotency key. (The result form of a game or board: result-form.js.) */

import { ApiError } from "./api.js";
import { h, announce } from "./dom.js";

let uid = 0;

/**
 * A labelled control with a hint and an error slot, wired for screen readers.
 * `field` is the GraphQL input path errors name (e.g. `playersPerGame`).
 * @param {string} label
 * @param {HTMLElement} control
 * @param {{ field?: string, hint?: string }} [options]
 */
export function field(label, control, { field: path, hint } = {}) {
  const id = control.id || `f${++uid}`;
  control.id = id;
  if (path) control.dataset.field = path;
  const errorId = `${id}-error`;
  const hintId = hint ? `${id}-hint` : null;
  control.setAttribute("aria-describedby", [hintId, errorId].filter(Boolean).join(" "));
  const isCheck = control instanceof HTMLInputElement && control.type === "checkbox";
  return h(
    "div",
    { class: isCheck ? "field field-check" : "field" },
    isCheck ? control : null,
    h("label", { for: id }, label),
    isCheck ? null : control,
    hint ? h("p", { class: "hint", id: hintId }, hint) : null,
    h("p", { class: "field-error", id: errorId, hidden: true }),
  );
}

/** An error slot for a control that sits in a table cell. @param {HTMLElement} control @param {string} path @param {string} label */
export function cellControl(control, path, label) {
  const id = `f${++uid}`;
  control.id = id;
  control.dataset.field = path;
  control.setAttribute("aria-label", label);
  control.setAttribute("aria-describedby", `${id}-error`);
  return h("div", { class: "cell-field" }, control, h("p", { class: "field-error", id: `${id}-error`, hidden: true }));
}

/** Removes every error shown in a form. @param {HTMLElement} form */
export function clearErrors(form) {
  for (const el of form.querySelectorAll(".field-error, .form-error")) {
    el.textContent = "";
    el.setAttribute("hidden", "");
  }
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

/** Paths to try for an error's field, most specific first: `a.b[2].c`, `a.b[2]`, `a.b`, `a`. @param {string} path */
function candidates(path) {
  const out = [];
  let p = path;
  while (p) {
    out.push(p);
    if (p.startsWith("input.")) out.push(p.slice(6));
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    p = cut > 0 ? p.slice(0, cut) : "";
  }
  return out;
}

/** The message without the field name the server puts in front. @param {import("./api.js").GraphQLErrorEntry} e */
function messageOf(e) {
  const f = e.extensions?.field;
  return f && e.message.startsWith(`${f}: `) ? e.message.slice(f.length + 2) : e.message;
}

/** @type {Record<string, string>} */
const CODE_TEXT = {
  UNAUTHENTICATED: "Please sign in again: the server does not accept this token.",
  FORBIDDEN: "You may not do this.",
  NETWORK: "The server cannot be reached. Try again.",
  INTERNAL: "The server failed. Try again later.",
};

/**
 * Shows an error next to the field it names, or at the form's top. Returns whether it was
 * an {@link ApiError} (anything else is rethrown).
 * @param {HTMLElement} form
 * @param {unknown} error
 */
export function showError(form, error) {
  if (!(error instanceof ApiError)) throw error;
  clearErrors(form);
  let first = null;
  for (const e of error.errors) {
    const path = e.extensions?.field;
    /** @type {HTMLElement|null} */
    let control = null;
    for (const candidate of path ? candidates(path) : []) {
      control = form.querySelector(`[data-field="${CSS.escape(candidate)}"]`);
      if (control) break;
    }
    const code = e.extensions?.code ?? "";
    const text = CODE_TEXT[code] ?? messageOf(e);
    const slot = control
      ? document.getElementById(`${control.id}-error`)
      : form.querySelector(".form-error");
    if (!slot) continue;
    slot.textContent = slot.textContent ? `${slot.textContent} ${text}` : text;
    slot.removeAttribute("hidden");
    if (control) control.setAttribute("aria-invalid", "true");
    first ??= control ?? slot;
  }
  if (first instanceof HTMLElement) first.focus();
  return true;
}

/**
 * Marks every empty required control of a form; returns whether there was none. (The
 * browser's own validation bubbles are off, so that out-of-range values reach the server
 * and come back with its explanation next to the field.)
 * @param {HTMLElement} form
 */
export function requireFilled(form) {
  let ok = true;
  for (const el of form.querySelectorAll("input[required], textarea[required]")) {
    const control = /** @type {HTMLInputElement} */ (el);
    if (control.value.trim() !== "") continue;
    const slot = document.getElementById(`${control.id}-error`);
    if (slot) {
      slot.textContent = "Required.";
      slot.removeAttribute("hidden");
    }
    control.setAttribute("aria-invalid", "true");
    if (ok) control.focus();
    ok = false;
  }
  return ok;
}

/** The form-level error slot (put it first in a form). */
export function formError() {
  return h("p", { class: "form-error", role: "alert", hidden: true, tabindex: "-1" });
}

/**
 * A `<select>` of `items`, each option's value, text and (optional) title given by `option`.
 * @template T
 * @param {T[]} items
 * @param {(item: T) => { value: string, text: string, title?: string }} option
 */
export function selectOf(items, option) {
  return /** @type {HTMLSelectElement} */ (h("select", {}, items.map((item) => {
    const { value, text, title } = option(item);
    return h("option", { value, title }, text);
  })));
}

/**
 * A field whose hint says what the chosen value means: `explain()` gives the hint's text
 * for the control's current value (null: leave it), shown now and after every change.
 * @param {string} label @param {HTMLElement} control @param {string} path @param {() => string|null} explain
 */
export function explainedField(label, control, path, explain) {
  const element = field(label, control, { field: path, hint: " " });
  const hint = /** @type {HTMLElement} */ (element.querySelector(".hint"));
  const show = () => {
    const text = explain();
    if (text !== null) hint.textContent = text;
  };
  control.addEventListener("change", show);
  show();
  return element;
}

/**
 * Forms a reader may be filling in that survive a refresh of the page's data: `keep(key,
 * basis, build)` gives the element built for `key` while `basis` stays the same, and builds
 * a new one when it changes.
 */
export function keeper() {
  /** @type {Map<string, { signature: string, element: HTMLElement }>} */
  const kept = new Map();
  /** @param {string} key @param {unknown} basis @param {() => HTMLElement} build */
  return (key, basis, build) => {
    const signature = JSON.stringify(basis);
    const found = kept.get(key);
    if (found && found.signature === signature) return found.element;
    const element = build();
    kept.set(key, { signature, element });
    return element;
  };
}

/**
 * A button's command: `run` sends it; a refusal is shown in `where` (and changed nothing),
 * otherwise `done` is announced and `then` runs (a refresh).
 * @param {HTMLElement} where @param {() => Promise<unknown>} run @param {string} done @param {() => Promise<void>} then
 */
export async function command(where, run, done, then) {
  clearErrors(where);
  try {
    await run();
  } catch (error) {
    showError(where, error);
    return;
  }
  announce(done);
  await then();
}

/** An `<input>` of a type. @param {string} type @param {Record<string, any>} [attrs] */
export const input = (type, attrs = {}) => /** @type {HTMLInputElement} */ (h("input", { type, ...attrs }));

/** A number field's value, null when empty. @param {HTMLInputElement} el */
export const numberOf = (el) => (el.value === "" ? null : Number(el.value));

/**
 * What a competition plays, the first fields of the create-league and create-tournament
 * forms: name, game, game version and the scoring system (picked from the catalogue, its
 * rule shown under it). `read()` gives those settings as the create inputs name them.
 * @param {import("./catalogue.js").Catalogue} cat
 */
export function competitionFields(cat) {
  const name = input("text", { required: true });
  const game = input("text", { required: true, value: "Diplomacy" });
  const gameVersion = input("text", { placeholder: "optional" });
  const system = /** @type {HTMLSelectElement} */ (h("select", {}, cat.systems.map((info) => h("option", { value: info.system }, info.displayName))));
  const systemField = field("Scoring system", system, { field: "scoringSystem", hint: " " });
  const systemRule = /** @type {HTMLElement} */ (systemField.querySelector(".hint"));
  return {
    system,
    systemRule,
    fields: [field("Name", name, { field: "name" }), field("Game", game, { field: "game" }),
      field("Game version", gameVersion, { field: "gameVersion" }), systemField],
    read: () => ({ name: name.value.trim(), game: game.value.trim(), gameVersion: gameVersion.value.trim() || null, scoringSystem: system.value }),
  };
}

/**
 * Wires a form's submission: empty required fields are marked, and a refusal `send` throws
 * is shown next to the field it names. `send` gets an idempotency key: a resubmission after
 * a lost answer reuses it, so it appends nothing twice; an answered submission (done or
 * refused) is over, so the next one is a new command with a fresh key (a key reused for
 * other values would be refused, docs/api.md#idempotency-keys).
 * @param {HTMLElement} form
 * @param {(idempotencyKey: string) => Promise<void>} send
 */
export function onSubmit(form, send) {
  let idempotencyKey = crypto.randomUUID();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!requireFilled(form)) return;
    try {
      await send(idempotencyKey);
      idempotencyKey = crypto.randomUUID();
    } catch (error) {
      showError(form, error);
      if (!(error instanceof ApiError) || error.code !== "NETWORK") idempotencyKey = crypto.randomUUID();
    }
  });
}
