// @ts-check
/** @file The result form of a league game or a tournament board, built for its scoring
 * system: a card per seat whose fields follow the system's `resultShape` and `requires` (the
 * catalogue), the centre total against the board's, a review step before sending; each
 * control carries the GraphQL path of its value so a refusal lands next to it, and `read()`
 * gives the `GameResultInput` (docs/tournaments.md#result-entry). */

import { h, announce, replace } from "./dom.js";
import { requires } from "./catalogue.js";
import { cellControl, field, formError, input, onSubmit } from "./forms.js";

/**
 * @typedef {{ seat: number, label: string, player: { id: string, name: string } }} Seat
 * @typedef {{ id: string, number: number, status: string, seats: Seat[], result: any }} GameForResult
 * @typedef {Record<string, HTMLInputElement|HTMLSelectElement>} Controls
 * @typedef {{ seat: Seat, controls: Controls }} SeatRow
 */

/**
 * What a system's result form asks: its shape, the optional columns its `requires` names,
 * the team columns, the header of each column after seat and player, and (teams) how many
 * sides there are for `k` players.
 * @param {import("./catalogue.js").SystemInfo} info @param {number} k
 */
function resultLayout(info, k) {
  const shape = info.resultShape;
  const needs = (/** @type {string} */ field) => requires(info, field);
  // The ships-left rules are the ones where a player may surrender and the sides may agree a draw.
  const shipsLeft = needs("SHIPS_LEFT");
  const unitsLost = needs("UNITS_LOST");
  const kills = needs("KILLS");
  const eliminatedYear = needs("ELIMINATED_YEAR");
  const soloYear = needs("SOLO_YEAR");
  const earlierCentres = needs("EARLIER_CENTRES");
  // The most centres a result may hold in all, as the catalogue states it.
  const totalCentres = info.totalCentres ?? undefined;
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
  return { shape, totalCentres, shipsLeft, unitsLost, kills, eliminatedYear, soloYear, earlierCentres, sideCount, teamColumns, heads, k };
}

/** @typedef {ReturnType<typeof resultLayout>} Layout */

/** What a player's entry of an existing result was (with their side's index, teams), to
 * prefill a correction. @param {any} existing @param {string} id */
function priorEntry(existing, id) {
  if (!existing) return null;
  if (existing.entries) return existing.entries.find((/** @type {any} */ e) => e.player.id === id) ?? null;
  for (const [s, side] of existing.sides.entries()) {
    const p = side.players.find((/** @type {any} */ x) => x.player.id === id);
    if (p) return { ...p, side: s };
  }
  return null;
}

/**
 * A Diplomacy seat's controls: centres, eliminated, and what else the system requires.
 * @param {Layout} layout @param {number} i the seat's index @param {any} p its prior entry
 * @param {string} who @param {Controls} c @param {HTMLElement[]} cells
 */
function diplomacyCells(layout, i, p, who, c, cells) {
  const path = `result.diplomacy[${i}]`;
  c.centres = input("number", { min: 0, max: layout.totalCentres, step: 1, required: true, inputmode: "numeric", value: p?.centres ?? "" });
  c.eliminated = input("checkbox", { checked: Boolean(p?.eliminated) });
  cells.push(cellControl(c.centres, `${path}.centres`, `Supply centres of ${who}`));
  cells.push(cellControl(c.eliminated, `${path}.eliminated`, `${who} eliminated`));
  if (layout.eliminatedYear) {
    c.eliminatedYear = input("number", { min: 1901, step: 1, value: p?.eliminatedYear ?? "" });
    cells.push(cellControl(c.eliminatedYear, `${path}.eliminatedYear`, `Year ${who} was eliminated`));
  }
  c.inDraw = input("checkbox", { checked: Boolean(p?.inDraw) });
  cells.push(cellControl(c.inDraw, `${path}.inDraw`, `${who} in the draw`));
  if (layout.soloYear) {
    c.soloYear = input("number", { min: 1901, step: 1, value: p?.soloYear ?? "" });
    cells.push(cellControl(c.soloYear, `${path}.soloYear`, `Solo year of ${who}`));
  }
  if (layout.earlierCentres) {
    c.earlierCentres = input("text", { inputmode: "numeric", placeholder: "e.g. 9, 8", value: (p?.earlierCentres ?? []).join(", ") });
    cells.push(cellControl(c.earlierCentres, `${path}.earlierCentres`, `Earlier centres of ${who}, latest year first`));
  }
}

/**
 * A team seat's controls: its side, the team columns, and surrendered where ships are left.
 * @param {Layout} layout @param {number} i the seat's index @param {any} p its prior entry
 * @param {string} who @param {Controls} c @param {HTMLElement[]} cells
 */
