// @ts-check
/** @file Teams (docs/tournaments.md#teams): the tournament page's "Teams" section — the team
 * standings over the boards finished so far with each team's members, and for a director,
 * one step away in a <details>, the forms that create a team, put entrants in and take them
 * out, dissolve a team and set the team rules. Lists, not tables, so a phone never scrolls
 * sideways. */

import { gql } from "./api.js";
import { h, replace, score } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, numberOf, onSubmit, selectOf } from "./forms.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** The team rules in words. @param {any} rules */
function rulesWords(rules) {
  const rounds = rules.teamRounds === null ? "every round is a team round" : `team rounds: ${rules.teamRounds.join(", ") || "none"}`;
  const basis = rules.basis === "ROUND" ? "round scores" : "board scores";
  const counted = rules.best === null ? `the sum of members' ${basis}` : `the best ${rules.best} ${basis}`;
  const size = rules.maxSize === null ? "" : ` At most ${rules.maxSize} members a team.`;
  return `Team-mates never share a board in a team round (${rounds}); a team scores ${counted}.${size}`;
}

/** The team standings, each team with its members. @param {any} t */
function standingsList(t) {
  return h("ol", { class: "team-standings" }, t.teamStandings.map((/** @type {any} */ line) => h("li", {},
    h("strong", {}, `${line.rank}. ${line.team.name}`), ` — ${score(line.total)} points`,
    h("br"), line.team.members.length === 0 ? "No members yet." : line.team.members.map((/** @type {any} */ m) => m.name).join(", "))));
}

/** A director's forms for one team: put an entrant in, take a member out, dissolve.
 * @param {TournamentPage} page @param {any} team @param {HTMLElement} where */
function teamForms(page, team, where) {
  const { t } = page;
  const inTeam = new Set(t.teams.flatMap((/** @type {any} */ tm) => tm.members.map((/** @type {any} */ m) => m.id)));
  const free = t.entrants.filter((/** @type {any} */ e) => !inTeam.has(e.player.id));
  const player = selectOf(free, (/** @type {any} */ e) => ({ value: e.player.id, text: e.player.name }));
  const add = h("form", { class: "add-team-member" }, formError(),
    field(`Entrant for ${team.name}`, player, { field: "playerId" }),
    h("button", { type: "submit", disabled: free.length === 0 }, `Add to ${team.name}`));
  onSubmit(add, async (idempotencyKey) => {
    await gql(Q.ADD_TEAM_MEMBER, { tournamentId: page.id, number: team.number, playerId: player.value, idempotencyKey });
    await page.reload();
  });
  return h("li", {}, h("strong", {}, team.name),
    h("ul", {}, team.members.map((/** @type {any} */ m) => h("li", {}, m.name, " ",
      h("button", { type: "button", class: "secondary", "aria-label": `Take out ${m.name} from ${team.name}`,
        onclick: () => page.act(where, Q.REMOVE_TEAM_MEMBER, { number: team.number, playerId: m.id }, `${m.name} taken out of ${team.name}.`) }, "Take out")))),
    add,
    h("button", { type: "button", class: "secondary", "aria-label": `Dissolve ${team.name}`,
      onclick: () => page.act(where, Q.DISSOLVE_TEAM, { number: team.number }, `${team.name} dissolved.`) }, "Dissolve"));
}

/** A director's form creating a team. @param {TournamentPage} page */
function createForm(page) {
  const name = input("text", { required: true, placeholder: "North" });
  const form = h("form", { class: "create-team" }, formError(),
    field("Team name", name, { field: "name" }),
    h("button", { type: "submit" }, "Create team"));
  onSubmit(form, async (idempotencyKey) => {
    await gql(Q.CREATE_TEAM, { tournamentId: page.id, name: name.value, idempotencyKey });
    /** @type {HTMLFormElement} */ (form).reset();
    await page.reload();
  });
  return form;
}

/** A director's form setting the team rules. @param {TournamentPage} page */
function rulesForm(page) {
  const rules = page.t.teamRules;
  const maxSize = input("number", { min: "2", value: rules.maxSize ?? "" });
  const rounds = input("text", { value: rules.teamRounds?.join(", ") ?? "", placeholder: "every round" });
  const basis = selectOf(["BOARD", "ROUND"], (b) => ({ value: b, text: b === "BOARD" ? "Board scores" : "Round scores" }));
  basis.value = rules.basis;
  const best = input("number", { min: "1", value: rules.best ?? "", placeholder: "all" });
  const form = h("form", { class: "team-rules" }, formError(),
    field("Most members a team (empty: no limit)", maxSize, { field: "maxSize" }),
    field("Team rounds (e.g. 2, 3; empty: every round)", rounds, { field: "teamRounds" }),
    field("A team scores its members'", basis, { field: "basis" }),
    field("Best scores counted (empty: all)", best, { field: "best" }),
    h("button", { type: "submit" }, "Save team rules"));
  onSubmit(form, async () => {
    const teamRounds = rounds.value.trim() === "" ? null : rounds.value.split(",").map((r) => Number(r.trim()));
    await gql(Q.CHANGE_TEAM_RULES, { tournamentId: page.id, rules: { maxSize: numberOf(maxSize), teamRounds, basis: basis.value, best: numberOf(best) } });
    await page.reload();
  });
  return form;
}

/** The page's "Teams" section: hidden from spectators while there is no team.
 * @param {HTMLElement} section @param {TournamentPage} page */
export function renderTeams(section, page) {
  const { t } = page;
  section.hidden = t.teams.length === 0 && !page.director;
  if (section.hidden) return replace(section);
  // The director's <details> stays as they left it across refreshes (open while no team).
  const wasOpen = section.querySelector("#manage-teams")?.hasAttribute("open");
  const manage = h("div", { id: "team-forms" });
  if (page.director) {
    replace(manage,
      page.keep("create-team", t.teams.length, () => createForm(page)),
      h("ul", { class: "teams" }, t.teams.map((/** @type {any} */ team) => teamForms(page, team, manage))),
      page.keep("team-rules", t.teamRules, () => rulesForm(page)));
  }
  replace(section,
    h("h2", { id: "teams-h" }, "Teams"),
    h("p", {}, rulesWords(t.teamRules)),
    t.teams.length === 0 ? h("p", {}, "No teams yet.") : standingsList(t),
    page.director ? h("details", { id: "manage-teams", class: "one-step", ...((wasOpen ?? t.teams.length === 0) ? { open: true } : {}) },
      h("summary", {}, "Manage teams"), manage) : null);
}
