// @ts-check
/** @file Keep-apart pairs (docs/tournaments.md#rulings): on the account page, a player's own
 * permanent keep-apart list (the players they never share a board with, carried to every
 * round they are seeded in; shown to the player and the site admin only); on the tournament
 * page, for a director, the pairs in force for the next seeding, each removable, and a form
 * keeping two entrants apart. Lists, not tables, so a phone never scrolls sideways. */

import { gql } from "./api.js";
import { h, replace, announce } from "./dom.js";
import { command, field, formError, input, onSubmit } from "./forms.js";
import * as Q from "./queries.js";
import { allPlayers, playerSelect } from "./tournament-common.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */
/** @typedef {import("./tournament-common.js").PlayerRef} PlayerRef */

/** The account page's "Keep apart" section: the list with a Remove button per player, and a
 * form adding one. @param {{ id: string, name: string }} player @param {boolean} self */
export function permanentKeepApartSection(player, self) {
  const section = h("section", { "aria-labelledby": "keep-apart-h", id: "keep-apart" });
  const render = async () => {
    const [{ player: read }, everyone] = await Promise.all([gql(Q.PERMANENT_KEEP_APART, { id: player.id }), allPlayers()]);
    /** @type {{ player: PlayerRef, reason: string | null }[]} */
    const list = read?.keepApart ?? [];
    const listed = new Set(list.map((e) => e.player.id));
    const others = everyone.filter((p) => p.id !== player.id && !listed.has(p.id));
    replace(section,
      h("h2", { id: "keep-apart-h" }, "Keep apart"),
      h("p", { class: "hint" }, self
        ? "Players you are never seated with at a tournament board. Only you and the site admin see this list."
        : `Players ${player.name} is never seated with at a tournament board.`),
      formError(),
      list.length === 0 ? h("p", {}, "Nobody.") : h("ul", { class: "keep-apart" }, list.map((e) => h("li", {},
        h("strong", {}, e.player.name), e.reason ? `: ${e.reason}` : null, " ",
        h("button", { type: "button", class: "secondary", "aria-label": `Remove ${e.player.name} from the keep-apart list`,
          onclick: () => command(section, () => change(player.id, e.player.id, false, null), `${e.player.name} removed from the keep-apart list.`, render) },
        "Remove")))),
      addForm(player.id, others, render));
  };
  void render();
  return section;
}

/** @param {string} playerId @param {string} otherId @param {boolean} keep @param {string | null} reason */
function change(playerId, otherId, keep, reason) {
  return gql(Q.CHANGE_PERMANENT_KEEP_APART, { playerId, otherId, keep, reason });
}

/** The form putting a player on the list. @param {string} playerId @param {PlayerRef[]} others @param {() => Promise<void>} reload */
function addForm(playerId, others, reload) {
  const other = playerSelect(others, "Choose a player");
  other.required = true;
  const reason = input("text", { autocomplete: "off" });
  const form = h("form", { class: "keep-apart-add" }, formError(),
    field("Player to keep apart from", other, { field: "otherId" }),
    field("Reason (optional, only you and the site admin see it)", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Add to keep-apart list"));
  onSubmit(form, async () => {
    const name = other.selectedOptions[0]?.textContent ?? "";
    await change(playerId, other.value, true, reason.value || null);
    announce(`${name} added to the keep-apart list.`);
    await reload();
  });
  return form;
}

/** The tournament page's "Keep-apart pairs" section, for a director while a round is left to
 * seed: the pairs in force with a button removing each, and a form adding one.
 * @param {HTMLElement} section @param {TournamentPage} page */
export function renderKeepApart(section, page) {
  const { t } = page;
  section.hidden = !page.director || t.nextRound === null;
  if (section.hidden) {
    replace(section);
    return;
  }
  const pairs = /** @type {PlayerRef[][]} */ (t.keepApart);
  replace(section,
    h("h2", { id: "keep-apart-h" }, "Keep-apart pairs"),
    h("p", { class: "hint" }, "Never seated on one board from the next seeding on. Players' own keep-apart lists are added when a round is seeded."),
    formError(),
    pairs.length === 0 ? h("p", {}, "No pairs.") : h("ul", { class: "keep-apart" }, pairs.map(([a, b]) => h("li", {},
      `${a.name} and ${b.name} `,
      h("button", { type: "button", class: "secondary", "aria-label": `Stop keeping ${a.name} and ${b.name} apart`,
        onclick: () => page.act(section, Q.CHANGE_KEEP_APART, { firstId: a.id, secondId: b.id, keep: false, reason: null }, `${a.name} and ${b.name} are no longer kept apart.`) },
      "Stop")))),
    page.keep("keep-apart-pair", [t.version], () => pairForm(page)));
}

/** A director's form keeping two entrants apart. @param {TournamentPage} page */
function pairForm(page) {
  const entrants = page.t.entrants.map((/** @type {any} */ e) => e.player);
  const first = playerSelect(entrants, "Choose an entrant");
  const second = playerSelect(entrants, "Choose an entrant");
  first.required = second.required = true;
  const reason = input("text", { autocomplete: "off" });
  const form = h("form", { class: "keep-apart-pair" }, formError(),
    field("First player", first, { field: "firstId" }),
    field("Second player", second, { field: "secondId" }),
    field("Reason (optional)", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Keep apart"));
  onSubmit(form, async () => {
    await gql(Q.CHANGE_KEEP_APART, { tournamentId: page.id, firstId: first.value, secondId: second.value, keep: true, reason: reason.value || null });
    /** @type {HTMLFormElement} */ (form).reset();
    announce("The pair is kept apart from the next seeding on.");
    await page.reload();
  });
  return form;
}