function teamCells(layout, i, p, who, c, cells) {
  const { sideCount, k } = layout;
  const defaultSide = p ? p.side : sideCount === k ? i : Math.floor((i * sideCount) / k);
  c.side = /** @type {HTMLSelectElement} */ (
    h("select", {}, ...Array.from({ length: sideCount }, (_, s) => h("option", { value: s, selected: s === defaultSide }, `Side ${s + 1}`)))
  );
  cells.push(cellControl(c.side, `seat[${i}].side`, `Side of ${who}`));
  const defaults = { points: "", units: 1, lost: 0, kills: 0, shipsLeft: "" };
  for (const { key, label } of layout.teamColumns) {
    const value = p?.[key] ?? defaults[/** @type {keyof typeof defaults} */ (key)];
    c[key] = input("number", { step: key === "points" ? "any" : 1, min: key === "units" ? 1 : 0, required: key === "points", value });
    cells.push(cellControl(c[key], `seat[${i}].${key}`, `${label} of ${who}`));
  }
  if (layout.shipsLeft) {
    c.surrendered = input("checkbox", { checked: Boolean(p?.surrendered) });
    cells.push(cellControl(c.surrendered, `seat[${i}].surrendered`, `${who} surrendered`));
  }
}

/** One seat's row of controls. @param {Layout} layout @param {GameForResult} game @param {Seat} seat @param {number} i */
function seatRow(layout, game, seat, i) {
  const p = priorEntry(game.result, seat.player.id);
  const who = `${seat.label}, ${seat.player.name}`;
  /** @type {Controls} */
  const c = {};
  /** @type {HTMLElement[]} */
  const cells = [];
  if (layout.shape === "PLACEMENT") {
    c.points = input("number", { step: "any", required: true, value: p?.points ?? "" });
    cells.push(cellControl(c.points, `result.placement[${i}].points`, `Points of ${who}`));
  } else if (layout.shape === "DIPLOMACY") {
    diplomacyCells(layout, i, p, who, c, cells);
  } else {
    teamCells(layout, i, p, who, c, cells);
  }
  // A card per seat, each control under its visible name: the form fits a phone (docs/tournaments.md#result-entry).
  const card = h("fieldset", { class: "seat-card", "data-seat": i + 1 },
    h("legend", {}, h("span", { class: "seat-label" }, seat.label), " ", seat.player.name),
    ...cells.map((cell, j) => h("div", { class: `seat-field${cell.querySelector("input[type=checkbox]") ? " seat-check" : ""}` }, h("span", {}, layout.heads[j]), cell)));
  return { row: { seat, controls: c }, element: card };
}

/** @param {HTMLInputElement|HTMLSelectElement|undefined} el */
const num = (el) => (!el || el.value === "" ? null : Number(el.value));
/** @param {HTMLInputElement|HTMLSelectElement} el */
const checked = (el) => /** @type {HTMLInputElement} */ (el).checked;
/** "9, 8" → [9, 8]; anything not a whole number is sent as is for the server to explain. @param {HTMLInputElement|HTMLSelectElement|undefined} el */
const counts = (el) => (!el || el.value.trim() === "" ? null : el.value.split(/[\s,;]+/).filter(Boolean).map(Number));

/** The sides of a team result as the rows chose them; renames the team controls to the
 * paths the server will name. @param {Layout} layout @param {SeatRow[]} rows */
