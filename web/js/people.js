// @ts-check
/** @file The site admin's People page: find players by name, appoint or dismiss them as
 * organisers and issue a sign-in link (shown with its QR code) in their row; each row opens
 * the player's account page (tokens, access request, erasure: account.js). Also the player
 * search the organisers page uses. */

import { gql, session } from "./api.js";
import { h, replace, badge, when } from "./dom.js";
import { table, pager, firstRow } from "./table.js";
import { command, formError, input } from "./forms.js";
import * as Q from "./queries.js";
import { linkCard } from "./sign-in.js";

const PAGE = 20;

/**
 * A search form (a `search` landmark): `found(search)` runs on each search, the empty one
 * first (everyone).
 * @param {string} label what the field asks, e.g. "Find a player by name"
 * @param {(search: string) => Promise<void>} found
 */
export function playerSearch(label, found) {
  const text = input("search", { id: "player-search", autocomplete: "off" });
  const form = h("form", { role: "search", class: "search" },
    h("label", { for: "player-search" }, label), " ",
    text, " ", h("button", { type: "submit" }, "Search"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void found(text.value.trim());
  });
  return form;
}

/** A player's name with their role and erasure as badges. @param {any} p */
export const nameWithBadges = (p) => [p.name, p.isOrganiser ? [" ", badge("Organiser")] : null, p.erased ? [" ", badge("Erased")] : null];

/** @type {import("./main.js").View} */
export async function peopleView(main) {
  if (session.role?.kind !== "admin") {
    replace(main, h("h1", {}, "People"), h("p", {}, "This page is for the site admin. ", h("a", { href: "/signin" }, "Sign in.")));
    return;
  }
  const issued = h("div", { id: "sign-in-link", "aria-live": "polite" });
  const results = h("div", { id: "people", "aria-live": "polite" });
  /** @type {(string|null)[]} */
  let stack = [null];
  let search = "";
  const load = async () => {
    const { players } = await gql(Q.FIND_PLAYERS, { first: PAGE, after: stack[stack.length - 1], search });
    const caption = search ? `Players named like “${search}”: ${players.totalCount}` : `Every player: ${players.totalCount}`;
    replace(results, players.nodes.length === 0 ? h("p", {}, "No player found.")
      : [table(["Player", "Actions"], players.nodes.map((/** @type {any} */ p) => personRow(p, load, issued)), { class: "people", caption }),
        players.totalCount > PAGE ? h("p", { class: "hint" }, `From ${firstRow(stack, PAGE)}.`) : null,
        pager(stack, players.pageInfo, load)]);
  };
  replace(main, h("h1", {}, "People"),
    playerSearch("Find a player by name", async (text) => {
      search = text;
      stack = [null];
      await load();
    }),
    h("p", { class: "hint" }, "Appoint or dismiss organisers and hand out sign-in links here; open a player for their token, their data and erasure. ",
      h("a", { href: "/admin" }, "Register a player"), " on the admin page."),
    issued,
    results);
  await load();
}

/** One player's row: their name (opening their account page), the organiser switch and a
 * sign-in link, shown in `issued`.
 * @param {any} p @param {() => Promise<void>} reload @param {HTMLElement} issued */
function personRow(p, reload, issued) {
  const cell = h("td", {}, formError());
  const act = (/** @type {string} */ doc, /** @type {string} */ done) => () =>
    void command(cell, () => gql(doc, { playerId: p.id }), done, reload);
  const issue = () => void command(cell, async () => {
    const { issueSignInLink } = await gql(Q.ISSUE_SIGN_IN_LINK, { playerId: p.id, returnTo: null });
    replace(issued, h("h2", {}, `Sign-in link for ${p.name}`), linkCard(issueSignInLink, `It works once, until ${when(issueSignInLink.expiresAt)}.`));
    issued.scrollIntoView();
  }, `A sign-in link for ${p.name} is shown above the list.`, async () => {});
  const link = h("button", { type: "button", "aria-label": `Sign-in link for ${p.name}`, onclick: issue }, "Sign-in link");
  const controls = p.erased ? ["—"] : p.isOrganiser
    ? [h("button", { type: "button", "aria-label": `Dismiss ${p.name} as organiser`, onclick: act(Q.DISMISS_ORGANISER, `${p.name} is no longer an organiser.`) }, "Dismiss"), link]
    : [h("button", { type: "button", "aria-label": `Appoint ${p.name} organiser`, onclick: act(Q.APPOINT_ORGANISER, `${p.name} is an organiser now.`) }, "Appoint"), link];
  cell.append(h("div", { class: "actions" }, controls));
  return h("tr", { "data-player": p.name },
    h("th", { scope: "row" }, h("a", { href: `/players/${p.id}/account` }, ...nameWithBadges(p))),
    cell);
}
