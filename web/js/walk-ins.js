// @ts-check
/** @file Walk-ins (docs/tournaments.md#walk-ins-and-bulk-entry): a tournament's organiser
 * pastes or uploads a list of people, checks it (names that match registered players, bad
 * lines by number; a pasted list is checked as soon as the typing stops), and registers and
 * enters everyone with one button; the page then lists the players entered with the token
 * each new player signs in with, and links the tournament's sheet of sign-in QR codes. On an invite-only site
 * it also hands out invite links (signup.js). */

import { gql, session } from "./api.js";
import { h, replace, copy, announce } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors } from "./forms.js";
import { wideTable } from "./table.js";
import { invitePart } from "./signup.js";

/** @typedef {{ line: number, name: string, externalIds: { system: string, id: string }[],
 *   matches: { player: { id: string, name: string }, entered: boolean }[], sameNameAsLines: number[] }} PreviewLine */
/** @typedef {{ lines: PreviewLine[], problems: { line: number, field: string, message: string }[] }} Preview */

const FORMAT = "One person per line: a name, or a name and a World Diplomacy Reference id (Ann Lee,1234). A first line name,wdr,… names the columns.";

/** @type {import("./main.js").View} */
export async function walkInsView(main, [id]) {
  const { tournament } = await gql(Q.WALK_INS_TOURNAMENT, { id });
  if (!tournament) {
    replace(main, h("h1", {}, "Tournament not found"), h("p", {}, h("a", { href: "/tournaments" }, "See every tournament.")));
    return;
  }
  const role = session.role;
  const me = role?.kind === "player" ? role.id : null;
  const director = role?.kind === "admin" || tournament.organisers.some((/** @type {any} */ o) => o.id === me);
  const back = h("p", {}, h("a", { href: `/tournaments/${id}` }, `Back to ${tournament.name}`));
  if (!director) {
    replace(main, h("h1", {}, "Walk-ins"), h("p", {}, "This page is for the tournament's organisers. ", h("a", { href: "/signin" }, "Sign in.")), back);
    return;
  }
  const preview = h("section", { "aria-labelledby": "preview-h", "aria-live": "polite", id: "walk-ins-preview" });
  const result = h("section", { "aria-labelledby": "entered-h", id: "walk-ins-entered" });
  replace(main, h("h1", {}, `Walk-ins: ${tournament.name}`), back,
    listForm(id, (text, answer) => renderPreview(preview, result, id, text, answer)), preview, result, await invitePart());
}

/** The paste box and file upload; "Check the list" (or choosing a file) previews it.
 * @param {string} id @param {(text: string, preview: Preview) => void} previewed */
function listForm(id, previewed) {
  const list = /** @type {HTMLTextAreaElement} */ (h("textarea", { rows: 10, autocomplete: "off", spellcheck: "false" }));
  const file = /** @type {HTMLInputElement} */ (h("input", { type: "file", accept: ".csv,.txt,text/csv,text/plain" }));
  const form = h("form", { novalidate: true, "aria-labelledby": "list-h" },
    h("h2", { id: "list-h" }, "The list"),
    formError(),
    field("Names (paste)", list, { field: "list", hint: FORMAT }),
    field("Or a CSV file", file, { field: "file" }),
    h("button", { type: "submit", class: "primary" }, "Check the list"));
  // Only the newest check's answer is shown: an earlier one answering late (a typing pause's
  // check after a file was chosen) would replace a newer preview, or the list just entered.
  let asked = 0;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let pause;
  const check = async () => {
    clearTimeout(pause);
    const mine = ++asked;
    clearErrors(form);
    try {
      const text = list.value;
      const { walkInsPreview } = await gql(Q.WALK_INS_PREVIEW, { competitionId: id, list: text });
      if (mine === asked) previewed(text, walkInsPreview);
    } catch (error) {
      showError(form, error);
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void check();
  });
  // A pasted list is checked as soon as the typing stops (the button checks at once).
  list.addEventListener("input", () => {
    clearTimeout(pause);
    pause = setTimeout(() => void check(), 500);
  });
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    list.value = await chosen.text();
    await check();
  });
  return form;
}

/** What committing the list would do, with a picker per name that matches registered
 * players, and the one button that registers and enters everyone.
 * @param {HTMLElement} preview @param {HTMLElement} result @param {string} id @param {string} text @param {Preview} answer */
