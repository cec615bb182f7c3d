// @ts-check
/** @file The admin's page: register players (each token shown once, with a copy button) and
 * create leagues (every setting, defaults shown). */

import { gql, session } from "./api.js";
import { h, replace, copy, announce } from "./dom.js";
import { catalogue, playersPerGame } from "./catalogue.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors, requireFilled, input, numberOf, onSubmit, competitionFields } from "./forms.js";
import { navigate } from "./main.js";

/** @type {import("./main.js").View} */
export async function adminView(main) {
  if (session.role?.kind !== "admin") {
    replace(main, h("h1", {}, "Admin"), h("p", {}, "This page is for the admin. ", h("a", { href: "/signin" }, "Sign in with the admin token.")));
    return;
  }
  const [cat, players] = await Promise.all([catalogue(), playersList()]);
  replace(main, h("h1", {}, "Admin"), registerForm(), createLeagueForm(cat), players,
    h("section", {}, h("h2", {}, "Correct a result"), h("p", {}, "Open a finished game from its league page and choose “Correct result”.")));
}

function registerForm() {
  const name = /** @type {HTMLInputElement} */ (h("input", { type: "text", required: true, autocomplete: "off" }));
  const issued = h("ul", { class: "tokens", "aria-live": "polite" });
  const form = h("form", { novalidate: true, "aria-labelledby": "register-h" },
    h("h2", { id: "register-h" }, "Register a player"),
    formError(),
    field("Name", name, { field: "name" }),
    h("button", { type: "submit", class: "primary" }, "Register"),
    issued);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!requireFilled(form)) return;
    try {
      const { registerPlayer } = await gql(Q.REGISTER_PLAYER, { name: name.value.trim() });
      const { player, token } = registerPlayer;
      const status = h("span", { class: "copied", role: "status" });
      issued.append(h("li", { "data-player": player.name },
        h("a", { href: `/players/${player.id}` }, player.name), ": ",
        h("code", { class: "token" }, token), " ",
        h("button", { type: "button", "aria-label": `Copy ${player.name}'s token`, onclick: async () => {
          status.textContent = (await copy(token)) ? "Copied." : "Copy failed: select the token and copy it.";
        } }, "Copy"), " ", status,
        h("p", { class: "hint" }, "Shown only now: the server keeps only its hash.")));
      announce(`${player.name} registered.`);
      name.value = "";
      name.focus();
    } catch (error) {
      showError(form, error);
    }
  });
  return form;
}

/** The create-league form; its pickers and k limits come from the catalogue.
 * @param {import("./catalogue.js").Catalogue} cat */
function createLeagueForm(cat) {
  const number = (/** @type {Record<string, any>} */ attrs = {}) => input("number", { step: 1, ...attrs });
  const competition = competitionFields(cat);
  const { system, systemRule } = competition;
  const k = number({ required: true, value: 7 });
  const size = number({ min: 2, value: 8, placeholder: "8" });
  const s = number({ min: 1, placeholder: "from the table for k" });
  const active = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox" }));
  const aggregation = /** @type {HTMLSelectElement} */ (h("select", {},
    cat.aggregations.map((info) => h("option", { value: info.kind, title: info.rule }, info.displayName))));
  const bestN = number({ min: 1, placeholder: "games that count", disabled: true });
  const takesN = () => cat.aggregations.find((info) => info.kind === aggregation.value)?.takesN ?? false;
  const showAggregation = () => {
    // N only means something for an aggregation that takes it.
    bestN.disabled = !takesN();
    bestN.required = !bestN.disabled;
    aggregationRule.textContent = cat.aggregations.find((info) => info.kind === aggregation.value)?.rule ?? "";
  };
  // Hints that follow the chosen system and aggregation (wired to their controls by `field`).
  const kField = field("Players per game (k)", k, { field: "playersPerGame", hint: " " });
  const aggregationField = field("Standings total", aggregation, { field: "aggregation", hint: " " });
  const hintOf = (/** @type {HTMLElement} */ el) => /** @type {HTMLElement} */ (el.querySelector(".hint"));
  const kHint = hintOf(kField), aggregationRule = hintOf(aggregationField);
  const showSystem = () => {
    const info = cat.bySystem.get(system.value);
    if (!info) return;
    // k within the system's limits: the nearest allowed value when the current one is not.
    k.min = String(info.minPlayersPerGame);
    if (info.maxPlayersPerGame === null) k.removeAttribute("max");
    else k.max = String(info.maxPlayersPerGame);
    const current = Number(k.value);
    if (k.value !== "" && current < info.minPlayersPerGame) k.value = String(info.minPlayersPerGame);
    if (k.value !== "" && info.maxPlayersPerGame !== null && current > info.maxPlayersPerGame) k.value = String(info.maxPlayersPerGame);
    kHint.textContent = `${info.displayName}: ${playersPerGame(info)} players per game.`;
    systemRule.textContent = info.rule;
  };
  aggregation.addEventListener("change", showAggregation);
  system.addEventListener("change", showSystem);
  showSystem();
  showAggregation();
  const form = h("form", { novalidate: true, "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, "Create a league"),
    formError(),
    competition.fields,
    kField,
    field("League size (N)", size, { field: "size", hint: "Default 8." }),
    field("Games per seat (s)", s, { field: "gamesPerSeat", hint: "Default: the seed table's value for k (empty = default)." }),
    field("Require active players", active, { field: "requireActivePlayers", hint: "Default: no." }),
    aggregationField,
    field("Best N: games that count (N)", bestN, { field: "aggregation.n", hint: "From 1 to the games each player plays (k × s)." }),
    h("button", { type: "submit", class: "primary" }, "Create league"));
  onSubmit(form, async (idempotencyKey) => {
    const settings = {
      ...competition.read(),
      playersPerGame: numberOf(k),
      size: numberOf(size),
      gamesPerSeat: numberOf(s),
      requireActivePlayers: active.checked,
      aggregation: takesN() ? { kind: aggregation.value, n: numberOf(bestN) } : { kind: aggregation.value },
    };
    const { createLeague } = await gql(Q.CREATE_LEAGUE, { input: settings, idempotencyKey });
    announce(`League ${createLeague.name} created.`);
    navigate(`/leagues/${createLeague.id}`);
  });
  return form;
}

async function playersList() {
  const { players } = await gql(Q.PLAYERS, { first: 100, after: null });
  return h("section", { "aria-labelledby": "players-h" },
    h("h2", { id: "players-h" }, `Players (${players.totalCount})`),
    players.nodes.length === 0 ? h("p", {}, "None registered yet.")
      : h("ul", { class: "columns" }, players.nodes.map((/** @type {any} */ p) => h("li", {}, h("a", { href: `/players/${p.id}` }, p.name)))),
    players.pageInfo.hasNextPage ? h("p", {}, `The first 100 of ${players.totalCount}.`) : null);
}
