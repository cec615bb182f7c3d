// @ts-check
/** @file Form building blocks: labelled fields with an error slot, API errors shown next
 * to the field they name (`extensions.field`), and the result form that fits a scoring
 * system (a league game's or a tournament board's). */

import { ApiError } from "./api.js";
import { h, announce } from "./dom.js";
import { requires } from "./catalogue.js";

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
 * @typedef {{ seat: number, label: string, player: { id: string, name: string } }} Seat
 * @typedef {{ id: string, number: number, status: string, seats: Seat[], result: any }} GameForResult
 */

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

/**
 * The result table for a game in the league's system, its columns chosen by the system's
 * `resultShape` and `requires` (the catalogue). `read()` returns the `GameResultInput`;
 * each control carries the GraphQL path of its value.
 * @param {GameForResult} game
 * @param {import("./catalogue.js").SystemInfo} info
 */
export function resultFields(game, info) {
  const shape = info.resultShape;
  const needs = (/** @type {string} */ field) => requires(info, field);
  // The ships-left rules are the ones where a player may surrender and the sides may agree a draw.
  const shipsLeft = needs("SHIPS_LEFT");
  const unitsLost = needs("UNITS_LOST");
  const kills = needs("KILLS");
  const eliminatedYear = needs("ELIMINATED_YEAR");
  const soloYear = needs("SOLO_YEAR");
  const earlierCentres = needs("EARLIER_CENTRES");
  const existing = game.result;
  /** @param {string} id */
  const prior = (id) => {
    if (!existing) return null;
    if (existing.entries) return existing.entries.find((/** @type {any} */ e) => e.player.id === id) ?? null;
    for (const [s, side] of existing.sides.entries()) {
      const p = side.players.find((/** @type {any} */ x) => x.player.id === id);
      if (p) return { ...p, side: s };
    }
    return null;
  };
  const k = game.seats.length;
  // Exactly two sides, or as many as there are players.
  const sideCount = needs("TWO_SIDES") ? 2 : k;
  /** @type {{ key: string, head: string, label: string }[]} the team columns the system needs */
  const teamColumns = [{ key: "points", head: "Points", label: "Points" }];
  if (unitsLost) teamColumns.push({ key: "units", head: "Units", label: "Units" }, { key: "lost", head: "Lost", label: "Units lost" });
  if (kills) teamColumns.push({ key: "kills", head: "Kills", label: "Kills" });
  if (shipsLeft) teamColumns.push({ key: "shipsLeft", head: "Ships left", label: "Ships left" });
  /** @type {string[]} */
  let heads;
  if (shape === "PLACEMENT") heads = ["Points"];
  else if (shape === "DIPLOMACY") {
    heads = ["Centres", "Eliminated", ...(eliminatedYear ? ["Year eliminated"] : []), "In draw",
      ...(soloYear ? ["Solo year"] : []), ...(earlierCentres ? ["Earlier centres"] : [])];
  } else heads = ["Side", ...teamColumns.map((column) => column.head), ...(shipsLeft ? ["Surrendered"] : [])];

  /** @type {{ seat: Seat, controls: Record<string, HTMLInputElement|HTMLSelectElement> }[]} */
  const rows = [];
  const body = h("tbody");
  for (const [i, seat] of game.seats.entries()) {
    const p = prior(seat.player.id);
    const who = `${seat.label}, ${seat.player.name}`;
    /** @type {Record<string, HTMLInputElement|HTMLSelectElement>} */
    const c = {};
    /** @type {HTMLElement[]} */
    const cells = [];
    if (shape === "PLACEMENT") {
      c.points = input("number", { step: "any", required: true, value: p?.points ?? "" });
      cells.push(cellControl(c.points, `result.placement[${i}].points`, `Points of ${who}`));
    } else if (shape === "DIPLOMACY") {
      const path = `result.diplomacy[${i}]`;
      c.centres = input("number", { min: 0, max: 34, step: 1, required: true, value: p?.centres ?? "" });
      c.eliminated = input("checkbox", { checked: Boolean(p?.eliminated) });
      cells.push(cellControl(c.centres, `${path}.centres`, `Supply centres of ${who}`));
      cells.push(cellControl(c.eliminated, `${path}.eliminated`, `${who} eliminated`));
      if (eliminatedYear) {
        c.eliminatedYear = input("number", { min: 1901, step: 1, value: p?.eliminatedYear ?? "" });
        cells.push(cellControl(c.eliminatedYear, `${path}.eliminatedYear`, `Year ${who} was eliminated`));
      }
      c.inDraw = input("checkbox", { checked: Boolean(p?.inDraw) });
      cells.push(cellControl(c.inDraw, `${path}.inDraw`, `${who} in the draw`));
      if (soloYear) {
        c.soloYear = input("number", { min: 1901, step: 1, value: p?.soloYear ?? "" });
        cells.push(cellControl(c.soloYear, `${path}.soloYear`, `Solo year of ${who}`));
      }
      if (earlierCentres) {
        c.earlierCentres = input("text", { inputmode: "numeric", placeholder: "e.g. 9, 8", value: (p?.earlierCentres ?? []).join(", ") });
        cells.push(cellControl(c.earlierCentres, `${path}.earlierCentres`, `Earlier centres of ${who}, latest year first`));
      }
    } else {
      const defaultSide = p ? p.side : sideCount === k ? i : Math.floor((i * sideCount) / k);
      c.side = /** @type {HTMLSelectElement} */ (
        h("select", {}, ...Array.from({ length: sideCount }, (_, s) => h("option", { value: s, selected: s === defaultSide }, `Side ${s + 1}`)))
      );
      cells.push(cellControl(c.side, `seat[${i}].side`, `Side of ${who}`));
      const defaults = { points: "", units: 1, lost: 0, kills: 0, shipsLeft: "" };
      for (const { key, label } of teamColumns) {
        const value = p?.[key] ?? defaults[/** @type {keyof typeof defaults} */ (key)];
        c[key] = input("number", { step: key === "points" ? "any" : 1, min: key === "units" ? 1 : 0, required: key === "points", value });
        cells.push(cellControl(c[key], `seat[${i}].${key}`, `${label} of ${who}`));
      }
      if (shipsLeft) {
        c.surrendered = input("checkbox", { checked: Boolean(p?.surrendered) });
        cells.push(cellControl(c.surrendered, `seat[${i}].surrendered`, `${who} surrendered`));
      }
    }
    rows.push({ seat, controls: c });
    body.append(h("tr", {}, h("th", { scope: "row" }, seat.label), h("td", {}, seat.player.name), ...cells.map((x) => h("td", {}, x))));
  }
  const draw = shipsLeft ? input("checkbox", { checked: Boolean(existing?.draw) }) : null;
  // A requirement's description starts with its path in the API ("players[i].centres: …"): the form shows the words.
  const requirements = h("ul", { class: "hint requirements" }, info.requires.map((r) => h("li", {}, r.description.replace(/^[^:]*: /, ""))));
  const element = h(
    "fieldset",
    { class: "result-fields" },
    h("legend", {}, `Result (${info.displayName})`),
    h("p", { class: "hint" }, info.rule),
    requirements,
    shape === "DIPLOMACY"
      ? h("p", { class: "hint" }, "In draw: leave every box empty for a draw of all survivors, tick the powers of a narrower draw, or tick one power alone for a concession to it.")
      : null,
    h("div", { class: "table-wrap" },
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Player"), ...heads.map((x) => h("th", { scope: "col" }, x)))), body)),
    draw ? field("Draw by mutual consent", draw, { field: "result.teams.draw" }) : null,
    h("p", { class: "field-error", id: "result-error", hidden: true }),
  );
  // Errors about the result as a whole land under the table.
  const anchor = h("span", { id: "result", "data-field": "result", hidden: true });
  element.prepend(anchor);

  /** @param {HTMLInputElement|HTMLSelectElement|undefined} el */
  const num = (el) => (!el || el.value === "" ? null : Number(el.value));
  /** @param {HTMLInputElement|HTMLSelectElement} el */
  const checked = (el) => /** @type {HTMLInputElement} */ (el).checked;
  /** "9, 8" → [9, 8]; anything not a whole number is sent as is for the server to explain. @param {HTMLInputElement|HTMLSelectElement|undefined} el */
  const counts = (el) => (!el || el.value.trim() === "" ? null : el.value.split(/[\s,;]+/).filter(Boolean).map(Number));

  /** Reads the `GameResultInput`; renames team controls to the paths the server will name. */
  function read() {
    if (shape === "PLACEMENT") {
      return { placement: rows.map((r) => ({ playerId: r.seat.player.id, points: num(r.controls.points) })) };
    }
    if (shape === "DIPLOMACY") {
      return {
        diplomacy: rows.map((r) => ({
          playerId: r.seat.player.id,
          centres: num(r.controls.centres),
          eliminated: checked(r.controls.eliminated),
          eliminatedYear: num(r.controls.eliminatedYear),
          inDraw: checked(r.controls.inDraw),
          soloYear: num(r.controls.soloYear),
          earlierCentres: counts(r.controls.earlierCentres),
        })),
      };
    }
    /** @type {Map<number, typeof rows>} */
    const bySide = new Map();
    for (const r of rows) {
      const s = Number(r.controls.side.value);
      bySide.set(s, [...(bySide.get(s) ?? []), r]);
    }
    const sides = [...bySide.entries()].sort((a, b) => a[0] - b[0]).map(([s, members], si) => ({
      name: `Side ${s + 1}`,
      players: members.map((r, pj) => {
        for (const key of Object.keys(r.controls)) {
          if (key !== "side") r.controls[key].dataset.field = `result.teams.sides[${si}].players[${pj}].${key}`;
        }
        return {
          playerId: r.seat.player.id,
          points: num(r.controls.points),
          ...(unitsLost ? { units: num(r.controls.units) ?? 1, lost: num(r.controls.lost) ?? 0 } : {}),
          ...(kills ? { kills: num(r.controls.kills) ?? 0 } : {}),
          ...(shipsLeft ? { shipsLeft: num(r.controls.shipsLeft), surrendered: checked(r.controls.surrendered) } : {}),
        };
      }),
    }));
    return { teams: { draw: draw ? draw.checked : false, sides } };
  }
  return { element, read };
}

/**
 * The report or correction form of a game or board, with the fields its system needs.
 * `send` gets the result, the reason (corrections) and the idempotency key; a refusal it
 * throws is shown next to the field it names.
 * @param {GameForResult} game
 * @param {"report"|"correct"} mode
 * @param {import("./catalogue.js").SystemInfo | string} info the system's catalogue entry, or its name when the app does not know it
 * @param {(variables: { result: any, reason?: string, idempotencyKey: string }) => Promise<void>} send
 */
export function resultForm(game, mode, info, send) {
  if (typeof info === "string") return h("p", { role: "alert" }, `This app does not know the scoring system ${info}.`);
  const result = resultFields(game, info);
  const reason = /** @type {HTMLTextAreaElement} */ (h("textarea", { required: true, rows: 2 }));
  const submit = h("button", { type: "submit", class: "primary" }, mode === "report" ? "Report result" : "Correct result");
  const form = h("form", { class: "result-form", novalidate: true, "aria-labelledby": "result-form-h" },
    h("h2", { id: "result-form-h" }, mode === "report" ? "Report the result" : "Correct the result"),
    formError(),
    result.element,
    mode === "correct" ? field("Reason for the correction", reason, { field: "reason", hint: "Kept in the log and shown in score histories." }) : null,
    submit);
  onSubmit(form, async (idempotencyKey) => {
    submit.setAttribute("disabled", "");
    try {
      await send({ result: result.read(), idempotencyKey, ...(mode === "correct" ? { reason: reason.value } : {}) });
      announce(mode === "report" ? "Result reported." : "Result corrected.");
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return form;
}
