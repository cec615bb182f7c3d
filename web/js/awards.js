// @ts-check
/** @file Best Country and awards (docs/tournaments.md#best-country-and-awards): the tournament
 * page's "Best countries" section (each power's leaders over the boards finished so far, the
 * rule, the named awards; for a director the forms that give and revoke an award and change
 * the rule), and the projector page's slide of the same leaders. Lists, not tables, so a
 * phone never scrolls sideways. */

import { gql } from "./api.js";
import { h, replace, score } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, input, onSubmit, selectOf } from "./forms.js";

/** @typedef {import("./tournament-common.js").TournamentPage} TournamentPage */

/** The rule in words. @param {any} rule */
function ruleWords(rule) {
  const by = rule.criterion === "CENTRES" ? "by centres, then score" : "by score, then centres";
  return `Decided ${by}; ${rule.excludeTopBoards ? "top boards do not count" : "every board counts"}.`;
}

/** One leader in words. @param {any} l */
function leaderText(l) {
  return `${l.player.name} — ${score(l.score)} points, ${l.centres} centres (round ${l.round}, board ${l.boardNumber})${l.tied ? ", shared" : ""}`;
}

/** Each power with its leaders (those without one yet say so). @param {any[]} best */
export function bestCountriesList(best) {
  return h("ul", { class: "best-countries" }, best.map((p) => h("li", {},
    h("strong", {}, `Best ${p.power}: `),
    p.leaders.length === 0 ? "no finished board yet" : p.leaders.map(leaderText).join("; "))));
}

/** The awards standing, each with a director's Revoke button. @param {TournamentPage} page @param {HTMLElement} where */
function awardsList(page, where) {
  const { t } = page;
  if (t.awards.length === 0) return h("p", {}, "No named awards yet.");
  return h("ul", { class: "awards" }, t.awards.map((/** @type {any} */ a) => h("li", {},
    h("strong", {}, a.name), ` — ${a.player.name}`, a.power ? ` (${a.power})` : "", a.reason ? `: ${a.reason}` : "",
    page.director ? h("button", { type: "button", class: "secondary", "aria-label": `Revoke award ${a.number}, ${a.name}`,
      onclick: () => page.act(where, Q.REVOKE_AWARD, { number: a.number }, `Award ${a.number} revoked.`) }, "Revoke") : null)));
}

/** A director's form giving an award. @param {TournamentPage} page */
function giveForm(page) {
  const { t } = page;
  const name = input("text", { required: true, placeholder: "Best Diplomat" });
  const player = selectOf(t.entrants, (/** @type {any} */ e) => ({ value: e.player.id, text: e.player.name }));
  const power = selectOf(["", ...t.seatLabels], (/** @type {string} */ s) => ({ value: s, text: s === "" ? "No power" : s }));
  const reason = input("text", {});
  const form = h("form", { class: "give-award" }, formError(),
    field("Award", name, { field: "name" }),
    field("Player", player, { field: "playerId" }),
    field("For the power", power, { field: "power" }),
    field("Reason (optional)", reason, { field: "reason" }),
    h("button", { type: "submit" }, "Give award"));
  onSubmit(form, async (idempotencyKey) => {
    await gql(Q.GIVE_AWARD, {
      tournamentId: page.id, name: name.value, playerId: player.value,
      power: power.value || null, reason: reason.value || null, idempotencyKey,
    });
    /** @type {HTMLFormElement} */ (form).reset();
    await page.reload();
  });
  return form;
}

/** A director's form changing the Best Country rule. @param {TournamentPage} page */
function ruleForm(page) {
  const rule = page.t.bestCountryRule;
  const criterion = selectOf(["SCORE", "CENTRES"], (c) => ({ value: c, text: c === "SCORE" ? "Highest score" : "Most centres" }));
  criterion.value = rule.criterion;
  const excludeTop = input("checkbox", { checked: rule.excludeTopBoards });
  const form = h("form", { class: "best-country-rule" }, formError(),
    field("Best Country by", criterion, { field: "criterion" }),
    field("Top boards do not count", excludeTop, { field: "excludeTopBoards" }),
    h("button", { type: "submit" }, "Save Best Country rule"));
  onSubmit(form, async () => {
    await gql(Q.CHANGE_BEST_COUNTRY_RULE, { tournamentId: page.id, criterion: criterion.value, excludeTopBoards: excludeTop.checked });
    await page.reload();
  });
  return form;
}

/** The page's "Best countries" section. @param {HTMLElement} section @param {TournamentPage} page */
export function renderBestCountries(section, page) {
  const { t } = page;
  const awards = h("div", { id: "awards" });
  replace(awards, h("h3", {}, "Awards"), awardsList(page, awards));
  replace(section,
    h("h2", { id: "best-countries-h" }, "Best countries"),
    h("p", {}, t.status === "COMPLETED" ? "Final. " : "Leaders over the boards finished so far. ", ruleWords(t.bestCountryRule)),
    bestCountriesList(t.bestCountries),
    awards,
    page.director ? page.keep("give-award", t.entrants.map((/** @type {any} */ e) => e.player.id), () => giveForm(page)) : null,
    page.director ? page.keep("best-country-rule", t.bestCountryRule, () => ruleForm(page)) : null);
}

/** The projector page's slide, once any power has a leader. @param {any} t
 * @returns {{ title: string, render: () => HTMLElement } | null} */
export function bestCountriesSlide(t) {
  if (!t.bestCountries?.some((/** @type {any} */ p) => p.leaders.length > 0)) return null;
  return {
    title: "Best countries",
    render: () => h("section", { class: "kiosk-view", "aria-labelledby": "kiosk-view-h" },
      h("h2", { id: "kiosk-view-h" }, "Best countries"),
      bestCountriesList(t.bestCountries)),
  };
}