function renderPreview(preview, result, id, text, answer) {
  replace(result);
  const { lines, problems } = answer;
  /** @type {Map<number, HTMLSelectElement>} */
  const pickers = new Map();
  const rows = lines.map((line) => {
    const picker = matchPicker(line);
    if (picker) pickers.set(line.line, picker);
    return h("tr", { "data-line": line.line },
      h("td", {}, line.line), h("td", {}, line.name),
      h("td", {}, line.externalIds.map((e) => `${e.system} ${e.id}`).join(", ")),
      h("td", {}, picker ?? "New player", warnings(line)));
  });
  const count = lines.length;
  const commit = h("form", { novalidate: true, "aria-label": "Register and enter" }, formError(),
    h("button", { type: "submit", class: "primary", disabled: problems.length > 0 || count === 0 },
      `Register and enter ${count} ${count === 1 ? "player" : "players"}`));
  commit.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(commit);
    const useExisting = [...pickers].filter(([, p]) => p.value !== "").map(([line, p]) => ({ line, playerId: p.value }));
    // One submission at a time: a second press while the list is being registered would
    // find everyone registered already and show no tokens.
    const button = /** @type {HTMLButtonElement} */ (commit.querySelector("button[type=submit]"));
    if (button.disabled) return;
    button.disabled = true;
    try {
      const { walkIns } = await gql(Q.WALK_INS, { input: { competitionId: id, list: text, useExisting } });
      replace(preview);
      renderEntered(result, id, walkIns);
    } catch (error) {
      showError(commit, error);
      button.disabled = false;
    }
  });
  replace(preview, h("h2", { id: "preview-h" }, "Check"),
    problems.length === 0 ? null
      : h("div", { role: "alert" }, h("p", {}, `Fix ${problems.length === 1 ? "this line" : `these ${problems.length} lines`} first:`),
        h("ul", { class: "problems" }, problems.map((p) => h("li", {}, `Line ${p.line}: ${p.field}: ${p.message}`)))),
    h("p", {}, summary(lines)),
    count === 0 ? null : wideTable(["Line", "Name", "Ids", "Registered as"], rows, { class: "walk-ins" }),
    commit);
}

/** "30 people: 29 new players, 1 registered player, 2 names already registered."
 * @param {PreviewLine[]} lines */
function summary(lines) {
  const matching = lines.filter((l) => l.matches.length > 0).length;
  const people = `${lines.length} ${lines.length === 1 ? "person" : "people"}`;
  return matching === 0 ? `${people}, none of them registered yet.`
    : `${people}; ${matching} ${matching === 1 ? "name matches" : "names match"} a registered player: choose who they are.`;
}

/** For a name that matches registered players: new player (the default) or one of them.
 * @param {PreviewLine} line */
function matchPicker(line) {
  if (line.matches.length === 0) return null;
  return /** @type {HTMLSelectElement} */ (h("select", { "aria-label": `Line ${line.line}: ${line.name} is` },
    h("option", { value: "" }, "New player"),
    line.matches.map((m) => h("option", { value: m.player.id },
      `${m.player.name} (registered${m.entered ? ", entered already" : ""})`))));
}

/** Names repeated in the list. @param {PreviewLine} line */
function warnings(line) {
  if (line.sameNameAsLines.length === 0) return null;
  return h("p", { class: "hint" }, `Same name as line ${line.sameNameAsLines.join(", ")}.`);
}

/** The players entered, each new one with their token (shown only now) and a copy button.
 * @param {HTMLElement} result @param {string} id @param {any[]} walkIns */
function renderEntered(result, id, walkIns) {
  const registered = walkIns.filter((w) => w.registered);
  const status = h("span", { class: "copied", role: "status" });
  const all = registered.map((w) => `${w.player.name}\t${w.token}`).join("\n");
  const rows = walkIns.map((w) => h("tr", { "data-player": w.player.name },
    h("td", {}, w.line),
    h("td", {}, h("a", { href: `/players/${w.player.id}` }, w.player.name)),
    h("td", {}, w.registered ? "registered and entered" : w.entered ? "entered" : "entered already"),
    h("td", {}, w.token ? h("code", { class: "token" }, w.token) : "—")));
  replace(result, h("h2", { id: "entered-h" }, `Entered: ${walkIns.length} ${walkIns.length === 1 ? "player" : "players"}`),
    registered.length === 0 ? null : h("p", {},
      "Each new player signs in with their token, shown only now: the server keeps only its hash. ",
      h("button", { type: "button", onclick: async () => {
        status.textContent = (await copy(all)) ? "Copied." : "Copy failed: select the tokens and copy them.";
      } }, "Copy every name and token"), " ", status),
    wideTable(["Line", "Player", "Done", "Token"], rows, { class: "walked-in" }),
    h("p", {}, h("a", { href: `/tournaments/${id}/sign-in-sheet` }, "Print sign-in QR codes for every entrant")),
    h("p", {}, h("a", { href: `/tournaments/${id}` }, "Back to the tournament")));
  announce(`${walkIns.length} players entered.`);
  const heading = result.querySelector("h2");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }
}
