// @ts-check
/** @file Sign-in with the site's identity provider (docs/sign-in.md#identity-providers):
 * the sign-in page's "Sign in with <provider>" link, and the section of a player's own page
 * that links their identity there once (or unlinks it). The flow itself runs on the server
 * (`/auth/oidc/start` → the provider → `/auth/oidc/callback`), so its links leave the app
 * (`data-external`); the server lands the person back on the page they came from. */

import { gql } from "./api.js";
import { h, replace, announce } from "./dom.js";
import * as Q from "./queries.js";
import { signInMethods } from "./sign-in.js";

/** Where the sign-in page keeps the page to return to (see api.js `goBack`). */
const RETURN_KEY = "league.returnTo";

/** The site's identity provider, `null` when it has none. @returns {Promise<{ name: string, linked: boolean } | null>} */
async function siteProvider() {
  const { signInMethods } = await gql(Q.SIGN_IN_METHODS);
  return signInMethods.identityProvider;
}

/** The address that starts the flow, returning to `path`. @param {string} path */
function startAddress(path) {
  return `/auth/oidc/start?return=${encodeURIComponent(path)}`;
}

/**
 * The sign-in page's "Sign in with <provider>" section: hidden until the server says the
 * site has an identity provider. After signing in there, the person lands on the page they
 * came from (kept by api.js `rememberReturn`; read here, not taken).
 * @returns {HTMLElement}
 */
export function identitySignIn() {
  const section = h("section", { class: "identity-sign-in", "aria-labelledby": "identity-h", hidden: true });
  void siteProvider().then((provider) => {
    if (!provider) return;
    const back = sessionStorage.getItem(RETURN_KEY) ?? "/";
    replace(section,
      h("h2", { id: "identity-h" }, `With your ${provider.name} account`),
      h("p", {}, h("a", { class: "button", href: startAddress(back), "data-external": true }, `Sign in with ${provider.name}`)),
      h("p", { class: "hint" }, `Works once you have linked your ${provider.name} account on your page.`));
    section.hidden = false;
  });
  return section;
}

signInMethods.push(identitySignIn);

/**
 * A player's own page: link their identity at the site's provider once (they then sign in
 * there with nothing else), or unlink it. `null` when the site has no identity provider.
 * @param {string} playerId the signed-in player, whose page this is
 * @returns {Promise<HTMLElement|null>}
 */
export async function identitySection(playerId) {
  const provider = await siteProvider();
  if (!provider) return null;
  const section = h("section", { "aria-labelledby": "identity-link-h" });
  const show = (/** @type {boolean} */ linked) => replace(section,
    h("h2", { id: "identity-link-h" }, `Sign in with ${provider.name}`),
    linked
      ? [h("p", {}, `Your ${provider.name} account is linked: you can sign in with it on any device.`),
        h("button", { type: "button", onclick: () => void unlink() }, `Unlink my ${provider.name} account`)]
      : [h("p", { class: "hint" }, `Link your ${provider.name} account once, then sign in with it on any device.`),
        h("p", {}, h("a", { class: "button", href: startAddress(`/players/${playerId}`), "data-external": true }, `Link my ${provider.name} account`))]);
  const unlink = async () => {
    await gql(Q.UNLINK_IDENTITY);
    show(false);
    announce(`Your ${provider.name} account is no longer linked.`);
  };
  show(provider.linked);
  return section;
}