function readSides(layout, rows) {
  const { unitsLost, kills, shipsLeft } = layout;
  /** @type {Map<number, SeatRow[]>} */
  const bySide = new Map();
  for (const r of rows) {
    const s = Number(r.controls.side.value);
    bySide.set(s, [...(bySide.get(s) ?? []), r]);
  }
  return [...bySide.entries()].sort((a, b) => a[0] - b[0]).map(([s, members], si) => ({
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
}

/** The `GameResultInput` the rows hold. @param {Layout} layout @param {SeatRow[]} rows @param {HTMLInputElement|null} draw */
function readResult(layout, rows, draw) {
  if (layout.shape === "PLACEMENT") {
    return { placement: rows.map((r) => ({ playerId: r.seat.player.id, points: num(r.controls.points) })) };
  }
  if (layout.shape === "DIPLOMACY") {
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
  return { teams: { draw: draw ? draw.checked : false, sides: readSides(layout, rows) } };
}

/**
 * Keeps a Diplomacy form honest while it is typed: the centre total shown against the
 * board's, and a power typed to 0 centres marked eliminated (its year then asked).
 * @param {Layout} layout @param {SeatRow[]} rows @param {HTMLElement} total
 */
function watchCentres(layout, rows, total) {
  const update = () => {
    const sum = rows.reduce((acc, r) => acc + (num(r.controls.centres) ?? 0), 0);
    total.textContent = `Centres: ${sum} of ${layout.totalCentres}`;
    total.classList.toggle("over", layout.totalCentres !== undefined && sum > layout.totalCentres);
  };
  for (const { controls: c } of rows) {
    const eliminated = /** @type {HTMLInputElement} */ (c.eliminated);
    const askYear = () => c.eliminatedYear?.toggleAttribute("required", eliminated.checked);
    c.centres.addEventListener("input", () => {
      if (c.centres.value === "0") eliminated.checked = true;
      else if (c.centres.value !== "" && eliminated.dataset.implied) eliminated.checked = false;
      eliminated.dataset.implied = c.centres.value === "0" ? "yes" : "";
      askYear();
      update();
    });
    eliminated.addEventListener("change", askYear);
    askYear();
  }
  update();
}

/** What a form's result refuses before it is sent: a power's centres over the board's
 * total (next to its field), else centres adding up to more (under the seats).
 * @param {Layout} layout @param {SeatRow[]} rows @returns {{ control: HTMLElement | null, message: string } | null} */
function refusal(layout, rows) {
  const most = layout.totalCentres;
  if (layout.shape !== "DIPLOMACY" || most === undefined) return null;
  const over = rows.find((r) => (num(r.controls.centres) ?? 0) > most);
  if (over) return { control: over.controls.centres, message: `${over.controls.centres.value} is more than the ${most} centres on the board.` };
  const sum = rows.reduce((acc, r) => acc + (num(r.controls.centres) ?? 0), 0);
  return sum > most ? { control: null, message: `The centres add up to ${sum}, more than the ${most} on the board.` } : null;
}

/** A `GameResultInput` in the shape a recorded result has (`player: { id }`), to word it
 * as one. @param {any} input */
function asRecorded(input) {
  /** @param {any} e */
  const entry = (e) => ({ ...e, player: { id: e.playerId } });
  if (input.placement) return { entries: input.placement.map(entry) };
  if (input.diplomacy) return { entries: input.diplomacy.map(entry) };
  return { ...input.teams, sides: input.teams.sides.map((/** @type {any} */ side) => ({ ...side, players: side.players.map(entry) })) };
}

/**
 * A recorded result (the `ResultFields` fragment) in words, a line per seat in seat order, as
 * the review step words the form's entries.
 * @param {Seat[]} seats @param {any} result
 */
export function resultWords(seats, result) {
  return seats.map((seat) => {
    const e = priorEntry(result, seat.player.id);
    /** @type {string[]} */
    const parts = [];
    if (!e) parts.push("—");
    else if ("centres" in e) {
      parts.push(`${e.centres} centres`);
      if (e.eliminated) parts.push(`eliminated${e.eliminatedYear ? ` ${e.eliminatedYear}` : ""}`);
      if (e.inDraw) parts.push("in the draw");
      if (e.soloYear) parts.push(`solo ${e.soloYear}`);
    } else {
      if ("side" in e) parts.push(`Side ${e.side + 1}`);
      parts.push(`${e.points} points`);
      if (e.surrendered) parts.push("surrendered");
    }
    return `${seat.label}, ${seat.player.name}: ${parts.join(", ")}`;
  });
}

/**
 * The result fields for a game in the league's system, a card per seat, its fields chosen
 * by the system's `resultShape` and `requires` (the catalogue). `read()` returns the
 * `GameResultInput`; `refusal()` what is wrong before sending; `summary()` each seat's
 * entry in words; each control carries the GraphQL path of its value.
 * @param {GameForResult} game
 * @param {import("./catalogue.js").SystemInfo} info
 */
export function resultFields(game, info) {
  const layout = resultLayout(info, game.seats.length);
  const seats = game.seats.map((seat, i) => seatRow(layout, game, seat, i));
  const rows = seats.map((s) => s.row);
  const draw = layout.shipsLeft ? input("checkbox", { checked: Boolean(game.result?.draw) }) : null;
  const total = layout.shape === "DIPLOMACY" && layout.totalCentres !== undefined ? h("p", { class: "centre-total", role: "status" }) : null;
  if (total) watchCentres(layout, rows, total);
  // A requirement's description starts with its path in the API ("players[i].centres: …"): the form shows the words.
  const requirements = h("ul", { class: "hint requirements" }, info.requires.map((r) => h("li", {}, r.description.replace(/^[^:]*: /, ""))));
  const element = h(
    "fieldset",
    { class: "result-fields" },
    h("legend", {}, `Result (${info.displayName})`),
    h("p", { class: "hint" }, info.rule),
    requirements,
    layout.shape === "DIPLOMACY"
      ? h("p", { class: "hint" }, "0 centres marks a power eliminated. In draw: leave every box empty for a draw of all survivors, tick the powers of a narrower draw, or tick one power alone for a concession to it.")
      : null,
    h("div", { class: "seat-cards" }, seats.map((s) => s.element)),
    total,
    draw ? field("Draw by mutual consent", draw, { field: "result.teams.draw" }) : null,
    h("p", { class: "field-error", id: "result-error", hidden: true, tabindex: "-1" }),
  );
  // Errors about the result as a whole land under the seats.
  const anchor = h("span", { id: "result", "data-field": "result", hidden: true });
  element.prepend(anchor);
  return {
    element,
    read: () => readResult(layout, rows, draw),
    refusal: () => refusal(layout, rows),
    summary: () => resultWords(game.seats, asRecorded(readResult(layout, rows, draw))),
  };
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
  const reasonField = mode === "correct" ? field("Reason for the correction", reason, { field: "reason", hint: "Kept in the log and shown wherever the score appears." }) : null;
  const check = h("button", { type: "submit", class: "primary" }, "Check the result");
  const submit = h("button", { type: "submit", class: "primary" }, "Submit");
  const entries = h("ul", { class: "review-entries" });
  const change = h("button", { type: "button", onclick: () => editing(true) }, "Change");
  // The review step: every seat's entry in words, then Submit or Change (docs/tournaments.md#result-entry).
  const review = h("section", { class: "review", hidden: true, "aria-labelledby": "review-h" },
    h("h3", { id: "review-h", tabindex: "-1" }, "Check the result"),
    entries,
    reasonField ? h("p", { class: "reason" }, "") : null,
    h("div", { class: "actions" }, submit, change));
  /** Shows the fields (true) or the review (false). @param {boolean} on */
  const editing = (on) => {
    for (const el of [result.element, reasonField, check]) el?.toggleAttribute("hidden", !on);
    review.toggleAttribute("hidden", on);
    if (on) /** @type {HTMLElement | null} */ (result.element.querySelector("input, select"))?.focus();
  };
  const form = h("form", { class: "result-form", novalidate: true, "aria-labelledby": "result-form-h" },
    h("h2", { id: "result-form-h" }, mode === "report" ? "Report the result" : "Correct the result"),
    formError(),
    result.element,
    reasonField,
    check,
    review);
  onSubmit(form, async (idempotencyKey) => {
    if (review.hidden) {
      const wrong = result.refusal();
      if (wrong) {
        const at = wrong.control ?? /** @type {HTMLElement} */ (form.querySelector("#result"));
        const slot = /** @type {HTMLElement} */ (document.getElementById(`${at.id}-error`));
        slot.textContent = wrong.message;
        slot.removeAttribute("hidden");
        at.setAttribute("aria-invalid", "true");
        (wrong.control ?? slot).focus();
        return;
      }
      replace(entries, ...result.summary().map((line) => h("li", {}, line)));
      const said = review.querySelector(".reason");
      if (said) said.textContent = `Reason: ${reason.value.trim()}`;
      editing(false);
      /** @type {HTMLElement} */ (review.querySelector("h3")).focus();
      return;
    }
    submit.setAttribute("disabled", "");
    try {
      await send({ result: result.read(), idempotencyKey, ...(mode === "correct" ? { reason: reason.value } : {}) });
      announce(mode === "report" ? "Result reported." : "Result corrected.");
    } catch (error) {
      // A refusal names a field: show the fields again for it to land next to.
      editing(true);
      throw error;
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return form;
}

// Live progress hook (docs/tournaments.md#live-progress): the board page starts a Diplomacy
// result form from the board's last centre counts. Kept apart from the form's own code.

/**
 * Fills a Diplomacy result form from the last counts: seat i's centres, eliminated when 0,
 * and the year it fell where the system asks for it.
 * @param {HTMLElement} form @param {number[]} counts @param {(number|null)[]} eliminatedYears
 */
export function fillFromCounts(form, counts, eliminatedYears) {
  counts.forEach((centres, i) => {
    const control = (/** @type {string} */ key) => form.querySelector(`[data-field="result.diplomacy[${i}].${key}"]`);
    const set = (/** @type {string} */ key, /** @type {(el: HTMLInputElement) => void} */ apply) => {
      const el = control(key);
      if (el instanceof HTMLInputElement) {
        apply(el);
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
    };
    set("centres", (el) => { el.value = String(centres); });
    set("eliminated", (el) => { el.checked = centres === 0; });
    set("eliminatedYear", (el) => { el.value = centres === 0 && eliminatedYears[i] !== null ? String(eliminatedYears[i]) : ""; });
  });
}
