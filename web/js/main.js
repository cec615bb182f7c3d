// @ts-check
/** @file The app: a small router over the History API and one view per page (leagues,
 * league, game, player, audit, ratings, tournaments, tournament, board, board call, sign-in,
 * sign-up, admin, people, a player's account, a competition's organisers, webhooks, walk-ins,
 * the projector page, series).
 * Views render into `<main>` and return a clean-up function that ends their live
 * subscriptions. */

import { session, gql, rememberReturn } from "./api.js";
import { ME } from "./queries.js";
import { h, replace } from "./dom.js";
import { leaguesView, leagueView } from "./league.js";
import { auditView, tournamentAuditView } from "./audit.js";
import { playerView, gameView } from "./player.js";
import { adminView } from "./admin.js";
import { signInView, signInLinkView, signInSheetView } from "./sign-in.js";
import { ratingsView } from "./ratings.js";
import { tournamentsView } from "./tournaments.js";
import { tournamentView } from "./tournament.js";
import { boardView, boardCallView } from "./board.js";
import { peopleView } from "./people.js";
import { accountView } from "./account.js";
import { leagueOrganisersView, tournamentOrganisersView } from "./organisers.js";
import { webhooksView } from "./webhooks.js";
import { walkInsView } from "./walk-ins.js";
import { signUpView } from "./signup.js";
import { kioskView } from "./kiosk.js";
import { seriesListView, seriesView } from "./series.js";

/** @typedef {(main: HTMLElement, params: string[]) => (void | (() => void) | Promise<void | (() => void)>)} View */

/** @type {[RegExp, View][]} */
const ROUTES = [
  [/^\/$/, leaguesView],
  [/^\/leagues\/([^/]+)$/, leagueView],
  [/^\/leagues\/([^/]+)\/audit$/, auditView],
  [/^\/leagues\/([^/]+)\/organisers$/, leagueOrganisersView],
  [/^\/games\/([^/]+)$/, gameView],
  [/^\/players\/([^/]+)$/, playerView],
  [/^\/players\/([^/]+)\/account$/, accountView],
  [/^\/ratings(?:\/([^/]+))?$/, ratingsView],
  [/^\/tournaments$/, tournamentsView],
  [/^\/tournaments\/([^/]+)$/, tournamentView],
  [/^\/tournaments\/([^/]+)\/organisers$/, tournamentOrganisersView],
  [/^\/tournaments\/([^/]+)\/audit$/, tournamentAuditView],
  [/^\/tournaments\/([^/]+)\/boards\/([^/]+)$/, boardView],
  [/^\/tournaments\/([^/]+)\/rounds\/(\d+)\/board-call$/, boardCallView],
  [/^\/tournaments\/([^/]+)\/walk-ins$/, walkInsView],
  [/^\/signup$/, signUpView],
  [/^\/tournaments\/([^/]+)\/sign-in-sheet$/, signInSheetView],
  [/^\/signin$/, signInView],
  [/^\/signin\/link$/, signInLinkView],
  [/^\/admin$/, adminView],
  [/^\/people$/, peopleView],
  [/^\/webhooks$/, webhooksView],
  [/^\/tournaments\/([^/]+)\/kiosk$/, kioskView],
  [/^\/series$/, seriesListView],
  [/^\/series\/([^/]+)$/, seriesView],
];

/** @type {(() => void) | null} */
let cleanup = null;
let generation = 0;

/** Goes to an app path without a reload. Going to the sign-in page remembers where from, to
 * come back there once signed in. @param {string} path */
export function navigate(path) {
  if (path === "/signin") rememberReturn(location.pathname);
  history.pushState(null, "", path);
  void render(true);
}

/** Renders the page for the current URL. @param {boolean} [moveFocus] */
async function render(moveFocus = false) {
  const mine = ++generation;
  if (cleanup) cleanup();
  cleanup = null;
  renderNav();
  // Each page gets a fresh main element: a page still loading when the reader moves on
  // writes into the one it was given, which is no longer in the document.
  const stale = /** @type {HTMLElement} */ (document.getElementById("main"));
  const main = /** @type {HTMLElement} */ (stale.cloneNode(false));
  stale.replaceWith(main);
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const route = ROUTES.find(([re]) => re.test(path));
  replace(main, h("p", { class: "loading" }, "Loading…"));
  if (!route) {
    replace(main, h("h1", {}, "Not found"), h("p", {}, "There is no page here. ", h("a", { href: "/" }, "See the leagues.")));
    return;
  }
  const params = /** @type {RegExpExecArray} */ (route[0].exec(path)).slice(1).map((p) => (p === undefined ? p : decodeURIComponent(p)));
  try {
    const done = await route[1](main, params);
    if (mine !== generation) {
      if (typeof done === "function") done();
      return;
    }
    cleanup = typeof done === "function" ? done : null;
  } catch (error) {
    if (mine !== generation) return;
    replace(main, h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error instanceof Error ? error.message : String(error)));
  }
  if (moveFocus) {
    const heading = main.querySelector("h1");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus();
    }
    document.title = `${heading?.textContent ?? "League"} · League`;
  } else {
    document.title = `${main.querySelector("h1")?.textContent ?? "League"} · League`;
  }
}

/** The navigation: what the signed-in role may reach, and sign in/out. */
export function renderNav() {
  const nav = /** @type {HTMLElement} */ (document.getElementById("nav"));
  const role = session.role;
  const here = location.pathname;
  /** @param {string} href @param {string} text @param {boolean} [section] current on every page under `href` */
  const link = (href, text, section = false) =>
    h("li", {}, h("a", { href, "aria-current": here === href || (section && here.startsWith(`${href}/`)) ? "page" : null }, text));
  replace(
    nav,
    link("/", "Leagues"),
    link("/tournaments", "Tournaments", true),
    link("/ratings", "Ratings", true),
    link("/series", "Series", true),
    role?.kind === "admin" ? link("/admin", "Admin") : null,
    role?.kind === "admin" ? link("/people", "People") : null,
    role?.kind === "player" ? link(`/players/${role.id}`, "My page") : null,
    h("li", {}, h("a", { href: "/graphiql", "data-external": "" }, "GraphiQL")),
    role
      ? h("li", { class: "who" },
          h("span", {}, role.kind === "admin" ? "Admin" : role.name),
          h("button", { type: "button", class: "link", onclick: () => void signOut() }, "Sign out"))
      : link("/signin", "Sign in"),
  );
}

async function signOut() {
  await session.signOut();
  navigate("/");
}

document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("a") : null;
  if (!target || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const href = target.getAttribute("href");
  if (!href || !href.startsWith("/") || target.hasAttribute("data-external") || target.target) return;
  event.preventDefault();
  navigate(href);
});
window.addEventListener("popstate", () => void render(true));

// A token from an earlier page of this browser session is checked once: a server with a
// fresh database no longer knows it.
if (session.token) {
  gql(ME).catch(() => {
    void session.signOut();
    renderNav();
  });
}
// Who the session cookie signs in is known before the first page renders.
session.refresh().catch(() => session.forget()).finally(() => void render());
